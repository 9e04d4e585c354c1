"""Two-player six-card cribbage: cards, exact scoring, and discard evaluation."""

from fuzzeval.games.cribbage.cards import card_str, parse_card, parse_cards
from fuzzeval.games.cribbage.scoring import score_breakdown, score_hand, score_pegging, spoken_count

__all__ = [
    "card_str",
    "parse_card",
    "parse_cards",
    "score_breakdown",
    "score_hand",
    "score_pegging",
    "spoken_count",
]
