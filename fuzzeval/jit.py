"""Compiled kernels (numba): the small-batch paths where numpy's per-call overhead, not
arithmetic, is the cost (docs/libraries.md says why numba).

Compiled code is cached on disk: next to the source when it is writable, else in the user's
cache folder (numba's own fallback, or ``NUMBA_CACHE_DIR``), so an installed, read-only
wheel compiles once per user. Where no folder is writable at all the kernels still work,
compiled in each process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def kernel(fn: F) -> F:
    """``fn`` compiled with numba (no Python objects inside), cached when it can be.

    Applied by a call (``f = kernel(_f)``), not as a decorator: mutation testing skips
    decorated functions, and runs the mutants of a kernel as its Python source, ``f.py_func``
    (tests/conftest.py, docs/checking.md). Floats divide as in numpy (x / 0 is inf or nan,
    never an exception).
    """
    try:
        return cast(F, numba.njit(fn, cache=True, nogil=True, error_model="numpy"))
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return cast(F, numba.njit(fn, cache=False, nogil=True, error_model="numpy"))
