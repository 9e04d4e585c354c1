"""Simple hold'em opponents, each a function (decision, rng) -> index into the legal
actions (ACPC letters in the order ``f``, ``c``, ``r``):

- ``random``: a legal action, uniformly;
- ``call``: a calling station, always check or call;
- ``raise``: a maniac, bet or raise whenever the cap allows, else call;
- ``acpc-example``: the ACPC example player's fixed probabilities, fold 0.06, call 0.47,
  raise 0.47, renormalised over the legal actions (no fold when there is nothing to call,
  no raise at the cap).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from fuzzeval.games.holdem.rules import Betting


@dataclass(frozen=True)
class Decision:
    """What a hold'em player sees (``Candidates.view``): its position (0 big blind, 1
    button), its hole cards, the board so far, the betting, and the legal actions as ACPC
    letters in the order of the candidates."""

    position: int
    hole: tuple[int, int]
    board: tuple[int, ...]
    betting: Betting
    actions: str


Policy = Callable[[Decision, np.random.Generator], int]
#: the ACPC example player's weights for fold, call, raise
EXAMPLE_WEIGHTS = {"f": 0.06, "c": 0.47, "r": 0.47}


def random_player(d: Decision, rng: np.random.Generator) -> int:
    return int(rng.integers(len(d.actions)))


def call_player(d: Decision, rng: np.random.Generator) -> int:
    return d.actions.index("c")


def raise_player(d: Decision, rng: np.random.Generator) -> int:
    return d.actions.index("r") if "r" in d.actions else d.actions.index("c")


def example_probabilities(actions: str) -> list[float]:
    """The example player's probabilities over ``actions``, renormalised."""
    weights = [EXAMPLE_WEIGHTS[a] for a in actions]
    total = sum(weights)
    return [w / total for w in weights]


def draw(p: Sequence[float], rng: np.random.Generator) -> int:
    """An index drawn with probabilities ``p`` (one uniform number, so a seeded game draws
    the same way whatever the probabilities' values)."""
    u = rng.random()
    for i, pi in enumerate(p[:-1]):
        u -= pi
        if u < 0:
            return i
    return len(p) - 1


def example_player(d: Decision, rng: np.random.Generator) -> int:
    return draw(example_probabilities(d.actions), rng)


PLAYERS: dict[str, Policy] = {"random": random_player, "call": call_player,
                              "raise": raise_player, "acpc-example": example_player}
