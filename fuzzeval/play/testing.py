"""``check_game``: the conformance test every game plug-in must pass.

It plays seeded games with uniformly random choices and checks what the match runner and
the calibrator rely on: games end; every state before the end offers at least one
candidate with one feature row per option; neither ``candidates`` nor ``apply`` changes
the state it is given; the same seed plays the same game; the outcome is consistent.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from fuzzeval.errors import FuzzevalError
from fuzzeval.play.game import Game


class ConformanceError(FuzzevalError):
    """A game plug-in broke one of the rules in ``check_game``."""


@dataclass(frozen=True)
class CheckReport:
    games: int
    decisions: int
    kinds: frozenset[str]


def _frozen(state: Any) -> bytes:
    return pickle.dumps(state)


def _play(game: Game, seed: int, max_moves: int,
          fail: Callable[[str], ConformanceError]) -> tuple[list[tuple[str, str]], Any]:
    chance = np.random.default_rng([seed, 0])
    chooser = np.random.default_rng([seed, 1])
    state = game.new_game(chance, seed % game.seats)
    trail: list[tuple[str, str]] = []
    while (seat := game.to_move(state)) is not None:
        if seat not in range(game.seats):
            raise fail(f"to_move returned {seat!r}, not a seat (0 to {game.seats - 1}) "
                       "or None")
        if len(trail) >= max_moves:
            raise fail(f"no end after {max_moves} decisions")
        before = _frozen(state)
        cands = game.candidates(state)
        if _frozen(state) != before:
            raise fail("candidates() changed the state it was given")
        if len(cands) == 0:
            raise fail(f"no candidates before the end (decision {len(trail)})")
        shape = (len(cands), len(cands.feature_names))
        got = cands.feature_rows(range(len(cands))).shape
        if got != shape:
            raise fail(f"{cands.kind} features have shape {got}, not {shape}")
        choice = int(chooser.integers(len(cands)))
        new = game.apply(state, choice, chance)
        if _frozen(state) != before:
            raise fail("apply() changed the state it was given")
        trail.append((cands.kind, cands.labels[choice]))
        state = new
    return trail, state


def check_game(game: Game, games: int = 20, seed: int = 0,
               max_moves: int = 100_000) -> CheckReport:
    """Play ``games`` seeded random games of ``game``; raise ConformanceError on a breach."""
    decisions = 0
    kinds: set[str] = set()
    for g in range(games):
        def fail(what: str, g: int = g) -> ConformanceError:
            return ConformanceError(f"{game.name}, game seed {seed + g}: {what}")

        trail, final = _play(game, seed + g, max_moves, fail)
        again, final2 = _play(game, seed + g, max_moves, fail)
        if again != trail or _frozen(final) != _frozen(final2):
            raise fail("the same seed played a different game")
        outcome = game.outcome(final)
        if outcome.seats != game.seats or len(outcome.payoffs) != game.seats:
            raise fail(f"an outcome of {outcome.seats} scores and {len(outcome.payoffs)} "
                       f"payoffs for {game.seats} seats")
        if outcome.winner is not None:
            if outcome.winner not in range(game.seats):
                raise fail(f"winner {outcome.winner!r} is not a seat (0 to "
                           f"{game.seats - 1}) or None")
            if outcome.points < 1:
                raise fail(f"a win worth {outcome.points} points")
        if game.unit_name and outcome.units != game.unit(final) + 1:
            raise fail(f"{outcome.units} units of points for {game.unit(final) + 1} "
                       f"{game.unit_name}s played")
        decisions += len(trail)
        kinds.update(kind for kind, _ in trail)
    missing = game.logged_kinds - kinds
    if missing:
        raise ConformanceError(f"{game.name}: logged kinds {sorted(missing)} never came up")
    return CheckReport(games, decisions, frozenset(kinds))
