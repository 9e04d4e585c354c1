"""Pegging policies: which card to lay, from what the player can see.

``basic`` is Kendall & Shaw (2002)'s routine (make fifteen if possible, lead from a pair,
otherwise the first card that can be laid). ``greedy`` takes the most points now minus the
points the opponent is expected to get back with one card, which is what "don't leave a
count of 5 or 21, don't lead a five, don't pair into a likely pair royal" amount to: every
reply is weighed by how many cards of its rank are still unseen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np

from fuzzeval.games.cribbage.cards import value
from fuzzeval.games.cribbage.scoring import peg_rank_points

PeggingName = Literal["basic", "greedy"]


@dataclass(frozen=True)
class PegView:
    """What a seat sees when it must lay a card."""

    options: tuple[int, ...]  # the cards it may lay now, in hand order
    hand: tuple[int, ...]  # every card it still holds
    kept: tuple[int, ...]  # its four for the show
    count_cards: tuple[int, ...]  # the current count, in play order
    played: tuple[int, ...]  # every card laid this deal, both seats
    starter: int
    my_crib: bool
    thrown: tuple[int, ...] = ()  # the two cards it threw to the crib
    scores: tuple[int, int] = (0, 0)  # mine, the opponent's

    @property
    def count(self) -> int:
        return sum(value(c) for c in self.count_cards)


class PeggingPolicy(Protocol):
    def __call__(self, view: PegView, rng: np.random.Generator) -> int: ...


def basic(view: PegView, rng: np.random.Generator) -> int:
    """Kendall & Shaw: make fifteen if possible; lead from a pair; else the first card."""
    count = view.count
    for i, card in enumerate(view.options):
        if count + value(card) == 15:
            return i
    if not view.count_cards:
        ranks = [c // 4 for c in view.hand]
        for i, card in enumerate(view.options):
            if ranks.count(card // 4) >= 2:
                return i
    return 0


def unseen_ranks(view: PegView) -> list[int]:
    """How many cards of each rank the opponent might hold or lay (not seen by me)."""
    left = [4] * 13
    for card in (*view.kept, *view.played, view.starter):
        left[card // 4] -= 1
    for card in view.played:  # my own laid cards are in both lists
        if card in view.kept:
            left[card // 4] += 1
    return left


def points_and_risk(view: PegView, card: int, unseen: Sequence[int]) -> tuple[int, float]:
    """The points laying ``card`` scores now, and the points the opponent is expected to
    score back with one card (each reply rank weighed by its unseen cards)."""
    total_unseen = max(sum(unseen), 1)
    seq = (*(c // 4 for c in view.count_cards), card // 4)
    count = view.count + value(card)
    gain = peg_rank_points(seq)
    if count == 31:
        seq, count = (), 0
    room = 31 - count
    danger = sum(unseen[r] * peg_rank_points((*seq, r))
                 for r in range(13) if unseen[r] and min(r + 1, 10) <= room)
    return gain, danger / total_unseen


def greedy(view: PegView, rng: np.random.Generator) -> int:
    """Most points now, less the expected points of the opponent's reply with one card."""
    unseen = unseen_ranks(view)
    best, best_score = 0, -np.inf
    for i, card in enumerate(view.options):
        gain, risk = points_and_risk(view, card, unseen)
        score = gain - risk
        if score > best_score + 1e-12:
            best, best_score = i, score
    return best


POLICIES: dict[PeggingName, PeggingPolicy] = {"basic": basic, "greedy": greedy}
