"""Heads-up limit hold'em with the ACPC ``holdem.limit.2p.reverse_blinds`` structure, as
pure functions over frozen states (checked against OpenSpiel's ``universal_poker``).

Two positions. Position 0 posts the big blind (10 chips) and position 1, the button, the
small blind (5). Four betting rounds: preflop, flop (3 board cards), turn (1), river (1).
The button acts first preflop and last after it (position 0 opens the flop, turn and
river). A bet or raise is the small bet (10) preflop and on the flop, the big bet (20) on
the turn and river; a round holds at most 4 bets, the big blind counting as the first
preflop (so 3 raises preflop, 4 bets after). Actions are ACPC letters: ``f`` fold (only
when facing a bet), ``c`` check or call, ``r`` bet or raise. Heads-up, a ``c`` that is not
the first action of its round closes the round; after the river the best five of seven
cards win the pot, equal hands split it. The betting is written the ACPC way, rounds
separated by ``/``: ``rrc/crc/c`` is a hand in progress on the turn.

Betting needs no cards (``Betting``); ``chips`` settles a finished hand with its deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fuzzeval.errors import NotationError
from fuzzeval.games.holdem.cards import cards_str
from fuzzeval.games.holdem.evaluate import showdown

BIG_BLIND, SMALL_BLIND = 10, 5
SMALL_BET, BIG_BET = 10, 20
#: the bet size of each round, and how many board cards are out in it
BET_SIZE = (SMALL_BET, SMALL_BET, BIG_BET, BIG_BET)
BOARD_SIZE = (0, 3, 4, 5)
MAX_BETS = 4  # a round's cap; the big blind is the first preflop
ROUNDS = 4
ROUND_NAMES = ("preflop", "flop", "turn", "river")
BIG, BUTTON = 0, 1  # the positions
FOLD, CALL, RAISE = "f", "c", "r"


@dataclass(frozen=True, slots=True)
class Betting:
    """The betting of a hand so far: each round's actions (``("rrc", "c")``: on the flop,
    after position 0 checked), the chips each position has put in, and who acts next
    (None once the hand is over: a fold or the river closed)."""

    rounds: tuple[str, ...]
    spent: tuple[int, int]
    to_move: int | None

    @property
    def round(self) -> int:
        return len(self.rounds) - 1

    @property
    def over(self) -> bool:
        return self.to_move is None

    @property
    def folded(self) -> int | None:
        """The position that folded, or None."""
        last = self.rounds[-1]
        if not last.endswith(FOLD):
            return None
        first = BUTTON if self.round == 0 else BIG
        return (first + len(last) - 1) % 2

    @property
    def bets(self) -> int:
        """Bets in the current round, the big blind counting preflop."""
        return self.rounds[-1].count(RAISE) + (self.round == 0)

    @property
    def to_call(self) -> int:
        """Chips the position to act must add to call (0: it may check)."""
        return abs(self.spent[0] - self.spent[1])

    @property
    def pot(self) -> int:
        return self.spent[0] + self.spent[1]

    def __str__(self) -> str:
        return "/".join(self.rounds)


START = Betting(("",), (BIG_BLIND, SMALL_BLIND), BUTTON)


def legal(b: Betting) -> str:
    """The legal actions, in the order ``f``, ``c``, ``r`` ("" once the hand is over)."""
    if b.to_move is None:
        return ""
    return (FOLD if b.to_call else "") + CALL + (RAISE if b.bets < MAX_BETS else "")


def act(b: Betting, action: str) -> Betting:
    """The betting after ``action``; NotationError names an action that is not legal."""
    me = b.to_move
    if me is None:
        raise NotationError(action, f"the hand is over ({_ended(b)}): no more actions")
    if len(action) != 1 or action not in legal(b):
        why = ("nothing to call: check (c) or bet (r)" if action == FOLD else
               f"{b.bets} bets already this round, the cap" if action == RAISE else
               "actions are f, c and r")
        raise NotationError(action, why)
    rounds = (*b.rounds[:-1], b.rounds[-1] + action)
    if action == FOLD:
        return Betting(rounds, b.spent, None)
    spent = list(b.spent)
    if action == RAISE:
        spent[me] = max(spent) + BET_SIZE[b.round]
        return Betting(rounds, (spent[0], spent[1]), 1 - me)
    spent[me] = max(spent)
    if len(rounds[-1]) == 1:  # the first action of a round does not close it
        return Betting(rounds, (spent[0], spent[1]), 1 - me)
    if b.round == ROUNDS - 1:
        return Betting(rounds, (spent[0], spent[1]), None)
    return Betting((*rounds, ""), (spent[0], spent[1]), BIG)


def _ended(b: Betting) -> str:
    return "a fold" if b.folded is not None else "the showdown"


def parse_betting(text: str) -> Betting:
    """The betting written the ACPC way (``rrc/crc/c``); NotationError names the first
    token that is not legal there (a fourth raise, an action after a fold, a round
    closed too early or too late) and where it is."""
    b = START
    slash = False  # a round has just closed: its '/' is still to come
    for at, ch in enumerate(text):
        where = f"character {at + 1}"
        if ch == "/":
            if not slash:
                raise NotationError(text[: at + 1], f"no round ends at {where}")
            slash = False
            continue
        if slash:
            raise NotationError(text[: at + 1], f"the {ROUND_NAMES[b.round]} starts with "
                                                f"'/' ({where})")
        try:
            b = act(b, ch)
        except NotationError as error:
            raise NotationError(text[: at + 1], f"{ch!r} at {where}: {error.why}") from None
        slash = b.rounds[-1] == "" and b.round > 0
    return b


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of a hand, by position: each's two hole cards, then the board (all five,
    or in a log only those dealt)."""

    holes: tuple[tuple[int, int], tuple[int, int]]
    board: tuple[int, ...]

    def __post_init__(self) -> None:
        cards = [*self.holes[0], *self.holes[1], *self.board]
        if len(set(cards)) != len(cards) or len(self.board) > 5:
            raise ValueError(f"not a deal: {cards_str(cards, ' ')}")

    def board_at(self, round_: int) -> tuple[int, ...]:
        return self.board[: BOARD_SIZE[round_]]

    def __str__(self) -> str:
        """ACPC cards: ``AsKd|2c2h/3c4c5c/6d/7h`` by position, the board by round."""
        text = f"{cards_str(self.holes[0])}|{cards_str(self.holes[1])}"
        return text + "".join("/" + cards_str(self.board[BOARD_SIZE[r - 1]:BOARD_SIZE[r]])
                              for r in range(1, ROUNDS) if len(self.board) >= BOARD_SIZE[r])


def deal_of(cards: Sequence[int]) -> Deal:
    """The deal of nine cards in OpenSpiel's order: position 0's two, position 1's two,
    then the board."""
    return Deal(((cards[0], cards[1]), (cards[2], cards[3])), tuple(cards[4:9]))


def chips(deal: Deal, b: Betting) -> tuple[int, int]:
    """What each position wins in a finished hand, in chips (the two sum to 0): a fold
    loses what the folder put in; a showdown wins what the loser put in, or splits."""
    if not b.over:
        raise ValueError(f"the hand {b} is not over")
    folded = b.folded
    if folded is not None:
        lost = b.spent[folded]
        return (-lost, lost) if folded == BIG else (lost, -lost)
    if len(deal.board) < 5:
        raise ValueError("a showdown needs the five board cards")
    winner = showdown(deal.holes[0], deal.holes[1], deal.board)
    won = b.spent[0]  # equal to b.spent[1] at a showdown
    return (0, 0) if winner < 0 else (won, -won) if winner == 0 else (-won, won)
