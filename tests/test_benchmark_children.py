"""A benchmark's children stop with it (benchmarks/children.py): each gets one SIGTERM,
all at once and before the benchmark's own clean-up, has its time to save, and no process
is left; the benchmark says in one line what is kept."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[1]

#: a child that writes each signal it gets, one a line, with whether the folder its
#: benchmark made still exists, and stops at the first
CHILD = r"""
import os, signal, sys, time
log, folder = open(sys.argv[1], "a"), sys.argv[2]
def got(signum, frame):
    log.write(f"{signum} {os.path.isdir(folder)}\n"); log.flush(); time.sleep(0.2); sys.exit(0)
signal.signal(signal.SIGINT, got)
signal.signal(signal.SIGTERM, got)
log.write("ready\n"); log.flush()
time.sleep(60)
"""

#: a benchmark running ``sys.argv[4]`` such children in a folder it removes at its end,
#: waiting on the first (as benchmarks/scaling.py does)
PARENT = r"""
import sys, tempfile
sys.path.insert(0, sys.argv[2])
from benchmarks import children
with children.stopping("what is kept"), tempfile.TemporaryDirectory() as folder:
    procs = [children.start([sys.executable, "-c", sys.argv[3], sys.argv[1], folder])
             for _ in range(int(sys.argv[4]))]
    children.wait(procs[0])
"""


@contextlib.contextmanager
def benchmark(tmp_path: Path, kids: int = 1) -> tuple[subprocess.Popen[str], Path,
                                                       list[psutil.Process]]:
    """The benchmark started, its children ready; at the end none of them is left."""
    log = tmp_path / "signals.txt"
    proc = subprocess.Popen([sys.executable, "-c", PARENT, str(log), str(ROOT), CHILD,
                             str(kids)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    everyone = [psutil.Process(proc.pid)]
    try:
        deadline = time.monotonic() + 30
        while (not log.exists() or log.read_text().count("ready") < kids) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert log.read_text() == "ready\n" * kids
        everyone += everyone[0].children()
        yield proc, log, everyone
    finally:
        left = []
        for p in everyone:
            with contextlib.suppress(psutil.NoSuchProcess):
                if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                    left.append(p.pid)
                    p.kill()
        proc.communicate()
        assert not left, f"left running: {left}"


@pytest.mark.parametrize(("to_group", "signum", "code", "word"), [
    (True, signal.SIGINT, 130, "interrupted"),  # Ctrl-C at a terminal: the process group
    (False, signal.SIGINT, 130, "interrupted"),
    (True, signal.SIGTERM, 143, "terminated"),
    (False, signal.SIGTERM, 143, "terminated"),  # kill PID: the benchmark alone
    (False, signal.SIGHUP, 143, "terminated"),  # its terminal closed
])
def test_the_child_gets_one_sigterm_and_the_benchmark_says_so(
        tmp_path: Path, to_group: bool, signum: int, code: int, word: str) -> None:
    with benchmark(tmp_path) as (proc, log, _):
        (os.killpg if to_group else os.kill)(proc.pid, signum)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert err == f"{word}: what is kept\n"
    assert log.read_text() == "ready\n15 True\n"  # once, and it had its time


def test_every_child_is_stopped_at_once_before_the_benchmark_cleans_up(
        tmp_path: Path) -> None:
    with benchmark(tmp_path, kids=3) as (proc, log, _):
        os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert (proc.returncode, err) == (130, "interrupted: what is kept\n")
    assert log.read_text() == "ready\n" * 3 + "15 True\n" * 3  # its folder still there


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG")
def test_a_killed_benchmark_s_child_gets_sigterm(tmp_path: Path) -> None:
    with benchmark(tmp_path) as (proc, log, _):
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 10
        while log.read_text() == "ready\n" and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.4)  # its save
    assert log.read_text() == "ready\n15 True\n"


def test_every_benchmark_script_stops_in_one_line() -> None:
    """Each script's entry point runs under ``children.stopping`` (``run_main`` or its
    own): Ctrl-C and SIGTERM are one line and exit 130 / 143, never a traceback."""
    scripts = [p for p in sorted((ROOT / "benchmarks").glob("*.py"))
               if 'if __name__ == "__main__":' in p.read_text()]
    assert len(scripts) >= 18
    bare = [p.name for p in scripts
            if not any(call in p.read_text().split('if __name__ == "__main__":')[1]
                       for call in ("run_main(main", "children.run_main(main"))]
    assert bare == []


def test_ctrl_c_on_a_benchmark_is_one_line(tmp_path: Path) -> None:
    """``run_main``, as every script's entry point calls it: one line, exit 130."""
    script = tmp_path / "bench.py"
    script.write_text(
        "import sys, time\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from benchmarks.children import run_main\n"
        "def main():\n"
        "    print('measuring', flush=True)\n"
        "    time.sleep(60)\n"
        "run_main(main)\n")
    proc = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "measuring\n"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert err == "interrupted: the measurement stopped before its end; run it again\n"


def test_a_benchmark_whose_reader_goes_away_ends_quietly() -> None:
    """``python -m benchmarks.figures --list | head -1``: a BrokenPipeError traceback."""
    proc = subprocess.Popen([sys.executable, "-m", "benchmarks.figures", "--list"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # gone before the list is written, as head is after its lines
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert (proc.returncode, err) == (1, "")
