"""Game plug-ins, found through entry points, so the engine never imports a game.

Two groups: ``fuzzeval.games`` (each game's GAME object) and ``fuzzeval.commands``
(each game's typer app, mounted as ``fuzzeval <name> ...``).
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

GAMES_GROUP = "fuzzeval.games"
COMMANDS_GROUP = "fuzzeval.commands"


def command_entry_points() -> list[EntryPoint]:
    """The game command groups installed, sorted by name."""
    return sorted(entry_points(group=COMMANDS_GROUP), key=lambda ep: ep.name)
