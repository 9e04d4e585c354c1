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
    """``fn`` compiled with numba (no Python objects inside), cached when it can be."""
    try:
        return cast(F, numba.njit(cache=True, nogil=True)(fn))
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return cast(F, numba.njit(cache=False, nogil=True)(fn))
