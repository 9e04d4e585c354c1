"""The fuzzy Hearts player: a Mamdani rule base grades every legal card from its features
(``games/hearts/features.py``) in one call, and the best grade is played.

The rule base's inputs are Hearts feature names (any subset; a base reading anything else
is refused with the list of features). Ties go to the lowest card (the legal cards come
lowest id first and the first best is taken), so the player never draws from its rng.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval import load_rulebase
from fuzzeval.engine.evaluator import Evaluator, Explanation
from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.errors import FuzzevalError
from fuzzeval.games.hearts.features import FEATURE_NAMES, candidate_features
from fuzzeval.games.hearts.view import View
from fuzzeval.games.options import as_text, check_keys
from fuzzeval.play.game import Candidates, compile_for_features

#: the shipped rule base the fuzzy player reads, and calibration starts from
RULEBASE = "hearts"
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class FuzzyHearts:
    """Lay (or pass) the card the rule base grades best; the lowest card on ties."""

    rulebase: RuleBase
    logs_features = True
    evaluator: Evaluator = field(init=False, repr=False, compare=False)
    columns: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "evaluator",
                           compile_for_features(self.rulebase, FEATURE_NAMES, "hearts"))
        object.__setattr__(self, "columns",
                           tuple(FEATURE_NAMES.index(n) for n in self.rulebase.input_names))

    def judge(self, view: View, cards: Sequence[int]) -> tuple[FloatArray, FloatArray]:
        """Grades (candidates,) and the inputs they were graded from (candidates, inputs)."""
        feats = candidate_features(view, cards)[:, self.columns]
        grades: FloatArray = self.evaluator.grade(feats)
        return grades, feats

    def explain(self, view: View, cards: Sequence[int], index: int) -> Explanation:
        """Why candidate ``index`` got its grade: memberships, rule strengths."""
        return self.evaluator.explain(self.judge(view, cards)[1][index])

    def __call__(self, view: View, cards: Sequence[int], rng: np.random.Generator) -> int:
        """The ``hearts.players`` policy form: an index into ``cards``."""
        return int(np.argmax(self.judge(view, cards)[0])) if len(cards) > 1 else 0

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        """The match runner's form: the features the game computed for the candidates."""
        if len(candidates) == 1:
            return 0
        feats = candidates.feature_rows(range(len(candidates)))[:, self.columns]
        return int(np.argmax(self.evaluator.grade(feats)))


def fuzzy_player(**options: Any) -> FuzzyHearts:
    """``fuzzy[:rulebase=NAME|PATH]``: a bad option or rule base is a ValueError."""
    check_keys("unknown options of player 'fuzzy'", options, ("rulebase",))
    try:
        text = as_text("rulebase", options.get("rulebase", RULEBASE),
                       "a rule base name or path")
        return FuzzyHearts(load_rulebase(text))  # a path, or a shipped base's name
    except (OSError, FuzzevalError) as exc:
        raise ValueError(str(exc)) from None
