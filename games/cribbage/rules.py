"""Two-player six-card cribbage from the deal to 121, as pure functions over frozen states.

A deal: six cards each; pone then dealer throw two to the dealer's crib; the starter is cut
(a jack is "his heels", 2 to the dealer); the play, pone leading (go, thirty-one, last card);
the show: pone's hand, the dealer's hand, then the crib. The game ends the moment a score
reaches 121, wherever that happens, and that player wins. The loser under 91 is skunked,
under 61 double-skunked.

Every state waits for one decision: a discard (``phase == "discard"``) or a card to lay
(``phase == "play"``). Gos, the cut, the show and the next deal happen inside ``apply``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal

import numpy as np

from fuzzeval.games.cribbage.cards import JACK, value
from fuzzeval.games.cribbage.discard import KEEPS, THROWS
from fuzzeval.games.cribbage.scoring import peg_points, show_points

WIN = 121
SKUNK = 91  # a loser below this is skunked
DOUBLE_SKUNK = 61
Phase = Literal["discard", "play", "over"]
Hands = tuple[tuple[int, ...], tuple[int, ...]]
Pair = tuple[int, int]
# Where points come from, in this order, per seat.
SOURCES = ("pegging", "hand", "crib", "heels")
PEG, HAND, CRIB, HEELS = range(4)


@dataclass(frozen=True, slots=True)
class State:
    """Everything about a game in progress; seats are 0 and 1."""

    scores: Pair
    dealer: int
    phase: Phase
    hands: Hands  # six cards before the discard, the four kept after it
    crib: tuple[int, ...]
    starter: int  # cut after both discards; drawn with the deal, hidden until then
    to_move: int
    in_hand: Hands  # cards not yet laid in the play
    count_cards: tuple[int, ...]  # laid since the count last started from 0
    count: int  # their total value
    played: tuple[int, ...]  # every card laid this deal, in order
    last: int  # seat that laid the last card of the current count, -1 at a fresh count
    deal_points: tuple[Pair, ...]  # points each seat scored in each deal, this one last
    tally: tuple[tuple[int, ...], tuple[int, ...]]  # per seat, points by SOURCES
    winner: int = -1
    peg_counts: bool = True  # False: pegging is played and tallied but not scored
    thrown: Hands = ((), ())  # the two cards each seat threw to this deal's crib

    @property
    def pone(self) -> int:
        return 1 - self.dealer

    def but(self, **changes: Any) -> State:
        """A copy with some fields changed (``dataclasses.replace`` without its overhead)."""
        values = {name: getattr(self, name) for name in _FIELDS}
        values.update(changes)
        return State(**values)


_FIELDS = tuple(f.name for f in fields(State))
_VALUE = tuple(value(c) for c in range(52))


def new_game(rng: np.random.Generator, first_dealer: int | None = None,
             peg_counts: bool = True) -> State:
    """A game whose first deal is dealt by ``first_dealer`` (None: cut for deal, low deals)."""
    if first_dealer is None:
        first_dealer = cut_for_deal(rng)
    if first_dealer not in (0, 1):
        raise ValueError(f"the first dealer is seat 0 or 1 (got {first_dealer!r})")
    empty: Hands = ((), ())
    blank = State(scores=(0, 0), dealer=1 - first_dealer, phase="over", hands=empty, crib=(),
                  starter=-1, to_move=-1, in_hand=empty, count_cards=(), count=0, played=(),
                  last=-1, deal_points=(), tally=((0,) * 4, (0,) * 4), peg_counts=peg_counts)
    return _deal(blank, rng)


def cut_for_deal(rng: np.random.Generator) -> int:
    """Each seat cuts a card; the lower rank deals first, equal ranks cut again."""
    while True:
        a, b = rng.choice(52, size=2, replace=False)
        if a // 4 != b // 4:
            return 0 if a // 4 < b // 4 else 1


def _deal(state: State, rng: np.random.Generator) -> State:
    """The next deal: the deal passes, six cards each (one at a time, pone first)."""
    dealer = 1 - state.dealer
    deck = [int(c) for c in rng.permutation(52)[:13]]
    hands = [sorted(deck[0:12:2]), sorted(deck[1:12:2])]
    if dealer == 0:
        hands.reverse()  # the pone gets the first card
    empty: Hands = ((), ())
    return state.but(dealer=dealer, phase="discard", hands=(tuple(hands[0]),
                   tuple(hands[1])), crib=(), starter=deck[12], to_move=1 - dealer,
                   in_hand=empty, count_cards=(), count=0, played=(), last=-1,
                   deal_points=(*state.deal_points, (0, 0)), thrown=empty)


def _score(state: State, seat: int, points: int, source: int) -> State:
    """Add points; the first to reach 121 wins on the spot."""
    if points == 0 or state.phase == "over":
        return state
    tally = [list(state.tally[0]), list(state.tally[1])]
    tally[seat][source] += points
    new = state.but(tally=(tuple(tally[0]), tuple(tally[1])))
    if source == PEG and not state.peg_counts:
        return new
    scores = list(state.scores)
    scores[seat] += points
    deal = list(state.deal_points[-1])
    deal[seat] += points
    new = new.but(scores=(scores[0], scores[1]),
                  deal_points=(*state.deal_points[:-1], (deal[0], deal[1])))
    if scores[seat] >= WIN:
        new = new.but(phase="over", winner=seat, to_move=-1)
    return new


def discard(state: State, throw: int, rng: np.random.Generator) -> State:
    """The seat to move throws THROWS[throw] (positions in its sorted six) to the crib."""
    if state.phase != "discard":
        raise ValueError("not the discard")
    seat = state.to_move
    six = state.hands[seat]
    kept = tuple(six[i] for i in KEEPS[throw])
    hands = list(state.hands)
    hands[seat] = kept
    thrown = list(state.thrown)
    thrown[seat] = tuple(six[i] for i in THROWS[throw])
    new = state.but(hands=(hands[0], hands[1]), thrown=(thrown[0], thrown[1]),
                  crib=tuple(sorted((*state.crib, *thrown[seat]))))
    if seat == state.pone:
        return new.but(to_move=state.dealer)
    # Both have thrown: cut the starter and begin the play, pone to lead.
    new = new.but(phase="play", in_hand=new.hands, to_move=state.pone)
    if new.starter // 4 == JACK:
        new = _score(new, state.dealer, 2, HEELS)
    return _settle(new, rng)


def playable(state: State, seat: int) -> tuple[int, ...]:
    """Cards the seat may lay without passing 31."""
    room = 31 - state.count
    return tuple(c for c in state.in_hand[seat] if _VALUE[c] <= room)


def lay(state: State, card: int, rng: np.random.Generator) -> State:
    """The seat to move lays a card; scores fifteens, pairs, runs and thirty-one."""
    seat = state.to_move
    if state.phase != "play" or card not in playable(state, seat):
        raise ValueError("that card cannot be laid now")
    in_hand = list(state.in_hand)
    in_hand[seat] = tuple(c for c in in_hand[seat] if c != card)
    count_cards = (*state.count_cards, card)
    total = state.count + _VALUE[card]
    new = state.but(in_hand=(in_hand[0], in_hand[1]), count_cards=count_cards, count=total,
                  played=(*state.played, card), last=seat, to_move=1 - seat)
    new = _score(new, seat, peg_points(count_cards, total), PEG)
    if total == 31:  # thirty-one scored 2 above; the count starts again, no go point
        new = new.but(count_cards=(), count=0, last=-1)
    return _settle(new, rng)


def _settle(state: State, rng: np.random.Generator) -> State:
    """Resolve gos and the end of the play until someone can lay a card; then the show."""
    while state.phase == "play":
        seat = state.to_move
        if not state.in_hand[0] and not state.in_hand[1]:
            if state.last >= 0:  # last card (not when it made 31)
                state = _score(state, state.last, 1, PEG)
            return _show(state, rng)
        if playable(state, seat):
            return state
        if playable(state, 1 - seat):  # "go": the other keeps laying
            state = state.but(to_move=1 - seat)
            continue
        # Neither can lay: one for the go to the last to lay; the other starts the new count.
        last = state.last
        state = _score(state, last, 1, PEG)
        state = state.but(count_cards=(), count=0, last=-1, to_move=1 - last)
    return state


def _show(state: State, rng: np.random.Generator) -> State:
    """Pone's hand, the dealer's hand, the crib: in that order, stopping at 121."""
    pone, dealer = state.pone, state.dealer
    state = _score(state, pone, show_points(state.hands[pone], state.starter), HAND)
    state = _score(state, dealer, show_points(state.hands[dealer], state.starter), HAND)
    state = _score(state, dealer, show_points(state.crib, state.starter, crib=True), CRIB)
    if state.phase == "over":
        return state
    return _deal(state, rng)


def result(state: State) -> tuple[str, int]:
    """Kind and game points of a finished game: single 1, skunk 2, double skunk 3."""
    if state.phase != "over":
        raise ValueError("the game is not over")
    loser = state.scores[1 - state.winner]
    if loser < DOUBLE_SKUNK:
        return "double skunk", 3
    if loser < SKUNK:
        return "skunk", 2
    return "single", 1


def deal_of(state: State) -> int:
    return len(state.deal_points) - 1


def throw_index(six: Sequence[int], pair: Sequence[int]) -> int:
    """Index in THROWS of throwing the two cards ``pair`` from the sorted six."""
    positions = tuple(sorted(six.index(c) for c in pair))
    return THROWS.index((positions[0], positions[1]))
