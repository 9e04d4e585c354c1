"""A history of version 4 (a match's running mark in a table ``running`` of its own) opened
by this version: read as it is, never migrated, by a reader; raised to version 5 by a
writer, every mark (a live process's too) moved to ``running_runs`` and honoured there."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
from pathlib import Path

import pytest

from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.history import HistoryError
from fuzzeval.play.history_schema import VERSION
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History, read_games
from tests.killing import dead_pid

#: version 4's table of a match's running mark, as its SCHEMA made it
RUNNING_V4 = """
CREATE TABLE IF NOT EXISTS running (
    match_id INTEGER PRIMARY KEY,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started TEXT NOT NULL DEFAULT (datetime('now'))
);
"""


def spec(games: int, seed: int) -> MatchSpec:
    return MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), games, seed)


def tables(db: Path) -> set[str]:
    with sqlite3.connect(db) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = "
                                           "'table'")}


def version(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("SELECT value FROM fuzzeval_meta WHERE key = 'version'")
                   .fetchone()[0])


def version_4(tmp_path: Path, dead: int, live: int) -> Path:
    """Two matches of 3 games stored, 2 asked for later; then the file as version 4 wrote
    it: its tables are this version's and ``running``, where match 1 holds a dead
    process's mark (a SIGKILL left it) and match 2 a live one's."""
    db = tmp_path / "v4.sqlite"
    with History(db) as h:
        for seed in (3, 4):
            run_match(h, GAME, spec(3, seed))
    host = socket.gethostname()
    with sqlite3.connect(db) as conn:
        conn.executescript(RUNNING_V4)
        conn.execute("INSERT INTO running (match_id, pid, host, started) VALUES "
                     "(1, ?, ?, '2026-01-02 03:04:05')", (dead, host))
        conn.execute("INSERT INTO running (match_id, pid, host) VALUES (2, ?, ?)",
                     (live, host))
        conn.execute("UPDATE fuzzeval_meta SET value = '4' WHERE key = 'version'")
    conn.close()
    return db


def test_this_version_is_5() -> None:
    assert VERSION == 5


def test_a_reader_reads_a_version_4_history_without_migrating_it(tmp_path: Path) -> None:
    db = version_4(tmp_path, dead_pid(), os.getppid())
    before = tables(db)
    assert "running" in before
    games = read_games(db)
    assert list(games["match_id"]) == [1, 1, 1, 2, 2, 2]
    with History(db, readonly=True) as h:
        assert h.stored_match(2).spec == spec(3, 4)
        assert h.finished(1) == {0, 1, 2}
    assert tables(db) == before and version(db) == "4"


def test_a_writer_moves_every_mark_of_a_version_4_history_to_the_one_table(
        tmp_path: Path) -> None:
    dead, live, host = dead_pid(), os.getppid(), socket.gethostname()
    db = version_4(tmp_path, dead, live)
    with History(db) as h:
        marks = h.conn.execute("SELECT key, pid, host, started FROM running_runs ORDER BY "
                               "key").fetchall()
    assert [m[:3] for m in marks] == [("match 1", dead, host), ("match 2", live, host)]
    assert marks[0][3] == "2026-01-02 03:04:05"  # kept as it was
    assert "running" not in tables(db) and version(db) == "5"


def test_a_migrated_mark_of_a_dead_process_is_taken_over_and_its_match_resumed(
        tmp_path: Path) -> None:
    db = version_4(tmp_path, dead_pid(), os.getppid())
    with History(db) as h:
        match, before = run_match(h, GAME, spec(5, 3), resume=True)
        assert (match.id, before) == (1, 3)
        assert h.finished(1) == {0, 1, 2, 3, 4}
        assert h.conn.execute("SELECT key FROM running_runs").fetchall() == [("match 2",)]


def test_a_migrated_mark_of_a_live_process_refuses_a_second_runner(tmp_path: Path) -> None:
    live = os.getppid()  # alive: it runs the tests
    db = version_4(tmp_path, dead_pid(), live)
    with History(db) as h:
        with pytest.raises(HistoryError, match="^" + re.escape(
                f"{db}: this match is being played by another process (pid {live}); let it "
                "finish or stop it, then run the same command again (it goes on from what "
                "is stored)") + "$"):
            run_match(h, GAME, spec(5, 4), resume=True)
        assert h.finished(2) == {0, 1, 2}  # nothing played
        assert h.conn.execute("SELECT key, pid FROM running_runs WHERE key = 'match 2'"
                              ).fetchall() == [("match 2", live)]  # left as it was


def test_a_version_4_history_is_still_checked_for_damage(tmp_path: Path) -> None:
    """The columns versions 2 to 4 added are still required of a history of version 4 or
    later: one lost is refused, before anything is migrated."""
    db = version_4(tmp_path, dead_pid(), os.getppid())
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE games DROP COLUMN payoffs")
    conn.close()
    for readonly, done in ((True, "nothing was read"), (False, "nothing was written")):
        with pytest.raises(HistoryError, match="^" + re.escape(
                f"{db}: damaged history: table 'games' has lost column(s) payoffs; "
                f"{done}") + "$"):
            History(db, readonly=readonly)
    assert "running" in tables(db) and version(db) == "4"
