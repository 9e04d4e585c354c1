"""Cards as small integers: id = 4 * rank_index + suit_index.

rank_index 0..12 is A, 2, ..., 10, J, Q, K; suit_index 0..3 is C, D, H, S. Ids sort by
rank first, so a sorted hand reads the way players hold it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from fuzzeval.errors import NotationError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
JACK = 10  # rank index of the jack

Card = int | str


def rank(card: int) -> int:
    return card // 4


def suit(card: int) -> int:
    return card % 4


def value(card: int) -> int:
    """Counting value: ace 1, pictures 10."""
    return min(card // 4 + 1, 10)


def parse_card(token: Card) -> int:
    """'5H', 'TS' or '10S', 'jd' -> id; an id passes through. NotationError names the token."""
    if isinstance(token, (int, np.integer)) and not isinstance(token, bool):  # numpy ints too
        if 0 <= int(token) < 52:
            return int(token)
        raise NotationError(str(token), "card ids run from 0 to 51")
    if not isinstance(token, str):
        raise NotationError(repr(token), "a card is written like 5H, TS, 10S, JD")
    text = token.strip().upper()
    if len(text) < 2:
        raise NotationError(token, "a card is a rank and a suit, e.g. 5H, TS, 10S, JD")
    rank_text, suit_text = text[:-1], text[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise NotationError(token, f"unknown rank {rank_text!r} (ranks: A 2-9 T/10 J Q K)")
    if suit_text not in SUITS:
        raise NotationError(token, f"unknown suit {suit_text!r} (suits: C D H S)")
    return 4 * RANKS.index(rank_text) + SUITS.index(suit_text)


def parse_cards(tokens: Iterable[Card] | str, count: int | None = None) -> tuple[int, ...]:
    """Several cards (a list, or one string separated by spaces or commas); no duplicates."""
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    cards = tuple(parse_card(t) for t in tokens)
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise NotationError(card_str(c), "this card appears twice")
        seen.add(c)
    if count is not None and len(cards) != count:
        shown = " ".join(card_str(c) for c in cards) or "nothing"
        raise NotationError(shown, f"expected {count} cards (got {len(cards)})")
    return cards


def card_str(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def cards_str(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards)
