"""Calibration matches: rounds in the database, the winning inputs eq. 1 sees, and a run
killed at any moment (even mid-round, even with SIGKILL) that resumes to exactly the rule
bases of an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.report import run_report
from fuzzeval.learn.calibration_rounds import (
    CalibrationSettings,
    load_calibration,
    round_seed,
    run_calibration,
)
from fuzzeval.learn.calibration_step import calibrate
from fuzzeval.learn.held_out import evaluate_calibration, held_out_seed, paired_difference
from fuzzeval.play.history import HistoryError
from fuzzeval.play.store import History, read_decisions
from tests.killing import rows_in

ROOT = Path(__file__).resolve().parent.parent
SOURCE = (ROOT / "rulebases" / "cribbage_expected_points.yaml").read_text()
SETTINGS = CalibrationSettings("cribbage", "greedy", games_per_round=6, seed=3)


def _run(db: Path, rounds: int, resume: bool = False, **kw: object) -> list[str]:
    with History(db) as h:
        cal = run_calibration(h, GAME, SETTINGS, SOURCE, rounds, resume=resume, **kw)  # type: ignore[arg-type]
        return [r.rulebase_yaml for r in cal.results]


def test_each_round_calibrates_from_its_own_winning_decisions(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    texts = _run(db, rounds=2)
    assert len(texts) == 3 and texts[0] == SOURCE
    assert "# Which two cards" in texts[2]  # comments kept round after round
    with History(db) as h:
        cal = load_calibration(h)
    decisions = read_decisions(db)
    for r in cal.finished_rounds:
        assert r.games == 6
        mine = decisions[(decisions.match_id == r.match_id) & (decisions.seat == 0)]
        won = mine[mine.game_won]
        assert r.wins == won.game.nunique()
        # Recompute the round's calibration from the decisions read back with pandas.
        before = r.rulebase()
        want, _ = calibrate(before, {c: won[c].to_numpy() for c in before.input_names})
        after = next(x for x in cal.results if x.round == r.round + 1).rulebase()
        assert after.inputs == want.inputs
        moved = {m.point for m in r.moves if m.shift != 0}
        assert moved == ({"peak", "left"} if len(won) else set())
    assert round_seed(3, 0) != round_seed(3, 1)


def test_more_rounds_later_equal_all_rounds_at_once(tmp_path: Path) -> None:
    whole = _run(tmp_path / "a.sqlite", rounds=3)
    _run(tmp_path / "b.sqlite", rounds=1)
    assert _run(tmp_path / "b.sqlite", rounds=3, resume=True) == whole


def test_an_interrupted_round_resumes_to_the_same_rule_bases(tmp_path: Path) -> None:
    whole = _run(tmp_path / "a.sqlite", rounds=2)
    seen = []

    def stop_mid_round(_record: object) -> None:
        seen.append(1)
        if len(seen) == 9:  # the third game of the second round
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path / "b.sqlite", rounds=2, on_game=stop_mid_round)
    with History(tmp_path / "b.sqlite") as h:
        assert len(load_calibration(h).finished_rounds) == 1
    assert _run(tmp_path / "b.sqlite", rounds=2, resume=True) == whole


def test_resume_needs_the_same_settings_and_a_rule_base_with_adjustable_points(
        tmp_path: Path) -> None:
    _run(tmp_path / "c.sqlite", rounds=1)
    with History(tmp_path / "c.sqlite") as h, pytest.raises(HistoryError, match="no calibration"):
        other = CalibrationSettings("cribbage", "random", 6, 3)
        run_calibration(h, GAME, other, SOURCE, 1, resume=True)
    fixed = SOURCE.replace("adjust: [peak]", "adjust: []").replace("adjust: [left]",
                                                                   "adjust: []")
    with History(tmp_path / "d.sqlite") as h, pytest.raises(Exception, match="adjust"):
        run_calibration(h, GAME, SETTINGS, fixed, 1)


def test_paired_difference_by_hand() -> None:
    diff, (lo, hi) = paired_difference([1, 0, 1, 0], [1, 1, 1, 0])
    assert diff == 0.25
    sd = np.std([0, 1, 0, 0], ddof=1)
    assert hi - diff == pytest.approx(1.96 * sd / 2)
    assert lo == pytest.approx(diff - (hi - diff))


def test_held_out_games_use_the_same_seed_for_both_rule_bases(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    _run(db, rounds=1)
    with History(db) as h:
        cal = load_calibration(h)
        result = evaluate_calibration(h, GAME, cal, games=6, deals=20)
        matches = h.matches()
    held = matches.iloc[-2:]
    assert held.seed.nunique() == 1 and held.seed.iloc[0] not in set(matches.seed.iloc[:-2])
    assert result.initial.games == result.calibrated.games == 6
    # The game's own measure, on held-out deals: the report's efficiency of the same rule
    # bases on the same deals (computed there by another path), and a paired interval.
    first = tmp_path / "first.yaml"
    first.write_text(cal.results[0].rulebase_yaml)
    last = tmp_path / "last.yaml"
    last.write_text(cal.final_yaml())
    report = run_report(20, held_out_seed(cal.settings.seed),
                        [f"fuzzy:rulebase={first}", f"fuzzy:rulebase={last}"])
    mine, theirs = result.measures
    assert mine.name == "discard efficiency, my crib" and mine.units == 20
    assert mine.before == pytest.approx(report.players[0].mine.efficiency, abs=1e-12)
    assert theirs.after == pytest.approx(report.players[1].theirs.efficiency, abs=1e-12)
    lo, hi = mine.interval
    assert lo <= mine.difference <= hi


def test_calibrate_cli_writes_the_rule_base_the_drift_and_resumes(tmp_path: Path) -> None:
    db = tmp_path / "cal.sqlite"
    drift = tmp_path / "drift.png"
    args = ["calibrate", "cribbage", "--opponent", "greedy", "--rounds", "2",
            "--games-per-round", "4", "--workers", "1", "--db", str(db), "--plot", str(drift),
            "--held-out-deals", "30"]
    res = CliRunner().invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert [r["round"] for r in data["rounds"]] == [1, 2]  # as the table counts
    assert [m["measure"] for m in data["held_out"]] == ["discard efficiency, my crib",
                                                        "discard efficiency, their crib"]
    assert all(m["units"] == 30 for m in data["held_out"])
    calibrated = Path(data["calibrated"])
    assert calibrated == tmp_path / "cal.calibrated.yaml"
    assert calibrated.read_text().startswith("# Which two cards")
    assert drift.stat().st_size > 10_000
    more = CliRunner().invoke(app, [*args[:5], "3", *args[6:], "--resume"])
    assert more.exit_code == 0, more.output
    assert "3 " in more.stdout and "calibrated rule base" in more.stdout
    for command in (["plot", "drift", str(db), "-o", str(tmp_path / "d.svg")],
                    ["plot", "curve", str(db), "-o", str(tmp_path / "c.png")],
                    ["plot", "membership", str(db), "--round", "first,last", "-o",
                     str(tmp_path / "m.png")]):
        out = CliRunner().invoke(app, command)
        assert out.exit_code == 0, out.output
    assert (tmp_path / "d.svg").read_text().lstrip().startswith("<?xml")
    bad = CliRunner().invoke(app, ["plot", "membership", str(db), "--round", "0,9"])
    assert bad.exit_code != 0 and "0..3" in bad.output
    missing = CliRunner().invoke(app, ["plot", "drift", str(tmp_path / "none.sqlite")])
    assert missing.exit_code != 0 and "no such database" in missing.output


def test_calibrate_refuses_an_opponent_it_cannot_build_before_any_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The opponent (and the game options) are built before the database, as in match and
    tournament: an unknown one left runs/cribbage_calibration.sqlite behind."""
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(app, ["calibrate", "cribbage", "--opponent", "nosuch"])
    assert res.exit_code == 2, res.output
    assert res.stderr == ("error: cribbage player 'nosuch': unknown cribbage player 'nosuch' "
                          "(players: random, greedy, es, fuzzy, exhaustive, sampling)\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.usefixtures("drift_not_drawn")
def test_a_killed_calibration_resumes_to_the_uninterrupted_rule_base(tmp_path: Path) -> None:
    """SIGKILL (no clean-up at all) in the middle of the second round, then --resume."""
    common = ["calibrate", "cribbage", "--opponent", "greedy", "--rounds", "3",
              "--games-per-round", "40", "--workers", "2", "--seed", "5", "--held-out-deals", "20"]
    whole = CliRunner().invoke(app, [*common, "--db", str(tmp_path / "a.sqlite"), "--plot",
                                     str(tmp_path / "a.png")])
    assert whole.exit_code == 0, whole.output
    # The kill must land in the middle of the second round; on a busy machine a poll can
    # miss it (the run ends first), so up to three tries, each in a fresh database.
    for attempt in range(3):
        db = tmp_path / f"b{attempt}.sqlite"
        cmd = [sys.executable, "-m", "fuzzeval", *common, "--db", str(db), "--plot",
               str(tmp_path / "b.png")]
        proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.time() + 120
        while rows_in(db, "games") < 55 and time.time() < deadline and proc.poll() is None:
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        killed_at = rows_in(db, "games")
        if 40 < killed_at < 120:  # in the middle of the second round
            break
    assert 40 < killed_at < 120
    again = CliRunner().invoke(app, [*common, "--db", str(db), "--plot", str(tmp_path / "b.png"),
                                     "--resume"])
    assert again.exit_code == 0, again.output
    assert (tmp_path / f"{db.stem}.calibrated.yaml").read_text() == \
        (tmp_path / "a.calibrated.yaml").read_text()
    with History(db) as h:
        assert [r.games for r in load_calibration(h).finished_rounds] == [40, 40, 40]


def test_the_calibrated_bases_made_by_runs_the_same_calibration_again() -> None:
    """Every setting written so that a shell reads it back: a path with spaces quoted, the
    rate with every digit (``:g`` wrote 0.123457), options as one word each."""
    from fuzzeval.learn.calibration_rounds import CalibrationSettings, made_by

    settings = CalibrationSettings("cribbage", "exhaustive:weights=expert", 100, 7,
                                   rate=0.123456789, options=(("peg_counts", False),))
    assert made_by(settings, "my bases/a b.yaml", 3) == (
        "calibrated by `fuzzeval calibrate cribbage --rulebase 'my bases/a b.yaml' --opponent "
        "exhaustive:weights=expert --rounds 3 --games-per-round 100 --rate 0.123456789 "
        "--seed 7 --option peg_counts=false` (eq. 1)")


def test_a_rule_base_with_nothing_to_calibrate_is_refused_before_any_file(
        tmp_path: Path) -> None:
    """It was refused after the database was made (exit 1, a 94 KB history left)."""
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    db = tmp_path / "c.sqlite"
    res = CliRunner().invoke(app, ["calibrate", "hearts", "--rulebase", "hearts_td",
                                   "--opponent", "random", "--rounds", "1",
                                   "--games-per-round", "2", "--held-out-deals", "0", "-w",
                                   "1", "--db", str(db)])
    assert res.exit_code == 2 and res.output == (
        "error: rule base 'hearts_td' marks no point 'adjust:'; nothing to calibrate\n")
    assert list(tmp_path.iterdir()) == []
