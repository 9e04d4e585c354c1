"""Backgammon players: each picks one of the legal resulting positions.

``player.choose(position, dice, rng) -> Position`` is the public interface; the match
runner calls ``player.choose(candidates, rng) -> index`` with the same rules behind it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from fuzzeval import load_rulebase
from fuzzeval.engine.evaluator import Evaluator
from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.errors import FuzzevalError, MissingExtra
from fuzzeval.extras import GNUBG
from fuzzeval.games.backgammon.board import Boards, Position, check_not_finished
from fuzzeval.games.backgammon.features import FEATURE_NAMES, OptionFeatures, position_features
from fuzzeval.games.backgammon.lookahead import LookaheadGrades
from fuzzeval.games.backgammon.moves import plays
from fuzzeval.games.backgammon.pubeval import pubeval
from fuzzeval.games.backgammon.selector import BoardSelector, history_record
from fuzzeval.games.options import as_fraction, as_int, as_text, check_keys
from fuzzeval.play.game import Candidates, compile_for_features
from fuzzeval.resources import find_rulebase

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class MoveView:
    """What the side to move sees: the position, the dice, the legal resulting positions
    (in a game, Boards: the positions as arrays too)."""

    position: Position
    dice: tuple[int, int]
    options: Sequence[Position]


#: grades of the options (higher is better); the player plays the best (first on ties)
Grader = Callable[[MoveView], FloatArray]


def random_grades(view: MoveView) -> FloatArray:
    return np.zeros(len(view.options))


def pubeval_grades(view: MoveView) -> FloatArray:
    return pubeval(view.position, view.options)


@dataclass(frozen=True)
class GnubgGrades:
    """GNU Backgammon 0-ply: the equity of each resulting position for the mover."""

    def __post_init__(self) -> None:
        GNUBG.require("backgammon player 'gnubg'")

    def __call__(self, view: MoveView) -> FloatArray:
        boards = Boards.of(view.options)
        out = np.full(len(boards), 9.0)  # a play that bears off my last checker wins
        going = np.flatnonzero(boards.me.sum(axis=1) > 0)
        if going.size:
            out[going] = self.values(Boards(boards.me[going], boards.opp[going]))
        return out

    def values(self, boards: Boards) -> FloatArray:
        """gnubg's cubeless 0-ply equity of each board (none finished) for the side that
        has just moved: points a game, as the 1-ply search reads them."""
        import gnubg

        cube, context = gnubg.cubeinfo(), gnubg.evalcontext(0, 0)  # cubeless, 0-ply
        # evaluate() judges the side on roll (second in its board): the opponent.
        return np.array([-float(gnubg.evaluate((tuple(me), tuple(opp)), cube, context)[-1])
                         for me, opp in zip(boards.me.tolist(), boards.opp.tolist(),
                                            strict=True)])


@dataclass(frozen=True)
class FuzzyGrades:
    """A rule base's grade of each resulting position, from its features."""

    rulebase: RuleBase
    evaluator: Evaluator = field(init=False, repr=False, compare=False)
    inputs: tuple[str, ...] = field(init=False, repr=False, compare=False)  # read once

    def __post_init__(self) -> None:
        object.__setattr__(self, "evaluator",
                           compile_for_features(self.rulebase, FEATURE_NAMES, "backgammon"))
        object.__setattr__(self, "inputs", self.rulebase.input_names)

    def features(self, view: MoveView) -> FloatArray:
        return position_features(view.options, self.inputs)

    def __call__(self, view: MoveView) -> FloatArray:
        return self.evaluator.grade(self.features(view))

    def values(self, boards: Boards) -> FloatArray:
        """The grade of each board, for the side that has just moved (what the 1-ply
        search reads)."""
        return self.evaluator.grade(position_features(boards, self.inputs))

    def lookahead(self, width: int) -> LookaheadGrades:
        """The 1-ply search over these grades: a learned base's are points a game, a game's
        end worth its points; a taught base's only rank plays, a win worth more than any."""
        out = self.rulebase.output
        points = self.rulebase.defuzzifier == "weighted_sum"
        return LookaheadGrades(self.values, width, None if points else out.hi + out.hi - out.lo)

    def from_shared(self, features: OptionFeatures) -> FloatArray:
        """Grades from a decision's shared features (computed once, and reused by the
        history's log of the chosen play)."""
        return self.evaluator.grade(features.columns(self.inputs))


@dataclass(frozen=True)
class BackgammonPlayer:
    name: str
    grader: Grader
    randomise: bool = False  # a random player picks uniformly
    selector: BoardSelector | None = None  # sets aside plays that did badly before

    @overload
    def choose(self, first: Candidates, second: np.random.Generator) -> int: ...

    @overload
    def choose(self, first: Position, second: tuple[int, int],
               rng: np.random.Generator | None = None) -> Position: ...

    def choose(self, first: Any, second: Any, rng: np.random.Generator | None = None) -> Any:
        """``choose(candidates, rng) -> index`` or ``choose(position, dice, rng) -> Position``."""
        if isinstance(first, Candidates):
            view = first.view
            assert isinstance(view, MoveView)
            return self._pick(view, second, first)
        check_not_finished(first)  # no play is graded or offered once a side has won
        options = plays(first, tuple(second)).boards
        view = MoveView(first, tuple(second), options)
        return options[self._pick(view, rng or np.random.default_rng())]

    @property
    def logs_features(self) -> bool:
        """Only a rule-base player's moves need their features in the history."""
        return isinstance(self.grader, FuzzyGrades)

    @property
    def rulebase(self) -> RuleBase | None:
        """The rule base it grades positions with (a rule-base player's), for advice."""
        return self.grader.rulebase if isinstance(self.grader, FuzzyGrades) else None

    def grades(self, view: MoveView) -> FloatArray:
        return self.grader(view)

    def _pick(self, view: MoveView, rng: np.random.Generator,
              candidates: Candidates | None = None) -> int:
        if len(view.options) == 1:
            return 0
        if self.randomise:
            return int(rng.integers(len(view.options)))
        shared = candidates.features if candidates is not None else None
        if isinstance(self.grader, FuzzyGrades) and isinstance(shared, OptionFeatures):
            grades = self.grader.from_shared(shared)
        else:
            grades = np.asarray(self.grader(view), dtype=np.float64)
        if self.selector is not None:
            grades = np.where(self.selector.keep(view.options), grades, -np.inf)
        return int(np.argmax(grades))


def _random() -> BackgammonPlayer:
    return BackgammonPlayer("random", random_grades, randomise=True)


def _pubeval() -> BackgammonPlayer:
    return BackgammonPlayer("pubeval", pubeval_grades)


def _search_width(lookahead: Any, width: Any) -> int | None:
    """``lookahead=1`` and its ``width`` (default 4) checked: the width, or None at 0-ply."""
    depth = as_int("lookahead", lookahead, 0)
    if depth > 1:
        raise ValueError(f"lookahead must be 0 or 1 (got {depth})")
    if width is not None and depth == 0:
        raise ValueError("width needs lookahead=1 (how many plays to look at one ply deeper)")
    wide = as_int("width", 4 if width is None else width, 1)
    return wide if depth == 1 else None


def _gnubg(lookahead: Any = 0, width: Any = None) -> BackgammonPlayer:
    """``lookahead=1`` puts gnubg's 0-ply equity in fuzzeval's own 1-ply search (a check
    of the search: it should gain on 0-ply), not gnubg's own 1-ply."""
    wide = _search_width(lookahead, width)
    grades = GnubgGrades()
    if wide is not None:
        return BackgammonPlayer("gnubg", LookaheadGrades(grades.values, wide))
    return BackgammonPlayer("gnubg", grades)


#: what the fuzzy player plays when no rule base is named: the strongest shipped one (the
#: learned ``backgammon_td``, 60.8 % of 10,000 mirrored games against pubeval at 0-ply;
#: the taught ``backgammon_refined`` 56.7 %, the paper's ``backgammon_simple`` 24.2 %)
PLAY_RULEBASE = "backgammon_td"


def _fuzzy(rulebase: Any = PLAY_RULEBASE, selector: Any = None,
           selector_games: Any = None, selector_win_rate: Any = None, lookahead: Any = 0,
           width: Any = None) -> BackgammonPlayer:
    """``selector=DB`` turns on the board selector over that history database;
    ``selector_games`` (default 5) and ``selector_win_rate`` (default 0.25) tune it.
    ``lookahead=1`` grades the ``width`` (default 4) best plays one ply deeper
    (fuzzeval/games/backgammon/lookahead.py). It needs values of positions on one scale, a
    learned base such as ``backgammon_td``: a taught base's grades (``backgammon_refined``)
    only rank the plays of one roll, and searched they lose (docs/backgammon.md)."""
    name = as_text("rulebase", rulebase, "a rule base name or path")
    wide = _search_width(lookahead, width)
    chosen = None
    if selector is None:
        for key, value in (("selector_games", selector_games),
                           ("selector_win_rate", selector_win_rate)):
            if value is not None:
                raise ValueError(f"{key} needs selector=DB (the history database the board "
                                 "selector reads)")
    else:
        db = as_text("selector", selector, "the path of a history database")
        games = as_int("selector_games", 5 if selector_games is None else selector_games, 1)
        rate = as_fraction("selector_win_rate",
                           0.25 if selector_win_rate is None else selector_win_rate)
        chosen = BoardSelector(history_record(db), games, rate)
    grades = FuzzyGrades(load_rulebase(find_rulebase(name)))
    if wide is not None:
        return BackgammonPlayer("fuzzy", grades.lookahead(wide), selector=chosen)
    return BackgammonPlayer("fuzzy", grades, selector=chosen)


PLAYERS: dict[str, Callable[..., BackgammonPlayer]] = {
    "random": _random,
    "pubeval": _pubeval,
    "gnubg": _gnubg,
    "fuzzy": _fuzzy,
}


def player_names() -> tuple[str, ...]:
    return tuple(PLAYERS)


#: each player's options
PLAYER_OPTIONS: dict[str, tuple[str, ...]] = {
    "random": (),
    "pubeval": (),
    "gnubg": ("lookahead", "width"),
    "fuzzy": ("rulebase", "selector", "selector_games", "selector_win_rate", "lookahead",
              "width"),
}


def make_player(name: str, **options: Any) -> BackgammonPlayer:
    """A backgammon player by name: random, pubeval, gnubg (optional extra; lookahead=0|1,
    width=N), fuzzy (rulebase=NAME|PATH, selector=DB, selector_games=N,
    selector_win_rate=0..1, lookahead=0|1, width=N). An unknown
    option or a bad value is a ValueError naming the valid ones."""
    if name not in PLAYERS:
        raise ValueError(f"unknown backgammon player {name!r} (players: {', '.join(PLAYERS)})")
    check_keys(f"player {name!r} does not take options", options, PLAYER_OPTIONS[name])
    try:
        return PLAYERS[name](**options)
    except MissingExtra:  # its own line, naming the extra
        raise
    except (OSError, FuzzevalError) as exc:
        raise ValueError(str(exc)) from None

