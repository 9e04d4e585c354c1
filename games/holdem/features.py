"""What a hold'em rule base reads about one action of a decision: Loki's measures of the
hand (seed 001), the betting, and the action itself.

A decision's features are the same for its two or three actions but ``action`` (0 fold,
1 check or call, 2 bet or raise), so a rule base grades each action the way a player
explains a bet: "with a strong hand, raising is best". ``strength`` is the effective hand
strength against every holding the seat cannot see, alike, estimated from ``PAIRS``
sampled (holding, runout) pairs with a seed drawn from the cards (the same spot always
gives the same estimate); preflop it is the showdown equity. Not against the range that
the opponent's actions this hand suggest (``strength.opponent_range``): with it, the
fuzzy player lost 0.81 small bets a hand to the maniac (``raise``, 2,000 duplicate hands),
whose raises the range reads as strength, and won 2.11 without it. What the opponent's
actions say is ``aggression``, a feature of its own, for the rules to weigh.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fuzzeval.games.holdem import strength as S
from fuzzeval.games.holdem.players import Decision
from fuzzeval.games.holdem.rules import BIG, BUTTON
from fuzzeval.play.game import Feature

FloatArray = npt.NDArray[np.float64]

#: sampled (holding, runout) pairs of the strength estimate: its standard error is about
#: 0.5 / sqrt(PAIRS), 0.03 here, in about 0.1 ms (docs/holdem.md)
PAIRS = 300

FEATURES: tuple[Feature, ...] = (
    Feature("strength", 0, 1, "effective hand strength against any holding: the chance "
            "to be ahead now, less the chance of falling behind, plus the chance of "
            "drawing ahead (seed 001's EHS); preflop the showdown equity"),
    Feature("pot_odds", 0, 0.35, "what calling costs as a share of the pot after the "
                                 "call: the equity a call needs (0: nothing to call; at "
                                 "most 1/3, a turn bet of 20 into 20)"),
    Feature("to_call", 0, 1, "bets to call: 0 (check), 0.5 (the small blind's first "
                             "action) or 1"),
    Feature("bets", 0, 4, "bets made this round, the big blind counting preflop"),
    Feature("position", 0, 1, "1 on the button (last to act after the flop), 0 in the "
                              "big blind"),
    Feature("round", 0, 3, "0 preflop, 1 flop, 2 turn, 3 river"),
    Feature("aggression", 0, 1, "the opponent's raises among its calls and raises this "
                                "hand, (raises + 1) / (calls + raises + 2)"),
    Feature("action", 0, 2, "the action graded: 0 fold, 1 check or call, 2 bet or raise"),
)
FEATURE_NAMES = tuple(f.name for f in FEATURES)
_ACTION = {"f": 0.0, "c": 1.0, "r": 2.0}


def spot_seed(d: Decision) -> int:
    """The sampler's seed for a spot: the cards seen, so a spot is always graded alike."""
    seed = 0
    for card in (*d.hole, *d.board):
        seed = seed * 53 + card + 1
    return seed % (2**31)


def hand_strength(d: Decision) -> float:
    """``strength``: EHS against a uniform range (preflop: the equity)."""
    e = S.sampled(d.hole, d.board, None, PAIRS, spot_seed(d))
    return e.equity if not d.board else S.effective_strength(e.hs, e.ppot, e.npot)


def decision_features(d: Decision) -> FloatArray:
    """Every action's features (one row per legal action, columns as ``FEATURES``)."""
    b = d.betting
    opponent = BIG if d.position == BUTTON else BUTTON
    shared = [hand_strength(d), S.pot_odds(b), S.bets_to_call(b), float(S.bets_this_round(b)),
              S.position(b), float(b.round), S.aggression(b, opponent)]
    rows = np.empty((len(d.actions), len(FEATURES)))
    rows[:, :-1] = shared
    rows[:, -1] = [_ACTION[a] for a in d.actions]
    return rows
