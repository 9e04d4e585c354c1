"""A hand as a record and back: its deal and every decision, in the shape of issue 26's
export (``{"chance": "deal", "seat": 2, "cards": [...]}``, then ``{"seat": 0, "kind":
"play", "choice": "QS", "options": 7}``), and the hand replayed from it.

A finished state keeps everything needed: the deal, each seat's passes in order (seat 0
passes first) and every card laid in order, so nothing else has to be logged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from fuzzeval.errors import NotationError
from fuzzeval.games.hearts.cards import card_str, cards_of, mask_of, parse_card
from fuzzeval.games.hearts.rules import SEATS, Options, State, apply, legal_mask, new_hand


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


def events(state: State) -> list[dict[str, Any]]:
    """The deal (one event per seat) and every decision with its number of options."""
    out: list[dict[str, Any]] = [
        {"chance": "deal", "seat": seat, "cards": [card_str(c) for c in cards_of(hand)]}
        for seat, hand in enumerate(state.dealt)]
    step = new_hand(state.dealt, state.options, state.hand_number)
    for card in choices(state):
        out.append({"seat": step.to_move, "kind": step.kind, "choice": card_str(card),
                    "options": legal_mask(step).bit_count()})
        step = apply(step, card)
    return out


def from_events(items: Sequence[dict[str, Any]], options: Options,
                hand_number: int = 0) -> State:
    """The state that ``events`` recorded; a card that cannot be chosen is refused with the
    event's number and the legal cards."""
    deal = [0, 0, 0, 0]
    for item in items:
        if item.get("chance") == "deal":
            deal[int(item["seat"])] = mask_of(parse_card(t) for t in item["cards"])
    state = new_hand((deal[0], deal[1], deal[2], deal[3]), options, hand_number)
    for number, item in enumerate(items, 1):
        if "chance" in item:
            continue
        try:
            state = apply(state, parse_card(item["choice"]))
        except NotationError as error:
            raise NotationError(str(item["choice"]), f"event {number}: {error.why}") from None
    return state
