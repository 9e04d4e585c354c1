"""Runs stopped from outside (SIGKILL, SIGTERM) leave no process behind and nothing lost;
two runs of one match at once; matches identified by content; history files checked."""

from __future__ import annotations

import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.executors import executor_for
from fuzzeval.play.match import MatchSpec, run_games
from fuzzeval.play.spec import PlayerSpec
from tests.killing import rows_in

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()

LONG_MATCH = ["match", "cribbage", "-p", "greedy", "--opponent", "random",
              "-n", "100000", "-w", "2"]


def _start(args: list[str], tmp_path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "fuzzeval", *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def _wait_for_games(db: Path, proc: subprocess.Popen[bytes], n: int = 20) -> None:
    deadline = time.time() + 60
    while rows_in(db, "games") < n and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None and rows_in(db, "games") >= n


def _gone_within(procs: list[psutil.Process], seconds: float) -> bool:
    _, alive = psutil.wait_procs(procs, timeout=seconds)
    for p in alive:
        p.kill()
    return not alive


def test_workers_exit_and_release_the_pipe_when_the_parent_is_killed(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    proc = _start([*LONG_MATCH, "--db", str(db)], tmp_path)
    try:
        _wait_for_games(db, proc)
        workers = psutil.Process(proc.pid).children(recursive=True)
        assert len(workers) >= 2
        os.kill(proc.pid, signal.SIGKILL)  # the parent only, as `kill -9 PID` does
        proc.wait()
        assert _gone_within(workers, 5), "workers outlived their parent"
        assert proc.stdout is not None
        assert proc.stdout.read() == b""  # EOF: no orphan holds the output pipe
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_sigterm_stops_like_ctrl_c_saves_and_exits_143(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    proc = _start([*LONG_MATCH, "--db", str(db)], tmp_path)
    try:
        _wait_for_games(db, proc)
        workers = psutil.Process(proc.pid).children(recursive=True)
        os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 143, err
    text = err.decode()
    saved = rows_in(db, "games")
    assert f"terminated: {saved} of 100000 games are saved" in text, text
    assert "Traceback" not in text
    assert _gone_within(workers, 5)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_stopped_calibration_leaves_no_worker(tmp_path: Path, sig: signal.Signals) -> None:
    db = tmp_path / "c.sqlite"
    proc = _start(["calibrate", "cribbage", "--opponent", "greedy", "--rounds", "50",
                   "--games-per-round", "200", "--db", str(db), "--held-out-deals", "0"], tmp_path)
    try:
        _wait_for_games(db, proc)
        workers = psutil.Process(proc.pid).children(recursive=True)
        os.kill(proc.pid, sig)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert _gone_within(workers, 5)
    if sig == signal.SIGTERM:
        assert proc.returncode == 143 and b"finished round" in err, err


# --- two runs of one match at once ------------------------------------------------------

def test_a_second_resume_of_a_match_being_played_is_refused_then_takes_over(
        tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    args = ["match", "cribbage", "-p", "greedy", "--opponent", "random", "-n", "100000", "--db",
            str(db)]
    first = _start(args, tmp_path)
    try:
        _wait_for_games(db, first, 5)
        second = runner.invoke(app, [*args, "--resume"])
        assert second.exit_code == 1, second.output
        assert f"being played by another process (pid {first.pid})" in second.output
        assert "Traceback" not in second.output and "IntegrityError" not in second.output
        os.kill(first.pid, signal.SIGKILL)  # a stale mark: the next --resume takes over
        first.wait()
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    stored = rows_in(db, "games")
    with sqlite3.connect(db) as conn:  # workers finish games out of order: not a prefix
        done = {i for (i,) in conn.execute("SELECT idx FROM games")}
    again = runner.invoke(app, [*args[:-3], str(stored + 3), "--db", str(db), "--resume",
                                "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["games"] == len(done | set(range(stored + 3)))


# --- a rule-base player is its content -------------------------------------------------

def test_resume_refuses_a_match_whose_rule_base_changed_but_not_for_comments(
        tmp_path: Path) -> None:
    mine = tmp_path / "my.yaml"
    text = (ROOT / "rulebases" / "cribbage_linguistic.yaml").read_text()
    mine.write_text(text)
    args = ["match", "cribbage", "-p", f"fuzzy:rulebase={mine}", "--opponent", "random", "--db",
            str(tmp_path / "m.sqlite")]
    assert runner.invoke(app, [*args, "-n", "3"]).exit_code == 0
    mine.write_text("# a new comment changes nothing the player does\n" + text)
    assert runner.invoke(app, [*args, "-n", "4", "--resume"]).exit_code == 0
    changed_text = text.replace("pair_to_them: {points: -2,", "pair_to_them: {points: -3,")
    assert changed_text != text
    mine.write_text(changed_text)
    changed = runner.invoke(app, [*args, "-n", "5", "--resume"])
    assert changed.exit_code == 1 and "has changed since match 1 was stored" in changed.output
    fresh = runner.invoke(app, [*args, "-n", "2", "--json"])  # without --resume: a new match
    assert fresh.exit_code == 0 and json.loads(fresh.stdout)["match_id"] == 2


# --- memory and records ------------------------------------------------------------------

def test_games_stream_lazily_whatever_the_match_length() -> None:
    most = 10**8  # a spec's most games (GAMES_MAX)
    spec = MatchSpec("cribbage", PlayerSpec("random"), PlayerSpec("random"), most, 3)
    t0 = time.time()
    with executor_for(2) as pool:
        first = list(itertools.islice(run_games(GAME, spec, range(most), pool, count=most),
                                      5))
    assert len(first) == 5 and time.time() - t0 < 30


def test_a_match_of_the_most_games_does_not_grow_in_memory(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    proc = _start(["match", "cribbage", "-p", "random", "--opponent", "random", "-n", "100000000",
                   "-w", "2", "--db", str(db)], tmp_path)
    try:
        _wait_for_games(db, proc, 50)
        rss = psutil.Process(proc.pid).memory_info().rss
        os.kill(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert rss < 400 * 2**20, rss  # the parent; before: gigabytes of game indices
    assert proc.returncode == 143


def test_resume_with_fewer_games_never_shrinks_the_record(tmp_path: Path) -> None:
    args = ["match", "cribbage", "-p", "greedy", "--opponent", "random", "--db",
            str(tmp_path / "m.sqlite")]
    assert runner.invoke(app, [*args, "-n", "20"]).exit_code == 0
    res = runner.invoke(app, [*args, "-n", "10", "--resume"])
    assert res.exit_code == 0 and "the stored match has 20 games" in res.output
    with sqlite3.connect(tmp_path / "m.sqlite") as conn:
        assert conn.execute("SELECT games FROM matches").fetchone()[0] == 20


@pytest.mark.usefixtures("drift_not_drawn")
def test_calibrate_resume_with_fewer_rounds_keeps_them_all(tmp_path: Path) -> None:
    args = ["calibrate", "cribbage", "--opponent", "greedy", "--games-per-round", "4", "--workers",
            "1", "--held-out-deals", "0", "--db", str(tmp_path / "c.sqlite"), "--plot",
            str(tmp_path / "d.png")]
    assert runner.invoke(app, [*args, "--rounds", "2"]).exit_code == 0
    res = runner.invoke(app, [*args, "--rounds", "1", "--resume"])
    assert res.exit_code == 0 and "2 rounds are stored" in res.output, res.output
    with sqlite3.connect(tmp_path / "c.sqlite") as conn:
        assert conn.execute("SELECT rounds FROM calibrations").fetchone()[0] == 2


# --- files made or named -----------------------------------------------------------------

def test_plot_without_an_extension_writes_png_and_says_where(tmp_path: Path) -> None:
    res = runner.invoke(app, ["plot", "membership", "tipping", "-o", str(tmp_path / "pic")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "pic.png").stat().st_size > 1000
    assert str(tmp_path / "pic.png") in res.output.replace("\n", "")
    bad = runner.invoke(app, ["plot", "membership", "tipping", "-o", str(tmp_path / "p.txt")])
    assert bad.exit_code == 2 and ".png, .svg, .pdf" in bad.output


@pytest.mark.parametrize("command", [
    ["match", "cribbage", "-p", "greedy", "--opponent", "random", "-n", "2"],
    ["calibrate", "cribbage", "--rounds", "1", "--games-per-round", "2"],
    ["tune", "cribbage", "--training-deals", "20", "--budget", "20"],
])
def test_resume_with_nothing_to_resume_makes_no_file(tmp_path: Path,
                                                     command: list[str]) -> None:
    db = tmp_path / "runs" / "none.sqlite"
    res = runner.invoke(app, [*command, "--db", str(db), "--resume"])
    assert res.exit_code == 1 and "nothing to resume" in res.output, res.output
    assert not (tmp_path / "runs").exists()


def test_a_rule_base_for_another_game_is_refused_naming_it_before_any_file(
        tmp_path: Path) -> None:
    tipping = ROOT / "rulebases" / "tipping.yaml"
    db = tmp_path / "runs" / "c.sqlite"
    for command in (["calibrate", "cribbage", "--rulebase", str(tipping), "--db", str(db)],
                    ["tune", "cribbage", "--rulebase", str(tipping), "--db", str(db)],
                    ["match", "cribbage", "-p", f"fuzzy:rulebase={tipping}", "--db", str(db)]):
        res = runner.invoke(app, command)
        assert res.exit_code == 2, res.output  # the wrong file for this game: a usage error
        assert str(tipping) in res.output.replace("\n", "") and "quality" in res.output
        assert "_rulebases" not in res.output
        assert not (tmp_path / "runs").exists(), command


def test_seeds_out_of_range_are_refused() -> None:
    for seed in ("9223372036854775808", "-1"):
        res = runner.invoke(app, ["match", "cribbage", "-n", "1", "--seed", seed])
        assert res.exit_code == 2 and "--seed" in res.output


def test_json_lines_are_strict_and_quick_when_finite() -> None:
    from fuzzeval.cli.common import json_line

    assert json_line({"a": 1.5, "b": [2]}) == '{"a": 1.5, "b": [2]}'
    assert json_line({"a": float("inf"), "b": [float("nan")]}) == '{"a": "inf", "b": ["nan"]}'


@pytest.mark.usefixtures("drift_not_drawn")
def test_a_killed_worker_in_a_calibration_loses_nothing(tmp_path: Path) -> None:
    """A worker killed mid-round: exit 1 saying what is saved; --resume then finishes to the
    uninterrupted run's rule base."""
    common = ["calibrate", "cribbage", "--opponent", "greedy", "--rounds", "3", "--games-per-round",
              "20", "--workers", "2", "--seed", "5", "--held-out-deals", "0"]
    whole = runner.invoke(app, [*common, "--db", str(tmp_path / "a.sqlite"), "--plot",
                                str(tmp_path / "a.png")])
    assert whole.exit_code == 0, whole.output
    db = tmp_path / "b.sqlite"
    args = [*common, "--db", str(db), "--plot", str(tmp_path / "b.png")]
    proc = _start(args, tmp_path)
    try:
        _wait_for_games(db, proc, 25)  # in the second round
        psutil.Process(proc.pid).children(recursive=True)[0].kill()
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 1, err
    with sqlite3.connect(db) as conn:
        rounds = conn.execute("SELECT COUNT(*) FROM calibration_rounds WHERE match_id IS NOT "
                              "NULL").fetchone()[0]
    games = rows_in(db, "games")
    assert rounds < 3 and games < 60
    said = f"{rounds} finished round{'' if rounds == 1 else 's'} and {games} games"
    assert f"a worker process died: {said} are saved" in err.decode().replace("\n", " "), err
    again = runner.invoke(app, [*args, "--resume"])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "b.calibrated.yaml").read_text() == \
        (tmp_path / "a.calibrated.yaml").read_text()


def _sigterm_is_default() -> bool:
    return signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_workers_do_not_inherit_the_parents_sigterm_handler() -> None:
    """A worker killed while it holds the pool's result-queue lock leaves the others stuck
    on it, and the pool then terminates them with SIGTERM. A forked worker that kept the
    CLI's handler raised inside the pool's own code, went back to the lock, and the parent
    waited forever (about one run in three, seen with `kill -9` of one worker)."""
    from concurrent.futures import ProcessPoolExecutor

    from fuzzeval.cli import _terminate
    from fuzzeval.play.match import ignore_interrupts

    before = signal.signal(signal.SIGTERM, _terminate)
    try:
        with ProcessPoolExecutor(1, initializer=ignore_interrupts) as pool:
            assert pool.submit(_sigterm_is_default).result(timeout=30)
    finally:
        signal.signal(signal.SIGTERM, before)


SLOW_CREATE = r"""
import sys, time
from fuzzeval.play import match_runs, store
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.registry import load_game
slow = len(sys.argv) > 2
create = store.History.create_match
def create_slowly(self, *a, **k):
    if slow:
        time.sleep(1.5)  # the other process looks for the match meanwhile
    return create(self, *a, **k)
store.History.create_match = create_slowly
spec = MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), 3, 4)
with store.History(sys.argv[1]) as h:
    try:
        match_runs.run_match(h, load_game("cribbage"), spec)
    except store.HistoryError as exc:
        print(exc)
"""


def test_two_processes_started_at_once_store_one_match(tmp_path: Path) -> None:
    """Finding a match and creating it are one transaction: a process that looks while
    another is creating it waits, then finds it (before, both created one: two matches)."""
    db = tmp_path / "h.sqlite"
    first = subprocess.Popen([sys.executable, "-c", SLOW_CREATE, str(db), "slow"])
    time.sleep(0.8)
    second = subprocess.run([sys.executable, "-c", SLOW_CREATE, str(db)],
                            capture_output=True, text=True, timeout=120)
    first.wait(timeout=120)
    with sqlite3.connect(db) as conn:
        matches = conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
        games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert (matches, games) == (1, 3), second.stdout
