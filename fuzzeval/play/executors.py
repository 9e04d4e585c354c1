"""Where games run: here, in local worker processes, or on a Dask cluster.

All three give the same results (game seeds do not depend on who plays them). Dask is an
optional extra (``fuzzeval[dask]``, ``fuzzeval.extras.DASK``); its client offers a
``concurrent.futures`` executor.
"""

from __future__ import annotations

import asyncio
import gc
import os
import re
import sys
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any

from fuzzeval.errors import FuzzevalError, UsageError
from fuzzeval.extras import DASK
from fuzzeval.play.match import ignore_interrupts

#: the pool's result pipe is widened to this (Linux: up to /proc/sys/fs/pipe-max-size,
#: 1 MiB by default), so a worker's result (about 220 KB for a task's 0.4 s of backgammon
#: games) is written at once, not in 64 KiB turns with the parent's reading thread
RESULT_PIPE_BYTES = 1 << 20


def dask_timeout() -> float:
    """Seconds a scheduler has to answer: Dask's connect timeout (default 30 s; set
    ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT``, e.g. ``5s``, to change it)."""
    import dask.config
    from dask.utils import parse_timedelta

    seconds = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), "s")
    return float(seconds)


async def _ask(address: str, timeout: float) -> tuple[dict[str, Any], dict[str, Any]]:
    """The server's identity and versions, over one connection (distributed's own
    ``connect`` waits for the other side's handshake without a limit: wait_for bounds it)."""
    from distributed.comm.core import connect

    # 0.8: its own reason (refused, unknown host) comes before wait_for's limit
    comm = await connect(address, timeout=0.8 * timeout)  # type: ignore[no-untyped-call]
    try:
        identity: dict[str, Any] = {}
        for op in ("identity", "versions"):
            await comm.write({"op": op, "reply": True})
            answer = await comm.read()
            if not isinstance(answer, dict):
                raise TypeError(f"answered {type(answer).__name__} to {op!r}")
            if op == "identity":
                identity = answer
                if answer.get("type") != "Scheduler":  # a worker, a nanny: not what runs games
                    return identity, {}
        return identity, answer
    finally:
        comm.abort()


def _field(answer: dict[str, Any], group: str, key: str) -> object:
    """``answer[group][key]``, or None where the answer has no such thing."""
    inner = answer.get(group)
    return inner.get(key) if isinstance(inner, dict) else None


def check_scheduler(address: str, timeout: float) -> None:
    """Fail within ``timeout`` seconds unless a Dask scheduler of our distributed and
    Python versions answers at ``address``: a closed port, an HTTP server or any other
    service that answers garbage is one error line, not a hang or a traceback."""
    from importlib.metadata import version

    mine = version("distributed")
    where = f"--dask {address}"
    try:
        identity, versions = asyncio.run(asyncio.wait_for(_ask(address, timeout), timeout))
    except TimeoutError:
        raise FuzzevalError(f"{where}: no Dask scheduler answered within {timeout:g} s (is "
                            "it the scheduler's address, e.g. tcp://host:8786?)") from None
    except OSError as exc:  # refused, unknown host: distributed retried until its deadline
        # the refusal itself when distributed kept it; else its own "timed out" line
        said = str(exc.__cause__ or "") or str(exc) or type(exc).__name__
        why = re.sub(r"^in <[^>]*>: ", "", " ".join(said.split()))
        raise FuzzevalError(f"{where}: no Dask scheduler answered within {timeout:g} s "
                            f"({why[:160]})") from None
    except ValueError as exc:  # distributed's own check of the address's form
        raise FuzzevalError(f"{where}: not a Dask address ({exc}); write e.g. "
                            "tcp://host:8786") from None
    except Exception as exc:  # what the other side sent is anyone's guess
        why = " ".join(str(exc).split())[:160] or type(exc).__name__
        raise FuzzevalError(f"{where}: not a Dask scheduler ({why})") from None
    kind = identity.get("type")
    if kind != "Scheduler":
        raise FuzzevalError(f"{where}: a Dask {kind or 'server'} answered, not a scheduler; "
                            "give the scheduler's address")
    theirs = _field(versions, "packages", "distributed")
    if theirs != mine:
        raise FuzzevalError(f"{where}: the scheduler runs distributed {theirs}, this is "
                            f"{mine}; install the same version on both")
    python = str(_field(versions, "host", "python") or "")
    ours = f"{sys.version_info.major}.{sys.version_info.minor}"
    if python.split(".")[:2] != ours.split("."):
        raise FuzzevalError(f"{where}: the scheduler runs Python {python or '?'}, this is "
                            f"{ours}; games travel pickled and need the same Python")


def workers_max() -> int:
    """The most local worker processes a run starts: 4 a CPU, at least 8 (a pool of 100,000
    forked for 2 games hung, and its killed parent left a worker behind)."""
    return max(8, 4 * (os.cpu_count() or 1))


def check_workers(workers: int) -> None:
    """Refuse a number of local workers no run can use, before anything starts."""
    if workers < 1:
        raise FuzzevalError(f"--workers must be at least 1 (got {workers})")
    if workers > (most := workers_max()):
        raise UsageError(f"--workers {workers}: at most {most} on this machine (4 a CPU, "
                         f"{os.cpu_count() or 1} CPUs): more workers only wait for a CPU")


@contextmanager
def executor_for(workers: int = 1, dask: str | None = None) -> Iterator[Executor | None]:
    """None (play here) for one worker, a process pool for more, or a Dask executor."""
    if dask is not None:
        if not dask.strip():  # not a silent run here instead
            raise UsageError("--dask needs the scheduler's address, e.g. tcp://host:8786")
        DASK.require("--dask")
        from distributed import Client

        timeout = dask_timeout()
        check_scheduler(dask, timeout)
        try:
            client = Client(dask, timeout=timeout)  # type: ignore[no-untyped-call]
        except OSError as exc:
            raise FuzzevalError(f"cannot reach the Dask scheduler at {dask}: {exc}") from exc
        try:
            yield client.get_executor()  # type: ignore[no-untyped-call]
        finally:
            client.close()  # type: ignore[no-untyped-call]
        return
    check_workers(workers)
    if workers == 1:
        yield None
        return
    # The workers fork from here: objects frozen out of the collector's reach are not
    # written by the workers' collections, so their pages stay shared (a quarter of the
    # page faults of a backgammon match's workers and parent; Python's gc.freeze docs).
    # A caller's own freeze (a test runner that forks, say) is left as it was.
    ours = gc.get_freeze_count() == 0
    gc.freeze()
    pool = ProcessPoolExecutor(max_workers=workers, initializer=ignore_interrupts)
    widen_results(pool)
    try:
        yield pool
    except BaseException:
        # Stopped (a signal, a dead worker, an error): the games in flight are not kept,
        # so the workers end now. Waiting for them could hang: CPython 3.11's pool, its
        # workers killed by the same SIGTERM, can block its shutdown on a full queue.
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    else:
        pool.shutdown(wait=True, cancel_futures=True)
    finally:
        if ours:
            gc.unfreeze()


def widen_results(pool: ProcessPoolExecutor) -> bool:
    """Widen the pipe that all of a pool's workers send their results through, where the
    system allows it; whether it did. A worker holds the pipe's one write lock until its
    whole result is in the pipe: at the default 64 KiB, a larger result waits for the
    parent's reading thread, which waits for the interpreter lock, and every worker that
    finishes meanwhile waits for the first (16 workers on 16 cores: 74.6 % of the games a
    second of 16 independent processes with the default pipe, 82.2 % with 1 MiB)."""
    try:
        import fcntl
    except ImportError:  # not a POSIX system
        return False
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
    reader = getattr(getattr(pool, "_result_queue", None), "_reader", None)
    if setsize is None or reader is None:
        return False
    try:
        fcntl.fcntl(reader.fileno(), setsize, RESULT_PIPE_BYTES)
    except OSError:  # above the system's limit, or not a pipe: the default stays
        return False
    return True
