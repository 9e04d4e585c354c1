"""``check_game``: the conformance test every game plug-in must pass.

It plays seeded games with uniformly random choices and checks what the match runner and
the calibrator rely on: games end; every state before the end offers at least one
candidate with one feature row per option; neither ``candidates`` nor ``apply`` changes
the state it is given; the same seed plays the same game; the outcome is consistent; and
every optional hook the game offers (``GameHooks``) keeps its contract, in shape and, where
a played game can show it, in what it gives.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np

from fuzzeval.errors import FuzzevalError
from fuzzeval.play.game import (
    BridgeHooks,
    Game,
    GameHooks,
    HiddenInformationHooks,
    Hook,
    Player,
    PlayerHooks,
    PlayInterface,
    hook,
    offered,
)


class ConformanceError(FuzzevalError):
    """A game plug-in broke one of the rules in ``check_game``."""


@dataclass(frozen=True)
class CheckReport:
    games: int
    decisions: int
    kinds: frozenset[str]
    hooks: tuple[str, ...] = ()  # the optional hooks it offers (GameHooks), in their order


def _frozen(state: Any) -> bytes:
    return pickle.dumps(state)


def _play(game: Game, seed: int, max_moves: int, fail: Callable[[str], ConformanceError],
          states: list[Any] | None = None) -> tuple[list[tuple[str, str]], Any]:
    """A random game's (kind, label) trail and final state; ``states`` gets every state."""
    chance = np.random.default_rng([seed, 0])
    chooser = np.random.default_rng([seed, 1])
    state = game.new_game(chance, seed % game.seats)
    trail: list[tuple[str, str]] = []
    if states is not None:
        states.append(state)
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
        if states is not None:
            states.append(state)
    return trail, state


def check_game(game: Game, games: int = 20, seed: int = 0,
               max_moves: int = 100_000) -> CheckReport:
    """Play ``games`` seeded random games of ``game``; raise ConformanceError on a breach."""
    hooks = check_hooks(game)
    decisions = 0
    kinds: set[str] = set()
    for g in range(games):
        def fail(what: str, g: int = g) -> ConformanceError:
            return ConformanceError(f"{game.name}, game seed {seed + g}: {what}")

        states: list[Any] | None = [] if g == 0 and hooks else None
        trail, final = _play(game, seed + g, max_moves, fail, states)
        if states:
            check_hooks_in_play(game, states)
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
    return CheckReport(games, decisions, frozenset(kinds), tuple(h.name for h in hooks))


def _broken(game: Game, which: Hook[Any], problem: str) -> ConformanceError:
    return ConformanceError(f"{game.name}: hook {which.name}: {problem}")


def check_hooks(game: Game) -> tuple[Hook[Any], ...]:
    """The optional hooks ``game`` offers, each checked against its contract as far as
    the game alone shows it (ConformanceError naming the first hook that breaks it)."""
    hooks = _shaped(game, GameHooks, f"{game.name}: hook ")
    hidden = hook(game, GameHooks.hidden_information)
    if hidden is not None:
        _shaped(hidden, HiddenInformationHooks, f"{game.name}: hook hidden_information.")
    players = set(game.player_names)
    unknown = [p for p in hook(game, GameHooks.tournament_players) or () if p not in players]
    if unknown:
        raise _broken(game, GameHooks.tournament_players,
                      f"names {', '.join(unknown)}, not among its players")
    rollout = hook(game, GameHooks.sampling_rollout)
    if rollout is not None and rollout not in players:
        raise _broken(game, GameHooks.sampling_rollout, f"{rollout!r} is not one of its players")
    kinds_for = hook(game, GameHooks.logged_kinds_for)
    if kinds_for is not None:
        kinds = kinds_for()
        if not isinstance(kinds, frozenset) or not kinds <= game.logged_kinds:
            raise _broken(game, GameHooks.logged_kinds_for,
                          f"() gives {kinds!r}, not some of logged_kinds "
                          f"{sorted(game.logged_kinds)}")
    implied = hook(game, GameHooks.implied_options)
    if implied is not None:
        name = game.rulebase_player or game.player_names[0]
        options = implied(name, {})
        if not isinstance(options, Mapping):
            raise _broken(game, GameHooks.implied_options,
                          f"({name!r}, {{}}) gives {options!r}, not a mapping")
    make_interface = hook(game, GameHooks.play_interface)
    if make_interface is not None:
        interface = make_interface()
        missing = [m for m in _INTERFACE if not callable(getattr(interface, m, None))]
        missing += [a for a in ("advisors", "spot_fields")
                    if not isinstance(getattr(interface, a, None), tuple)]
        if missing:
            raise _broken(game, GameHooks.play_interface,
                          f"() gives a {type(interface).__name__}, not a PlayInterface "
                          f"(it lacks {', '.join(missing)})")
    return hooks


#: what a ``PlayInterface`` does (its methods)
_INTERFACE = tuple(m for m in vars(PlayInterface) if not m.startswith("_"))


def check_hooks_in_play(game: Game, states: list[Any]) -> None:
    """The hooks that speak of states, held to their contracts along one played game
    (``states``: every state of it, the first and the final included)."""
    so_far = hook(game, GameHooks.payoff_so_far)
    count = hook(game, GameHooks.option_count)
    chance = hook(game, GameHooks.chance_events)
    features = hook(game, GameHooks.features)
    names = {f.name for f in features or ()}
    for k, state in enumerate(states):
        if so_far is not None:
            for seat in range(game.seats):
                paid: object = so_far(state, seat)
                if isinstance(paid, bool) or not isinstance(paid, Real):
                    raise _broken(game, GameHooks.payoff_so_far,
                                  f"(state, {seat}) gives {paid!r}, not a number")
        if count is not None and game.to_move(state) is not None:
            counted: object = count(state)
            options = len(game.candidates(state))
            if counted != options or isinstance(counted, bool):
                raise _broken(game, GameHooks.option_count,
                              f"gives {counted!r} where there are {options} candidates")
        if chance is not None:
            events = chance(states[k - 1] if k else None, state)
            if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
                raise _broken(game, GameHooks.chance_events,
                              f"gives {events!r}, not a list of JSON objects")
            try:
                json.dumps(events)
            except (TypeError, ValueError):
                raise _broken(game, GameHooks.chance_events,
                              f"gives {events!r}, not JSON") from None
        if features is not None and game.to_move(state) is not None:
            cands = game.candidates(state)
            unlisted = [n for n in cands.feature_names if n not in names]
            if unlisted:
                raise _broken(game, GameHooks.features,
                              f"{cands.kind} candidates have features {', '.join(unlisted)} "
                              "it does not list")


def _shaped(owner: object, kind: type, where: str) -> tuple[Hook[Any], ...]:
    """The hooks of ``kind`` that ``owner`` offers, each of the shape its contract says
    (ConformanceError, ``where`` then the hook's name and the problem, for the first that
    is not)."""
    hooks = offered(owner, kind)
    for which in hooks:
        problem = which.shape(hook(owner, which))
        if problem:
            raise ConformanceError(f"{where}{which.name}: {problem}")
    return hooks


def check_player(player: Player, name: str) -> tuple[str, ...]:
    """The optional hooks ``player`` (made as ``name``) offers (``PlayerHooks``), each of the
    shape its contract says (ConformanceError naming the first that is not)."""
    return tuple(h.name for h in _shaped(player, PlayerHooks, f"player {name}: hook "))


def check_bridge(bridge: object, name: str) -> tuple[str, ...]:
    """The optional hooks an OpenSpiel bridge (for OpenSpiel's game ``name``) offers
    (``BridgeHooks``), each of the shape its contract says (ConformanceError naming the
    first that is not)."""
    return tuple(h.name for h in _shaped(bridge, BridgeHooks, f"bridge {name}: hook "))
