"""The match runner and the calibrator know no game: a toy game written here, with its own
rule base, passes the conformance check and calibrates through the plug-in API alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzzeval import parse_rulebase
from fuzzeval.learn.calibration_rounds import CalibrationSettings, load_calibration, run_calibration
from fuzzeval.play.store import History, read_decisions
from fuzzeval.play.testing import check_game
from tests.toy import RULEBASE, ToyGame


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
