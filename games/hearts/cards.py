"""Hearts cards as small integers: id = 4 * rank + suit, OpenSpiel's ``hearts`` ids.

rank 0..12 is 2, 3, ..., 10, J, Q, K, A (the ace is high in Hearts); suit 0..3 is C, D, H, S.
So 2C = 0, QS = 43, AS = 51, and within a suit a higher id is a higher card. A set of
cards is a 52-bit mask (bit ``id``): hands, played cards and legal moves are masks, which
keeps the rules fast. Notation is the cribbage one: ``QS``, ``TH`` or ``10H``, ``jd``.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from fuzzeval.errors import NotationError

RANKS = "23456789TJQKA"
SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TWO_CLUBS = 0
QUEEN_SPADES = 4 * 10 + SPADES  # 43
KING_SPADES = 4 * 11 + SPADES
ACE_SPADES = 4 * 12 + SPADES
FULL = (1 << 52) - 1
#: the 13 cards of each suit, as masks
SUIT_MASK = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))
HEARTS_MASK = SUIT_MASK[HEARTS]
POINTS_MASK = HEARTS_MASK | 1 << QUEEN_SPADES
#: points a card is worth to whoever takes it: hearts 1, the queen of spades 13
POINTS = tuple(13 if c == QUEEN_SPADES else int(c % 4 == HEARTS) for c in range(52))

Card = int | str


def rank(card: int) -> int:
    return card >> 2


def suit(card: int) -> int:
    return card & 3


def parse_card(token: Card) -> int:
    """'QS', 'TH' or '10H', 'jd' -> id; an id passes through. NotationError names the token."""
    if isinstance(token, (int, np.integer)) and not isinstance(token, bool):
        if 0 <= int(token) < 52:
            return int(token)
        raise NotationError(str(token), "card ids run from 0 (2C) to 51 (AS)")
    if not isinstance(token, str):
        raise NotationError(repr(token), "a card is written like QS, TH, 10H, 2C")
    text = token.strip().upper()
    if len(text) < 2:
        raise NotationError(token, "a card is a rank and a suit, e.g. QS, TH, 10H, 2C")
    rank_text, suit_text = text[:-1], text[-1]
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS:
        raise NotationError(token, f"unknown rank {rank_text!r} (ranks: 2-9 T/10 J Q K A)")
    if suit_text not in SUITS:
        raise NotationError(token, f"unknown suit {suit_text!r} (suits: C D H S)")
    return 4 * RANKS.index(rank_text) + SUITS.index(suit_text)


def parse_cards(tokens: Iterable[Card] | str, count: int | None = None) -> tuple[int, ...]:
    """Several cards (a list, or one string separated by spaces or commas); no duplicates."""
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    cards = tuple(parse_card(t) for t in tokens)
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise NotationError(card_str(twice), "this card appears twice")
    if count is not None and len(cards) != count:
        shown = cards_str(cards) or "nothing"
        raise NotationError(shown, f"expected {count} cards (got {len(cards)})")
    return cards


def card_str(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def cards_str(cards: Iterable[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
