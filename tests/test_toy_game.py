"""The match runner and the calibrator know no game: a toy game written here, with its own
rule base, passes the conformance check and calibrates through the plug-in API alone."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from fuzzeval import compile_rulebase, load_rulebase, parse_rulebase
from fuzzeval.calibration import CalibrationSettings, load_calibration, run_calibration
from fuzzeval.game import Candidates, Outcome
from fuzzeval.store import History, read_decisions
from fuzzeval.testing import check_game

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
    name = "toy"
    logged_kinds = frozenset({"pick"})
    unit_name = ""
    player_names = ("random", "rulebase")
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
        return int(np.argmax(self.evaluator.grade(candidates.features)))


def test_the_toy_game_conforms() -> None:
    check_game(ToyGame(), games=10, seed=1)


def test_the_toy_game_calibrates_through_the_plug_in_api(tmp_path: Path) -> None:
    db = tmp_path / "toy.sqlite"
    settings = CalibrationSettings("toy", "random", games_per_round=30, seed=2)
    with History(db) as h:
        cal = run_calibration(h, ToyGame(), settings, RULEBASE, rounds=2)
    assert [r.games for r in cal.finished_rounds] == [30, 30]
    first = cal.finished_rounds[0]
    (move,) = first.moves
    decisions = read_decisions(db)
    won = decisions[(decisions.match_id == first.match_id) & (decisions.seat == 0)
                    & decisions.game_won]
    assert move.samples == len(won) > 0
    assert move.target == won["value"].mean()
    assert move.after == pytest.approx(2 + 0.1 * (move.target - 2))
    with History(db) as h:
        final = load_calibration(h).final_yaml()
    rb, _ = parse_rulebase(final)
    assert final.startswith("# Take the biggest number") and rb is not None
    assert rb.input("value").term("big").triangle.left == cal.finished_rounds[1].moves[0].after
