"""Hold'em's hidden-information hooks for selective sampling (``fuzzeval.search.sampling``),
so that the game-agnostic ``sampling`` player plays hold'em as Billings et al. (1999)'s Loki does.

A seat deciding knows its two cards, the board so far and the betting. ``determinize``
draws the opponent's two cards from the range its actions this hand suggest
(``strength.opponent_range``: uniform over the holdings the seat cannot see, re-weighted
by each of the opponent's actions; the paper's selective sampling), then the rest of the
board uniformly from the cards left. The playout plays each action to the end of the hand
with the rollout player for both seats (by default the fuzzy triple, as in the paper:
"the player's action is then randomly selected, based on the probability distribution
defined by this triple"); a fold ends it with the chips as they stand. Its value is the
chips the seat wins in the hand, in small bets: what the match pays.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.cards import DECK
from fuzzeval.games.holdem.fuzzy import FuzzyPlayer
from fuzzeval.games.holdem.game import State
from fuzzeval.games.holdem.players import Decision
from fuzzeval.games.holdem.playout import can_compile, compiled_simulator
from fuzzeval.games.holdem.range import HOLDINGS
from fuzzeval.games.holdem.strength import opponent_range
from fuzzeval.play.game import Candidates
from fuzzeval.search.sampling import Simulator

FloatArray = npt.NDArray[np.float64]


@lru_cache(maxsize=16)
def _range(betting: str, opponent: int, board: tuple[int, ...], hole: tuple[int, int]
           ) -> FloatArray:
    """The opponent's holdings' probabilities at a decision, made once for its trials."""
    return opponent_range(betting, opponent, board, hole).probabilities()


def determinized(d: Decision, rng: np.random.Generator) -> State:
    """A hand consistent with what position ``d.position`` knows, it to move; seat s
    plays position s (the button is seat 1)."""
    opponent = rules.BIG if d.position == rules.BUTTON else rules.BUTTON
    p = _range(str(d.betting), opponent, tuple(d.board), d.hole)
    theirs = HOLDINGS[int(rng.choice(len(HOLDINGS), p=p))]
    seen = {*d.hole, *d.board, int(theirs[0]), int(theirs[1])}
    rest = [c for c in range(DECK) if c not in seen]
    more = [rest[i] for i in rng.permutation(len(rest))[:5 - len(d.board)]]
    holes = [(0, 0), (0, 0)]
    holes[d.position] = d.hole
    holes[opponent] = (int(theirs[0]), int(theirs[1]))
    deal = rules.Deal((holes[0], holes[1]), (*d.board, *more))
    return State(deal, d.betting, rules.BUTTON)


class HoldemHidden:
    """The hooks of ``fuzzeval.search.sampling.HiddenInformation`` for hold'em."""

    def determinize(self, view: object, rng: np.random.Generator) -> State:
        if not isinstance(view, Decision):
            raise TypeError("holdem samples a Decision (the candidates' view)")
        return determinized(view, rng)

    def finished(self, root: Any, state: Any) -> bool:
        return bool(state.betting.over)

    def value(self, root: Any, state: Any, seat: int) -> float:
        won = rules.chips(state.deal, state.betting)
        return won[state.position(seat)] / rules.SMALL_BET

    def simulator(self, candidates: Candidates, policies: Sequence[Any]) -> Simulator | None:
        """The compiled playouts (``playout.py``) when every seat plays out with one fuzzy
        player of a weighted-average or weighted-sum base; None for other rollouts."""
        first = policies[0]
        if not (isinstance(first, FuzzyPlayer) and all(p is first for p in policies)
                and can_compile(first.evaluator)):
            return None
        d = candidates.view
        if not isinstance(d, Decision):
            raise TypeError("holdem samples a Decision (the candidates' view)")
        opponent = rules.BIG if d.position == rules.BUTTON else rules.BUTTON
        p = _range(str(d.betting), opponent, tuple(d.board), d.hole)
        return compiled_simulator(d, first.evaluator, first.temperature, p)


HIDDEN = HoldemHidden()
