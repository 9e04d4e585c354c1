"""Card reading: what the cards the other seats laid reveal of their hands, if they play as
``heuristic`` does (``players.heuristic_player``), as Billings et al. (1999) bias the
sampled hands by what the opponents' actions reveal.

For each card another seat laid in this hand, the rule ``heuristic`` follows there gives
necessary conditions on that seat's holding at that moment, each of the form "it held
none of these cards" (and, holdings only shrinking in the play, holds none of them now):

- a discard (void in the suit led): ``heuristic`` lays the QS first; then the AS, then the
  KS, while the QS is out (neither played nor its own); then its highest heart; then the
  highest card of its shortest suit. So a card other than the QS shows no QS; with the QS
  out, neither the AS (unless laid) nor the KS (unless the AS or KS was laid); a heart
  shows no higher heart, any other card no heart at all and no higher card of its suit.
  On the first trick under ``no_points_first_trick`` a card worth no points was chosen
  among the cards worth none only: it shows no higher such card of its suit, no more.
- a follow: ``heuristic`` ducks with its highest card under the trick's high card; with
  none under it, last to play it takes with its highest card but the QS, else it plays
  its lowest. So a card under the high card shows none between the two; a card over it
  shows none under the high card and, last, none higher but the QS (the QS: no other
  card of the suit), else none under it.
- the moon watch (``players.shooter``: an opponent has taken every point so far, at least
  ``MOON_WATCH``, and is winning the trick): a discard is then the highest card worth no
  points, which is not read; a follow onto points is the seat's highest card of the suit
  (or, with none over the high card, its highest under it): none higher.
- leads are not read (``heuristic``'s lead weighs unseen cards and suit lengths, which no
  "holds none of" condition states).

The reading is sound for players that play as ``heuristic``; for others it may be wrong,
and ``sampling.deal_of`` drops it when the record contradicts it (a seat laid a card it
was read not to hold, or no deal satisfies it together with the rules' constraints).
"""

from __future__ import annotations

from fuzzeval.games.hearts.cards import (
    ACE_SPADES,
    HEARTS,
    HEARTS_MASK,
    KING_SPADES,
    POINTS,
    POINTS_MASK,
    QUEEN_SPADES,
    SUIT_MASK,
)
from fuzzeval.games.hearts.players import shooter
from fuzzeval.games.hearts.rules import SEATS, Four, Options, trick_winner
from fuzzeval.games.hearts.view import View

_QS = 1 << QUEEN_SPADES


def _above(card: int) -> int:
    """The cards of ``card``'s suit higher than it."""
    return SUIT_MASK[card & 3] & ~((2 << card) - 1)


def _below(card: int) -> int:
    """The cards of ``card``'s suit lower than it."""
    return SUIT_MASK[card & 3] & ((1 << card) - 1)


def discard_shows(card: int, played: int, first_trick: bool, options: Options) -> int:
    """The cards a seat that discarded ``card`` (not watching the moon) held none of;
    ``played``: the cards laid before it."""
    if options.no_points_first_trick and first_trick and not POINTS[card]:
        return _above(card) & ~POINTS_MASK  # chosen among the cards worth no points
    if card == QUEEN_SPADES:
        return 0
    no = _QS
    if not played & _QS:  # the QS is out: the AS, then the KS, come next
        if card == ACE_SPADES:
            return no
        no |= 1 << ACE_SPADES
        if card == KING_SPADES:
            return no
        no |= 1 << KING_SPADES
    if card & 3 == HEARTS:
        return no | _above(card)
    return no | HEARTS_MASK | _above(card)


def follow_shows(card: int, trick: tuple[int, ...], watching: bool) -> int:
    """The cards of the suit led a seat that laid ``card`` on ``trick`` held none of;
    ``watching``: the moon watch applied (a shooter winning a trick with points)."""
    high = max(c for c in trick if c & 3 == trick[0] & 3)
    if watching:
        return _above(card)
    if card < high:
        return _above(card) & _below(high)
    if len(trick) == SEATS - 1:  # last: the highest card but the QS
        return SUIT_MASK[card & 3] & ~_QS if card == QUEEN_SPADES else _above(card) & ~_QS
    return _below(card)


def read(v: View) -> Four:
    """Per seat, the cards it holds none of if it has played as ``heuristic`` (0 for the
    seat deciding): only cards not yet laid when it chose, as masks."""
    no = [0, 0, 0, 0]
    taken = [0, 0, 0, 0]
    played = 0
    for i, (seat, card) in enumerate(v.laid):
        start = i - i % SEATS
        trick = tuple(c for _, c in v.laid[start:i])
        if trick and seat != v.seat:
            leader = v.laid[start][0]
            watched = shooter((taken[0], taken[1], taken[2], taken[3]), seat)
            wins = watched >= 0 and trick_winner(leader, trick) == watched
            if card & 3 != trick[0] & 3:
                if not wins:
                    no[seat] |= discard_shows(card, played, start == 0, v.options) & ~played
            else:
                points = any(POINTS[c] for c in trick)
                no[seat] |= follow_shows(card, trick, wins and points) & ~played
        played |= 1 << card
        if i % SEATS == SEATS - 1:
            whole = (*trick, card)
            taken[trick_winner(v.laid[start][0], whole)] += sum(POINTS[c] for c in whole)
    return (no[0], no[1], no[2], no[3])
