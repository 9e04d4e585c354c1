"""Matches in the history database: the ``matches``, ``games`` and ``decisions`` tables and
their queries (``History``). A match is found from its spec (``History.find_match``) and
played into them as a kind of stored run (``fuzzeval.play.match_runs``). A decision's
features are stored as packed values (``fuzzeval.play.stored_features``); every choice of a
game is kept, so the game replays (``fuzzeval history show``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fuzzeval.errors import NotFound, UsageError
from fuzzeval.play.game import WIN_POINTS, Outcome, Payoff
from fuzzeval.play.history import HistoryError, HistoryFile, NoSuchRun, require
from fuzzeval.play.history_schema import has_column
from fuzzeval.play.match import (
    GameRecord,
    MatchSpec,
)
from fuzzeval.play.rows import GameRows, encode_game, unpack_choices
from fuzzeval.play.stored_features import FeatureReader, feature_set_column

if TYPE_CHECKING:  # pandas is imported where a table is read: a match needs none
    import pandas as pd


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


class History(HistoryFile):
    """An open history database with its matches (see ``HistoryFile`` for how it is
    opened, checked and locked)."""

    def find_match(self, spec: MatchSpec) -> StoredMatch | None:
        """The latest match with this game, these players, options and seed (any length)."""
        seated = ("AND COALESCE(seats, '') = ? AND duplicate = ? "
                  if has_column(self.conn, "matches", "seats") else "AND '' = ? AND 0 = ? ")
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

    def match_of(self, match_id: int, spec: MatchSpec) -> StoredMatch:
        """A match found or started for ``spec`` (``MATCHES``), by its id, as
        ``find_match`` gives it."""
        row = self.conn.execute("SELECT id, games, unit_name, fingerprint FROM matches "
                                "WHERE id = ?", (match_id,)).fetchone()
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
    def matches(self) -> pd.DataFrame:
        """Every match with how many of its games are stored."""
        return self.table(
            "SELECT m.id, m.game, m.player, m.opponent, m.options, m.seed, m.games, "
            "COUNT(g.idx) AS finished, m.created FROM matches m "
            "LEFT JOIN games g ON g.match_id = m.id GROUP BY m.id ORDER BY m.id")
    def games_stored(self) -> int:
        """Every stored game, of every match: what a stopped run of several has saved."""
        return int(self.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])

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
            f"SELECT features, {feature_set_column(self.conn)} FROM decisions WHERE "
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
        seated = "scores, payoffs" if has_column(self.conn, "games", "payoffs") else \
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

        if not has_column(self.conn, "matches", "id"):  # an empty or foreign database
            raise NotFound(f"{self.path}: no match stored (not a fuzzeval history)")
        seated = "seats, duplicate" if has_column(self.conn, "matches", "seats") else \
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
            if match_id is None:
                raise NotFound(f"{self.path}: no match stored")
            ids = [r[0] for r in self.conn.execute("SELECT id FROM matches ORDER BY id")]
            raise NoSuchRun.listing(self.path, "match", match_id, ids)
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
        column = "choices" if has_column(self.conn, "games", "choices") else "NULL"
        row = self.conn.execute(f"SELECT first, {column} FROM games WHERE match_id = ? AND "
                                "idx = ?", (match_id, index)).fetchone()
        if row is None:
            stored = sorted(self.finished(match_id))
            have = (f"games {stored[0]}–{stored[-1]}" if len(stored) > 1 else
                    f"game {stored[0]}" if stored else "no games")
            raise NotFound(f"{self.path}: match {match_id} has no game {index} stored "
                           f"({have}; games count from 0)")
        return int(row[0]), None if row[1] is None else unpack_choices(row[1])

    def decisions_by(self, player: str, kind: str, first: int
                     ) -> list[tuple[int, int, str, bool, dict[str, str | int | float]]]:
        """Every match's decisions of ``kind`` made by the player named ``player`` (with
        any options, ``player:key=value``) among the first ``first`` of each game: match
        id, game, choice, whether that game was won, and the decision's context. The
        player is found by seat, named seats included (a board selector's record)."""
        who = _player(self.conn)
        rows = self.conn.execute(
            "SELECT d.match_id, d.game_idx, d.choice, d.game_won, d.context FROM decisions d "
            f"JOIN matches m ON m.id = d.match_id WHERE d.kind = ? AND d.seq < ? AND "
            f"({who} = ? OR {who} LIKE ?) ORDER BY d.match_id, d.game_idx, d.seq",
            (kind, first, player, f"{player}:%")).fetchall()
        return [(int(m), int(g), c, bool(w), json.loads(t)) for m, g, c, w, t in rows]

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

def read_games(db: Path | str, match_id: int | None = None) -> pd.DataFrame:
    """Every stored game (optionally of one match), one row each, seat 0's view."""
    with open_history(require(db), readonly=True) as h:
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

    with open_history(require(db), readonly=True) as h:
        where, args = ("WHERE d.match_id = ?", (match_id,)) if match_id is not None \
            else ("", ())
        raw = h.table(
            f"SELECT d.match_id, d.game_idx AS game, d.seq, d.seat, {_player(h.conn)} AS player, "
            f"d.unit, d.kind, d.choice, d.choice_index, d.options, d.context, d.features, "
            f"d.unit_points, d.unit_points_opponent, d.unit_won, d.game_won, "
            f"{feature_set_column(h.conn, 'd.')} AS feature_set FROM decisions d JOIN "
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
    if not has_column(conn, "matches", "seats"):  # read-only, before version 4
        return two
    return f"COALESCE(json_extract(m.seats, '$[' || d.seat || ']'), {two})"
