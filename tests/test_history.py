"""The history file (fuzzeval.play.history): opened checked -- a foreign, corrupt, newer or
missing file refused in one line, to readers and writers --, read-only where asked, and the
running marks: a match or run another live process holds is refused -- a process of
another machine always counts as live, since this machine cannot look it up -- and a dead
one's mark on this machine is taken over."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.errors import FuzzevalError
from fuzzeval.play.history import HistoryError, require_for_resume
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import MATCHES
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History, read_decisions, read_games
from tests.killing import dead_pid

runner = CliRunner()
TOY_SPEC = MatchSpec("toy", PlayerSpec("random"), PlayerSpec("random"), 4, 1)


def history_with_games(db: Path) -> None:
    """A history of one 30-game match, its WAL folded into the file."""
    res = runner.invoke(app, ["match", "cribbage", "-p", "greedy", "--opponent", "random",
                              "-n", "30", "--db", str(db)])
    assert res.exit_code == 0, res.output
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


# --- opening: what is refused ---------------------------------------------------------


def test_foreign_and_corrupt_databases_are_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(HistoryError, match=r"not a fuzzeval history.*invoices"):
        History(foreign)
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(HistoryError, match="not a usable SQLite database"):
        History(corrupt)
    with pytest.raises(HistoryError, match="no such history database"):
        read_decisions(tmp_path / "missing.sqlite")
    newer = tmp_path / "newer.sqlite"
    History(newer).close()
    with sqlite3.connect(newer) as conn:
        conn.execute("UPDATE fuzzeval_meta SET value = '99' WHERE key = 'version'")
    with pytest.raises(HistoryError, match="newer fuzzeval"):
        History(newer)


@pytest.mark.mutation_pin
def test_resume_needs_an_existing_history_file(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite"
    with pytest.raises(HistoryError) as info:
        require_for_resume(missing)
    assert str(info.value) == (f"{missing}: no such history database, so nothing to resume; "
                               "run without --resume to start")
    assert not missing.exists()
    with pytest.raises(HistoryError):
        require_for_resume(tmp_path)  # a directory is no history either
    History(missing).close()
    require_for_resume(missing)  # now there is one: no error


@pytest.mark.mutation_pin
def test_a_history_sqlite_finds_corrupt_is_refused_to_readers_and_writers(
        tmp_path: Path) -> None:
    """SQLite's quick_check names the damage; a writer is also told to choose another
    --db, a reader only to restore the file."""
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        h.create_match(TOY_SPEC, "")
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")  # the WAL folded into the file
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = "
                            "'sqlite_autoindex_fuzzeval_meta_1'").fetchone()[0]
    conn.close()
    data = bytearray(db.read_bytes())
    data[(root - 1) * size] = 0x0D  # the index's root page marked as a table's leaf
    db.write_bytes(bytes(data))
    # one line: SQLite's report ("*** in database main ***\nOn tree page ...") joined
    with pytest.raises(HistoryError, match=(
            r"^" + re.escape(f"{db}: the database is damaged (SQLite: *** in database main "
                             "*** On tree page ") + r"[^\n]+\); "
            r"nothing was written\. Restore it from a copy or choose another --db$")):
        History(db)
    with pytest.raises(HistoryError, match=(
            r"^" + re.escape(f"{db}: the database is damaged (SQLite: *** in database main "
                             "*** On tree page ") + r"[^\n]+\); "
            r"nothing was read\. Restore it from a copy$")):
        History(db, readonly=True)


def test_a_damaged_history_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    history_with_games(db)
    with sqlite3.connect(db) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    assert pages > 6
    data = bytearray(db.read_bytes())
    data[page * (pages // 2): page * (pages // 2) + page] = b"\xa5" * page  # garbage page
    db.write_bytes(bytes(data))
    before = db.read_bytes()
    res = runner.invoke(app, ["match", "cribbage", "-p", "greedy", "--opponent", "random",
                              "-n", "3", "--db", str(db), "--seed", "9"])
    assert res.exit_code == 1 and "damaged" in res.output, res.output
    assert "Traceback" not in res.output and db.read_bytes() == before


# --- read-only ------------------------------------------------------------------------


def test_readers_open_read_only_and_change_nothing(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    history_with_games(db)
    with sqlite3.connect(db) as conn:  # as if written by a fuzzeval before tuning existed
        conn.execute("DROP TABLE IF EXISTS tuning_generations")  # made by a tuning only
        conn.execute("DROP TABLE IF EXISTS tunings")
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    before = db.read_bytes()
    assert len(read_decisions(db)) > 0 and len(read_games(db)) == 30
    assert db.read_bytes() == before  # no table created, no WAL switched on
    with History(db, readonly=True) as h, pytest.raises(sqlite3.OperationalError,
                                                        match="readonly"):
        h.conn.execute("CREATE TABLE x (a)")


@pytest.mark.mutation_pin
def test_a_history_whose_wal_files_cannot_be_made_is_read_as_an_immutable_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a read-only medium SQLite cannot make the WAL's shared-memory file: the plain
    read-only open fails, and the history is read as an immutable file instead."""
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        match = h.create_match(TOY_SPEC, "")
    connect = sqlite3.connect
    uris: list[str] = []

    def read_only_medium(database: str, **kwargs: object) -> sqlite3.Connection:
        if database == ":memory:":  # the tables' columns, read once per process
            return connect(database, **kwargs)  # type: ignore[arg-type]
        uris.append(database.split("?")[1])
        if "immutable=1" not in database:
            raise sqlite3.OperationalError("unable to open database file")
        return connect(database, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(sqlite3, "connect", read_only_medium)
    with History(db, readonly=True) as h:
        found = h.find_match(TOY_SPEC)
        assert found is not None and found.id == match.id
    assert uris == ["mode=ro", "mode=ro&immutable=1"]


@pytest.mark.mutation_pin
def test_a_reader_waits_for_a_lock_as_long_as_a_writer(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader that meets another process's lock (a WAL recovery, a checkpoint) waits 30 s
    for it, as a writer does, not SQLite's default 5 s."""
    db = tmp_path / "h.sqlite"
    History(db).close()
    connect = sqlite3.connect
    timeouts: list[object] = []

    def recording(database: str, **kwargs: object) -> sqlite3.Connection:
        if database != ":memory:":  # not the tables' columns, read once per process
            timeouts.append(kwargs.get("timeout"))
        return connect(database, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(sqlite3, "connect", recording)
    History(db).close()
    History(db, readonly=True).close()
    assert timeouts == [30, 30]


# --- running marks: a match's (MATCHES.mark, by its id) and a run's (running) -------


def marks(h: History) -> list[tuple[int, int, str]]:
    """The matches' running marks (``match ID`` in ``running_runs``), by match id."""
    return sorted((int(r[0].removeprefix("match ")), int(r[1]), str(r[2])) for r in
                  h.conn.execute("SELECT key, pid, host FROM running_runs"))


def mark(h: History, match_id: int, pid: int, host: str) -> None:
    with h.conn:
        h.conn.execute("INSERT INTO running_runs (key, pid, host) VALUES (?, ?, ?)",
                       (f"match {match_id}", pid, host))


@pytest.mark.pinned
@pytest.mark.parametrize("pid", ["dead", "mine"])
def test_another_hosts_mark_is_refused_whatever_its_pid(tmp_path: Path, pid: str) -> None:
    # Another machine's pid says nothing here: neither a pid no process of this machine
    # has, nor one that happens to be this very process's number.
    other = socket.gethostname() + "-elsewhere"
    number = dead_pid() if pid == "dead" else os.getpid()
    with History(tmp_path / "h.sqlite") as h:
        match = h.create_match(TOY_SPEC, "")
        mark(h, match.id, number, other)
        with pytest.raises(HistoryError, match=rf"pid {number} on {other}\)"), \
                MATCHES.mark(h, match.id):
            pass
        assert marks(h) == [(match.id, number, other)]  # left as it was


@pytest.mark.pinned
def test_a_live_process_of_this_host_is_refused(tmp_path: Path) -> None:
    parent = os.getppid()  # alive: it runs the tests
    with History(tmp_path / "h.sqlite") as h:
        match = h.create_match(TOY_SPEC, "")
        mark(h, match.id, parent, socket.gethostname())
        with pytest.raises(HistoryError, match=rf"another process \(pid {parent}\);"), \
                MATCHES.mark(h, match.id):
            pass
        assert marks(h) == [(match.id, parent, socket.gethostname())]


@pytest.mark.pinned
def test_a_dead_processs_mark_on_this_host_is_taken_over_and_cleared(tmp_path: Path) -> None:
    host = socket.gethostname()
    with History(tmp_path / "h.sqlite") as h:
        match = h.create_match(TOY_SPEC, "")
        other = h.create_match(TOY_SPEC, "")
        mark(h, match.id, dead_pid(), host)  # left behind by a SIGKILL
        mark(h, other.id, os.getppid(), host)  # another match's mark is no concern
        with MATCHES.mark(h, match.id):
            assert marks(h) == [(match.id, os.getpid(), host),
                                (other.id, os.getppid(), host)]
        assert marks(h) == [(other.id, os.getppid(), host)]


@pytest.mark.mutation_pin
def test_a_process_of_another_user_is_alive_and_refused(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Signal 0 to another user's process is refused (EPERM): it exists, so its mark
    holds."""
    host = socket.gethostname()
    with History(tmp_path / "h.sqlite") as h:
        match = h.create_match(TOY_SPEC, "")
        mark(h, match.id, 4_000_001, host)

        def not_permitted(pid: int, sig: int) -> None:
            raise PermissionError(1, "Operation not permitted")
        monkeypatch.setattr(os, "kill", not_permitted)
        with pytest.raises(HistoryError, match=r"another process \(pid 4000001\);"), \
                MATCHES.mark(h, match.id):
            pass
        assert marks(h) == [(match.id, 4_000_001, host)]


def test_a_run_mark_refuses_a_live_process_and_takes_over_a_dead_ones(tmp_path: Path) -> None:
    with History(tmp_path / "h.sqlite") as history:
        with history.conn:
            history.conn.execute("INSERT INTO running_runs (key, pid, host) VALUES "
                                 "('a', ?, 'elsewhere'), ('b', ?, ?), ('c', ?, ?)",
                                 (os.getppid(), os.getppid(), os.uname().nodename,
                                  dead_pid(), os.uname().nodename))
        with pytest.raises(FuzzevalError, match=rf"this run is running by another process "
                                                rf"\(pid {os.getppid()} on elsewhere\)"):
            history.check_free("a", "this run is running")
        # tournament has no --resume: every run command goes on from what is stored
        with pytest.raises(FuzzevalError, match=rf"\(pid {os.getppid()}\); let it finish or "
                           r"stop it, then run the same command again \(it goes on from what "
                           r"is stored\)$"), history.running("b", "this run is running"):
            pass
        with history.running("c", "x"):  # a dead process's mark is taken over
            row = history.conn.execute("SELECT pid FROM running_runs WHERE key = 'c'")
            assert row.fetchone()[0] == os.getpid()
            history.check_free("c", "x")  # its own mark is no obstacle
        assert history.conn.execute(
            "SELECT COUNT(*) FROM running_runs WHERE key = 'c'").fetchone()[0] == 0


def test_a_mark_whose_block_was_never_entered_is_released_by_close(tmp_path: Path) -> None:
    """A Ctrl-C landing just after `with history.running(...)` entered, before its block,
    skips the block's exit: the mark was released at garbage collection, on the closed
    connection (sqlite3.ProgrammingError, a traceback after the stop's line)."""
    import sqlite3

    db = tmp_path / "h.sqlite"
    with History(db) as history:
        held = history.running("a run", "this run is running")
        held.__enter__()  # ... and the signal: __exit__ is never called
    held.__exit__(None, None, None)  # the generator's finally, after close: no error
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM running_runs").fetchone() == (0,)
    with History(db) as history, history.running("a run", "this run is running"):
        pass  # released as before when the block ends
    assert sqlite3.connect(db).execute("SELECT COUNT(*) FROM running_runs").fetchone() == (0,)
