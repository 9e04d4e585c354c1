"""Package exports imported on first use, so ``import fuzzeval.games.cribbage`` (and the
CLI's start-up, which imports every game's command group) does not pay for numpy tables
the caller never touches."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, where: Mapping[str, str]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module ``__getattr__`` and ``__dir__`` for ``package``: name -> submodule. The
    ``__dir__`` lists the lazy names with what the module already holds."""

    def get(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{where[name]}"), name)

    def names() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return get, names
