"""The fuzzy hold'em player: Billings et al. (1999)'s ``ProbTriple`` as a rule base.

The rule base (``rulebases/holdem.yaml`` by default) grades each legal action on 0..1
(``features.decision_features``); the grades g become the probability triple by a softmax,
p_a = exp(g_a / T) / sum_b exp(g_b / T), with temperature T (0.1 by default: a grade 0.25
above another makes an action about 12 times as likely; T near 0 always takes the best
grade). Illegal actions (fold with nothing to call, a raise at the cap) get 0. The player
draws its action from the triple with its own generator, as Loki's simulations do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.evaluator import Evaluator
from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.formats.loading import load_rulebase
from fuzzeval.games.holdem.features import FEATURE_NAMES, decision_features
from fuzzeval.games.holdem.players import Decision, draw
from fuzzeval.games.options import as_positive
from fuzzeval.play.game import Candidates, compile_for_features
from fuzzeval.resources import find_rulebase

FloatArray = npt.NDArray[np.float64]

#: the softmax temperature of the triple
TEMPERATURE = 0.1
#: the order of the triple
TRIPLE = "fcr"


def triple(grades: FloatArray, actions: str, temperature: float) -> tuple[float, float, float]:
    """[fold, call, raise] from the grades of the legal ``actions`` (ACPC letters)."""
    g = [float(x) for x in grades]  # two or three numbers: plain floats beat numpy here
    top = max(g)
    e = [math.exp((x - top) / temperature) for x in g]  # the shift keeps exp finite
    total = sum(e)
    out = [0.0, 0.0, 0.0]
    for a, ea in zip(actions, e, strict=True):
        out[TRIPLE.index(a)] = ea / total
    return out[0], out[1], out[2]


@dataclass(frozen=True)
class FuzzyPlayer:
    """Draws each action from the rule base's probability triple."""

    evaluator: Evaluator
    temperature: float = TEMPERATURE

    @property
    def rulebase(self) -> RuleBase:
        """The rule base it plays from, for advice."""
        return self.evaluator.rulebase

    def grades(self, candidates: Candidates) -> FloatArray:
        rows = candidates.feature_rows(range(len(candidates)))
        columns = [candidates.feature_names.index(n) for n in self.evaluator.input_names]
        return self.evaluator.grade(rows[:, columns])

    def probabilities(self, candidates: Candidates) -> tuple[float, float, float]:
        d = candidates.view
        assert isinstance(d, Decision)
        return triple(self.grades(candidates), d.actions, self.temperature)

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        d = candidates.view
        assert isinstance(d, Decision)
        p = self.probabilities(candidates)
        return draw([p[TRIPLE.index(a)] for a in d.actions], rng)


def fuzzy_player(rulebase: str | Path = "holdem", temperature: float | str = TEMPERATURE
                 ) -> FuzzyPlayer:
    """The fuzzy player of a rule base (a path or a shipped name) whose inputs are hold'em
    features."""
    t = as_positive("temperature", temperature)
    rb = load_rulebase(find_rulebase(str(rulebase)))
    return FuzzyPlayer(compile_for_features(rb, FEATURE_NAMES, "holdem"), t)


__all__ = ["TEMPERATURE", "FuzzyPlayer", "decision_features", "fuzzy_player", "triple"]
