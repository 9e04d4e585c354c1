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

from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Literal

import numpy as np
import numpy.typing as npt

from games.cribbage.cards import JACK, Card, parse_cards
from games.cribbage.scoring import rank_table

CribOwner = Literal["mine", "theirs"]
IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]

THROWS: tuple[tuple[int, int], ...] = tuple(combinations(range(6), 2))
KEEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(6) if i not in t) for t in THROWS
)


@cache
def _combo_positions() -> tuple[IntArray, IntArray, IntArray]:
    """(starter, o1, o2) as positions 0..45 in the unknown cards, o1 < o2, starter apart."""
    s, o1, o2 = [], [], []
    for a, b in combinations(range(46), 2):
        for c in range(46):
            if c != a and c != b:
                s.append(c)
                o1.append(a)
                o2.append(b)
    out = tuple(np.array(x, dtype=np.intp) for x in (s, o1, o2))
    for arr in out:
        arr.flags.writeable = False
    return out  # type: ignore[return-value]


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


def evaluate_discards(
    cards6: tuple[int, ...], crib: CribOwner, weights: FloatArray
) -> DiscardStats:
    """Exact statistics for every throw of a six-card hand (card ids, no duplicates).

    ``weights[r1, r2, suited]`` is the relative likelihood that the opponent throws a given
    pair of cards of ranks r1, r2 (suited or not); uniform weights make every pair equal.
    """
    hand = np.array(cards6, dtype=np.intp)
    ranks, suits = hand // 4, hand % 4
    unknown = np.setdiff1d(np.arange(52), hand)
    table = rank_table()

    # --- the hand over 46 starters -------------------------------------------------
    keep = np.array(KEEPS)  # (15, 4) positions in the hand
    kr, ks = ranks[keep], suits[keep]
    base = (((kr[:, 0] * 13 + kr[:, 1]) * 13 + kr[:, 2]) * 13 + kr[:, 3]) * 13
    u_rank, u_suit = unknown // 4, unknown % 4
    hand_scores = table[base[:, None] + u_rank[None, :]].astype(np.intp)  # (15, 46)
    flush_suit = np.where((ks == ks[:, :1]).all(axis=1), ks[:, 0], -1)
    hand_scores += np.where(flush_suit[:, None] < 0, 0,
                            4 + (u_suit[None, :] == flush_suit[:, None]))
    jack_suits = np.zeros((15, 4), dtype=np.intp)  # 1 where the kept four hold that jack
    for j in range(4):
        np.maximum.at(jack_suits, (np.arange(15), ks[:, j]), (kr[:, j] == JACK).astype(np.intp))
    hand_scores += jack_suits[:, u_suit]

    # --- the crib: keys over (starter, opponent pair) ----------------------------------
    sp, p1, p2 = _combo_positions()
    c1, c2 = unknown[p1], unknown[p2]
    r1, r2, s1, s2 = c1 // 4, c2 // 4, c1 % 4, c2 % 4
    st_suit = u_suit[sp]
    w = weights[r1, r2, (s1 == s2).astype(np.intp)]
    opp_nobs = ((r1 == JACK) & (s1 == st_suit)) | ((r2 == JACK) & (s2 == st_suit))
    opp_flush = (s1 == st_suit) & (s2 == st_suit)
    key = ((sp * 13 + r1) * 13 + r2) * 4 + opp_nobs * 2 + opp_flush
    key_weight = np.bincount(key, weights=w, minlength=46 * 676)
    keys = np.flatnonzero(key_weight)
    kw = key_weight[keys]
    k_flush, k_nobs = keys % 2, (keys // 2) % 2
    k_r2, k_r1 = (keys // 4) % 13, (keys // 52) % 13
    k_s = keys // 676  # starter position in ``unknown``

    throw = np.array(THROWS)
    tr, ts = ranks[throw], suits[throw]  # (15, 2)
    tbase = ((tr[:, 0] * 13 + tr[:, 1]) * 169) * 13
    kidx = (k_r1 * 13 + k_r2) * 13 + u_rank[k_s]
    crib_scores = table[tbase[:, None] + kidx[None, :]].astype(np.intp)  # (15, K)
    crib_scores += k_nobs
    st = u_suit[k_s]
    throw_jacks = np.zeros((15, 4), dtype=np.intp)
    for j in range(2):
        np.maximum.at(throw_jacks, (np.arange(15), ts[:, j]), (tr[:, j] == JACK).astype(np.intp))
    crib_scores += throw_jacks[:, st]
    throw_suit = np.where(ts[:, 0] == ts[:, 1], ts[:, 0], -1)
    crib_scores += 5 * (k_flush[None, :] * (st[None, :] == throw_suit[:, None]))

    crib_mean = crib_scores @ kw / kw.sum()
    # Per starter: the crib's extremes (keys are sorted by starter position).
    starts = np.flatnonzero(np.r_[True, k_s[1:] != k_s[:-1]])
    cmax = np.maximum.reduceat(crib_scores, starts, axis=1)  # (15, 46)
    cmin = np.minimum.reduceat(crib_scores, starts, axis=1)
    hs = hand_scores[:, k_s[starts]]
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


def parse_hand6(cards6: tuple[Card, ...] | list[Card] | str) -> tuple[int, ...]:
    return parse_cards(cards6, 6)
