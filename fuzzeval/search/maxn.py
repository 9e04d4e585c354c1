"""Maxⁿ (Luckhardt & Irani 1986), the search Sturtevant & White (2006) ran to the end of
the trick: every seat in turn, in the perfect-information game, chooses the move whose
backed-up value is best *for itself*, each leaf being valued as one vector (one value per
seat).

It needs only what every game has (``to_move``, ``candidates``, ``apply``): the options
of each seat are its candidates, in the game's order (counted by the game's
``option_count`` where it offers one, which is faster than building them), and a state
with nobody to move is a leaf. The search stops where the caller's ``until`` says
(Hearts: the trick is complete, 1 to 4 plies); ``until`` is not asked of the root, whose
move is the one being chosen.

The whole tree is built first and its leaves valued in **one** call of ``values``
(``leaves -> (n_leaves, seats)``), so a learned evaluator grades them as one batch.

Values are in the game's payoff unit and direction (``Game.payoff``): where higher is
better each seat takes the highest entry of its own, where lower is better (Hearts: points
taken) the lowest. Ties go to the first option in the game's order, so a search is
deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.play.game import Game, GameHooks, hook

FloatArray = npt.NDArray[np.float64]
#: ``leaves -> (len(leaves), seats)``: each leaf's value to every seat, in the game's payoff
Values = Callable[[Sequence[Any]], npt.ArrayLike]
#: ``state -> bool``: the search stops there (never asked of the root)
Until = Callable[[Any], bool]
#: the most leaves one search may value: a trick of Hearts has at most 13^4 = 28,561;
#: an ``until`` that stops too late would otherwise fill the memory, slowly and silently
MAX_LEAVES = 100_000

#: a searched node: a leaf's index, or (the seat to move, its children in option order)
_Node = int | tuple[int, tuple["_Node", ...]]
_Inner = tuple[int, tuple[_Node, ...]]


@dataclass(frozen=True)
class MaxnResult:
    """What one search found: the root seat's choice, and why (each option's vector)."""

    choice: int  # the index of the best option in ``game.candidates(root)``
    value: FloatArray  # its backed-up vector, one value per seat
    options: FloatArray  # (options, seats): every root option's backed-up vector
    leaves: int  # how many leaves were valued


def maxn(game: Game, state: Any, values: Values, until: Until,
         rng: np.random.Generator | None = None, max_leaves: int = MAX_LEAVES) -> MaxnResult:
    """The maxⁿ choice of the seat to move in ``state`` (module doc). Any chance a move
    brings inside the search is drawn from ``rng`` (default: seed 0), once, in the search's
    order: maxⁿ searches a game of perfect information. A ValueError when nobody is to
    move, when the tree has more than ``max_leaves`` leaves, or when ``values`` gives the
    wrong shape or a value that is not a finite number."""
    first = game.to_move(state)
    if first is None:
        raise ValueError("maxn: the game is over, nobody to move")
    chance = np.random.default_rng(0) if rng is None else rng
    counted = hook(game, GameHooks.option_count)
    count: Callable[[Any], int] = counted if counted is not None else \
        (lambda node: len(game.candidates(node)))
    leaves: list[Any] = []

    def expand(node: Any, seat: int) -> _Inner:
        children: list[_Node] = []
        for choice in range(count(node)):
            child = game.apply(node, choice, chance)
            mover = game.to_move(child)
            if mover is None or until(child):
                if len(leaves) == max_leaves:
                    raise ValueError(f"maxn: more than {max_leaves:,} leaves; the search "
                                     "must stop sooner (until)")
                children.append(len(leaves))
                leaves.append(child)
            else:
                children.append(expand(child, mover))
        return seat, tuple(children)

    seat, children = expand(state, first)
    table = _leaf_values(values, leaves, game.seats)
    rows = table.tolist()  # Python floats: the backup compares one entry at a time
    higher = game.payoff.higher_is_better

    def backup(node: _Node) -> int:
        """The leaf whose vector ``node`` backs up (every backed-up vector is a leaf's)."""
        if isinstance(node, int):
            return node
        mover, below = node
        best = backup(below[0])
        for child in below[1:]:
            leaf = backup(child)
            mine, theirs = rows[leaf][mover], rows[best][mover]
            if mine > theirs if higher else mine < theirs:  # ties keep the first
                best = leaf
        return best

    options = table[[backup(child) for child in children]]
    pick = np.argmax if higher else np.argmin
    choice = int(pick(options[:, seat]))
    return MaxnResult(choice, options[choice], options, len(leaves))


def _leaf_values(values: Values, leaves: list[Any], seats: int) -> FloatArray:
    """``values`` of every leaf as one (leaves, seats) array, checked."""
    table = np.asarray(values(leaves), dtype=np.float64)
    if table.shape != (len(leaves), seats):
        raise ValueError(f"maxn: the leaf values have shape {table.shape}, not "
                         f"{(len(leaves), seats)} (one row a leaf, one column a seat)")
    bad = np.argwhere(~np.isfinite(table))
    if len(bad):
        leaf, seat = int(bad[0][0]), int(bad[0][1])
        raise ValueError(f"maxn: leaf {leaf} is worth {table[leaf, seat]} to seat {seat}; "
                         "every value must be a finite number")
    return table
