"""Cubeless money backgammon as a fuzzeval game plug-in (``GAME``).

Seat ``first`` moves first with an opening roll that is never a double (as if it had won
the opening roll: both dice are the two players' opening dice). A game ends when one side
has borne off all fifteen: a single game (1 point), a gammon (2: the loser has borne off
none) or a backgammon (3: and has a checker on the bar or in the winner's home board).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

import numpy as np
import numpy.typing as npt

from fuzzeval.errors import GameDidNotEnd
from fuzzeval.games.backgammon.board import START, Boards, Position, end_points, position_id
from fuzzeval.games.backgammon.features import (
    FEATURE_NAMES,
    FEATURES,
    OptionFeatures,
    position_features,
)
from fuzzeval.games.backgammon.lookahead import LookaheadGrades
from fuzzeval.games.backgammon.moves import Plays, plays
from fuzzeval.games.backgammon.players import (
    PLAY_RULEBASE,
    BackgammonPlayer,
    MoveView,
    make_player,
    player_names,
)
from fuzzeval.games.options import check_keys
from fuzzeval.play.game import Candidates, Outcome, Payoff

if TYPE_CHECKING:
    from fuzzeval.engine.evaluator import Evaluator

MAX_TURNS = 10_000  # a guard; real games end long before


@dataclass(frozen=True, slots=True)
class State:
    position: Position  # seen from the seat to move
    seat: int  # whose turn (None-free: ``winner`` marks the end)
    dice: tuple[int, int]
    turn: int = 0
    winner: int = -1  # -1 while playing
    points: int = 0


def roll(rng: np.random.Generator) -> tuple[int, int]:
    a, b = rng.integers(1, 7, size=2)
    return int(a), int(b)


def opening_roll(rng: np.random.Generator) -> tuple[int, int]:
    while True:
        a, b = roll(rng)
        if a != b:
            return a, b


def result_points(final: Position) -> int:
    """Points won by the side that has just borne off its last checker (``final.me``)."""
    return int(end_points(np.array([final.opp]))[0])


RESULTS = {1: "single", 2: "gammon", 3: "backgammon"}


class Notations(Sequence[str]):
    """The plays' notation, written only for the plays someone reads (the chosen one)."""

    def __init__(self, found: Plays) -> None:
        self._plays = found
        self._n = len(found)

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...

    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return [p.notation for p in self._plays[i]]
        return self._plays[i].notation


class BackgammonGame:
    name = "backgammon"
    #: the features of its candidates, with their ranges (what ``fuzzeval learn`` joins)
    features = FEATURES
    seats = 2
    #: the points of a win (single 1, gammon 2, backgammon 3), the loser losing them
    payoff = Payoff("points per game")
    logged_kinds = frozenset({"move"})
    unit_name = ""
    player_names = player_names()
    rulebase_player = "fuzzy"
    default_rulebase = "backgammon_simple"  # calibration starts from the paper's base
    play_rulebase = PLAY_RULEBASE  # the fuzzy player plays the strongest
    default_opponent = "pubeval"

    def prepare(self) -> None:
        pass

    def new_game(self, rng: np.random.Generator, first: int, **options: Any) -> State:
        check_keys("unknown backgammon options", options, ())
        return State(START, first, opening_roll(rng))

    def to_move(self, state: State) -> int | None:
        return None if state.winner >= 0 else state.seat

    def candidates(self, state: State) -> Candidates:
        if state.winner >= 0:
            raise ValueError("the game is over: no candidates")
        found = plays(state.position, state.dice)
        options = found.boards
        return Candidates(
            kind="move",
            labels=Notations(found),
            features=OptionFeatures(options),
            feature_names=FEATURE_NAMES,
            view=MoveView(state.position, state.dice, options),
            record={"position": position_id(state.position),
                    "dice": f"{state.dice[0]}{state.dice[1]}"},
        )

    def apply(self, state: State, choice: int, rng: np.random.Generator) -> State:
        found = plays(state.position, state.dice)
        if not 0 <= choice < len(found):
            raise ValueError(f"move choice {choice} is not in 0..{len(found) - 1}")
        after = found.boards[choice]
        if sum(after.me) == 0:
            return State(after, state.seat, state.dice, state.turn + 1, state.seat,
                         result_points(after))
        if state.turn + 1 >= MAX_TURNS:
            raise GameDidNotEnd(f"no one had borne off all their checkers after "
                                f"{MAX_TURNS:,} turns")
        return State(after.flip(), 1 - state.seat, roll(rng), state.turn + 1)

    def unit(self, state: State) -> int:
        return 0

    def chance_events(self, before: State | None, after: State) -> list[dict[str, Any]]:
        """The dice of every turn, the opening roll first (``before`` None)."""
        if after.winner >= 0:
            return []
        return [{"chance": "dice", "seat": after.seat, "dice": list(after.dice)}]

    def outcome(self, state: State) -> Outcome:
        if state.winner < 0:
            raise ValueError("the game is not over")
        pts = [0, 0]
        pts[state.winner] = state.points
        left = [0, 0]
        left[1 - state.winner] = state.position.pips()[1]  # the loser's pips, winner's view
        return Outcome(winner=state.winner, scores=(pts[0], pts[1]),
                       result=RESULTS[state.points], points=state.points,
                       unit_points=((pts[0], pts[1]),),
                       stats={"pips left at the end": (left[0], left[1])})

    def make_player(self, name: str, **options: Any) -> BackgammonPlayer:
        return make_player(name, **options)

    def lookahead_value(self, evaluator: Evaluator) -> Callable[[Candidates, int], float]:
        """The 1-ply value of a decision's play ``index`` over ``evaluator``'s values
        (points a game, for the side that moved): what a learn toward the search's values
        (``fuzzeval learn --target lookahead``) steps toward."""
        inputs = evaluator.input_names

        def values(boards: Boards) -> npt.NDArray[np.float64]:
            out: npt.NDArray[np.float64] = evaluator.grade(position_features(boards, inputs))
            return out
        search = LookaheadGrades(values, width=1)

        def value(candidates: Candidates, index: int) -> float:
            view = candidates.view
            assert isinstance(view, MoveView)
            options = Boards.of(view.options)
            return float(search.ply(Boards(options.me[index:index + 1],
                                           options.opp[index:index + 1]))[0])
        return value

    def play_interface(self) -> Any:
        """How a person plays backgammon at a terminal (``fuzzeval play``), and how a
        stored game is told (``fuzzeval history show``)."""
        from fuzzeval.games.backgammon.play import BackgammonPlay

        return BackgammonPlay()


GAME = BackgammonGame()
