"""A finished game as the rows the history stores, encoded where it was played.

A worker process encodes its games (JSON, packed features, which decisions won) and sends
back plain tuples and bytes: cheap to pickle, and the parent, the history's one writer,
only inserts them. The columns are those of the ``games`` and ``decisions`` tables
(their DDL is in ``fuzzeval.play.history_schema``), without the match id, which only the
parent knows.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass

import numpy as np

from fuzzeval.play.game import WIN_POINTS, Payoff
from fuzzeval.play.match import GameRecord

#: a stored value: what SQLite keeps in a column
Value = str | int | float | bytes | None


@dataclass(frozen=True)
class GameRows:
    """One game's rows: ``game`` (the ``games`` columns after ``match_id``, from ``idx``)
    and ``decisions`` (the ``decisions`` columns after ``match_id``, from ``game_idx``),
    whose last column is an index into ``names`` (the feature-name sets used) or None."""

    index: int
    game: tuple[Value, ...]
    decisions: tuple[tuple[Value, ...], ...]
    names: tuple[tuple[str, ...], ...]


def pack_choices(choices: tuple[int, ...]) -> str:
    """A game's choices as stored: decimal indices, comma-separated (readable in sqlite3)."""
    return ",".join(map(str, choices))


def unpack_choices(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in text.split(",")) if text else ()


def pack_values(values: list[float]) -> bytes:
    """Feature values as stored: float64, exact, compressed (integers and zeros shrink)."""
    return zlib.compress(np.asarray(values, dtype="<f8").tobytes())


def encode_game(record: GameRecord, payoff: Payoff = WIN_POINTS) -> GameRows:
    """The rows of one game; ``payoff`` (the game's) says which way is better, for the
    decisions' won deals and games."""
    o = record.outcome
    game = (record.index, record.first, -1 if o.winner is None else o.winner, o.scores[0],
            o.scores[1], o.result, o.points, o.units, record.moves, json.dumps(o.unit_points),
            json.dumps({k: list(v) for k, v in o.stats.items()}),
            pack_choices(record.choices) if record.choices else None,
            json.dumps(o.scores), json.dumps(o.payoffs))
    sets: dict[tuple[str, ...], int] = {}
    rows = []
    for seq, d in enumerate(record.decisions):
        known = d.unit < len(o.unit_points)
        points = o.unit_points[d.unit] if known else (0,) * o.seats
        # with more than two seats, the other seats' points together
        own, others = points[d.seat], sum(points) - points[d.seat]
        names = tuple(d.features)
        features: str | bytes = "{}"
        feature_set = None
        if names:
            feature_set = sets.setdefault(names, len(sets))
            features = pack_values(list(d.features.values()))
        rows.append((record.index, seq, d.seat, "", d.unit, d.kind, d.choice, d.index,
                     d.n_options, json.dumps(dict(d.record)), features, own, others,
                     int(known and o.unit_did_well(d.unit, d.seat, payoff)),
                     int(o.did_well(d.seat, payoff)), feature_set))
    return GameRows(record.index, game, tuple(rows), tuple(sets))
