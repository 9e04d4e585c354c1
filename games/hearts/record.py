"""A hand's choices and the hand replayed from them (OpenSpiel's agreement and ISMCTS use
them). A finished state keeps everything needed: the deal, each seat's passes in order
(seat 0 passes first) and every card laid in order, so nothing else has to be logged.
The history's export (``fuzzeval history export``) writes the same hand as events, through
the game's ``chance_events`` and its stored decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fuzzeval.games.hearts.rules import SEATS, Options, State, apply, new_hand


def choices(state: State) -> list[int]:
    """Every card chosen this hand, in order: the passes, then the plays."""
    passes = [c for seat in range(SEATS) for c in state.passed[seat]]
    return passes + [card for _, card in state.laid]


def replay(dealt: Sequence[int], cards: Iterable[int], options: Options,
           hand_number: int = 0) -> State:
    """The hand dealt ``dealt`` (four masks) after ``cards`` are chosen in turn."""
    state = new_hand((dealt[0], dealt[1], dealt[2], dealt[3]), options, hand_number)
    for card in cards:
        state = apply(state, card)
    return state
