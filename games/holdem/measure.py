"""Hold'em's measure of a rule base, for ``fuzzeval tune holdem``: the small bets a hand the
fuzzy player wins against the triple as written (``rulebases/holdem.yaml``) on fixed
duplicate deals, so tuning looks for a triple that beats the one it started from.

Simple opponents make poor measures (docs/holdem.md): tuned against ``acpc-example``
alone the triple gained +0.59 small bets a hand there on held-out deals and lost 1.78 a
hand to the triple as written, having learnt to bet nearly every hand; tuned against a
panel (the written triple, ``acpc-example``, ``call``, ``raise``: their mean) it gained
against each simple player and lost 0.15 a hand to the written triple. The measure
takes a tuple of opponents (``PANEL``), its objective their mean.

Against each opponent, deal k is played twice, the cards swapped between the seats
(games 2k and 2k + 1 of a duplicate match with the measure's seed), and its contribution
is the fuzzy player's mean payoff over the two: the luck of the cards cancels within a
deal. Every rule base is measured on the same deals with the same random streams (the
triple's draws included), so two bases differ by their decisions, not by their luck:
common random numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.evaluator import compile_rulebase
from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.games.holdem.fuzzy import TEMPERATURE, FuzzyPlayer
from fuzzeval.play.game import Game
from fuzzeval.play.match import make_player, play_game

FloatArray = npt.NDArray[np.float64]


#: the opponents of the measure: the triple as written
PANEL = ("fuzzy",)


@dataclass(frozen=True)
class HoldemMeasure:
    """Small bets a hand of the fuzzy player against each of ``opponents`` on ``deals``
    duplicate deals of seed ``seed`` (``fuzzy``: the shipped base as written)."""

    game: Game
    opponents: tuple[str, ...]
    deals: int
    seed: int

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f"small bets per hand against {o}" for o in self.opponents)

    def contributions(self, rb: RuleBase) -> FloatArray:
        player = FuzzyPlayer(compile_rulebase(rb), TEMPERATURE)
        out = np.empty((len(self.opponents), self.deals))
        for row, name in enumerate(self.opponents):
            other = make_player(self.game, name)
            for k in range(self.deals):
                paid = [play_game(self.game, [player, other], self.seed, 2 * k + i,
                                  duplicate=True).outcome.payoffs[0] for i in (0, 1)]
                out[row, k] = (paid[0] + paid[1]) / 2
        return out


def holdem_measure(game: Game, opponents: tuple[str, ...], deals: int, seed: int,
                   progress: Callable[[int], None] | None = None) -> HoldemMeasure:
    """The measure (nothing to compute ahead: each rule base plays its deals)."""
    if progress is not None:
        progress(2 * deals)
    return HoldemMeasure(game, opponents, deals, seed)
