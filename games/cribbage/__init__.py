"""Two-player six-card cribbage: cards, exact scoring, discard evaluation and players.

The names below are the documented Python API (docs/python-api.md); each is imported from
its module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuzzeval.lazy import lazy_exports

_WHERE = {
    "CribbagePlayer": "players",
    "DiscardStats": "discard",
    "GAME": "game",
    "card_str": "cards",
    "discard_features": "features",
    "discard_table": "discard",
    "evaluate_discards": "discard",
    "make_player": "players",
    "parse_card": "cards",
    "parse_cards": "cards",
    "score_breakdown": "scoring",
    "score_hand": "scoring",
    "score_pegging": "scoring",
    "spoken_count": "scoring",
}
__all__ = [
    "GAME",
    "CribbagePlayer",
    "DiscardStats",
    "card_str",
    "discard_features",
    "discard_table",
    "evaluate_discards",
    "make_player",
    "parse_card",
    "parse_cards",
    "score_breakdown",
    "score_hand",
    "score_pegging",
    "spoken_count",
]
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

if TYPE_CHECKING:
    from .cards import card_str, parse_card, parse_cards
    from .discard import DiscardStats, discard_table, evaluate_discards
    from .features import discard_features
    from .game import GAME
    from .players import CribbagePlayer, make_player
    from .scoring import score_breakdown, score_hand, score_pegging, spoken_count
