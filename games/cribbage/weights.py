"""How likely the opponent is to throw each pair of cards: ``uniform`` (every pair alike)
or ``expert`` (the frequencies with which the exhaustive player itself throws each rank
pair, suited or not, iterated to a fixed point as Cribbage Discard Pro describes).

Weights are per *card pair* of a type (rank, rank, suited), so that over a random deck
the weighted share of each type equals its observed throw frequency.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Literal

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
Weighting = Literal["uniform", "expert"]
DATA_FILE = "opponent_throws.json"


def pair_type_counts() -> FloatArray:
    """Card pairs of each type in a full deck: [r1, r2, suited] (r1 <= r2)."""
    counts = np.zeros((13, 13, 2))
    for r1 in range(13):
        counts[r1, r1, 0] = 6  # C(4, 2) pairs of one rank, never suited
        for r2 in range(r1 + 1, 13):
            counts[r1, r2, 1] = counts[r2, r1, 1] = 4
            counts[r1, r2, 0] = counts[r2, r1, 0] = 12
    return counts


def weights_from_frequencies(freq: FloatArray) -> FloatArray:
    """Per-pair weights from type frequencies [r1, r2, suited] (symmetric in r1, r2)."""
    counts = pair_type_counts()
    w = np.divide(freq, counts, out=np.zeros_like(freq), where=counts > 0)
    out: FloatArray = w / w[counts > 0].mean()
    return out


@cache
def _expert() -> dict[str, FloatArray]:
    text = resources.files(__package__).joinpath("data", DATA_FILE).read_text()
    data = json.loads(text)
    out = {}
    for thrower in ("dealer", "pone"):
        freq = np.zeros((13, 13, 2))
        for r1, r2, suited, f in data[thrower]:
            freq[r1, r2, suited] = freq[r2, r1, suited] = f
        w = weights_from_frequencies(freq)
        w.flags.writeable = False
        out[thrower] = w
    return out


def opponent_weights(weighting: Weighting, my_crib: bool) -> FloatArray:
    """Weights of the opponent's throw: to my crib the opponent throws as pone."""
    if weighting == "uniform":
        return np.ones((13, 13, 2))
    if weighting != "expert":
        raise ValueError(f"weights must be 'uniform' or 'expert' (got {weighting!r})")
    return _expert()["pone" if my_crib else "dealer"]
