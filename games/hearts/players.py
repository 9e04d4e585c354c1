"""Hearts players: ``random`` and ``heuristic``, each a function (view, legal, rng) -> index
into ``legal`` (the legal cards, lowest id first).

``heuristic`` is a rule-of-thumb player, written the way a club player explains a play:

- pass (one card at a time): the QS unless four or more low spades guard it; the AS and KS
  when fewer than three low spades guard them; hearts J and up; then the highest card of
  the shortest suit, to make a void.
- follow suit: duck under the card winning the trick with the highest card that still
  loses (the QS goes under the AS or KS); when every card would win, win with the
  highest card that is not the QS if last to play, else play the lowest.
- discard (void in the led suit): the QS; then the AS or KS while the QS is out; then the
  highest heart; then the highest card of the shortest suit.
- lead: never the QS, nor the AS or KS while the QS is out, if anything else is legal;
  otherwise the card with the fewest unseen cards below it in its suit (the least likely
  to win), from the shortest suit on ties.
- moon watch: when one opponent has taken every point so far and at least 10 of them,
  take a trick with points on it away from that opponent when possible (highest card),
  and discard no points onto a trick that opponent is winning.

Both work on card masks, with no numpy, so that heuristic self-play stays fast
(benchmarks/hearts.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from fuzzeval.games.hearts.cards import (
    ACE_SPADES,
    HEARTS,
    KING_SPADES,
    POINTS,
    QUEEN_SPADES,
    SPADES,
    SUIT_MASK,
)
from fuzzeval.games.hearts.rules import SEATS, State, apply, legal
from fuzzeval.games.hearts.view import View, view

Policy = Callable[[View, Sequence[int], np.random.Generator], int]
MOON_WATCH = 10  # points one opponent must hold alone before we fight the moon
_LOW_SPADES = SUIT_MASK[SPADES] & ((1 << QUEEN_SPADES) - 1)  # 2S..JS
_UNSEEN_BELOW = tuple((1 << c) - 1 & SUIT_MASK[c & 3] for c in range(52))


def random_player(view: View, legal: Sequence[int], rng: np.random.Generator) -> int:
    return int(rng.integers(len(legal)))


def _suit_len(hand: int, card: int) -> int:
    return (hand & SUIT_MASK[card & 3]).bit_count()


def _queen_out(v: View) -> bool:
    """The QS is unplayed and not in our hand."""
    return not (v.played | v.hand) >> QUEEN_SPADES & 1


def _pass_card(v: View, cards: Sequence[int]) -> int:
    hand = v.hand
    low_spades = (hand & _LOW_SPADES).bit_count()
    best, best_score = 0, -1.0
    for i, c in enumerate(cards):
        if c == QUEEN_SPADES:
            score = 100.0 if low_spades < 4 else 0.0
        elif c in (ACE_SPADES, KING_SPADES):
            score = 90.0 + (c >> 2) if low_spades < 3 else c >> 2
        elif c & 3 == HEARTS and c >> 2 >= 9:
            score = 60.0 + (c >> 2)
        else:
            score = (c >> 2) + 0.5 * (13 - _suit_len(hand, c))
        if score > best_score:
            best, best_score = i, score
    return best


def shooter(taken: Sequence[int], me: int) -> int:
    """The opponent of seat ``me`` who has taken every point so far (``taken``: each
    seat's), when that is MOON_WATCH or more; -1 when none."""
    total = sum(taken)
    if total < MOON_WATCH:
        return -1
    for seat in range(SEATS):
        if seat != me and taken[seat] == total:
            return seat
    return -1


def _lead(v: View, cards: Sequence[int]) -> int:
    queen_out = _queen_out(v)
    unseen = ~(v.played | v.hand)
    best, best_key = 0, (9, 99, 99)
    for i, c in enumerate(cards):
        danger = 2 if c == QUEEN_SPADES else int(queen_out and c in (ACE_SPADES, KING_SPADES))
        key = (danger, (unseen & _UNSEEN_BELOW[c]).bit_count(), _suit_len(v.hand, c))
        if key < best_key:
            best, best_key = i, key
    return best


def _discard(v: View, cards: Sequence[int], shooter_wins: bool) -> int:
    if shooter_wins:  # give the shooter nothing: the highest card worth no points
        safe = [i for i, c in enumerate(cards) if not POINTS[c]]
        if safe:
            return max(safe, key=lambda i: cards[i] >> 2)
    for i, c in enumerate(cards):
        if c == QUEEN_SPADES:
            return i
    if _queen_out(v):
        for target in (ACE_SPADES, KING_SPADES):
            if target in cards:
                return cards.index(target)
    hearts = [i for i, c in enumerate(cards) if c & 3 == HEARTS]
    if hearts:
        return hearts[-1]
    return min(range(len(cards)), key=lambda i: (_suit_len(v.hand, cards[i]), -cards[i]))


def heuristic_player(v: View, cards: Sequence[int], rng: np.random.Generator) -> int:
    if v.kind == "pass":
        return _pass_card(v, cards)
    trick = v.trick
    if not trick:
        return _lead(v, cards)
    led = trick[0] & 3
    watched = shooter(v.taken, v.seat)
    winner = v.winner_so_far()
    if cards[0] & 3 != led:
        return _discard(v, cards, watched >= 0 and winner == watched)
    high = max(c for c in trick if c & 3 == led)
    trick_points = sum(POINTS[c] for c in trick)
    if watched >= 0 and winner == watched and trick_points and cards[-1] > high:
        return len(cards) - 1  # take the points away from the shooter
    below = [i for i, c in enumerate(cards) if c < high]
    if below:
        return below[-1]
    if len(trick) == SEATS - 1:
        for i in range(len(cards) - 1, -1, -1):
            if cards[i] != QUEEN_SPADES:
                return i
    return 0


PLAYERS: dict[str, Policy] = {"random": random_player, "heuristic": heuristic_player}


def play_out(state: State, seats: Sequence[Policy], rng: np.random.Generator,
             deal_rng: np.random.Generator | None = None) -> State:
    """Play to the end of the game, ``seats[s]`` deciding for seat s; ``deal_rng`` deals
    the later hands of a longer game (default: ``rng``)."""
    deals = rng if deal_rng is None else deal_rng
    while state.phase != "over":
        cards = legal(state)
        index = seats[state.to_move](view(state), cards, rng) if len(cards) > 1 else 0
        state = apply(state, cards[index], deals)
    return state

