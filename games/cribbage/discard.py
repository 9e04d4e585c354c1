"""Exhaustive expected-value discard evaluation (the method of Cribbage Discard Pro).

For each of the 15 ways to throw two of six cards: the exact hand score over the 46
possible starters, and the exact crib score over the 46 starters x C(45, 2) = 990 pairs
the opponent may throw, weighted by how likely the opponent is to throw them.

The 45,540 (starter, opponent pair) combinations are grouped per hand into keys
(starter card, opponent rank pair, opponent nobs, opponent pair suited with the starter).
Everything the crib scores depends on the throw only through its ranks, its jacks' suits
and its suit, so one table of keys gives exact means, minima and maxima for all 15 throws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING, Literal

import numpy as np
import numpy.typing as npt

from fuzzeval.games.cribbage.cards import JACK, Card, cards_str, parse_cards
from fuzzeval.games.cribbage.scoring import rank_table
from fuzzeval.games.cribbage.weights import Weighting, opponent_weights

if TYPE_CHECKING:  # pandas is imported by discard_table only: the players never need it
    import pandas as pd

CribOwner = Literal["mine", "theirs"]
IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]

THROWS: tuple[tuple[int, int], ...] = tuple(combinations(range(6), 2))
KEEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(6) if i not in t) for t in THROWS
)
_THROW_AT = np.array(THROWS)  # (15, 2) positions in the hand
_KEEP_AT = np.array(KEEPS)  # (15, 4)
_THROW_AT.flags.writeable = _KEEP_AT.flags.writeable = False


@cache
def _pair_positions() -> tuple[IntArray, IntArray, IntArray]:
    """The C(46, 2) opponent pairs as positions (a < b) in the 46 unknown cards, and for
    each position the 45 pairs that contain it (they are not available with it as starter)."""
    pairs = np.array(list(combinations(range(46), 2)), dtype=np.intp)
    contain = np.array(
        [np.flatnonzero((pairs[:, 0] == s) | (pairs[:, 1] == s)) for s in range(46)]
    )
    out = (pairs[:, 0].copy(), pairs[:, 1].copy(), contain)
    for arr in out:
        arr.flags.writeable = False
    return out


@dataclass(frozen=True)
class DiscardStats:
    """Exact statistics of the 15 throws, in THROWS order (arrays of shape (15,))."""

    cards: tuple[int, ...]
    crib: CribOwner
    hand_mean: FloatArray
    hand_min: IntArray
    hand_max: IntArray
    crib_mean: FloatArray
    crib_min: IntArray
    crib_max: IntArray
    net_min: IntArray
    net_max: IntArray

    @property
    def ev(self) -> FloatArray:
        """E[hand + crib] for my crib, E[hand - crib] for theirs."""
        sign = 1.0 if self.crib == "mine" else -1.0
        return self.hand_mean + sign * self.crib_mean


def uniform_weights() -> FloatArray:
    """Every opponent throw equally likely: weight 1 for (rank, rank, suited) everywhere."""
    return np.ones((13, 13, 2))


def unseen(hand: IntArray) -> IntArray:
    """The 46 cards not in a six-card hand, in id order (the possible starters)."""
    in_hand = np.zeros(52, dtype=bool)
    in_hand[hand] = True
    out: IntArray = np.flatnonzero(~in_hand)
    return out


def hand_scores_by_starter(hand: IntArray) -> IntArray:
    """Points of each kept four (KEEPS order) with each of the 46 possible starters: (15, 46)."""
    ranks, suits = hand // 4, hand % 4
    unknown = unseen(hand)
    u_rank, u_suit = unknown // 4, unknown % 4
    kr, ks = ranks[_KEEP_AT], suits[_KEEP_AT]
    base = (((kr[:, 0] * 13 + kr[:, 1]) * 13 + kr[:, 2]) * 13 + kr[:, 3]) * 13
    scores: IntArray = rank_table()[base[:, None] + u_rank[None, :]].astype(np.intp)
    flush_suit = np.where((ks == ks[:, :1]).all(axis=1), ks[:, 0], -1)
    scores += np.where(flush_suit[:, None] < 0, 0, 4 + (u_suit[None, :] == flush_suit[:, None]))
    jack_suits = np.zeros((15, 4), dtype=np.intp)  # 1 where the kept four hold that jack
    for j in range(4):
        jack_suits[np.arange(15), ks[:, j]] += kr[:, j] == JACK
    scores += jack_suits[:, u_suit]
    return scores


def evaluate_discards(
    cards6: tuple[int, ...], crib: CribOwner, weights: FloatArray
) -> DiscardStats:
    """Exact statistics for every throw of a six-card hand (card ids, no duplicates).

    ``weights[r1, r2, suited]`` is the relative likelihood that the opponent throws a given
    pair of cards of ranks r1, r2 (suited or not); uniform weights make every pair equal.
    """
    hand = np.array(cards6, dtype=np.intp)
    ranks, suits = hand // 4, hand % 4
    unknown = unseen(hand)
    u_rank, u_suit = unknown // 4, unknown % 4
    table = rank_table()
    hand_scores = hand_scores_by_starter(hand)

    # --- the crib: keys (starter, opponent ranks, opponent nobs, opponent flush) -------
    # Key weights for starter s = weights of all pairs, keyed relative to s's suit, minus
    # the 45 pairs that contain s. Liveness (some combination with positive weight) is
    # counted in integers so that a min or max never sees an impossible crib.
    pa, pb, contain = _pair_positions()
    r1, r2, s1, s2 = u_rank[pa], u_rank[pb], u_suit[pa], u_suit[pb]
    pw = weights[r1, r2, (s1 == s2).astype(np.intp)]
    plive = (pw > 0).astype(np.float64)
    suit_col = np.arange(4)[:, None]
    pkey = (r1 * 13 + r2) * 4 + 2 * (
        ((r1 == JACK) & (s1 == suit_col)) | ((r2 == JACK) & (s2 == suit_col))
    ) + ((s1 == suit_col) & (s2 == suit_col))  # (4, 1035): key relative to each starter suit
    flat = (pkey + 676 * np.arange(4)[:, None]).ravel()
    by_suit_w = np.bincount(flat, np.tile(pw, 4), minlength=4 * 676).reshape(4, 676)
    by_suit_n = np.bincount(flat, np.tile(plive, 4), minlength=4 * 676).reshape(4, 676)
    own = (np.arange(46)[:, None] * 676 + pkey[u_suit[:, None], contain]).ravel()
    key_w = by_suit_w[u_suit].ravel() - np.bincount(own, pw[contain].ravel(), minlength=46 * 676)
    key_n = by_suit_n[u_suit].ravel() - np.bincount(own, plive[contain].ravel(),
                                                    minlength=46 * 676)
    keys = np.flatnonzero(key_n > 0.5)
    kw = key_w[keys]
    k_s = keys // 676  # starter position in ``unknown``; keys come sorted by it
    key = keys - 676 * k_s  # (opponent ranks r1 * 13 + r2) * 4 + 2 * nobs + flush
    k_flush = key & 1
    kidx = (key >> 2) * 13 + u_rank[k_s]  # (opponent ranks, starter rank) in rank_table

    tr, ts = ranks[_THROW_AT], suits[_THROW_AT]  # (15, 2)
    # the crib's points stay int8 (as in rank_table): an eighth of intp's memory traffic
    by_pair = table.reshape(169, 13**3)[tr[:, 0] * 13 + tr[:, 1]]  # (15, 13^3)
    crib_scores = np.take(by_pair, kidx, axis=1)  # (15, K)
    crib_scores += ((key >> 1) & 1).astype(np.int8)  # the opponent's jack of the starter's suit

    starts = np.flatnonzero(np.r_[True, k_s[1:] != k_s[:-1]])
    seg = k_s[starts]  # the starter of each segment
    throw_suit = np.where(ts[:, 0] == ts[:, 1], ts[:, 0], -1)
    flush_here = throw_suit[:, None] == u_suit[seg][None, :]  # (15, S)
    throw_nobs = np.zeros((15, 4), dtype=np.intp)
    for j in range(2):
        throw_nobs[np.arange(15), ts[:, j]] += tr[:, j] == JACK
    bonus = throw_nobs[:, u_suit[seg]]  # (15, S): our jack of the starter's suit
    cmax = np.maximum.reduceat(crib_scores, starts, axis=1).astype(np.intp)
    cmin = np.minimum.reduceat(crib_scores, starts, axis=1).astype(np.intp)
    suited = np.flatnonzero(throw_suit >= 0)  # only a suited throw can make a crib flush
    if len(suited):
        with_flush = crib_scores[suited] + (5 * k_flush).astype(np.int8)
        here = flush_here[suited]
        cmax[suited] = np.where(here, np.maximum.reduceat(with_flush, starts, axis=1),
                                cmax[suited])
        cmin[suited] = np.where(here, np.minimum.reduceat(with_flush, starts, axis=1),
                                cmin[suited])
    cmax += bonus
    cmin += bonus
    seg_w = np.add.reduceat(kw, starts)
    flush_w = np.add.reduceat(kw * k_flush, starts)
    total = seg_w.sum()
    # cast first: numpy's mixed int8 @ float64 is slower, and gives the same doubles
    crib_mean = (crib_scores.astype(np.float64) @ kw + bonus @ seg_w
                 + 5 * (flush_here * flush_w).sum(axis=1)) / total
    hs = hand_scores[:, seg]
    if crib == "mine":
        net_max, net_min = (hs + cmax).max(axis=1), (hs + cmin).min(axis=1)
    else:
        net_max, net_min = (hs - cmin).max(axis=1), (hs - cmax).min(axis=1)
    return DiscardStats(
        cards=tuple(int(c) for c in cards6),
        crib=crib,
        hand_mean=hand_scores.mean(axis=1),
        hand_min=hand_scores.min(axis=1),
        hand_max=hand_scores.max(axis=1),
        crib_mean=crib_mean,
        crib_min=cmin.min(axis=1),
        crib_max=cmax.max(axis=1),
        net_min=net_min,
        net_max=net_max,
    )


def best_throw(stats: DiscardStats) -> int:
    """Index in THROWS of the highest EV; ties go to the first in THROWS order."""
    return int(np.argmax(stats.ev))


def discard_table(
    cards6: Sequence[Card] | str,
    crib: CribOwner = "mine",
    weights: Weighting = "uniform",
) -> pd.DataFrame:
    """All 15 throws, best first: hand, crib and net statistics, exact.

    The rows are put in order before the frame is made (ties in THROWS order, as pandas'
    stable descending sort puts them): one frame built, where sorting one took as long.
    """
    import pandas as pd

    if crib not in ("mine", "theirs"):
        raise ValueError(f"crib must be 'mine' or 'theirs' (got {crib!r})")
    cards = parse_cards(cards6, 6)
    stats = evaluate_discards(cards, crib, opponent_weights(weights, crib == "mine"))
    order = np.argsort(-stats.ev, kind="stable")
    rows = {
        "discard": [cards_str([cards[i] for i in THROWS[t]]) for t in order],
        "keep": [cards_str([cards[i] for i in KEEPS[t]]) for t in order],
        "hand_mean": stats.hand_mean[order],
        "crib_mean": stats.crib_mean[order],
        "ev": stats.ev[order],
        "hand_min": stats.hand_min[order],
        "hand_max": stats.hand_max[order],
        "crib_min": stats.crib_min[order],
        "crib_max": stats.crib_max[order],
        "net_min": stats.net_min[order],
        "net_max": stats.net_max[order],
    }
    return pd.DataFrame(rows, copy=False)
