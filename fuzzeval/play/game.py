"""What a game plug-in provides: the two protocols the match runner and calibrator rely on.

A game is a pure state machine over immutable states. Chance (deals, cuts, dice) happens
inside ``new_game`` and ``apply`` from the Generator passed in; every non-final state waits
for one decision, offered as ``Candidates``. A player sees only the candidates (with the
game's view of what that player may know), never the state, so it cannot peek at the deck.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.evaluator import Evaluator, compile_rulebase
from fuzzeval.engine.rulebase import RuleBase

FloatArray = npt.NDArray[np.float64]
T = TypeVar("T", covariant=True)  # a hook of a narrower type is one of a wider


@dataclass(frozen=True)
class Feature:
    """A crisp feature a game computes for its options: the name a rule base uses as an
    input variable, its natural range, and what it means."""

    name: str
    lo: float
    hi: float
    meaning: str


def compile_for_features(rb: RuleBase, features: Sequence[str], game: str) -> Evaluator:
    """Compile a rule base whose inputs must all be features of ``game``."""
    unknown = [n for n in rb.input_names if n not in features]
    if unknown:
        raise ValueError(f"rule base {rb.name!r}: inputs {unknown} are not {game} features "
                         f"({', '.join(features)})")
    return compile_rulebase(rb)


@dataclass(frozen=True)
class Candidates:
    """Every option of one decision, and what the deciding player may know.

    ``features`` has one row per option and one column per name in ``feature_names``
    (the input variables of the game's rule bases; zero columns when the game has none
    for this kind of decision), or is a function from option indices to those rows, for
    games whose features cost more than the logging of one chosen option needs
    (``feature_rows`` reads either). ``view`` is the game's own record of the visible
    situation, for the game's players; ``record`` is what the history database keeps
    about the decision (short strings and numbers).
    """

    kind: str
    labels: Sequence[str]  # a tuple, or any sequence that writes a label when asked
    features: FloatArray | Callable[[Sequence[int]], FloatArray]
    feature_names: tuple[str, ...] = ()
    view: object = None
    record: Mapping[str, str | int | float] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.labels)

    def feature_rows(self, indices: Sequence[int]) -> FloatArray:
        """The features of some options, (len(indices), len(feature_names))."""
        if callable(self.features):
            return self.features(indices)
        rows: FloatArray = self.features[list(indices)]
        return rows


class Player(Protocol):
    """Chooses one option; ties and randomness are the player's business (rng given).
    What a player may add (``decide``, ``logged_kinds``, ...) is listed in
    ``PlayerHooks``."""

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int: ...


@dataclass(frozen=True)
class Payoff:
    """What a game pays each seat when it ends, as one real number per seat: its unit
    (what a match's mean is reported in) and which way is better. Backgammon pays the
    points of a win (``points per game``, the winner's gain being the loser's loss); a
    Hearts hand pays the points a seat took, where less is better."""

    unit: str
    higher_is_better: bool = True

    def better(self, a: float, b: float) -> bool:
        """Whether payoff ``a`` is strictly better than ``b``."""
        return a > b if self.higher_is_better else a < b


#: the payoff of a two-seat game whose winner gains what the loser loses
WIN_POINTS = Payoff("game points per game")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, seen from every seat (seat 0 first).

    ``winner`` is the winning seat, or None for a game that pays without a winner (a Hearts
    hand); ``result`` names the kind of win (cribbage: single, skunk, double skunk;
    backgammon: single, gammon, backgammon; "" when there is no winner) and ``points`` what
    it is worth. ``scores`` are the final scores, ``payoffs`` what each seat is paid, in the
    unit of the game's ``payoff``; a two-seat game with a winner may leave them out, and is
    then paid ``points`` to the winner and ``-points`` to the loser. ``unit_points`` are the
    points each seat made in each deal (or other unit the game has); ``stats`` are totals
    per seat that match tables report per unit (e.g. pegging, hand, crib).
    """

    winner: int | None
    scores: tuple[int, ...]
    result: str
    points: int
    unit_points: tuple[tuple[int, ...], ...]
    stats: Mapping[str, tuple[int, ...]]
    payoffs: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if self.payoffs:
            if len(self.payoffs) != len(self.scores):
                raise ValueError(f"{len(self.payoffs)} payoffs for {len(self.scores)} seats")
            return
        if self.winner is None or len(self.scores) != 2:
            raise ValueError("an outcome without a two-seat winner must give its payoffs")
        won = float(self.points)
        object.__setattr__(self, "payoffs", (won, -won) if self.winner == 0 else (-won, won))

    @property
    def seats(self) -> int:
        return len(self.scores)

    @property
    def units(self) -> int:
        return len(self.unit_points)

    def did_well(self, seat: int, payoff: Payoff) -> bool:
        """Whether ``seat`` won the game, or, in a game without a winner, was paid better
        than the table's mean: what a calibration counts as winning play."""
        if self.winner is not None:
            return self.winner == seat
        return payoff.better(self.payoffs[seat], sum(self.payoffs) / len(self.payoffs))

    def unit_did_well(self, unit: int, seat: int, payoff: Payoff) -> bool:
        """Whether ``seat`` did better than the table's mean in one unit (deal, hand): with
        two seats, better than the other seat."""
        points = self.unit_points[unit]
        return payoff.better(points[seat], sum(points) / len(points))


class Game(Protocol):
    """A game plug-in for any number of seats (exported as ``GAME`` through the
    ``fuzzeval.games`` group).

    What every game has is below; what a game may add (its rule base for play, features,
    hidden-information hooks, a play interface, ...) is listed in ``GameHooks`` with each
    hook's contract, and looked up only through ``hook``.
    """

    name: str
    #: how many players sit at the table
    seats: int
    #: what a finished game pays each seat, and which way is better
    payoff: Payoff
    #: decision kinds kept in the history database (cribbage: the discard, not each card laid)
    logged_kinds: frozenset[str]
    #: what a unit of ``Outcome.unit_points`` is called ("deal"), or "" when there is none
    unit_name: str
    #: the player names ``make_player`` knows
    player_names: tuple[str, ...]
    #: the player that plays from a rule base (``make_player(name, rulebase=PATH)``), and the
    #: shipped rule base and opponent a calibration uses by default ("" when the game has none)
    rulebase_player: str
    default_rulebase: str
    default_opponent: str

    def new_game(self, rng: np.random.Generator, first: int, **options: Any) -> Any:
        """A fresh game where seat ``first`` moves (deals) first."""
        ...

    def to_move(self, state: Any) -> int | None:
        """The seat that decides next, None once the game is over."""
        ...

    def candidates(self, state: Any) -> Candidates:
        """The options of the seat to move (never empty before the end)."""
        ...

    def apply(self, state: Any, choice: int, rng: np.random.Generator) -> Any:
        """The state after option ``choice``, including any chance that follows it."""
        ...

    def unit(self, state: Any) -> int:
        """Which unit (deal) the state is in, counting from 0."""
        ...

    def outcome(self, state: Any) -> Outcome:
        """The result of a finished game."""
        ...

    def make_player(self, name: str, **options: Any) -> Player:
        """A player by name; options are the player's settings (strings or numbers)."""
        ...

    def prepare(self) -> None:
        """Build lookup tables once per process, before the first game."""
        ...


@dataclass(frozen=True)
class Advice:
    """What one advisor would choose, and why, for a person deciding at a terminal: its
    best options as table rows (best first, already written out), a line of how it judged
    them, and, for a rule base, the explanation of its choice."""

    advisor: str
    choice: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""
    explanation: tuple[Evaluator, Any] | None = None  # (the evaluator, its Explanation)


class PlayInterface(Protocol):
    """How a game is shown to a person and read from one (``Game.play_interface()``, an
    optional method): the human player and ``fuzzeval play`` see only this and the
    candidates, and ``fuzzeval history show`` replays a stored game through ``narrate``.

    ``names`` are the seats' names as shown, seat 0 first; ``viewer`` is the seat whose
    eyes the text is for (None: everything, for a replay of a stored game). ``advisors``
    are the players ``?`` asks when the person names none (``NAME[:key=value,...]``).
    """

    advisors: tuple[str, ...]

    def start(self, state: Any, names: tuple[str, ...]) -> list[str]:
        """What there is to say when a game begins (who deals or moves first)."""
        ...

    def situation(self, candidates: Candidates, names: tuple[str, ...], seat: int
                  ) -> list[str]:
        """What the seat deciding sees (its hand, the count, the board, the scores)."""
        ...

    def prompt(self, candidates: Candidates) -> str:
        """What to type, e.g. 'throw two cards (e.g. 5H 5S)'."""
        ...

    def parse(self, text: str, candidates: Candidates) -> int:
        """The option a person typed; a ValueError or FuzzevalError whose message says in
        one line what is wrong and what would do."""
        ...

    def narrate(self, before: Any, choice: int, after: Any, names: tuple[str, ...],
                viewer: int | None) -> list[str]:
        """What happened in one move: the choice, and the chance and scoring that followed
        it (hidden cards stay hidden from ``viewer``)."""
        ...

    def advise(self, candidates: Candidates, player: Player, name: str,
               every: bool = False) -> Advice:
        """What ``player`` (written ``name``, as made by ``make_player``) would choose
        here, and why (``fuzzeval.play.advice`` judges a player the game does not know):
        its best few options, as a terminal shows them, or with ``every`` all of them."""
        ...

    #: the fields of a decision typed by a person (``spot``), as the game's advice
    #: command takes them: (name, what to type)
    spot_fields: tuple[tuple[str, str], ...]

    def spot(self, fields: Mapping[str, str]) -> Candidates:
        """The decision a person typed, read as the game's advice command reads it (a
        field left out: its default there); a ValueError or FuzzevalError in one line."""
        ...


# Optional hooks. A game, a player, a game's hidden-information object or an OpenSpiel
# bridge may offer more than its protocol asks; each extra is declared here once, with its
# contract, and read only through ``hook``, so a misspelt name is an error (mypy's, or
# tests/test_hooks.py's) rather than a hook silently absent, and ``check_game``,
# ``check_player`` and ``check_bridge`` can hold every hook offered to its contract.

#: what is wrong with a hook's value, in a few words ("" when nothing)
Shape = Callable[[object], str]


@dataclass(frozen=True)
class Hook(Generic[T]):
    """One optional attribute of a game or a player: its name, its contract in one line,
    and a check of a value's shape (``T`` is the type a caller gets from ``hook``)."""

    name: str
    contract: str
    shape: Shape


def hook(owner: object, which: Hook[T]) -> T | None:
    """``owner``'s hook ``which``, or None where it offers none: the one place hooks are
    looked up (``check_game`` has held a game's to their contracts)."""
    found: T | None = getattr(owner, which.name, None)
    return found


def _text(value: object) -> str:
    return "" if isinstance(value, str) and value else f"{value!r} is not a non-empty string"


def _names(value: object) -> str:
    if isinstance(value, tuple) and value and all(isinstance(v, str) and v for v in value):
        return ""
    return f"{value!r} is not a non-empty tuple of names"


def _kinds(value: object) -> str:
    if isinstance(value, frozenset) and all(isinstance(v, str) for v in value):
        return ""
    return f"{value!r} is not a frozenset of decision kinds"


def _flag(value: object) -> str:
    return "" if isinstance(value, bool) else f"{value!r} is not True or False"


def _method(signature: str, args: int, options: bool = False) -> Shape:
    """A callable that takes ``args`` arguments (and keyword options) as ``signature``."""
    def shape(value: object) -> str:
        if not callable(value):
            return f"{value!r} is not callable"
        try:
            inspect.signature(value).bind(*range(args), **({"option": 0} if options else {}))
        except TypeError:
            return f"does not take {signature}"
        except ValueError:  # no signature to read (some builtins): calls will tell
            pass
        return ""
    return shape


def _with(*methods: str) -> Shape:
    """An object with these methods."""
    def shape(value: object) -> str:
        missing = [m for m in methods if not callable(getattr(value, m, None))]
        return f"{type(value).__name__} has no {', '.join(missing)}" if missing else ""
    return shape


def _features(value: object) -> str:
    if not isinstance(value, tuple) or not value or \
            not all(isinstance(f, Feature) for f in value):
        return f"{value!r} is not a non-empty tuple of Feature"
    names = [f.name for f in value]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        return f"features {', '.join(twice)} are listed twice"
    empty = [f.name for f in value if not f.lo < f.hi]
    return f"features {', '.join(empty)} have an empty range (lo >= hi)" if empty else ""


def _formats(value: object) -> str:
    if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and callable(getattr(v, "line", None))
            and isinstance(getattr(v, "comment", None), str) for k, v in value.items()):
        return f"{value!r} is not a mapping of names to LineFormat"
    return ""


def _stop(value: object) -> str:
    stop = getattr(value, "stop", None)
    return "" if isinstance(stop, str) else f"{value!r} has no stop rule (stop)"


def _instance(kind: type) -> Shape:
    def shape(value: object) -> str:
        return "" if isinstance(value, kind) else f"{value!r} is not a {kind.__name__}"
    return shape


class GameHooks:
    """Every optional hook of a game plug-in (``check_game`` checks the ones it offers)."""

    features: Hook[tuple[Feature, ...]] = Hook(
        "features", "the features of its candidates, with their ranges: what `fuzzeval "
        "learn` and the td player read", _features)
    logged_kinds_for: Hook[Callable[..., frozenset[str]]] = Hook(
        "logged_kinds_for", "(**options) -> the kinds of decision a game with these options "
        "logs (some of `logged_kinds`)", _method("(**options)", 0, options=True))
    tournament_players: Hook[tuple[str, ...]] = Hook(
        "tournament_players", "the players of a default round robin (some of "
        "`player_names`), when some are too slow for one", _names)
    play_rulebase: Hook[str] = Hook(
        "play_rulebase", "the shipped rule base the rule-base player reads when none is "
        "named, when not `default_rulebase`; a stored match is tied to its content",
        _text)
    implied_options: Hook[Callable[[str, Mapping[str, Any]], Mapping[str, Any]]] = Hook(
        "implied_options", "(name, options) -> the options with the defaults of the files "
        "the player reads filled in, for a match's fingerprint", _method("(name, options)", 2))
    hidden_information: Hook[Any] = Hook(  # fuzzeval.search.sampling.HiddenInformation
        "hidden_information", "determinize, finished and value (and the optional "
        "HiddenInformationHooks): what the sampling player simulates with",
        _with("determinize", "finished", "value"))
    sampling_rollout: Hook[str] = Hook(
        "sampling_rollout", "the player the sampling player's playouts use by default, "
        "when not `default_opponent` (one of `player_names`)", _text)
    payoff_so_far: Hook[Callable[[Any, int], float]] = Hook(
        "payoff_so_far", "(state, seat) -> what the game has paid the seat so far, for "
        "TD(λ) and playouts that stop short", _method("(state, seat)", 2))
    learning_game: Hook[Callable[[Any], Any]] = Hook(
        "learning_game", "(evaluator) -> the game whose own moves follow the values being "
        "learned (e.g. its cards laid by a search over them): what `fuzzeval learn` plays "
        "each game in", _method("(evaluator)", 1))
    lookahead_value: Hook[Callable[[Any], Any]] = Hook(
        "lookahead_value", "(evaluator) -> (candidates, index) -> the candidate's value "
        "searched a ply deeper over the evaluator's values: what `fuzzeval learn --target "
        "lookahead` learns toward", _method("(evaluator)", 1))
    option_count: Hook[Callable[[Any], int]] = Hook(
        "option_count", "(state) -> how many options the seat to move has, as "
        "len(candidates(state)) without building them: what the maxⁿ search counts",
        _method("(state)", 1))
    play_interface: Hook[Callable[[], PlayInterface]] = Hook(
        "play_interface", "() -> a PlayInterface: `fuzzeval play` and `fuzzeval history "
        "show`", _method("()", 0))
    chance_events: Hook[Callable[[Any, Any], list[dict[str, Any]]]] = Hook(
        "chance_events", "(before, after) -> what chance brought between two states (before "
        "None: the start), as JSON objects, for `fuzzeval history export`",
        _method("(before, after)", 2))
    export_formats: Hook[Mapping[str, Any]] = Hook(  # fuzzeval.play.export.LineFormat
        "export_formats", "names of the game's own text formats and their LineFormat, for "
        "`fuzzeval history export --format`", _formats)
    rulebase_measure: Hook[Callable[..., Any]] = Hook(  # -> fuzzeval.learn.measure's
        "rulebase_measure", "(inputs, deals, seed, executor, cache_dir, progress) -> a "
        "RulebaseMeasure of rule bases of these inputs, or None: `tune`, held-out deals",
        _method("(inputs, deals, seed, executor, cache_dir, progress)", 6))


class PlayerHooks:
    """Every optional hook of a player."""

    decide: Hook[Callable[[Candidates, np.random.Generator],
                          tuple[int, Mapping[str, str | int | float]]]] = Hook(
        "decide", "(candidates, rng) -> the choice and a note kept with the decision (a "
        "simulation's trials and means)", _method("(candidates, rng)", 2))
    logged_kinds: Hook[frozenset[str]] = Hook(
        "logged_kinds", "kinds of decision to log with features besides the game's (a "
        "pegging rule base's plays)", _kinds)
    logs_features: Hook[bool] = Hook(
        "logs_features", "False: its logged decisions carry no features (it reads none); "
        "default True", _flag)
    rulebase: Hook[RuleBase] = Hook(
        "rulebase", "the rule base it plays from (cribbage: its discard's), which advice "
        "names", _instance(RuleBase))
    estimate: Hook[Callable[[Candidates], float]] = Hook(
        "estimate", "(candidates) -> the payoff it expects from here on: a playout that "
        "stops short is valued by it", _method("(candidates)", 1))
    evaluator: Hook[Evaluator] = Hook(
        "evaluator", "the compiled rule base it grades options with, for explanations",
        _instance(Evaluator))
    rows: Hook[Callable[[Candidates], FloatArray]] = Hook(
        "rows", "(candidates) -> the rows its evaluator grades, one an option: advice "
        "shows each option's value", _method("(candidates)", 1))
    payoff: Hook[Payoff] = Hook(
        "payoff", "the payoff its values are in (which way is better), for advice",
        _instance(Payoff))
    settings: Hook[Any] = Hook(  # fuzzeval.search.sampling.SamplingSettings
        "settings", "a simulation's settings, whose stop rule (`stop`) advice names",
        _stop)


#: a compiled simulator: ``(trials, rng) -> (trials, options)`` payoffs (search.sampling's)
CompiledSimulator = Callable[[int, np.random.Generator], FloatArray]


class HiddenInformationHooks:
    """Every optional hook of a game's ``hidden_information``."""

    simulator: Hook[Callable[[Candidates, Sequence[Player]], CompiledSimulator | None]] = \
        Hook("simulator", "(candidates, policies) -> a compiled simulator of playouts to "
             "the end, every seat by its policy, or None where it has none",
             _method("(candidates, policies)", 2))


class BridgeHooks:
    """Every optional hook of an OpenSpiel bridge (fuzzeval.interop.openspiel's
    ``Bridge``, entry point group ``fuzzeval.openspiel``)."""

    search_state: Hook[Callable[[Any], Any]] = Hook(
        "search_state", "(state) -> a state where OpenSpiel's ISMCTSBot can search the same "
        "decision, its actions meaning the same", _method("(state)", 1))
    resample: Hook[Callable[[Any, int, np.random.Generator], Any]] = Hook(
        "resample", "(state, seat, rng) -> a state with the seat's information state, for "
        "OpenSpiel's Python ISMCTSBot where OpenSpiel's state cannot resample itself",
        _method("(state, seat, rng)", 3))


def hooks_of(kind: type) -> tuple[Hook[Any], ...]:
    """The hooks a ``...Hooks`` class (``GameHooks``, ``PlayerHooks``, ...) declares, in
    order."""
    return tuple(v for v in vars(kind).values() if isinstance(v, Hook))


def offered(owner: object, kind: type) -> tuple[Hook[Any], ...]:
    """The hooks of ``kind`` that ``owner`` offers."""
    return tuple(h for h in hooks_of(kind) if hook(owner, h) is not None)
