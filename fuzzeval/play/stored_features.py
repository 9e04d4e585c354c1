"""A stored decision's features: JSON text (history version 1) or packed float64 values
with their names stored once in ``feature_sets`` (version 2 on, about a fifteenth of the
text, and exact, so a calibration read back is the one played)."""

from __future__ import annotations

import json
import sqlite3
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from fuzzeval.play.history import HistoryError
from fuzzeval.play.history_schema import has_column


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

def feature_set_column(conn: sqlite3.Connection, prefix: str = "") -> str:
    """The decisions' feature-set column, or NULL in a version-1 history opened read-only
    (where it was never added)."""
    return f"{prefix}feature_set" if has_column(conn, "decisions", "feature_set") else "NULL"
