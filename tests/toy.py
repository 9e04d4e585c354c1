"""A toy game for tests of the game-agnostic machinery: quick, with its own rule base, so
the match runner, the history and the calibrator are tested knowing no real game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fuzzeval import compile_rulebase, load_rulebase
from fuzzeval.play.game import WIN_POINTS, Candidates, Outcome, Payoff

RULEBASE = """\
# Take the biggest number (the calibrator may move where "big" starts).
name: toy
defuzzifier: weighted_average
default: 0
inputs:
  value:
    range: [0, 10]
    terms:
      small: [0, 0, 10]
      big: {points: [2, 10, 10], adjust: [left]}
output:
  name: grade
  range: [0, 1]
  terms: {low: 0, high: 1}
rules:
  - if value is small then grade is low
  - if value is big then grade is high
"""


@dataclass(frozen=True)
class ToyState:
    turn: int  # 0..5; seats alternate, starting with ``first``
    first: int
    offers: tuple[int, ...]  # three numbers for the seat to move
    sums: tuple[int, int]


class ToyGame:
    """Six turns; the seat to move takes one of three numbers drawn by chance; the larger
    sum wins."""

    name = "toy"
    seats = 2
    payoff = WIN_POINTS
    logged_kinds = frozenset({"pick"})
    unit_name = ""
    player_names: tuple[str, ...] = ("random", "rulebase")
    rulebase_player = "rulebase"
    default_rulebase = "toy"
    default_opponent = "random"

    def prepare(self) -> None:
        pass

    def new_game(self, rng: np.random.Generator, first: int, **options: Any) -> ToyState:
        return ToyState(0, first, tuple(int(v) for v in rng.integers(0, 11, 3)), (0, 0))

    def to_move(self, state: ToyState) -> int | None:
        return None if state.turn == 6 else (state.first + state.turn) % 2

    def candidates(self, state: ToyState) -> Candidates:
        return Candidates("pick", tuple(map(str, state.offers)),
                          np.array(state.offers, dtype=float)[:, None], ("value",))

    def apply(self, state: ToyState, choice: int, rng: np.random.Generator) -> ToyState:
        seat = self.to_move(state)
        assert seat is not None
        sums = list(state.sums)
        sums[seat] += state.offers[choice]
        return ToyState(state.turn + 1, state.first,
                        tuple(int(v) for v in rng.integers(0, 11, 3)), (sums[0], sums[1]))

    def unit(self, state: ToyState) -> int:
        return 0

    def outcome(self, state: ToyState) -> Outcome:
        a, b = state.sums
        winner = 0 if a > b or (a == b and state.first == 1) else 1
        return Outcome(winner, (a, b), "single", 1, ((a, b),), {})

    def make_player(self, name: str, **options: Any) -> Any:
        if name == "random":
            return RandomPlayer()
        if name == "rulebase":
            return RuleBasePlayer(str(options["rulebase"]))
        raise ValueError(f"unknown toy player {name!r}")


class RandomPlayer:
    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        return int(rng.integers(len(candidates)))


class RuleBasePlayer:
    def __init__(self, path: str) -> None:
        self.evaluator = compile_rulebase(load_rulebase(path))

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        return int(np.argmax(self.evaluator.grade(
            candidates.feature_rows(range(len(candidates))))))


class MaxPlayer:
    """Takes the largest number on offer."""

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        return int(np.argmax([int(label) for label in candidates.labels]))


class ToyHooks:
    """The toy game hides nothing: its 'determinization' is the state itself; a playout
    runs to the end of the game and is worth the seat's lead."""

    def __init__(self, state: ToyState) -> None:
        self.state = state

    def determinize(self, view: object, rng: np.random.Generator) -> ToyState:
        return self.state

    def finished(self, root: ToyState, state: ToyState) -> bool:
        return state.turn == 6

    def value(self, root: ToyState, state: ToyState, seat: int) -> float:
        return float(state.sums[seat] - state.sums[1 - seat])


@dataclass(frozen=True)
class TableState:
    turn: int  # 0..5: two rounds of the table, starting with ``first``
    first: int
    offers: tuple[int, ...]  # three numbers for the seat to move
    rounds: tuple[tuple[int, ...], ...]  # what each seat took in each round so far


class ToyTable:
    """Three seats and no winner: in turn each takes one of three numbers drawn by chance,
    two rounds of the table; a seat is paid its sum, and less is better (as points taken
    in Hearts). Each round is a unit, so units have points of their own."""

    name = "toytable"
    seats = 3
    payoff = Payoff("points taken per game", higher_is_better=False)
    logged_kinds = frozenset({"pick"})
    unit_name = "round"
    player_names: tuple[str, ...] = ("random", "max")
    rulebase_player = ""
    default_rulebase = ""
    default_opponent = "random"

    def prepare(self) -> None:
        pass

    def new_game(self, rng: np.random.Generator, first: int, **options: Any) -> TableState:
        return TableState(0, first, tuple(int(v) for v in rng.integers(0, 11, 3)),
                          ((0, 0, 0),))

    def to_move(self, state: TableState) -> int | None:
        return None if state.turn == 6 else (state.first + state.turn) % 3

    def candidates(self, state: TableState) -> Candidates:
        return Candidates("pick", tuple(map(str, state.offers)),
                          np.array(state.offers, dtype=float)[:, None], ("value",),
                          record={"turn": state.turn})

    def apply(self, state: TableState, choice: int, rng: np.random.Generator) -> TableState:
        seat = self.to_move(state)
        assert seat is not None
        rounds = [list(r) for r in state.rounds]
        rounds[-1][seat] += state.offers[choice]
        if state.turn == 2:
            rounds.append([0, 0, 0])
        return TableState(state.turn + 1, state.first,
                          tuple(int(v) for v in rng.integers(0, 11, 3)),
                          tuple(tuple(r) for r in rounds))

    def unit(self, state: TableState) -> int:
        return min(state.turn, 5) // 3

    def outcome(self, state: TableState) -> Outcome:
        sums = tuple(sum(r[k] for r in state.rounds) for k in range(3))
        return Outcome(None, sums, "", 0, state.rounds, {"taken": sums},
                       tuple(float(v) for v in sums))

    def make_player(self, name: str, **options: Any) -> Any:
        if name == "random":
            return RandomPlayer()
        if name == "max":
            return MaxPlayer()
        raise ValueError(f"unknown toytable player {name!r}")
