"""Hearts' hidden-information hooks for selective sampling (``fuzzeval.search.sampling``),
so that the game-agnostic ``sampling`` player plays Hearts.

A seat deciding knows its own hand, the cards it passed and received, every card laid, and
what the rules reveal about the other hands. ``determinize`` deals the unseen cards to the
other three seats uniformly among the deals consistent with that:

- each seat holds as many cards as it has not laid;
- a seat that failed to follow a suit holds none of it (its voids);
- a seat that led a heart before hearts were broken held only hearts (``must_break_hearts``),
  and one that laid a point card on the first trick when void in clubs held only point
  cards (``no_points_first_trick``): it still holds nothing else;
- the receiver of our pass holds the cards we passed that it has not laid, and the first
  leader still holds the 2C if it led another club (``lead_any_club``).

Every such constraint says which seats may hold a card, so the unseen cards fall into at
most seven *types* (the set of seats that may hold them). A consistent deal gives each type
a number of cards per seat (a *table*); the deals with one table number the product over
types of the multinomial coefficients, so drawing a table with that weight and then
shuffling each type's cards among its seats' slots draws every consistent deal with the
same probability. The tables of a decision are enumerated once and cached.

In the pass, nothing is known of the other hands: they are dealt uniformly, and the seats
that passed before us (seat 0 passes first) pass what ``heuristic`` would (the playouts'
policy; a model of them, as nothing was seen). In the play, the passes between the other
seats are drawn uniformly among those consistent with the holdings. The sample is then
replayed from its deal through every pass and card laid by the rules, which refuse an
illegal one, so a determinized state is a legal hand by construction.

With ``read`` (the ``maxn`` player's ``read=heuristic``) the play's deals also respect what
the other seats' cards reveal if they play as ``heuristic`` (``reading``): more seats
barred from some cards, the same uniform draw among the deals that remain.

The playout runs to the end of the hand (``finished``) and is worth minus the points the
seat scores in it (``value``; a moon shot counts 26 to the others and 0 to the shooter),
the match's own payoff, so sampling maximises exactly what the table measures. A longer
game is sampled hand by hand: the determinized state is the current hand as a one-hand game.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from fuzzeval.games.hearts import reading, rules
from fuzzeval.games.hearts.cards import (
    FULL,
    HEARTS,
    HEARTS_MASK,
    POINTS,
    POINTS_MASK,
    SUIT_MASK,
    card_str,
    cards_of,
    mask_of,
)
from fuzzeval.games.hearts.game import Decision, State
from fuzzeval.games.hearts.players import heuristic_player
from fuzzeval.games.hearts.view import View
from fuzzeval.games.hearts.view import view as view_of

SEATS = rules.SEATS


@dataclass(frozen=True)
class Deal:
    """How the unseen cards of one decision may be dealt: the seats that get them
    (``others``), and per type (a set of seats that may hold its cards) its cards, with
    the tables (cards per seat for each type) and their probabilities."""

    others: tuple[int, ...]
    known: tuple[int, ...]  # per seat: cards it is known to hold (mask)
    types: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]  # (seats, cards)
    tables: tuple[tuple[tuple[int, ...], ...], ...]  # per table, per type: cards per seat
    p: tuple[float, ...]
    read: bool = False  # whether the other seats' cards were read (``reading``)

    def draw(self, rng: np.random.Generator) -> tuple[int, int, int, int]:
        """Each seat's unseen holding (masks, ``known`` included; 0 for the decider)."""
        held = list(self.known)
        table = self.tables[int(rng.choice(len(self.tables), p=self.p))] \
            if len(self.tables) > 1 else self.tables[0]
        for (seats, cards), split in zip(self.types, table, strict=True):
            order = [cards[i] for i in rng.permutation(len(cards))]
            at = 0
            for seat, n in zip(seats, split, strict=True):
                held[seat] |= mask_of(order[at:at + n])
                at += n
        return (held[0], held[1], held[2], held[3])


def splits(total: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to give ``total`` cards to seats with room ``caps``."""
    if len(caps) == 1:
        if total <= caps[0]:
            yield (total,)
        return
    for first in range(min(total, caps[0]) + 1):
        for rest in splits(total - first, caps[1:]):
            yield (first, *rest)


def multinomial(split: Sequence[int]) -> int:
    out, n = 1, 0
    for k in split:
        n += k
        out *= math.comb(n, k)
    return out


def make_deal(others: Sequence[int], need: Sequence[int], allowed: Sequence[int],
              unseen: int, known: Sequence[int] = (0, 0, 0, 0)) -> Deal:
    """The consistent deals of the ``unseen`` cards (a mask): seat ``others[i]`` gets
    ``need[i]`` of them, only cards in ``allowed[seat]``. ValueError when there is none."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for card in cards_of(unseen):
        seats = tuple(s for s in others if allowed[s] >> card & 1)
        if not seats:
            raise ValueError(f"no deal of the unseen cards: no seat may hold {card_str(card)}")
        groups.setdefault(seats, []).append(card)
    types = sorted(groups.items(), key=lambda t: len(t[0]))  # the most constrained first
    index = {s: i for i, s in enumerate(others)}
    tables: list[tuple[tuple[int, ...], ...]] = []
    weights: list[int] = []

    def walk(t: int, room: list[int], table: list[tuple[int, ...]], weight: int) -> None:
        if t == len(types):
            if not any(room):
                tables.append(tuple(table))
                weights.append(weight)
            return
        seats, cards = types[t]
        left = sum(len(c) for _, c in types[t + 1:])
        for split in splits(len(cards), [room[index[s]] for s in seats]):
            after = room.copy()
            for s, k in zip(seats, split, strict=True):
                after[index[s]] -= k
            # the seats' remaining room must be fillable by the later types
            if sum(after) != left or any(
                    after[index[s]] > sum(len(c) for ss, c in types[t + 1:] if s in ss)
                    for s in others):
                continue
            walk(t + 1, after, [*table, split], weight * multinomial(split))

    walk(0, list(need), [], 1)
    if not tables:
        raise ValueError("no deal of the unseen cards is consistent with the constraints")
    total = sum(weights)
    return Deal(tuple(others), tuple(known), tuple((s, tuple(c)) for s, c in types),
                tuple(tables), tuple(w / total for w in weights))


def _laid_by(v: View) -> list[int]:
    laid = [0, 0, 0, 0]
    for seat, card in v.laid:
        laid[seat] |= 1 << card
    return laid


def allowed_masks(v: View) -> list[int]:
    """The cards each seat may still hold, from its voids and what the rules reveal."""
    allowed = [FULL] * SEATS
    for seat in range(SEATS):
        for s in range(4):
            if v.voids[seat] >> s & 1:
                allowed[seat] &= ~SUIT_MASK[s]
    options = v.options
    broken = not options.must_break_hearts
    for i, (seat, card) in enumerate(v.laid):
        lead = v.laid[i - i % 4][1]
        if i % 4 == 0 and not broken and card & 3 == HEARTS:
            allowed[seat] &= HEARTS_MASK  # led a heart unbroken: held only hearts
        if options.no_points_first_trick and 0 < i < 4 and card & 3 != lead & 3 \
                and POINTS[card]:
            allowed[seat] &= POINTS_MASK  # a point card on the first trick: held no other
        broken = broken or bool(POINTS[card])
    return allowed


@lru_cache(maxsize=256)
def deal_of(v: View, read: bool = False) -> Deal:
    """How the cards ``v.seat`` cannot see may lie (the play; cached per decision). With
    ``read``, they also lie as the other seats' cards reveal if those seats play as
    ``heuristic`` (``reading``); when the record contradicts that (a seat laid a card it
    was read not to hold, or no deal fits), as if unread (``Deal.read`` says which)."""
    if not read:
        return _deal(v, (0, 0, 0, 0))
    shown = reading.read(v)
    laid = _laid_by(v)
    if not any(shown[s] & laid[s] for s in range(SEATS)):
        try:
            return replace(_deal(v, shown), read=True)
        except ValueError:
            pass
    return deal_of(v)


def _deal(v: View, shown: rules.Four) -> Deal:
    """``deal_of``'s deal, each seat holding none of ``shown``'s cards (masks)."""
    me, d = v.seat, v.direction
    laid = _laid_by(v)
    known = [0, 0, 0, 0]
    if d != rules.NO_PASS:
        known[(me + d) % SEATS] |= mask_of(v.passed) & ~v.played
    if v.laid and not v.played & 1 and not v.hand & 1:
        known[v.laid[0][0]] |= 1  # the first leader led another club: it holds the 2C
    allowed = [a & ~no for a, no in zip(allowed_masks(v), shown, strict=True)]
    for seat in range(SEATS):
        if known[seat] & ~allowed[seat]:
            raise ValueError(f"seat {seat} is known to hold a card it cannot hold")
    others = tuple(s for s in range(SEATS) if s != me)
    need = [rules.TRICKS - laid[s].bit_count() - known[s].bit_count() for s in others]
    unseen = FULL & ~(v.hand | v.played | known[0] | known[1] | known[2] | known[3])
    return make_deal(others, need, allowed, unseen, tuple(known))


def _start(dealt: rules.Four, options: rules.Options, direction: int) -> rules.State:
    """A hand with this deal passing in ``direction`` (a one-hand game)."""
    number = rules.PASS_CYCLE.index(direction) if options.passing else 0
    return rules.new_hand(dealt, options, number)


def _pass_phase(v: View, options: rules.Options, rng: np.random.Generator,
                read: bool) -> rules.State:
    me = v.seat
    mine = v.hand | mask_of(v.passed)
    rest = cards_of(FULL & ~mine)
    order = [rest[i] for i in rng.permutation(len(rest))]
    dealt = [0, 0, 0, 0]
    dealt[me] = mine
    for i, seat in enumerate(s for s in range(SEATS) if s != me):
        dealt[seat] = mask_of(order[13 * i:13 * i + 13])
    state = _start((dealt[0], dealt[1], dealt[2], dealt[3]), options, v.direction)
    while state.to_move != me:  # the seats before us pass as heuristic would
        cards = rules.legal(state)
        state = rules.apply(state, cards[heuristic_player(view_of(state), cards, rng)])
    for card in v.passed:
        state = rules.apply(state, card)
    return state


def _play_phase(v: View, options: rules.Options, rng: np.random.Generator,
                read: bool) -> rules.State:
    me, d = v.seat, v.direction
    held = list(deal_of(v, read).draw(rng))
    held[me] = v.hand
    laid = _laid_by(v)
    post = [held[s] | laid[s] for s in range(SEATS)]  # each hand when the play began
    passed: list[tuple[int, ...]] = [(), (), (), ()]
    if d != rules.NO_PASS:
        giver = (me - d) % SEATS
        passed[me] = v.passed
        passed[giver] = tuple(cards_of(v.received))
        for g in range(SEATS):
            if g not in (me, giver):  # what g passed: any three of its receiver's cards
                pool = cards_of(post[(g + d) % SEATS])
                passed[g] = tuple(sorted(pool[i] for i in rng.choice(len(pool), 3,
                                                                      replace=False)))
    dealt = [post[s] & ~mask_of(passed[(s - d) % SEATS]) | mask_of(passed[s])
             for s in range(SEATS)]
    state = _start((dealt[0], dealt[1], dealt[2], dealt[3]), options, d)
    for seat in range(SEATS):
        for card in passed[seat]:
            state = rules.apply(state, card)
    for _, card in v.laid:
        state = rules.apply(state, card)
    return state


def determinized(v: View, rng: np.random.Generator, read: bool = False) -> rules.State:
    """A hand consistent with all that ``v.seat`` knows, the seat to move (a one-hand
    game under the view's rules); with ``read``, in the play, also with what the other
    seats' cards reveal if they play as ``heuristic`` (``deal_of``)."""
    options = replace(v.options, target=0)
    state = (_pass_phase if v.kind == "pass" else _play_phase)(v, options, rng, read)
    if state.to_move != v.seat or state.hands[v.seat] != v.hand:
        raise AssertionError("a determinized hand does not reach the decision it samples")
    return state


class HeartsHidden:
    """The hooks of ``fuzzeval.search.sampling.HiddenInformation`` for Hearts."""

    def determinize(self, view: object, rng: np.random.Generator) -> State:
        if not isinstance(view, Decision):
            raise TypeError("hearts samples a Decision (the candidates' view)")
        return State(determinized(view.view, rng))

    def finished(self, root: Any, state: Any) -> bool:
        return bool(state.hand.phase == "over")

    def value(self, root: Any, state: Any, seat: int) -> float:
        return -float(rules.hand_points(state.hand)[seat])


HIDDEN = HeartsHidden()
