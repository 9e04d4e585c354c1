"""The commands' stored runs: a match, calibration or tuning already stored is shown or
continued (never played twice, never an error), and progress counts what is left to play.
(The library's stored runs: tests/test_runs.py.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rich.progress import Progress, TaskID
from typer.testing import CliRunner

from fuzzeval.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Default pictures (plots/...) go under the test's folder, not the checkout's."""
    monkeypatch.chdir(tmp_path)
CALIBRATE = ["calibrate", "cribbage", "--opponent", "random", "--rounds", "1", "--games-per-round",
             "2", "--workers", "1", "--held-out-deals", "0", "--json"]


# --- 1. a run already stored is shown or continued, never played a second time ---------

MATCH = ["match", "cribbage", "-p", "greedy", "--opponent", "random", "-n", "3", "--json"]


def test_a_stored_match_run_again_is_shown_or_continued(tmp_path: Path) -> None:
    from fuzzeval.play.store import History

    db = str(tmp_path / "m.sqlite")
    first = runner.invoke(app, [*MATCH, "--db", db])
    assert first.exit_code == 0
    again = runner.invoke(app, [*MATCH, "--db", db])  # the same command twice: no error
    assert again.exit_code == 0 and "Traceback" not in again.output
    assert again.stderr.strip() == (
        f"{db} already holds match 1 with these settings, all 3 games: shown without "
        "playing again (for a new match, change --seed or --db)")
    shown, played = json.loads(again.stdout), json.loads(first.stdout)
    assert shown["resumed_games"] == 3 and shown["sides"] == played["sides"]
    longer = runner.invoke(app, [*MATCH[:-2], "5", "--json", "--db", db])
    assert longer.exit_code == 0 and json.loads(longer.stdout)["resumed_games"] == 3
    assert "3 of 5 games: playing only the 2 it lacks" in longer.stderr
    # --resume plays nothing more, and says what it resumes, as loud as a plain run
    resumed = runner.invoke(app, [*MATCH[:-2], "5", "--json", "--db", db, "--resume"])
    assert resumed.exit_code == 0
    assert resumed.stderr == f"{db}: resuming match 1, all 5 games: shown without playing again\n"
    assert json.loads(resumed.stdout)["resumed_games"] == 5
    further = runner.invoke(app, [*MATCH[:-2], "6", "--json", "--db", db, "--resume"])
    assert further.stderr == f"{db}: resuming match 1, 5 of 6 games: playing only the 1 it lacks\n"
    # another seed is another match
    assert runner.invoke(app, [*MATCH, "--db", db, "--seed", "2"]).exit_code == 0
    with History(db) as h:
        assert h.matches()["finished"].tolist() == [6, 3]


def test_a_stored_match_whose_rule_base_changed_is_a_new_match(tmp_path: Path) -> None:
    rb = tmp_path / "mine.yaml"
    source = Path(__file__).resolve().parents[1] / "rulebases" / "cribbage_linguistic.yaml"
    rb.write_text(source.read_text())
    args = ["match", "cribbage", "-p", f"fuzzy:rulebase={rb}", "--opponent", "random", "-n", "2",
            "--db", str(tmp_path / "m.sqlite"), "--json"]
    assert runner.invoke(app, args).exit_code == 0
    rb.write_text(source.read_text().replace("range: [0, 20]", "range: [0, 21]", 1))
    other = runner.invoke(app, args)  # other content: other games, in a match of their own
    assert other.exit_code == 0  # and it says so (it started match 2 without a word)
    assert other.stderr == (f"{tmp_path / 'm.sqlite'}: a file a player reads (a rule base or "
                            "a table) has changed since match 1 was stored with these "
                            "settings: its games are another player's, so a new match "
                            "starts\n")
    assert json.loads(other.stdout)["match_id"] == 2
    assert runner.invoke(app, [*args, "--resume"]).exit_code == 0  # resumes match 2


@pytest.mark.usefixtures("drift_not_drawn")
def test_a_stored_calibration_run_again_is_shown_or_continued(tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite")
    first = runner.invoke(app, [*CALIBRATE, "--db", db])
    assert first.exit_code == 0
    again = runner.invoke(app, [*CALIBRATE, "--db", db])
    assert again.exit_code == 0
    assert again.stderr.strip() == (
        f"{db} already holds calibration 1 with these settings, all 1 rounds: shown without "
        "playing again (for a new calibration, change --seed or --db)")
    assert json.loads(again.stdout)["rounds"] == json.loads(first.stdout)["rounds"]
    more = runner.invoke(app, [*CALIBRATE[:5], "3", *CALIBRATE[6:], "--db", db])
    assert more.exit_code == 0 and "1 of 3 rounds: playing only the 2 it lacks" in more.stderr
    shown = json.loads(more.stdout)
    assert shown["calibration_id"] == 1 and len(shown["rounds"]) == 3


def test_a_stored_tuning_run_again_is_shown_not_tuned_again(tmp_path: Path) -> None:
    """The same tune command twice stored two tunings and ran CMA-ES twice; now one."""
    from fuzzeval.play.store import History

    db = str(tmp_path / "t.sqlite")
    args = ["tune", "cribbage", "--budget", "16", "--training-deals", "20",
            "--held-out-deals", "0", "--workers", "1", "--db", db, "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0 and "already holds" not in first.stderr
    again = runner.invoke(app, args)
    assert again.exit_code == 0
    evaluations = json.loads(first.stdout)["evaluations"]
    assert again.stderr.strip().splitlines()[-1] == (
        f"{db} already holds tuning 1 with these settings, all 14 evaluations: shown without "
        "running again (for a new tuning, change --seed or --db)")  # 1 + 13: budget 16 allows
    assert json.loads(again.stdout)["evaluations"] == evaluations
    with History(db) as h:
        assert h.conn.execute("SELECT COUNT(*) FROM tunings").fetchone()[0] == 1


def test_a_tuning_run_again_with_a_larger_budget_says_what_it_adds(tmp_path: Path) -> None:
    """--budget 6 --popsize 3 runs the start and one generation (4); run again it said
    "all 6 evaluations", and with --budget 12 "running only the 8 it lacks", then ran 6."""
    db = str(tmp_path / "t.sqlite")
    base = ["tune", "cribbage", "--popsize", "3", "--training-deals", "20",
            "--held-out-deals", "0", "--workers", "1", "--db", db, "--json"]
    first = runner.invoke(app, [*base, "--budget", "6"])
    assert first.exit_code == 0 and json.loads(first.stdout)["evaluations"] == 4
    again = runner.invoke(app, [*base, "--budget", "6"])
    assert again.stderr.strip().splitlines()[-1] == (
        f"{db} already holds tuning 1 with these settings, all 4 evaluations: shown without "
        "running again (for a new tuning, change --seed or --db)")
    more = runner.invoke(app, [*base, "--budget", "12"])
    assert more.exit_code == 0 and json.loads(more.stdout)["evaluations"] == 10  # 1 + 3 * 3
    assert more.stderr.strip().splitlines()[0] == (
        f"{db} already holds tuning 1 with these settings, 4 of 10 evaluations: running only "
        "the 6 it lacks (for a new tuning, change --seed or --db)")


def test_a_budget_of_the_start_and_one_generation_is_the_least_taken(tmp_path: Path) -> None:
    """--popsize 3: the start and one generation are 4 evaluations, the least budget taken;
    3 is refused before any work, naming both."""
    base = ["tune", "cribbage", "--popsize", "3", "--training-deals", "20",
            "--held-out-deals", "0", "--workers", "1", "--json"]
    least = runner.invoke(app, [*base, "--budget", "4", "--db", str(tmp_path / "a.sqlite")])
    assert least.exit_code == 0, least.output
    assert json.loads(least.stdout)["evaluations"] == 4
    table = runner.invoke(app, [*base[:-1], "--budget", "4", "--db", str(tmp_path / "a.sqlite")])
    lines = [line.split() for line in table.stdout.splitlines()]
    header = lines.index(["generations", "evaluations", "best", "on", "training", "deals"])
    assert lines[header + 2][:2] == ["1", "4"]  # the start and one generation, shown again
    short = runner.invoke(app, [*base, "--budget", "3", "--db", str(tmp_path / "b.sqlite")])
    assert short.exit_code == 2 and short.stderr == (
        "error: --budget 3 is less than the start and one generation (4 rule bases)\n")
    assert not (tmp_path / "b.sqlite").exists()


# --- 2. progress counts the games stored as done -----------------------------------------

class _Recorded(Progress):
    """A progress bar that remembers where each of its tasks started and ended."""

    bars: ClassVar[list[_Recorded]] = []

    def __init__(self, *columns: Any, **options: Any) -> None:
        super().__init__(*columns, **options)
        self.starts: list[tuple[float, float | None]] = []
        _Recorded.bars.append(self)

    def add_task(self, *args: Any, **options: Any) -> TaskID:
        task = super().add_task(*args, **options)
        self.starts.append((self.tasks[-1].completed, self.tasks[-1].total))
        return task

    def reset(self, task_id: TaskID, **options: Any) -> None:
        super().reset(task_id, **options)
        self.starts.append((self._tasks[task_id].completed, self._tasks[task_id].total))

    def ends(self) -> list[tuple[float, float | None]]:
        return [(t.completed, t.total) for t in self.tasks]


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[_Recorded]:
    _Recorded.bars = []
    # every command's bar comes from fuzzeval.cli.common.progress_bar, which imports
    # rich.progress's Progress when it makes one
    monkeypatch.setattr("rich.progress.Progress", _Recorded)
    return _Recorded.bars


def test_an_extended_tournament_counts_its_stored_games_as_done(
        tmp_path: Path, recorded: list[_Recorded]) -> None:
    args = ["tournament", "cribbage", "-p", "random", "-p", "greedy", "-p",
            "random:pegging=basic", "--workers", "1", "--json", "--db",
            str(tmp_path / "t.sqlite"), "--plot", str(tmp_path / "t.png")]
    first = runner.invoke(app, [*args, "--games", "2"])
    assert first.exit_code == 0, first.output
    assert recorded[-1].starts == [(0, 6)] and recorded[-1].ends() == [(6, 6)]
    again = runner.invoke(app, [*args, "--games", "5"])
    assert again.exit_code == 0, again.output
    # 3 pairings: 6 games stored, 15 in all; the bar starts at 6 and ends full
    assert recorded[-1].starts == [(6, 15)] and recorded[-1].ends() == [(15, 15)]


def test_a_resumed_match_counts_its_stored_games_as_done(
        tmp_path: Path, recorded: list[_Recorded]) -> None:
    db = str(tmp_path / "m.sqlite")
    assert runner.invoke(app, [*MATCH, "--db", db]).exit_code == 0
    resumed = runner.invoke(app, [*MATCH[:-2], "7", "--json", "--db", db, "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert recorded[-1].starts == [(3, 7)] and recorded[-1].ends() == [(7, 7)]


@pytest.mark.usefixtures("drift_not_drawn")
def test_a_calibration_resumed_mid_round_counts_the_round_s_stored_games(
        tmp_path: Path, recorded: list[_Recorded]) -> None:
    from fuzzeval.games.cribbage.game import GAME
    from fuzzeval.learn.calibration_rounds import CalibrationSettings, run_calibration
    from fuzzeval.play.store import History
    from fuzzeval.resources import find_rulebase

    db = tmp_path / "c.sqlite"
    played: list[object] = []

    def stop_after_three(record: object) -> None:
        played.append(record)
        if len(played) == 3:
            raise KeyboardInterrupt

    # what `calibrate cribbage -o random --games-per-round 2 --rounds 2` stores when stopped
    # in its second round, after one game of it
    with History(db) as h, pytest.raises(KeyboardInterrupt):
        run_calibration(h, GAME, CalibrationSettings("cribbage", "random", 2, 1),
                        find_rulebase("cribbage_linguistic").read_text(), 2,
                        on_game=stop_after_three)
    args = [*CALIBRATE[:5], "2", *CALIBRATE[6:], "--db", str(db), "--resume"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    bar = next(b for b in recorded if len(b.starts) > 1)
    assert bar.starts == [(0, 2), (1, 2)] and bar.ends() == [(2, 2)]

