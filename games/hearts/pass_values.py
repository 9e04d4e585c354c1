"""Passing by value: the three cards to pass chosen together, by the learned value of the
hand they leave, not card by card.

Over ``deals`` sampled deals of the hands the seat cannot see (``sampling.determinized``:
the seats that pass before it pass as ``heuristic`` would, and so do those after it), every
set of three cards it may still pass (C(13, 3) = 286 at the first card) is valued by the
points the seat is expected to take from the first trick's position, all four hands
passed (``position_values``: the Q♠'s and the hearts' learned values, as the search to the
end of the trick values the positions it reaches); the set with the fewest on average is
passed, the first in the order of the combinations on ties. The pass is three decisions:
each is the lowest card of the best set among those holding the cards already passed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import cards_of, mask_of
from fuzzeval.games.hearts.players import heuristic_player
from fuzzeval.games.hearts.position_values import PositionValues
from fuzzeval.games.hearts.positions import FloatArray, position_features
from fuzzeval.games.hearts.sampling import determinized
from fuzzeval.games.hearts.view import View, view


@dataclass(frozen=True)
class PassValues:
    """Each card's value (the fewest points to come of a set holding it) and the sets'."""

    cards: tuple[int, ...]  # the cards the seat may pass now, lowest first
    sets: tuple[tuple[int, ...], ...]  # every set of three it may still pass
    points: FloatArray  # (sets,): each set's points to come, on average over the deals
    by_card: FloatArray  # (cards,): the fewest points of a set holding each card


def passes(v: View, values: PositionValues, deals: int, rng: np.random.Generator
           ) -> PassValues:
    """Every pass ``v.seat`` may still make, valued (module doc)."""
    me, d = v.seat, v.direction
    cards = tuple(cards_of(v.hand))
    sets = tuple((*v.passed, *more) for more in combinations(cards, 3 - len(v.passed)))
    hands = np.empty((deals, len(sets), 4), dtype=np.uint64)
    leaders = np.empty((deals, len(sets)), dtype=np.int64)
    for deal in range(deals):
        state = determinized(v, rng)
        for card in sets[0][len(v.passed):]:
            state = rules.apply(state, card)
        while state.phase == "pass":  # the seats after us pass as heuristic would
            legal = rules.legal(state)
            state = rules.apply(state, legal[heuristic_player(view(state), legal, rng)])
        given = [mask_of(p) for p in state.passed]
        kept = [state.dealt[s] & ~given[s] for s in range(rules.SEATS)]
        to_me = given[(me - d) % rules.SEATS]
        receiver = (me + d) % rules.SEATS
        for k, chosen in enumerate(sets):
            mask = mask_of(chosen)
            after = [kept[s] | given[(s - d) % rules.SEATS] for s in range(rules.SEATS)]
            after[me] = state.dealt[me] & ~mask | to_me
            after[receiver] = kept[receiver] | mask
            hands[deal, k] = after
            leaders[deal, k] = next(s for s in range(rules.SEATS) if after[s] & 1)
    n = deals * len(sets)
    rows = position_features(hands.reshape(n, 4), np.zeros(n, dtype=np.uint64),
                             leaders.reshape(n), np.full(n, not v.options.must_break_hearts),
                             np.zeros(n, dtype=np.int64), (me,))[:, 0]
    points = values.to_come_rows(rows).reshape(deals, len(sets)).mean(axis=0)
    by_card = np.array([min(p for p, s in zip(points, sets, strict=True) if c in s)
                        for c in cards])
    return PassValues(cards, sets, points, by_card)
