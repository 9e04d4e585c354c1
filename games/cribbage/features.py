"""Crisp features of the 15 possible discards of six-card hands, for the fuzzy player.

One call computes every feature of every throw of many hands at once. Their names are
the input variable names a discard rule base may use (``FEATURES``: name, range, meaning).
Everything is exact arithmetic over the 46 possible starters, except ``crib_value``, which
is a 13 x 13 table of average cribs per thrown rank pair (the kind of table players learn,
e.g. Schell's), computed once: the fuzzy player never enumerates the opponent's throws.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from games.cribbage.cards import JACK
from games.cribbage.discard import KEEPS, THROWS
from games.cribbage.scoring import rank_parts, rank_table

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]
CRIB_TABLE_FILE = "crib_pair_values.json"


@dataclass(frozen=True)
class Feature:
    name: str
    lo: float
    hi: float
    meaning: str


FEATURES: tuple[Feature, ...] = (
    Feature("hand_value", 0, 29,
            "expected points of the kept four with the starter, exact over the 46 possible "
            "starters (fifteens, pairs, runs, flush, nobs)"),
    Feature("crib_value", 3, 9,
            "average crib made by the two thrown ranks when the other two crib cards and the "
            "starter are random (13 x 13 table; 5-5 is 8.99, K-T 3.42)"),
    Feature("crib_ownership", 0, 1, "1 when the crib is mine (I deal), 0 when it is theirs"),
    Feature("fives_kept", 0, 4, "fives among the kept four"),
    Feature("run_potential", 0, 1,
            "share of the 46 starters with which the kept four and the starter hold a run"),
    Feature("kept_points", 0, 20,
            "points already in the kept four without a starter (fifteens, pairs, runs, "
            "four-card flush)"),
    Feature("flush_potential", 0, 5,
            "expected flush points of the kept four (4 when suited, plus the chance the "
            "starter matches)"),
    Feature("nobs_chance", 0, 1,
            "chance of nobs: the share of starters matching the suit of a kept jack"),
    Feature("fives_thrown", 0, 2, "fives among the two thrown cards"),
    Feature("pair_thrown", 0, 1, "1 when the two thrown cards are a pair"),
    Feature("fifteen_thrown", 0, 1, "1 when the two thrown cards make fifteen"),
    Feature("touching_thrown", 0, 1, "1 when the two thrown ranks are next to each other"),
)
FEATURE_NAMES: tuple[str, ...] = tuple(f.name for f in FEATURES)

_KEEP = np.array(KEEPS, dtype=np.intp)  # (15, 4)
_THROW = np.array(THROWS, dtype=np.intp)  # (15, 2)
_RANKS = np.arange(13)
_SUITS = np.arange(4)


@cache
def _four_card_tables() -> tuple[FloatArray, FloatArray, npt.NDArray[np.int64]]:
    """Per ordered 4-tuple of ranks (13^4 rows): the rank-only points with each starter rank
    (13 columns), whether each starter rank makes a run, and the points of the four alone."""
    five = rank_table().reshape(13**4, 13).astype(np.float64)
    ranks5 = np.indices((13,) * 5).reshape(5, -1).T
    runs5 = (rank_parts(ranks5)[2] > 0).reshape(13**4, 13).astype(np.float64)
    ranks4 = np.indices((13,) * 4).reshape(4, -1).T
    alone = sum(rank_parts(ranks4))
    for t in (five, runs5):
        t.flags.writeable = False
    return five, runs5, np.asarray(alone)


def crib_pair_table() -> FloatArray:
    """Average crib per thrown rank pair (13 x 13), uniform throws by the other side."""
    return _crib_pair_table()


@cache
def _crib_pair_table() -> FloatArray:
    text = resources.files("games.cribbage").joinpath("data", CRIB_TABLE_FILE).read_text()
    table = np.array(json.loads(text)["average_crib"], dtype=np.float64)
    table.flags.writeable = False
    return table


class _Throws:
    """The 15 throws of n hands; each feature (and what it needs) computed on first use."""

    def __init__(self, hands: npt.ArrayLike, my_crib: npt.ArrayLike) -> None:
        h = np.asarray(hands, dtype=np.intp).reshape(-1, 6)
        self.n = h.shape[0]
        self.mine = np.broadcast_to(np.asarray(my_crib, dtype=bool), (self.n,))
        self.ranks, self.suits = h // 4, h % 4
        self.kr = self.ranks[:, _KEEP]  # (n, 15, 4) kept ranks
        self.tr = self.ranks[:, _THROW]  # (n, 15, 2) thrown ranks

    @cached_property
    def suit_left(self) -> IntArray:
        out: IntArray = 13 - (self.suits[:, :, None] == _SUITS).sum(axis=1)  # (n, 4)
        return out

    @cached_property
    def ks(self) -> IntArray:
        out: IntArray = self.suits[:, _KEEP]
        return out

    @cached_property
    def suited(self) -> npt.NDArray[np.bool_]:
        return (self.ks == self.ks[..., :1]).all(axis=2)  # type: ignore[no-any-return]

    @cached_property
    def idx4(self) -> IntArray:
        kr = self.kr
        out: IntArray = ((kr[..., 0] * 13 + kr[..., 1]) * 13 + kr[..., 2]) * 13 + kr[..., 3]
        return out

    @cached_property
    def starter_rank_chance(self) -> FloatArray:
        left = 4 - (self.ranks[:, :, None] == _RANKS).sum(axis=1)  # (n, 13) unseen per rank
        out: FloatArray = left[:, None, :] / 46.0
        return out

    def hand_value(self) -> FloatArray:
        five = _four_card_tables()[0]
        ranks_only = (five[self.idx4] * self.starter_rank_chance).sum(axis=2)
        out: FloatArray = ranks_only + self.flush_potential() + self.nobs_chance()
        return out

    def crib_value(self) -> FloatArray:
        out: FloatArray = crib_pair_table()[self.tr[..., 0], self.tr[..., 1]]
        return out

    def crib_ownership(self) -> FloatArray:
        return np.broadcast_to(self.mine[:, None], (self.n, 15)).astype(np.float64)

    def fives_kept(self) -> IntArray:
        return (self.kr == 4).sum(axis=2)  # type: ignore[no-any-return]

    def run_potential(self) -> FloatArray:
        runs5 = _four_card_tables()[1]
        return (runs5[self.idx4] * self.starter_rank_chance).sum(axis=2)  # type: ignore[no-any-return]

    def kept_points(self) -> IntArray:
        alone = _four_card_tables()[2]
        return alone[self.idx4] + np.where(self.suited, 4, 0)

    @cache  # noqa: B019 (one object per call of discard_features)
    def flush_potential(self) -> FloatArray:
        same_suit_left = self.suit_left[np.arange(self.n)[:, None], self.ks[..., 0]]
        return np.where(self.suited, 4 + same_suit_left / 46.0, 0.0)

    @cache  # noqa: B019
    def nobs_chance(self) -> FloatArray:
        jack_suit_left = self.suit_left[np.arange(self.n)[:, None, None], self.ks]
        return ((self.kr == JACK) * jack_suit_left).sum(axis=2) / 46.0  # type: ignore[no-any-return]

    def fives_thrown(self) -> IntArray:
        return (self.tr == 4).sum(axis=2)  # type: ignore[no-any-return]

    def pair_thrown(self) -> npt.NDArray[np.bool_]:
        return self.tr[..., 0] == self.tr[..., 1]  # type: ignore[no-any-return]

    def fifteen_thrown(self) -> npt.NDArray[np.bool_]:
        return np.minimum(self.tr + 1, 10).sum(axis=2) == 15  # type: ignore[no-any-return]

    def touching_thrown(self) -> npt.NDArray[np.bool_]:
        return np.abs(self.tr[..., 0] - self.tr[..., 1]) == 1  # type: ignore[no-any-return]


def discard_features(hands: npt.ArrayLike, my_crib: npt.ArrayLike,
                     names: tuple[str, ...] = FEATURE_NAMES) -> FloatArray:
    """Features of every throw: hands (n, 6) sorted card ids, my_crib (n,) -> (n, 15, k)
    in THROWS order, one column per name (default: all, in FEATURE_NAMES order)."""
    unknown = [name for name in names if name not in FEATURE_NAMES]
    if unknown:
        raise ValueError(f"unknown cribbage discard features {unknown} "
                         f"(features: {', '.join(FEATURE_NAMES)})")
    throws = _Throws(hands, my_crib)
    out = np.empty((throws.n, 15, len(names)))
    for j, name in enumerate(names):
        out[:, :, j] = getattr(throws, name)()
    return out


def write_crib_table(path: Path | None = None) -> Path:
    """Recompute the shipped crib table (``python -m games.cribbage.features``)."""
    from games.cribbage.expert_weights import crib_averages

    out = path or Path(__file__).resolve().parent / "data" / CRIB_TABLE_FILE
    table = crib_averages(np.ones((13, 13, 2)))
    doc = {
        "about": "Average crib (points) when one side throws ranks [r1][r2] (A=0 .. K=12) and "
                 "the other two crib cards and the starter come uniformly from the other 50 "
                 "cards; suited and unsuited throws in their natural 1:3 mix. Made by "
                 "python -m games.cribbage.features.",
        "average_crib": [[round(float(v), 6) for v in row] for row in table],
    }
    out.write_text(json.dumps(doc, indent=1) + "\n")
    return out


if __name__ == "__main__":
    print(write_crib_table())
