"""The installed distribution's version (``fuzzeval.__version__``), read on first use: the
package metadata costs a noticeable share of a command's start-up."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:  # one source of truth, pyproject.toml
    __version__: str = version("fuzzeval")
except PackageNotFoundError:  # a source tree on sys.path without an install
    __version__ = "0+unknown"
