"""Card notation shared by the card games: ``5H``, ``TS`` or ``10S``, ``jd``.

A game numbers its 52 cards ``4 * rank + suit`` with its own order of ranks (cribbage:
ace low, A 2 ... K; Hearts and hold'em: ace high, 2 ... A, OpenSpiel's ids) and the suits
C, D, H, S; a ``Notation`` reads and writes cards in that order, so each game keeps its ids
and every game reads cards alike, with the same one-line errors. A game's ``cards`` module
holds its notation and binds its functions (``parse_card = NOTATION.parse_card``, ...).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from fuzzeval.errors import NotationError

SUITS = "CDHS"
Card = int | str


def rank(card: int) -> int:
    """The card's rank index, in its game's order of ranks."""
    return card // 4


def suit(card: int) -> int:
    """The card's suit index: 0..3 is C, D, H, S."""
    return card % 4


@dataclass(frozen=True)
class Notation:
    """``ranks``: the rank letters in id order; ``ranks_help`` and ``ids_help`` what the
    errors say is valid; ``example`` cards to show; ``suits`` the suit letters as written
    (hold'em writes them lower case, ACPC's ``As``; read in any case) and ``sep`` what
    stands between cards written together."""

    ranks: str
    ranks_help: str
    ids_help: str
    example: str
    suits: str = SUITS
    sep: str = " "
    #: every card's name, by id
    names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(self.ranks[c // 4] + self.suits[c % 4]
                                                for c in range(52)))

    def card_str(self, card: int) -> str:
        """``5H`` (cribbage), ``As`` (hold'em)."""
        return self.names[card]

    def cards_str(self, cards: Iterable[int], sep: str | None = None) -> str:
        """The cards' names, separated by ``sep`` (by default the notation's)."""
        return (self.sep if sep is None else sep).join([self.names[c] for c in cards])

    def parse_card(self, token: Card) -> int:
        """A card's id from its name (an id passes through); NotationError names the
        token and says what is valid."""
        if isinstance(token, (int, np.integer)) and not isinstance(token, bool):
            if 0 <= int(token) < 52:
                return int(token)
            raise NotationError(str(token), self.ids_help)
        if not isinstance(token, str):
            raise NotationError(repr(token), f"a card is written like {self.example}")
        text = token.strip().upper()
        if len(text) < 2:
            raise NotationError(token, f"a card is a rank and a suit, e.g. {self.example}")
        rank_text, suit_text = text[:-1], text[-1]
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in self.ranks:
            raise NotationError(token, f"unknown rank {rank_text!r} (ranks: "
                                       f"{self.ranks_help})")
        if suit_text not in SUITS:
            raise NotationError(token, f"unknown suit {suit_text!r} (suits: C D H S)")
        return 4 * self.ranks.index(rank_text) + SUITS.index(suit_text)

    def parse_cards(self, tokens: Iterable[Card] | str, count: int | None = None,
                    taken: Iterable[int] = (), shown: str | None = None) -> tuple[int, ...]:
        """Several cards (a list, or one string separated by spaces or commas), none
        twice and none in ``taken`` (cards already named elsewhere); ``count``: exactly
        that many. A wrong count names ``shown`` (the cards as the caller read them, by
        default as this notation writes them)."""
        if isinstance(tokens, str):
            tokens = tokens.replace(",", " ").split()
        cards = tuple(self.parse_card(t) for t in tokens)
        seen = set(taken)
        for c in cards:
            if c in seen:
                raise NotationError(self.card_str(c), "this card appears twice")
            seen.add(c)
        if count is not None and len(cards) != count:
            raise NotationError((self.cards_str(cards) if shown is None else shown)
                                or "nothing", f"expected {count} cards (got {len(cards)})")
        return cards
