"""One process per calibration and per tuning, and every failure in one line: running marks,
a base tune cannot measure, a full disk, signals."""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from tests.killing import rows_in

runner = CliRunner()


def _start(args: list[str], cwd: Path,
           preexec_fn: Callable[[], None] | None = None) -> subprocess.Popen[bytes]:
    def child() -> None:
        # As a shell starts a foreground command: Ctrl-C at its default. A child inherits
        # an ignored SIGINT, and Python then never raises KeyboardInterrupt; a test
        # worker was seen with SIGINT ignored at the C level (CI, 2026-11-26, three
        # Ctrl-C tests exiting 0 or timing out), though no test leaves it so in Python.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if preexec_fn is not None:
            preexec_fn()
    return subprocess.Popen([sys.executable, "-m", "fuzzeval", *args], cwd=cwd,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=child)


def _wait(db: Path, table: str, proc: subprocess.Popen[bytes], n: int,
          where: str = "") -> None:
    deadline = time.time() + 90
    while time.time() < deadline and proc.poll() is None:
        try:
            with sqlite3.connect(db, timeout=5) as conn:
                if conn.execute(f"SELECT COUNT(*) FROM {table} {where}").fetchone()[0] >= n:
                    return
        except sqlite3.Error:
            pass
        time.sleep(0.05)
    ended = proc.poll() is not None and proc.stderr is not None
    raise AssertionError(f"{table} never reached {n} rows: "
                         f"{proc.stderr.read().decode() if ended and proc.stderr else ''}")


def _kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _ready(proc: subprocess.Popen[bytes], then: float) -> None:
    """Wait until the command catches SIGTERM (its handler is set as it starts: the bit of
    signal 15 in SigCgt), then ``then`` seconds more for it to reach its work."""
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        status = Path(f"/proc/{proc.pid}/status").read_text()
        caught = int(next(x for x in status.splitlines() if x.startswith("SigCgt:")).split()[1],
                     16)
        if caught & (1 << (signal.SIGTERM - 1)):
            time.sleep(then)
            return
        time.sleep(0.05)
    raise AssertionError("the command never started")


# --- the running mark ------------------------------------------------------------------


CAL = ["calibrate", "cribbage", "--opponent", "random", "--rounds", "3",
       "--games-per-round", "40", "--held-out-deals", "0", "-w", "1"]


def test_a_second_calibration_process_is_refused_then_a_dead_one_is_taken_over(
        tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    args = [*CAL, "--db", str(db)]
    first = _start(args, tmp_path)
    try:
        _wait(db, "games", first, 3)
        for extra in ([], ["--resume"]):
            second = runner.invoke(app, [*args, *extra])
            assert second.exit_code == 1, second.output
            assert f"this calibration is being run by another process (pid {first.pid})" \
                in second.output, second.output
            assert "Traceback" not in second.output
        os.killpg(first.pid, signal.SIGKILL)  # its mark stays: dead, it is taken over
        first.wait()
    finally:
        _kill(first)
    again = runner.invoke(app, [*args, "--resume", "--json"])
    assert again.exit_code == 0, again.output
    assert [r["games"] for r in json.loads(again.stdout)["rounds"]] == [40, 40, 40]
    assert rows_in(db, "matches") == 3 and rows_in(db, "games") == 120  # none twice


def test_a_second_tuning_process_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    args = ["tune", "cribbage", "--training-deals", "30", "--held-out-deals", "0",
            "--budget", "100000", "-w", "1", "--db", str(db)]
    first = _start(args, tmp_path)
    try:
        _wait(db, "tuning_generations", first, 1)
        for extra in ([], ["--resume"]):
            second = runner.invoke(app, [*args, *extra])
            assert second.exit_code == 1, second.output
            assert f"this tuning is being run by another process (pid {first.pid})" \
                in second.output, second.output
    finally:
        _kill(first)
    assert rows_in(db, "tunings") == 1


def test_a_second_learn_process_is_refused_before_it_samples_a_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A learn's running mark is its settings, taken before it samples its start: a second
    process was checked against a key no process held, so it sampled a start of its own
    (while the first sampled, it held no mark at all) before it was refused."""
    import fuzzeval.learn.td_runs as learning

    db = tmp_path / "l.sqlite"
    args = ["learn", "hearts", "-n", "10", "--block", "10", "--order", "1",
            "--measure-every", "0", "-w", "1", "--db", str(db), "-o", str(tmp_path / "l.yaml")]
    first = _start([*args, "--sample-games", "100000"], tmp_path)  # samples until killed

    def never(*args: object, **kwargs: object) -> str:
        raise AssertionError("sampled the start of a learn another process runs")

    monkeypatch.setattr(learning, "start_source", never)
    try:
        _wait(db, "running_runs", first, 1)
        assert rows_in(db, "learns") == 0  # the first one is still sampling
        for extra in ([], ["--resume"]):
            second = runner.invoke(app, [*args, "--sample-games", "100000", *extra])
            assert second.exit_code == 1, second.output
            assert second.stderr == (f"error: {db}: learning by another process (pid "
                                     f"{first.pid}); let it finish or stop it, then run the "
                                     "same command again (it goes on from what is stored)\n")
    finally:
        _kill(first)


def test_tune_run_twice_stores_one_tuning_and_shows_it(tmp_path: Path) -> None:
    args = ["tune", "cribbage", "--training-deals", "30", "--held-out-deals", "0",
            "--budget", "30", "-w", "1", "--db", str(tmp_path / "t.sqlite"), "--json"]
    one = runner.invoke(app, args)
    assert one.exit_code == 0, one.output
    two = runner.invoke(app, args)
    assert two.exit_code == 0, two.output
    assert "already holds tuning 1 with these settings, all 27 evaluations: shown without " \
        "running again" in two.stderr
    assert json.loads(two.stdout)["tuning_id"] == json.loads(one.stdout)["tuning_id"] == 1
    assert rows_in(tmp_path / "t.sqlite", "tunings") == 1


# --- one line for every failure --------------------------------------------------------

def test_tune_refuses_a_base_it_cannot_measure_before_any_row(tmp_path: Path) -> None:
    db = tmp_path / "p.sqlite"
    res = runner.invoke(app, ["tune", "cribbage", "--rulebase", "cribbage_pegging",
                              "--db", str(db)])
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and "cribbage has no measure of rule base 'cribbage_pegging'" \
        in lines[0], res.output
    assert not db.exists()  # no tuning row, no file


def test_a_full_disk_during_a_match_is_one_line_and_resume_completes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.play.store import History as Store

    db = tmp_path / "m.sqlite"
    args = ["match", "cribbage", "-p", "greedy", "--opponent", "random", "-n", "8",
            "-w", "1", "--db", str(db)]
    save = Store.insert_game
    calls = {"n": 0}

    def full(self: Store, match: object, record: object, known: object = None) -> None:
        calls["n"] += 1
        if calls["n"] > 3:
            raise sqlite3.OperationalError("database or disk is full")
        save(self, match, record, known)  # type: ignore[arg-type]
    monkeypatch.setattr(Store, "insert_game", full)
    res = runner.invoke(app, args)
    assert res.exit_code == 1, res.output
    lines = [x for x in res.output.strip().splitlines() if x.strip()]
    assert lines == [f"error: {db} cannot be written (database or disk is full; is the disk "
                     f"full?): 3 of 8 games are saved in {db}; run the same command with "
                     "--resume to finish the match"], res.output
    monkeypatch.setattr(Store, "insert_game", save)
    again = runner.invoke(app, [*args, "--resume", "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["games"] == 8, again.output


def test_a_file_size_limit_during_a_match_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    args = ["match", "cribbage", "-p", "greedy", "--opponent", "random", "-n", "100000",
            "-w", "1", "--db", str(db)]

    def limit() -> None:  # what `ulimit -f` does: writes past it fail (SIGXFSZ ignored)
        # room for the empty history (its schema's pages, 110 KB with the learn tables)
        resource.setrlimit(resource.RLIMIT_FSIZE, (400_000, 400_000))
    proc = _start(args, tmp_path, preexec_fn=limit)
    try:
        _, err = proc.communicate(timeout=120)
    finally:
        _kill(proc)
    text = err.decode()
    assert proc.returncode == 1, text
    assert "Traceback" not in text
    saved = rows_in(db, "games")
    assert f"cannot be written (disk I/O error; is the disk full?): {saved} of 100000 games " \
        "are saved" in text, text
    again = runner.invoke(app, [*args[:-5], str(saved + 2), *args[-4:], "--resume", "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout)["games"] == saved + 2


@pytest.mark.parametrize(("sig", "code", "word"), [(signal.SIGTERM, 143, "terminated"),
                                                   (signal.SIGINT, 130, "interrupted")])
def test_a_command_with_nothing_to_save_stops_in_one_line(
        tmp_path: Path, sig: signal.Signals, code: int, word: str) -> None:
    proc = _start(["cribbage", "discard", "--batch", "/dev/stdin", "--crib", "mine"],
                  tmp_path)
    _ready(proc, 1.0)  # started, reading its input
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code and err.decode().strip() == word, err


def test_ctrl_c_in_calibrates_final_phase_says_what_is_saved(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    proc = _start(["calibrate", "cribbage", "--opponent", "random", "--rounds", "1",
                   "--games-per-round", "4", "--held-out-deals", "1000000", "-w", "1",
                   "--db", str(db)], tmp_path)
    try:
        _wait(db, "calibration_rounds", proc, 1, "WHERE match_id IS NOT NULL")
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        _kill(proc)
    assert proc.returncode == 130, err
    assert err.decode().strip().splitlines()[-1] == (
        f"interrupted: 1 finished round and 4 games are saved in {db}; run the same "
        "command with --resume"), err


def test_sigterm_to_a_fast_match_and_its_workers_shows_no_thread_traceback(
        tmp_path: Path) -> None:
    for k in range(2):  # a race: the issue saw it 2 times of 2
        db = tmp_path / f"m{k}.sqlite"
        proc = _start(["match", "cribbage", "-p", "random", "--opponent", "random", "-n",
                       "1000000", "-w", "2", "--db", str(db)], tmp_path)
        try:
            _wait(db, "games", proc, 1)
            os.killpg(proc.pid, signal.SIGTERM)  # as `timeout` or a closed terminal does
            _, err = proc.communicate(timeout=60)
        finally:
            _kill(proc)
        text = err.decode()
        assert proc.returncode == 143, text
        assert "Traceback" not in text and "InvalidStateError" not in text, text
        assert "terminated: " in text


def test_sigterm_while_tune_measures_its_training_deals_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    proc = _start(["tune", "cribbage", "--training-deals", "1000000", "--held-out-deals",
                   "0", "-w", "1", "--db", str(db)], tmp_path)
    _ready(proc, 2.0)  # started, measuring the training deals' exact values
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.decode().strip() == "terminated: nothing is saved yet; run the same command " \
        "to start again", err
    assert not db.exists()


def test_ctrl_c_in_a_tournament_says_what_is_saved(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    proc = _start(["tournament", "cribbage", "-p", "random", "-p", "greedy", "-n", "100000",
                   "-w", "1", "--db", str(db)], tmp_path)
    try:
        _wait(db, "games", proc, 3)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        _kill(proc)
    assert proc.returncode == 130, err
    assert err.decode().strip().splitlines()[-1] == (
        f"interrupted: {rows_in(db, 'games')} games are saved in {db}; run the same command "
        "to finish the tournament"), err


def test_a_second_signal_while_a_told_stop_cleans_up_is_not_told_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop printed its line ('interrupted: N of M games are saved ...') and then a bare
    'interrupted' when a second signal landed during the clean-up."""
    from typer.testing import CliRunner

    from fuzzeval.cli import app
    from fuzzeval.cli import match as command
    from fuzzeval.play import store

    def stopped_at_once(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # the first Ctrl-C, while the games are played

    closing = store.History.close

    def close_again(self: store.History) -> None:
        closing(self)
        if not self.readonly and not getattr(self, "_signalled", False):
            self._signalled = True  # type: ignore[attr-defined]
            raise KeyboardInterrupt  # the second, while the history closes

    @contextmanager
    def pool_stopped_again(*args: object, **kwargs: object) -> Iterator[None]:
        try:
            yield None
        finally:
            raise KeyboardInterrupt  # the third, after the stop is told, while the pool ends

    monkeypatch.setattr(command, "run_match", stopped_at_once, raising=False)
    monkeypatch.setattr("fuzzeval.play.match_runs.run_match", stopped_at_once)
    monkeypatch.setattr(store.History, "close", close_again)
    monkeypatch.setattr("fuzzeval.play.executors.executor_for", pool_stopped_again)
    db = tmp_path / "m.sqlite"
    res = CliRunner().invoke(app, ["match", "cribbage", "-p", "random", "--opponent", "random",
                                   "-n", "3", "--db", str(db)])
    assert res.exit_code == 130, res.output
    lines = res.stderr.splitlines()
    assert lines == [f"interrupted: 0 of 3 games are saved in {db}; run the same command "
                     "with --resume to finish the match"], lines
    # a later command in the same process starts with no stop told (its own is told)
    from fuzzeval.cli.common import stop_told

    assert stop_told()
    assert CliRunner().invoke(app, ["evaluate", "tipping", "-i", "quality=1", "-i",
                                    "service=1"]).exit_code == 0
    assert not stop_told()

