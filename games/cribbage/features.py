"""Crisp features of the 15 possible discards of six-card hands, for the fuzzy player.

One call computes every feature of every throw of many hands at once. Their names are
the input variable names a discard rule base may use (``FEATURES``: name, range, meaning).

Most are what a player judges at the table by looking at the cards: points already held,
fives and ten-cards kept, how many starter ranks would make a fifteen or a run, what the
two thrown cards are like. Two are not (``EXPECTATIONS``): ``hand_value``, the exact
expected hand over the 46 starters, and ``crib_value``, a 13 x 13 table of averaged
cribs. They serve the expected-points rule base, the upper reference; the linguistic
base reads none of them.
"""

from __future__ import annotations

import json
from functools import cache, cached_property
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from fuzzeval.games.cribbage.cards import JACK
from fuzzeval.games.cribbage.discard import KEEPS, THROWS
from fuzzeval.games.cribbage.scoring import rank_parts, rank_table
from fuzzeval.play.game import Feature

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]
CRIB_TABLE_FILE = "crib_pair_values.json"


FEATURES: tuple[Feature, ...] = (
    Feature("hand_value", 0, 29,
            "expected points of the kept four with the starter, exact over the 46 possible "
            "starters (fifteens, pairs, runs, flush, nobs)"),
    Feature("crib_value", 3, 9,
            "average crib made by the two thrown ranks when the other two crib cards and the "
            "starter are random (13 x 13 table; 5-5 is 8.99, K-T 3.42)"),
    Feature("crib_ownership", 0, 1, "1 when the crib is mine (I deal), 0 when it is theirs"),
    Feature("fives_kept", 0, 4, "fives among the kept four"),
    Feature("run_potential", 0, 13,
            "starter ranks (of 13) that make a run with the kept four or extend or double "
            "one (more run points with that starter)"),
    Feature("fifteen_potential", 0, 13,
            "starter ranks (of 13) that make at least one new fifteen with the kept four"),
    Feature("kept_points", 0, 20,
            "points already in the kept four without a starter (fifteens, pairs, runs, "
            "four-card flush)"),
    Feature("fifteens_kept", 0, 4, "fifteens among the kept four (each worth 2)"),
    Feature("pairs_kept", 0, 6, "pairs among the kept four (a three of a kind is 3 pairs)"),
    Feature("run_kept", 0, 6, "run points in the kept four (3, 4, or 6 for a double run)"),
    Feature("ten_cards_kept", 0, 4, "tens and picture cards among the kept four"),
    Feature("flush_potential", 0, 5,
            "expected flush points of the kept four (4 when suited, plus the chance the "
            "starter matches)"),
    Feature("nobs_chance", 0, 1,
            "chance of nobs: the share of starters matching the suit of a kept jack"),
    Feature("fives_thrown", 0, 2, "fives among the two thrown cards"),
    Feature("pair_thrown", 0, 1, "1 when the two thrown cards are a pair"),
    Feature("fifteen_thrown", 0, 1, "1 when the two thrown cards make fifteen"),
    Feature("touching_thrown", 0, 1, "1 when the two thrown ranks are next to each other"),
    Feature("thrown_gap", 0, 12,
            "how far apart the two thrown ranks are (0 a pair, 1 touching, K-A 12)"),
    Feature("ten_cards_thrown", 0, 2, "tens and picture cards among the two thrown cards"),
)
#: features that are expectations over starters or averaged tables, not table-side judgement
EXPECTATIONS: tuple[str, ...] = ("hand_value", "crib_value")
FEATURE_NAMES: tuple[str, ...] = tuple(f.name for f in FEATURES)

_KEEP = np.array(KEEPS, dtype=np.intp)  # (15, 4)
_THROW = np.array(THROWS, dtype=np.intp)  # (15, 2)
_RANKS = np.arange(13)
_POW4 = 13 ** np.arange(3, -1, -1)  # kept ranks -> row of the 13^4 tables
_THROW_MASK = np.zeros((6, 15))  # card i is thrown in throw t
for _t, _thrown in enumerate(THROWS):
    _THROW_MASK[list(_thrown), _t] = 1.0
_KEEP_MASK = 1.0 - _THROW_MASK
_POW4_SUITS = 4 ** np.arange(3, -1, -1)
# Four suits written as one base-4 number -> whether they are all the same suit.
_ONE_SUIT = np.array([len({(c >> k) & 3 for k in (0, 2, 4, 6)}) == 1 for c in range(256)])


#: columns of the four-card parts: the four alone (fifteens, pairs, run points), then the
#: starter ranks (of 13) that make a new fifteen, and those that add run points
FIFTEENS, PAIRS, RUNS, FIFTEEN_STARTERS, RUN_STARTERS = range(5)
_ASCENDING = 1820  # ascending 4-tuples of 13 ranks: C(16, 4)
_counted_alone = 0  # rows counted one query at a time in this process, before the table


def _four_card_parts(kept: IntArray) -> FloatArray:
    """The five parts (m, 5) of rank 4-tuples ``kept`` (m, 4), counted by ``rank_parts``
    for the four and for the four with each of the 13 starter ranks."""
    f4, p4, r4 = rank_parts(kept)
    with_starter = np.concatenate([np.repeat(kept, 13, axis=0),
                                   np.tile(_RANKS, len(kept))[:, None]], axis=1)
    f5, _, r5 = (p.reshape(-1, 13) for p in rank_parts(with_starter))
    return np.stack([f4 / 2, p4 / 2, r4, (f5 > f4[:, None]).sum(axis=1),
                     (r5 > r4[:, None]).sum(axis=1)], axis=1).astype(np.float64)


@cache
def _four_card_table() -> FloatArray:
    """The parts of every ordered 4-tuple of ranks (13^4, 5; row ``ranks @ 13^[3,2,1,0]``),
    counted once for each ascending tuple (1,820, and 13 starters each), which every
    ordering of it reads: some 15 ms, where counting all 13^4 orderings and their 13^5
    five-card tuples took a second, which a command advising one hand paid."""
    ranks4 = np.indices((13,) * 4).reshape(4, -1).T  # every ordered tuple, row = its index
    ascending = ranks4[(np.diff(ranks4, axis=1) >= 0).all(axis=1)]  # (1820, 4), row order
    row = np.zeros(13**4, dtype=np.intp)  # ascending tuple -> its row in ``ascending``
    row[ascending @ _POW4] = np.arange(len(ascending))
    out: FloatArray = _four_card_parts(ascending)[row[np.sort(ranks4, axis=1) @ _POW4]]
    out.flags.writeable = False
    return out


def _kept_parts(index: IntArray) -> FloatArray:
    """The parts (..., 5) of the 4-tuples at rows ``index`` of the table. A process counts
    its first few tuples on their own (one hand: 15, well under a millisecond) and builds
    the table once it would have counted as many as the table holds."""
    global _counted_alone
    if _four_card_table.cache_info().currsize == 0 \
            and _counted_alone + index.size <= _ASCENDING:
        _counted_alone += index.size
        codes, where = np.unique(index, return_inverse=True)
        parts = _four_card_parts(codes[:, None] // _POW4 % 13)
        return parts[where.reshape(index.shape)]
    return _four_card_table()[index]


@cache
def _five_table() -> FloatArray:
    """Rank-only points of each ordered 4-tuple with each starter rank (13^4, 13): only
    ``hand_value`` reads it."""
    out: FloatArray = rank_table().reshape(13**4, 13).astype(np.float64)
    out.flags.writeable = False
    return out


def crib_pair_table() -> FloatArray:
    """Average crib per thrown rank pair (13 x 13), uniform throws by the other side."""
    return _crib_pair_table()


@cache
def _crib_pair_table() -> FloatArray:
    text = resources.files(__package__).joinpath("data", CRIB_TABLE_FILE).read_text()
    table = np.array(json.loads(text)["average_crib"], dtype=np.float64)
    table.flags.writeable = False
    return table


class _Throws:
    """The 15 throws of n hands; each feature (and what it needs) computed on first use.

    Per-card quantities (n, 6) become per-throw sums with one product by the 0/1 matrices
    KEEP_MASK and THROW_MASK (6, 15): few numpy calls, so one hand is cheap as well.
    """

    def __init__(self, hands: npt.ArrayLike, my_crib: npt.ArrayLike) -> None:
        h = np.asarray(hands, dtype=np.intp).reshape(-1, 6)
        self.n = h.shape[0]
        self.mine = np.asarray(my_crib, dtype=np.float64).reshape(-1)
        self.ranks, self.suits = h // 4, h % 4

    @cached_property
    def kr(self) -> IntArray:
        out: IntArray = self.ranks[:, _KEEP]  # (n, 15, 4) kept ranks
        return out

    @cached_property
    def tr(self) -> IntArray:
        out: IntArray = self.ranks[:, _THROW]  # (n, 15, 2) thrown ranks
        return out

    @cached_property
    def suit_left(self) -> FloatArray:
        """Per card: unseen cards of its suit (n, 6)."""
        same = (self.suits[:, :, None] == self.suits[:, None, :]).sum(axis=2)
        out: FloatArray = 13.0 - same
        return out

    @cached_property
    def suited_left(self) -> FloatArray:
        """Per throw: unseen cards of the kept four's suit when all four share it, else -1."""
        suited = _ONE_SUIT[self.suits[:, _KEEP] @ _POW4_SUITS]  # (n, 15)
        out: FloatArray = np.where(suited, self.suit_left[:, _KEEP[:, 0]], -1.0)
        return out

    @cached_property
    def kept_index(self) -> IntArray:
        out: IntArray = self.kr @ _POW4  # (n, 15) rows of the four-card tables
        return out

    def hand_value(self) -> FloatArray:
        five = _five_table()
        left = 4.0 - (self.ranks[:, :, None] == _RANKS).sum(axis=1)  # (n, 13) unseen per rank
        ranks_only = five[self.kept_index] @ (left[:, :, None] / 46.0)  # (n, 15, 1)
        out: FloatArray = ranks_only[..., 0] + self.flush_potential() + self.nobs_chance()
        return out

    def crib_value(self) -> FloatArray:
        out: FloatArray = crib_pair_table()[self.tr[..., 0], self.tr[..., 1]]
        return out

    def crib_ownership(self) -> FloatArray:
        return np.repeat(self.mine[:, None], 15, axis=1)

    def fives_kept(self) -> FloatArray:
        return (self.ranks == 4) @ _KEEP_MASK  # type: ignore[no-any-return]

    @cached_property
    def kept_parts(self) -> FloatArray:
        return _kept_parts(self.kept_index)  # (n, 15, 5)

    def run_potential(self) -> FloatArray:
        return self.kept_parts[..., RUN_STARTERS]

    def fifteen_potential(self) -> FloatArray:
        return self.kept_parts[..., FIFTEEN_STARTERS]

    def kept_points(self) -> FloatArray:
        parts = self.kept_parts
        return (2 * parts[..., FIFTEENS] + 2 * parts[..., PAIRS] + parts[..., RUNS]
                + 4.0 * (self.suited_left >= 0))

    def fifteens_kept(self) -> FloatArray:
        return self.kept_parts[..., FIFTEENS]

    def pairs_kept(self) -> FloatArray:
        return self.kept_parts[..., PAIRS]

    def run_kept(self) -> FloatArray:
        return self.kept_parts[..., RUNS]

    def ten_cards_kept(self) -> FloatArray:
        return (self.ranks >= 9) @ _KEEP_MASK

    def flush_potential(self) -> FloatArray:
        s = self.suited_left
        return np.where(s >= 0, 4 + s / 46.0, 0.0)

    def nobs_chance(self) -> FloatArray:
        return ((self.ranks == JACK) * self.suit_left) @ _KEEP_MASK / 46.0  # type: ignore[no-any-return]

    def fives_thrown(self) -> FloatArray:
        return (self.ranks == 4) @ _THROW_MASK  # type: ignore[no-any-return]

    def pair_thrown(self) -> npt.NDArray[np.bool_]:
        return self.tr[..., 0] == self.tr[..., 1]  # type: ignore[no-any-return]

    def fifteen_thrown(self) -> npt.NDArray[np.bool_]:
        return np.minimum(self.tr + 1, 10).sum(axis=2) == 15  # type: ignore[no-any-return]

    def touching_thrown(self) -> npt.NDArray[np.bool_]:
        return self.thrown_gap() == 1  # type: ignore[no-any-return]

    def thrown_gap(self) -> IntArray:
        return np.abs(self.tr[..., 0] - self.tr[..., 1])  # type: ignore[no-any-return]

    def ten_cards_thrown(self) -> FloatArray:
        return (self.ranks >= 9) @ _THROW_MASK


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
    """Recompute the shipped crib table (``python -m fuzzeval.games.cribbage.features``)."""
    from fuzzeval.games.cribbage.scripts.expert_weights import crib_averages

    out = path or Path(__file__).resolve().parent / "data" / CRIB_TABLE_FILE
    table = crib_averages(np.ones((13, 13, 2)))
    doc = {
        "about": "Average crib (points) when one side throws ranks [r1][r2] (A=0 .. K=12) and "
                 "the other two crib cards and the starter come uniformly from the other 50 "
                 "cards; suited and unsuited throws in their natural 1:3 mix. Made by "
                 "python -m fuzzeval.games.cribbage.features.",
        "average_crib": [[round(float(v), 6) for v in row] for row in table],
    }
    out.write_text(json.dumps(doc, indent=1) + "\n")
    return out


if __name__ == "__main__":
    print(write_crib_table())
