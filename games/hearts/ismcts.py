"""An opponent nobody here wrote: OpenSpiel's C++ information-set MCTS (``pyspiel.ISMCTSBot``,
Cowling et al.'s single-observer ISMCTS) with a random-rollout evaluator, seated as a
fuzzeval Hearts player (``-p ismcts``, ``--opponent ismcts:simulations=200``).

Each decision builds a pyspiel ``hearts`` state at the same point of the hand and asks a
fresh bot for a card. The bot must see nothing its seat could not know, so the state is
not the true one: it is one of ``hearts.sampling``'s determinized hands (the seat's own
cards, passes and every card laid as they are; the other hands a consistent guess). The
bot keys its tree on ``InformationStateString`` (``use_observation_string=false``;
OpenSpiel's ``hearts`` has no observation string): the seat's hand, its passes and the
cards it received, and the cards laid. Each simulation redeals the unseen cards itself
(``ResampleFromInfostate``, which ignores the voids shown), so the guess given to it
never steers its search.

OpenSpiel's resampler fails in the pass for a seat whose passer has already passed (it
deals the passed cards it may not yet know to the seat it believes holds them, and
applies an illegal pass: a crash). As passing order changes nothing, a pass decision is
asked of the bot sitting at OpenSpiel's seat 0, the first to pass, with the deal rotated
to match (pass directions are relative, so the hand is the same game).

The bot is seeded from the seat's generator (and its rollouts with the same seed), and
plays the most visited card (``MAX_VISIT_COUNT``). It is *not* reproducible even so:
OpenSpiel breaks ties (equal UCT values, which integer Hearts returns make common; equal
visit counts) in the iteration order of an absl hash map, which varies from one map to
the next, so the same seed and position give another card now and then (1 time in 6 in a
check at 20 simulations). A match records every choice, so a stored game still replays
exactly (``fuzzeval history export``); a rerun of the same match differs slightly. The value
it maximises is OpenSpiel's return, 26 minus the points the seat scores.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from fuzzeval.games.hearts.openspiel import ismcts_card, pyspiel_position
from fuzzeval.games.hearts.sampling import determinized

OPTIONS = ("rollouts", "simulations", "uct_c")


@dataclass(frozen=True)
class IsmctsPlayer:
    """OpenSpiel's ISMCTS bot as a Hearts seat (see the module's docstring)."""

    simulations: int = 200
    uct_c: float = 2.0
    rollouts: int = 1  # random rollouts per leaf
    logs_features = False

    def choose(self, candidates: Any, rng: np.random.Generator) -> int:
        from fuzzeval.games.hearts.game import Decision

        d = candidates.view
        assert isinstance(d, Decision)
        if len(d.cards) == 1:
            return 0
        state, seat = pyspiel_position(determinized(d.view, rng))
        if state.current_player() != seat:
            raise AssertionError("the pyspiel state is not at the seat's decision")
        seed = int(rng.integers(2**31 - 1))
        card = ismcts_card(state, seed, self.simulations, self.uct_c, self.rollouts)
        return d.cards.index(card)


#: the largest exploration constant: at 1e20 OpenSpiel's search finds no candidate (its
#: scores overflow); 1e6 already makes it all exploration
UCT_MAX = 1e6


def _whole(name: str, value: Any, minimum: int, maximum: int) -> int:
    """A whole number in [minimum, maximum]: OpenSpiel's C++ bots take 32-bit counts (a
    trillion was a TypeError from its constructor)."""
    if isinstance(value, bool) or not isinstance(value, int) or \
            not minimum <= value <= maximum:
        raise ValueError(f"{name} must be a whole number from {minimum:,} to {maximum:,} "
                         f"(got {value!r})")
    return value


def ismcts_player(**options: Any) -> IsmctsPlayer:
    """The player with options ``simulations`` (200), ``uct_c`` (2.0), ``rollouts`` (1).
    (The Hearts library below the plug-in checks its options itself: it imports nothing
    of the core.)"""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"player 'ismcts' does not take options {unknown} "
                         f"(options: {', '.join(OPTIONS)})")
    uct = options.get("uct_c", 2.0)
    if isinstance(uct, bool) or not isinstance(uct, (int, float)) or \
            not math.isfinite(uct) or not 0 <= uct <= UCT_MAX:
        raise ValueError(f"uct_c must be a number from 0 to {UCT_MAX:g} (got {uct!r})")
    return IsmctsPlayer(_whole("simulations", options.get("simulations", 200), 2, 1_000_000),
                        float(uct), _whole("rollouts", options.get("rollouts", 1), 1, 1_000))
