"""Card notation shared by the card games: ``5H``, ``TS`` or ``10S``, ``jd``.

A game numbers its 52 cards ``4 * rank + suit`` with its own order of ranks (cribbage:
ace low, A 2 ... K; Hearts: ace high, 2 ... A, OpenSpiel's ids) and the suits C, D, H, S;
a ``Notation`` reads and writes cards in that order, so each game keeps its ids and every
game reads cards alike, with the same one-line errors.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from fuzzeval.errors import NotationError

SUITS = "CDHS"
Card = int | str


@dataclass(frozen=True)
class Notation:
    """``ranks``: the rank letters in id order; ``ranks_help`` and ``ids_help`` what the
    errors say is valid; ``example`` cards to show."""

    ranks: str
    ranks_help: str
    ids_help: str
    example: str

    def name(self, card: int) -> str:
        return self.ranks[card // 4] + SUITS[card % 4]

    def names(self, cards: Iterable[int]) -> str:
        return " ".join(self.name(c) for c in cards)

    def parse(self, token: Card) -> int:
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

    def parse_many(self, tokens: Iterable[Card] | str,
                   count: int | None = None) -> tuple[int, ...]:
        """Several cards (a list, or one string separated by spaces or commas), none
        twice; ``count``: exactly that many."""
        if isinstance(tokens, str):
            tokens = tokens.replace(",", " ").split()
        cards = tuple(self.parse(t) for t in tokens)
        seen: set[int] = set()
        for c in cards:
            if c in seen:
                raise NotationError(self.name(c), "this card appears twice")
            seen.add(c)
        if count is not None and len(cards) != count:
            raise NotationError(self.names(cards) or "nothing",
                                f"expected {count} cards (got {len(cards)})")
        return cards
