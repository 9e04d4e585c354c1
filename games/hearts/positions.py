"""Features of the position a trick leaves, after Sturtevant & White (2006)'s atoms: the
hands of all four seats seen at once (the perfect-information game they learned in), from
each seat's own point of view, for a whole batch of positions in one numpy call (a maxⁿ
search's leaves come as one batch).

A position is a hand between two tricks: no card on the table. The atoms read as the
paper's Appendix A: what we hold of the spades that take the Q♠ (A♠, K♠, Q♠ and its
"backers" 2♠–J♠), who else holds the Q♠ and how guarded, whether the leader has spades,
how many cards of each suit we hold, our "exits" (a card below every card of its suit the
others hold), hearts we are forced to win, the others' voids, the lead, and the points
still out. "Others" are the three other seats.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.cards import CLUBS, DIAMONDS, HEARTS, SPADES
from fuzzeval.play.game import Feature

FloatArray = npt.NDArray[np.float64]

QUEEN_RANK = 10  # 2 = 0 ... Q = 10, K = 11, A = 12
NO_CARD = 13  # the rank of a missing card, above any

POSITION_FEATURES: tuple[Feature, ...] = (
    Feature("leading", 0, 1, "we lead the next trick"),
    Feature("tricks_left", 0, 13, "tricks still to play"),
    Feature("queen_here", 0, 1, "we hold the QS"),
    Feature("queen_other", 0, 1, "another seat holds the QS (it is not laid)"),
    Feature("spades_low", 0, 10, "our spades below the queen (2S-JS): its backers"),
    Feature("queen_guards", 0, 10, "the other QS holder's spades below the queen (0 when "
            "no other seat holds it)"),
    Feature("ace_spades", 0, 1, "we hold the AS"),
    Feature("king_spades", 0, 1, "we hold the KS"),
    Feature("clubs", 0, 13, "our clubs"),
    Feature("diamonds", 0, 13, "our diamonds"),
    Feature("hearts", 0, 13, "our hearts"),
    Feature("spades", 0, 13, "our spades"),
    Feature("exit_clubs", 0, 1, "we hold a club below every club the others hold (and they "
            "hold one): a sure way to lose a club trick"),
    Feature("exit_diamonds", 0, 1, "we hold a diamond below every diamond the others hold"),
    Feature("exit_hearts", 0, 1, "we hold a heart below every heart the others hold"),
    Feature("exit_spades", 0, 1, "we hold a spade below every spade the others hold"),
    Feature("high_hearts", 0, 13, "our hearts above every heart the others hold: tricks "
            "of hearts we must win"),
    Feature("others_void_hearts", 0, 3, "other seats holding no heart"),
    Feature("others_void_spades", 0, 3, "other seats holding no spade"),
    Feature("leader_void_spades", 0, 1, "another seat leads next and holds no spade"),
    Feature("hearts_left", 0, 13, "hearts not yet laid"),
    Feature("hearts_broken", 0, 1, "hearts may be led"),
)
POSITION_NAMES = tuple(f.name for f in POSITION_FEATURES)

_BITS = np.arange(52, dtype=np.uint64)


def _bits(masks: npt.NDArray[np.uint64]) -> npt.NDArray[np.bool_]:
    """Masks of cards (any shape) as (..., suit, rank) booleans."""
    cards = ((masks[..., None] >> _BITS) & np.uint64(1)).astype(bool)
    by_rank = cards.reshape(*masks.shape, 13, 4)  # card = 4 * rank + suit
    out: npt.NDArray[np.bool_] = np.swapaxes(by_rank, -1, -2)
    return out


def _lowest(held: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """The lowest rank held along the last axis (NO_CARD where none)."""
    out: npt.NDArray[np.int64] = np.where(held.any(-1), held.argmax(-1), NO_CARD)
    return out


def _highest(held: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """The highest rank held along the last axis (-1 where none)."""
    out: npt.NDArray[np.int64] = np.where(held.any(-1), 12 - held[..., ::-1].argmax(-1), -1)
    return out


def position_features(hands: npt.ArrayLike, played: npt.ArrayLike, leader: npt.ArrayLike,
                      broken: npt.ArrayLike, tricks_done: npt.ArrayLike,
                      seats: Sequence[int] = (0, 1, 2, 3)) -> FloatArray:
    """(n, len(seats), features): each position's features from the view of each of
    ``seats`` (all four by default; a search needs one at a time), in
    ``POSITION_FEATURES`` order. ``hands`` (n, 4) masks of the cards each seat holds,
    ``played`` (n,) the cards laid, ``leader`` (n,) the seat to lead, ``broken`` (n,)
    hearts may be led, ``tricks_done`` (n,)."""
    held = _bits(np.asarray(hands, dtype=np.uint64))  # (n, 4 seats, 4 suits, 13 ranks)
    laid = _bits(np.asarray(played, dtype=np.uint64))  # (n, 4 suits, 13 ranks)
    lead = np.asarray(leader, dtype=np.int64)
    n = held.shape[0]
    every = np.arange(4)
    counts = held.sum(-1)  # (n, 4, suits)
    low = _lowest(held)  # (n, 4, suits)
    high = _highest(held)
    queen = held[:, :, SPADES, QUEEN_RANK]  # (n, 4)
    backers = held[:, :, SPADES, :QUEEN_RANK].sum(-1)
    out = np.zeros((n, len(seats), len(POSITION_FEATURES)))
    col = {name: k for k, name in enumerate(POSITION_NAMES)}
    for k, s in enumerate(seats):
        others = every != s
        other_low = low[:, others].min(1)  # (n, suits)
        other_high = high[:, others].max(1)
        other_queen = queen[:, others].any(1)
        f = out[:, k]
        f[:, col["leading"]] = lead == s
        f[:, col["queen_here"]] = queen[:, s]
        f[:, col["queen_other"]] = other_queen
        f[:, col["spades_low"]] = backers[:, s]
        f[:, col["queen_guards"]] = (backers[:, others] * queen[:, others]).sum(1)
        f[:, col["ace_spades"]] = held[:, s, SPADES, 12]
        f[:, col["king_spades"]] = held[:, s, SPADES, 11]
        for name, suit in (("clubs", CLUBS), ("diamonds", DIAMONDS), ("hearts", HEARTS),
                           ("spades", SPADES)):
            f[:, col[name]] = counts[:, s, suit]
            f[:, col[f"exit_{name}"]] = (low[:, s, suit] < other_low[:, suit]) & (
                other_low[:, suit] < NO_CARD)
        ranks = np.arange(13)
        f[:, col["high_hearts"]] = (held[:, s, HEARTS] & (
            ranks > other_high[:, HEARTS, None])).sum(-1)
        f[:, col["others_void_hearts"]] = (counts[:, others, HEARTS] == 0).sum(1)
        f[:, col["others_void_spades"]] = (counts[:, others, SPADES] == 0).sum(1)
        leader_spades = counts[np.arange(n), lead, SPADES]
        f[:, col["leader_void_spades"]] = (lead != s) & (leader_spades == 0)
    out[:, :, col["tricks_left"]] = (rules.TRICKS - np.asarray(tricks_done))[:, None]
    out[:, :, col["hearts_left"]] = (13 - laid[:, HEARTS].sum(-1))[:, None]
    out[:, :, col["hearts_broken"]] = np.asarray(broken, dtype=bool)[:, None]
    return out


def features_of(states: Sequence[rules.State]) -> FloatArray:
    """``position_features`` of hands between two tricks (``hearts.rules`` states)."""
    if not states:
        return np.zeros((0, 4, len(POSITION_FEATURES)))
    return position_features([s.hands for s in states], [s.played for s in states],
                             [s.leader for s in states], [s.broken for s in states],
                             [len(s.winners) for s in states])
