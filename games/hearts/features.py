"""Features of a candidate card, after Sturtevant & White's Appendix A, for every legal
candidate of a decision at once (numpy): one row per candidate, one column per ``FEATURES``
entry.

Sturtevant & White's atomic features describe a whole position from perfect information ("Q♠ player
has 2 backers", "leader short spades", "we have forced high heart"). A rule base grades one
card at a time from what the deciding seat can know, so these are the same ideas seen
from a candidate card: voids shown by each seat in its suit, where the Q♠ is (as far as the
seat can know: its hand, the cards laid, voids shown, the cards it passed), the cards
still out above and below it in its suit, whether it wins the trick now or surely, the
points on the trick, leading or following, position in the trick, cards left in the suit,
spade guards ("backers"), and the points taken so far (moon watch).

"Out" cards are those the seat has not seen laid and does not hold: the other three hold
them (including any it passed). In the pass, the trick features are 0.

Two implementations give the same rows: numpy's (a process's first decisions: numba's
start-up costs about a second) and a compiled kernel, taken once this process has loaded
numba anyway, as every long run (playouts, learning) does: 24 us a decision against 3 us.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.kernels.jit import kernel, loaded
from fuzzeval.games.hearts.cards import HEARTS, POINTS, QUEEN_SPADES, SPADES, SUIT_MASK
from fuzzeval.games.hearts.view import View
from fuzzeval.play.game import Feature

FloatArray = npt.NDArray[np.float64]


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
    Feature("is_spade", 0, 1, "the card is a spade"),
    Feature("passing", 0, 1, "the decision is a card to pass, not to lay"),
)
FEATURE_NAMES = tuple(f.name for f in FEATURES)

_CARDS = np.arange(52)
#: rank, is_heart, is_queen, card_points, is_spade of each card
_STATIC = np.stack([_CARDS >> 2, (_CARDS & 3) == HEARTS, _CARDS == QUEEN_SPADES,
                    np.array(POINTS), (_CARDS & 3) == SPADES], axis=1).astype(np.float64)
_STATIC_COLUMNS = [0, 1, 2, 3, 31]
#: follows, suit_held, suit_out, voids_in_suit, later_voids, void_left/across/right
_SUIT_COLUMNS = [6, 12, 13, 15, 16, 17, 18, 19]
_ABOVE = tuple(SUIT_MASK[c & 3] & ~((2 << c) - 1) for c in range(52))
_BELOW = tuple(SUIT_MASK[c & 3] & ((1 << c) - 1) for c in range(52))
_LOW_SPADES = SUIT_MASK[SPADES] & ((1 << QUEEN_SPADES) - 1)  # 2S..JS
_ALL = (1 << 52) - 1


def candidate_features(v: View, cards: Sequence[int]) -> FloatArray:
    """One row of ``FEATURES`` per candidate card (each must be in ``v.hand``): compiled
    where this process has loaded numba, else with numpy (the same rows)."""
    if loaded():
        return compiled_features(v, cards)
    return numpy_features(v, cards)


def numpy_features(v: View, cards: Sequence[int]) -> FloatArray:
    """``candidate_features`` with numpy: features of the decision are one row repeated;
    those of a suit come from a 4-row table indexed by the candidates' suits, those of a
    card from a 52-row table."""
    seat, hand, voids, taken = v.seat, v.hand, v.voids, v.taken
    unseen = _ALL & ~(v.played | hand)
    others = ((seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3)
    playing = v.kind == "play"
    trick = v.trick if playing else ()
    position = len(trick)
    later = others[: 3 - position] if playing else ()
    led = trick[0] & 3 if trick else -1

    queen_out = unseen >> QUEEN_SPADES & 1
    passed_to = (seat + v.direction) & 3 if QUEEN_SPADES in v.passed else -1
    if not playing:
        queen_later = 0
    elif passed_to >= 0:
        queen_later = int(bool(queen_out) and passed_to in later)
    else:
        queen_later = int(bool(queen_out) and any(not voids[o] >> SPADES & 1 for o in later))
    total = taken[0] + taken[1] + taken[2] + taken[3]
    shooter = next((taken[o] for o in others if taken[o] == total and total), 0)
    base = [0.0] * len(FEATURES)
    base[4] = float(playing and not trick)
    base[5] = position
    base[14] = sum(POINTS[x] for x in trick)
    base[20] = hand >> QUEEN_SPADES & 1
    base[21] = queen_out
    base[22] = int(bool(queen_out) and passed_to >= 0)
    base[23] = queen_later
    base[24] = (hand & _LOW_SPADES).bit_count()
    base[25] = v.broken
    base[26] = v.tricks_done + 1 if playing else 1
    base[27] = taken[seat]
    base[28] = total - taken[seat]
    base[29] = 26 - total
    base[30] = shooter
    base[32] = not playing

    suits = []
    for s in range(4):
        bit = 1 << s
        suits.append((
            float(playing and (led < 0 or led == s)),
            (hand & SUIT_MASK[s]).bit_count(), (unseen & SUIT_MASK[s]).bit_count(),
            (voids[others[0]] & bit) + (voids[others[1]] & bit) + (voids[others[2]] & bit) >> s,
            sum(voids[o] >> s & 1 for o in later),
            voids[others[0]] >> s & 1, voids[others[1]] >> s & 1, voids[others[2]] >> s & 1))
    c = np.asarray(cards, dtype=np.int64)
    suit = c & 3
    out = np.repeat(np.array([base]), len(c), axis=0)
    out[:, _STATIC_COLUMNS] = _STATIC[c]
    out[:, _SUIT_COLUMNS] = np.array(suits)[suit]
    above = np.array([(unseen & _ABOVE[x]).bit_count() for x in cards], dtype=np.float64)
    out[:, 10] = above
    out[:, 11] = [(unseen & _BELOW[x]).bit_count() for x in cards]
    if not playing:
        return out
    if not trick:
        out[:, 7] = 1
        out[:, 8] = above == 0  # (three seats void in a suit leave none of it out)
        return out
    high = max(x for x in trick if x & 3 == led)
    wins = (suit == led) & (c > high)
    later_all_void = all(voids[o] >> led & 1 for o in later)
    out[:, 7] = wins
    out[:, 8] = wins & ((above == 0) | later_all_void)
    out[:, 9] = ~wins
    return out


_SUIT_MASKS = np.array(SUIT_MASK, dtype=np.int64)
_POINTS = np.array(POINTS, dtype=np.float64)


def compiled_features(v: View, cards: Sequence[int]) -> FloatArray:
    """``candidate_features`` by the compiled kernel: the view packed into one array."""
    trick = v.trick if v.kind == "play" else ()
    state = np.array((v.seat, v.hand, v.played, *v.voids, *v.taken, v.kind == "play",
                      v.direction, QUEEN_SPADES in v.passed, v.broken, v.tricks_done,
                      len(trick), *trick, 0, 0, 0), dtype=np.int64)
    out: FloatArray = _features(state, np.array(cards, dtype=np.int64), _SUIT_MASKS, _POINTS)
    return out


def _popcount(x: int) -> int:
    """Set bits of a non-negative mask below 2**60 (no multiplication: no overflow)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


popcount = kernel(_popcount)


def _features_kernel(state: npt.NDArray[np.int64], cards: npt.NDArray[np.int64],
                     suit_mask: npt.NDArray[np.int64], points: FloatArray) -> FloatArray:
    """``numpy_features`` one candidate at a time; ``state`` is seat, hand, played, the four
    voids, the four seats' points, playing, direction, whether we passed the QS, broken,
    tricks done, the trick's length and its cards (three places)."""
    seat, hand, played = state[0], state[1], state[2]
    voids, taken = state[3:7], state[7:11]
    playing, direction, queen_passed = state[11] != 0, state[12], state[13] != 0
    position, trick = state[16], state[17:20]
    unseen = ((1 << 52) - 1) & ~(played | hand)
    n_later = 3 - position if playing else 0
    led = trick[0] & 3 if position > 0 else -1
    queen_out = (unseen >> QUEEN_SPADES) & 1
    passed_to = (seat + direction) & 3
    queen_later = 0
    if playing and queen_out:
        for k in range(n_later):
            other = (seat + 1 + k) & 3
            if (other == passed_to) if queen_passed else not (voids[other] >> SPADES) & 1:
                queen_later = 1
    total = taken[0] + taken[1] + taken[2] + taken[3]
    shooter = 0
    for k in range(3):
        other = (seat + 1 + k) & 3
        if taken[other] == total and shooter == 0:  # none when total is 0: 0
            shooter = taken[other]
    high = -1
    for k in range(position):
        if trick[k] & 3 == led and trick[k] > high:
            high = trick[k]
    later_all_void = True
    for k in range(n_later if position > 0 else 0):
        if not (voids[(seat + 1 + k) & 3] >> led) & 1:
            later_all_void = False
    trick_points = 0.0
    for k in range(position):
        trick_points += points[trick[k]]
    out = np.zeros((cards.shape[0], 33))
    for i in range(cards.shape[0]):
        c = cards[i]
        s = c & 3
        row = out[i]
        row[0], row[1], row[2], row[3] = c >> 2, s == HEARTS, c == QUEEN_SPADES, points[c]
        row[31] = s == SPADES
        row[4] = playing and position == 0
        row[5] = position
        row[6] = playing and (led < 0 or led == s)
        above = popcount(unseen & suit_mask[s] & ~((2 << c) - 1))
        row[10] = above
        row[11] = popcount(unseen & suit_mask[s] & ((1 << c) - 1))
        row[12] = popcount(hand & suit_mask[s])
        row[13] = popcount(unseen & suit_mask[s])
        row[14] = trick_points
        for k in range(3):
            void = (voids[(seat + 1 + k) & 3] >> s) & 1
            row[15] += void
            row[17 + k] = void
            if k < n_later:
                row[16] += void
        row[20] = (hand >> QUEEN_SPADES) & 1
        row[21] = queen_out
        row[22] = queen_out if queen_passed else 0
        row[23] = queen_later
        row[24] = popcount(hand & suit_mask[SPADES] & ((1 << QUEEN_SPADES) - 1))
        row[25] = state[14]
        row[26] = state[15] + 1 if playing else 1
        row[27] = taken[seat]
        row[28] = total - taken[seat]
        row[29] = 26 - total
        row[30] = shooter
        row[32] = not playing
        if playing and position == 0:
            row[7] = 1
            row[8] = above == 0
        elif playing:
            wins = s == led and c > high
            row[7] = wins
            row[8] = wins and (above == 0 or later_all_void)
            row[9] = not wins
    return out


_features = kernel(_features_kernel)
