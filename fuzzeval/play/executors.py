"""Where games run: here, in local worker processes, or on a Dask cluster.

All three give the same results (game seeds do not depend on who plays them). Dask is an
optional extra (``fuzzeval[dask]``); its client offers a ``concurrent.futures`` executor.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager

from fuzzeval.errors import FuzzevalError
from fuzzeval.play.match import ignore_interrupts


@contextmanager
def executor_for(workers: int = 1, dask: str | None = None) -> Iterator[Executor | None]:
    """None (play here) for one worker, a process pool for more, or a Dask executor."""
    if dask:
        try:
            from distributed import Client
        except ImportError as exc:
            raise FuzzevalError(
                "--dask needs the optional extra: pip install 'fuzzeval[dask]'") from exc
        try:
            client = Client(dask, timeout=30)  # type: ignore[no-untyped-call]
        except OSError as exc:
            raise FuzzevalError(f"cannot reach the Dask scheduler at {dask}: {exc}") from exc
        try:
            yield client.get_executor()  # type: ignore[no-untyped-call]
        finally:
            client.close()  # type: ignore[no-untyped-call]
        return
    if workers < 1:
        raise FuzzevalError(f"--workers must be at least 1 (got {workers})")
    if workers == 1:
        yield None
        return
    pool = ProcessPoolExecutor(max_workers=workers, initializer=ignore_interrupts)
    try:
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
