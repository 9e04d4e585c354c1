"""Does calibration help? The initial and the calibrated rule base on the same held-out games.

Both play a match against the calibration's opponent with the same seed (so the same deals
or dice: common random numbers), a seed family the calibration rounds never use. The
difference in win rate comes with a paired 95 % interval over the games. A game may add
its own measure (``rulebase_measure``, e.g. cribbage's discard efficiency on held-out
deals), compared the same way, deal by deal.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fuzzeval.learn.calibration_rounds import Calibration, round_seed, round_spec
from fuzzeval.learn.measure import Comparison, compare
from fuzzeval.play.game import Game, GameHooks, hook
from fuzzeval.play.match import MatchSpec, MatchSummary, summarize
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.rows import GameRows
from fuzzeval.play.spec import check_held_out
from fuzzeval.play.store import History

HELD_OUT = 1_000_003  # round index whose seed family no calibration round reaches


@dataclass(frozen=True)
class HeldOut:
    games: int
    seed: int
    initial: MatchSummary
    calibrated: MatchSummary
    difference: float  # calibrated - initial win rate (or rate of beating the table's mean)
    interval: tuple[float, float]  # paired 95 % interval of the difference
    measures: tuple[Comparison, ...]  # the game's own measures, initial -> calibrated
    rates: tuple[float, float] = (0.0, 0.0)  # games won (or table beaten): initial, after
    payoff_difference: float = 0.0  # calibrated - initial mean payoff of seat 0
    payoff_interval: tuple[float, float] = (0.0, 0.0)  # its paired 95 % interval

    def to_dict(self) -> dict[str, Any]:
        return {"games": self.games, "seed": self.seed, "initial": self.initial.to_dict(),
                "calibrated": self.calibrated.to_dict(), "difference": self.difference,
                "interval95": list(self.interval),
                "payoff_difference": self.payoff_difference,
                "payoff_interval95": list(self.payoff_interval),
                "measures": [c.to_dict() for c in self.measures]}


def paired_difference(a: Sequence[float], b: Sequence[float]
                      ) -> tuple[float, tuple[float, float]]:
    """Mean of b - a over paired games and its normal-approximation 95 % interval."""
    n = len(a)
    d = [y - x for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def held_out_measures(game: Game, cal: Calibration, deals: int, seed: int | None = None,
                      executor: Executor | None = None, cache_dir: Path | None = None,
                      progress: Callable[[int], None] | None = None) -> tuple[Comparison, ...]:
    """The game's own measures of the initial and the calibrated rule base on held-out
    units (a seed family no round uses), with paired intervals; () if it has none (for
    rule bases of these inputs)."""
    check_held_out(deals)
    build = hook(game, GameHooks.rulebase_measure)
    if build is None or deals < 1:
        return ()
    first = cal.results[0].rulebase()
    seed = seed if seed is not None else cal.settings.seed
    measure = build(first.input_names, deals, held_out_seed(seed), executor, cache_dir,
                    progress)
    if measure is None:  # the game has no measure for rule bases of these inputs
        return ()
    return compare(measure, first, cal.final_rulebase())


def evaluate_calibration(history: History, game: Game, cal: Calibration, games: int,
                         seed: int | None = None, executor: Executor | None = None,
                         deals: int = 2000, cache_dir: Path | None = None,
                         on_game: Callable[[GameRows], None] | None = None) -> HeldOut:
    """Play the held-out matches (resumable) and measure both rule bases."""
    initial_text = cal.results[0].rulebase_yaml
    final_text = cal.final_yaml()
    seed = seed if seed is not None else cal.settings.seed
    summaries, wins, paid = {}, {}, {}  # by label: initial, calibrated
    for label, text, index in (("initial", initial_text, 0),
                               ("calibrated", final_text, len(cal.finished_rounds))):
        spec = round_spec(history, cal, game, index, text)
        spec = MatchSpec(spec.game, spec.player, spec.opponent, games,
                         held_out_seed(seed), spec.options)
        match, _ = run_match(history, game, spec, executor, on_game=on_game)
        outcomes = history.outcomes(match.id)[:games]
        summaries[label] = summarize(outcomes, game.payoff)
        wins[label] = [int(o.did_well(0, game.payoff)) for o in outcomes]
        paid[label] = [o.payoffs[0] for o in outcomes]
    diff, interval = paired_difference(wins["initial"], wins["calibrated"])
    payoff, payoff_interval = paired_difference(paid["initial"], paid["calibrated"])
    measures = held_out_measures(game, cal, deals, seed, executor, cache_dir)
    rates = (sum(wins["initial"]) / max(games, 1), sum(wins["calibrated"]) / max(games, 1))
    return HeldOut(games, seed, summaries["initial"], summaries["calibrated"], diff, interval,
                   measures, rates, payoff, payoff_interval)


def held_out_seed(seed: int) -> int:
    return round_seed(seed, HELD_OUT)
