"""Runs stopped from outside (SIGKILL, SIGTERM) leave no process behind and nothing lost;
two runs of one match at once; matches identified by content; history files checked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from tests.killing import rows_in

LONG_MATCH = ["match", "cribbage", "-p", "greedy", "-o", "random", "-n", "100000", "-w", "2"]


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
    proc = _start(["calibrate", "cribbage", "-o", "greedy", "--rounds", "50",
                   "--games-per-round", "200", "--db", str(db), "--deals", "0"], tmp_path)
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
        assert proc.returncode == 143 and b"finished rounds and" in err, err
