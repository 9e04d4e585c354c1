"""Cribbage scores written from the rules, in plain Python, for the mutation tests: nothing
here calls the package's scorer. Cards are ids rank * 4 + suit (rank 0 the ace, 10 the jack)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

JACK = 10


def card_value(card: int) -> int:
    """Counting value: ace 1, two to nine their number, ten and pictures 10."""
    return min(card // 4 + 1, 10)


def fifteens(ranks: Sequence[int]) -> int:
    """Two points for each combination of cards (any size) that counts fifteen."""
    values = [min(r + 1, 10) for r in ranks]
    return 2 * sum(
        1 for n in range(2, len(values) + 1) for c in combinations(values, n) if sum(c) == 15
    )


def pairs(ranks: Sequence[int]) -> int:
    """Two points for each two cards of one rank."""
    return 2 * sum(1 for a, b in combinations(ranks, 2) if a == b)


def runs(ranks: Sequence[int]) -> int:
    """The longest runs (three or more ranks in sequence), each combination counted."""
    for length in range(len(ranks), 2, -1):
        found = 0
        for combo in combinations(ranks, length):
            s = sorted(combo)
            if all(s[i + 1] == s[i] + 1 for i in range(length - 1)):
                found += 1
        if found:
            return length * found
    return 0


def show(hand: Sequence[int], starter: int, crib: bool) -> dict[str, int]:
    """The show of four cards with the starter, by kind of points."""
    ranks = [c // 4 for c in (*hand, starter)]
    hand_suits = {c % 4 for c in hand}
    flush = 0
    if len(hand_suits) == 1:
        if starter % 4 in hand_suits:
            flush = 5
        elif not crib:
            flush = 4
    nobs = sum(1 for c in hand if c // 4 == JACK and c % 4 == starter % 4)
    return {"fifteen": fifteens(ranks), "pair": pairs(ranks), "run": runs(ranks),
            "flush": flush, "nobs": nobs}


def show_total(hand: Sequence[int], starter: int, crib: bool) -> int:
    return sum(show(hand, starter, crib).values())


def pegging(ranks: Sequence[int]) -> int:
    """Points for the last card laid, given the ranks of the count in play order."""
    if not ranks:
        return 0
    points = 2 if sum(min(r + 1, 10) for r in ranks) in (15, 31) else 0
    same = 1
    while same < len(ranks) and ranks[-1 - same] == ranks[-1]:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for length in range(len(ranks), 2, -1):
        tail = sorted(ranks[-length:])
        if all(tail[i + 1] == tail[i] + 1 for i in range(length - 1)):
            return points + length
    return points
