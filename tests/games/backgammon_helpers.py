"""Positions for the backgammon tests: written by hand, or reached by random play."""

from __future__ import annotations

import numpy as np

from fuzzeval.games.backgammon.board import START, Position
from fuzzeval.games.backgammon.moves import legal_moves


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """Checker counts from {point number: checkers}, in the owner's numbering."""
    counts = [0] * 25
    for p, n in points.items():
        counts[p - 1] = n
    counts[24] = bar
    return tuple(counts)


def random_positions(n: int, seed: int) -> list[Position]:
    """Positions after each move of random games (from the mover's side)."""
    rng = np.random.default_rng(seed)
    out: list[Position] = []
    pos = START
    while len(out) < n:
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        plays = legal_moves(pos, dice)
        after = plays[int(rng.integers(len(plays)))][1]
        out.append(after)
        pos = START if sum(after.me) == 0 else after.flip()
    return out
