"""The decision view: one decision of a game, dealt from a seed, and what the game's
rule-base player would choose there with the text being edited, in the words and tables
the game's own advice gives on ``?`` at ``fuzzeval play`` (``PlayInterface.advise``)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from fuzzeval.errors import UsageError
from fuzzeval.play.game import Game, GameHooks, PlayInterface, hook
from fuzzeval.play.registry import game_names, load_game
from fuzzeval.studio.views.base import usable

#: the most decisions a game is played through to reach the one asked for
MAX_INDEX = 200


def games() -> list[dict[str, str]]:
    """The installed games whose player reads a rule base and that advise a person."""
    out = []
    for name in game_names():
        game = load_game(name)
        if game.rulebase_player and hook(game, GameHooks.play_interface) is not None:
            out.append({"name": name, "rulebase": game.default_rulebase})
    return out


def _interface(game: Game) -> PlayInterface:
    make = hook(game, GameHooks.play_interface)
    if not game.rulebase_player or make is None:
        raise UsageError(f"game {game.name!r} has no rule-base player to advise with "
                         f"(games: {', '.join(g['name'] for g in games())})")
    return make()


def decision(text: str, path: str, game_name: str, seed: int, index: int) -> dict[str, Any]:
    """Deal game ``game_name`` from ``seed``, every seat played by the game's rule-base
    player reading ``text``, to its ``index``-th decision of a logged kind (0: the first,
    a cribbage discard); there, the situation and the player's advice."""
    usable(text, path)  # the text's own problems first, in the editor's words
    if not 0 <= index <= MAX_INDEX:
        raise UsageError(f"decision {index}: give 0 to {MAX_INDEX}")
    if not 0 <= seed < 2**63:
        raise UsageError(f"deal {seed}: give 0 to 2**63 - 1")
    game = load_game(game_name)
    interface = _interface(game)
    with tempfile.TemporaryDirectory() as folder:  # the player reads a file, as in play
        file = Path(folder) / (Path(path).name if path.endswith((".yaml", ".yml"))
                               else "rulebase.yaml")
        file.write_text(text, encoding="utf-8")
        player = game.make_player(game.rulebase_player, rulebase=str(file))
    rng = np.random.default_rng(seed)
    state = game.new_game(rng, 0)
    seen = 0
    while (seat := game.to_move(state)) is not None:
        candidates = game.candidates(state)
        if candidates.kind in game.logged_kinds:
            if seen == index:
                break
            seen += 1
        state = game.apply(state, player.choose(candidates, rng), rng)
    else:
        raise UsageError(f"deal {seed} ended after {seen} decisions; ask for an earlier one")
    names = tuple("you" if i == seat else ("opponent" if game.seats == 2 else f"seat {i}")
                  for i in range(game.seats))
    advice = interface.advise(candidates, player, game.rulebase_player)
    why = advice.explanation[1].to_dict() if advice.explanation is not None else None
    return {"game": game.name, "seed": seed, "index": index, "kind": candidates.kind,
            "situation": interface.situation(candidates, names, seat),
            "advisor": advice.advisor, "choice": advice.choice,
            "columns": list(advice.columns), "rows": [list(r) for r in advice.rows],
            "note": advice.note, "explanation": why}
