"""Game plug-ins, found through entry points, so the engine never imports a game.

Three groups: ``fuzzeval.games`` (each game's GAME object), ``fuzzeval.commands`` (each
game's typer app, mounted as ``fuzzeval <name> ...``) and ``fuzzeval.players`` (players
for any game, such as the sampling player: a factory ``(game, **options) -> Player``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any

from fuzzeval.errors import GameNotFound

if TYPE_CHECKING:  # the game protocols import the engine: not needed to list names
    from fuzzeval.play.game import Game

GAMES_GROUP = "fuzzeval.games"
COMMANDS_GROUP = "fuzzeval.commands"
PLAYERS_GROUP = "fuzzeval.players"


def command_entry_points() -> list[EntryPoint]:
    """The game command groups installed, sorted by name."""
    return sorted(entry_points(group=COMMANDS_GROUP), key=lambda ep: ep.name)


def game_names() -> list[str]:
    """Names of the installed games."""
    return sorted(ep.name for ep in entry_points(group=GAMES_GROUP))


def load_game(name: str) -> Game:
    """The installed game plug-in called ``name``."""
    for ep in entry_points(group=GAMES_GROUP):
        if ep.name == name:
            game: Game = ep.load()
            return game
    known = ", ".join(game_names()) or "none installed"
    raise GameNotFound(f"no game called {name!r} (games: {known})")


@cache
def _player_plugins() -> tuple[EntryPoint, ...]:
    """The installed game-agnostic players' entry points, read once a process: scanning
    every installed distribution costs tens of milliseconds, and players are made often."""
    return tuple(entry_points(group=PLAYERS_GROUP))


def player_plugin_names() -> list[str]:
    """Names of the game-agnostic players installed (``sampling``, ``td``)."""
    return sorted(ep.name for ep in _player_plugins())


def all_player_names(game: Game) -> tuple[str, ...]:
    """Every player of ``game`` that ``fuzzeval match`` makes by name: the game's own, then
    each game-agnostic player installed that can play it (``td`` may still need its
    option, ``td:rulebase=FILE``, where no learned base is shipped for the game)."""
    from fuzzeval.play.game import GameHooks, hook

    # what a game-agnostic player needs of a game (``sampling``: the hidden-information
    # hooks; ``td``: the features of the candidates)
    needs = {"sampling": GameHooks.hidden_information, "td": GameHooks.features}
    own = tuple(game.player_names)
    return own + tuple(n for n in player_plugin_names() if n not in own
                       and (n not in needs or hook(game, needs[n])))


def player_factory(name: str) -> Callable[..., Any] | None:
    """The game-agnostic player called ``name`` (its factory), or None."""
    for ep in _player_plugins():
        if ep.name == name:
            factory: Callable[..., Any] = ep.load()
            return factory
    return None
