"""Crisp features of laying each playable card, for a pegging rule base.

What a player weighs before laying a card: the points it scores now, what the opponent is
likely to score back with one card (each reply weighed by how many cards of its rank are
still unseen), the net of the two, the count it leaves, and what it keeps for later (a
card of the same rank behind a lead, for a pair royal; low cards for the go and 31).
Their names are the input variables a pegging rule base may use.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fuzzeval.games.cribbage.cards import value
from fuzzeval.games.cribbage.pegging.policies import PegView, points_and_risk, unseen_ranks
from fuzzeval.play.game import Feature

FloatArray = npt.NDArray[np.float64]

PEG_FEATURES: tuple[Feature, ...] = (
    Feature("points_now", 0, 12, "pegging points the card scores as it is laid"),
    Feature("reply_risk", 0, 6,
            "points the opponent is expected to score back with one card: every reply rank "
            "weighed by how many of it are still unseen"),
    Feature("net_points", -6, 12, "points_now less reply_risk"),
    Feature("count_after", 0, 31, "the count once the card is laid"),
    Feature("card_value", 1, 10, "the card's counting value"),
    Feature("pair_backup", 0, 3,
            "when leading: cards of the led rank still in hand (a paired lead is answered "
            "with a pair royal); 0 when not leading"),
    Feature("low_cards_left", 0, 3, "cards worth 4 or less left in hand after this one"),
)
PEG_FEATURE_NAMES: tuple[str, ...] = tuple(f.name for f in PEG_FEATURES)


def peg_features(view: PegView) -> FloatArray:
    """Features (options, PEG_FEATURE_NAMES) of laying each card of ``view.options``."""
    unseen = unseen_ranks(view)
    out = np.zeros((len(view.options), len(PEG_FEATURES)))
    for i, card in enumerate(view.options):
        points, risk = points_and_risk(view, card, unseen)
        rest = [c for c in view.hand if c != card]
        backup = sum(c // 4 == card // 4 for c in rest) if not view.count_cards else 0
        out[i] = (points, risk, points - risk, view.count + value(card), value(card), backup,
                  sum(value(c) <= 4 for c in rest))
    return out
