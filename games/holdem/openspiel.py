"""The bridge that seats a fuzzeval hold'em player in OpenSpiel's ``universal_poker`` as a
bot (``fuzzeval.interop.openspiel.make_bot``, entry point group ``fuzzeval.openspiel``,
docs/openspiel.md). It stands on the plug-in (``holdem.game``); the agreement check with
OpenSpiel's rules is a script (``holdem.scripts.check_openspiel``).

Only the heads-up limit game of the ACPC (``GAME_STRING``, its
``holdem.limit.2p.reverse_blinds`` structure) is played: another structure is refused,
naming the parameters that differ. OpenSpiel's history is replayed
by fuzzeval's rules (so every legal-action list is compared once more): its first four
chance actions are the positions' hole cards, then each round's board cards as the round
comes; OpenSpiel's player p is position p (0 the big blind, 1 the button). The player sees
its own view only: its position, its cards, the board and the betting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.game import GAME, State
from fuzzeval.play.game import Candidates

GAME_STRING = ("universal_poker(betting=limit,numPlayers=2,numRounds=4,blind=10 5,"
               "raiseSize=10 10 20 20,firstPlayer=2 1 1 1,maxRaises=3 4 4 4,numSuits=4,"
               "numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1)")
#: our ACPC letters as OpenSpiel's actions
ACTION_IDS = {"f": 0, "c": 1, "r": 2}
_LETTERS = {v: k for k, v in ACTION_IDS.items()}


def replay(history: list[int]) -> tuple[tuple[int, int, int, int], tuple[int, ...],
                                        rules.Betting]:
    """The hole cards (position 0's two, position 1's two), the board dealt so far and
    the betting of an OpenSpiel history, by fuzzeval's rules (a NotationError for an
    action they do not allow)."""
    holes = (history[0], history[1], history[2], history[3])
    board: list[int] = []
    b = rules.START
    for action in history[4:]:
        if len(board) < rules.BOARD_SIZE[b.round]:
            board.append(action)
        else:
            b = rules.act(b, _LETTERS[action])
    return holes, tuple(board), b


class HoldemBridge:
    """Translates OpenSpiel's ``universal_poker`` (the ACPC's heads-up limit game) for one
    bot."""

    game = "holdem"

    def restart(self) -> None:
        pass  # each step replays the hand from OpenSpiel's history: nothing is kept

    def decide(self, state: Any, choose: Callable[[Candidates], int]) -> int:
        history = [int(a) for a in state.history()]
        holes, board, b = replay(history)
        legal = rules.legal(b)
        ours = sorted(ACTION_IDS[a] for a in legal)
        if b.to_move != state.current_player() or ours != sorted(state.legal_actions()):
            raise AssertionError(f"fuzzeval: position {b.to_move} may {legal!r} after "
                                 f"{b}; OpenSpiel: player {state.current_player()} "
                                 f"{state.legal_actions()}\n{state}")
        # Cards nobody has seen yet stand in for the board to come (the view shows only
        # what is out: ``Deal.board_at``).
        seen = {*holes, *board}
        rest = [c for c in range(52) if c not in seen][: 5 - len(board)]
        deal = rules.Deal(((holes[0], holes[1]), (holes[2], holes[3])), (*board, *rest))
        candidates = GAME.candidates(State(deal, b, rules.BUTTON))
        return ACTION_IDS[legal[choose(candidates)]]


def bridge(game: Any) -> HoldemBridge:
    """The bridge for OpenSpiel's ``universal_poker`` with the ACPC's heads-up limit
    structure; a ValueError names the parameters of another."""
    import pyspiel

    want = pyspiel.load_game(GAME_STRING).get_parameters()
    have = game.get_parameters()
    wrong = sorted(k for k in set(want) | set(have) if want.get(k) != have.get(k))
    if wrong:
        raise ValueError("fuzzeval's holdem plays " + ", ".join(
            f"{k}={want.get(k)}" for k in wrong) + f" ({GAME_STRING})")
    return HoldemBridge()
