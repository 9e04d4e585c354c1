"""Pegging compared on the same deals with the same discards.

Each deal is played twice: player A in seat 0 and B in seat 1, then the seats swapped, on
the same cards; both seats throw the exhaustive player's discard (so only the play differs)
and the deal is played to the end of the show. A deal's differential is A's pegging points
less B's, averaged over the two seatings; the summary is its mean with a 95 % interval
(normal, over deals), and, for a player that simulates, the share of its decisions the stop
rule ended early, its mean trials and its time per decision.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from fuzzeval.games.cribbage import rules
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.players import CribbagePlayer, DiscardView, ExhaustiveDiscard
from fuzzeval.games.cribbage.rules import PEG, State


@dataclass(frozen=True)
class SideTally:
    """One player's decisions in the comparison."""

    decisions: int = 0  # pegging decisions with more than one card to choose from
    simulated: int = 0  # of those, decided by a simulation
    stopped: int = 0  # of those, ended early by the stop rule
    trials: int = 0  # trials run, summed
    seconds: float = 0.0  # time deciding, summed

    def add(self, note: dict[str, Any], seconds: float) -> SideTally:
        return SideTally(self.decisions + 1, self.simulated + int("trials" in note),
                         self.stopped + int(note.get("stopped", 0)),
                         self.trials + int(note.get("trials", 0)), self.seconds + seconds)


@dataclass(frozen=True)
class PeggingComparison:
    deals: int
    points: tuple[float, float]  # pegging points per deal of A and of B
    mean: float  # A less B, per deal
    interval: tuple[float, float]  # 95 %
    sides: tuple[SideTally, SideTally]


def _deal(seed: int, index: int) -> State:
    """Deal ``index``: a fresh game's first deal, the dealer alternating."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
    return rules.new_game(rng, index % 2)


def _discarded(state: State) -> State:
    """Both seats throw the exhaustive player's discard."""
    exhaustive = ExhaustiveDiscard()
    rng = np.random.default_rng(0)
    while state.phase == "discard":
        view = GAME.candidates(state).view
        assert isinstance(view, DiscardView)
        state = rules.discard(state, exhaustive(view, rng), rng)
    return state


def _play(state: State, players: tuple[CribbagePlayer, CribbagePlayer], seed: int,
          tallies: list[SideTally], owner: tuple[int, int]) -> tuple[int, int]:
    """The play to its end by ``players`` (by seat); pegging points of each seat."""
    rngs = [np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(s,)))
            for s in (0, 1)]
    chance = np.random.default_rng(0)
    start = (state.tally[0][PEG], state.tally[1][PEG])
    while state.phase == "play":
        seat = state.to_move
        cands = GAME.candidates(state)
        t0 = time.perf_counter()
        choice, note = players[seat].decide(cands, rngs[seat])
        took = time.perf_counter() - t0
        if len(cands) > 1:
            tallies[owner[seat]] = tallies[owner[seat]].add(dict(note), took)
        state = GAME.apply(state, choice, chance)
    return state.tally[0][PEG] - start[0], state.tally[1][PEG] - start[1]


def compare_pegging(a: CribbagePlayer, b: CribbagePlayer, deals: int, seed: int,
                    progress: Callable[[int], None] | None = None) -> PeggingComparison:
    """A's pegging against B's on ``deals`` seeded deals, both seatings each."""
    tallies = [SideTally(), SideTally()]
    diffs = np.empty(deals)
    pts = np.zeros(2)
    for i in range(deals):
        state = _discarded(_deal(seed, i))
        a0, b1 = _play(state, (a, b), seed + i, tallies, (0, 1))
        b0, a1 = _play(state, (b, a), seed + i, tallies, (1, 0))
        diffs[i] = ((a0 - b1) + (a1 - b0)) / 2
        pts += ((a0 + a1) / 2, (b1 + b0) / 2)
        if progress is not None:
            progress(1)
    mean = float(diffs.mean()) if deals else 0.0
    half = 1.96 * float(diffs.std(ddof=1)) / np.sqrt(deals) if deals > 1 else float("inf")
    return PeggingComparison(deals, (float(pts[0] / deals), float(pts[1] / deals)), mean,
                             (mean - half, mean + half), (tallies[0], tallies[1]))
