"""What a hold'em rule base reads about one action of a decision: Loki's measures of the
hand (Billings et al. 1999), the betting, and the action itself.

A decision's features are the same for its two or three actions but ``action`` (0 fold,
1 check or call, 2 bet or raise), so a rule base grades each action the way a player
explains a bet: "with a strong hand, raising is best". ``strength`` is the effective hand
strength against every holding the seat cannot see, alike: with its potentials taken to
the river, EHS is the showdown equity (strength.py), estimated from ``PAIRS`` sampled
(runout, holding) pairs with a seed drawn from the cards (the same spot always gives the
same estimate), once a spot. Not against the range that
the opponent's actions this hand suggest (``strength.opponent_range``): with it, the
fuzzy player lost 0.81 small bets a hand to the maniac (``raise``, 2,000 duplicate hands),
whose raises the range reads as strength, and won 2.11 without it. What the opponent's
actions say is ``aggression``, a feature of its own, for the rules to weigh.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from fuzzeval.games.holdem import strength as S
from fuzzeval.games.holdem.cards import RANKS
from fuzzeval.games.holdem.players import Decision
from fuzzeval.games.holdem.rules import BIG, BUTTON
from fuzzeval.play.game import Feature

FloatArray = npt.NDArray[np.float64]

#: sampled (runout, holding) pairs of the strength estimate: its standard error is at most
#: 0.5 / sqrt(PAIRS), 0.03 here, in about 30 us (docs/holdem.md)
PAIRS = 300

FEATURES: tuple[Feature, ...] = (
    Feature("strength", 0, 1, "effective hand strength against any holding: the chance "
            "to be ahead now, less the chance of falling behind, plus the chance of "
            "drawing ahead (Billings et al.'s EHS, its potentials to the river: the showdown "
            "equity)"),
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


def spot_seed(cards: tuple[int, ...]) -> int:
    """The sampler's seed for a spot: the cards seen, so a spot is always graded alike."""
    seed = 0
    for card in cards:
        seed = seed * 53 + card + 1
    return seed % (2**31)


def hand_strength(d: Decision) -> float:
    """``strength``: EHS against a uniform range, to the river: the showdown equity."""
    return _strength(d.hole, d.board)


@lru_cache(maxsize=8192)
def _strength(hole: tuple[int, int], board: tuple[int, ...]) -> float:
    """A spot's strength, once: a seat decides several times a round with the same cards."""
    if not board:
        return preflop_strength(hole)
    return S.checked_equity_estimate(hole, board, PAIRS, spot_seed((*hole, *board)))


def preflop_class(hole: tuple[int, int]) -> str:
    """The preflop class of two hole cards: ``AA``, ``AKs`` (suited), ``AKo``."""
    high, low = sorted((hole[0] >> 2, hole[1] >> 2), reverse=True)
    if high == low:
        return RANKS[high] * 2
    return RANKS[high] + RANKS[low] + ("s" if hole[0] % 4 == hole[1] % 4 else "o")


@cache
def _preflop_equity() -> dict[str, float]:
    text = resources.files(__package__).joinpath("data", "preflop_equity.json").read_text()
    table: dict[str, float] = json.loads(text)["equity"]
    return table


def preflop_strength(hole: tuple[int, int]) -> float:
    """The showdown equity of the hole cards' class against any two cards, from the table
    of scripts/preflop_table.py (a million pairs a class: standard error at most 0.0005)."""
    return _preflop_equity()[preflop_class(hole)]


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
