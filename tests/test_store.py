"""The history database: what it keeps, resuming without loss, clear errors; and
``History.playing``, the mark that says a match is being played, refused when another
live process holds it -- a process of another machine always counts as live, since this
machine cannot look it up -- and taken over when it is a dead one's on this machine."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
from pathlib import Path

import pytest

from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.game import Outcome
from fuzzeval.play.history import HistoryError
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.rows import GameRows
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History, read_decisions, read_games, run_match


def spec(games: int, seed: int = 3) -> MatchSpec:
    return MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), games, seed)


def play(path: Path, s: MatchSpec, resume: bool = False) -> list[Outcome]:
    with History(path) as h:
        match, _ = run_match(h, GAME, s, resume=resume)
        return h.outcomes(match.id)


def test_decisions_keep_the_deal_the_choice_and_both_outcomes(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    outcomes = play(db, spec(6))
    games = read_games(db)
    assert list(games["game"]) == list(range(6))
    assert list(games["winner"]) == [o.winner for o in outcomes]
    d = read_decisions(db)
    assert len(d) == 2 * sum(o.units for o in outcomes)
    assert {"hand", "crib", "score", "opponent_score", "unit", "choice", "unit_won",
            "game_won", "player"} <= set(d.columns)
    for row in d.itertuples():
        o = outcomes[row.game]
        own, opp = o.unit_points[row.unit][row.seat], o.unit_points[row.unit][1 - row.seat]
        assert (row.unit_points, row.unit_points_opponent) == (own, opp)
        assert row.unit_won == (own > opp) and row.game_won == (o.winner == row.seat)
        thrown = set(row.choice.split())
        assert len(thrown) == 2 and thrown <= set(row.hand.split())
    assert set(d["player"]) == {"greedy", "random"}
    assert set(d["crib"]) == {"mine", "theirs"}


class _StopAfterCommit:
    """The history's connection, which raises KeyboardInterrupt just after the first
    commit of a game: a Ctrl-C between a batch's commit and the batch's forgetting (CI, 2026-11-28:
    the stop then stored the batch again, "UNIQUE constraint failed", exit 1)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn, self.commits = conn, 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.conn, name)

    def __enter__(self) -> sqlite3.Connection:
        return self.conn.__enter__()

    def __exit__(self, *exc: object) -> bool:
        out = self.conn.__exit__(*exc)  # type: ignore[arg-type]
        if exc[0] is None and not self.commits and \
                self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]:
            self.commits += 1
            raise KeyboardInterrupt
        return bool(out)


def test_a_stop_just_after_a_commit_keeps_each_game_once(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        real = h.conn
        h.conn = _StopAfterCommit(real)  # type: ignore[assignment]
        try:
            with pytest.raises(KeyboardInterrupt):
                run_match(h, GAME, spec(5))
        finally:
            h.conn = real
    assert list(read_games(db)["game"]) == [0]  # the game committed, stored once
    assert play(db, spec(5), resume=True) == play(tmp_path / "whole.sqlite", spec(5))


def test_resume_finishes_a_match_exactly_as_one_run_would(tmp_path: Path) -> None:
    whole = play(tmp_path / "whole.sqlite", spec(24))
    part = tmp_path / "part.sqlite"

    class Stop(Exception):
        pass

    seen: list[GameRows] = []

    def stop_after_ten(record: GameRows) -> None:
        seen.append(record)
        if len(seen) == 10:
            raise Stop  # as a crash would, after the tenth game was committed

    with History(part) as h, pytest.raises(Stop):
        run_match(h, GAME, spec(24), on_game=stop_after_ten)
    assert len(read_games(part)) == 10
    with History(part) as h:
        match, before = run_match(h, GAME, spec(24), resume=True)
        assert before == 10
        assert h.outcomes(match.id) == whole
        assert len(h.matches()) == 1
    # Resuming with more games extends the match under the same seeds.
    longer = play(part, spec(30), resume=True)
    assert longer[:24] == whole and len(longer) == 30
    assert len(read_decisions(part)) == 2 * sum(o.units for o in longer)


def test_resume_needs_a_matching_match(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    play(db, spec(2))
    with History(db) as h, pytest.raises(HistoryError, match="no match to resume"):
        run_match(h, GAME, spec(2, seed=4), resume=True)


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


def test_bad_player_fails_before_anything_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    bad = MatchSpec("cribbage", PlayerSpec("wizard"), PlayerSpec("random"), 3, 1)
    with History(db) as h:
        with pytest.raises(Exception, match="wizard"):
            run_match(h, GAME, bad)
        assert h.matches().empty


# --- History.playing: the mark of a match being played --------------------------------

TOY_SPEC = MatchSpec("toy", PlayerSpec("random"), PlayerSpec("random"), 4, 1)


def dead_pid() -> int:
    """A process id that no process of this machine has now."""
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid += 1


def marks(h: History) -> list[tuple[int, int, str]]:
    return [(int(r[0]), int(r[1]), str(r[2])) for r in h.conn.execute(
        "SELECT match_id, pid, host FROM running ORDER BY match_id")]


def mark(h: History, match_id: int, pid: int, host: str) -> None:
    with h.conn:
        h.conn.execute("INSERT INTO running (match_id, pid, host) VALUES (?, ?, ?)",
                       (match_id, pid, host))


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
                h.playing(match):
            pass
        assert marks(h) == [(match.id, number, other)]  # left as it was


@pytest.mark.pinned
def test_a_live_process_of_this_host_is_refused(tmp_path: Path) -> None:
    parent = os.getppid()  # alive: it runs the tests
    with History(tmp_path / "h.sqlite") as h:
        match = h.create_match(TOY_SPEC, "")
        mark(h, match.id, parent, socket.gethostname())
        with pytest.raises(HistoryError, match=rf"another process \(pid {parent}\);"), \
                h.playing(match):
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
        with h.playing(match):
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
                h.playing(match):
            pass
        assert marks(h) == [(match.id, 4_000_001, host)]


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
def test_a_damaged_history_opened_to_write_is_refused_and_says_nothing_was_written(
        tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    with History(db):
        pass
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE games DROP COLUMN moves")
    conn.close()
    with pytest.raises(HistoryError, match=(
            r"h.sqlite: damaged history: table 'games' has lost column\(s\) moves; "
            r"nothing was written$")):
        History(db)


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
