"""A stored game played again from its seed and its choices, move by move.

Game ``i`` of a match draws its chance (deals, cuts, dice) from its own stream of the
match seed (``fuzzeval.play.match.play_game``), apart from the players' randomness, so the
seed and the options chosen give back every state the game passed through: a replay needs
no player, and a person's games replay like any other.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fuzzeval.errors import FuzzevalError
from fuzzeval.play.game import Game
from fuzzeval.play.match import game_rngs


@dataclass(frozen=True)
class Move:
    """One move of a replayed game: the state before, who chose what, the state after."""

    number: int  # from 1
    seat: int
    choice: int
    label: str
    kind: str
    before: Any
    after: Any
    options: int = 0  # how many legal options there were


class ReplayError(FuzzevalError):
    """Stored choices that do not replay: not the game's options, or not to the end."""


def initial_state(game: Game, seed: int, index: int, first: int,
                  options: Mapping[str, Any] | None = None, duplicate: bool = False) -> Any:
    """The state game ``index`` of a match with ``seed`` starts from (its first deal)."""
    return _start(game, seed, index, first, options, duplicate)[1]


def _start(game: Game, seed: int, index: int, first: int, options: Mapping[str, Any] | None,
           duplicate: bool) -> tuple[np.random.Generator, Any]:
    chance = game_rngs(seed, index, game.seats, duplicate)[0]
    return chance, game.new_game(chance, first, **dict(options or {}))


def replay(game: Game, seed: int, index: int, first: int, choices: Sequence[int],
           options: Mapping[str, Any] | None = None, duplicate: bool = False
           ) -> Iterator[Move]:
    """Every move of game ``index`` of a match with ``seed`` (``duplicate``: a duplicate
    match), whose seat ``first`` moved first, the options chosen being ``choices``; a
    ReplayError when they do not fit."""
    chance, state = _start(game, seed, index, first, options, duplicate)
    for number, choice in enumerate(choices, 1):
        seat = game.to_move(state)
        if seat is None:
            raise ReplayError(f"the game ended after move {number - 1}, but "
                              f"{len(choices)} moves are stored")
        cands = game.candidates(state)
        if not 0 <= choice < len(cands):
            raise ReplayError(f"move {number}: option {choice} of {len(cands)}")
        after = game.apply(state, choice, chance)
        yield Move(number, seat, choice, cands.labels[choice], cands.kind, state, after,
                   len(cands))
        state = after
    if game.to_move(state) is not None:
        raise ReplayError(f"the {len(choices)} moves stored do not finish the game")
