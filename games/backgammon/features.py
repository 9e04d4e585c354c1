"""Crisp features of candidate positions (after my move, before the turn passes), all
candidates of a move in one call. Names are the rule bases' input variables.

The paper's (Heinze et al. 2005, Tables 1, 6): SinglePieces, OpponentOnBar,
SinglePiecesInHome, ToBeHitFactor, PointsOwned, PointsOwnedHome,
StrongestConsecutiveBlockade, Contact; and what strong players weigh besides: pip counts
and the race lead, checkers borne off, anchors in the opponent's home board, back
checkers not yet escaped, the opponent's blots, the prime in front of the opponent's back
checkers and the opponent's home-board points.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from fuzzeval.game import Feature
from games.backgammon.board import BAR, Position

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
FEATURE_NAMES: tuple[str, ...] = tuple(f.name for f in FEATURES)


@cache
def _shot_masks() -> npt.NDArray[np.uint64]:
    """For distance 0..25: the 36 rolls (as bits) that carry a checker exactly that far
    (one die, both dice, or 3 or 4 steps of a double; blocks ignored)."""
    masks = np.zeros(26, dtype=np.uint64)
    for k, (a, b) in enumerate((a, b) for a in range(1, 7) for b in range(1, 7)):
        reach = {a, b, a + b} if a != b else {a, 2 * a, 3 * a, 4 * a}
        for d in reach:
            if d <= 25:
                masks[d] |= np.uint64(1) << np.uint64(k)
    masks.flags.writeable = False
    return masks


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
    out = np.empty((n, len(names)))
    for j, name in enumerate(names):
        out[:, j] = cols[name]
    return out


def _to_be_hit(blots: npt.NDArray[np.bool_], theirs: npt.NDArray[np.int64],
               their_bar: npt.NDArray[np.int64]) -> FloatArray:
    """Sum over my blots of P(hit) in percent x (25 - point) / 24, capped at 50."""
    masks = _shot_masks()
    n = blots.shape[0]
    # Sources in my numbering -1 (their bar) .. 23; a blot on index b is hit from c < b.
    present = np.concatenate([(their_bar > 0)[:, None], theirs > 0], axis=1)  # j: index j-1
    b = np.arange(24)[:, None]
    c = np.arange(-1, 24)[None, :]
    dist = np.where(c < b, b - c, 0)  # (24, 25); 0 = cannot hit
    shot = masks[dist]  # (24, 25) uint64
    hits = np.where(present[:, None, :], shot[None, :, :], np.uint64(0))  # (n, 24, 25)
    rolls = np.bitwise_or.reduce(hits, axis=2)  # (n, 24)
    percent = np.bitwise_count(rolls).astype(np.float64) * (100.0 / 36.0)
    weight = (25.0 - np.arange(1, 25)) / 24.0  # a blot on my point k loses 25 - k pips
    total = (percent * weight * blots).sum(axis=1)
    out: FloatArray = np.minimum(total, 50.0) if n else np.zeros(0)
    return out
