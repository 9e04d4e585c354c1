"""The optional extras (pyproject's ``[project.optional-dependencies]``) that players and
options need, each declared once. A player or option that needs one says so where it is
built (``OPENSPIEL.require("hearts player 'ismcts'")``): a command refuses it in one line
naming the extra, before any file is made, not with a traceback from a worker's game."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from fuzzeval.errors import MissingExtra


@dataclass(frozen=True)
class Extra:
    """An optional extra: its name in ``pip install 'fuzzeval[NAME]'``, the module it
    installs and what that is, in words."""

    name: str
    module: str
    what: str

    def require(self, who: str) -> None:
        """Import the extra's module, or raise MissingExtra saying that ``who`` (a player,
        an option) needs it and how to install it. Importing, not only finding, the
        module: a broken installation is refused here too, not in the first game."""
        try:
            importlib.import_module(self.module)
        except ImportError:
            raise MissingExtra(f"{who} needs {self.what}, an optional extra: pip install "
                               f"'fuzzeval[{self.name}]'") from None


OPENSPIEL = Extra("openspiel", "pyspiel", "OpenSpiel")
GNUBG = Extra("gnubg", "gnubg", "GNU Backgammon's bindings")
DASK = Extra("dask", "distributed", "Dask's distributed")
# fuzzeval studio: the web application and its server
STUDIO = Extra("studio", "starlette", "Starlette and uvicorn")
STUDIO_SERVER = Extra("studio", "uvicorn", "Starlette and uvicorn")
