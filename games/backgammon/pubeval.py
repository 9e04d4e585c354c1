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
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from fuzzeval.games.backgammon.board import BAR, Position

FloatArray = npt.NDArray[np.float64]
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


def inputs(candidates: list[Position]) -> FloatArray:
    """The 122 pubeval inputs of each position (n, 122)."""
    me = np.array([p.me for p in candidates], dtype=np.float64)  # (n, 25)
    opp = np.array([p.opp for p in candidates], dtype=np.float64)
    n = len(candidates)
    x = np.zeros((n, 122))
    pts = me[:, 23::-1]  # my points 24 .. 1
    blot = opp[:, :24] == 1  # opposing blot on my point 24 - j is on its point j + 1
    block = x[:, :120].reshape(n, 24, 5)
    block[:, :, 0] = blot
    block[:, :, 1] = pts == 1
    block[:, :, 2] = pts >= 2
    block[:, :, 3] = pts == 3
    block[:, :, 4] = np.where(pts >= 4, (pts - 3) / 2, 0)
    x[:, 120] = opp[:, BAR] / 2
    x[:, 121] = (15 - me.sum(axis=1)) / 15
    return x


def pubeval(before: Position, candidates: list[Position]) -> FloatArray:
    """Scores of candidate positions (after my move, before the turn passes)."""
    w = weights()["race" if is_race(before) else "contact"]
    scores: FloatArray = inputs(candidates) @ w
    done = np.array([sum(p.me) == 0 for p in candidates])
    scores[done] = WON
    return scores
