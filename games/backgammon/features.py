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
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.kernels.jit import kernel
from fuzzeval.games.backgammon.board import BAR, CHECKERS, Boards, Position
from fuzzeval.play.game import Feature

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


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
#: the side to roll's race, as my own is counted above: a value one roll ahead is read
#: from that side's view, so a race is told apart only when both sides' pips and checkers
#: off are seen (docs/learning.md)
FEATURES += (
    Feature("OpponentPipCount", 0, 375, "the opponent's pips to bear off (the bar counts 25)"),
    Feature("OpponentBorneOff", 0, 15, "the opponent's checkers borne off"),
)
#: the features counted on my side that the opponent's have no counterpart of above: the
#: same counts of its checkers, from its side (the board turned round); one roll ahead my
#: play is seen only through them (docs/learning.md)
MIRRORED: tuple[str, ...] = (
    "SinglePiecesInHome", "ToBeHitFactor", "PointsOwned", "StrongestConsecutiveBlockade",
    "Anchors", "PrimeAgainst", "Shots", "PipLoss", "Stacking", "HomeCheckers",
    "OutfieldCheckers", *(f"{kind}{zone}" for zone, _, _, _ in ZONES
                          for kind in ("Blots", "Points", "Spares")))
_OWN = len(FEATURES)  # the columns the kernel counts, before the mirrored ones
FEATURES += tuple(
    Feature(f"Their{f.name}", f.lo, f.hi, f"the opponent's {f.name}, counted from its side "
            f"(mine: {f.meaning})")
    for f in FEATURES if f.name in MIRRORED)
FEATURE_NAMES: tuple[str, ...] = tuple(f.name for f in FEATURES)


_COLUMN = {name: j for j, name in enumerate(FEATURE_NAMES)}
_N_FEATURES = _OWN
# Column numbers, read by the kernel as constants.
_SINGLE_PIECES = _COLUMN["SinglePieces"]
_OPPONENT_ON_BAR = _COLUMN["OpponentOnBar"]
_SINGLE_PIECES_IN_HOME = _COLUMN["SinglePiecesInHome"]
_TO_BE_HIT_FACTOR = _COLUMN["ToBeHitFactor"]
_POINTS_OWNED = _COLUMN["PointsOwned"]
_POINTS_OWNED_HOME = _COLUMN["PointsOwnedHome"]
_BLOCKADE = _COLUMN["StrongestConsecutiveBlockade"]
_CONTACT = _COLUMN["Contact"]
_PIP_COUNT = _COLUMN["PipCount"]
_RACE_LEAD = _COLUMN["RaceLead"]
_BORNE_OFF = _COLUMN["BorneOff"]
_ANCHORS = _COLUMN["Anchors"]
_BACK_CHECKERS = _COLUMN["BackCheckers"]
_OPPONENT_BLOTS = _COLUMN["OpponentBlots"]
_PRIME_AGAINST = _COLUMN["PrimeAgainst"]
_OPPONENT_HOME_POINTS = _COLUMN["OpponentHomePoints"]
_SHOTS = _COLUMN["Shots"]
_PIP_LOSS = _COLUMN["PipLoss"]
_BACK_ESCAPES = _COLUMN["BackEscapes"]
_OPPONENT_ESCAPES = _COLUMN["OpponentEscapes"]
_STACKING = _COLUMN["Stacking"]
_OPPONENT_BACK_CHECKERS = _COLUMN["OpponentBackCheckers"]
_HOME_CHECKERS = _COLUMN["HomeCheckers"]
_OUTFIELD_CHECKERS = _COLUMN["OutfieldCheckers"]
_OPPONENT_PIP_COUNT = _COLUMN["OpponentPipCount"]
_OPPONENT_BORNE_OFF = _COLUMN["OpponentBorneOff"]
#: the zone of each of my points (index 0..23), and the column of each zone's blots (its
#: points and spares follow)
_ZONE_OF = np.array([z for z, (_, lo, hi, _) in enumerate(ZONES) for _ in range(lo, hi + 1)],
                    dtype=np.int64)
_ZONE_COLUMN = np.array([_COLUMN[f"Blots{zone}"] for zone, _, _, _ in ZONES], dtype=np.int64)
assert len(_ZONE_OF) == 24 and all(_COLUMN[f"Points{z}"] == _COLUMN[f"Blots{z}"] + 1
                                   and _COLUMN[f"Spares{z}"] == _COLUMN[f"Blots{z}"] + 2
                                   for z, _, _, _ in ZONES)


@lru_cache(maxsize=64)
def _columns(names: tuple[str, ...]) -> npt.NDArray[np.intp]:
    """The columns of ``names`` among FEATURE_NAMES; unknown names are a ValueError."""
    unknown = [n for n in names if n not in _COLUMN]
    if unknown:
        raise ValueError(f"unknown backgammon features {unknown} (features: "
                         f"{', '.join(FEATURE_NAMES)})")
    out = np.array([_COLUMN[n] for n in names], dtype=np.intp)
    out.flags.writeable = False
    return out


def position_features(candidates: Sequence[Position],
                      names: tuple[str, ...] = FEATURE_NAMES) -> FloatArray:
    """Features of each candidate (n, k), one column per name."""
    columns = _columns(names)
    boards = Boards.of(candidates)
    if len(columns) and columns.max() < _OWN:  # the board turned round is not needed
        return _features(boards.me, boards.opp)[:, columns]
    every = _every(boards.me, boards.opp)
    return every if names == FEATURE_NAMES else every[:, columns]


_MIRRORED_FROM = np.array([_COLUMN[name] for name in MIRRORED], dtype=np.intp)


def _every(me: IntArray, opp: IntArray) -> FloatArray:
    """Every feature (FEATURE_NAMES order): my side's counts, then the mirrored ones, the
    same kernel on the board turned round."""
    if not len(me):
        return np.zeros((0, len(FEATURE_NAMES)))
    return np.hstack([_features(me, opp), _features(opp, me)[:, _MIRRORED_FROM]])


@kernel
def _features(me_all: IntArray, opp_all: IntArray) -> FloatArray:
    """The features my side's counts give (FEATURE_NAMES' first ``_OWN``) of each board:
    ``me_all``, ``opp_all`` (n, 25).

    Sets of points are bits: bit k is my point k (1..24) and bit 0, for the opposing
    checkers, their bar, from which they enter as if from my point 0 (they move up my
    numbers). The 21 distinct rolls (a <= b) stand for 1 (doubles) or 2 of the 36."""
    n = me_all.shape[0]
    out = np.zeros((n, _N_FEATURES))
    blot_points = np.zeros(15, np.int64)
    for p in range(n):
        me = me_all[p]
        opp = opp_all[p]
        row = out[p]
        blots = owned = their_points = 0  # bit sets, as above
        n_blots = 0  # blot_points[:n_blots]: my blots' points, lowest first
        run = longest = pips = opp_pips = mine = 0
        opp_blots = opp_home_points = 0
        for i in range(24):
            k = i + 1
            c = me[i]
            z = _ZONE_COLUMN[_ZONE_OF[i]]
            pips += k * c
            opp_pips += k * opp[i]
            if c > 0:
                mine = k
            if c == 1:
                blots |= 1 << k
                blot_points[n_blots] = k
                n_blots += 1
                row[z] += 1
            if c >= 2:
                owned |= 1 << k
                row[z + 1] += 1
                run += 1
                longest = max(longest, run)
            else:
                run = 0
            if c > 3:
                row[z + 2] += c - 3
                row[_STACKING] += c - 3
            if opp[23 - i] > 0:
                their_points |= 1 << k
            if opp[i] == 1:
                opp_blots += 1
            if i < 6 and opp[i] >= 2:
                opp_home_points += 1
        pips += 25 * me[BAR]
        opp_pips += 25 * opp[BAR]
        if me[BAR] > 0:
            mine = 25
        their_bar = opp[BAR] > 0
        # The opponent's rearmost checker on my numbering: 0 on the bar, 25 when none.
        theirs = their_points | (1 if their_bar else 0)
        rearmost = 25
        for k in range(25):
            if theirs >> k & 1:
                rearmost = k
                break
        home = 0b1111110
        row[_SINGLE_PIECES] = _count(blots)
        row[_OPPONENT_ON_BAR] = opp[BAR]
        row[_SINGLE_PIECES_IN_HOME] = _count(blots & home)
        row[_POINTS_OWNED] = _count(owned)
        row[_POINTS_OWNED_HOME] = _count(owned & home)
        row[_BLOCKADE] = longest
        row[_CONTACT] = 1.0 if mine > rearmost else 0.0
        row[_PIP_COUNT] = pips
        row[_RACE_LEAD] = opp_pips - pips
        row[_BORNE_OFF] = CHECKERS - me.sum()
        row[_OPPONENT_PIP_COUNT] = opp_pips
        row[_OPPONENT_BORNE_OFF] = CHECKERS - opp.sum()
        row[_ANCHORS] = _count(owned >> 19)
        row[_BACK_CHECKERS] = me[18:].sum()
        row[_OPPONENT_BLOTS] = opp_blots
        row[_PRIME_AGAINST] = _longest_run(owned & ~((2 << rearmost) - 1))
        row[_OPPONENT_HOME_POINTS] = opp_home_points
        row[_OPPONENT_BACK_CHECKERS] = opp[18:].sum()
        row[_HOME_CHECKERS] = me[:6].sum()
        row[_OUTFIELD_CHECKERS] = me[6:18].sum()
        # Per roll: what the opposing checkers reach. To be hit (blocks ignored): every
        # checker, one die or the dice together; shots: while one is on the bar only the
        # entering checker, a combination only through points I do not hold.
        shooters = 1 if their_bar else their_points
        open_ = ~owned
        hit_weight = shots = pip_loss = 0
        for a in range(1, 7):
            for b in range(a, 7):
                weight = 1 if a == b else 2
                if a == b:
                    reach = ((theirs << a) | (theirs << 2 * a) | (theirs << 3 * a)
                             | (theirs << 4 * a))
                    two = ((shooters << a) & open_) << a
                    three = (two & open_) << a
                    hits = ((shooters << a) | two | three | ((three & open_) << a)) & blots
                else:
                    reach = (theirs << a) | (theirs << b) | (theirs << (a + b))
                    hits = ((shooters << a) | (shooters << b)
                            | (((shooters << a) & open_) << b)
                            | (((shooters << b) & open_) << a)) & blots
                for j in range(n_blots):  # every blot within reach: it loses 25 - k pips
                    k = blot_points[j]
                    if reach >> k & 1:
                        hit_weight += weight * (25 - k)
                if hits:
                    shots += weight
                    j = 0
                    while not hits >> blot_points[j] & 1:  # the costliest: the lowest point
                        j += 1
                    pip_loss += weight * (25 - blot_points[j])
        # Percent of the 36 rolls (100 / 36) times the share of the race, (25 - k) / 24.
        row[_TO_BE_HIT_FACTOR] = min(hit_weight * 100.0 / 864.0, 50.0)
        row[_SHOTS] = shots
        row[_PIP_LOSS] = pip_loss / 36.0
        row[_BACK_ESCAPES] = _escapes(me, opp)
        row[_OPPONENT_ESCAPES] = _escapes(opp, me)
    return out


@kernel
def _count(bits: int) -> int:
    """Set bits."""
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


@kernel
def _longest_run(bits: int) -> int:
    """Longest run of set bits: ``x & (x >> 1)`` shortens every run by one."""
    n = 0
    while bits:
        bits &= bits >> 1
        n += 1
    return n


@kernel
def _escapes(me: IntArray, opp: IntArray) -> float:
    """Rolls of 36 that carry ``me``'s rearmost checker past the furthest point ``opp``
    holds among the 12 in front of it (36 when none is held there or no checker is left).
    Distances d from the checker are bits; points beyond my 1-point count as open."""
    rear = -1  # index, 24 = the bar
    for i in range(24, -1, -1):
        if me[i] > 0:
            rear = i
            break
    if rear < 0:
        return 36.0
    blocked = 0  # bit d: the opponent holds the point d in front of my rearmost
    for d in range(1, rear + 1):
        if opp[23 - rear + d] >= 2:  # my index rear - d is its index 23 - rear + d
            blocked |= 1 << d
    near = blocked & 0x1FFE  # distances 1..12
    if near == 0:
        return 36.0
    furthest = 12
    while not near >> furthest & 1:
        furthest -= 1
    open_ = ~blocked
    count = 0
    for a in range(1, 7):
        for b in range(a, 7):
            first_a = (1 << a) & open_
            if a == b:
                two = (1 << 2 * a) & open_ if first_a else 0
                three = (1 << 3 * a) & open_ if two else 0
                four = (1 << 4 * a) & open_ if three else 0
                if (first_a | two | three | four) >> (furthest + 1):
                    count += 1
            else:
                first_b = (1 << b) & open_
                both = (1 << (a + b)) & open_ if first_a | first_b else 0
                if (first_a | first_b | both) >> (furthest + 1):
                    count += 2
    return float(count)


class OptionFeatures:
    """Features of one decision's options, every feature of every option in one call when
    first asked for, and kept: a rule-base player asks for its inputs over every option, the
    history then logs the chosen option's row from the same work; a player that reads no
    features (pubeval, gnubg) costs nothing, and one with a single option costs one row."""

    def __init__(self, options: Sequence[Position]) -> None:
        self._boards = Boards.of(options)
        self._every: FloatArray | None = None

    def columns(self, names: tuple[str, ...]) -> FloatArray:
        """(options, names) for every option."""
        if self._every is None:
            self._every = _every(self._boards.me, self._boards.opp)
        out: FloatArray = self._every[:, _columns(names)]
        return out

    def __call__(self, rows: Sequence[int]) -> FloatArray:
        """Every feature (FEATURE_NAMES order) of some options."""
        rows = list(rows)
        if self._every is not None:
            out: FloatArray = self._every[rows]
            return out
        return _every(self._boards.me[rows], self._boards.opp[rows])
