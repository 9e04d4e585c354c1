"""The bridge to OpenSpiel's ``backgammon`` (pyspiel, the ``openspiel`` extra): a fuzzeval
backgammon player seated there as a bot (``fuzzeval.interop.openspiel.make_bot``,
docs/openspiel.md).

OpenSpiel numbers the points in one frame for both players (player 0, ``x``, moves from
its 23 down to 0; player 1, ``o``, up from 0), shows checkers borne off as ``Scores``
and the dice in its state's text; an action moves up to two checkers, so a double is
played as two actions by the same player. The bridge reads the position from the seat
to move's side, asks the player for a whole play as fuzzeval lists them (the resulting
positions), and finds the action (or, for a double, the two actions) that reach the
position chosen: it plays the first and keeps the second for its next step.

OpenSpiel's legal plays are fuzzeval's (tests/games/test_backgammon.py checks that on
thousands of positions). Its game is cubeless, as fuzzeval's; ``scoring_type`` changes
only what a game pays (1 a game by default, gammons and backgammons with
``full_scoring``), and the fuzzeval players play every variant as they play cubeless
money games, gammons counted. ``hyper_backgammon`` (three checkers each) is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fuzzeval.games.backgammon.board import CHECKERS, Position
from fuzzeval.games.backgammon.game import GAME, State
from fuzzeval.play.game import Candidates

_OFF = re.compile(r"Scores, X: (\d+), O: (\d+)")
_DICE = re.compile(r"Dice: ([1-6])([1-6])")


def position(state: Any, player: int) -> Position:
    """The board seen from ``player``'s side (``me``), as fuzzeval's rules hold it."""
    text = str(state)
    found = _OFF.search(text)
    if found is None:
        raise ValueError(f"no checkers borne off in OpenSpiel's state text:\n{text}")
    off = (int(found.group(1)), int(found.group(2)))

    me, opp = _points(state, player)
    return Position((*me, CHECKERS - sum(me) - off[player]),
                    (*opp, CHECKERS - sum(opp) - off[1 - player]))


def dice(state: Any) -> tuple[int, int]:
    """The dice the player to move plays."""
    found = _DICE.search(str(state))
    if found is None:
        raise ValueError(f"no dice in OpenSpiel's state text:\n{state}")
    return int(found.group(1)), int(found.group(2))


def _turn_goes_on(state: Any, player: int) -> bool:
    return not state.is_terminal() and not state.is_chance_node() and \
        state.current_player() == player


def actions_to(state: Any, target: Position) -> list[int]:
    """OpenSpiel's actions (one, or two for a double) by which the player to move
    reaches ``target`` (seen from its side); empty when none does."""
    player = state.current_player()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if _turn_goes_on(child, player):
            rest = actions_to(child, target)
            if rest:
                return [action, *rest]
        elif _points(child, player) == (target.me[:24], target.opp[:24]) and \
                position(child, player) == target:  # the board first: text is slow
            return [action]
    return []


def _points(state: Any, player: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    def side(p: int) -> tuple[int, ...]:
        return tuple(state.board(p, 23 - i) if p == 0 else state.board(p, i)
                     for i in range(24))

    return side(player), side(1 - player)


class BackgammonBridge:
    """Translates OpenSpiel's backgammon for one bot; keeps the rest of a double's play."""

    game = "backgammon"

    def __init__(self) -> None:
        self._planned: tuple[list[int], list[int]] | None = None  # (history, actions)

    def restart(self) -> None:
        self._planned = None

    def decide(self, state: Any, choose: Callable[[Candidates], int]) -> int:
        player = state.current_player()
        history = state.history()
        if self._planned is not None and self._planned[0] == history:
            action = self._planned[1][0]
            self._planned = None
            return action
        last = state.full_history()[-1]
        if last.player == player:  # the second half of a double this bot did not begin
            start = state.clone()
            start.undo_action(player, last.action)
            return self._play(start, state, choose)
        return self._play(state, state, choose)

    def _play(self, start: Any, state: Any, choose: Callable[[Candidates], int]) -> int:
        player = start.current_player()
        candidates = GAME.candidates(State(position(start, player), player, dice(start)))
        choice = choose(candidates)
        target = candidates.view.options[choice]  # type: ignore[attr-defined]
        actions = actions_to(state, target)
        if not actions:
            raise AssertionError(f"no OpenSpiel action plays {candidates.labels[choice]} "
                                 f"(a double begun otherwise?):\n{state}")
        if len(actions) > 1:
            after = state.clone()
            after.apply_action(actions[0])
            self._planned = (after.history(), actions[1:])
        return actions[0]


def bridge(game: Any) -> BackgammonBridge:
    """The bridge for OpenSpiel's ``backgammon`` (fifteen checkers each)."""
    if game.get_parameters().get("hyper_backgammon", False):
        raise ValueError("fuzzeval's backgammon has fifteen checkers each, not hyper-"
                         "backgammon's three (hyper_backgammon=false)")
    return BackgammonBridge()
