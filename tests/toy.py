"""A toy game for tests of the game-agnostic machinery: quick, with its own rule base, so
the match runner, the history and the calibrator are tested knowing no real game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fuzzeval import compile_rulebase, load_rulebase
from fuzzeval.play.game import Candidates, Outcome

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
