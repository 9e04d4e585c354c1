"""The history's tables (fuzzeval.play.history_schema): a table or a column lost is named
as damage, and the file is refused before anything is written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fuzzeval.cli import app
from fuzzeval.play.history import HistoryError
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

