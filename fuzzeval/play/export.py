"""Stored games written out as JSON, one object a game, for other tools to read.

A game stored with its choices (history version 3 on) is replayed from its seed
(``fuzzeval.play.replay``), so every card laid is in the record, not only the logged
decisions: ``events`` lists, in order, what chance brought in the game's own notation (a
game's ``chance_events(before, after)``: cribbage's hands and starter, backgammon's dice,
Hearts' deal) and each decision (``{"seat": 0, "kind": "play", "choice": "QS",
"options": 7}``, where ``options`` counts the legal candidates). A game stored before
version 3 has no choices: its ``events`` are null and its logged ``decisions`` are given.
A game may also write its records in a text format of its own, a line a game
(``export_formats``, optional: hold'em's ACPC hand logs), numbered on through the file when
it holds several matches, which its first lines, comments, then name.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fuzzeval.errors import UsageError
from fuzzeval.play.game import Game, GameHooks, hook

if TYPE_CHECKING:  # a game's format is read at its import: the history is not needed then
    from fuzzeval.play.store import History, StoredMatch

#: what a game's ``chance_events`` gives: short JSON objects, e.g. ``{"chance": "dice", ...}``
Event = dict[str, Any]


@dataclass(frozen=True)
class LineFormat:
    """A game's own text format, a line a game (hold'em's ACPC hand logs): ``line`` writes
    an exported record as the game numbered ``number`` in the file, ``comment`` starts a
    line that the format's readers skip."""

    line: Callable[[Event, int], str]
    comment: str


def game_events(game: Game, match: StoredMatch, index: int, first: int,
                choices: tuple[int, ...]) -> list[Event]:
    """Every chance event and decision of one stored game, in order."""
    from fuzzeval.play.replay import initial_state, replay

    spec = match.spec
    options = dict(spec.options)
    chance = hook(game, GameHooks.chance_events)
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
                               for f in hook(load_game(name), GameHooks.export_formats) or {}))


def line_format(game: Game, fmt: str) -> LineFormat:
    """How ``game`` writes its exported records in ``fmt``."""
    formats: Mapping[str, LineFormat] = hook(game, GameHooks.export_formats) or {}
    if fmt not in formats:
        raise UsageError(f"--format {fmt!r}: {game.name} games are written as jsonl or json"
                         f"{''.join(' or ' + f for f in formats)}")
    return formats[fmt]


def export_lines(history: History, ids: Sequence[int], fmt: str) -> list[str]:
    """Matches ``ids`` as lines: a JSON object a game (``jsonl`` and ``json``), each naming
    its ``match`` and ``index``, or a game's own format (``numbered_lines``)."""
    from fuzzeval.play.registry import load_game

    matches = [history.stored_match(i) for i in ids]
    games = [load_game(m.spec.game) for m in matches]
    if fmt not in ("jsonl", "json"):
        return numbered_lines(history, games, matches, fmt)
    return [json.dumps(record, separators=(",", ":"))
            for game, match in zip(games, matches, strict=True)
            for record in export_games(history, game, match)]


def numbered_lines(history: History, games: Sequence[Game],
                   matches: Sequence[StoredMatch], fmt: str) -> list[str]:
    """Matches in a game's line format, numbered on through the file: a match's game i is
    numbered i plus the numbers the matches before it took, so no number is written twice
    (an ACPC log numbers its hands 0, 1, 2, ...). A file of several matches says so in its
    first lines, comments naming each match, its numbers and its games."""
    lines: list[str] = []
    notes: list[str] = []
    start = 0
    for game, match in zip(games, matches, strict=True):
        write = line_format(game, fmt)
        records = list(export_games(history, game, match))
        lines += [write.line(r, start + int(r["index"])) for r in records]
        end = start + (int(records[-1]["index"]) + 1 if records else 0)
        spec = match.spec
        notes.append(f"match {match.id} ({spec.game}, "
                     f"{' against '.join(str(p) for p in spec.lineup(game.seats))}, seed "
                     f"{spec.seed}): " + (f"{start} to {end - 1}, its games 0 to "
                                          f"{end - start - 1}" if records else "no game"))
        start = end
    if len(matches) < 2:
        return lines
    comment = line_format(games[0], fmt).comment
    head = [f"{len(matches)} matches of {history.path}, numbered on through the file:",
            *notes]
    return [comment + note for note in head] + lines
