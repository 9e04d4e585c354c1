"""fuzzeval players as OpenSpiel bots: ``make_bot(game, player, seat, seed)`` returns a
``pyspiel.Bot`` that plays inside OpenSpiel's own loops (``pyspiel.evaluate_bots``)
against OpenSpiel's bots (``opponent_bot``); ``play_game`` and ``play_series`` play such
games with every action checked against OpenSpiel's legal actions (``fuzzeval openspiel
play``, docs/openspiel.md).

The core knows no game: each game plug-in that has an OpenSpiel twin provides a bridge,
an entry point of the group ``fuzzeval.openspiel`` named by OpenSpiel's short name
(``cribbage``, ``backgammon``, ``hearts``). The bridge is a factory ``(pyspiel game) ->
Bridge``: it refuses a variant it cannot play (a ValueError naming the parameters), and
translates OpenSpiel's state into the fuzzeval player's ``Candidates`` and the choice back
into OpenSpiel's action. OpenSpiel (``pyspiel``) is an extra: ``pip install
'fuzzeval[openspiel]'``.
"""

from __future__ import annotations

import math
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points
from typing import Any, Protocol

import numpy as np
import pyspiel

from fuzzeval.errors import FuzzevalError, UsageError
from fuzzeval.play.game import BridgeHooks, Candidates, Player, hook
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.stats import mean_interval, wilson

BRIDGES_GROUP = "fuzzeval.openspiel"
UCT_C = 2.0  # the exploration constant of OpenSpiel's examples, for ismcts and mcts


class UnsupportedGame(UsageError):
    """An OpenSpiel game (or a variant of one) that no installed fuzzeval game plays."""


class IllegalAction(FuzzevalError):
    """A bot returned an action OpenSpiel does not allow there, or its bridge found
    fuzzeval's options not OpenSpiel's legal actions (never expected: a bug)."""


class Bridge(Protocol):
    """One bot's translator between OpenSpiel's states and a fuzzeval game's candidates."""

    #: the fuzzeval game (plug-in name) whose players it seats
    game: str

    def decide(self, state: Any, choose: Callable[[Candidates], int]) -> int:
        """OpenSpiel's action at ``state`` (the seat to move is the bot's): the candidates
        of the decision go to ``choose`` and its choice comes back as an action."""
        ...

    def restart(self) -> None:
        """Forget anything kept between steps (a new game begins)."""
        ...

    # What a bridge may add (``search_state``, ``resample``) is listed in ``BridgeHooks``
    # (fuzzeval/play/game.py) and read through ``hook``.


def describe(game: Any) -> str:
    """An OpenSpiel game as its name and parameters, e.g. ``cribbage(players=3, ...)``."""
    params = game.get_parameters()
    inside = ", ".join(f"{k}={_shown(v)}" for k, v in sorted(params.items()))
    return f"{game.get_type().short_name}({inside})"


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def load(game: Any) -> Any:
    """An OpenSpiel game from its name (``"cribbage"``, ``"hearts(pass_cards=false)"``),
    or the game itself."""
    if not isinstance(game, str):
        return game
    try:  # checked here: OpenSpiel prints its own errors on stderr before raising them
        with _quiet_stderr():  # its parser too ("OpenSpiel exception: Missing ...")
            params = pyspiel.game_parameters_from_string(game)
    except pyspiel.SpielError as exc:
        raise UsageError(f"OpenSpiel game {game!r}: {str(exc).splitlines()[0]}") from None
    name = params.pop("name", "")
    if not name or name not in pyspiel.registered_names():
        raise UsageError(f"OpenSpiel has no game {name!r} (OpenSpiel games with a fuzzeval "
                         f"player: {', '.join(bridged_games()) or 'none installed'})")
    default_game = pyspiel.load_game(name)
    # The game type's specification lists every parameter (universal_poker's limit
    # ``raiseSize`` is not among the default game's parameters); its values give the types.
    defaults = {**default_game.get_type().parameter_specification,
                **default_game.get_parameters()}
    for key, value in params.items():
        if key not in defaults:
            raise UsageError(f"OpenSpiel game {name!r} has no parameter {key!r} "
                             f"(parameters: {', '.join(sorted(defaults)) or 'none'})")
        want = type(defaults[key])
        if type(value) is not want and not (want is float and type(value) is int):
            raise UsageError(f"OpenSpiel game {name!r}: parameter {key}={_shown(value)} "
                             f"is not a {want.__name__} (default {_shown(defaults[key])})")
    return pyspiel.load_game(game)


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """The process's stderr (file descriptor 2, where OpenSpiel's C++ writes) sent to
    /dev/null for the block, so that a mistake is reported once, by us."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def bridged_games() -> list[str]:
    """OpenSpiel's games that an installed fuzzeval game plays."""
    return sorted(ep.name for ep in entry_points(group=BRIDGES_GROUP))


@lru_cache(maxsize=16)
def _factory(name: str) -> Callable[[Any], Bridge] | None:
    for ep in entry_points(group=BRIDGES_GROUP):
        if ep.name == name:
            factory: Callable[[Any], Bridge] = ep.load()
            return factory
    return None


def bridge(game: Any) -> Bridge:
    """A fresh bridge for an OpenSpiel game (its name or the game); UnsupportedGame names
    the game and its parameters when no installed game plays it."""
    game = load(game)
    factory = _factory(game.get_type().short_name)
    if factory is None:
        raise UnsupportedGame(f"OpenSpiel game {describe(game)}: no fuzzeval game plays "
                              f"it (OpenSpiel games with a fuzzeval player: "
                              f"{', '.join(bridged_games()) or 'none installed'})")
    try:
        return factory(game)
    except ValueError as exc:
        raise UnsupportedGame(f"OpenSpiel game {describe(game)}: {exc}") from None


@lru_cache(maxsize=32)
def _player(game_name: str, spec: PlayerSpec) -> Player:
    """A fuzzeval player, built once per process (players keep no state between
    decisions: one serves every bot with the same spec)."""
    from fuzzeval.play.match import make_player
    from fuzzeval.play.registry import load_game

    game = load_game(game_name)
    game.prepare()
    try:
        return make_player(game, spec.name, **dict(spec.options))
    except (ValueError, TypeError) as exc:
        raise UsageError(f"{game_name} player {str(spec)!r}: {exc}") from None


class _SeatedBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel has no type hints
    """What the bots here share: a seat, no policy, a bridge restarted with each game, and
    nothing kept from other players' actions (each step reads the state it is given)."""

    def __init__(self, translator: Any, seat: int) -> None:
        pyspiel.Bot.__init__(self)
        self._bridge = translator
        self._seat = seat

    def player_id(self) -> int:
        return self._seat

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: Any) -> None:
        self._bridge.restart()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass  # the bot reads what it needs from the state it is asked to step


class FuzzevalBot(_SeatedBot):
    """A fuzzeval player seated at one of an OpenSpiel game's seats."""

    def __init__(self, translator: Bridge, player: Player, spec: PlayerSpec, seat: int,
                 seed: int) -> None:
        _SeatedBot.__init__(self, translator, seat)
        self._player = player
        self._rng = np.random.default_rng(seed)
        self.spec = spec

    def __repr__(self) -> str:
        return f"FuzzevalBot({str(self.spec)!r}, seat={self._seat})"

    def step(self, state: Any) -> int:
        if state.current_player() != self._seat:
            raise ValueError(f"{self!r} asked to move for seat {state.current_player()}")
        try:
            return int(self._bridge.decide(state, self._choose))
        except AssertionError as exc:  # the bridge found the two rules disagreeing
            raise IllegalAction(f"{self!r}: {exc}") from exc

    def _choose(self, candidates: Candidates) -> int:
        return self._player.choose(candidates, self._rng)


class SearchBot(_SeatedBot):
    """OpenSpiel's ISMCTSBot (C++ or Python) asked at the bridge's ``search_state`` of
    each decision, where the bridge has one."""

    def __init__(self, search: Any, translator: Any, seat: int) -> None:
        _SeatedBot.__init__(self, translator, seat)
        self._search = search

    def __repr__(self) -> str:
        return f"ISMCTSBot(seat={self._seat})"

    def step(self, state: Any) -> int:
        turn = hook(self._bridge, BridgeHooks.search_state)
        return int(self._search.step(state if turn is None else turn(state)))


class RandomRollouts:
    """OpenSpiel's random-rollout evaluator (one rollout, random play and chance to the end
    of the game, its returns), for its Python ISMCTSBot: the C++ one cannot be called
    from Python."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def evaluate(self, state: Any) -> Any:
        state = state.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(self._rng.choices(actions, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[self._rng.randrange(len(legal))])
        return np.array(state.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1 / len(legal)) for a in legal]


def _python_ismcts(game: Any, translator: Any,
                   resample: Callable[[Any, int, np.random.Generator], Any], seat: int,
                   seed: int, simulations: int) -> SearchBot:
    """OpenSpiel's Python ISMCTSBot, random rollouts, the most visited action, drawing
    each simulation's state from the bridge's ``resample`` (for a game whose OpenSpiel
    state cannot resample itself)."""
    from open_spiel.python.algorithms import ismcts

    search = ismcts.ISMCTSBot(game, RandomRollouts(seed), UCT_C, simulations,
                              random_state=np.random.RandomState(seed),
                              final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    rng = np.random.default_rng(seed)
    search.set_resampler(lambda state, player: resample(state, player, rng))
    return SearchBot(search, translator, seat)


def make_bot(game: Any, player: str | PlayerSpec, seat: int, seed: int) -> FuzzevalBot:
    """A ``pyspiel.Bot`` playing ``player`` (``fuzzy``, ``pubeval``, ``greedy``,
    ``sampling:trials=200``, ... any player the fuzzeval game takes) at ``seat`` of the
    OpenSpiel ``game`` (a name such as ``"cribbage"`` or the loaded game), its choices
    drawn from a generator seeded with ``seed``."""
    game = load(game)
    spec = player if isinstance(player, PlayerSpec) else PlayerSpec.parse(player)
    if isinstance(seat, bool) or not isinstance(seat, int) or \
            not 0 <= seat < game.num_players():
        raise UsageError(f"seat {seat!r}: {describe(game)} has seats 0 to "
                         f"{game.num_players() - 1}")
    translator = bridge(game)
    return FuzzevalBot(translator, _player(translator.game, spec), spec, seat, seed)


def opponent_bot(game: Any, name: str, seat: int, seed: int, simulations: int = 100) -> Any:
    """One of OpenSpiel's bots: ``random`` (uniform random), ``ismcts`` (the C++
    ISMCTSBot, random rollouts, the most visited action; OpenSpiel's Python ISMCTSBot
    with the bridge's resampler where OpenSpiel's state cannot resample itself, as in
    cribbage) or ``mcts`` (the C++ MCTSBot, random rollouts, perfect information only),
    with ``simulations`` per decision; any other name is a fuzzeval player for the same
    game (``make_bot``)."""
    game = load(game)
    kind = game.get_type()
    short = kind.short_name
    if name == "random":
        return pyspiel.make_uniform_random_bot(seat, seed)
    if name not in ("ismcts", "mcts"):
        return make_bot(game, name, seat, seed)
    if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1:
        raise UsageError(f"simulations must be a whole number >= 1 (got {simulations!r})")
    perfect = kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    if name == "ismcts":
        if perfect:
            raise UsageError(f"OpenSpiel's ISMCTSBot plays only games of imperfect "
                             f"information; {short} is of perfect information "
                             f"(use mcts)")
        translator = bridge(game) if _factory(short) is not None else None
        resample = hook(translator, BridgeHooks.resample) if translator is not None else None
        if resample is not None:
            return _python_ismcts(game, translator, resample, seat, seed, simulations)
        search = pyspiel.ISMCTSBot(seed, evaluator, UCT_C, simulations, -1,
                                   pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                   not kind.provides_information_state_string, False)
        if translator is None or hook(translator, BridgeHooks.search_state) is None:
            return search
        return SearchBot(search, translator, seat)
    if not perfect:
        raise UsageError(f"OpenSpiel's MCTSBot searches the true state, hidden cards "
                         f"included; {short} is of imperfect information")
    return pyspiel.MCTSBot(game, evaluator, UCT_C, simulations, 1000, False, seed, False)


def play_game(game: Any, bots: Sequence[Any], seed: int) -> tuple[tuple[float, ...], int]:
    """One game of OpenSpiel ``game`` between ``bots`` (seat order), chance drawn from
    ``seed``, as ``pyspiel.evaluate_bots`` plays it; every action a bot returns is checked
    against OpenSpiel's legal actions (IllegalAction otherwise). Returns OpenSpiel's
    returns and the number of decisions the bots made."""
    game = load(game)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for bot in bots:
        bot.restart_at(state)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(actions[rng.choice(len(actions), p=np.array(probs))])
            player = pyspiel.PlayerId.CHANCE
        else:
            player = state.current_player()
            action = int(bots[player].step(state))
            if action not in state.legal_actions():
                raise IllegalAction(f"{bots[player]!r} played action {action} "
                                    f"({state.action_to_string(player, action)}), not "
                                    f"legal in {describe(game)} here:\n{state}")
            decisions += 1
        for i, bot in enumerate(bots):
            if i != player:
                bot.inform_action(state, player, action)
        state.apply_action(action)
    return tuple(float(r) for r in state.returns()), decisions


@dataclass(frozen=True)
class SeatResult:
    """What one player earned at one seat: OpenSpiel's mean return with its 95 %
    interval, and the share of games it ended with the table's highest return alone,
    with its 95 % (Wilson) interval."""

    seat: int | None  # None: every seat together
    player: str
    games: int
    mean: float
    low: float
    high: float
    won: float
    won_low: float
    won_high: float


@dataclass(frozen=True)
class Series:
    """A bot against OpenSpiel's (or another) bot, seated in turn at every seat."""

    game: str  # OpenSpiel's game and its parameters
    bot: str
    against: str  # with its simulations for OpenSpiel's searches
    games: int
    seed: int
    decisions: int  # every action checked against OpenSpiel's legal actions
    rows: tuple[SeatResult, ...]


def _row(seat: int | None, player: str, returns: Sequence[Sequence[float]],
         at: Sequence[int]) -> SeatResult:
    mine = [r[s] for r, s in zip(returns, at, strict=True)]
    best = [r[s] > max(x for i, x in enumerate(r) if i != s)
            for r, s in zip(returns, at, strict=True)]
    low, high = mean_interval(mine)
    mean = math.fsum(mine) / len(mine) if mine else 0.0
    won_low, won_high = wilson(sum(best), len(best))
    return SeatResult(seat, player, len(mine), mean, low, high,
                      sum(best) / len(best) if best else 0.0, won_low, won_high)


def check_series(game: Any, bot: str, against: str, simulations: int) -> Any:
    """The OpenSpiel game, once the bot and its opponent have been built there: a bad
    game, player or opponent fails before any game is played."""
    game = load(game)
    make_bot(game, bot, 0, 0)
    opponent_bot(game, against, 1, 0, simulations)
    return game


def play_series(game: Any, bot: str, against: str, games: int, seed: int,
                simulations: int = 100, on_game: Callable[[int], None] | None = None
                ) -> Series:
    """``games`` games: in game ``i`` the fuzzeval ``bot`` sits at seat ``i % seats`` and
    ``against`` at every other seat (seeds for chance and bots drawn from ``seed``)."""
    game = check_series(game, bot, against, simulations)
    seats = game.num_players()
    spec = PlayerSpec.parse(bot)
    returns: list[tuple[float, ...]] = []
    decisions = 0
    for i in range(games):
        chance, *seeds = (int(s) >> 1 for s in np.random.SeedSequence(  # C++ int seeds
            seed, spawn_key=(i,)).generate_state(seats + 1))
        mine = i % seats
        bots = [make_bot(game, spec, s, seeds[s]) if s == mine
                else opponent_bot(game, against, s, seeds[s], simulations)
                for s in range(seats)]
        result, made = play_game(game, bots, chance)
        returns.append(result)
        decisions += made
        if on_game is not None:
            on_game(i + 1)
    rows = []
    for s in range(seats):
        mine_at = [i for i in range(games) if i % seats == s]
        theirs_at = [i for i in range(games) if i % seats != s]
        rows.append(_row(s, str(spec), [returns[i] for i in mine_at], [s] * len(mine_at)))
        rows.append(_row(s, against_label(against, simulations),
                         [returns[i] for i in theirs_at], [s] * len(theirs_at)))
    rows.append(_row(None, str(spec), returns, [i % seats for i in range(games)]))
    label = against_label(against, simulations)
    return Series(describe(game), str(spec), label, games, seed, decisions, tuple(rows))


def against_label(against: str, simulations: int) -> str:
    """The opponent as a table names it: a search with its simulations per decision."""
    return f"{against}:simulations={simulations}" if against in ("ismcts", "mcts") \
        else against
