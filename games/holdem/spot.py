"""A decision written by hand: hole cards, board and betting (``--hole AsKd --board 2c3d4h
--betting cr/c``) read into the ``Decision`` a player sees, every inconsistency named in
one line: a malformed or repeated card, betting that is not legal or is over, a board that
does not fit the betting's round (none preflop, 3 on the flop, 4 on the turn, 5 on the
river), or an action that is not legal there.
"""

from __future__ import annotations

from fuzzeval.errors import NotationError
from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.cards import parse_cards
from fuzzeval.games.holdem.players import Decision


def read_spot(hole: str, board: str, betting: str) -> Decision:
    """The decision of the player to act after ``betting`` holding ``hole``."""
    mine = parse_cards(hole, 2)
    shown = parse_cards(board, None, mine)
    b = rules.parse_betting(betting)
    if b.to_move is None:
        raise NotationError(betting, "the hand is over: there is no decision to make")
    wanted = rules.BOARD_SIZE[b.round]
    if len(shown) != wanted:
        raise NotationError(board or "no board", f"the {rules.ROUND_NAMES[b.round]} (betting "
                                                 f"{betting!r}) has {wanted} board cards, "
                                                 f"not {len(shown)}")
    return Decision(b.to_move, (mine[0], mine[1]), shown, b, rules.legal(b))


def action_index(decision: Decision, action: str) -> int:
    """Where ACPC action ``action`` is among the decision's candidates; NotationError when
    it is not legal there."""
    if len(action) != 1 or action not in decision.actions:
        legal = ", ".join(decision.actions)
        raise NotationError(action, f"not legal after {str(decision.betting)!r} "
                                    f"(legal: {legal})")
    return decision.actions.index(action)
