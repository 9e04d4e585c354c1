"""Where a command writes, checked before any work: never over what it reads (its rule
base, its database, another output of its own), never over a file of another kind or a
database's journal, and never somewhere it will find out only at the end that it cannot
write."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from fuzzeval.errors import FuzzevalError, UsageError

#: what a command writes at a path: a history database, a picture, a rule base (YAML), a
#: table (CSV) or a numpy archive (.npz)
Kind = Literal["database", "picture", "rulebase", "table", "npz"]
_NAMES = {"database": "an SQLite database", "picture": "a picture", "rulebase": "a text file",
          "table": "a text file", "npz": "a numpy archive (.npz)"}


@dataclass(frozen=True)
class Output:
    """A file a command writes; ``option`` names it as the user gave it (``--plot``), or
    says what it is when no option names it (``the calibrated rule base``)."""

    option: str
    path: Path
    kind: Kind
    #: for an output no option names: the option that moves it (``--db`` for the
    #: calibrated rule base written next to the database)
    moved_by: str = ""

    def another(self) -> str:
        return f"change {self.moved_by}" if self.moved_by else "give another name"


@dataclass(frozen=True)
class Input:
    """A file a command reads (a rule base, a table, a database it only reads)."""

    option: str
    path: Path


class CannotWrite(FuzzevalError):
    """An output in a place that cannot be written (exit 1, as any file that will not do)."""


def same_file(a: Path, b: Path) -> bool:
    """Whether two names are one file: relative or absolute, through symbolic links, or
    (both existing) hard links."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


#: the files SQLite keeps beside a database while it writes: writing one corrupts it
COMPANIONS = ("-wal", "-shm", "-journal")


def companions(path: Path) -> tuple[Path, ...]:
    """A database's journal files (``runs/x.sqlite-wal`` ...), whether or not they exist."""
    return tuple(path.with_name(path.name + end) for end in COMPANIONS)


def companion_of(path: Path) -> Path | None:
    """The existing SQLite database whose journal file ``path`` names, or None."""
    for end in COMPANIONS:
        if path.name.endswith(end) and len(path.name) > len(end):
            base = path.with_name(path.name[:-len(end)])
            if base.is_file() and file_kind(base) == "database":
                return base
    return None


def file_kind(path: Path) -> Kind | None:
    """What an existing file holds, from its first bytes: a database, a picture (PNG, PDF,
    SVG), a numpy archive, or text (a rule base or a table); None for a missing or empty
    file, which any output may replace."""
    try:
        with path.open("rb") as f:
            head = f.read(512)
    except OSError:
        return None
    if not head:
        return None
    if head.startswith(b"SQLite format 3\x00"):
        return "database"
    if head.startswith((b"\x89PNG\r\n\x1a\n", b"%PDF")) or b"<svg" in head:
        return "picture"
    if head.startswith(b"PK\x03\x04"):
        return "npz"
    return "rulebase"  # text: a rule base or a table, as the output expects


def _fits(found: Kind | None, wanted: Kind) -> bool:
    if found is None:
        return True
    text: tuple[Kind, ...] = ("rulebase", "table")
    return found in text if wanted in text else found == wanted


def _describe(found: Kind) -> str:
    return "text" if found in ("rulebase", "table") else _NAMES[found]


def check_outputs(outputs: Sequence[Output], inputs: Sequence[Input] = ()) -> None:
    """Refuse, as a usage error naming the option and the path, an output that is a folder,
    one of the inputs or a journal file of one, another output, a journal file of any
    existing database, or an existing file of another kind (a database where a picture or
    a rule base would go); then, as a failure, one in a place that cannot be written.
    Nothing is made or changed."""
    for k, out in enumerate(outputs):
        named = f"{out.option} {out.path}"
        if out.path.is_dir():
            raise UsageError(f"{named}: a folder, not a file name; give a file in it")
        for given in inputs:
            if same_file(out.path, given.path):
                raise UsageError(f"{named}: the same file as {given.option} {given.path}, "
                                 f"which this command reads; {out.another()}")
        others = [(i.option, i.path) for i in inputs] + [
            (o.option, o.path) for o in outputs if o is not out]
        for option, path in others:
            if any(same_file(out.path, c) for c in companions(path)):
                raise UsageError(f"{named}: a journal file of {option} {path}; "
                                 f"writing it would corrupt that database: "
                                 f"{out.another()}")
        if (base := companion_of(out.path)) is not None:
            raise UsageError(f"{named}: the journal file of the SQLite database {base}; "
                             f"writing it would corrupt that database: {out.another()}")
        for other in outputs[:k]:
            if same_file(out.path, other.path):
                raise UsageError(f"{named}: the same file as {other.option} {other.path}; "
                                 f"give each output its own file ({out.another()})")
        found = file_kind(out.path) if out.path.is_file() else None
        if not _fits(found, out.kind):
            assert found is not None
            raise UsageError(f"{named}: an existing file that is {_describe(found)}, not "
                             f"{_NAMES[out.kind]}; it is not replaced: {out.another()} or "
                             "remove it")
    for out in outputs:
        writable(out.option, out.path)


def writable(option: str, path: Path) -> None:
    """Raise CannotWrite unless ``path`` can be written: an existing file opened for
    appending (nothing changes), else a probe file made and removed in its nearest existing
    folder (the missing ones are made when the command writes)."""
    named = f"{option} {path}"
    if path.exists():
        try:
            with path.open("ab"):
                pass
        except OSError as exc:
            raise CannotWrite(f"{named}: cannot be written ({exc.strerror})") from None
        return
    folder = path.parent  # as the user wrote it: "." at the top of a relative path
    while not folder.exists():
        folder = folder.parent
    if not folder.is_dir():
        raise CannotWrite(f"{named}: {folder} is a file, not a folder")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".fuzzeval-probe-"):
            pass
    except OSError as exc:
        raise CannotWrite(f"{named}: cannot write in {folder} ({exc.strerror})") from None
