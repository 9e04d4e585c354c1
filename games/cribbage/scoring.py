"""Exact cribbage scoring.

The show uses a precomputed table of the rank-only points (fifteens, pairs, runs) of every
ordered 5-tuple of ranks (13^5 entries, int8), plus the suit-dependent flush and nobs.
``score_breakdown`` counts the same points combination by combination, the way players
do, so each can check the other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from fuzzeval.games.cards import rank, suit
from fuzzeval.games.cribbage.cards import JACK, Card, parse_cards, value


def rank_parts(ranks: npt.NDArray[np.intp]) -> tuple[npt.NDArray[np.int64], ...]:
    """Points from fifteens, from pairs and from runs of rank tuples (m, n), n >= 2."""
    m, n = ranks.shape
    values = np.minimum(ranks + 1, 10)
    subsets = np.array([[(k >> i) & 1 for i in range(n)] for k in range(1, 2**n)])
    fifteens = 2 * ((values @ subsets.T) == 15).sum(axis=1)
    pairs = 2 * sum(
        (ranks[:, i] == ranks[:, j]).astype(np.int64) for i, j in combinations(range(n), 2)
    )
    counts = np.zeros((m, 13), dtype=np.int64)
    for i in range(n):
        counts[np.arange(m), ranks[:, i]] += 1
    runs = np.zeros(m, dtype=np.int64)
    windows = counts  # column s: the product of counts[s : s + length], ways to make that run
    for length in range(2, n + 1):  # a longer run replaces the shorter ones inside it
        windows = windows[:, :-1] * counts[:, length - 1:]
        if length >= 3:
            found = windows.sum(axis=1)
            runs = np.where(found > 0, length * found, runs)
    return fifteens, pairs, runs


@cache
def rank_table() -> npt.NDArray[np.int8]:
    """Points of fifteens, pairs and runs for every ordered 5-tuple of rank indices.

    The points do not depend on the order of the ranks, so they are counted once for each
    ascending tuple (6,188 of them) and every tuple reads its sorted tuple's: some 15 ms,
    where counting all 13^5 tuples took 0.4 s, which a command advising one hand paid.
    """
    ranks = np.indices((13,) * 5, dtype=np.int8).reshape(5, -1)  # column i: rank_index5 i
    ascending = (ranks[1:] >= ranks[:-1]).all(axis=0)
    points = np.zeros(13**5, dtype=np.int8)
    points[ascending] = sum(rank_parts(ranks[:, ascending].T.astype(np.intp)))
    rows = list(ranks)
    for i in range(1, 5):  # an insertion sort of the five rows, element by element
        for j in range(i, 0, -1):
            a, b = rows[j - 1], rows[j]
            rows[j - 1], rows[j] = np.minimum(a, b), np.maximum(a, b)
    table: npt.NDArray[np.int8] = points[rank_index5(np.stack(rows, axis=1))]
    table.flags.writeable = False
    return table


def rank_index5(ranks: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """Flat index into ``rank_table`` of rank tuples (..., 5)."""
    r = ranks.astype(np.intp)
    return (((r[..., 0] * 13 + r[..., 1]) * 13 + r[..., 2]) * 13 + r[..., 3]) * 13 + r[..., 4]


def _flush_nobs(hand: Sequence[int], starter: int, crib: bool) -> tuple[int, int]:
    suits = {suit(c) for c in hand}
    flush = 0
    if len(suits) == 1:
        if suit(starter) in suits:
            flush = 5
        elif not crib:
            flush = 4
    nobs = int(any(rank(c) == JACK and suit(c) == suit(starter) for c in hand))
    return flush, nobs


def show_points(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """Points of four card ids with the starter id, unchecked: the fast path games use."""
    r = [c // 4 for c in hand]
    idx = (((r[0] * 13 + r[1]) * 13 + r[2]) * 13 + r[3]) * 13 + starter // 4
    flush, nobs = _flush_nobs(hand, starter, crib)
    return int(rank_table()[idx]) + flush + nobs


def score_hand(hand4: Sequence[Card] | str, starter: Card, crib: bool = False) -> int:
    """Points of a hand (or crib) of four with the starter."""
    hand = parse_cards(hand4, 4)
    (start,) = parse_cards([starter])
    parse_cards([*hand, start], 5)  # the starter must not be in the hand
    return show_points(hand, start, crib)


@dataclass(frozen=True)
class ScoreItem:
    kind: str  # fifteen | pair | run | flush | nobs
    cards: tuple[int, ...]
    points: int


def score_breakdown(
    hand4: Sequence[Card] | str, starter: Card, crib: bool = False
) -> list[ScoreItem]:
    """Every scoring combination, one item each, in the order players count them."""
    hand = parse_cards(hand4, 4)
    (start,) = parse_cards([starter])
    cards = parse_cards([*hand, start], 5)
    items = [
        ScoreItem("fifteen", combo, 2)
        for n in range(2, 6)
        for combo in combinations(cards, n)
        if sum(value(c) for c in combo) == 15
    ]
    items += [ScoreItem("pair", (a, b), 2) for a, b in combinations(cards, 2) if rank(a) == rank(b)]
    for length in (5, 4, 3):
        runs = [
            combo
            for combo in combinations(cards, length)
            if sorted(rank(c) for c in combo)
            == list(range(min(map(rank, combo)), min(map(rank, combo)) + length))
        ]
        if runs:
            items += [ScoreItem("run", combo, length) for combo in runs]
            break
    flush, nobs = _flush_nobs(hand, start, crib)
    if flush:
        items.append(ScoreItem("flush", cards if flush == 5 else hand, flush))
    if nobs:
        jack = next(c for c in hand if rank(c) == JACK and suit(c) == suit(start))
        items.append(ScoreItem("nobs", (jack,), 1))
    return items


_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]


def _word(n: int) -> str:
    return _WORDS[n] if n <= 20 else f"twenty-{_WORDS[n - 20]}"


_PAIR_NAMES = {
    1: "a pair",
    2: "two pairs",
    3: "pair royal",
    4: "pair royal and a pair",
    6: "double pair royal",
}
_RUN_NAMES = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double double run"}


def spoken_count(items: Sequence[ScoreItem]) -> str:
    """The count as players say it: 'fifteen two, fifteen four, and a pair is six'."""
    phrases: list[tuple[str, int]] = []
    total = 0
    for item in items:
        if item.kind == "fifteen":
            total += 2
            phrases.append(("fifteen", total))
    kinds = Counter(i.kind for i in items)
    if kinds["pair"]:
        total += 2 * kinds["pair"]
        phrases.append((_PAIR_NAMES.get(kinds["pair"], f"{kinds['pair']} pairs"), total))
    if kinds["run"]:
        length = next(i.points for i in items if i.kind == "run")
        total += length * kinds["run"]
        phrases.append((f"{_RUN_NAMES[kinds['run']]} of {_word(length)}", total))
    for item in items:
        if item.kind in ("flush", "nobs"):
            total += item.points
            name = "a flush" if item.kind == "flush" else "one for his nob"
            phrases.append((name, total))
    if not phrases:
        return "nothing (a 'nineteen', as players say)"
    words = [
        f"{name} {_word(t)}" if name == "fifteen" else f"{name} is {_word(t)}"
        for name, t in phrases
    ]
    if len(words) > 1:
        words[-1] = "and " + words[-1]
    return ", ".join(words)


def score_pegging(cards_in_count: Sequence[Card] | str) -> int:
    """Points for the last card laid, given every card of the current count in play order."""
    cards = parse_cards(cards_in_count)
    total = sum(value(c) for c in cards)
    if total > 31:
        raise ValueError(f"the count would be {total}, over 31")
    return peg_points(cards, total)


def peg_points(cards: Sequence[int], total: int) -> int:
    """``score_pegging`` on card ids whose values sum to ``total``, unchecked (fast path)."""
    return peg_rank_points(tuple(c // 4 for c in cards)) if cards else 0


@lru_cache(maxsize=1 << 16)
def peg_rank_points(ranks: tuple[int, ...]) -> int:
    """Pegging points of the last of a count's rank indices (suits never matter there)."""
    if not ranks:
        return 0
    total = sum(min(r + 1, 10) for r in ranks)
    points = 2 if total in (15, 31) else 0
    last = ranks[-1]
    same = 1
    while same < len(ranks) and ranks[-1 - same] == last:
        same += 1
    points += _SAME_POINTS[same]
    for length in range(len(ranks), 2, -1):
        tail = ranks[-length:]
        low = min(tail)
        if max(tail) - low == length - 1 and len(set(tail)) == length:
            points += length
            break
    return points


_SAME_POINTS = (0, 0, 2, 6, 12)
