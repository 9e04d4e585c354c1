"""Does calibration help? The initial and the calibrated rule base on the same held-out games.

Both play a match against the calibration's opponent with the same seed (so the same deals
or dice: common random numbers), a seed family the calibration rounds never use. The
difference in win rate comes with a paired 95 % interval over the games. A game may add
its own measure (``rulebase_metrics``, e.g. cribbage's discard efficiency on held-out
deals).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from fuzzeval.calibration import Calibration, round_seed, round_spec
from fuzzeval.game import Game
from fuzzeval.match import GameRecord, MatchSpec, MatchSummary, summarize
from fuzzeval.store import History, run_match

HELD_OUT = 1_000_003  # round index whose seed family no calibration round reaches

#: rule-base files by label -> game-specific measures by label, on ``deals`` held-out deals
Metrics = Callable[[Mapping[str, str], int, int, Executor | None],
                   Mapping[str, Mapping[str, float]]]


@dataclass(frozen=True)
class HeldOut:
    games: int
    seed: int
    initial: MatchSummary
    calibrated: MatchSummary
    difference: float  # calibrated - initial win rate
    interval: tuple[float, float]  # paired 95 % interval of the difference
    metrics: dict[str, dict[str, float]]  # "initial"/"calibrated" -> game-specific measures

    def to_dict(self) -> dict[str, Any]:
        return {"games": self.games, "seed": self.seed, "initial": self.initial.to_dict(),
                "calibrated": self.calibrated.to_dict(), "difference": self.difference,
                "interval95": list(self.interval), "metrics": self.metrics}


def paired_difference(a: list[int], b: list[int]) -> tuple[float, tuple[float, float]]:
    """Mean of b - a over paired games and its normal-approximation 95 % interval."""
    n = len(a)
    d = [y - x for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def evaluate_calibration(history: History, game: Game, cal: Calibration, games: int,
                         seed: int | None = None, executor: Executor | None = None,
                         metrics: Metrics | None = None, metric_deals: int = 2000,
                         on_game: Callable[[GameRecord], None] | None = None) -> HeldOut:
    """Play the held-out matches (resumable) and measure both rule bases."""
    initial_text = cal.results[0].rulebase_yaml
    final_text = cal.final_yaml()
    seed = seed if seed is not None else cal.settings.seed
    summaries, wins, paths = {}, {}, {}  # by label: initial, calibrated
    for label, text, index in (("initial", initial_text, 0),
                               ("calibrated", final_text, len(cal.finished_rounds))):
        spec = round_spec(history, cal, game, index, text)
        spec = MatchSpec(spec.game, spec.player, spec.opponent, games,
                         _held_out_seed(seed), spec.options)
        paths[label] = str(dict(spec.player.options)["rulebase"])
        stored = history.find_match(spec)
        match, _ = run_match(history, game, spec, executor, resume=stored is not None,
                             on_game=on_game)
        outcomes = history.outcomes(match.id)[:games]
        summaries[label] = summarize(outcomes)
        wins[label] = [int(o.winner == 0) for o in outcomes]
    diff, interval = paired_difference(wins["initial"], wins["calibrated"])
    measured: dict[str, dict[str, float]] = {}
    if metrics is not None:
        got = metrics(paths, metric_deals, _held_out_seed(seed), executor)
        measured = {label: dict(values) for label, values in got.items()}
    return HeldOut(games, seed, summaries["initial"], summaries["calibrated"], diff, interval,
                   measured)


def _held_out_seed(seed: int) -> int:
    return round_seed(seed, HELD_OUT)
