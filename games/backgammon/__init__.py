"""Backgammon: positions and GNU Backgammon's formats, legal plays, features and
players.

The names below are the documented Python API (docs/python-api.md); each is imported from
its module on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuzzeval.lazy import lazy_exports

_WHERE = {
    "BackgammonPlayer": "players",
    "GAME": "game",
    "Position": "board",
    "from_gnubg": "board",
    "from_position_id": "board",
    "legal_moves": "moves",
    "make_player": "players",
    "position_features": "features",
    "position_id": "board",
    "to_gnubg": "board",
}
__all__ = [
    "GAME",
    "BackgammonPlayer",
    "Position",
    "from_gnubg",
    "from_position_id",
    "legal_moves",
    "make_player",
    "position_features",
    "position_id",
    "to_gnubg",
]
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

if TYPE_CHECKING:
    from .board import Position, from_gnubg, from_position_id, position_id, to_gnubg
    from .features import position_features
    from .game import GAME
    from .moves import legal_moves
    from .players import BackgammonPlayer, make_player
