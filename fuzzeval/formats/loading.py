"""Rule bases from files and text: read once, checked, cached.

A file is read only if it is a regular file of at most MAX_RULEBASE_BYTES
(``read_rulebase_text``); its YAML is read by ``fuzzeval.formats.yaml_read``, which answers with a
RuleBase or with every problem, each with its line. A text is parsed once per process, and
a file's parse is kept in the user's cache folder (``FUZZEVAL_CACHE_DIR``, docs/rulebase-format.md),
so that the next process loads it without importing YAML at all.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import stat
import sys
import threading
import warnings
import zlib
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING

from fuzzeval.errors import Problem, RuleBaseError, RuleBaseWarning, expect, one_line
from fuzzeval.resources import rulebase_path

if TYPE_CHECKING:
    from fuzzeval.engine.rulebase import RuleBase

#: the most a rule-base file may hold: far above any real rule base (the largest shipped one
#: is ~10 kB), far below what would exhaust memory or take minutes to parse
MAX_RULEBASE_BYTES = 10_000_000


def parse_rulebase(text: str, path: str = "<string>") -> tuple[RuleBase | None, list[Problem]]:
    """Read a rule base from YAML text; returns it (None if any error) and every problem found."""
    expect(text, str, "parse_rulebase(text)", "give the YAML text; load_rulebase reads a file")
    expect(path, str, "parse_rulebase(path)")
    return _parsed(text, path, keep=False)


_PARSED: dict[tuple[str, str], tuple[RuleBase | None, tuple[Problem, ...]]] = {}
_PARSED_LOCK = threading.Lock()

#: the most parsed files kept in the cache folder (the oldest go first), and the largest file
#: kept: a shipped base is ~10 kB, and a base of megabytes takes seconds to read anyway
CACHE_ENTRIES = 256
CACHE_MAX_BYTES = 1_000_000


def _parsed(text: str, path: str, keep: bool) -> tuple[RuleBase | None, list[Problem]]:
    """``parse_rulebase``, once for each text in a process (a rule base and its problems are
    frozen: a command reads the same base several times, its players' and its fingerprint's)
    and, where ``keep``, once for each file's text across processes (the cache folder)."""
    found = _PARSED.get((text, path))
    if found is None:
        entry = _cache_entry(text, path) if keep and len(text) <= CACHE_MAX_BYTES else None
        found = _from_cache(entry, text, path) if entry is not None else None
        if found is None:
            from fuzzeval.formats.yaml_read import read_yaml

            rb, problems = read_yaml(text, path)
            found = (rb, tuple(problems))
            if entry is not None and rb is not None:  # a refusal is not kept: it can
                _to_cache(entry, text, path, found)  # depend on more than the text (the stack)
        with _PARSED_LOCK:  # a Dask worker's threads may read bases at once
            _PARSED[(text, path)] = found
            while len(_PARSED) > 4:  # the oldest go
                del _PARSED[next(iter(_PARSED))]
    return found[0], list(found[1])


def cache_folder() -> Path | None:
    """Where parsed rule-base files are kept: ``$FUZZEVAL_CACHE_DIR/rulebases``, else
    ``fuzzeval/rulebases`` in the user's cache folder (``$XDG_CACHE_HOME``, else
    ``~/.cache``); None, no cache, when FUZZEVAL_CACHE_DIR is set empty."""
    given = os.environ.get("FUZZEVAL_CACHE_DIR")
    if given is not None:
        return Path(given) / "rulebases" if given else None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    home = xdg if os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".cache")
    # no home folder at all (expanduser gives "~" back): no cache, not one in the cwd
    return Path(home) / "fuzzeval" / "rulebases" if os.path.isabs(home) else None


def _reader_stamp() -> tuple[object, ...]:
    """What a parse depends on besides its text, as Python's bytecode cache tells a changed
    source (size and modification time, no reading): the reader's own modules, PyYAML's
    (found, not imported) and Python's version. A change to any of them misses the cache."""
    here = Path(__file__).parent.parent
    files = [here / name for name in _READER_MODULES]
    spec = find_spec("yaml")
    if spec is not None and spec.origin is not None:
        files.append(Path(spec.origin))
    stamp: list[object] = [sys.version]
    for file in files:
        info = file.stat()
        stamp.append((str(file), info.st_size, info.st_mtime_ns))
    return tuple(stamp)


#: the modules whose code makes a parse: the reader's and those of the objects it makes
_READER_MODULES = ("formats/loading.py", "formats/yaml_read.py", "formats/grammar.py",
                   "engine/rulebase.py", "engine/membership.py", "errors.py")


def _cache_entry(text: str, path: str) -> Path | None:
    """The file that keeps the parse of ``text`` read from ``path``. Its name is a checksum
    (hashlib's import would cost a third of what the cache saves); the entry holds the
    whole key, compared when it is read."""
    folder = cache_folder()
    if folder is None:
        return None
    name = zlib.crc32(text.encode("utf-8", "surrogatepass"),
                      zlib.crc32(path.encode("utf-8", "surrogatepass")))
    return folder / f"{name:08x}-{len(text):x}.pickle"


def _from_cache(entry: Path, text: str, path: str
                ) -> tuple[RuleBase | None, tuple[Problem, ...]] | None:
    """The parse of ``text`` from ``path`` kept in ``entry``; None when there is none, it is
    another's (another text, path or reader) or it cannot be read: a cache is never a
    reason to fail, the text is read again."""
    try:
        key, found = pickle.loads(entry.read_bytes())
        # the whole key: what this reader wrote for this text and path, nothing else
        return found if key == (_reader_stamp(), path, text) else None
    except Exception:  # missing, cut short, another version's, a reader not on disk
        return None


def _to_cache(entry: Path, text: str, path: str,
              found: tuple[RuleBase | None, tuple[Problem, ...]]) -> None:
    """Keep ``found`` in ``entry`` (written whole, then renamed: a reader never sees half of
    it), and the cache folder at CACHE_ENTRIES at most. A folder that cannot be written is
    no cache."""
    # a name of this thread's own: a Dask worker's threads may write one entry at once
    part = entry.with_name(f"{entry.stem}.{os.getpid()}-{threading.get_ident()}.part")
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        key = (_reader_stamp(), path, text)
        part.write_bytes(pickle.dumps((key, found), protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(part, entry)
        kept = list(entry.parent.glob("*.pickle"))
        if len(kept) > CACHE_ENTRIES:
            kept.sort(key=lambda p: p.stat().st_mtime_ns)
            for old in kept[: len(kept) - CACHE_ENTRIES * 3 // 4]:
                old.unlink(missing_ok=True)
    except Exception:  # unwritable, full, a reader not on disk, too deep to pickle: no cache
        with contextlib.suppress(OSError):
            part.unlink(missing_ok=True)


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _read_text(path: Path) -> tuple[str | None, Problem | None]:
    """The text of a rule-base file, or the one problem that keeps it from being read."""

    def problem(message: str) -> tuple[None, Problem]:
        return None, Problem(str(path), None, "(file)", one_line(message))

    def cannot(exc: OSError) -> tuple[None, Problem]:
        return problem(f"cannot be read: {exc.strerror or exc}")

    cap = MAX_RULEBASE_BYTES
    try:
        info = os.stat(path)  # before opening: opening a FIFO waits for a writer
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        return cannot(exc) if isinstance(exc, OSError) else problem(f"cannot be read: {exc}")
    if not stat.S_ISREG(info.st_mode):
        return problem(f"must be a regular file (got {_kind(info.st_mode)})")
    if info.st_size > cap:
        return problem(f"must be at most {cap:,} bytes (got {info.st_size:,})")
    try:
        # O_NONBLOCK: should the path have become a FIFO since, opening it does not wait
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as f:
            mode = os.fstat(f.fileno()).st_mode
            if not stat.S_ISREG(mode):
                return problem(f"must be a regular file (got {_kind(mode)})")
            data = f.read(cap + 1)  # a file still growing is cut here
    except OSError as exc:
        return cannot(exc)
    if len(data) > cap:
        return problem(f"must be at most {cap:,} bytes (got more)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return problem(f"must be UTF-8 text (got {exc.reason} at byte {exc.start})")
    # as Path.read_text: universal newlines
    return text.replace("\r\n", "\n").replace("\r", "\n"), None


def read_rulebase_text(path: str | os.PathLike[str]) -> str:
    """The text of a rule-base file, read the way the loader reads it.

    Only a regular file of at most MAX_RULEBASE_BYTES (10 MB), in UTF-8, is read: a device
    (``/dev/zero``), a FIFO, a directory or a larger file raises RuleBaseError at once, with
    one problem ``path: (file): what must hold (got what it is)``. Read a rule base's text
    with this, not ``Path.read_text``, wherever a user names the file.
    """
    text, problem = _read_text(Path(path))
    if text is None:
        assert problem is not None
        raise RuleBaseError([problem])
    return text


def check_rulebase(path: str | os.PathLike[str]) -> tuple[RuleBase | None, list[Problem]]:
    """Read a rule-base file; every problem (errors and warnings), never an exception."""
    expect(path, (str, os.PathLike), "check_rulebase(path)")
    p = Path(path)
    text, problem = _read_text(p)
    if text is None:
        return None, [problem] if problem is not None else []
    return _parsed(text, str(p), keep=True)


def load_rulebase(source: str | os.PathLike[str]) -> RuleBase:
    """Read a rule base, by path or by the name of a shipped one (``"tipping"``, from any
    directory; a path always wins, as on the command line: ``rulebase_path``).
    RuleBaseError lists every error, warnings go to ``warnings``; an unknown name raises
    NotFound listing the shipped ones."""
    expect(source, (str, os.PathLike), "load_rulebase(source)",
           "give a path or a shipped rule base's name")
    return _loaded(*check_rulebase(rulebase_path(source)))


def load_rulebase_text(text: str, path: str = "<string>") -> RuleBase:
    """``load_rulebase`` for text already read (``read_rulebase_text``): read once, parse
    once, when the caller also needs the text (to rewrite its points in place)."""
    return _loaded(*parse_rulebase(text, path))


def _loaded(rb: RuleBase | None, problems: list[Problem]) -> RuleBase:
    if rb is None:
        raise RuleBaseError(problems)
    for p in problems:
        warnings.warn(str(p), RuleBaseWarning, stacklevel=3)
    return rb

