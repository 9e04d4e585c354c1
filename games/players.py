"""What the games' players share: a rule of thumb seated as a player."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from fuzzeval.play.game import Candidates

V = TypeVar("V")


@dataclass(frozen=True)
class PolicyPlayer(Generic[V]):
    """A rule of thumb as a player: ``policy`` picks an option from the game's own view of
    the decision (``Candidates.view``, a ``view``) and the seat's generator. It reads no
    features, so a match logs none for it; a decision of one option asks nothing (and
    draws nothing)."""

    policy: Callable[[V, np.random.Generator], int]
    view: type[V]
    logs_features = False

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        view = candidates.view
        if not isinstance(view, self.view):
            raise TypeError(f"not a {self.view.__name__}: {type(view).__name__}")
        return self.policy(view, rng) if len(candidates) > 1 else 0
