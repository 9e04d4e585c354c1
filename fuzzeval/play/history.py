"""The history database's connection: opened checked (refusing a foreign, damaged or newer
file in one line), read-only where asked, and the running marks that keep a second process
from a run another one holds."""

from __future__ import annotations

import os
import socket
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Self

from fuzzeval.errors import FuzzevalError, UsageError
from fuzzeval.play.history_schema import APPLICATION, VERSION, damage, migrate

if TYPE_CHECKING:  # pandas is imported where a table is read: a match needs none
    import pandas as pd


class HistoryError(FuzzevalError):
    """The history database cannot be used (corrupt, foreign, newer, or no such match)."""


class NoSuchRun(HistoryError, UsageError):
    """An id asked for (``--match N``, ``--calibration N``) that the database does not
    hold: a usage error that lists the ids it holds."""

    @classmethod
    def listing(cls, path: Path, kind: str, run_id: int, ids: Iterable[int]) -> NoSuchRun:
        """The one wording of every kind: "PATH: no calibration 5 (stored: 1, 2)"."""
        return cls(f"{path}: no {kind} {run_id} (stored: {', '.join(map(str, ids)) or 'none'})")


class HistoryFile:
    """An open history database: its connection, checked and brought up to date, and the
    running marks that keep two processes from one run. Use as a context manager, or call
    ``close``. (``fuzzeval.play.store.History`` adds the matches.)

    An existing file is checked first, for reading as for writing (SQLite's
    ``quick_check``, then every fuzzeval table and column), and refused in one line when it
    is not a fuzzeval history or is damaged: every reader (show, export, plots, the Python
    API) gets the same refusals. ``readonly`` opens an existing file read-only: no table is
    created, no WAL switched on, so a history on a read-only disk can still be read and
    plotted; an empty file is no history to read.
    """

    def __init__(self, path: Path | str, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._marks: set[str] = set()  # the running marks held (``running``)
        #: the kinds of run (by table) whose tables ``RunKind.ready`` has found or made on
        #: this connection, or found absent from it read-only: looked up once
        self.ready_kinds: dict[str, bool] = {}
        if readonly:
            require(self.path)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            if readonly:
                self.conn = _connect_readonly(self.path)
            else:
                self.conn = sqlite3.connect(self.path, timeout=30)
            self._check_and_create()
        except sqlite3.DatabaseError as exc:
            raise HistoryError(f"{self.path}: not a usable SQLite database ({exc})") from exc
    def _check_and_create(self) -> None:
        tables = {r[0] for r in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables and self.readonly:
            raise HistoryError(f"{self.path}: an empty file, not a fuzzeval history")
        if tables and "fuzzeval_meta" not in tables:
            raise HistoryError(
                f"{self.path}: an SQLite database, but not a fuzzeval history "
                f"(tables: {', '.join(sorted(tables))})"
                + ("" if self.readonly else "; choose another --db"))
        if "fuzzeval_meta" in tables:
            meta = dict(self.conn.execute("SELECT key, value FROM fuzzeval_meta").fetchall())
            if meta.get("application") != APPLICATION:
                raise HistoryError(f"{self.path}: fuzzeval_meta does not name a fuzzeval history")
            if int(meta.get("version", "0")) > VERSION:
                raise HistoryError(f"{self.path}: written by a newer fuzzeval "
                                   f"(history version {meta['version']} > {VERSION})")
            self._check_intact(tables)
        if self.readonly:
            return
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        with self.conn:
            migrate(self.conn)

    def _check_intact(self, tables: set[str]) -> None:
        """Refuse a damaged history before reading or writing it."""
        done = "nothing was read" if self.readonly else "nothing was written"
        found = [r[0] for r in self.conn.execute("PRAGMA quick_check(5)")]
        if found != ["ok"]:
            raise HistoryError(f"{self.path}: the database is damaged (SQLite: "
                               f"{'; '.join(' '.join(f.split()) for f in found)}); {done}. "
                               "Restore it from a copy"
                               + ("" if self.readonly else " or choose another --db"))
        lost = damage(self.conn, tables)
        if lost is not None:
            raise HistoryError(f"{self.path}: damaged history: {lost}; {done}")

    def close(self) -> None:
        """Close, first releasing any running mark still held: a signal that lands just
        after a ``with history.running(...)`` has entered, before its block, skips the
        block's exit, and the mark's release would otherwise come at garbage collection,
        on a closed connection (a traceback after Ctrl-C)."""
        for mark in list(self._marks):
            # a database that cannot be written keeps a stale mark, taken over later (its
            # process is gone)
            with suppress(sqlite3.Error):
                self._release(mark)
        self.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def running(self, key: str, what: str) -> Iterator[None]:
        """Mark a run as this process's (``key``: a calibration's, a tuning's, a learn's
        settings, so that two processes cannot both start one; a match's id), refusing if
        another live process holds it (``what`` says what it is, for the refusal): the mark
        is taken in a write transaction (two processes cannot both see it free), taken over
        from a dead process (a SIGKILL leaves its mark), released at the end."""
        me, host = os.getpid(), socket.gethostname()
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            row = self.conn.execute("SELECT pid, host FROM running_runs WHERE key = ?",
                                    (key,)).fetchone()
            self._refuse(None if row is None else _other(row[0], row[1]), what)
            self.conn.execute("INSERT OR REPLACE INTO running_runs (key, pid, host) "
                              "VALUES (?, ?, ?)", (key, me, host))
        self._marks.add(key)
        try:
            yield
        finally:
            if key in self._marks:  # not already released by close
                self._release(key)

    def check_free(self, key: str, what: str) -> None:
        """Refuse now, before costly work, a run (``key``) another live process holds; the
        mark itself is taken by ``running``."""
        row = self.conn.execute("SELECT pid, host FROM running_runs WHERE key = ?",
                                (key,)).fetchone()
        if row is not None:
            self._refuse(_other(row[0], row[1]), what)

    def _refuse(self, who: str | None, what: str) -> None:
        if who is not None:
            raise HistoryError(f"{self.path}: {what} by another process ({who}); let it "
                               "finish or stop it, then run the same command again (it goes "
                               "on from what is stored)")

    def _release(self, key: str) -> None:
        with self.conn:
            self.conn.execute("DELETE FROM running_runs WHERE key = ? AND pid = ?",
                              (key, os.getpid()))
        self._marks.discard(key)

    def table(self, query: str, params: tuple[int, ...] = ()) -> pd.DataFrame:
        """A query's rows as a table; a history SQLite cannot read is this project's error
        naming the file, not pandas' (which quotes the whole query)."""
        import pandas as pd

        try:
            return pd.read_sql_query(query, self.conn, params=params)
        except (pd.errors.DatabaseError, sqlite3.DatabaseError) as exc:
            cause = exc.__cause__ or exc
            raise HistoryError(f"{self.path}: cannot be read as a fuzzeval history "
                               f"(SQLite: {cause})") from None

def require(path: Path | str) -> Path:
    p = Path(path)
    if not p.is_file():
        raise HistoryError(f"{p}: no such history database")
    return p


def require_for_resume(path: Path) -> None:
    """--resume needs a history to resume from: say so before any file is made."""
    if not path.is_file():
        raise HistoryError(f"{path}: no such history database, so nothing to resume; run "
                           "without --resume to start")


def _connect_readonly(path: Path) -> sqlite3.Connection:
    """Read-only; on a read-only medium where SQLite cannot make the WAL's shared-memory
    file, as an immutable file."""
    uri = path.resolve().as_uri()
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=30)
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=30)


def _other(pid: int, host: str) -> str | None:
    """A running mark's holder as the refusal names it ("pid 12", "pid 12 on host"), or
    None when the mark is this process's own or its process is dead."""
    if host == socket.gethostname():
        return f"pid {pid}" if pid != os.getpid() and _alive(pid) else None
    return f"pid {pid} on {host}"


def _alive(pid: int) -> bool:
    """Whether a process of this machine still runs (a stale mark after SIGKILL is not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
