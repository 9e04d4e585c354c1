"""A benchmark's children stop with it (benchmarks/children.py): each gets the signal once,
saves, and no process is left; the benchmark says in one line what is kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: a child that writes each signal it gets, one a line, and stops at the first
CHILD = r"""
import signal, sys, time
out = open(sys.argv[1], "a")
def got(signum, frame):
    out.write(f"{signum}\n"); out.flush(); time.sleep(0.5); sys.exit(0)
signal.signal(signal.SIGINT, got)
signal.signal(signal.SIGTERM, got)
out.write("ready\n"); out.flush()
time.sleep(60)
"""

#: a benchmark running that child
PARENT = r"""
import sys
sys.path.insert(0, sys.argv[2])
from benchmarks import children
with children.stopping("what is kept"):
    children.run([sys.executable, "-c", sys.argv[3], sys.argv[1]])
"""


def _start(tmp_path: Path) -> tuple[subprocess.Popen[str], Path]:
    log = tmp_path / "signals.txt"
    proc = subprocess.Popen([sys.executable, "-c", PARENT, str(log), str(ROOT), CHILD],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while not (log.exists() and log.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert log.read_text() == "ready\n"
    return proc, log


@pytest.mark.parametrize(("to_group", "signum", "code", "word"), [
    (True, signal.SIGINT, 130, "interrupted"),  # Ctrl-C at a terminal: the process group
    (False, signal.SIGINT, 130, "interrupted"),
    (True, signal.SIGTERM, 143, "terminated"),
    (False, signal.SIGTERM, 143, "terminated"),  # kill PID: the benchmark alone
])
def test_the_child_gets_the_signal_once_and_the_benchmark_says_so(
        tmp_path: Path, to_group: bool, signum: int, code: int, word: str) -> None:
    proc, log = _start(tmp_path)
    (os.killpg if to_group else os.kill)(proc.pid, signum)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert err == f"{word}: what is kept\n"
    assert log.read_text() == f"ready\n{int(signum)}\n"  # once, and it had its time


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG")
def test_a_killed_benchmark_s_child_gets_sigterm(tmp_path: Path) -> None:
    proc, log = _start(tmp_path)
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while log.read_text() == "ready\n" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert log.read_text() == f"ready\n{int(signal.SIGTERM)}\n"
