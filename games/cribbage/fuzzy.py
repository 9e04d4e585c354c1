"""The fuzzy discard player: a Mamdani rule base grades the 15 throws from their features.

The rule base's input variables are feature names (``fuzzeval.games.cribbage.features``); any
subset may be used. Many hands are graded in one call, which is how the report measures
decisions per second.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from fuzzeval import load_rulebase
from fuzzeval.engine.evaluator import Evaluator, Explanation
from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.games.cribbage.features import FEATURE_NAMES, discard_features
from fuzzeval.games.cribbage.pegging.features import PEG_FEATURE_NAMES, peg_features
from fuzzeval.games.cribbage.pegging.policies import PegView
from fuzzeval.play.game import Candidates, compile_for_features
from fuzzeval.resources import find_rulebase

#: what calibration and tuning start from by default: the draft that reads only what a
#: player sees
DEFAULT_RULEBASE = "cribbage_linguistic"
#: what the fuzzy player plays when no rule base is named: the strongest shipped base that
#: reads only what a player sees (discard efficiency 0.979 and 0.976, docs/results.md), so
#: its --explain speaks a player's language. cribbage_expected_points throws better (0.999)
#: but only by reading the exhaustive evaluator's expected points back: it is the upper
#: reference, named when wanted (-p fuzzy:rulebase=cribbage_expected_points).
PLAY_RULEBASE = "cribbage_linguistic_tuned"
FloatArray = npt.NDArray[np.float64]


def resolve_rulebase(rulebase: str | Path | RuleBase = PLAY_RULEBASE) -> RuleBase:
    """A rule base object, a path, or the name of a shipped one."""
    if isinstance(rulebase, RuleBase):
        return rulebase
    return load_rulebase(find_rulebase(str(rulebase)))


@dataclass(frozen=True)
class FuzzyDiscard:
    """Throw the two cards whose throw the rule base grades best (first on ties)."""

    rulebase: RuleBase
    evaluator: Evaluator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "evaluator",
                           compile_for_features(self.rulebase, FEATURE_NAMES,
                                                "cribbage discard"))

    def grades(self, hands: npt.ArrayLike, my_crib: npt.ArrayLike) -> FloatArray:
        """Grades of every throw of many hands: (n, 6) sorted ids, (n,) -> (n, 15)."""
        return self.judge(hands, my_crib)[0]

    def judge(self, hands: npt.ArrayLike,
              my_crib: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Grades (n, 15) and the inputs they were graded from (n, 15, inputs)."""
        feats = discard_features(hands, my_crib, self.rulebase.input_names)
        n = feats.shape[0]
        out: FloatArray = self.evaluator.grade(feats.reshape(n * 15, -1)).reshape(n, 15)
        return out, feats

    def explain(self, hand: tuple[int, ...], my_crib: bool, throw: int) -> Explanation:
        feats = discard_features([hand], [my_crib], self.rulebase.input_names)[0, throw]
        return self.evaluator.explain(feats)

    def choose_from(self, candidates: Candidates) -> int:
        """The best throw, graded from features the game already computed."""
        names = candidates.feature_names
        cols = [names.index(n) for n in self.rulebase.input_names]
        feats = candidates.feature_rows(range(len(candidates)))
        return int(np.argmax(self.evaluator.grade(feats[:, cols])))

    def __call__(self, view: object, rng: np.random.Generator) -> int:
        hand, mine = view.hand, view.my_crib  # type: ignore[attr-defined]
        return int(np.argmax(self.grades([hand], [mine])[0]))


#: the shipped pegging rule base (pegging=fuzzy)
PEG_RULEBASE = "cribbage_pegging"


@dataclass(frozen=True)
class FuzzyPegging:
    """Lay the card the pegging rule base grades best (first on ties): every playable card
    graded in one call from ``peg_features``."""

    rulebase: RuleBase
    evaluator: Evaluator = field(init=False, repr=False, compare=False)
    logged_kinds: frozenset[str] = field(default=frozenset({"play"}), init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "evaluator",
                           compile_for_features(self.rulebase, PEG_FEATURE_NAMES,
                                                "cribbage pegging"))

    def judge(self, view: PegView) -> tuple[FloatArray, FloatArray]:
        """Grades (options,) and the inputs they were graded from (options, inputs)."""
        cols = [PEG_FEATURE_NAMES.index(n) for n in self.rulebase.input_names]
        feats = peg_features(view)[:, cols]
        grades: FloatArray = self.evaluator.grade(feats)
        return grades, feats

    def explain(self, view: PegView, option: int) -> Explanation:
        return self.evaluator.explain(self.judge(view)[1][option])

    def __call__(self, view: PegView, rng: np.random.Generator) -> int:
        return int(np.argmax(self.judge(view)[0]))
