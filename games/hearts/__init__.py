"""Four-seat Hearts (Sturtevant & White 2006): cards, rules checked against OpenSpiel,
features of a candidate card, rule-of-thumb, fuzzy and ISMCTS players, a plug-in of the
match runner (``hearts.game``) and its bridge to OpenSpiel (``hearts.openspiel``).

The names below are the documented Python API (docs/python-api.md); each is imported from
its module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuzzeval.lazy import lazy_exports

_WHERE = {
    "GAME": "game",
    "apply": "rules",
    "card_str": "cards",
    "cards_str": "cards",
    "fuzzy_player": "fuzzy",
    "heuristic_player": "players",
    "legal": "rules",
    "new_game": "rules",
    "parse_card": "cards",
    "parse_cards": "cards",
    "play_out": "players",
    "points": "rules",
    "random_player": "players",
}
__all__ = [
    "GAME",
    "apply",
    "card_str",
    "cards_str",
    "fuzzy_player",
    "heuristic_player",
    "legal",
    "new_game",
    "parse_card",
    "parse_cards",
    "play_out",
    "points",
    "random_player",
]
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

if TYPE_CHECKING:
    from fuzzeval.games.hearts.cards import card_str, cards_str, parse_card, parse_cards
    from fuzzeval.games.hearts.fuzzy import fuzzy_player
    from fuzzeval.games.hearts.game import GAME
    from fuzzeval.games.hearts.players import heuristic_player, play_out, random_player
    from fuzzeval.games.hearts.rules import apply, legal, new_game, points
