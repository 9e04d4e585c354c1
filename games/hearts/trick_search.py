"""The search to the end of the trick in many deals at once, for the Monte-Carlo player:
maxⁿ as ``trick.search_trick`` runs it (the same choices and the same values, which the
tests check on random tricks), but on plain ints instead of states, its leaves valued in
one batch over all the deals, and only where the search reads them.

A trick has a fixed depth (the cards still to lay), so the search backs up level by level
from the leaves: the last seat to lay compares every leaf by its own value, each seat
before it compares only the leaves its children back up, and the root only its options.
So each leaf is valued to one seat (not four), the few that are backed up to one or two
more: a learned value grades about a third of the rows ``search_trick`` grades, and in as
many calls as the trick has cards to lay, not one a deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import POINTS, cards_of
from fuzzeval.games.hearts.game import State
from fuzzeval.games.hearts.positions import FloatArray

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Leaves:
    """The positions that end the searched tricks, one row a leaf."""

    hands: npt.NDArray[np.uint64]  # (n, 4): the cards each seat holds (masks)
    played: npt.NDArray[np.uint64]  # (n,): every card laid (mask)
    leader: IntArray  # (n,): the trick's winner, who leads next
    broken: BoolArray  # (n,): hearts may be led
    tricks_done: IntArray  # (n,)
    points: FloatArray  # (n, 4): each seat's points so far (``trick.points_taken``)
    between: BoolArray  # (n,): the hand goes on (a position with points still to come)


class SeatValues(Protocol):
    """Leaf values both ways: of states for the generic maxⁿ (``search.maxn.Values``), and
    of some leaves to one seat for this search."""

    def __call__(self, leaves: Sequence[State]) -> FloatArray: ...

    def of_seat(self, leaves: Leaves, index: IntArray, seat: int) -> FloatArray:
        """(len(index),): leaves ``index``'s values to ``seat``, in the game's payoff."""
        ...


@dataclass
class _Tree:
    """The searched trees of all deals, as flat lists (nodes numbered depth by depth)."""

    parents: list[list[int]]  # parents[j]: the parent (at depth j) of each node at depth j+1
    hands: list[tuple[int, int, int, int]]
    played: list[int]
    leader: list[int]
    broken: list[bool]
    tricks_done: list[int]
    points: list[rules.Four]
    between: list[bool]


def _grow(tree: _Tree, hand: rules.State, hands: list[int], trick: tuple[int, ...],
          played: int, broken: bool, depth: int, node: int) -> None:
    """Every card the seat to move may lay on ``trick``, below ``node`` at ``depth``."""
    seat = (hand.leader + len(trick)) % rules.SEATS
    mask = rules.playable(hands[seat], trick, bool(hand.laid) or bool(trick),
                          bool(hand.winners), broken, hand.options)
    below = tree.parents[depth]
    for card in cards_of(mask):
        child = len(below)
        below.append(node)
        bit = 1 << card
        hands[seat] ^= bit
        laid = (*trick, card)
        if len(laid) < rules.SEATS:
            _grow(tree, hand, hands, laid, played | bit, rules.breaks(broken, card),
                  depth + 1, child)
        else:
            winner = rules.trick_winner(hand.leader, laid)
            taken = list(hand.taken)
            taken[winner] += POINTS[laid[0]] + POINTS[laid[1]] + POINTS[laid[2]] + \
                POINTS[laid[3]]
            four: rules.Four = (taken[0], taken[1], taken[2], taken[3])
            done = len(hand.winners) + 1
            tree.hands.append((hands[0], hands[1], hands[2], hands[3]))
            tree.played.append(played | bit)
            tree.leader.append(winner)
            tree.broken.append(rules.breaks(broken, card))
            tree.tricks_done.append(done)
            tree.points.append(rules.scored(four))  # a moon shot, made, is scored
            tree.between.append(done < rules.TRICKS)
        hands[seat] ^= bit


def _first_lowest(values: FloatArray, parent: IntArray, parents: int) -> IntArray:
    """For each of ``parents`` groups of ``values`` (contiguous, group ``parent[i]``), the
    index of its lowest value, the first on ties."""
    starts = np.searchsorted(parent, np.arange(parents))
    lowest = np.minimum.reduceat(values, starts)
    at = np.where(values == lowest[parent], np.arange(len(values)), len(values))
    out: IntArray = np.minimum.reduceat(at, starts)
    return out


@dataclass(frozen=True)
class Searched:
    """What ``search_deals`` found: each card's backed-up value to the seat to move, and
    the leaf it backs up, per deal."""

    points: FloatArray  # (deals, cards), as ``trick.search_trick``'s options[:, seat]
    leaf: IntArray  # (deals, cards): the row of ``leaves`` each card backs up
    leaves: Leaves


def search_deals(hands: Sequence[rules.State], values: SeatValues) -> Searched:
    """Maxⁿ to the end of the trick in each of ``hands`` (deals of one decision: the same
    seat to move, the same trick on the table, one-hand games) for the seat to move; its
    cards are ``rules.legal``'s, in order. A ValueError when the hands are not so, or
    ``values`` gives a value that is not a finite number."""
    first = hands[0] if hands else None
    if first is None or any(h.phase != "play" or h.trick != first.trick
                            or h.to_move != first.to_move or h.options.target for h in hands):
        raise ValueError("search_deals: the hands must be one-hand games in the same trick")
    depth = rules.SEATS - len(first.trick)
    tree = _Tree([[] for _ in range(depth)], [], [], [], [], [], [], [])
    for deal, hand in enumerate(hands):
        _grow(tree, hand, list(hand.hands), hand.trick, hand.played, hand.broken, 0, deal)
    leaves = Leaves(np.array(tree.hands, dtype=np.uint64),
                    np.array(tree.played, dtype=np.uint64), np.array(tree.leader),
                    np.array(tree.broken, dtype=bool), np.array(tree.tricks_done),
                    np.array(tree.points, dtype=np.float64),
                    np.array(tree.between, dtype=bool))
    best: IntArray = np.arange(len(tree.points))  # the leaf each node at this depth backs up
    for level in range(depth, 0, -1):
        mover = (first.to_move + level - 1) % rules.SEATS
        valued = np.asarray(values.of_seat(leaves, best, mover), dtype=np.float64)
        if not np.isfinite(valued).all():
            raise ValueError(f"search_deals: a leaf is worth {valued[~np.isfinite(valued)][0]}"
                             f" to seat {mover}; every value must be a finite number")
        if level == 1:
            return Searched(valued.reshape(len(hands), -1), best.reshape(len(hands), -1),
                            leaves)
        parent = np.asarray(tree.parents[level - 1])
        best = best[_first_lowest(valued, parent, len(tree.parents[level - 2]))]
    raise AssertionError("a trick has at least one card to lay")
