"""Compiled kernels (numba): the small-batch paths where numpy's per-call overhead, not
arithmetic, is the cost (docs/libraries.md says why numba).

numba itself is imported, and a kernel compiled or loaded from the cache, on the kernel's
first call, not when the module defining it is imported: numba's import and its first
dispatch cost about a second of CPU (docs/benchmarks.md, start-up), which a command that
never calls a kernel, or grades one hand with the engine's numpy path, should not pay.

Compiled code is cached on disk: next to the source when it is writable, else in the user's
cache folder (numba's own fallback, or ``NUMBA_CACHE_DIR``), so an installed, read-only
wheel compiles once per user. Where no folder is writable at all the kernels still work,
compiled in each process.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

_loaded = False  # whether a kernel of this process has been compiled or loaded


class Kernel:
    """A plain function, compiled by numba on its first call.

    The compiled function sees the other kernels it calls as numba dispatchers: it is a
    copy of ``py_func`` whose globals have each ``Kernel`` replaced by its compiled form
    (the module's own globals are left alone). Other attributes (``stats``, ...) are the
    dispatcher's.
    """

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.py_func = fn
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__module__ = fn.__module__
        self.__doc__ = fn.__doc__
        self._dispatcher: Any = None

    def __call__(self, *args: Any) -> Any:
        dispatcher = self._dispatcher
        if dispatcher is None:
            dispatcher = self.dispatcher()
        return dispatcher(*args)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("py_func", "_dispatcher"):
            raise AttributeError(name)
        return getattr(self.dispatcher(), name)

    def __reduce__(self) -> tuple[type[Kernel], tuple[Callable[..., Any]]]:
        """Pickled as its plain function (an evaluator sent to a worker process): the
        worker compiles or loads its own."""
        return Kernel, (self.py_func,)

    def dispatcher(self) -> Any:
        """The numba dispatcher (made, not yet compiled, on first use)."""
        if self._dispatcher is None:
            self._dispatcher = _njit(self._with_compiled_globals())
        return self._dispatcher

    def _with_compiled_globals(self) -> Callable[..., Any]:
        fn = self.py_func
        used = fn.__code__.co_names
        calls = {k: v for k, v in fn.__globals__.items() if k in used and isinstance(v, Kernel)}
        if not calls:
            return fn
        scope = {**fn.__globals__, **{k: v.dispatcher() for k, v in calls.items()}}
        copy = types.FunctionType(fn.__code__, scope, fn.__name__, fn.__defaults__,
                                  fn.__closure__)
        copy.__qualname__, copy.__doc__ = fn.__qualname__, fn.__doc__
        return copy


def _njit(fn: Callable[..., Any]) -> Any:
    global _loaded
    import numba

    _loaded = True
    try:
        return numba.njit(fn, cache=True, nogil=True, error_model="numpy")
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(fn, cache=False, nogil=True, error_model="numpy")


def kernel(fn: F) -> F:
    """``fn`` compiled with numba on its first call (no Python objects inside), cached when
    it can be.

    Applied by a call (``f = kernel(_f)``), not as a decorator: mutation testing skips
    decorated functions, and runs the mutants of a kernel as its Python source, ``f.py_func``
    (tests/conftest.py, docs/checking.md). Floats divide as in numpy (x / 0 is inf or nan,
    never an exception).
    """
    return cast(F, Kernel(fn))


def loaded() -> bool:
    """Whether this process has paid numba's start-up already (a kernel was compiled or
    loaded): then a compiled path costs no more to start than a numpy one."""
    return _loaded
