"""The fuzzy player's advice tables for many hands: each hand's 15 throws best first, with
the grade and the inputs it was graded from, rounded to 6 decimals.

``rows`` gives them as dicts (``advice_many``'s "table"); ``json`` writes the same tables
as JSON text straight from the arrays, the bytes ``json.dumps`` writes of the dicts. It is
the cost of a ``--batch``: 1,000 hands hold 195,000 numbers, which ``json.dumps`` spells
one by one with ``repr``, where they are some 5,000 different numbers spelt once here.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
#: per hand, (thrown, kept) as card names for the 15 throws, in THROWS order
Labels = Sequence[Sequence[tuple[str, str]]]


@dataclass(frozen=True)
class GradeTable:
    """``values``: (hands, 15, columns) in THROWS order, rounded to 6 decimals;
    ``orders``: (hands, 15) each hand's throws, best grade first (ties in THROWS order)."""

    columns: tuple[str, ...]  # "grade", then the rule base's inputs
    values: FloatArray
    orders: IntArray

    @classmethod
    def of(cls, grades: FloatArray, inputs: FloatArray, names: Sequence[str]) -> GradeTable:
        """From grades (hands, 15) and the inputs they were graded from (hands, 15, names)."""
        joined: FloatArray = np.concatenate((grades[:, :, None], inputs), axis=2)
        values: FloatArray = joined.round(6)
        return cls(("grade", *names), values, np.argsort(-grades, axis=1, kind="stable"))

    @property
    def choices(self) -> list[int]:
        """Each hand's best throw, an index in THROWS."""
        choices: list[int] = self.orders[:, 0].tolist()
        return choices

    def rows(self, labels: Labels) -> list[list[dict[str, Any]]]:
        """Each hand's table as dicts, best first: discard, keep, then the columns."""
        keys = ("discard", "keep", *self.columns)
        return [[dict(zip(keys, (*lab[t], *vals[t]), strict=True)) for t in order]
                for lab, vals, order in zip(labels, self.values.tolist(),
                                            self.orders.tolist(), strict=True)]

    def json(self, labels: Labels) -> list[str] | None:
        """Each hand's ``rows`` as ``json.dumps`` writes them, without the list's brackets;
        None when a value is not finite (JSON has no number for it).

        A number is spelt by ``repr``, as ``json.dumps`` does, once for each bit pattern
        (so 0.0 and -0.0 stay apart); card names need no escapes, so they are quoted as
        they are.
        """
        if not np.isfinite(self.values).all():
            return None
        hands, throws, width = self.values.shape
        bits = self.values.view(np.int64)
        numbers = np.unique(bits)
        texts = [repr(v) for v in numbers.view(np.float64).tolist()]
        texts += [f'"{name}"' for hand in labels for pair in hand for name in pair]
        cells = np.empty((hands, throws, 2 + width), dtype=np.intp)  # indices into texts
        cells[:, :, :2] = len(numbers) + np.arange(hands * throws * 2).reshape(hands, throws, 2)
        cells[:, :, 2:] = np.searchsorted(numbers, bits)
        cells = np.take_along_axis(cells, self.orders[:, :, None], axis=1)
        keys = [json.dumps(k).replace("%", "%%") for k in ("discard", "keep", *self.columns)]
        row = "{" + ", ".join(f"{k}: %s" for k in keys) + "}"
        table = ", ".join([row] * throws)
        words = np.array(texts, dtype=object)[cells.reshape(hands, -1)].tolist()
        return [table % tuple(w) for w in words]
