"""An exact two-sided bear-off table, the reference a search is checked against.

Every position with 1 to ``most`` checkers a side, all within their home boards, is
solved exactly: the chance the side on roll wins is the mean over the 36 rolls (a double
counts once, any other roll twice) of its best play's worth, 1 where the play bears off
its last checker and else 1 minus the other side's chance on roll. In a bear-off the two
sides never touch, so a side's plays depend on its own checkers only; they are taken from
the move generator (checked on its own against GNU Backgammon and OpenSpiel), once for
each side's checkers and roll. Positions are solved by increasing total pips: every play
lowers the mover's pips, so what a position needs is solved before it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fuzzeval.games.backgammon.board import Boards, Position
from fuzzeval.games.backgammon.lookahead import ROLL_SHARE, ROLLS
from fuzzeval.games.backgammon.moves import plays

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BearoffTable:
    """``win[x, y]``: the chance the side on roll with checkers ``sides[x]`` wins against
    ``sides[y]`` (each 6 counts, its 1 to 6 points; index 0 is no checkers left)."""

    sides: tuple[tuple[int, ...], ...]
    win: FloatArray

    def index(self, counts: IntArray) -> IntArray:
        """The index of each row of home-board counts (n, 6)."""
        lookup = {s: i for i, s in enumerate(self.sides)}
        return np.array([lookup[tuple(int(c) for c in row)] for row in counts], np.int64)

    def values(self, boards: Boards) -> FloatArray:
        """Points a game for the side that has just moved (``me``, the other on roll):
        a win 1, a loss -1 (no gammons: a side of at most a few checkers has borne off
        some); the game's end is worth 1."""
        x = self.index(boards.me[:, :6])
        y = self.index(boards.opp[:, :6])
        out: FloatArray = np.where(x == 0, 1.0, 2.0 * (1.0 - self.win[y, x]) - 1.0)
        return out

    def position(self, x: int, y: int) -> Position:
        """The position of ``sides[x]`` on roll against ``sides[y]``."""
        return Position(self.sides[x] + (0,) * 19, self.sides[y] + (0,) * 19)


def bearoff_table(most: int) -> BearoffTable:
    """Every position of up to ``most`` checkers a side, solved (see the module)."""
    sides = [c for n in range(most + 1) for c in _sides(n)]
    sides.sort(key=lambda c: (sum(c), _pips(c), c))  # index 0: no checkers left
    lookup = {s: i for i, s in enumerate(sides)}
    empty = (0,) * 25
    k = len(sides)
    # next_[x, r, j]: the j-th play of sides[x] with roll r (-1 past its last play)
    found = [[[lookup[tuple(int(c) for c in row[:6])]
               for row in plays(Position(s + (0,) * 19, empty), roll).boards.me]
              for roll in ROLLS] for s in sides[1:]]
    width = max(len(r) for f in found for r in f)
    next_ = np.full((k, len(ROLLS), width), -1, np.int64)
    for x, f in enumerate(found, start=1):
        for r, row in enumerate(f):
            next_[x, r, :len(row)] = row
    win = np.zeros((k, k))
    pips = np.array([_pips(s) for s in sides])
    x_all, y_all = np.meshgrid(np.arange(1, k), np.arange(1, k), indexing="ij")
    x_all, y_all = x_all.ravel(), y_all.ravel()
    total = pips[x_all] + pips[y_all]
    for level in np.unique(total):
        x, y = x_all[total == level], y_all[total == level]
        succ = next_[x]  # (m, rolls, width)
        worth = np.where(succ == 0, 1.0, 1.0 - win[y[:, None, None], np.maximum(succ, 0)])
        worth[succ < 0] = -np.inf
        win[x, y] = worth.max(axis=2) @ ROLL_SHARE
    return BearoffTable(tuple(sides), win)


def _sides(n: int) -> list[tuple[int, ...]]:
    """Every way of placing ``n`` checkers on six points."""
    return sorted({tuple(c.count(p) for p in range(6))
                   for c in itertools.combinations_with_replacement(range(6), n)})


def _pips(counts: tuple[int, ...]) -> int:
    return sum((i + 1) * n for i, n in enumerate(counts))
