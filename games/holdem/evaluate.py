"""Hand evaluation by phevaluator (compiled, Apache-2.0): the rank of the best five of
five to seven cards, 1 (a royal flush) to 7462 (7-5-4-3-2 unsuited), smaller being
stronger — the Cactus Kev equivalence classes, so two hands tie exactly when their ranks
are equal. phevaluator numbers cards as we do (``4 * rank + suit``, suits c d h s), so ids
pass straight through; tests/games/test_holdem_evaluate.py checks both against treys.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from phevaluator import _pheval

IntArray = npt.NDArray[np.int64]
WORST = 7462  # the rank of the weakest five-card hand
#: the hand classes, best first, with the worst rank of each (Cactus Kev's numbering)
CLASSES = (("straight flush", 10), ("four of a kind", 166), ("full house", 322),
           ("flush", 1599), ("straight", 1609), ("three of a kind", 2467),
           ("two pair", 3325), ("pair", 6185), ("high card", WORST))
_EVALUATORS = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards,
               7: _pheval.evaluate_7cards}


def hand_rank(cards: Sequence[int]) -> int:
    """The rank of the best five of ``cards`` (five to seven ids); smaller is stronger."""
    evaluate = _EVALUATORS.get(len(cards))
    if evaluate is None:
        raise ValueError(f"a hand is 5 to 7 cards (got {len(cards)})")
    return int(evaluate(*cards))


def hand_ranks(cards: npt.ArrayLike) -> IntArray:
    """The rank of every row of an (n, 5..7) array of card ids, in one call."""
    rows = np.asarray(cards, dtype=np.int64)
    if rows.ndim != 2 or rows.shape[1] not in _EVALUATORS:
        raise ValueError(f"hands are rows of 5 to 7 cards (got shape {rows.shape})")
    evaluate = _EVALUATORS[rows.shape[1]]
    return np.fromiter((evaluate(*row) for row in rows.tolist()), np.int64, len(rows))


def hand_class(rank: int) -> str:
    """The class of a hand's rank: "straight flush" ... "high card"."""
    if not 1 <= rank <= WORST:
        raise ValueError(f"a hand rank is 1 to {WORST} (got {rank})")
    return next(name for name, worst in CLASSES if rank <= worst)


def showdown(hole0: Sequence[int], hole1: Sequence[int], board: Sequence[int]) -> int:
    """Who wins a showdown: position 0, 1, or -1 for a split pot."""
    a = hand_rank((*hole0, *board))
    b = hand_rank((*hole1, *board))
    return -1 if a == b else (0 if a < b else 1)


def showdowns(holes0: npt.ArrayLike, holes1: npt.ArrayLike, boards: npt.ArrayLike
              ) -> IntArray:
    """``showdown`` of many deals at once: (n, 2), (n, 2) and (n, 5) card ids -> (n,)
    of 0, 1 or -1 (a split)."""
    board = np.asarray(boards, dtype=np.int64)
    a = hand_ranks(np.hstack([np.asarray(holes0, dtype=np.int64), board]))
    b = hand_ranks(np.hstack([np.asarray(holes1, dtype=np.int64), board]))
    return np.where(a == b, -1, np.where(a < b, 0, 1))
