"""The rule-base files a studio was started on: folders (every ``.yaml`` file in them),
files, and shipped rule bases by name (read-only: a shipped base is saved under a new name,
in a folder the studio was given). A file is named to the page as ``ROOT/NAME``: the index
of its folder and its name inside it, confined there (``security.confine``)."""

from __future__ import annotations

import difflib
import hashlib
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fuzzeval.errors import NotFound, UsageError
from fuzzeval.formats.loading import read_rulebase_text
from fuzzeval.resources import find_rulebase, rulebase_dir
from fuzzeval.studio.security import Refused, confine

#: the most files a folder lists (a folder of thousands is not a workspace)
MAX_LISTED = 2000
SUFFIXES = (".yaml", ".yml")
#: how deep a folder is listed, and the folders never listed
MAX_DEPTH = 4
SKIPPED = frozenset({"node_modules", "__pycache__", "site-packages"})
#: calibration databases, which the history view reads
DATABASES = (".sqlite",)
#: the most lines of a conflict's diff shown (the rest counted)
MAX_DIFF = 60


class Conflict(UsageError):
    """A save that would overwrite what someone else wrote since the file was opened;
    ``diff``: what changed on disk, where the text as opened is known."""

    def __init__(self, message: str, diff: list[str] | None = None) -> None:
        super().__init__(message)
        self.diff = diff


@dataclass(frozen=True)
class Root:
    """A folder the studio may read; ``files`` None lists all its rule bases, else only
    those; ``writable`` False for the shipped rule bases."""

    folder: Path
    files: tuple[str, ...] | None
    writable: bool


@dataclass(frozen=True)
class Workspace:
    roots: tuple[Root, ...]

    def listing(self, suffixes: tuple[str, ...] = SUFFIXES) -> list[dict[str, object]]:
        """Every rule-base file (or database), as the page lists them."""
        out: list[dict[str, object]] = []
        for i, root in enumerate(self.roots):
            names = root.files if root.files is not None else _files(root.folder, suffixes)
            out += [{"id": f"{i}/{name}", "name": name, "folder": str(root.folder),
                     "writable": root.writable} for name in names if name.endswith(suffixes)]
        return out

    def database(self, file_id: str) -> Path:
        """The calibration database ``ROOT/NAME``, confined to its root's folder."""
        return self.locate(file_id, DATABASES)[1]

    def locate(self, file_id: str, suffixes: tuple[str, ...] = SUFFIXES) -> tuple[Root, Path]:
        """The root and path of ``ROOT/NAME``, confined to the root's folder."""
        index, _, name = file_id.partition("/")
        if not index.isdigit() or int(index) >= len(self.roots):
            raise Refused(f"{file_id!r}: no such folder in this studio")
        root = self.roots[int(index)]
        if root.files is not None and name not in root.files:
            raise Refused(f"{file_id!r}: not among the files this studio was started on")
        if not name.endswith(suffixes):
            raise Refused(f"{name!r}: not a file ending in {' or '.join(suffixes)}")
        return root, confine(root.folder, name)

    def open(self, file_id: str) -> dict[str, object]:
        """A file's text and its stamp (what ``save`` checks the disk against)."""
        root, path = self.locate(file_id)
        text = read_rulebase_text(path)
        return {"id": file_id, "path": str(path), "text": text, "stamp": stamp(path),
                "writable": root.writable}

    def save(self, file_id: str, text: str, opened: str | None,
             opened_text: str | None = None) -> dict[str, object]:
        """Write ``text`` over the file, atomically, unless it changed on disk since it was
        opened with stamp ``opened`` (None: a new file, which must not exist yet); the
        refusal carries the diff from ``opened_text`` (the text as opened) to the disk's."""
        root, path = self.locate(file_id)
        if not root.writable:
            raise Refused(f"{path.name}: a shipped rule base is read-only; save it as a new "
                          "file in a folder the studio was started on")
        now = stamp(path) if path.exists() else None
        if now != opened:
            changed = (None if opened is None or opened_text is None or now is None
                       else diff(opened_text, read_rulebase_text(path)))
            raise Conflict(f"{path}: " + ("changed on disk since it was opened; reopen it "
                                          "or save as a new file" if opened is not None
                                          else "exists already; choose another name"), changed)
        write_atomically(path, text)
        return {"id": file_id, "path": str(path), "stamp": stamp(path)}

    def save_as(self, root_index: int, name: str, text: str) -> dict[str, object]:
        """``save`` to a new file ``name`` in root ``root_index``, listed from then on."""
        if not 0 <= root_index < len(self.roots) or self.roots[root_index].files is not None:
            raise Refused(f"folder {root_index}: save as into a folder the studio was "
                          "started on")
        return self.save(f"{root_index}/{name}", text, None)

    def writable_folders(self) -> list[dict[str, object]]:
        """The folders a Save as may write to: the full path, and a short name to show
        (the last part; the root's path where it has none)."""
        return [{"index": i, "folder": str(r.folder), "name": r.folder.name or str(r.folder)}
                for i, r in enumerate(self.roots) if r.writable and r.files is None]


def diff(before: str, after: str) -> list[str]:
    """A unified diff (one line of context) from the text as opened to the disk's, at most
    MAX_DIFF lines: the rest counted in a last line."""
    lines = [line.rstrip("\n") for line in difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True),
        "as opened", "on disk", n=1)]
    if len(lines) > MAX_DIFF:
        lines = [*lines[:MAX_DIFF], f"... {len(lines) - MAX_DIFF} more line(s)"]
    return lines


def stamp(path: Path) -> str:
    """What a file held: the SHA-256 of its bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_atomically(path: Path, text: str) -> None:
    """Write a file whole or not at all: a temporary file in the same folder, flushed to
    disk, then renamed over it (a crash leaves the old file)."""
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _files(folder: Path, suffixes: tuple[str, ...]) -> tuple[str, ...]:
    """The files of ``folder`` ending in ``suffixes``, MAX_DEPTH folders down at most, hidden
    folders (.git, .venv) left out: started in a home folder, the studio lists quickly."""
    found: list[str] = []
    for here, folders, names in os.walk(folder):
        depth = len(Path(here).relative_to(folder).parts)
        folders[:] = [] if depth >= MAX_DEPTH else sorted(
            f for f in folders if not f.startswith(".") and f not in SKIPPED)
        found += [(Path(here) / n).relative_to(folder).as_posix() for n in names
                  if n.endswith(suffixes) and not n.startswith(".")]
        if len(found) >= MAX_LISTED:
            break
    return tuple(n for n in sorted(found) if _inside(folder, n))[:MAX_LISTED]


def _inside(folder: Path, name: str) -> bool:
    try:
        confine(folder, name)
    except Refused:
        return False
    return True


def workspace_of(specs: Sequence[str], here: Path) -> Workspace:
    """The workspace of the command's arguments: folders, files and shipped names (none:
    the shipped rule bases, read-only, and the current folder). NotFound for a name that
    is none of these."""
    if not specs:
        return Workspace((Root(rulebase_dir(), None, False), Root(here, None, True)))
    folders: list[Path] = []
    files: dict[Path, list[str]] = {}
    for spec in specs:
        if Path(spec).is_dir():
            folders.append(Path(spec).resolve())
            continue
        path = find_rulebase(spec) if not spec.endswith(DATABASES) else Path(spec)
        if not path.is_file() or path.suffix not in SUFFIXES + DATABASES:
            raise NotFound(f"{spec}: not a .yaml rule-base file, a calibration database "
                           "(.sqlite) or a folder")
        files.setdefault(path.resolve().parent, []).append(path.name)
    shipped = rulebase_dir().resolve()
    roots = [Root(f, None, True) for f in dict.fromkeys(folders)]
    roots += [Root(parent, tuple(dict.fromkeys(names)), parent != shipped)
              for parent, names in files.items()]
    return Workspace(tuple(roots))
