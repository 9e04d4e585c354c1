"""The decision view: one decision of a game, typed as the game's advice command takes it
(``PlayInterface.spot``) or dealt from a seed, and what the game's rule-base player would
choose there with the text being edited: every option graded, in the words the game's own
advice gives on ``?`` at ``fuzzeval play`` (``PlayInterface.advise``)."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from fuzzeval.errors import UsageError
from fuzzeval.play.advice import explain_option
from fuzzeval.play.game import Candidates, Game, GameHooks, Player, PlayInterface, hook
from fuzzeval.play.registry import game_names, load_game
from fuzzeval.studio.views.base import usable

#: the most decisions a game is played through to reach the one asked for
MAX_INDEX = 200
#: at a table of four, the seats after the one deciding, in the order of play, as Hearts
#: players (and ``fuzzeval hearts card``) name them: the next to play sits on its left
TABLE_OF_FOUR = ("left", "across", "right")


def seat_names(seats: int, seat: int) -> tuple[str, ...]:
    """Each seat's name, seat 0 first, as seen from ``seat``, the one deciding: "you"; the
    other of two "opponent"; at four, left, across and right (the order of play); else
    the seat's number."""
    def name(i: int) -> str:
        after = (i - seat) % seats
        if after == 0:
            return "you"
        if seats == 2:
            return "opponent"
        return TABLE_OF_FOUR[after - 1] if seats == 4 else f"seat {i}"
    return tuple(name(i) for i in range(seats))


def games() -> list[dict[str, Any]]:
    """The installed games whose player reads a rule base and that advise a person, with
    the fields of a decision typed there."""
    out: list[dict[str, Any]] = []
    for name in game_names():
        game = load_game(name)
        make = hook(game, GameHooks.play_interface)
        if game.rulebase_player and make is not None:
            out.append({"name": name, "rulebase": game.default_rulebase,
                        "fields": [{"name": f, "help": h} for f, h in make().spot_fields]})
    return out


def _interface(game: Game) -> PlayInterface:
    make = hook(game, GameHooks.play_interface)
    if not game.rulebase_player or make is None:
        raise UsageError(f"game {game.name!r} has no rule-base player to advise with "
                         f"(games: {', '.join(g['name'] for g in games())})")
    return make()


def _player(game: Game, text: str, path: str) -> Player:
    """The game's rule-base player reading ``text`` (from a file, as in play)."""
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / (Path(path).name if path.endswith((".yaml", ".yml"))
                               else "rulebase.yaml")
        file.write_text(text, encoding="utf-8")
        return game.make_player(game.rulebase_player, rulebase=str(file))


def _dealt(game: Game, player: Player, seed: int, index: int) -> tuple[Candidates, int]:
    """Deal from ``seed``, every seat played by ``player``, to its ``index``-th decision
    of a logged kind (0: the first, a cribbage discard): its options and seat."""
    if not 0 <= index <= MAX_INDEX:
        raise UsageError(f"decision {index}: give 0 to {MAX_INDEX}")
    if not 0 <= seed < 2**63:
        raise UsageError(f"deal {seed}: give 0 to 2**63 - 1")
    rng = np.random.default_rng(seed)
    state = game.new_game(rng, 0)
    seen = 0
    while (seat := game.to_move(state)) is not None:
        candidates = game.candidates(state)
        if candidates.kind in game.logged_kinds:
            if seen == index:
                return candidates, seat
            seen += 1
        state = game.apply(state, player.choose(candidates, rng), rng)
    raise UsageError(f"deal {seed} ended after {seen} decisions; ask for an earlier one")


def decision(text: str, path: str, game_name: str, seed: int = 0, index: int = 0,
             spot: Mapping[str, str] | None = None, pick: str | None = None
             ) -> dict[str, Any]:
    """What the game's rule-base player reading ``text`` would choose, every option
    graded: at the decision typed in ``spot`` (the fields of ``games()``), or else at the
    ``index``-th decision of a game dealt from ``seed``; the situation there, and the
    explanation of the choice, or of option ``pick`` (its label) when given."""
    usable(text, path)  # the text's own problems first, in the editor's words
    game = load_game(game_name)
    interface = _interface(game)
    player = _player(game, text, path)
    if spot is not None:
        known = {f for f, _ in interface.spot_fields}
        stray = sorted(set(spot) - known)
        if stray:
            raise UsageError(f"field {stray[0]!r}: {game.name} takes {', '.join(sorted(known))}")
        candidates, seat = interface.spot(spot), 0
    else:
        candidates, seat = _dealt(game, player, seed, index)
    names = seat_names(game.seats, seat)
    advice = interface.advise(candidates, player, game.rulebase_player, every=True)
    why = advice.explanation[1].to_dict() if advice.explanation is not None else None
    if pick is not None and advice.explanation is not None:
        if pick not in candidates.labels:
            raise UsageError(f"option {pick!r}: not one of {', '.join(candidates.labels)}")
        why = explain_option(advice.explanation[0], candidates,
                             candidates.labels.index(pick)).to_dict()
    return {"game": game.name, "seed": seed, "index": index, "spot": dict(spot or {}),
            "pick": pick if why is not None else None,
            "kind": candidates.kind, "situation": interface.situation(candidates, names, seat),
            "advisor": advice.advisor, "choice": advice.choice,
            "columns": list(advice.columns), "rows": [list(r) for r in advice.rows],
            "note": advice.note, "explanation": why}
