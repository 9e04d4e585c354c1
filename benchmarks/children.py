"""A benchmark's child processes stop with it, once, and have the time to save.

A benchmark that runs hours of matches in child processes must not leave them running
when it is stopped. Each child runs in a session of its own, so a Ctrl-C at the terminal
or a signal to the benchmark's process group reaches the benchmark alone; the benchmark
passes it on to each child still running, once (a second signal would cut short the save
the first one started), and waits for the child to save and exit. On Linux a child also
gets SIGTERM when the benchmark dies without a word (SIGKILL).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from fuzzeval.errors import Terminated

#: how long a stopped child may take to save and exit before it is killed
GRACE_S = 60.0
_PR_SET_PDEATHSIG = 1
_started: list[subprocess.Popen[Any]] = []


def _die_with(parent: int) -> None:
    """In the child before it runs: SIGTERM when ``parent`` dies (Linux), or at once if it
    died already."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGTERM)


def start(argv: Sequence[str], **popen: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(argv, **popen)``, as a child of its own that stops with this
    process."""
    parent = os.getpid()
    proc: subprocess.Popen[Any] = subprocess.Popen(
        list(argv), start_new_session=True, preexec_fn=lambda: _die_with(parent), **popen)
    _started.append(proc)
    return proc


def _stop(proc: subprocess.Popen[Any], sig: int) -> None:
    """Pass ``sig`` on to ``proc`` if it still runs; GRACE_S for it to exit, then kill."""
    if proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.communicate(timeout=GRACE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait(proc: subprocess.Popen[Any], stdin: Any = None) -> tuple[Any, Any]:
    """``proc.communicate(stdin)``; stopped meanwhile (Ctrl-C, SIGTERM), ``proc`` gets the
    same signal and its time to save before the stop goes on."""
    try:
        return proc.communicate(stdin)
    except KeyboardInterrupt as exc:
        _quiet()
        _stop(proc, signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT)
        raise


def run(argv: Sequence[str], *, check: bool = False, capture_output: bool = False,
        **popen: Any) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run`` through ``start`` and ``wait``."""
    if capture_output:
        popen.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc = start(argv, **popen)
    out, err = wait(proc)
    if check and proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, list(argv), out, err)
    return subprocess.CompletedProcess(list(argv), proc.returncode, out, err)


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


def _quiet() -> None:
    """No second stop while the children save: further Ctrl-C and SIGTERM are ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


@contextlib.contextmanager
def stopping(saved: str) -> Iterator[None]:
    """A benchmark's main: SIGTERM stops it as Ctrl-C does; stopped, every child still
    running gets the signal and its time to save, and the benchmark says in one line what
    is saved (``saved``) and exits 130 (Ctrl-C) or 143 (SIGTERM)."""
    signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    except KeyboardInterrupt as exc:
        _quiet()
        terminated = isinstance(exc, Terminated)
        for proc in _started:
            _stop(proc, signal.SIGTERM if terminated else signal.SIGINT)
        print(f"{'terminated' if terminated else 'interrupted'}: {saved}", file=sys.stderr)
        raise SystemExit(143 if terminated else 130) from None
