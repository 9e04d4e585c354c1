"""A stored run: a match, a calibration, a tuning or a learn kept in a history database.

Each kind of run is stored once per settings and start: the same command run again finds
it (``RunKind.find``) and goes on with it, or shows it when it is complete; a running mark
(``HistoryFile.running``) keeps a second process from running it at the same time. Each
kind owns its tables (their DDL beside its queries, in its module): a history holds them
from its first run of that kind on, checked as the history's own tables are. ``open_kind``
is what every command does before its costly work: refuse a resume of nothing, refuse a
run another process holds, and find what is stored.

A calibration, a tuning and a learn are found by their settings' JSON and marked by it
(so that two processes cannot both start one); a match (``play/match_runs.py``) is found
by its spec's columns and the files its players read, and marked by its id, once it is
found or started under a write lock: it supplies its own ``find`` and ``marks_run``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shlex
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

from fuzzeval.play.history import HistoryError, HistoryFile, NoSuchRun, require_for_resume
from fuzzeval.play.history_schema import columns, damage
from fuzzeval.play.store import History

T = TypeVar("T")
S = TypeVar("S")


def digest(text: str) -> str:
    """What a stored run keeps of a long text (its start rule base; its running mark's
    settings and start): the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def settings_json(settings: Any, later: Mapping[str, Any] | None = None) -> str:
    """A settings dataclass as the JSON a stored run is found by (sorted keys; tuples as
    lists). ``later``: settings added after runs were stored, left out at their default,
    so that a stored run keeps its identity."""
    later = later or {}
    fields = (f.name for f in dataclasses.fields(settings))
    return json.dumps({k: getattr(settings, k) for k in fields
                       if not (k in later and getattr(settings, k) == later[k])},
                      sort_keys=True)


def settings_from_json(cls: type[S], text: str) -> S:
    """``settings_json``'s twin: the settings a stored run was found by (JSON lists back
    to the tuples a frozen dataclass holds; a setting added later takes its default)."""
    def tupled(value: Any) -> Any:
        return tuple(tupled(v) for v in value) if isinstance(value, list) else value
    return cls(**{k: tupled(v) for k, v in json.loads(text).items()})


def made_by_line(made: str, words: Sequence[str], how: str = "") -> str:
    """A stored run's result's ``made_by:`` line: what made it ("calibrated"), the command
    that makes it again (each word quoted for a shell where it must be) and how."""
    return f"{made} by `{' '.join(shlex.quote(w) for w in words)}`" + (f" {how}" if how else "")


class Settings(Protocol):
    """What decides a run's result (a match's spec, a calibration's settings)."""

    @property
    def game(self) -> str: ...


@runtime_checkable
class JsonSettings(Settings, Protocol):
    """Settings stored as JSON, which finds the run again (a calibration's, a tuning's, a
    learn's)."""

    def to_json(self) -> str: ...


def _json(settings: Settings) -> str:
    if not isinstance(settings, JsonSettings):
        raise TypeError(f"{type(settings).__name__} is not found by its JSON: its kind of "
                        "run supplies its own find")
    return settings.to_json()


@dataclass(frozen=True)
class RunKind:
    """One kind of stored run: its head table (one row a run, with the settings as JSON
    and the start's digest in ``source``), its running mark and its words. A kind found
    otherwise (a match) overrides ``find`` and ``nothing_to_resume``."""

    name: str  # "calibration": the running mark's key starts with it; refusals say it
    table: str  # the head table, e.g. "calibrations"
    source: str  # the head table's column of the start rule base's digest
    running: str  # what a second process is told, e.g. "this calibration is being run"
    ddl: str = ""  # its tables, made with the first run of its kind a history stores
    resume_detail: str = " with these settings and this rule base"
    one_a_database: bool = False  # a learn: a second one (other settings) is refused
    file: str = ""  # its default database: runs/GAME_<file>.sqlite (none: runs/GAME.sqlite)
    unit: str = "game"  # what its progress counts, as "12 of 20 games" says
    doing: str = "playing"  # what it does, as "shown without playing again" says
    # what a stopped run has stored, in words ("2 finished rounds and 6 games")
    saved: Callable[[History, int], str] | None = None
    # a match: marked by its id (``mark``), taken once it is found or started under a write
    # lock, not by its settings before
    marks_run: bool = False

    def default_path(self, game: str) -> Path:
        """Where a run of this kind is stored when no --db is given."""
        return Path("runs") / f"{game}{f'_{self.file}' if self.file else ''}.sqlite"

    def saved_in(self, path: Path, settings: Settings | None, source: str | None) -> str | None:
        """What a stopped run has stored (read-only, read as it stops), in its kind's
        words; None when nothing is. No ``settings``: the latest run (a learn's: one a
        database)."""
        if not path.is_file() or self.saved is None:
            return None
        with History(path, readonly=True) as history:
            ids = self.ids(history)
            found = (self.find(history, settings, source) if settings is not None
                     else ids[-1] if ids else None)
            return None if found is None else self.saved(history, found)

    def ready(self, history: HistoryFile) -> bool:
        """Whether this kind's tables are in the history: checked where they are (a table
        or a column lost is refused, as the history's own are), made in a writable history
        that has none yet, absent from a read-only one. Made by ``executescript``, which
        commits: called before a transaction, never inside one. Looked up once a
        connection (``HistoryFile.ready_kinds``)."""
        known = history.ready_kinds.get(self.table)
        if known is None:
            known = history.ready_kinds[self.table] = self._make_ready(history)
        return known

    def _make_ready(self, history: HistoryFile) -> bool:
        have = {r[0] for r in history.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if self.table in have:
            lost = damage(history.conn, have, self.ddl,
                          {t: self.table for t in columns(self.ddl) if t != self.table})
            if lost is not None:
                done = "nothing was read" if history.readonly else "nothing was written"
                raise HistoryError(f"{history.path}: damaged history: {lost}; {done}")
            return True
        if history.readonly:
            return False
        history.conn.executescript(self.ddl)
        return True

    def key(self, settings: Settings, source: str) -> str:
        """The running mark: the settings and the start, so that a second process is
        refused even before the first has stored its run. A learn's (one a database) is
        its settings alone: they name a given start, and a generated one is made under
        the mark, so a second process is refused before it samples its own."""
        return f"{self.name} {digest(_json(settings) + ('' if self.one_a_database else source))}"

    def run_key(self, run_id: int) -> str:
        """The running mark of a kind marked by its run (``marks_run``): its id ("match
        12"; a history's migration to version 5 made older marks so)."""
        return f"{self.name} {run_id}"

    def mark(self, history: HistoryFile, run_id: int) -> AbstractContextManager[None]:
        """A run marked by its id (``marks_run``) as this process's while it runs."""
        return history.running(self.run_key(run_id), self.running)

    def find(self, history: History, settings: Settings, source: str | None) -> int | None:
        """The latest stored run of these settings and this start (None: any start)."""
        if not self.ready(history):
            return None
        where, args = ((f" AND {self.source} = ?", (digest(source),)) if source is not None
                       else ("", ()))
        row = history.conn.execute(
            f"SELECT id FROM {self.table} WHERE settings = ?{where} ORDER BY id DESC LIMIT 1",
            (_json(settings), *args)).fetchone()
        return None if row is None else int(row[0])

    def latest(self, history: HistoryFile) -> int:
        """The latest stored run's id; a HistoryError when there is none."""
        row = history.conn.execute(f"SELECT MAX(id) FROM {self.table}").fetchone() \
            if self.ready(history) else None
        if row is None or row[0] is None:
            raise HistoryError(f"{history.path}: no {self.name} stored here")
        return int(row[0])

    def ids(self, history: HistoryFile) -> list[int]:
        """Every stored run's id, in order."""
        return [int(r[0]) for r in history.conn.execute(
            f"SELECT id FROM {self.table} ORDER BY id")] if self.ready(history) else []

    def head(self, history: HistoryFile, run_id: int | None,
             columns: str) -> tuple[int, tuple[Any, ...]]:
        """A stored run's id and its head row's ``columns`` (the latest run when no id is
        given); an id the history does not hold is refused (``NoSuchRun``)."""
        if run_id is None:
            run_id = self.latest(history)
        row = history.conn.execute(f"SELECT {columns} FROM {self.table} WHERE id = ?",
                                   (run_id,)).fetchone() if self.ready(history) else None
        if row is None:
            raise NoSuchRun.listing(history.path, self.name, run_id, self.ids(history))
        return run_id, tuple(row)

    @contextmanager
    def hold(self, history: History, settings: Settings, source: str, resume: bool,
             start: Callable[[], int]) -> Iterator[int]:
        """Run it: take the running mark (a second process is refused with the first's
        pid), then the stored run to go on with or a new one (``claim``); a kind marked by
        its run claims first, under a write lock (two processes never both start one),
        then takes the mark of the run claimed."""
        if not self.marks_run:
            with history.running(self.key(settings, source), self.running):
                yield self.claim(history, settings, source, resume, start)
            return
        self.ready(history)  # before the transaction: a kind's tables commit as made
        with history.conn:
            history.conn.execute("BEGIN IMMEDIATE")
            run = self.claim(history, settings, source, resume, start)
        with self.mark(history, run):
            yield run

    def start(self, history: HistoryFile, settings: Settings, source: str,
              **columns: str | int) -> int:
        """Store a new run (its head row) in the open transaction; its id."""
        self.ready(history)
        values = {"game": settings.game, "settings": _json(settings),
                  self.source: digest(source), **columns}
        cur = history.conn.execute(
            f"INSERT INTO {self.table} ({', '.join(values)}) VALUES "
            f"({', '.join('?' * len(values))})", tuple(values.values()))
        return int(cur.lastrowid or 0)

    def claim(self, history: History, settings: Settings, source: str, resume: bool,
              start: Callable[[], int]) -> int:
        """The stored run to go on with, or a new one (``start``, in one transaction);
        with ``resume``, finding none is an error."""
        found = self.find(history, settings, source)
        if found is not None:
            return found
        self.refuse_another(history)
        if resume:
            raise self.nothing_to_resume(history, settings, source)
        with history.conn:
            return start()

    def refuse_another(self, history: HistoryFile) -> None:
        """One learn to a database: a new one where another is stored is refused."""
        if not self.one_a_database:
            return
        other = history.conn.execute(f"SELECT id FROM {self.table} LIMIT 1").fetchone()
        if other is not None:
            raise HistoryError(f"{history.path} holds {self.name} {other[0]}, with other "
                               f"settings or another start: one {self.name} to a database; "
                               "give another --db")

    def nothing_to_resume(self, history: History, settings: Settings,
                          source: str | None) -> HistoryError:
        """The refusal of a resume that finds no run of these settings and start."""
        return HistoryError(f"{history.path}: no {self.name} to resume{self.resume_detail}; "
                            "run without --resume to start one")


def open_run(path: Path, resume: bool, find: Callable[[History], T | None],
             held: tuple[str, str] | None = None,
             nothing: Callable[[History], None] | None = None) -> T | None:
    """What a run does before its costly work, in order: refuse a resume of nothing (no
    database), refuse a run another live process holds (``held``: its running mark's key
    and words), then find the stored run (``find``: None when there is none; then
    ``nothing`` may refuse). No database yet: None, and no file is made."""
    if resume:
        require_for_resume(path)
    if not path.is_file():
        return None
    with History(path) as history:
        if held is not None:
            history.check_free(*held)
        found = find(history)
        if found is None and nothing is not None:
            nothing(history)
        return found


def open_kind(path: Path, kind: RunKind, settings: Settings, source: str | None,
              resume: bool, look: Callable[[History, int], T]) -> T | None:
    """``open_run`` for a kind of run: the stored run of these settings and start (None:
    any start, for a start made by the run) as ``look`` reads it; a resume that finds
    none, or (a learn) a database holding another, is refused."""

    def nothing(history: History) -> None:
        kind.refuse_another(history)
        if resume:
            raise kind.nothing_to_resume(history, settings, source)

    def find(history: History) -> T | None:
        found = kind.find(history, settings, source)
        if found is not None and kind.marks_run:  # its mark is its id: known once found
            history.check_free(kind.run_key(found), kind.running)
        return None if found is None else look(history, found)
    held = None if kind.marks_run else (kind.key(settings, source or ""), kind.running)
    return open_run(path, resume, find, held, nothing)
