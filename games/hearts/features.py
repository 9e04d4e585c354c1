"""Features of a candidate card, after seed 003's Appendix A, for every legal candidate of a
decision at once (numpy): one row per candidate, one column per ``FEATURES`` entry.

Seed 003's atomic features describe a whole position from perfect information ("Q♠ player
has 2 backers", "leader short spades", "we have forced high heart"). A rule base grades one
card at a time from what the deciding seat can know, so these are the same ideas seen
from a candidate card: voids shown by each seat in its suit, where the Q♠ is (as far as the
seat can know: its hand, the cards laid, voids shown, the cards it passed), the cards
still out above and below it in its suit, whether it wins the trick now or surely, the
points on the trick, leading or following, position in the trick, cards left in the suit,
spade guards ("backers"), and the points taken so far (moon watch).

"Out" cards are those the seat has not seen laid and does not hold: the other three hold
them (including any it passed). In the pass, the trick features are 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fuzzeval.games.hearts.cards import HEARTS, POINTS, QUEEN_SPADES, SPADES
from fuzzeval.games.hearts.view import View

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Feature:
    """A feature's name (a rule base's input variable), its natural range and meaning
    (the fields of fuzzeval.game.Feature)."""

    name: str
    lo: float
    hi: float
    meaning: str


FEATURES: tuple[Feature, ...] = (
    Feature("rank", 0, 12, "the card's rank, 2 = 0 ... ace = 12"),
    Feature("is_heart", 0, 1, "the card is a heart"),
    Feature("is_queen", 0, 1, "the card is the queen of spades"),
    Feature("card_points", 0, 13, "points the card carries: heart 1, QS 13"),
    Feature("leading", 0, 1, "we lead this trick"),
    Feature("position", 0, 3, "cards already on the trick (0 leading, 3 last)"),
    Feature("follows", 0, 1, "the card is of the suit led (1 when leading)"),
    Feature("wins_now", 0, 1, "the card would take the trick as it stands (1 leading)"),
    Feature("sure_win", 0, 1, "it wins now and no seat still to play can beat it: no card "
            "above it is out, or each such seat has shown void in the suit"),
    Feature("sure_loss", 0, 1, "it cannot take the trick: off-suit, or below a card "
            "already on it (an 'exit')"),
    Feature("above_out", 0, 12, "cards of its suit out above it"),
    Feature("below_out", 0, 12, "cards of its suit out below it"),
    Feature("suit_held", 1, 13, "our cards of its suit, this one included"),
    Feature("suit_out", 0, 12, "cards of its suit out (held by the other three)"),
    Feature("trick_points", 0, 16, "points on the trick before this card"),
    Feature("voids_in_suit", 0, 3, "other seats that have shown void in its suit"),
    Feature("later_voids", 0, 3, "seats still to play this trick shown void in its suit"),
    Feature("void_left", 0, 1, "the seat on our left (next to play) has shown void in "
            "its suit"),
    Feature("void_across", 0, 1, "the seat across has shown void in its suit"),
    Feature("void_right", 0, 1, "the seat on our right has shown void in its suit"),
    Feature("queen_here", 0, 1, "we hold the QS"),
    Feature("queen_out", 0, 1, "the QS is out: not laid, not ours"),
    Feature("queen_known", 0, 1, "we passed the QS and it is not laid: we know who holds it"),
    Feature("queen_later", 0, 1, "the QS may be with a seat still to play this trick "
            "(the seat we passed it to; else a later seat not void in spades)"),
    Feature("spade_guards", 0, 10, "our spades below the queen (2S-JS): the QS's guards"),
    Feature("hearts_broken", 0, 1, "hearts may be led"),
    Feature("trick_number", 1, 13, "this trick's number (1 in the pass)"),
    Feature("points_taken", 0, 26, "points we have taken this hand"),
    Feature("points_others", 0, 26, "points the other three have taken this hand"),
    Feature("points_left", 0, 26, "points not yet taken (those on the trick included)"),
    Feature("shooter_points", 0, 26, "points of the one opponent who has taken every "
            "point so far (0 if none has any, or two seats have some)"),
)
FEATURE_NAMES = tuple(f.name for f in FEATURES)
_COLUMN = {name: i for i, name in enumerate(FEATURE_NAMES)}

_CARDS = np.arange(52)
_RANK = _CARDS >> 2
_SUIT = _CARDS & 3
_POINTS = np.array(POINTS, dtype=np.float64)
_LOW_SPADES = sum(1 << (4 * r + SPADES) for r in range(10))  # 2S..JS


def _bits(mask: int) -> npt.NDArray[np.uint8]:
    """The 52 bits of a mask as a (13 ranks, 4 suits) array."""
    raw = np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:52].reshape(13, 4)


def column(name: str) -> int:
    return _COLUMN[name]


def candidate_features(v: View, cards: list[int] | npt.NDArray[np.int64]) -> FloatArray:
    """One row of ``FEATURES`` per candidate card (each must be in ``v.hand``)."""
    c = np.asarray(cards, dtype=np.int64)
    rank, suit = c >> 2, c & 3
    out = np.zeros((len(c), len(FEATURES)))
    hand = _bits(v.hand)
    unseen_mask = ((1 << 52) - 1) & ~(v.played | v.hand)
    unseen = _bits(unseen_mask)
    below = np.cumsum(unseen, axis=0)  # out cards up to each (rank, suit): below ours
    suit_out = unseen.sum(axis=0)
    below_out = below[rank, suit]
    above_out = suit_out[suit] - below_out  # the candidate itself is ours, not out

    out[:, 0] = rank
    out[:, 1] = suit == HEARTS
    out[:, 2] = c == QUEEN_SPADES
    out[:, 3] = _POINTS[c]
    out[:, 10] = above_out
    out[:, 11] = below_out
    out[:, 12] = hand.sum(axis=0)[suit]
    out[:, 13] = suit_out[suit]

    seat = v.seat
    others = [(seat + k) & 3 for k in (1, 2, 3)]
    void_bits = np.array([[v.voids[o] >> s & 1 for s in range(4)] for o in others])
    voids_by_seat = void_bits[:, suit]  # (3 other seats, candidates)
    out[:, 15] = voids_by_seat.sum(axis=0)
    out[:, 17:20] = voids_by_seat.T

    queen_here = v.hand >> QUEEN_SPADES & 1
    queen_out = unseen_mask >> QUEEN_SPADES & 1
    passed_to = (seat + v.direction) & 3 if QUEEN_SPADES in v.passed else -1
    out[:, 20] = queen_here
    out[:, 21] = queen_out
    out[:, 22] = queen_out and passed_to >= 0
    out[:, 24] = (v.hand & _LOW_SPADES).bit_count()
    out[:, 25] = v.broken
    taken = v.taken
    total = sum(taken)
    out[:, 27] = taken[seat]
    out[:, 28] = total - taken[seat]
    out[:, 29] = 26 - total
    shooter = [taken[o] for o in others if taken[o] == total and total > 0]
    out[:, 30] = shooter[0] if shooter else 0

    if v.kind == "pass":
        out[:, 26] = 1
        return out
    out[:, 26] = v.tricks_done + 1
    trick = v.trick
    position = len(trick)
    later = others[: 3 - position]  # seats still to play after us
    out[:, 5] = position
    if later:
        later_void = np.array([[v.voids[o] >> s & 1 for s in range(4)] for o in later])
        out[:, 16] = later_void[:, suit].sum(axis=0)
    else:
        later_void = np.zeros((0, 4), dtype=np.int64)
    if passed_to >= 0:
        queen_later = bool(queen_out) and passed_to in later
    else:
        queen_later = bool(queen_out) and any(not v.voids[o] >> SPADES & 1 for o in later)
    out[:, 23] = queen_later
    if not trick:
        out[:, 4] = 1
        out[:, 6] = 1
        out[:, 7] = 1
        can_beat = above_out > 0
        all_later_void = later_void[:, suit].all(axis=0)
        out[:, 8] = ~can_beat | all_later_void
        return out
    led = trick[0] & 3
    high = max(x for x in trick if x & 3 == led)
    follows = suit == led
    wins = follows & (c > high)
    out[:, 6] = follows
    out[:, 7] = wins
    later_all_void = bool(later_void[:, led].all()) if later else True
    out[:, 8] = wins & ((above_out == 0) | later_all_void)
    out[:, 9] = ~wins
    out[:, 14] = sum(POINTS[x] for x in trick)
    return out
