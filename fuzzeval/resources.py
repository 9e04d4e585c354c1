"""Where the default rule bases live: inside the installed wheel (fuzzeval/rulebases),
or, when running from a source checkout or an editable install, in ./rulebases."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

from fuzzeval.errors import NotFound

_PACKAGED = Path(__file__).resolve().parent / "rulebases"
_SOURCE = Path(__file__).resolve().parent.parent / "rulebases"


def rulebase_dir() -> Path:
    """The folder of the rule bases shipped with fuzzeval."""
    return _PACKAGED if _PACKAGED.is_dir() else _SOURCE


def shipped_rulebases() -> list[Path]:
    """The shipped rule-base files, by name."""
    return sorted(rulebase_dir().glob("*.yaml"))


#: shipped rule bases that were renamed: old name -> new name (the old one still works)
RENAMED = {"cribbage_discard": "cribbage_expected_points",
           "cribbage_discard_beginner": "cribbage_expected_points_beginner"}


def default_rulebase(name: str) -> Path:
    """Path of a shipped rule base by file stem (``tipping``) or file name."""
    stem = name.removesuffix(".yaml")
    if stem in RENAMED:
        warnings.warn(f"the shipped rule base {stem!r} is now called {RENAMED[stem]!r}; "
                      "the old name will go", FutureWarning, stacklevel=2)
        stem = RENAMED[stem]
    path = rulebase_dir() / f"{stem}.yaml"
    if not path.is_file():
        known = ", ".join(p.stem for p in shipped_rulebases()) or "none"
        raise NotFound(f"no shipped rule base {name!r} (shipped: {known})")
    return path


def rulebase_path(spec: str | os.PathLike[str]) -> Path:
    """The one rule, for the command line and ``load_rulebase`` alike, that turns what names
    a rule base into its file: a path always wins (a ``Path``, an existing file, anything
    with a folder or a .yaml/.yml suffix), and only a bare word that is none of these is the
    name of a shipped rule base (``tipping``), found from any directory."""
    path = Path(spec)
    if (not isinstance(spec, str) or path.exists() or path.suffix in (".yaml", ".yml")
            or len(path.parts) > 1):
        return path
    return default_rulebase(spec)


def find_rulebase(spec: str) -> Path:
    """``rulebase_path``, refusing a path that names no file (the command line's check)."""
    path = rulebase_path(spec)
    if not path.exists():
        raise NotFound(f"{spec}: no such rule-base file")
    return path
