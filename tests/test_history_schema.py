"""The history's tables (fuzzeval.play.history_schema): a table or a column lost is named
as damage, and the file is refused before anything is read or written; a column is
looked for only from the version that added it. (Older histories brought up to date:
tests/test_history_migration.py.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fuzzeval.cli import app
from fuzzeval.play.history import HistoryError
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History
from tests.test_history import history_with_games, runner


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


@pytest.mark.parametrize("damage, message", [
    ("DROP TABLE decisions", "table 'decisions' is missing"),
    ("ALTER TABLE decisions DROP COLUMN features", "lost column(s) features"),
])
def test_a_history_whose_schema_was_damaged_is_refused(tmp_path: Path, damage: str,
                                                       message: str) -> None:
    db = tmp_path / "m.sqlite"
    history_with_games(db)
    with sqlite3.connect(db) as conn:
        conn.execute(damage)
    res = runner.invoke(app, ["match", "cribbage", "-p", "greedy", "--opponent", "random",
                              "-n", "3", "--db", str(db), "--seed", "9"])
    assert res.exit_code == 1 and message in res.output, res.output
    with sqlite3.connect(db) as conn:
        assert {r[0] for r in conn.execute("SELECT name FROM sqlite_master")} \
            .isdisjoint({"decisions"} if "DROP TABLE" in damage else set())



@pytest.mark.mutation_pin
def test_every_lost_column_of_a_table_is_named(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    History(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE games DROP COLUMN moves")
        conn.execute("ALTER TABLE games DROP COLUMN stats")
    conn.close()
    with pytest.raises(HistoryError) as info:
        History(db, readonly=True)
    assert str(info.value) == (f"{db}: damaged history: table 'games' has lost column(s) "
                               "moves, stats; nothing was read")


@pytest.mark.mutation_pin
def test_a_history_that_names_no_version_is_checked_as_the_first(tmp_path: Path) -> None:
    """Without a version row, only the first form's columns are looked for: a column a
    later version added is not missed (a writer adds it)."""
    db = tmp_path / "h.sqlite"
    with History(db) as h:
        h.create_match(MatchSpec("toy", PlayerSpec("random"), PlayerSpec("random"), 4, 1), "")
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM fuzzeval_meta WHERE key = 'version'")
        conn.execute("ALTER TABLE games DROP COLUMN payoffs")
    conn.close()
    with History(db, readonly=True) as h:
        assert h.matches()["id"].tolist() == [1]
