"""Hold'em cards as small integers: id = 4 * rank + suit, OpenSpiel's ``universal_poker``
and phevaluator's ids.

rank 0..12 is 2, 3, ..., T, J, Q, K, A; suit 0..3 is c, d, h, s. So 2c = 0, 2d = 1,
As = 51. Cards are written the ACPC way, rank upper case and suit lower case (``As``,
``Td``), and read in any case, with or without separators: ``AsKd``, ``As Kd``, ``as,kd``
(``10d`` is read as ``Td``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from fuzzeval.errors import NotationError
from fuzzeval.games.cards import Notation

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = 52
NOTATION = Notation(RANKS, "2-9 T/10 J Q K A", "card ids run from 0 (2c) to 51 (As)",
                    "As, Td, 10d, 2c", SUITS, sep="")
#: ``'As'``, ``'td'``, ``'10D'`` -> id (an id passes through); ``As`` for 51, ``AsKd``
#: (ACPC) for several, or separated by ``sep``
parse_card, card_str, cards_str = NOTATION.parse_card, NOTATION.card_str, NOTATION.cards_str
#: one card inside a run of cards: a rank (10 or one letter) then a suit letter
_CARD = re.compile(r"(10|[0-9A-Za-z])([A-Za-z])")


def _tokens(text: str) -> Iterator[str]:
    """Each card of ``text`` as written, one at a time (the shared parser reads each before
    the next is cut, so the first bad card is the one named)."""
    for word in text.replace(",", " ").split():
        at = 0
        while at < len(word):
            m = _CARD.match(word, at)
            if m is None:
                raise NotationError(word[at:], f"a card is a rank and a suit, e.g. "
                                               f"{NOTATION.example}")
            yield m.group(0)
            at = m.end()


def parse_cards(text: str, count: int | None = None,
                taken: Iterable[int] = ()) -> tuple[int, ...]:
    """Cards written together or apart (``AsKd``, ``As Kd``, ``As,Kd``), none twice and
    none in ``taken`` (cards already named elsewhere); ``count``: exactly that many (a
    wrong count names the text as written)."""
    return NOTATION.parse_cards(_tokens(text), count, taken, text.strip())
