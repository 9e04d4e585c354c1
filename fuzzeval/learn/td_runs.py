"""``fuzzeval learn``: TD(λ) self-play (or play against named opponents) that learns the
conclusions of a conjunction rule base, block after block, resumable from the history.

Games are played ``update`` at a time with the same conclusions; each learning seat's game
is an episode (``fuzzeval.learn.td``), and those games' steps are added to the conclusions
before the next ``update`` games: with ``update`` 1 (the default) this is Sturtevant & White's
learner, which steps after every game; more games an update let the workers share them,
each game stepping from conclusions up to ``update`` - 1 games old. The games of an update
go to the match executors, each game's step rounded to a whole number of 2^-32
(``to_fixed``), so the result does not depend on how many workers there are: integer sums
do not depend on their order. Every ``block`` games (a whole number of updates) the
conclusions are committed to the history database, with the learning seats' mean payoff in
the block and, every ``measure_every`` blocks, the mean payoff of the learned player
against a fixed opponent on fixed games (the learning curve). A learn stopped at any moment
resumes from its last committed block to exactly the conclusions of an uninterrupted run.

Nothing here knows a game: a game needs features (its ``Candidates``) and may say what a
seat has been paid so far (``payoff_so_far(state, seat)``, e.g. the points a Hearts seat
has taken), so that rewards arrive when they are earned; without it the payoff arrives at
the end.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.evaluator import Evaluator, compile_rulebase
from fuzzeval.engine.membership import Triangle
from fuzzeval.engine.rulebase import RuleBase, Term
from fuzzeval.errors import FuzzevalError, GameDidNotEnd, UsageError
from fuzzeval.formats.loading import load_rulebase_text
from fuzzeval.formats.yaml_write import rulebase_to_yaml
from fuzzeval.learn.conjunctions import (
    MAX_ORDER,
    MIN_SHARE,
    QUAD_SHARE,
    TRIPLE_SHARE,
    conjunction_rulebase,
)
from fuzzeval.learn.td import FixedArray, episode_step, from_fixed, to_fixed
from fuzzeval.learn.td_player import ValuePlayer, conclusions, with_conclusions
from fuzzeval.play.game import Candidates, Game, GameHooks, Player, hook
from fuzzeval.play.match import make_player, play_game
from fuzzeval.play.runs import RunKind, digest, made_by_line, settings_from_json, settings_json
from fuzzeval.play.spec import GAMES_MAX, check_seed
from fuzzeval.play.store import History

FloatArray = npt.NDArray[np.float64]
Options = tuple[tuple[str, Any], ...]

#: the seed of the measuring games is the learn's seed plus this (never a training game)
MEASURE_SEED = 1_000_003


#: settings added after learns were stored, with their defaults: written only when set, so
#: that a stored learn keeps its identity (the same command goes on with it)
LATER: dict[str, Any] = {"halving": 0, "split": "", "monte_carlo": (), "group_features": (),
                         "single_features": "", "target": "next",
                         "quad_share": QUAD_SHARE}

#: what a choice's value steps toward (``--target``): the next choice's value, TD(λ) as
#: Sturtevant & White's; or its value searched a ply deeper (the game's lookahead_value)
TARGETS = ("next", "lookahead")


#: the conclusions' range, +-scale: what a rule base file can hold (its numbers within
#: +-1e15) with room, and above what its triangles can tell apart
SCALE_RANGE = (1e-6, 1e12)


def check_count(name: str, value: int, low: int) -> None:
    """A count of games or blocks (option ``name``): at least ``low``, at most a match's."""
    if value < low:
        raise UsageError(f"{name} must be at least {low} (got {value})")
    if value > GAMES_MAX:
        raise UsageError(f"{name} must be at most {GAMES_MAX:,} (got {value:,})")


def check_length(settings: LearnSettings, games: int, average: int = 1) -> None:
    """A learn of ``games`` games is whole blocks, and the learned base's mean of the last
    ``average`` blocks' conclusions has that many blocks to average."""
    check_count("--games", games, 1)
    check_count("--average", average, 1)
    if games % settings.block:
        raise UsageError(f"--games {games} is not a whole number of blocks of --block "
                         f"{settings.block}")
    if average > games // settings.block:
        raise UsageError(f"--average {average} is more than the {games // settings.block} "
                         f"blocks of --games {games}")


@dataclass(frozen=True)
class LearnSettings:
    """Everything that decides the result (the number of games only decides where it
    stops)."""

    game: str
    lam: float = 0.75
    alpha: float = 0.1  # a decision's step (normalised by its rules' total strength)
    block: int = 100  # games between two commits to the history
    update: int = 1  # games played with the same conclusions before their steps are added
    halving: int = 0  # the step size's schedule: alpha / (1 + games / halving); 0: constant
    opponent: str = "self"  # "self": every seat learns; else a player of the game
    seed: int = 1
    measure_every: int = 10  # blocks between two points of the learning curve (0: never)
    measure_games: int = 200
    measure_opponent: str = ""  # the game's default opponent when empty
    options: Options = ()
    # the start, when generated (``start_source``): conjunctions of up to ``order`` atoms
    # that fire often enough in ``sample_games`` games of ``sample_player`` in every seat
    order: int = 3
    min_share: float = MIN_SHARE
    triple_share: float = TRIPLE_SHARE
    quad_share: float = QUAD_SHARE
    sample_games: int = 200
    sample_player: str = ""  # the game's default opponent when empty
    scale: float = 100.0  # conclusions stay within +-scale
    split: str = ""  # a feature whose atoms each lead a group of rules ("": no groups)
    # groups narrowed to some features ("Contact=no:PipCount,BorneOff", parse_group_features)
    group_features: tuple[str, ...] = ()
    single_features: str = ""  # features whose atoms join no other's (names, commas)
    # kinds of decision that learn from the payoff after them (Monte Carlo), not TD(λ)
    monte_carlo: tuple[str, ...] = ()
    target: str = "next"  # one of TARGETS
    start: str = ""  # a given start's content digest; "" for a generated start

    def __post_init__(self) -> None:
        """Refuse what TD(λ) cannot run, in the words of ``fuzzeval learn``'s options."""
        check_seed(self.seed)
        for name, value, low in (("--block", self.block, 1), ("--update", self.update, 1),
                                 ("--halving", self.halving, 0),
                                 ("--sample-games", self.sample_games, 1),
                                 ("--measure-every", self.measure_every, 0),
                                 ("--measure-games", self.measure_games, 1)):
            check_count(name, value, low)
        if not 0 <= self.lam <= 1:  # NaN fails too
            raise UsageError(f"--lambda must be in [0, 1] (got {self.lam:g})")
        if not 0 < self.alpha <= 1:
            raise UsageError(f"--alpha must be in (0, 1]: a step of 1 moves a value all the "
                             f"way to its target, more overshoots it (got {self.alpha:g})")
        if not SCALE_RANGE[0] <= self.scale <= SCALE_RANGE[1]:
            raise UsageError(f"--scale must be from {SCALE_RANGE[0]:g} to "
                             f"{SCALE_RANGE[1]:g} (got {self.scale:g})")
        for name, share in (("--min-share", self.min_share),
                            ("--triple-share", self.triple_share),
                            ("--quad-share", self.quad_share)):
            if not 0 < share < 1:
                raise UsageError(f"{name} must be in (0, 1) (got {share:g})")
        if not 1 <= self.order <= MAX_ORDER:
            raise UsageError(f"--order must be 1, 2, 3 or {MAX_ORDER} (got {self.order})")
        if self.target not in TARGETS:
            raise UsageError(f"--target must be one of {', '.join(TARGETS)} (got "
                             f"{self.target!r})")
        if self.block % self.update:
            raise UsageError(f"--block {self.block} is not a whole number of updates of "
                             f"--update {self.update}")

    def step_size(self, index: int) -> float:
        """The step size of game ``index``: ``alpha``, divided by 1 + index / ``halving``
        when there is a schedule (halved after ``halving`` games, a third after twice as
        many: the steps still add up without end, as stochastic approximation wants)."""
        return self.alpha if not self.halving else self.alpha / (1.0 + index / self.halving)

    def to_json(self) -> str:
        return settings_json(self, LATER)



@dataclass(frozen=True)
class Block:
    """One committed block: the games so far, the learning seats' mean payoff in it, and
    (every ``measure_every`` blocks) the learned player's mean payoff and its 95 % half
    width against the measuring opponent."""

    index: int
    games: int
    mean: float
    measure: float | None = None
    measure_half: float | None = None


@dataclass(frozen=True)
class Learn:
    id: int
    settings: LearnSettings
    source: str  # the start rule base's YAML text
    blocks: tuple[Block, ...] = field(default=())

    @property
    def games(self) -> int:
        return self.blocks[-1].games if self.blocks else 0


def learned_name(start: str, run: str) -> str:
    """The learned base's name: the start's, then the run's, the stem of its database (one
    learn a database): ``hearts_td_hearts_learn``, so that a learned base never explains
    itself under the name of the shipped one it started as. Kept when it already ends with
    the run (``hearts_td`` learned into ``hearts_td.sqlite``), as ``NAME_tuned`` is."""
    return start if start == run or start.endswith(f"_{run}") else f"{start}_{run}"


def learned_rulebase(rb: RuleBase, weights: FloatArray, made_by: str) -> RuleBase:
    """``rb`` with rule k concluding ``weights[k]`` on its own term (kept in the range)."""
    lo, hi = rb.output.lo, rb.output.hi
    value = {r.output_term: float(np.clip(w, lo, hi)) for r, w in zip(rb.rules, weights,
                                                                         strict=True)}
    terms = tuple(Term(t.name, Triangle(value[t.name], value[t.name], value[t.name]))
                  if t.name in value else t for t in rb.output.terms)
    return dataclasses.replace(rb, output=dataclasses.replace(rb.output, terms=terms),
                               made_by=made_by)


def sampled_features(game: Game, settings: LearnSettings) -> FloatArray:
    """Every candidate's features (one column per feature of ``game.features``) at every
    decision of ``sample_games`` seeded games of the sampling player in every seat."""
    features = hook(game, GameHooks.features)
    if not features:
        raise FuzzevalError(f"{game.name} lists no features to learn from (a game plug-in "
                            "names them as 'features')")
    names = [f.name for f in features]
    who = make_player(game, settings.sample_player or game.default_opponent)
    rows: list[FloatArray] = []

    class Sampler:
        def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
            columns = [candidates.feature_names.index(n) for n in names]
            rows.append(candidates.feature_rows(range(len(candidates)))[:, columns])
            return who.choose(candidates, rng)
    for index in range(settings.sample_games):
        play_game(game, [Sampler()] * game.seats, settings.seed, index, dict(settings.options))
    return np.concatenate(rows)


def start_source(game: Game, settings: LearnSettings, made_by: str) -> str:
    """The generated start: a conjunction base over the sampled decisions, all conclusions
    0 (ValueError when it would be too large)."""
    rb = conjunction_rulebase(f"{game.name}_td", game.features,  # type: ignore[attr-defined]
                              sampled_features(game, settings), "value",
                              game.payoff.unit, settings.scale, settings.order,
                              settings.min_share, settings.triple_share,
                              settings.quad_share, made_by=made_by,
                              split=settings.split, group_features=settings.group_features,
                              single_features=tuple(filter(None,
                                                           settings.single_features.split(","))))
    return rulebase_to_yaml(rb)


def learner_seat(game: Game, index: int) -> int:
    """The seat of the learned player in game ``index`` against other players: each seat
    in turn, a whole round of first movers (seat ``index % seats`` moves first) at each,
    so it plays every seat moving first and moving later alike."""
    return (index // game.seats) % game.seats


def learning_seats(game: Game, settings: LearnSettings, index: int) -> tuple[int, ...]:
    """Who learns in game ``index``: every seat in self-play, else ``learner_seat``."""
    return tuple(range(game.seats)) if settings.opponent == "self" else (
        learner_seat(game, index),)


def learn_games(game: Game, source: str, weights: FloatArray, settings: LearnSettings,
                indices: Sequence[int]) -> tuple[FixedArray, float, int]:
    """Play games ``indices`` with ``weights`` and return the sum of their steps (fixed
    point), the learning seats' total payoff and their number of episodes (run in a
    worker)."""
    ev = with_conclusions(_compiled(source), weights)
    so_far = hook(game, GameHooks.payoff_so_far)
    # a game whose own moves follow the values being learned plays with these conclusions
    bound = hook(game, GameHooks.learning_game)
    played: Game = bound(ev) if bound is not None else game
    search = hook(game, GameHooks.lookahead_value) if settings.target == "lookahead" else None
    lookahead = search(ev) if search is not None else None
    total = np.zeros(len(weights), dtype=np.int64)
    paid, episodes = 0.0, 0
    for index in indices:
        seats = learning_seats(game, settings, index)
        traces: dict[int, list[FloatArray]] = {s: [] for s in seats}
        kinds: dict[int, list[str]] = {s: [] for s in seats}
        earned: dict[int, list[float]] = {s: [] for s in seats}
        ahead: dict[int, list[float]] = {s: [] for s in seats}
        players = [ValuePlayer(ev, game.payoff, traces[s], kinds[s], lookahead, ahead[s])
                   if s in seats else _opponent(game, settings.opponent)
                   for s in range(game.seats)]

        def seen(state: Any, seat: int, choice: int, after: Any,
                 earned: dict[int, list[float]] = earned) -> None:
            if seat in earned:
                earned[seat].append(0.0 if so_far is None else float(so_far(state, seat)))
        try:
            payoffs = play_game(played, players, settings.seed, index,
                                dict(settings.options), on_move=seen,
                                log=False).outcome.payoffs
        except GameDidNotEnd:
            # Early self-play may loop (two sides hitting each other for ever): the game
            # counts as a draw and teaches as one, rather than stopping the learn at the
            # same game on every resume. Its last move never came: nothing paid since.
            payoffs = (0.0,) * game.seats
            for s in seats:
                earned[s] += (earned[s][-1:] or [0.0]) * (len(traces[s]) - len(earned[s]))
        for s in seats:
            if not traces[s]:
                continue
            final = float(payoffs[s])
            marks = np.array([*earned[s], final])
            rewards = np.diff(marks)  # paid between one choice and the next, then the rest
            after = np.array([k in settings.monte_carlo for k in kinds[s]], dtype=bool)
            step = episode_step(np.array(traces[s]), weights, rewards, settings.lam,
                                settings.step_size(index), after,
                                np.array(ahead[s]) if lookahead is not None else None)
            total += to_fixed(step)
            paid += final
            episodes += 1
    return total, paid, episodes


_COMPILED: dict[str, tuple[str, Evaluator]] = {}


def _compiled(source: str) -> Evaluator:
    """The rule base of ``source`` (its YAML) compiled once per process; its conclusions
    are replaced per update. The text travels to the workers (a string pickles as its
    bytes; a RuleBase of thousands of rules costs more than a game), and the same object
    again is found without hashing it."""
    last = _COMPILED.get("last")
    if last is not None and last[0] is source:
        return last[1]
    key = hashlib.sha256(source.encode()).hexdigest()
    if key not in _COMPILED:
        _COMPILED.clear()
        _COMPILED[key] = (source, compile_rulebase(load_rulebase_text(source)))
    _COMPILED["last"] = (source, _COMPILED[key][1])
    return _COMPILED[key][1]


_OPPONENTS: dict[tuple[str, str], Player] = {}


def _opponent(game: Game, name: str) -> Player:
    if (game.name, name) not in _OPPONENTS:
        _OPPONENTS[(game.name, name)] = make_player(game, name)
    return _OPPONENTS[(game.name, name)]


def measure(game: Game, source: str, weights: FloatArray, settings: LearnSettings,
            opponent: str, indices: Sequence[int]) -> list[float]:
    """The learned player's payoff in each of games ``indices`` (``learner_seat``) against
    ``opponent``, with the measuring seed (run in a worker)."""
    ev = with_conclusions(_compiled(source), weights)
    out = []
    for index in indices:
        seat = learner_seat(game, index)
        players = [ValuePlayer(ev, game.payoff) if s == seat else _opponent(game, opponent)
                   for s in range(game.seats)]
        record = play_game(game, players, settings.seed + MEASURE_SEED, index,
                           dict(settings.options), log=False)
        out.append(float(record.outcome.payoffs[seat]))
    return out


def _split(indices: Sequence[int], parts: int) -> list[list[int]]:
    parts = max(1, min(parts, len(indices)))
    return [list(indices[k::parts]) for k in range(parts)]


def _workers(executor: Executor | None) -> int:
    return int(getattr(executor, "_max_workers", 8)) if executor is not None else 1


def play_block(game: Game, source: str, weights: FloatArray, settings: LearnSettings,
               block: int, executor: Executor | None) -> tuple[FloatArray, float]:
    """The conclusions after block ``block`` and the learning seats' mean payoff in it
    (``source``: the start's YAML)."""
    output = _compiled(source).rulebase.output
    paid, episodes = 0.0, 0
    for start in range(block * settings.block, (block + 1) * settings.block,
                       settings.update):
        indices = range(start, start + settings.update)
        if executor is None or settings.update == 1:
            parts = [learn_games(game, source, weights, settings, indices)]
        else:
            chunks = _split(indices, _workers(executor))
            parts = list(executor.map(learn_games, [game] * len(chunks),
                                      [source] * len(chunks), [weights] * len(chunks),
                                      [settings] * len(chunks), chunks))
        total: FixedArray = np.zeros(len(weights), dtype=np.int64)
        for part in parts:
            total += part[0]
        weights = update_weights(weights, total, output.lo, output.hi)
        paid += math.fsum(p[1] for p in parts)
        episodes += sum(p[2] for p in parts)
    return weights, paid / max(episodes, 1)


def update_weights(weights: FloatArray, total: FixedArray, lo: float,
                   hi: float) -> FloatArray:
    """The conclusions after an update: the sum of its games' steps (``total``, in fixed
    point) added, kept in [lo, hi]. The sum, as if each game had stepped in turn (Sturtevant
    & White's learner steps after every game): the steps of an update were all made with the
    same conclusions, so a rule that many of them share moves by all of them at once, and
    ``alpha`` times the games of an update must stay small or it overshoots
    (``tests/test_td.py``)."""
    out: FloatArray = np.clip(weights + from_fixed(total), lo, hi)
    return out


def measure_all(game: Game, source: str, weights: FloatArray, settings: LearnSettings,
                executor: Executor | None) -> tuple[float, float]:
    """Mean payoff of the learned player against the measuring opponent and the half
    width of its 95 % interval (normal quantile over games)."""
    opponent = settings.measure_opponent or game.default_opponent
    indices = range(settings.measure_games)
    if executor is None:
        paid = measure(game, source, weights, settings, opponent, indices)
    else:
        chunks = _split(indices, 2 * _workers(executor))
        paid = [p for part in executor.map(measure, [game] * len(chunks),
                                           [source] * len(chunks),
                                           [weights] * len(chunks),
                                           [settings] * len(chunks),
                                           [opponent] * len(chunks), chunks) for p in part]
    values = np.array(paid)
    half = 1.96 * float(values.std(ddof=1)) / float(np.sqrt(len(values))) if len(
        values) > 1 else 0.0
    return math.fsum(paid) / len(paid), half


#: its tables: the head row of each run, and what each run stores as it goes
TABLES = """
CREATE TABLE IF NOT EXISTS learns (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    source TEXT NOT NULL,
    rulebase_yaml TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS learn_blocks (
    learn_id INTEGER NOT NULL REFERENCES learns(id),
    block INTEGER NOT NULL,
    games INTEGER NOT NULL,
    mean REAL NOT NULL,
    measure REAL,
    measure_half REAL,
    weights BLOB NOT NULL,
    PRIMARY KEY (learn_id, block)
);
"""

#: a learn stored (one a database): its settings, its start's digest and text, its blocks
LEARNS = RunKind("learn", "learns", "source", "learning", TABLES, resume_detail="",
                 one_a_database=True, file="learn", doing="learning",
                 saved=lambda history, i: f"{load_learn(history, i).games:,} games of learn {i}")


def load_learn(history: History, learn_id: int | None = None) -> Learn:
    """A stored learn (the latest when no id is given)."""
    learn_id, head = LEARNS.head(history, learn_id, "settings, rulebase_yaml")
    rows = history.conn.execute(
        "SELECT block, games, mean, measure, measure_half FROM learn_blocks WHERE "
        "learn_id = ? ORDER BY block", (learn_id,)).fetchall()
    return Learn(learn_id, settings_from_json(LearnSettings, head[0]), head[1],
                 tuple(Block(*r) for r in rows))


def last_weights(history: History, learn: Learn, rb: RuleBase) -> FloatArray:
    """The conclusions after the last of ``learn``'s blocks (the start's before any): a
    learn cut to its first blocks gives the conclusions it had then."""
    row = history.conn.execute("SELECT weights FROM learn_blocks WHERE learn_id = ? AND "
                               "block < ? ORDER BY block DESC LIMIT 1",
                               (learn.id, len(learn.blocks))).fetchone()
    if row is None:
        return conclusions(rb)
    return np.frombuffer(row[0], dtype="<f8").copy()


def check_start(game: Game, rb: RuleBase) -> None:
    """A start TD(λ) can learn: weighted_sum, default 0 (V = Σ strength x conclusion is 0
    where nothing fires), a singleton term for each rule (one conclusion a rule), inputs
    among the game's features; a UsageError names what is wrong."""
    where = f"rule base {rb.name!r}"
    if rb.defuzzifier != "weighted_sum":
        raise UsageError(f"{where} is {rb.defuzzifier}: TD(λ) learns the conclusions of a "
                         "weighted_sum base (fuzzeval learn makes one)")
    if rb.default != 0:
        raise UsageError(f"{where}: its default is {rb.default:g}; a learned base's is 0 "
                         "(its value where no rule fires)")
    counts = Counter(r.output_term for r in rb.rules)
    shared = sorted(t for t, n in counts.items() if n > 1)
    if shared:
        raise UsageError(f"{where}: rules share the output terms {', '.join(shared)}; each "
                         "rule learns its own conclusion, so each needs a term of its own")
    names = [f.name for f in hook(game, GameHooks.features) or ()]
    unknown = [n for n in rb.input_names if n not in names]
    if unknown:
        raise UsageError(f"{where}: inputs {', '.join(unknown)} are not {game.name} "
                         f"features ({', '.join(names) or 'it lists none'})")


def run_learning(history: History, game: Game, settings: LearnSettings, source: str | None,
                 games: int, executor: Executor | None = None, resume: bool = False,
                 on_block: Callable[[Block], None] | None = None,
                 on_phase: Callable[[str, int | None], None] = lambda _d, _t: None) -> Learn:
    """Learn (or go on learning) until ``games`` games; returns the stored learn.

    Stored once, like a match: a learn with the same settings and start rule base goes on
    (nothing runs when it has played enough); a database holding a different learn is
    refused; with ``resume``, finding none is an error. One process at a time: the running
    mark comes first, so a second process is refused before any sampling. ``source`` None:
    the start is generated (the stored learn's, or sampled). ``on_phase`` says each phase
    and its total: sampling decisions (no total), learning (``games``)."""
    check_length(settings, games)
    with history.running(LEARNS.key(settings, source or ""), LEARNS.running):
        start = source if source is not None else _generated_start(history, game, settings,
                                                                   resume, on_phase)
        rb = load_rulebase_text(start)
        check_start(game, rb)
        learn_id = LEARNS.claim(history, settings, start, resume, lambda: LEARNS.start(
            history, settings, start, rulebase_yaml=start))
        on_phase("learning", games)
        learn = load_learn(history, learn_id)
        weights = last_weights(history, learn, rb)
        block = len(learn.blocks)
        while (block + 1) * settings.block <= games:
            weights, mean = play_block(game, start, weights, settings, block, executor)
            point: tuple[float, float] | tuple[None, None] = (None, None)
            if settings.measure_every and (block + 1) % settings.measure_every == 0:
                point = measure_all(game, start, weights, settings, executor)
            done = Block(block, (block + 1) * settings.block, mean, *point)
            with history.conn:
                history.conn.execute(
                    "INSERT INTO learn_blocks (learn_id, block, games, mean, measure, "
                    "measure_half, weights) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (learn_id, block, done.games, mean, done.measure, done.measure_half,
                     weights.astype("<f8").tobytes()))
            if on_block is not None:
                on_block(done)
            block += 1
        return load_learn(history, learn_id)


def _generated_start(history: History, game: Game, settings: LearnSettings, resume: bool,
                     on_phase: Callable[[str, int | None], None]) -> str:
    """A generated start: the stored learn's of these settings, or one sampled now, after
    the refusals that need no sample (a database holding another learn, a resume of
    nothing): sampling is a learn's first costly work."""
    found = LEARNS.find(history, settings, None)
    if found is not None:
        return load_learn(history, found).source
    LEARNS.refuse_another(history)
    if resume:
        raise LEARNS.nothing_to_resume(history, settings, None)
    on_phase(f"sampling decisions: {settings.sample_games} games", None)
    return start_source(game, settings, f"generated by `fuzzeval learn {game.name}` "
                                        f"(conclusions 0; --seed {settings.seed})")


def averaged_weights(history: History, learn: Learn, rb: RuleBase, blocks: int) -> FloatArray:
    """The mean of the conclusions after each of the last ``blocks`` of ``learn``'s blocks
    (Polyak-Ruppert averaging): a constant step keeps the conclusions moving with each
    game's luck around what they have learned, and their mean over many blocks is that,
    without the last blocks' luck. One block: ``last_weights``."""
    if blocks < 1:
        raise ValueError(f"average over at least 1 block (got {blocks})")
    if blocks == 1:
        return last_weights(history, learn, rb)
    rows = history.conn.execute("SELECT weights FROM learn_blocks WHERE learn_id = ? AND "
                                "block < ? ORDER BY block DESC LIMIT ?",
                                (learn.id, len(learn.blocks), blocks)).fetchall()
    if len(rows) < blocks:
        raise ValueError(f"learn {learn.id} has {len(rows)} blocks, fewer than the "
                         f"{blocks} to average")
    stacked = np.stack([np.frombuffer(r[0], dtype="<f8") for r in reversed(rows)])
    out: FloatArray = stacked.sum(axis=0) / blocks  # oldest first: the same bytes each time
    return out


def learned_yaml(history: History, learn: Learn, made_by: str, average: int = 1) -> str:
    """The learned rule base as YAML: the start with each conclusion learned (the mean of
    the last ``average`` blocks' conclusions), named for its run (``learned_name``)."""
    rb = load_rulebase_text(learn.source)
    learned = learned_rulebase(rb, averaged_weights(history, learn, rb, average), made_by)
    return rulebase_to_yaml(dataclasses.replace(
        learned, name=learned_name(rb.name, history.path.stem)))


def made_by(settings: LearnSettings, games: int, start: str | None, average: int) -> str:
    """The command that made the learned base (its made_by line), from what decides it."""
    s = settings
    words = ["fuzzeval", "learn", s.game, "--games", str(games), "--block", str(s.block),
             *(["--average", str(average)] if average > 1 else []), "--update", str(s.update),
             *(["--halving", str(s.halving)] if s.halving else []),
             "--lambda", _number(s.lam), "--alpha", _number(s.alpha), "--opponent",
             s.opponent, "--seed", str(s.seed)]
    for kind in s.monte_carlo:
        words += ["--monte-carlo", kind]
    if s.target != "next":
        words += ["--target", s.target]
    for key, value in s.options:
        words += ["--option", f"{key}={_option_text(value)}"]
    if start is not None:
        words += ["--rulebase", start]
    else:
        words += ["--order", str(s.order), "--min-share", _number(s.min_share),
                  "--triple-share", _number(s.triple_share),
                  *(["--quad-share", _number(s.quad_share)]
                    if s.order == 4 or s.quad_share != QUAD_SHARE else []), "--sample-games",
                  str(s.sample_games), "--scale", _number(s.scale),
                  *(["--split", s.split] if s.split else [])]
        for spec in s.group_features:
            words += ["--group-features", spec]
        if s.single_features:
            words += ["--single-features", s.single_features]
    # the learning curve's settings are the stored learn's too: the same command goes on
    words += ["--measure-every", str(s.measure_every), "--measure-games", str(s.measure_games),
              *(["--measure-opponent", s.measure_opponent] if s.measure_opponent else [])]
    return made_by_line("learned", words)


def _number(x: float) -> str:
    """A number as short as it is written (0.3, 100), never rounded (0.12345678 stays)."""
    short = f"{x:g}"
    return short if float(short) == x else repr(x)


def _option_text(value: object) -> str:
    """An option's value as it is written on the command line (parse_value's inverse)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def monte_carlo_kinds(game: Game, given: Sequence[str], options: Options) -> tuple[str, ...]:
    """The --monte-carlo kinds, sorted: each a kind of decision the game logs with these
    options (a game's ``logged_kinds_for(**options)`` where it has one), once."""
    logged_kinds_for = hook(game, GameHooks.logged_kinds_for)
    known = sorted(game.logged_kinds if logged_kinds_for is None
                   else logged_kinds_for(**dict(options)))
    with_options = " with " + " ".join(f"--option {k}={_option_text(v)}" for k, v in options) \
        if options else ""
    for kind in given:
        if kind not in known:
            raise UsageError(f"--monte-carlo {kind}: not a kind of decision {game.name} logs"
                             f"{with_options} (kinds: {', '.join(known)})")
        if given.count(kind) > 1:
            raise UsageError(f"--monte-carlo {kind}: given twice; give each kind once")
    return tuple(sorted(given))


@dataclass(frozen=True)
class LearnJob:
    """A learn as asked for, checked before any file is made: the game, the settings (with
    its options, its Monte Carlo kinds and a given start's digest), the games to learn
    from, the blocks the learned base averages, and a given start (as named, and its text;
    None: a generated start)."""

    game: Game
    settings: LearnSettings
    games: int
    average: int = 1
    rulebase: str | None = None
    source: str | None = None


def learn_job(settings: LearnSettings, games: int, average: int = 1,
              rulebase: str | None = None, monte_carlo: Sequence[str] = (),
              options: Sequence[str] = ()) -> LearnJob:
    """Check a learn before any work (``settings.game`` the game's name): its length, the
    game's options, kinds, features and players, and a given start TD(λ) can learn; a
    UsageError names what is wrong, as ``fuzzeval learn`` says it."""
    from fuzzeval.formats.loading import read_rulebase_text
    from fuzzeval.learn.conjunctions import (
        matching_features,
        parse_group_features,
        split_features,
    )
    from fuzzeval.play.match import check_game_options
    from fuzzeval.play.registry import load_game
    from fuzzeval.play.spec import parse_options
    from fuzzeval.resources import find_rulebase

    check_length(settings, games, average)
    game = load_game(settings.game)
    opts = parse_options(list(options), game.name)
    check_game_options(game, opts)
    kinds = monte_carlo_kinds(game, monte_carlo, opts)
    features = [f.name for f in hook(game, GameHooks.features) or ()]
    if rulebase is None and not features:
        raise UsageError(f"{game.name} lists no features to learn from; give --rulebase")
    if settings.split:
        if rulebase is not None:
            raise UsageError("--split shapes a generated start; --rulebase gives the start")
        try:
            split_features(settings.split, features)
        except ValueError as exc:
            raise UsageError(f"--split {settings.split}: {exc}") from None
        try:
            parse_group_features(settings.group_features, settings.split,
                                 hook(game, GameHooks.features) or ())
        except ValueError as exc:
            raise UsageError(f"--group-features {exc}") from None
    elif settings.group_features:
        raise UsageError("--group-features narrows groups of --split; give --split")
    if settings.single_features:
        if rulebase is not None:
            raise UsageError("--single-features shapes a generated start; --rulebase gives "
                             "the start")
        try:
            matching_features(settings.single_features.split(","), features)
        except ValueError as exc:
            raise UsageError(f"--single-features {settings.single_features}: {exc}") from None
    for flag, who in (("--opponent", settings.opponent),
                      ("--measure-opponent", settings.measure_opponent or game.default_opponent)):
        if who != "self" or flag != "--opponent":
            try:  # an unknown player is refused before any work
                make_player(game, who)
            except ValueError as exc:
                raise UsageError(f"{flag} {who}: {exc}") from None
    if settings.target == "lookahead" and hook(game, GameHooks.lookahead_value) is None:
        raise UsageError(f"--target lookahead: {game.name} has no search a ply deeper "
                         "(its lookahead_value hook); --target next learns without one")
    start = find_rulebase(rulebase) if rulebase else None
    source = read_rulebase_text(start) if start else None
    if source is not None:  # a start TD(λ) cannot learn is refused before any file
        check_start(game, load_rulebase_text(source, str(start)))
    return LearnJob(game, dataclasses.replace(
        settings, game=game.name, monte_carlo=kinds, options=opts,
        start="" if source is None else digest(source)), games, average, rulebase, source)


def learn_into(path: Path, job: LearnJob, executor: Executor | None = None,
               resume: bool = False,
               on_phase: Callable[[str, int | None], None] = lambda _d, _t: None,
               on_block: Callable[[Block], None] | None = None) -> tuple[Learn, str]:
    """Learn ``job`` into the history at ``path`` (a generated start sampled there, unless
    stored; ``on_phase`` and ``on_block`` as ``run_learning``'s): the learn as it was after
    ``job.games`` games (a longer one may be stored) and the learned rule base's YAML."""
    with History(path) as history:
        done = run_learning(history, job.game, job.settings, job.source, job.games, executor,
                            resume, on_block, on_phase)
        done = dataclasses.replace(done, blocks=done.blocks[:job.games // job.settings.block])
        return done, learned_yaml(history, done, made_by(job.settings, done.games,
                                                         job.rulebase, job.average),
                                  job.average)
