"""The td player: a weighted_sum rule base of a game's features grading every candidate,
the best value taken; what TD(λ) learns (``fuzzeval.learn.td_runs``) and then plays."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.evaluator import Evaluator
from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.errors import FuzzevalError
from fuzzeval.play.game import Candidates, Game, GameHooks, Payoff, hook

FloatArray = npt.NDArray[np.float64]


def with_conclusions(ev: Evaluator, weights: FloatArray) -> Evaluator:
    """The same compiled rule base concluding ``weights`` (one per rule, in file order):
    a learned base has a singleton term of its own for each rule."""
    values = np.empty(len(weights))
    values[ev.rule_rows - ev.rule_rows.min()] = weights
    values.setflags(write=False)
    return dataclasses.replace(ev, values=values)


def conclusions(rb: RuleBase) -> FloatArray:
    """Each rule's conclusion (the peak of its term), in file order."""
    peak = {t.name: t.triangle.peak for t in rb.output.terms}
    return np.array([peak[r.output_term] for r in rb.rules], dtype=np.float64)


@dataclass
class ValuePlayer:
    """Grades every candidate with a weighted-sum base and takes the best value (the
    most, or the fewest where the payoff is better lower); ties go to the first. With a
    ``trace``, it keeps the strengths of what it chose (the episode)."""

    evaluator: Evaluator
    payoff: Payoff
    trace: list[FloatArray] | None = None
    kinds: list[str] | None = None  # with a trace: the kind of each decision in it
    # with a trace: the searched value of each choice (``lookahead``) in ``ahead``
    lookahead: Callable[[Candidates, int], float] | None = None
    ahead: list[float] | None = None
    _columns: dict[tuple[str, ...], list[int]] = field(default_factory=dict)

    def rows(self, candidates: Candidates) -> FloatArray:
        names = candidates.feature_names
        if names not in self._columns:
            missing = [n for n in self.evaluator.input_names if n not in names]
            if missing:
                raise FuzzevalError(f"rule base {self.evaluator.rulebase.name!r} reads "
                                    f"{', '.join(missing)}: not features of this decision")
            self._columns[names] = [names.index(n) for n in self.evaluator.input_names]
        rows: FloatArray = candidates.feature_rows(range(len(candidates)))[
            :, self._columns[names]]
        return rows

    def estimate(self, candidates: Candidates) -> float:
        """The value of the best candidate: the payoff expected from here on."""
        grades = self.evaluator.grade(self.rows(candidates))
        return float(grades.max() if self.payoff.higher_is_better else grades.min())

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        rows = self.rows(candidates)
        grades = self.evaluator.grade(rows)
        best = int(np.argmax(grades) if self.payoff.higher_is_better else np.argmin(grades))
        if self.trace is not None:
            self.trace.append(self.evaluator.strengths(rows[best:best + 1])[0])
            if self.kinds is not None:
                self.kinds.append(candidates.kind)
            if self.lookahead is not None and self.ahead is not None:
                self.ahead.append(self.lookahead(candidates, best))
        return best


def value_player(game: Game, **options: Any) -> ValuePlayer:
    """``td:rulebase=NAME|PATH``: the learned player of any game with features (a plug-in
    of the ``fuzzeval.players`` group), grading its candidates with a weighted_sum base of
    the game's features (a ValueError otherwise). Without a rule base it plays the one
    shipped for the game, ``GAME_td``, where there is one (so ``sampling:rollout=td``
    works)."""
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.play.game import compile_for_features
    from fuzzeval.resources import find_rulebase, rulebase_dir

    unknown = sorted(set(options) - {"rulebase"})
    if unknown:
        raise ValueError(f"player 'td' does not take options {unknown} (options: rulebase)")
    rulebase = str(options.get("rulebase", ""))
    if not rulebase and (rulebase_dir() / f"{game.name}_td.yaml").is_file():
        rulebase = f"{game.name}_td"
    if not rulebase:
        raise ValueError(f"player 'td' needs a learned rule base: td:rulebase=FILE "
                         f"(fuzzeval learn {game.name} makes one; none is shipped for "
                         f"{game.name})")
    rb = load_rulebase(find_rulebase(str(rulebase)))
    if rb.defuzzifier != "weighted_sum":
        raise ValueError(f"player 'td': rule base {rb.name!r} is {rb.defuzzifier}, not a "
                         "learned weighted_sum base")
    names = [f.name for f in hook(game, GameHooks.features) or ()]
    return ValuePlayer(compile_for_features(rb, names, game.name), game.payoff)
