"""Cards as small integers: id = 4 * rank_index + suit_index.

rank_index 0..12 is A, 2, ..., 10, J, Q, K; suit_index 0..3 is C, D, H, S. Ids sort by
rank first, so a sorted hand reads the way players hold it.
"""

from __future__ import annotations

from fuzzeval.games.cards import Card as Card
from fuzzeval.games.cards import Notation

RANKS = "A23456789TJQK"
JACK = 10  # rank index of the jack


def value(card: int) -> int:
    """Counting value: ace 1, pictures 10."""
    return min(card // 4 + 1, 10)


NOTATION = Notation(RANKS, "A 2-9 T/10 J Q K", "card ids run from 0 to 51", "5H, TS, 10S, JD")
#: '5H', 'TS' or '10S', 'jd' -> id (an id passes through), and back
parse_card, parse_cards = NOTATION.parse_card, NOTATION.parse_cards
card_str, cards_str = NOTATION.card_str, NOTATION.cards_str
