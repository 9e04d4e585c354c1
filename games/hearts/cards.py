"""Hearts cards as small integers: id = 4 * rank + suit, OpenSpiel's ``hearts`` ids.

rank 0..12 is 2, 3, ..., 10, J, Q, K, A (the ace is high in Hearts); suit 0..3 is C, D, H, S.
So 2C = 0, QS = 43, AS = 51, and within a suit a higher id is a higher card. A set of
cards is a 52-bit mask (bit ``id``): hands, played cards and legal moves are masks, which
keeps the rules fast. Notation is the cribbage one: ``QS``, ``TH`` or ``10H``, ``jd``.
"""

from __future__ import annotations

from collections.abc import Iterable

from fuzzeval.games.cards import Card as Card
from fuzzeval.games.cards import Notation

RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
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

NOTATION = Notation(RANKS, "2-9 T/10 J Q K A", "card ids run from 0 (2C) to 51 (AS)",
                    "QS, TH, 10H, 2C")
#: 'QS', 'TH' or '10H', 'jd' -> id (an id passes through), and back
parse_card, parse_cards = NOTATION.parse_card, NOTATION.parse_cards
card_str, cards_str = NOTATION.card_str, NOTATION.cards_str


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
