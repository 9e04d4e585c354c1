"""A benchmark's child processes stop with it, once, and have the time to save.

A benchmark that runs hours of matches in child processes must not leave them running
when it stops. Each child runs in a session of its own, so a Ctrl-C at the terminal or a
signal to the benchmark's process group reaches the benchmark alone; the benchmark then
sends every child still running one SIGTERM (a second signal would cut short the save the
first one started; SIGTERM, not SIGINT, so that a plain Python child stops without a
traceback, and a fuzzeval command saves as it does on Ctrl-C) and waits for them all to
exit. On Linux a child also gets SIGTERM when the benchmark dies without a word (SIGKILL).
POSIX only. The children leave the terminal's job control: Ctrl-Z pauses the script only.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

from fuzzeval.errors import Terminated

#: how long stopped children may take to save and exit before they are killed
GRACE_S = 60.0
#: the signals that stop a benchmark, blocked while a child starts
STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_started: list[subprocess.Popen[Any]] = []
_killed: list[subprocess.Popen[Any]] = []


def _prctl() -> Callable[[int, int], int] | None:
    """Linux's prctl, found now: the child between fork and exec must not look it up."""
    if not sys.platform.startswith("linux"):
        return None
    prctl: Callable[[int, int], int] = ctypes.CDLL(None, use_errno=True).prctl
    return prctl


_PRCTL = _prctl()
_PR_SET_PDEATHSIG = 1


def _prepare(parent: int) -> None:
    """In the child before it runs: the stop signals as a fresh process has them, and
    (Linux) SIGTERM when ``parent`` dies, or at once if it died already."""
    for sig in STOPS:
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    if _PRCTL is not None and _PRCTL(_PR_SET_PDEATHSIG, signal.SIGTERM) == 0 \
            and os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def start(argv: Sequence[str], **popen: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(argv, **popen)`` as a child of its own that stops with this
    process (a stop that comes while it starts waits until it is known)."""
    parent = os.getpid()
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        proc: subprocess.Popen[Any] = subprocess.Popen(
            list(argv), start_new_session=True, preexec_fn=lambda: _prepare(parent), **popen)
        _started[:] = [p for p in _started if p.poll() is None] + [proc]
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    return proc


def stop_all() -> None:
    """SIGTERM to every child still running, then GRACE_S for them all to exit; those
    still running then are killed (and counted in ``_killed``)."""
    running = [p for p in _started if p.poll() is None]
    for proc in running:
        proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + GRACE_S
    for proc in running:
        try:
            proc.communicate(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            _killed.append(proc)


def _quiet() -> None:
    """No second stop while the children save: further stop signals are ignored."""
    for sig in STOPS:
        signal.signal(sig, signal.SIG_IGN)


def wait(proc: subprocess.Popen[Any], input_: Any = None) -> tuple[Any, Any]:
    """``proc.communicate(input_)``; stopped meanwhile (Ctrl-C, SIGTERM), every child is
    stopped (``stop_all``) before the stop goes on."""
    try:
        return proc.communicate(input_)
    except KeyboardInterrupt:
        _quiet()
        stop_all()
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


@contextlib.contextmanager
def stopping(kept: str) -> Iterator[None]:
    """A benchmark's main. SIGTERM and SIGHUP stop it as Ctrl-C does; stopped, its
    children are stopped (``stop_all``) and it says in one line what is kept (``kept``),
    exit 130 (Ctrl-C) or 143. Ended any other way, no child is left running either."""
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGHUP, _terminate)
    try:
        yield
    except KeyboardInterrupt as exc:
        _quiet()
        stop_all()
        terminated = isinstance(exc, Terminated)
        n = len(_killed)
        also = f" ({n} child process{'es' if n > 1 else ''} did not stop within " \
            f"{GRACE_S:.0f} s and {'were' if n > 1 else 'was'} killed)" if n else ""
        print(f"{'terminated' if terminated else 'interrupted'}: {kept}{also}",
              file=sys.stderr)
        raise SystemExit(143 if terminated else 130) from None
    finally:
        if any(p.poll() is None for p in _started):
            _quiet()
            stop_all()


def run_main(main: Callable[[], object],
             kept: str = "the measurement stopped before its end; run it again") -> NoReturn:
    """A benchmark's entry point: ``main()`` under ``stopping(kept)`` (Ctrl-C or SIGTERM
    is one line, not a traceback), its whole-number result the exit status; a reader that
    goes away (``| head``) ends it quietly, exit 1, as it ends a fuzzeval command."""
    try:
        with stopping(kept):
            status = main()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing at exit
        raise SystemExit(1) from None
    raise SystemExit(status if isinstance(status, int) else 0)
