"""Match history in SQLite (stdlib ``sqlite3``, write-ahead log).

Tables: ``matches`` (one row per match spec), ``games`` (one row per finished game, with
its outcome), ``decisions`` (every logged decision with its context, the chosen option, the
crisp features of the chosen candidate and the outcome of its deal and game). A game played
here is written in its own transaction; games from workers arrive as rows and go in several
to a short transaction within ``COMMIT_SECONDS``, so a crash or Ctrl-C loses only games
still being played (or, after a crash, finished in the last half second);
``resume`` finds the match again from its spec and plays only the games not yet stored.

Features are stored compactly (history version 2): the names once in ``feature_sets``, each
decision's values as zlib-compressed float64 (exact, so a calibration read back is the one
played), about a fifteenth of the JSON text version 1 wrote; a decision's ``player`` is
left empty (its match names both seats). Version-1 rows (JSON features, the player written
out) are still read, so old histories read, resume and calibrate as before.

Version 3 keeps every choice of a game (``games.choices``, the option indices in order):
with the match's seed and options they replay the whole game (``fuzzeval history show``),
the plays of cribbage that are not logged as decisions included. Games stored before it
have none (NULL) and show only their logged decisions.

Version 4 seats any number of players and keeps what each was paid: ``matches.seats``
(every seat's player as JSON, NULL for the two-seat player/opponent form) and
``matches.duplicate``, ``games.scores`` and ``games.payoffs`` (JSON, one number per seat;
``score0``, ``score1`` and ``winner`` stay filled, -1 for a game without a winner). Games
stored before it read back with the two-seat payoff of their winner and points. A decision
won its deal (``unit_won``) or game (``game_won``) when its seat did better than the
table's mean there, or, in a game with winners, won it; with two seats that is what
versions 1 to 3 stored.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from fuzzeval.errors import FuzzevalError, NotFound, UsageError
from fuzzeval.play.game import WIN_POINTS, Game, Outcome, Payoff
from fuzzeval.play.match import (
    GameRecord,
    MatchSpec,
    check_players,
    fingerprint,
    run_finished,
)
from fuzzeval.play.rows import GameRows, encode_game, unpack_choices

if TYPE_CHECKING:  # pandas is imported where a table is read: a match needs none
    import pandas as pd

APPLICATION = "fuzzeval history"
#: 2: features as compressed float64 with their names in ``feature_sets`` (1: JSON text);
#: 3: every choice of a game in ``games.choices`` (older fuzzevals cannot insert a game);
#: 4: any number of seats (``matches.seats``, ``matches.duplicate``) and every seat's score
#: and payoff (``games.scores``, ``games.payoffs``)
VERSION = 4

_SCHEMA = """
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
CREATE TABLE IF NOT EXISTS running (
    match_id INTEGER PRIMARY KEY,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS running_runs (
    key TEXT PRIMARY KEY,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS calibrations (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    rulebase_name TEXT NOT NULL,
    rulebase_source TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS calibration_rounds (
    calibration_id INTEGER NOT NULL REFERENCES calibrations(id),
    round INTEGER NOT NULL,
    rulebase_yaml TEXT NOT NULL,
    match_id INTEGER,
    games INTEGER,
    wins INTEGER,
    moves TEXT,
    PRIMARY KEY (calibration_id, round)
);
CREATE TABLE IF NOT EXISTS tunings (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    rulebase_name TEXT NOT NULL,
    rulebase_source TEXT NOT NULL,
    rulebase_yaml TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS tuning_generations (
    tuning_id INTEGER NOT NULL REFERENCES tunings(id),
    generation INTEGER NOT NULL,
    evaluations INTEGER NOT NULL,
    best REAL NOT NULL,
    best_x TEXT NOT NULL,
    mean REAL NOT NULL,
    state BLOB NOT NULL,
    PRIMARY KEY (tuning_id, generation)
);
CREATE TABLE IF NOT EXISTS learns (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    source TEXT NOT NULL,
    rulebase_yaml TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS learn_blocks (
    learn_id INTEGER NOT NULL REFERENCES learns(id),
    block INTEGER NOT NULL,
    games INTEGER NOT NULL,
    mean REAL NOT NULL,
    measure REAL,
    measure_half REAL,
    weights BLOB NOT NULL,
    PRIMARY KEY (learn_id, block)
);
"""


#: the columns each history version added to the first version's tables: a history of
#: that version or later that lacks one was damaged
_ADDED = {2: (("decisions", "feature_set"),), 3: (("games", "choices"),),
          4: (("matches", "seats"), ("matches", "duplicate"), ("games", "scores"),
              ("games", "payoffs"))}

#: a table whose absence, while the other one is there, means the file was damaged
_NEEDS = {"games": "matches", "decisions": "games", "calibration_rounds": "calibrations",
          "tuning_generations": "tunings", "learn_blocks": "learns"}


@cache
def _columns() -> dict[str, list[str]]:
    """Every table's columns as this version writes them."""
    probe = sqlite3.connect(":memory:")
    probe.executescript(_SCHEMA)
    out = {t: [r[1] for r in probe.execute(f"PRAGMA table_info({t})")]
           for (t,) in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    probe.close()
    return out


class HistoryError(FuzzevalError):
    """The history database cannot be used (corrupt, foreign, newer, or no such match)."""


@dataclass(frozen=True)
class StoredMatch:
    id: int
    spec: MatchSpec
    unit_name: str
    games: int = 0  # as stored: never fewer than any run of it asked for
    fingerprint: str | None = None  # what the players read from files (None: not recorded)


def _options_json(spec: MatchSpec) -> str:
    return json.dumps([list(kv) for kv in spec.options])


def _seats_json(spec: MatchSpec) -> str | None:
    """A match's seats as stored: NULL for the two-seat player/opponent form."""
    return json.dumps([str(p) for p in spec.seats]) if spec.seats else None


class History:
    """An open history database. Use as a context manager, or call ``close``.

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
        self._marks: set[tuple[str, str, int | str]] = set()  # running marks held (_hold)
        if readonly:
            _require(self.path)
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
            self.conn.executescript(_SCHEMA)
            columns = {r[1] for r in self.conn.execute("PRAGMA table_info(matches)")}
            if "fingerprint" not in columns:  # histories written before it existed
                self.conn.execute("ALTER TABLE matches ADD COLUMN fingerprint TEXT")
            if not _has_column(self.conn, "decisions", "feature_set"):  # version 1
                self.conn.execute("ALTER TABLE decisions ADD COLUMN feature_set INTEGER")
            if not _has_column(self.conn, "games", "choices"):  # versions 1 and 2
                self.conn.execute("ALTER TABLE games ADD COLUMN choices TEXT")
            if not _has_column(self.conn, "games", "payoffs"):  # versions 1 to 3
                self.conn.execute("ALTER TABLE matches ADD COLUMN seats TEXT")
                self.conn.execute("ALTER TABLE matches ADD COLUMN duplicate INTEGER NOT NULL "
                                  "DEFAULT 0")
                self.conn.execute("ALTER TABLE games ADD COLUMN scores TEXT")
                self.conn.execute("ALTER TABLE games ADD COLUMN payoffs TEXT")
            self.conn.execute("INSERT OR IGNORE INTO fuzzeval_meta VALUES ('application', ?)",
                              (APPLICATION,))
            # Raised, never lowered: an older fuzzeval must refuse rows it cannot read.
            self.conn.execute(
                "INSERT INTO fuzzeval_meta VALUES ('version', ?) ON CONFLICT(key) DO UPDATE "
                "SET value = excluded.value WHERE CAST(value AS INTEGER) < ?",
                (str(VERSION), VERSION))

    def _check_intact(self, tables: set[str]) -> None:
        """Refuse a damaged history before reading or writing it."""
        done = "nothing was read" if self.readonly else "nothing was written"
        found = [r[0] for r in self.conn.execute("PRAGMA quick_check(5)")]
        if found != ["ok"]:
            raise HistoryError(f"{self.path}: the database is damaged (SQLite: "
                               f"{'; '.join(found)}); {done}. Restore it from a copy"
                               + ("" if self.readonly else " or choose another --db"))
        for table, parent in _NEEDS.items():
            if table not in tables and parent in tables:
                raise HistoryError(f"{self.path}: damaged history: table {table!r} is "
                                   f"missing while {parent!r} is there; {done}")
        version = int(dict(self.conn.execute(
            "SELECT key, value FROM fuzzeval_meta").fetchall()).get("version", "1"))
        added = [(t, c) for v, pairs in _ADDED.items() if v <= version for t, c in pairs]
        for table, columns in _columns().items():
            if table in tables:
                have = {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}
                lost = [c for c in [*columns, *(c for t, c in added if t == table)]
                        if c not in have]
                if lost:
                    raise HistoryError(f"{self.path}: damaged history: table {table!r} has "
                                       f"lost column(s) {', '.join(lost)}; {done}")

    def close(self) -> None:
        """Close, first releasing any running mark still held: a signal that lands just
        after a ``with history.playing(...)`` has entered, before its block, skips the
        block's exit, and the mark's release would otherwise come at garbage collection,
        on a closed connection (a traceback after Ctrl-C)."""
        for mark in list(self._marks):
            # a database that cannot be written keeps a stale mark, taken over later (its
            # process is gone)
            with suppress(sqlite3.Error):
                self._release(*mark)
        self.conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- matches -----------------------------------------------------------------------
    def find_match(self, spec: MatchSpec) -> StoredMatch | None:
        """The latest match with this game, these players, options and seed (any length)."""
        seated = ("AND COALESCE(seats, '') = ? AND duplicate = ? "
                  if _has_column(self.conn, "matches", "seats") else "AND '' = ? AND 0 = ? ")
        row = self.conn.execute(
            "SELECT id, games, unit_name, fingerprint FROM matches WHERE game = ? AND "
            f"player = ? AND opponent = ? AND options = ? AND seed = ? {seated}"
            "ORDER BY id DESC LIMIT 1",
            (spec.game, str(spec.player), str(spec.opponent), _options_json(spec), spec.seed,
             _seats_json(spec) or "", int(spec.duplicate)),
        ).fetchone()
        if row is None:
            return None
        return StoredMatch(row[0], spec, row[2], row[1], row[3])

    def create_match(self, spec: MatchSpec, unit_name: str,
                     fingerprint: str | None = None) -> StoredMatch:
        with self.conn:
            cur = self.conn.execute(
                "INSERT INTO matches (game, player, opponent, options, seed, games, unit_name, "
                "fingerprint, seats, duplicate) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (spec.game, str(spec.player), str(spec.opponent), _options_json(spec),
                 spec.seed, spec.games, unit_name, fingerprint, _seats_json(spec),
                 int(spec.duplicate)))
        return StoredMatch(int(cur.lastrowid or 0), spec, unit_name, spec.games, fingerprint)

    def extend_match(self, match: StoredMatch, games: int) -> StoredMatch:
        """Resume with a new length: more games under the same seeds. Never fewer: a shorter
        request plays what it lacks of its own games and the record keeps its length."""
        length = max(games, match.games)
        with self.conn:
            self.conn.execute("UPDATE matches SET games = ? WHERE id = ?", (length, match.id))
        return StoredMatch(match.id, match.spec, match.unit_name, length, match.fingerprint)

    def playing(self, match: StoredMatch) -> AbstractContextManager[None]:
        """Mark a match as being played by this process; refuse if another live one is."""
        return self._hold("running", "match_id", match.id, "this match is being played")

    def running(self, key: str, what: str) -> AbstractContextManager[None]:
        """Mark a run (a calibration, a tuning: ``key`` names its settings, so that two
        processes cannot both start one) as this process's; refuse if another live one
        holds it. ``what`` says what it is, for the refusal."""
        return self._hold("running_runs", "key", key, what)

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

    @contextmanager
    def _hold(self, table: str, column: str, value: int | str, what: str) -> Iterator[None]:
        """The one running mark: taken in a write transaction (two processes cannot both
        see it free), refused while another live process holds it, taken over from a dead
        one (a SIGKILL leaves its mark), released at the end."""
        me, host = os.getpid(), socket.gethostname()
        with self.conn:
            self.conn.execute("BEGIN IMMEDIATE")
            row = self.conn.execute(f"SELECT pid, host FROM {table} WHERE {column} = ?",
                                    (value,)).fetchone()
            self._refuse(None if row is None else _other(row[0], row[1]), what)
            self.conn.execute(f"INSERT OR REPLACE INTO {table} ({column}, pid, host) "
                              "VALUES (?, ?, ?)", (value, me, host))
        self._marks.add((table, column, value))
        try:
            yield
        finally:
            if (table, column, value) in self._marks:  # not already released by close
                self._release(table, column, value)

    def _release(self, table: str, column: str, value: int | str) -> None:
        with self.conn:
            self.conn.execute(f"DELETE FROM {table} WHERE {column} = ? AND pid = ?",
                              (value, os.getpid()))
        self._marks.discard((table, column, value))

    def matches(self) -> pd.DataFrame:
        """Every match with how many of its games are stored."""
        return self.table(
            "SELECT m.id, m.game, m.player, m.opponent, m.options, m.seed, m.games, "
            "COUNT(g.idx) AS finished, m.created FROM matches m "
            "LEFT JOIN games g ON g.match_id = m.id GROUP BY m.id ORDER BY m.id")

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

    def finished(self, match_id: int) -> set[int]:
        return {r[0] for r in self.conn.execute(
            "SELECT idx FROM games WHERE match_id = ?", (match_id,))}

    # --- games ---------------------------------------------------------------------------
    def _feature_set(self, names: tuple[str, ...],
                     known: dict[tuple[str, ...], int] | None = None) -> int:
        """The id of a list of feature names, stored once (a decision keeps only values);
        ``known``, the ids found so far in the open transaction, saves the lookups."""
        if known is not None and names in known:
            return known[names]
        text = json.dumps(names)
        self.conn.execute("INSERT OR IGNORE INTO feature_sets (names) VALUES (?)", (text,))
        row = self.conn.execute("SELECT id FROM feature_sets WHERE names = ?",
                                (text,)).fetchone()
        if known is not None:
            known[names] = int(row[0])
        return int(row[0])

    def save_game(self, match: StoredMatch, record: GameRecord,
                  payoff: Payoff = WIN_POINTS) -> None:
        """One game and its decisions, in one transaction; ``payoff`` (the game's) says
        which way is better, for the decisions' won deals and games."""
        with self.conn:
            self.insert_game(match, encode_game(record, payoff))

    def insert_game(self, match: StoredMatch, rows: GameRows,
                    known: dict[tuple[str, ...], int] | None = None) -> None:
        """One encoded game and its decisions, in the transaction open (the caller
        commits: a match commits several at once, with one ``known`` for their feature
        sets' ids: a rolled-back transaction's ids must not outlive it)."""
        self.conn.execute(
            "INSERT INTO games (match_id, idx, first, winner, score0, score1, result, "
            "points, units, moves, unit_points, stats, choices, scores, payoffs) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (match.id, *rows.game))
        # The match's id and the feature sets' ids are written into the statement (whole
        # numbers from this database), so the worker's rows go in as they came: no row is
        # rebuilt here (a statement for each match and its sets, prepared once and cached).
        sets = " ".join(f"WHEN {k} THEN {self._feature_set(names, known)}"
                        for k, names in enumerate(rows.names))
        feature_set = f"CASE ? {sets} END" if sets else "?"
        self.conn.executemany(
            f"INSERT INTO decisions ({_DECISION_COLUMNS}) VALUES "
            f"({int(match.id)}, {', '.join('?' * 15)}, {feature_set})", rows.decisions)

    def winning_features(self, match_ids: list[int], seat: int,
                         kinds: frozenset[str] | None, unit: str = "game"
                         ) -> dict[str, list[float]]:
        """Crisp features of ``seat``'s logged decisions of ``kinds`` (None: every kind)
        in won games (or won deals/units)."""
        column = {"game": "game_won", "deal": "unit_won"}[unit]
        marks = ", ".join("?" * len(match_ids))
        chosen = sorted(kinds) if kinds is not None else []
        kind_filter = f"AND kind IN ({', '.join('?' * len(chosen))}) " if kinds is not None \
            else ""
        rows = self.conn.execute(
            f"SELECT features, {_feature_set_column(self.conn)} FROM decisions WHERE "
            f"match_id IN ({marks}) AND seat = ? {kind_filter}AND "
            f"{column} = 1 ORDER BY match_id, game_idx, seq",
            (*match_ids, seat, *chosen)).fetchall()
        decode = FeatureReader(self.conn, self.path)
        out: dict[str, list[float]] = {}
        for stored, feature_set in rows:
            for name, value in decode(stored, feature_set).items():
                out.setdefault(name, []).append(value)
        return out

    def outcomes(self, match_id: int) -> list[Outcome]:
        """Stored outcomes of a match's games, by game index."""
        seated = "scores, payoffs" if _has_column(self.conn, "games", "payoffs") else \
            "NULL, NULL"
        rows = self.conn.execute(
            f"SELECT winner, score0, score1, result, points, unit_points, stats, {seated} "
            "FROM games WHERE match_id = ? ORDER BY idx", (match_id,)).fetchall()
        return [Outcome(None if w < 0 else w,
                        (s0, s1) if scores is None else tuple(json.loads(scores)), res, pts,
                        tuple(tuple(int(p) for p in unit) for unit in json.loads(up)),
                        {k: tuple(int(x) for x in v) for k, v in json.loads(st).items()},
                        () if paid is None else tuple(float(x) for x in json.loads(paid)))
                for w, s0, s1, res, pts, up, st, scores, paid in rows]

    def stored_match(self, match_id: int | None) -> StoredMatch:
        """A match by id, with its spec as stored; None: the latest with a game stored (a
        play session quit before its first game ends stores none), else the latest."""
        from fuzzeval.play.spec import PlayerSpec

        if not _has_column(self.conn, "matches", "id"):  # an empty or foreign database
            raise NotFound(f"{self.path}: no match stored (not a fuzzeval history)")
        seated = "seats, duplicate" if _has_column(self.conn, "matches", "seats") else \
            "NULL, 0"
        query = ("SELECT id, game, player, opponent, options, seed, games, unit_name, "
                 f"{seated} FROM matches {{}} ORDER BY id DESC LIMIT 1")
        if match_id is not None:
            row = self.conn.execute(query.format("WHERE id = ?"), (match_id,)).fetchone()
        else:
            row = (self.conn.execute(query.format(
                "WHERE EXISTS (SELECT 1 FROM games WHERE games.match_id = matches.id)"))
                .fetchone() or self.conn.execute(query.format("")).fetchone())
        if row is None:
            known = [r[0] for r in self.conn.execute("SELECT id FROM matches ORDER BY id")]
            ids = ", ".join(map(str, known)) if known else "none"
            raise NotFound(f"{self.path}: no match {match_id} (matches: {ids})"
                           if match_id is not None else f"{self.path}: no match stored")
        options = tuple((str(k), v) for k, v in json.loads(row[4]))
        seats = () if row[8] is None else tuple(PlayerSpec.parse(p)
                                                 for p in json.loads(row[8]))
        try:
            spec = MatchSpec(row[1], PlayerSpec.parse(row[2]), PlayerSpec.parse(row[3]),
                             row[6], row[5], options, seats, bool(row[9]))
        except (UsageError, TypeError) as exc:  # e.g. a seed an older fuzzeval let in
            raise HistoryError(f"{self.path}: match {row[0]} cannot be read back: "
                               f"{exc}") from None
        return StoredMatch(row[0], spec, row[7], row[6])

    def game_choices(self, match_id: int, index: int) -> tuple[int, tuple[int, ...] | None]:
        """Who moved first in a stored game, and every choice made in it (None: stored
        before version 3 kept them)."""
        column = "choices" if _has_column(self.conn, "games", "choices") else "NULL"
        row = self.conn.execute(f"SELECT first, {column} FROM games WHERE match_id = ? AND "
                                "idx = ?", (match_id, index)).fetchone()
        if row is None:
            stored = sorted(self.finished(match_id))
            have = (f"games {stored[0]}–{stored[-1]}" if len(stored) > 1 else
                    f"game {stored[0]}" if stored else "no games")
            raise NotFound(f"{self.path}: match {match_id} has no game {index} stored "
                           f"({have}; games count from 0)")
        return int(row[0]), None if row[1] is None else unpack_choices(row[1])

    def game_decisions(self, match_id: int, index: int
                       ) -> list[tuple[int, int, str, str, dict[str, str | int | float]]]:
        """A stored game's logged decisions in order: seat, deal (unit), kind, choice and
        what was recorded about the decision (its context)."""
        rows = self.conn.execute(
            "SELECT seat, unit, kind, choice, context FROM decisions WHERE match_id = ? AND "
            "game_idx = ? ORDER BY seq", (match_id, index)).fetchall()
        return [(int(s), int(u), k, c, json.loads(t)) for s, u, k, c, t in rows]


@contextmanager
def open_history(path: Path | str, readonly: bool = False) -> Iterator[History]:
    history = History(path, readonly)
    try:
        yield history
    finally:
        history.close()


def _require(path: Path | str) -> Path:
    p = Path(path)
    if not p.is_file():
        raise HistoryError(f"{p}: no such history database")
    return p


def require_for_resume(path: Path) -> None:
    """--resume needs a history to resume from: say so before any file is made."""
    if not path.is_file():
        raise HistoryError(f"{path}: no such history database, so nothing to resume; run "
                           "without --resume to start")


def read_games(db: Path | str, match_id: int | None = None) -> pd.DataFrame:
    """Every stored game (optionally of one match), one row each, seat 0's view."""
    with open_history(_require(db), readonly=True) as h:
        where, args = ("WHERE match_id = ?", (match_id,)) if match_id is not None else ("", ())
        return h.table(
            f"SELECT match_id, idx AS game, first, winner, score0, score1, result, points, "
            f"units, moves FROM games {where} ORDER BY match_id, idx", args)


def read_decisions(db: Path | str, match_id: int | None = None) -> pd.DataFrame:
    """Every logged decision, one row each: context and features as their own columns.

    Columns: match_id, game, seq, seat, player, unit (the deal, for cribbage), kind, choice,
    choice_index, options, the context keys (cribbage: hand, crib, score, opponent_score),
    unit_points, unit_points_opponent, unit_won, game_won, then one column per feature.
    """
    import pandas as pd

    with open_history(_require(db), readonly=True) as h:
        where, args = ("WHERE d.match_id = ?", (match_id,)) if match_id is not None \
            else ("", ())
        raw = h.table(
            f"SELECT d.match_id, d.game_idx AS game, d.seq, d.seat, {_player(h.conn)} AS player, "
            f"d.unit, d.kind, d.choice, d.choice_index, d.options, d.context, d.features, "
            f"d.unit_points, d.unit_points_opponent, d.unit_won, d.game_won, "
            f"{_feature_set_column(h.conn, 'd.')} AS feature_set FROM decisions d JOIN "
            f"matches m ON m.id = d.match_id {where} ORDER BY d.match_id, d.game_idx, d.seq",
            args)
        decode = FeatureReader(h.conn, h.path)
        values = [decode(f, None if pd.isna(s) else int(s))  # NULLs make the column float
                  for f, s in zip(raw.pop("features"), raw.pop("feature_set"), strict=True)]
    context = pd.DataFrame([json.loads(t) for t in raw.pop("context")], index=raw.index)
    features = pd.DataFrame(values, index=raw.index)
    for col in ("unit_won", "game_won"):
        raw[col] = raw[col].astype(bool)
    at = list(raw.columns).index("options") + 1
    out: pd.DataFrame = pd.concat([raw.iloc[:, :at], context, raw.iloc[:, at:], features],
                                  axis=1)
    return out


_DECISION_COLUMNS = ("match_id, game_idx, seq, seat, player, unit, kind, choice, choice_index, "
                     "options, context, features, unit_points, unit_points_opponent, "
                     "unit_won, game_won, feature_set")


def _player(conn: sqlite3.Connection) -> str:
    """A decision's player (``d``) as SQL: its match's (``m``), by seat (version-1 rows
    wrote it out as well); from version 4, a match of named seats names each."""
    two = "CASE d.seat WHEN 0 THEN m.player ELSE m.opponent END"
    if not _has_column(conn, "matches", "seats"):  # read-only, before version 4
        return two
    return f"COALESCE(json_extract(m.seats, '$[' || d.seat || ']'), {two})"


@dataclass(frozen=True)
class FeatureReader:
    """A stored decision's features as a name -> value dict, either form: JSON text
    (version 1) or packed values with their names in ``feature_sets`` (version 2)."""

    conn: sqlite3.Connection
    path: Path
    names: dict[int, tuple[str, ...]] = field(default_factory=dict)

    def __call__(self, stored: str | bytes, feature_set: int | None) -> dict[str, float]:
        if feature_set is None or isinstance(stored, str):
            return {k: float(v) for k, v in json.loads(stored).items()}
        names = self.names.get(feature_set)
        if names is None:
            row = self.conn.execute("SELECT names FROM feature_sets WHERE id = ?",
                                    (feature_set,)).fetchone()
            if row is None:
                raise HistoryError(f"{self.path}: damaged history: feature set {feature_set} "
                                   "is missing")
            names = self.names.setdefault(feature_set, tuple(json.loads(row[0])))
        try:
            values = np.frombuffer(zlib.decompress(stored), dtype="<f8")
        except zlib.error as exc:
            raise HistoryError(f"{self.path}: damaged history: a decision's features do "
                               f"not read ({exc})") from None
        if len(values) != len(names):
            raise HistoryError(f"{self.path}: damaged history: a decision has {len(values)} "
                               f"feature values for {len(names)} names")
        return dict(zip(names, values.tolist(), strict=True))


def _has_column(conn: sqlite3.Connection, table: str, column: str) -> bool:
    return any(r[1] == column for r in conn.execute(f"PRAGMA table_info({table})"))


def _feature_set_column(conn: sqlite3.Connection, prefix: str = "") -> str:
    """The decisions' feature-set column, or NULL in a version-1 history opened read-only
    (where it was never added)."""
    return f"{prefix}feature_set" if _has_column(conn, "decisions", "feature_set") else "NULL"


def resumable(history: History, game: Game, spec: MatchSpec) -> StoredMatch | None:
    """The latest stored match of a spec whose players still read what they read then
    (rule bases, tables, the default rule base), or None: then a new match must start."""
    stored = history.find_match(spec)
    if stored is None or stored.fingerprint not in (None, fingerprint(spec, game)):
        return None
    return stored


def stored_games(history: History, game: Game, spec: MatchSpec) -> int:
    """How many of a spec's games a resume would not play again, for progress to count."""
    stored = resumable(history, game, spec)
    return 0 if stored is None else sum(1 for i in history.finished(stored.id)
                                        if i < spec.games)


#: the longest a game finished by a worker waits for its commit (several go in one)
COMMIT_SECONDS = 0.5


def _claim(history: History, game: Game, spec: MatchSpec, prints: str,
           resume: bool) -> StoredMatch:
    """The stored match to continue (made longer if asked), or a new one."""
    match = history.find_match(spec)
    if match is not None and match.fingerprint not in (None, prints):
        if resume:
            raise HistoryError(
                f"{history.path}: a file a player reads (a rule base or a table) has changed "
                f"since match {match.id} was stored, so its games are another player's; run "
                "without --resume to start a new match")
        match = None  # another player's games: a match of its own
    if resume and match is None:
        raise HistoryError(
            f"{history.path}: no match to resume with game {spec.game}, player "
            f"{spec.player}, opponent {spec.opponent}, options {dict(spec.options)}, seed "
            f"{spec.seed}; run without --resume to start one")
    if match is None:
        match = history.create_match(spec, game.unit_name, prints)
    else:
        match = history.extend_match(match, spec.games)
    return match


def run_match(history: History, game: Game, spec: MatchSpec, executor: Executor | None = None,
              resume: bool = False,
              on_game: Callable[[GameRows], None] | None = None) -> tuple[StoredMatch, int]:
    """Play a match into the history, each game committed as it finishes.

    A match is stored once: when the history already holds one with the same game, players
    (and the files they read), options and seed, this continues it, playing only the games
    it lacks (none when it is complete: then it plays nothing), so running the same match
    twice neither repeats nor mixes games. Otherwise a new match starts; with ``resume`` that
    is an error instead. Returns the stored match and how many games were already there.
    A spec of another game than ``game``, or a player or option that cannot be built, is
    refused before the history is touched.
    """
    check_players(game, spec)
    prints = fingerprint(spec, game)
    with history.conn:  # find, then create or extend, under one write lock: two processes
        history.conn.execute("BEGIN IMMEDIATE")  # started at once never both create it
        match = _claim(history, game, spec, prints, resume)
    with history.playing(match):
        done = history.finished(match.id)
        todo = (i for i in range(spec.games) if i not in done)
        count = spec.games - sum(1 for i in done if i < spec.games)
        game.prepare()  # once here: forked workers inherit the tables
        # Workers encode their games; here they are only inserted, several in one short
        # transaction at most COMMIT_SECONDS after the first of them arrived (and at any
        # stop), so another process waiting to write is never starved. Played here, each
        # game is committed as it ends.
        encode = partial(encode_game, payoff=game.payoff)
        every = COMMIT_SECONDS if executor is not None else 0.0
        waiting: list[GameRows] = []
        since = time.monotonic()

        def flush() -> None:
            known: dict[tuple[str, ...], int] = {}
            with history.conn:
                for rows in waiting:
                    history.insert_game(match, rows, known)
            waiting.clear()

        try:
            for rows in run_finished(game, spec, todo, encode, executor, count=count):
                if not waiting:
                    since = time.monotonic()
                waiting.append(rows)
                if time.monotonic() - since >= every:
                    flush()
                if on_game is not None:
                    on_game(rows)
        finally:
            # A stop can fall between a batch's commit and its clearing: store only the
            # games the database lacks, so none goes in twice.
            if waiting:
                stored = history.finished(match.id)
                waiting[:] = [rows for rows in waiting if rows.index not in stored]
                flush()
    return match, len(done)


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
