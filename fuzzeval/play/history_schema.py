"""The history database's tables and how an older history is brought up to date.

``VERSION`` counts the history's forms; each added columns to the first form's tables, the
fifth merged its two tables of running marks into one (their story: docs/matches.md,
"History versions"). A history is raised to this version when it is opened for writing,
never lowered: an older fuzzeval refuses rows it cannot read.
"""

from __future__ import annotations

import sqlite3
from functools import cache

APPLICATION = "fuzzeval history"
#: 2: features as compressed float64 with their names in ``feature_sets`` (1: JSON text);
#: 3: every choice of a game in ``games.choices`` (older fuzzevals cannot insert a game);
#: 4: any number of seats (``matches.seats``, ``matches.duplicate``) and every seat's score
#: and payoff (``games.scores``, ``games.payoffs``); 5: one table of running marks: a
#: match's mark is a row of ``running_runs`` (key ``match ID``), the table ``running`` is gone
VERSION = 5

SCHEMA = """
CREATE TABLE IF NOT EXISTS fuzzeval_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    opponent TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    games INTEGER NOT NULL,
    unit_name TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS games (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    idx INTEGER NOT NULL,
    first INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    score0 INTEGER NOT NULL,
    score1 INTEGER NOT NULL,
    result TEXT NOT NULL,
    points INTEGER NOT NULL,
    units INTEGER NOT NULL,
    moves INTEGER NOT NULL,
    unit_points TEXT NOT NULL,
    stats TEXT NOT NULL,
    PRIMARY KEY (match_id, idx)
);
CREATE TABLE IF NOT EXISTS feature_sets (id INTEGER PRIMARY KEY, names TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS decisions (
    match_id INTEGER NOT NULL,
    game_idx INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    unit INTEGER NOT NULL,
    kind TEXT NOT NULL,
    choice TEXT NOT NULL,
    choice_index INTEGER NOT NULL,
    options INTEGER NOT NULL,
    context TEXT NOT NULL,
    features TEXT NOT NULL,
    unit_points INTEGER NOT NULL,
    unit_points_opponent INTEGER NOT NULL,
    unit_won INTEGER NOT NULL,
    game_won INTEGER NOT NULL,
    PRIMARY KEY (match_id, game_idx, seq),
    FOREIGN KEY (match_id, game_idx) REFERENCES games(match_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS running_runs (
    key TEXT PRIMARY KEY,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started TEXT NOT NULL DEFAULT (datetime('now'))
);
"""


#: the columns each history version added to the first version's tables: a history of
#: that version or later that lacks one was damaged
ADDED = {2: (("decisions", "feature_set"),), 3: (("games", "choices"),),
          4: (("matches", "seats"), ("matches", "duplicate"), ("games", "scores"),
              ("games", "payoffs"))}

#: a table whose absence, while the other one is there, means the file was damaged
NEEDS = {"games": "matches", "decisions": "games"}



@cache
def columns(schema: str = SCHEMA) -> dict[str, list[str]]:
    """Every table's columns as this version writes them (of ``schema``: the history's own
    tables, or a kind of run's)."""
    probe = sqlite3.connect(":memory:")
    probe.executescript(schema)
    out = {t: [r[1] for r in probe.execute(f"PRAGMA table_info({t})")]
           for (t,) in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    probe.close()
    return out


def has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    return any(r[1] == column for r in conn.execute(f"PRAGMA table_info({table})"))


def damage(conn: sqlite3.Connection, tables: set[str], schema: str = SCHEMA,
           needs: dict[str, str] = NEEDS) -> str | None:
    """What is missing from a history of this version or older (a table while the one it
    hangs from is there, a column of its version), or None when nothing is; ``schema`` and
    ``needs``: a kind of run's tables instead of the history's own."""
    for table, parent in needs.items():
        if table not in tables and parent in tables:
            return f"table {table!r} is missing while {parent!r} is there"
    version = int(dict(conn.execute(
        "SELECT key, value FROM fuzzeval_meta").fetchall()).get("version", "1"))
    added = [(t, c) for v, pairs in ADDED.items() if v <= version for t, c in pairs]
    for table, names in columns(schema).items():
        if table in tables:
            have = {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}
            lost = [c for c in [*names, *(c for t, c in added if t == table)]
                    if c not in have]
            if lost:
                return f"table {table!r} has lost column(s) {', '.join(lost)}"
    return None


def migrate(conn: sqlite3.Connection) -> None:
    """Create what is missing and raise the history to ``VERSION``, in the open
    transaction: each ALTER adds what a version after the history's own added."""
    conn.executescript(SCHEMA)
    if not has_column(conn, "matches", "fingerprint"):  # histories written before it existed
        conn.execute("ALTER TABLE matches ADD COLUMN fingerprint TEXT")
    if not has_column(conn, "decisions", "feature_set"):  # version 1
        conn.execute("ALTER TABLE decisions ADD COLUMN feature_set INTEGER")
    if not has_column(conn, "games", "choices"):  # versions 1 and 2
        conn.execute("ALTER TABLE games ADD COLUMN choices TEXT")
    if not has_column(conn, "games", "payoffs"):  # versions 1 to 3
        conn.execute("ALTER TABLE matches ADD COLUMN seats TEXT")
        conn.execute("ALTER TABLE matches ADD COLUMN duplicate INTEGER NOT NULL DEFAULT 0")
        conn.execute("ALTER TABLE games ADD COLUMN scores TEXT")
        conn.execute("ALTER TABLE games ADD COLUMN payoffs TEXT")
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'running'").fetchone():
        # versions 1 to 4 marked a match being played in a table of its own: each mark
        # (a live process's too) becomes the one a match takes now (``RunKind.run_key``)
        conn.execute("INSERT OR REPLACE INTO running_runs (key, pid, host, started) "
                     "SELECT 'match ' || match_id, pid, host, started FROM running")
        conn.execute("DROP TABLE running")
    conn.execute("INSERT OR IGNORE INTO fuzzeval_meta VALUES ('application', ?)",
                 (APPLICATION,))
    # Raised, never lowered: an older fuzzeval must refuse rows it cannot read.
    conn.execute("INSERT INTO fuzzeval_meta VALUES ('version', ?) ON CONFLICT(key) DO UPDATE "
                 "SET value = excluded.value WHERE CAST(value AS INTEGER) < ?",
                 (str(VERSION), VERSION))
