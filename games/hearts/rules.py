"""Four-seat Hearts as pure functions over a frozen state, with OpenSpiel's semantics.

A hand: 13 cards each, dealt one at a time to seats 0, 1, 2, 3, 0, ... (OpenSpiel's deal
order); then, by hand number, each seat passes three cards left, right, across or not at
all (left is the next seat, ``seat + 1``); the 2C leads the first trick; tricks follow
suit, the highest card of the led suit wins and its winner leads next. Hearts score 1
each and the QS 13 to whoever takes them; a seat that takes all 26 "shoots the moon":
it scores 0 and the other three 26 each.

The standard restrictions (each an option, all off in Sturtevant & White's variant):

- ``no_points_first_trick``: a seat void in clubs on the first trick must discard a card
  that is neither a heart nor the QS, if it holds one; otherwise any card.
- ``must_break_hearts``: hearts may not be led until a heart or the QS has been played
  (laid in any trick, discards included), unless the leader holds only hearts. A
  leader holding only hearts and the QS must lead the QS (OpenSpiel's default).
- ``lead_any_club``: the 2C holder may open with any club, not only the 2C. The first
  lead is a club from the 2C holder in every configuration (OpenSpiel's rule; Sturtevant
  & White say nothing about who leads).

Passing is three decisions of kind ``pass`` per seat, one card each, seat 0 first, then
1, 2, 3 (OpenSpiel's order); passed cards leave the hand at once and arrive when all four
have passed. A decision is one card, so every decision (pass or play) is a card chosen
from a short list, replayed and logged the same way as OpenSpiel's actions.

A game is one hand, or with ``target`` (e.g. 100) hands until a seat's total reaches it;
the next hand's deal then comes from the ``rng`` given to :func:`apply`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from fuzzeval.errors import NotationError
from fuzzeval.games.hearts.cards import (
    HEARTS,
    HEARTS_MASK,
    POINTS,
    POINTS_MASK,
    QUEEN_SPADES,
    SUIT_MASK,
    card_str,
    cards_of,
    cards_str,
)

SEATS = 4
TRICKS = 13
PASS_COUNT = 3
MOON = 26  # every point in the deck
#: pass directions, as OpenSpiel numbers them: the receiver is ``(seat + direction) % 4``
NO_PASS, LEFT, ACROSS, RIGHT = range(4)
DIRECTION_NAMES = ("none", "left", "across", "right")
#: hand 0 passes left, hand 1 right, hand 2 across, hand 3 keeps; then again
PASS_CYCLE = (LEFT, RIGHT, ACROSS, NO_PASS)
Phase = Literal["pass", "play", "over"]
Four = tuple[int, int, int, int]
_ZERO: Four = (0, 0, 0, 0)
_CLUBS = SUIT_MASK[0]
_NON_HEARTS = ((1 << 52) - 1) ^ HEARTS_MASK
_NON_POINTS = ((1 << 52) - 1) ^ POINTS_MASK


@dataclass(frozen=True, slots=True)
class Options:
    """Which rules apply; the defaults are standard Hearts (OpenSpiel's defaults)."""

    passing: bool = True
    must_break_hearts: bool = True
    no_points_first_trick: bool = True
    lead_any_club: bool = False
    target: int = 0  # 0: a game is one hand; else hands until a total reaches it

    def __post_init__(self) -> None:
        if not isinstance(self.target, int) or self.target < 0:
            raise ValueError(f"target is a whole number of points >= 0, 0 for one hand "
                             f"(got {self.target!r})")

    def openspiel(self) -> str:
        """The same rules as an OpenSpiel game string."""
        flags = {"pass_cards": self.passing, "must_break_hearts": self.must_break_hearts,
                 "no_pts_on_first_trick": self.no_points_first_trick,
                 "can_lead_any_club": self.lead_any_club}
        return "hearts(" + ",".join(f"{k}={str(v).lower()}" for k, v in flags.items()) + ")"


STANDARD = Options()
#: Sturtevant & White (2006): no passing, no restrictions on leads or on points in the
#: first trick
STURTEVANT_WHITE = Options(passing=False, must_break_hearts=False,
                           no_points_first_trick=False, lead_any_club=True)


@dataclass(frozen=True, slots=True)
class State:
    """A hand in progress (and the totals of the hands before it); seats are 0..3."""

    options: Options
    hand_number: int  # 0 for the first hand of a game
    direction: int  # NO_PASS, LEFT, ACROSS or RIGHT
    dealt: Four  # each seat's 13 cards as dealt (masks)
    hands: Four  # cards held now (masks)
    passed: tuple[tuple[int, ...], ...]  # cards each seat passed, in the order chosen
    phase: Phase
    to_move: int  # -1 when the game is over
    leader: int  # seat that led the current trick (or leads the next)
    trick: tuple[int, ...]  # cards on the current trick, the lead first
    played: int  # every card laid this hand (mask)
    laid: tuple[tuple[int, int], ...]  # (seat, card) for every card laid, in order
    winners: tuple[int, ...]  # the winner of each finished trick
    voids: Four  # per seat, bit s set when it has failed to follow suit s
    taken: Four  # points in the tricks each seat has taken this hand
    broken: bool  # hearts may be led
    totals: Four = _ZERO  # game totals before this hand; once a longer game is over, final

    @property
    def kind(self) -> Literal["pass", "play"]:
        if self.phase == "over":
            raise ValueError("the game is over: no decision to make")
        return self.phase

    @property
    def tricks_done(self) -> int:
        return len(self.winners)


def deal(rng: np.random.Generator) -> Four:
    """Four hands (masks) from a shuffled deck, card i of the deck to seat i % 4."""
    hands = [0, 0, 0, 0]
    for i, card in enumerate(rng.permutation(52).tolist()):
        hands[i & 3] |= 1 << card
    return (hands[0], hands[1], hands[2], hands[3])


def new_hand(hands: Four, options: Options = STANDARD, hand_number: int = 0,
             totals: Four = _ZERO) -> State:
    """The hand with this deal; passing (when on) follows ``PASS_CYCLE`` by hand number."""
    check_deal(hands)
    direction = PASS_CYCLE[hand_number % 4] if options.passing else NO_PASS
    state = State(options=options, hand_number=hand_number, direction=direction,
                  dealt=hands, hands=hands, passed=((), (), (), ()), phase="pass",
                  to_move=0, leader=0, trick=(), played=0, laid=(), winners=(),
                  voids=_ZERO, taken=_ZERO, broken=not options.must_break_hearts,
                  totals=totals)
    return state if direction != NO_PASS else _start_play(state, hands)


def new_game(rng: np.random.Generator, options: Options = STANDARD) -> State:
    return new_hand(deal(rng), options)


def check_deal(hands: Four) -> None:
    if len(hands) != SEATS or any(h.bit_count() != TRICKS for h in hands) \
            or hands[0] | hands[1] | hands[2] | hands[3] != (1 << 52) - 1:
        raise ValueError("a deal is four hands of 13 cards that together make the deck")


def _start_play(state: State, hands: Four) -> State:
    opener = next(s for s in range(SEATS) if hands[s] & 1)  # the 2C holder
    return State(state.options, state.hand_number, state.direction, state.dealt, hands,
                 state.passed, "play", opener, opener, (), 0, (), (), _ZERO, _ZERO,
                 state.broken, state.totals)


def legal_mask(state: State) -> int:
    """The cards the seat to move may choose now, as a mask."""
    if state.phase == "over":
        return 0
    hand = state.hands[state.to_move]
    if state.phase == "pass":
        return hand
    return playable(hand, state.trick, bool(state.laid), bool(state.winners), state.broken,
                    state.options)


def playable(hand: int, trick: tuple[int, ...], laid: bool, won: bool, broken: bool,
             options: Options) -> int:
    """The cards of ``hand`` (a mask) that may be laid on ``trick`` in the play: ``laid``
    whether any card of the hand has been laid, ``won`` whether a trick is finished.
    ``legal_mask``'s rule on plain ints, for a search that builds no states."""
    if trick:
        follow = hand & SUIT_MASK[trick[0] & 3]
        if follow:
            return follow
    elif not laid:  # the opening lead
        return hand & _CLUBS if options.lead_any_club else 1
    if options.no_points_first_trick and not won:
        safe = hand & _NON_POINTS
        if safe:
            return safe
    if not trick and not broken:
        plain = hand & _NON_HEARTS
        if plain:
            return plain
    return hand


def breaks(broken: bool, card: int) -> bool:
    """Whether hearts may be led after ``card`` is laid (a heart or the QS breaks them)."""
    return broken or card & 3 == HEARTS or card == QUEEN_SPADES


def legal(state: State) -> list[int]:
    """The legal cards, lowest id first (OpenSpiel's order)."""
    return cards_of(legal_mask(state))


def apply(state: State, card: int, rng: np.random.Generator | None = None) -> State:
    """The state after the seat to move passes or lays ``card`` (refused when illegal).
    ``rng`` deals the next hand when a hand of a longer game ends."""
    if not legal_mask(state) >> card & 1:
        raise NotationError(card_str(card), _why_illegal(state))
    if state.phase == "pass":
        return _pass(state, card)
    return _play(state, card, rng)


def _why_illegal(state: State) -> str:
    if state.phase == "over":
        return "the game is over"
    return (f"seat {state.to_move} may {state.phase} "
            f"{cards_str(legal(state))} here")


def _pass(state: State, card: int) -> State:
    seat = state.to_move
    hands = list(state.hands)
    hands[seat] ^= 1 << card
    passed = list(state.passed)
    passed[seat] = (*passed[seat], card)
    new_passed = tuple(passed)
    if len(passed[seat]) < PASS_COUNT:
        return State(state.options, state.hand_number, state.direction, state.dealt,
                     (hands[0], hands[1], hands[2], hands[3]), new_passed, "pass", seat,
                     0, (), 0, (), (), _ZERO, _ZERO, state.broken, state.totals)
    if seat < SEATS - 1:
        return State(state.options, state.hand_number, state.direction, state.dealt,
                     (hands[0], hands[1], hands[2], hands[3]), new_passed, "pass",
                     seat + 1, 0, (), 0, (), (), _ZERO, _ZERO, state.broken, state.totals)
    for giver in range(SEATS):
        for c in new_passed[giver]:
            hands[(giver + state.direction) % SEATS] |= 1 << c
    done = State(state.options, state.hand_number, state.direction, state.dealt,
                 state.hands, new_passed, "pass", seat, 0, (), 0, (), (), _ZERO, _ZERO,
                 state.broken, state.totals)
    return _start_play(done, (hands[0], hands[1], hands[2], hands[3]))


def trick_winner(leader: int, trick: tuple[int, ...]) -> int:
    """The seat whose card wins a trick: the highest card of the suit led."""
    led = trick[0] & 3
    best, at = trick[0], 0
    for i in range(1, len(trick)):
        c = trick[i]
        if c & 3 == led and c > best:
            best, at = c, i
    return (leader + at) % SEATS


def _play(state: State, card: int, rng: np.random.Generator | None) -> State:
    seat = state.to_move
    bit = 1 << card
    hands = list(state.hands)
    hands[seat] ^= bit
    trick = (*state.trick, card)
    voids = state.voids
    if state.trick and card & 3 != state.trick[0] & 3:
        v = list(voids)
        v[seat] |= 1 << (state.trick[0] & 3)
        voids = (v[0], v[1], v[2], v[3])
    broken = breaks(state.broken, card)
    laid = (*state.laid, (seat, card))
    new_hands = (hands[0], hands[1], hands[2], hands[3])
    if len(trick) < SEATS:
        return State(state.options, state.hand_number, state.direction, state.dealt,
                     new_hands, state.passed, "play", (seat + 1) % SEATS, state.leader,
                     trick, state.played | bit, laid, state.winners, voids, state.taken,
                     broken, state.totals)
    winner = trick_winner(state.leader, trick)
    taken = list(state.taken)
    taken[winner] += POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]] + POINTS[trick[3]]
    winners = (*state.winners, winner)
    over = len(winners) == TRICKS
    new = State(state.options, state.hand_number, state.direction, state.dealt, new_hands,
                state.passed, "over" if over else "play", -1 if over else winner, winner,
                (), state.played | bit, laid, winners, voids,
                (taken[0], taken[1], taken[2], taken[3]), broken, state.totals)
    if over and state.options.target:
        return _next_hand(new, rng)
    return new


def hand_points(state: State) -> Four:
    """Points each seat scores for this hand (after a moon shot: 26 to the other three)."""
    return scored(state.taken)


def scored(taken: Four) -> Four:
    """What a finished hand in which each seat took ``taken`` scores (the moon)."""
    if MOON in taken:
        return (MOON * (taken[0] != MOON), MOON * (taken[1] != MOON),
                MOON * (taken[2] != MOON), MOON * (taken[3] != MOON))
    return taken


def _next_hand(state: State, rng: np.random.Generator | None) -> State:
    points = hand_points(state)
    totals: Four = (state.totals[0] + points[0], state.totals[1] + points[1],
                    state.totals[2] + points[2], state.totals[3] + points[3])
    if max(totals) >= state.options.target:
        return State(state.options, state.hand_number, state.direction, state.dealt,
                     state.hands, state.passed, "over", -1, state.leader, (), state.played,
                     state.laid, state.winners, state.voids, state.taken, state.broken,
                     totals)
    if rng is None:
        raise ValueError("the next hand needs an rng to deal it")
    return new_hand(deal(rng), state.options, state.hand_number + 1, totals)


def points(state: State) -> Four:
    """The result of a finished game: this hand's points, or the totals of a longer game
    (whose last hand is already in them). Lower is better."""
    if state.phase != "over":
        raise ValueError("the game is not over")
    return state.totals if state.options.target else hand_points(state)
