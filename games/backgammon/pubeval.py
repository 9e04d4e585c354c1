"""Tesauro's pubeval (1993): a public-domain linear evaluator, the usual yardstick.

Inputs for a position seen from the mover: for each of the mover's points 24 down to 1, a
block of five (one opposing blot; exactly one, at least two, exactly three, and (n - 3) / 2
beyond three of the mover's own checkers), then the opponent's checkers on the bar / 2 and
the mover's checkers borne off / 15. Contact and race weights (the public figures, in
``data/pubeval_weights.json``) are chosen on the position before the move. A position with
all fifteen borne off scores 99999999. Many candidates are scored in one call.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.kernels.jit import kernel
from fuzzeval.games.backgammon.board import BAR, CHECKERS, Boards, Position

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
WON = 99_999_999.0


@cache
def weights() -> dict[str, FloatArray]:
    text = resources.files(__package__).joinpath("data", "pubeval_weights.json")
    data = json.loads(text.read_text())
    out = {k: np.asarray(data[k], dtype=np.float64) for k in ("contact", "race")}
    for w in out.values():
        w.flags.writeable = False
    return out


def is_race(position: Position) -> bool:
    """No contact: every checker of mine has passed every checker of the opponent."""
    mine = [i for i in range(25) if position.me[i]]  # my bar is index 24: behind everything
    theirs = [23 - i for i in range(25) if position.opp[i]]  # their bar lands at -1
    return not mine or not theirs or max(mine) < min(theirs)


def inputs(candidates: Sequence[Position]) -> FloatArray:
    """The 122 pubeval inputs of each position (n, 122)."""
    boards = Boards.of(candidates)
    return _inputs(boards.me, boards.opp)


@kernel
def _inputs(me: IntArray, opp: IntArray) -> FloatArray:
    """The inputs of boards ``me``, ``opp`` (n, 25): block j is my point 24 - j."""
    n = me.shape[0]
    x = np.zeros((n, 122))
    for p in range(n):
        for j in range(24):
            pts = me[p, 23 - j]
            x[p, 5 * j] = opp[p, j] == 1  # an opposing blot on my 24 - j, its j + 1
            x[p, 5 * j + 1] = pts == 1
            x[p, 5 * j + 2] = pts >= 2
            x[p, 5 * j + 3] = pts == 3
            if pts >= 4:
                x[p, 5 * j + 4] = (pts - 3) / 2
        x[p, 120] = opp[p, BAR] / 2
        x[p, 121] = (CHECKERS - me[p].sum()) / 15
    return x


def pubeval(before: Position, candidates: Sequence[Position]) -> FloatArray:
    """Scores of candidate positions (after my move, before the turn passes)."""
    w = weights()["race" if is_race(before) else "contact"]
    boards = Boards.of(candidates)
    scores: FloatArray = _inputs(boards.me, boards.opp) @ w
    scores[boards.me.sum(axis=1) == 0] = WON
    return scores
