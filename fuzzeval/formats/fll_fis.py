"""Rule bases in and out of fuzzylite's FLL and MATLAB/Octave's FIS files, for the subset
that maps exactly (docs/fuzzylite.md): a file outside it is refused with the construct
named at its line, never approximated.

>>> from fuzzeval.formats.fll_fis import export_rulebase
>>> from fuzzeval import load_rulebase
>>> text, warnings = export_rulebase(load_rulebase("tipping"), ".fll")
"""

from __future__ import annotations

import os
from pathlib import Path

from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.formats.conversion import ConversionError
from fuzzeval.formats.fis import read_fis, write_fis
from fuzzeval.formats.fll import read_fll, write_fll

#: the suffixes read and written, and what each is
FORMATS = {".fll": "fuzzylite FLL", ".fis": "MATLAB/Octave FIS"}


def file_format(path: str | os.PathLike[str]) -> str | None:
    """``.fll`` or ``.fis`` (any case) from a file name, or None."""
    suffix = Path(path).suffix.lower()
    return suffix if suffix in FORMATS else None


def import_text(text: str, suffix: str, path: str = "<text>",
                default: float | None = None) -> tuple[RuleBase, list[str]]:
    """The rule base of an FLL or FIS text and warnings (one line each); ConversionError
    with every located problem. ``default``: the grade where no rule fires, replacing the
    file's (FLL) or MATLAB's middle of the output range (FIS)."""
    read = read_fll if suffix == ".fll" else read_fis
    return read(text.removeprefix("\ufeff"), path, default)  # a byte-order mark: no text


def import_rulebase(path: str | os.PathLike[str], default: float | None = None
                    ) -> tuple[RuleBase, list[str]]:
    """``import_text`` of a file, read as rule-base files are (a regular file of at most
    10 MB, UTF-8); the format comes from the suffix."""
    from fuzzeval.formats.loading import read_rulebase_text

    suffix = file_format(path)
    if suffix is None:
        raise ValueError(f"{path}: an FLL or FIS file must end in .fll or .fis")
    return import_text(read_rulebase_text(path), suffix, str(path), default)


def export_rulebase(rb: RuleBase, suffix: str, source: str | None = None
                    ) -> tuple[str, list[str]]:
    """The text of ``rb`` as FLL or FIS, and warnings; ConversionError if the format cannot
    hold it exactly, its problems named by ``source`` (the YAML file; default the name)."""
    if suffix == ".fll":
        return write_fll(rb, source), []
    return write_fis(rb, source)


__all__ = ["FORMATS", "ConversionError", "export_rulebase", "file_format", "import_rulebase",
           "import_text"]
