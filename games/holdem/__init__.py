"""Heads-up limit Texas Hold'em (Loki, Billings et al. 1999), with the ACPC
``holdem.limit.2p.reverse_blinds`` structure: cards, rules checked against OpenSpiel's
``universal_poker``, hand evaluation by phevaluator, ACPC hand logs, simple opponents and
the fuzzy ProbTriple player, a plug-in of the match runner (``holdem.game``) and its bridge
to OpenSpiel (``holdem.openspiel``).

The names below are the documented Python API (docs/python-api.md); each is imported from
its module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuzzeval.lazy import lazy_exports

_WHERE = {
    "GAME": "game",
    "card_str": "cards",
    "cards_str": "cards",
    "decision_features": "features",
    "fuzzy_player": "fuzzy",
    "hand_class": "evaluate",
    "hand_rank": "evaluate",
    "parse_card": "cards",
    "parse_cards": "cards",
    "read_log": "acpc",
    "read_spot": "spot",
    "showdown": "evaluate",
}
__all__ = [
    "GAME",
    "card_str",
    "cards_str",
    "decision_features",
    "fuzzy_player",
    "hand_class",
    "hand_rank",
    "parse_card",
    "parse_cards",
    "read_log",
    "read_spot",
    "showdown",
]
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

if TYPE_CHECKING:
    from .acpc import read_log
    from .cards import card_str, cards_str, parse_card, parse_cards
    from .evaluate import hand_class, hand_rank, showdown
    from .features import decision_features
    from .fuzzy import fuzzy_player
    from .game import GAME
    from .spot import read_spot
