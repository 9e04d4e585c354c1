"""Discard efficiency as cribbage's own measure of a rule base (``fuzzeval.learn.measure``).

Seeded random six-card hands are thrown to my crib and to theirs. The exact expected
value of all 15 throws (the exhaustive evaluator, uniform opponent throws) is computed
once per deal and cached in a file; the throw features are computed once. Then any rule
base is scored in one grade call per crib owner: efficiency = (EV of its throws - EV of
a random throw) / (best EV - EV of a random throw), as in ``fuzzeval cribbage report``.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.games.cribbage.features import FEATURE_NAMES, discard_features
from fuzzeval.games.cribbage.report import OWNERS, exact_ev, random_hands
from fuzzeval.play.game import compile_for_features

FloatArray = npt.NDArray[np.float64]
NAMES = ("discard efficiency, my crib", "discard efficiency, their crib")


@dataclass(frozen=True)
class DiscardMeasure:
    """Features and exact EVs of the 15 throws of fixed deals, for each crib owner."""

    feature_names: tuple[str, ...]
    features: FloatArray  # (2 owners, deals, 15, len(feature_names))
    ev: FloatArray  # (2 owners, deals, 15)
    names: tuple[str, ...] = NAMES

    def throws(self, rb: RuleBase) -> npt.NDArray[np.intp]:
        """The throw a fuzzy player reading ``rb`` makes on every deal: (2, deals)."""
        evaluator = compile_for_features(rb, self.feature_names, "cribbage discard")
        cols = [self.feature_names.index(n) for n in rb.input_names]
        x = self.features[..., cols]
        grades = evaluator.grade(x.reshape(-1, len(cols))).reshape(x.shape[:3])
        out: npt.NDArray[np.intp] = np.argmax(grades, axis=2)
        return out

    def contributions(self, rb: RuleBase) -> FloatArray:
        """(EV of the throw - mean EV) / mean(best - mean EV), per owner and deal."""
        got = np.take_along_axis(self.ev, self.throws(rb)[..., None], axis=2)[..., 0]
        rand = self.ev.mean(axis=2)
        scale = (self.ev.max(axis=2) - rand).mean(axis=1, keepdims=True)
        out: FloatArray = (got - rand) / scale
        return out


def exact_evs(deals: int, seed: int, executor: Executor | None = None,
              cache_dir: Path | None = None,
              progress: Callable[[int], None] | None = None) -> tuple[npt.NDArray[np.intp],
                                                                       FloatArray]:
    """The seeded hands and their exact EV tables (2, deals, 15), from the cache if there."""
    hands = random_hands(deals, seed)
    cache = cache_dir / f"cribbage_ev_{seed}_{deals}.npz" if cache_dir else None
    if cache is not None and cache.is_file():
        with np.load(cache) as stored:
            if np.array_equal(stored["hands"], hands):
                return hands, np.asarray(stored["ev"], dtype=np.float64)
    ev = np.stack([exact_ev(hands, owner == "mine", "uniform", executor, progress)[0]
                   for owner in OWNERS])
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial = cache.with_suffix(".partial.npz")
        np.savez_compressed(partial, hands=hands, ev=ev)
        partial.replace(cache)
    return hands, ev


def discard_measure(inputs: tuple[str, ...], deals: int, seed: int,
                    executor: Executor | None = None, cache_dir: Path | None = None,
                    progress: Callable[[int], None] | None = None) -> DiscardMeasure:
    """The measure on ``deals`` hands from ``seed``, for rule bases reading ``inputs``."""
    unknown = [n for n in inputs if n not in FEATURE_NAMES]
    if unknown:
        raise ValueError(f"inputs {unknown} are not cribbage discard features "
                         f"({', '.join(FEATURE_NAMES)})")
    hands, ev = exact_evs(deals, seed, executor, cache_dir, progress)
    features = np.stack([discard_features(hands, np.full(deals, owner == "mine"), inputs)
                         for owner in OWNERS])
    return DiscardMeasure(inputs, features, ev)
