"""For the tests that kill a run part-way: how far a database has got, read by another
process while the run writes (0 while the file or its table does not exist yet), and a
process id no process has (the holder of a mark a SIGKILL left behind)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path


def rows_in(db: Path, table: str) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    except sqlite3.Error:
        return 0


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
