"""Cards as small integers: id = 4 * rank_index + suit_index.

rank_index 0..12 is A, 2, ..., 10, J, Q, K; suit_index 0..3 is C, D, H, S. Ids sort by
rank first, so a sorted hand reads the way players hold it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fuzzeval.games.cards import Card as Card
from fuzzeval.games.cards import Notation

RANKS = "A23456789TJQK"
SUITS = "CDHS"  # as in every card game (fuzzeval.games.cards)
JACK = 10  # rank index of the jack



def rank(card: int) -> int:
    return card // 4


def suit(card: int) -> int:
    return card % 4


def value(card: int) -> int:
    """Counting value: ace 1, pictures 10."""
    return min(card // 4 + 1, 10)


NOTATION = Notation(RANKS, "A 2-9 T/10 J Q K", "card ids run from 0 to 51", "5H, TS, 10S, JD")


def parse_card(token: Card) -> int:
    """'5H', 'TS' or '10S', 'jd' -> id; an id passes through. NotationError names the token."""
    return NOTATION.parse(token)


def parse_cards(tokens: Iterable[Card] | str, count: int | None = None) -> tuple[int, ...]:
    """Several cards (a list, or one string separated by spaces or commas); no duplicates."""
    return NOTATION.parse_many(tokens, count)


def card_str(card: int) -> str:
    return NOTATION.name(card)


def cards_str(cards: Sequence[int]) -> str:
    return NOTATION.names(cards)
