"""Two-player six-card cribbage: cards, exact scoring, and discard evaluation."""

from games.cribbage.cards import card_str, parse_card, parse_cards
from games.cribbage.scoring import score_breakdown, score_hand, score_pegging, spoken_count

__all__ = [
    "card_str",
    "parse_card",
    "parse_cards",
    "score_breakdown",
    "score_hand",
    "score_pegging",
    "spoken_count",
]
