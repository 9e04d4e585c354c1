"""Crisp features of candidate positions (after my move, before the turn passes), all
candidates of a move in one call. Names are the rule bases' input variables.

The paper's (Heinze et al. 2005, Tables 1, 6): SinglePieces, OpponentOnBar,
SinglePiecesInHome, ToBeHitFactor, PointsOwned, PointsOwnedHome,
StrongestConsecutiveBlockade, Contact; and what strong players weigh besides: pip counts
and the race lead, checkers borne off, anchors in the opponent's home board, back
checkers not yet escaped, the opponent's blots, the prime in front of the opponent's back
checkers and the opponent's home-board points; exact shot counts and the pips a hit is
expected to cost, escape numbers of both sides' rearmost checkers, stacking, and where my
checkers stand, zone by zone (blots, points and spares beyond three on a point).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from fuzzeval.game import Feature
from fuzzeval.games.backgammon.board import BAR, Position

FloatArray = npt.NDArray[np.float64]


FEATURES: tuple[Feature, ...] = (
    Feature("SinglePieces", 0, 15, "my blots: points with exactly one of my checkers"),
    Feature("OpponentOnBar", 0, 15, "opponent checkers on the bar"),
    Feature("SinglePiecesInHome", 0, 6, "my blots in my home board (points 1-6)"),
    Feature("ToBeHitFactor", 0, 50,
            "for each blot, the percentage of the 36 rolls that hit it (any opposing checker "
            "behind it at a distance one die, or the dice together, can cover; blocks are "
            "ignored) times the share of the race it loses when hit, (25 - point) / 24; "
            "summed over blots and capped at 50"),
    Feature("PointsOwned", 0, 7, "points I hold with two or more checkers"),
    Feature("PointsOwnedHome", 0, 6, "points I hold in my home board"),
    Feature("StrongestConsecutiveBlockade", 0, 7, "longest run of consecutive points I hold"),
    Feature("Contact", 0, 1, "1 while some checker of mine still has an opposing one ahead"),
    Feature("PipCount", 0, 375, "my pips to bear off (the bar counts 25)"),
    Feature("RaceLead", -150, 150, "the opponent's pip count minus mine"),
    Feature("BorneOff", 0, 15, "my checkers borne off"),
    Feature("Anchors", 0, 6, "points I hold in the opponent's home board (my 19-24)"),
    Feature("BackCheckers", 0, 15, "my checkers on my 19-24 points or the bar (not escaped)"),
    Feature("OpponentBlots", 0, 15, "the opponent's blots"),
    Feature("PrimeAgainst", 0, 7,
            "longest run of points I hold in front of the opponent's rearmost checker (the "
            "blockade its back checkers must jump)"),
    Feature("OpponentHomePoints", 0, 6,
            "points the opponent holds in its home board (where my back checkers and any "
            "checker I have on the bar must pass or enter)"),
)
#: zones of my side of the board (my point numbers), for the per-zone counts
ZONES: tuple[tuple[str, int, int, str], ...] = (
    ("LowHome", 1, 3, "my 1-3 points (deep in my home board)"),
    ("HighHome", 4, 6, "my 4-6 points"),
    ("BarArea", 7, 9, "my 7-9 points (the bar point and just outside it)"),
    ("Outfield", 10, 12, "my 10-12 points"),
    ("FarOutfield", 13, 18, "my 13-18 points (the opponent's outer board, my midpoint)"),
    ("TheirHighHome", 19, 21, "my 19-21 points (the opponent's 4-6 points)"),
    ("TheirLowHome", 22, 24, "my 22-24 points (the opponent's 1-3 points)"),
)
FEATURES += (
    Feature("Shots", 0, 36,
            "rolls of the 36 on which an opposing checker can hit one of my blots: one die, "
            "or both dice (all four steps of a double) with every point it touches on the "
            "way not held by me; while the opponent has a checker on the bar only checkers "
            "entering from the bar count"),
    Feature("PipLoss", 0, 24,
            "pips I expect to lose to a hit: over the 36 rolls, the mean of the most pips a "
            "hit on that roll costs me (a blot hit on my point k loses 25 - k pips: it goes "
            "back to the bar)"),
    Feature("BackEscapes", 0, 36,
            "rolls of the 36 that carry my rearmost checker, moving alone and landing only "
            "on points the opponent does not hold, past the furthest point the opponent "
            "holds among the 12 in front of it (36 when none is held there)"),
    Feature("OpponentEscapes", 0, 36,
            "the same for the opponent's rearmost checker against the points I hold: how "
            "well I contain it"),
    Feature("Stacking", 0, 12, "my checkers beyond three on a point"),
    Feature("OpponentBackCheckers", 0, 15,
            "opponent checkers in my home board or on the bar (its back checkers)"),
    Feature("HomeCheckers", 0, 15, "my checkers in my home board"),
    Feature("OutfieldCheckers", 0, 15, "my checkers on my 7-18 points"),
)
FEATURES += tuple(
    f
    for zone, lo, hi, where in ZONES
    for f in (Feature(f"Blots{zone}", 0, hi - lo + 1, f"my blots on {where}"),
              Feature(f"Points{zone}", 0, hi - lo + 1, f"points I hold on {where}"),
              Feature(f"Spares{zone}", 0, 15, f"my checkers beyond three on a point, {where}"))
)
FEATURE_NAMES: tuple[str, ...] = tuple(f.name for f in FEATURES)


def _longest_run(owned: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Longest run of True per row: as bits, ``x & (x >> 1)`` shortens every run by one."""
    x = owned.astype(np.int64) @ (np.int64(1) << np.arange(owned.shape[1], dtype=np.int64))
    best = np.zeros(owned.shape[0], dtype=np.int64)
    while x.any():
        best += x != 0
        x &= x >> 1
    return best


def position_features(candidates: Sequence[Position],
                      names: tuple[str, ...] = FEATURE_NAMES) -> FloatArray:
    """Features of each candidate (n, k), one column per name."""
    unknown = [n for n in names if n not in FEATURE_NAMES]
    if unknown:
        raise ValueError(f"unknown backgammon features {unknown} (features: "
                         f"{', '.join(FEATURE_NAMES)})")
    me = np.array([p.me for p in candidates], dtype=np.int64)  # (n, 25), my numbering
    opp = np.array([p.opp for p in candidates], dtype=np.int64)  # the opponent's numbering
    n = me.shape[0]
    pts = me[:, :24]
    theirs = opp[:, 23::-1]  # opponent checkers on my points 1..24 (index 0..23)
    blots = pts == 1
    owned = pts >= 2
    pip = (me * np.arange(1, 26)).sum(axis=1)
    opp_pip = (opp * np.arange(1, 26)).sum(axis=1)
    mine_idx = np.where(me > 0, np.arange(25), -1).max(axis=1)  # my furthest-back checker
    # Opponent checkers in my numbering, their bar at -1: contact while one is below mine.
    behind = np.concatenate([opp[:, BAR:BAR + 1] > 0, theirs > 0], axis=1)
    their_lowest = np.where(behind, np.arange(-1, 24), 99).min(axis=1)
    contact = (mine_idx > their_lowest) & (mine_idx >= 0)
    cols: dict[str, npt.ArrayLike] = {}
    want = set(names)
    if "SinglePieces" in want:
        cols["SinglePieces"] = blots.sum(axis=1)
    if "OpponentOnBar" in want:
        cols["OpponentOnBar"] = opp[:, BAR]
    if "SinglePiecesInHome" in want:
        cols["SinglePiecesInHome"] = blots[:, :6].sum(axis=1)
    if "ToBeHitFactor" in want:
        cols["ToBeHitFactor"] = _to_be_hit(blots, theirs, opp[:, BAR])
    if "PointsOwned" in want:
        cols["PointsOwned"] = owned.sum(axis=1)
    if "PointsOwnedHome" in want:
        cols["PointsOwnedHome"] = owned[:, :6].sum(axis=1)
    if "StrongestConsecutiveBlockade" in want:
        cols["StrongestConsecutiveBlockade"] = _longest_run(owned)
    if "Contact" in want:
        cols["Contact"] = contact
    if "PipCount" in want:
        cols["PipCount"] = pip
    if "RaceLead" in want:
        cols["RaceLead"] = opp_pip - pip
    if "BorneOff" in want:
        cols["BorneOff"] = 15 - me.sum(axis=1)
    if "Anchors" in want:
        cols["Anchors"] = owned[:, 18:24].sum(axis=1)
    if "BackCheckers" in want:
        cols["BackCheckers"] = me[:, 18:25].sum(axis=1)
    if "OpponentBlots" in want:
        cols["OpponentBlots"] = (opp[:, :24] == 1).sum(axis=1)
    if "PrimeAgainst" in want:
        in_front = np.arange(24)[None, :] > their_lowest[:, None]
        cols["PrimeAgainst"] = _longest_run(owned & in_front)
    if "OpponentHomePoints" in want:
        cols["OpponentHomePoints"] = (opp[:, :6] >= 2).sum(axis=1)
    if want & {"Shots", "PipLoss"}:
        hits = _hits(me, opp)
        cols["Shots"] = ((hits != 0) * _ROLL_WEIGHT).sum(axis=1)
        cols["PipLoss"] = _pip_loss(hits)
    if want & {"BackEscapes", "OpponentEscapes"}:  # both sides in one call
        both = _escapes(np.concatenate([me, opp]), np.concatenate([opp, me]))
        cols["BackEscapes"], cols["OpponentEscapes"] = both[:n], both[n:]
    if want - set(cols):  # the simple counts, cheap enough to take together
        spares = np.maximum(pts - 3, 0)
        cols["Stacking"] = spares.sum(axis=1)
        cols["OpponentBackCheckers"] = opp[:, 18:25].sum(axis=1)
        cols["HomeCheckers"] = pts[:, :6].sum(axis=1)
        cols["OutfieldCheckers"] = pts[:, 6:18].sum(axis=1)
        starts = [lo - 1 for _, lo, _, _ in ZONES]  # the zones tile points 1..24
        per_zone = np.add.reduceat(np.stack([blots, owned, spares]).astype(np.int64), starts,
                                   axis=2)  # (3, n, zones)
        for k, (zone, _, _, _) in enumerate(ZONES):
            cols[f"Blots{zone}"] = per_zone[0, :, k]
            cols[f"Points{zone}"] = per_zone[1, :, k]
            cols[f"Spares{zone}"] = per_zone[2, :, k]
    out = np.empty((n, len(names)))
    for j, name in enumerate(names):
        out[:, j] = cols[name]
    return out


# The 21 distinct rolls (a <= b) and how many of the 36 each stands for.
_DIE_A = np.array([a for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
_DIE_B = np.array([b for a in range(1, 7) for b in range(a, 7)], dtype=np.int64)
_ROLL_WEIGHT = np.where(_DIE_A == _DIE_B, 1.0, 2.0)
_DOUBLE = _DIE_A == _DIE_B


def _bits(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Each row of booleans as one integer, column j as bit j."""
    return mask.astype(np.int64) @ (np.int64(1) << np.arange(mask.shape[1], dtype=np.int64))


def _hits(me: npt.NDArray[np.int64], opp: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """(n, 21): for each roll, my blots an opposing checker can hit, as bits (bit k = my
    point k). Opposing checkers move up my numbers, entering from their bar at 0; a
    combination shot needs each point it touches on the way open (not held by me)."""
    # While on the bar only the entering checker moves (bit 0 = their bar).
    s = np.where(opp[:, BAR] > 0, 1, _bits(opp[:, 23::-1] > 0) << 1)[:, None]
    blot = (_bits(me[:, :24] == 1) << 1)[:, None]
    open_ = ~(_bits(me[:, :24] >= 2) << 1)[:, None]
    a, b = _DIE_A[None, :], _DIE_B[None, :]
    one_die = (s << a) | (s << b)
    both = (((s << a) & open_) << b) | (((s << b) & open_) << a)
    two = ((s << a) & open_) << a
    three = (two & open_) << a
    four = (three & open_) << a
    reach = np.where(_DOUBLE[None, :], one_die | two | three | four, one_die | both)
    out: npt.NDArray[np.int64] = reach & blot
    return out


def _pip_loss(hits: npt.NDArray[np.int64]) -> FloatArray:
    """Mean over the 36 rolls of the most pips a hit costs: the lowest hit point k loses
    25 - k (lowest set bit, found as the bit length of ``x & -x``)."""
    low = hits & -hits
    k = np.frexp(low.astype(np.float64))[1] - 1  # exact for powers of two
    loss = np.where(hits != 0, 25 - k, 0)
    out: FloatArray = (loss * _ROLL_WEIGHT).sum(axis=1) / 36.0
    return out


def _escapes(me: npt.NDArray[np.int64], opp: npt.NDArray[np.int64]) -> FloatArray:
    """Rolls of 36 that carry ``me``'s rearmost checker past the furthest point ``opp``
    holds among the 12 in front of it (36 when none is held there or no checker is left).
    Distances d from the checker are bits; points beyond my 1-point count as open."""
    rear = np.where(me > 0, np.arange(25), -1).max(axis=1)  # index, 24 = the bar
    # Bit j of `ahead` says the opponent holds my index 24 - j (its own index j - 1);
    # shifted right by 24 - rear, bit d says it holds the point d in front of my rearmost.
    ahead = _bits(opp[:, :24] >= 2) << 1  # bit 0: the bar, never held
    blocked = (ahead >> (24 - rear)) & ((np.int64(1) << (rear + 1)) - 2)
    near = blocked & 0x1FFE  # distances 1..12
    furthest = np.where(near > 0, np.frexp(near.astype(np.float64))[1] - 1, 0)
    open_ = (~blocked)[:, None]
    a, b = _DIE_A[None, :], _DIE_B[None, :]
    one = np.int64(1)
    first_a, first_b = (one << a) & open_, (one << b) & open_
    both = np.where((first_a | first_b) != 0, (one << (a + b)) & open_, 0)
    two = np.where(first_a != 0, (one << (2 * a)) & open_, 0)
    three = np.where(two != 0, (one << (3 * a)) & open_, 0)
    four = np.where(three != 0, (one << (4 * a)) & open_, 0)
    reach = np.where(_DOUBLE[None, :], first_a | two | three | four, first_a | first_b | both)
    passed = (reach >> (furthest[:, None] + 1)) != 0
    counted = (passed * _ROLL_WEIGHT).sum(axis=1)
    out: FloatArray = np.where((furthest == 0) | (rear < 0), 36.0, counted)
    return out


def _to_be_hit(blots: npt.NDArray[np.bool_], theirs: npt.NDArray[np.int64],
               their_bar: npt.NDArray[np.int64]) -> FloatArray:
    """Sum over my blots of P(hit) in percent x (25 - point) / 24, capped at 50 (blocks
    ignored). Per roll, the points the opposing checkers reach are bits (bit 0 their bar,
    bit k my point k); summing weight x P(hit) over blots is summing, over the rolls, the
    weights of the blots hit, looked up a byte at a time."""
    src = ((_bits(theirs > 0) << 1) | (their_bar > 0))[:, None]
    blot = (_bits(blots) << 1)[:, None]
    a, b = _DIE_A[None, :], _DIE_B[None, :]
    reach = np.where(_DOUBLE[None, :],
                     (src << a) | (src << 2 * a) | (src << 3 * a) | (src << 4 * a),
                     (src << a) | (src << b) | (src << (a + b)))
    hit = reach & blot  # (n, 21)
    table = _blot_weight_bytes()
    weight = (table[0][hit & 255] + table[1][(hit >> 8) & 255] + table[2][(hit >> 16) & 255]
              + table[3][(hit >> 24) & 255])
    total = (weight * _ROLL_WEIGHT).sum(axis=1) * (100.0 / 36.0)
    out: FloatArray = np.minimum(total, 50.0)
    return out


@cache
def _blot_weight_bytes() -> FloatArray:
    """(4, 256): the summed (25 - k) / 24 of the points k whose bits are set in each byte
    of a 32-bit set (bit k = my point k; bit 0, their bar, weighs nothing)."""
    bit_weight = np.array([(25.0 - k) / 24.0 if 1 <= k <= 24 else 0.0 for k in range(32)])
    byte_bits = (np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1
    table = np.stack([byte_bits @ bit_weight[8 * i:8 * i + 8] for i in range(4)])
    table.flags.writeable = False
    return table


class OptionFeatures:
    """Features of one decision's options, computed column by column as they are asked for
    and kept: a rule-base player asks for its inputs over every option, the history then
    logs the chosen option's row of every feature from the same work; a player that reads
    no features (pubeval, gnubg) costs nothing."""

    def __init__(self, options: Sequence[Position]) -> None:
        self._options = list(options)
        self._cols: dict[str, FloatArray] = {}

    def columns(self, names: tuple[str, ...]) -> FloatArray:
        """(options, names) for every option."""
        missing = tuple(n for n in names if n not in self._cols)
        if missing:
            got = position_features(self._options, missing)
            self._cols.update(zip(missing, got.T, strict=True))
        return np.stack([self._cols[n] for n in names], axis=1)

    def __call__(self, rows: Sequence[int]) -> FloatArray:
        """Every feature (FEATURE_NAMES order) of some options."""
        rows = list(rows)
        missing = tuple(n for n in FEATURE_NAMES if n not in self._cols)
        fresh_col = {}
        if missing:
            fresh = position_features([self._options[i] for i in rows], missing)
            fresh_col = {n: fresh[:, k] for k, n in enumerate(missing)}
        return np.stack([fresh_col[n] if n in fresh_col else self._cols[n][rows]
                         for n in FEATURE_NAMES], axis=1)
