"""For the tests that kill a run part-way: how far a database has got, read by another
process while the run writes (0 while the file or its table does not exist yet)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def rows_in(db: Path, table: str) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.Error:
        return 0
