"""Stored games written out as JSON, one object a game, for other tools to read.

A game stored with its choices (history version 3 on) is replayed from its seed
(``fuzzeval.play.replay``), so every card laid is in the record, not only the logged
decisions: ``events`` lists, in order, what chance brought in the game's own notation (a
game's ``chance_events(before, after)``: cribbage's hands and starter, backgammon's dice,
Hearts' deal) and each decision (``{"seat": 0, "kind": "play", "choice": "QS",
"options": 7}``, where ``options`` counts the legal candidates). A game stored before
version 3 has no choices: its ``events`` are null and its logged ``decisions`` are given.
A game may also write its records in a text format of its own, a line a game
(``export_formats``, optional: hold'em's ACPC hand logs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fuzzeval.errors import UsageError
from fuzzeval.play.game import Game
from fuzzeval.play.replay import initial_state, replay
from fuzzeval.play.store import History, StoredMatch

#: what a game's ``chance_events`` gives: short JSON objects, e.g. ``{"chance": "dice", ...}``
Event = dict[str, Any]


def game_events(game: Game, match: StoredMatch, index: int, first: int,
                choices: tuple[int, ...]) -> list[Event]:
    """Every chance event and decision of one stored game, in order."""
    spec = match.spec
    options = dict(spec.options)
    chance = getattr(game, "chance_events", None)
    events: list[Event] = []
    if chance is not None:
        start = initial_state(game, spec.seed, index, first, options, spec.duplicate)
        events += chance(None, start)
    for move in replay(game, spec.seed, index, first, choices, options, spec.duplicate):
        events.append({"seat": move.seat, "kind": move.kind, "choice": move.label,
                       "options": move.options})
        if chance is not None:
            events += chance(move.before, move.after)
    return events


def export_games(history: History, game: Game, match: StoredMatch) -> Iterator[Event]:
    """One JSON-ready object for each stored game of a match, by index."""
    spec = match.spec
    seats = [str(p) for p in spec.lineup(game.seats)]
    indices = sorted(history.finished(match.id))
    for index, outcome in zip(indices, history.outcomes(match.id), strict=True):
        first, choices = history.game_choices(match.id, index)
        record: Event = {
            "game": spec.game, "match": match.id, "index": index, "seed": spec.seed,
            "options": dict(spec.options), "duplicate": spec.duplicate, "seats": seats,
            "first": first,
        }
        if choices is None:
            record["events"] = None
            record["decisions"] = [
                {"seat": seat, "kind": kind, "choice": choice}
                for seat, _unit, kind, choice, _ctx in history.game_decisions(match.id, index)]
        else:
            record["events"] = game_events(game, match, index, first, choices)
        record |= {"payoffs": list(outcome.payoffs), "unit": game.payoff.unit,
                   "scores": list(outcome.scores), "winner": outcome.winner,
                   "result": outcome.result}
        yield record


def line_formats() -> tuple[str, ...]:
    """The line formats the installed games offer (``Game.export_formats``)."""
    from fuzzeval.play.registry import game_names, load_game

    return tuple(dict.fromkeys(f for name in game_names()
                               for f in getattr(load_game(name), "export_formats", {})))


def line_format(game: Game, fmt: str) -> Callable[[Event], str]:
    """How ``game`` writes one exported record as a line of ``fmt``."""
    formats: dict[str, Callable[[Event], str]] = getattr(game, "export_formats", {})
    if fmt not in formats:
        raise UsageError(f"--format {fmt!r}: {game.name} games are written as jsonl or json"
                         f"{''.join(' or ' + f for f in formats)}")
    return formats[fmt]
