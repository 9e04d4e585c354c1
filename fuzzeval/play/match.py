"""Games and matches of any game plug-in, between as many players as it seats.

Game ``i`` of a match with seed ``s`` draws all its randomness from
``SeedSequence(s).spawn(n)[i]`` (built directly as ``SeedSequence(s, spawn_key=(i,))``),
split into a chance stream and one stream per seat: the deals do not depend on what the
players do with their own randomness, and results do not depend on the number of workers
or on the order games finish. Seat 0 is the player under test; seat ``i % seats`` moves
(deals) first in game ``i``, so the deal goes round the table from game to game. In a
duplicate match the games come in blocks of one per seat that share one chance stream
(block ``b`` deals what game ``b`` of an ordinary match deals): each deal is played once
with every seat moving first, so every seat plays every hand and card luck cancels.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from fuzzeval.errors import FuzzevalError, GameDidNotEnd, UsageError
from fuzzeval.play.game import (
    WIN_POINTS,
    Game,
    GameHooks,
    Outcome,
    Payoff,
    Player,
    PlayerHooks,
    hook,
)
from fuzzeval.play.spec import (
    GAMES_MAX,
    SEED_MAX,
    Options,
    PlayerSpec,
    check_int,
    check_options,
    check_player,
    shown,
)
from fuzzeval.stats import mean_interval, wilson


@dataclass(frozen=True)
class MatchSpec:
    """Everything that decides a match's games; two runs of one spec give the same games."""

    game: str
    player: PlayerSpec
    opponent: PlayerSpec
    games: int
    seed: int
    options: Options = ()
    #: every seat's player, seat 0 the player under test; empty: ``player`` in seat 0 and
    #: ``opponent`` in every other seat
    seats: tuple[PlayerSpec, ...] = ()
    #: each deal played once with every seat moving first (games in blocks of ``seats``)
    duplicate: bool = False

    def __post_init__(self) -> None:
        """Refuse, before anything is played or stored, what ``fuzzeval match`` refuses (at
        least one game, a seed from 0 to ``SEED_MAX``) and what is not of its type: a
        TypeError names the field and the type it needs, a UsageError what is valid."""
        game: object = self.game
        if not isinstance(game, str):
            raise TypeError(f"MatchSpec game must be a str (the game's name), not "
                            f"{shown(game)}")
        if not game.strip():
            raise UsageError(f"MatchSpec game must name a game (got {game!r})")
        check_player("MatchSpec player", self.player)
        check_player("MatchSpec opponent", self.opponent)
        check_int("MatchSpec", "games", self.games, 1, GAMES_MAX)
        check_int("MatchSpec", "seed", self.seed, 0, SEED_MAX)
        check_options("MatchSpec", self.options)
        self._check_seats()
        duplicate: object = self.duplicate
        if not isinstance(duplicate, bool):
            raise TypeError(f"MatchSpec duplicate must be a bool, not {shown(duplicate)}")

    def _check_seats(self) -> None:
        """Seats, where named, are two or more players, seat 0 the ``player`` and seat 1
        the ``opponent``: the history stores and finds the match under those two."""
        seats: object = self.seats
        if not isinstance(seats, tuple):
            raise TypeError(f"MatchSpec seats must be a tuple of PlayerSpec, not "
                            f"{shown(seats)}")
        for i, who in enumerate(seats):
            check_player(f"MatchSpec seats[{i}]", who)
        if len(seats) == 1:
            raise UsageError("MatchSpec seats names 1 player: name every seat's player (2 "
                             "or more), or none to seat player and opponent")
        for i, field_name, who in ((0, "player", self.player), (1, "opponent", self.opponent)):
            if seats and seats[i] != who:
                raise UsageError(f"MatchSpec seats[{i}] is {str(seats[i])!r} but {field_name} "
                                 f"is {str(who)!r}: seat 0 is the player and seat 1 the "
                                 f"opponent, as the match is stored")

    def lineup(self, seats: int) -> tuple[PlayerSpec, ...]:
        """The player of each seat of a game with ``seats`` seats."""
        if not self.seats:
            return (self.player, *(self.opponent,) * (seats - 1))
        if len(self.seats) != seats:
            raise UsageError(f"--seats names {len(self.seats)} players; {self.game} seats "
                             f"{seats}")
        return self.seats

    def describe(self) -> str:
        """The players as people read them: 'fuzzy vs heuristic ×3' or 'a, b, c, d'."""
        if self.seats:
            return ", ".join(map(str, self.seats))
        return f"{self.player} vs {self.opponent}"


@dataclass(frozen=True)
class Decision:
    """One logged decision: the option chosen and its crisp features, if the game has them."""

    seat: int
    unit: int
    kind: str
    index: int
    choice: str
    n_options: int
    record: Mapping[str, str | int | float] = field(default_factory=dict)
    features: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class GameRecord:
    index: int
    first: int
    outcome: Outcome
    decisions: tuple[Decision, ...]
    moves: int
    #: every option chosen, in order: with the seed, the whole game (``fuzzeval.play.replay``)
    choices: tuple[int, ...] = ()


T = TypeVar("T")

#: told of each move as it is made: the state before, the seat, its choice, the state after
MoveHook = Callable[[Any, int, int, Any], None]


def make_player(game: Game, name: str, **options: Any) -> Player:
    """A player by name: the game's own, or, for a name the game does not have, a
    game-agnostic player installed as a plug-in (``fuzzeval.players``: the sampling
    player of ``fuzzeval.search``), loaded when asked for."""
    if name not in game.player_names:
        from fuzzeval.play.registry import all_player_names, player_factory, player_plugin_names

        if name not in player_plugin_names():  # no such player: every one the game takes
            raise ValueError(f"unknown {game.name} player {name!r} (players: "
                             f"{', '.join(all_player_names(game))})")
        factory = player_factory(name)  # a player of another kind says what it needs
        if factory is not None:
            player: Player = factory(game, **options)
            return player
    return game.make_player(name, **options)


def game_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed sequence of game ``index``: equal to ``SeedSequence(seed).spawn(n)[index]``."""
    return np.random.SeedSequence(seed, spawn_key=(index,))


def game_rngs(seed: int, index: int, seats: int = 2,
              duplicate: bool = False) -> tuple[np.random.Generator, ...]:
    """Game ``index``'s generators: chance (deals, dice), then one for each seat; the one
    place they are made, so a replay draws the same cards as the game did. In a duplicate
    match, chance is that of game ``index // seats`` of an ordinary match."""
    rngs = [np.random.default_rng(s) for s in game_seed(seed, index).spawn(seats + 1)]
    if duplicate:
        rngs[0] = np.random.default_rng(game_seed(seed, index // seats).spawn(seats + 1)[0])
    return tuple(rngs)


def play_game(game: Game, players: Sequence[Player], seed: int, index: int,
              options: Mapping[str, Any] | None = None,
              on_move: MoveHook | None = None, duplicate: bool = False,
              log: bool = True) -> GameRecord:
    """Play game ``index`` of a match to the end; seat ``index % seats`` moves first.
    ``on_move`` sees every move (a terminal game shows them as they happen). ``log=False``
    keeps no decisions (a learner reads only the outcome and ``on_move``: logging the
    chosen option's features and labels was a sixth of a backgammon learn's time)."""
    if len(players) != game.seats:
        raise UsageError(f"{len(players)} players for {game.name}'s {game.seats} seats")
    chance, *seats = game_rngs(seed, index, game.seats, duplicate)
    first = index % game.seats
    state = game.new_game(chance, first, **dict(options or {}))
    decisions: list[Decision] = []
    choices: list[int] = []
    # A player that decides without the game's features may say so (``logs_features =
    # False``): its decisions are logged without them, which spares games whose features
    # are computed on demand (backgammon) the cost.
    wants = [logs_features(p) for p in players]
    # A player that can say how it decided (``decide``: the choice and a note, e.g. a
    # simulation's trials and means) has that note kept with the decision.
    deciders = [hook(p, PlayerHooks.decide) for p in players]
    # A player may ask for more kinds to be logged, with features (``logged_kinds``: e.g.
    # the play, when a pegging rule base decides it and may be calibrated).
    kinds = [game.logged_kinds | (hook(p, PlayerHooks.logged_kinds) or frozenset())
             for p in players]
    while (seat := game.to_move(state)) is not None:
        cands = game.candidates(state)
        decide = deciders[seat]
        note: Mapping[str, str | int | float] = {}
        if decide is not None:
            choice, note = decide(cands, seats[seat])
        else:
            choice = players[seat].choose(cands, seats[seat])
        if not 0 <= choice < len(cands):
            raise FuzzevalError(f"player in seat {seat} chose option {choice} of {len(cands)}")
        if log and (cands.kind in kinds[seat] or note):  # a note is always kept
            names = cands.feature_names if wants[seat] else ()
            row = cands.feature_rows([choice])[0] if names else ()
            decisions.append(Decision(
                seat=seat, unit=game.unit(state), kind=cands.kind, index=choice,
                choice=cands.labels[choice], n_options=len(cands),
                record={**cands.record, **note},
                features={n: float(v) for n, v in zip(names, row, strict=True)},
            ))
        try:
            after = game.apply(state, choice, chance)
        except GameDidNotEnd as exc:
            raise GameDidNotEnd(f"{game.name} game {index} of seed {seed} did not end: "
                                f"{exc}") from None
        choices.append(choice)
        if on_move is not None:
            on_move(state, seat, choice, after)
        state = after
    return GameRecord(index, first, game.outcome(state), tuple(decisions), len(choices),
                      tuple(choices))


def logs_features(player: Player) -> bool:
    """Whether a player's logged decisions carry the chosen option's features."""
    return hook(player, PlayerHooks.logs_features) is not False


_PLAYERS: dict[tuple[str, tuple[PlayerSpec, ...]], tuple[Player, ...]] = {}


def _players(game: Game, lineup: tuple[PlayerSpec, ...]) -> tuple[Player, ...]:
    """Every seat's player, built once per process (games arrive in workers as fresh
    copies); seats with the same spec share one player, which decides for each in turn."""
    key = (game.name, lineup)
    if key not in _PLAYERS:
        game.prepare()
        built: dict[PlayerSpec, Player] = {}
        for who in lineup:
            if who not in built:
                built[who] = make_player(game, who.name, **dict(who.options))
        _PLAYERS[key] = tuple(built[who] for who in lineup)
    return _PLAYERS[key]


def play_indexed(game: Game, spec: MatchSpec, index: int) -> GameRecord:
    """Game ``index`` of a match (players built once per process)."""
    return play_game(game, _players(game, spec.lineup(game.seats)), spec.seed, index,
                     dict(spec.options), duplicate=spec.duplicate)


def ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C is the parent's to handle (it keeps finished games and
    shuts the pool), stdout is not the worker's to hold (so ``... | cat`` ends when the
    parent does), and a worker whose parent died exits within a second. SIGTERM gets its
    default back (a forked worker inherits the parent's handler, which would raise inside
    the pool's own code): a broken pool terminates its surviving workers with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    parent = os.getppid()
    threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True,
                     name="fuzzeval-parent-watch").start()


def _exit_with_parent(parent: int, every: float = 0.2) -> None:
    """Poll the parent's pid: an orphan is re-parented (to init or a subreaper), so a
    changed ``getppid`` means the parent is gone, however it died (even SIGKILL)."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def check_players(game: Game, spec: MatchSpec) -> None:
    """Build both players and a first game here, so a bad name or option (of a player or of
    the game) fails before any file is made or worker started; a spec of another game
    fails first (its games would be stored under that game's name)."""
    if spec.game != game.name:
        raise UsageError(f"MatchSpec game {spec.game!r} is not the game passed "
                         f"({game.name!r}): give game={game.name!r}, or pass "
                         f"load_game({spec.game!r})")
    lineup = spec.lineup(game.seats)
    if spec.duplicate and spec.games % game.seats:
        raise UsageError(f"--duplicate plays {game.name} in blocks of {game.seats} games "
                         f"(one for each seat to move first); -n {spec.games} is not a "
                         f"multiple of {game.seats}")
    for who in dict.fromkeys(lineup):
        try:
            make_player(game, who.name, **dict(who.options))
        except (ValueError, TypeError) as exc:
            raise UsageError(f"{game.name} player {str(who)!r}: {exc}") from exc
    check_game_options(game, spec.options)


def check_game_options(game: Game, options: Options) -> None:
    """A first game built with ``options``, so a bad key or value fails in one line
    (UsageError) before any file is made."""
    try:
        game.new_game(np.random.default_rng(0), 0, **dict(options))
    except (ValueError, TypeError) as exc:
        raise UsageError(f"{game.name} --option: {exc}") from exc


def check_rulebase_player(game: Game, path: Path) -> None:
    """The game's rule-base player reading this file, built once: an error names the file."""
    if not game.rulebase_player:
        raise FuzzevalError(f"{game.name} has no rule-base player")
    try:
        game.make_player(game.rulebase_player, rulebase=str(path))
    except (ValueError, TypeError) as exc:
        raise UsageError(f"{path}: {exc}") from exc


def play_block(game: Game, spec: MatchSpec, indices: Sequence[int],
               finish: Callable[[GameRecord], T] | None = None) -> tuple[list[T], float]:
    """Games played back to back in one task, each passed through ``finish`` there (e.g.
    encoded as history rows), and the seconds they took."""
    t0 = time.perf_counter()
    done = finish or _as_is
    out = [done(play_indexed(game, spec, i)) for i in indices]
    return out, time.perf_counter() - t0


def _as_is(record: GameRecord) -> Any:
    return record


# A task should last about this long: long enough that a worker's round trip (a fraction
# of a millisecond of the parent's time) is noise, short enough that the progress bar moves
# and a crash re-plays little.
TASK_SECONDS = 0.4
MAX_BLOCK = 64
#: tasks in flight for each of an executor's workers: one playing and two waiting, so the
#: parent's pauses (its inserts) leave no worker without a task. On 16 cores, 16 workers
#: waited between tasks 17.6 % of a match with 0.2 s tasks two a worker, 8.8 % with 0.4 s
#: tasks three a worker: 78.3 % -> 84.2 % of 16 independent processes (docs/benchmarks.md)
TASKS_PER_WORKER = 3


def capacity(executor: Executor) -> int:
    """How many tasks an executor runs at once: a process pool's workers, a Dask
    cluster's threads; 4 when it does not say."""
    workers = getattr(executor, "_max_workers", None)
    if isinstance(workers, int) and workers > 0:
        return workers
    client = getattr(executor, "_client", None)  # distributed's ClientExecutor
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except (OSError, RuntimeError, ValueError):  # a cluster that cannot say: the default
            return 4
    return 4


def run_games(game: Game, spec: MatchSpec, indices: Iterable[int],
              executor: Executor | None = None, window: int = 0,
              count: int | None = None) -> Iterator[GameRecord]:
    """Play the given games, yielding each record as soon as its task is finished
    (``run_finished`` without a ``finish``)."""
    yield from run_finished(game, spec, indices, _as_is, executor, window, count)


def run_finished(game: Game, spec: MatchSpec, indices: Iterable[int],
                 finish: Callable[[GameRecord], T], executor: Executor | None = None,
                 window: int = 0, count: int | None = None) -> Iterator[T]:
    """Play the given games, yielding ``finish(record)`` of each as soon as its task is
    finished; ``finish`` runs where the game was played (a worker: it must pickle), so
    the parent receives what it needs, e.g. the history's rows, already made.

    ``indices`` is consumed lazily (a range or a generator: memory does not grow with the
    number of games); ``count``, when known, is how many it holds. Without an executor the
    games run here, in order. With one, games go out in blocks sized from the time the
    games so far took (about ``TASK_SECONDS`` a task; quick games travel many to a task),
    and at most ``window`` tasks are in flight (default: ``TASKS_PER_WORKER`` for each of
    the executor's workers, one playing and the others waiting, so every worker is kept
    busy). Blocking changes nothing in the results: each game draws only on its own seed.
    """
    if executor is None:
        for i in indices:
            yield finish(play_indexed(game, spec, i))
        return
    pending = iter(indices)
    left = count
    window = window or TASKS_PER_WORKER * capacity(executor)
    block, played, seconds = 1, 0, 0.0
    running: set[Future[tuple[list[T], float]]] = set()
    exhausted = False

    def fill() -> None:
        nonlocal left, exhausted
        while not exhausted and len(running) < window:
            # Smaller blocks near the end, so no worker idles while one finishes.
            size = block if left is None else max(1, min(block, -(-left // window)))
            take = list(itertools.islice(pending, size))
            if not take:
                exhausted = True
                return
            if left is not None:
                left -= len(take)
            running.add(executor.submit(play_block, game, spec, take, finish))

    try:
        fill()
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            ready: list[T] = []
            # The workers get their next tasks before the caller spends its time on these
            # records (a history's inserts): a worker never waits on the parent's writes.
            # A task that failed, or a pool that broke meanwhile, still lets the games
            # finished before it through.
            try:
                for fut in done:
                    records, took = fut.result()
                    played, seconds = played + len(records), seconds + took
                    per_game = seconds / played
                    block = max(1, min(MAX_BLOCK, int(TASK_SECONDS / max(per_game, 1e-6))))
                    ready.extend(records)
                fill()
            except BaseException:
                yield from ready
                raise
            yield from ready
    finally:
        for fut in running:
            fut.cancel()


def fingerprint(spec: MatchSpec, game: Game | None = None) -> str:
    """What the two players read from files, by content: a rule base (option ``rulebase``)
    by the hash of its canonical form (comments and layout do not count), any other option
    naming a file by its bytes. Two matches with one spec but edited files differ here; so
    do two matches of the game's rule-base player on its default rule base when that
    default (``play_rulebase``) has changed in between."""
    from fuzzeval.resources import find_rulebase

    play = hook(game, GameHooks.play_rulebase) or ""
    # A game may say which files a player reads by default (``implied_options``: e.g. the
    # shipped pegging rule base behind cribbage's pegging=fuzzy): those count too.
    implied = hook(game, GameHooks.implied_options)
    parts: dict[str, dict[str, str]] = {}
    seats = ([(f"seat{k}", who) for k, who in enumerate(spec.seats)] if spec.seats else
             [("player", spec.player), ("opponent", spec.opponent)])
    for seat, who in seats:
        options = dict(who.options)
        if play and game is not None and who.name == game.rulebase_player:
            options.setdefault("rulebase", play)  # the default it reads is what it is
        if implied is not None:
            options = dict(implied(who.name, options))
        for key, value in options.items():
            if key == "rulebase" or key.endswith("_rulebase"):  # e.g. peg_rulebase
                path = find_rulebase(str(value))
                parts.setdefault(seat, {})[key] = _canonical_digest(
                    str(path), _digest(path.read_bytes()))
            elif isinstance(value, str) and Path(value).is_file():
                parts.setdefault(seat, {})[key] = _digest(Path(value).read_bytes())
    return json.dumps(parts, sort_keys=True)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


@functools.lru_cache(maxsize=64)
def _canonical_digest(path: str, raw: str) -> str:
    """The digest of a rule base's canonical form, parsed once for each content of its
    file (``raw``, the digest of its bytes): a command asks for a match's fingerprint
    several times, and parsing and writing out a large base takes a tenth of a second."""
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.formats.yaml_write import rulebase_to_yaml

    return _digest(rulebase_to_yaml(load_rulebase(path)).encode())


@dataclass(frozen=True)
class SideStats:
    """One seat's totals over a match."""

    wins: int
    results: Mapping[str, int]  # wins of each kind (single, skunk, ...)
    game_points: int
    per_unit: Mapping[str, float]  # e.g. pegging, hand, crib points per deal
    mean: float = 0.0  # payoff per game


@dataclass(frozen=True)
class MatchSummary:
    """A match seen from seat 0, the player under test: its mean payoff per game with a
    95 % interval (over duplicate blocks in a duplicate match), and, in a game with
    winners, its win rate; ``sides`` has every seat's totals."""

    games: int
    win_rate: float | None  # None: the game has no winners
    interval: tuple[float, float]  # 95 % Wilson interval of seat 0's win rate
    mean_margin: float | None  # final score of seat 0 minus seat 1, per game (two seats)
    units: int
    sides: tuple[SideStats, ...]
    mean: float = 0.0
    ci95: tuple[float, float] = (0.0, 0.0)
    unit: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"games": self.games, "mean": self.mean,
                               "ci95": list(self.ci95), "unit": self.unit}
        if self.win_rate is not None:
            out |= {"win_rate": self.win_rate, "interval95": list(self.interval)}
        if self.mean_margin is not None:
            out["mean_margin"] = self.mean_margin
        out["units"] = self.units
        out["sides"] = [
            {"wins": s.wins, "results": dict(s.results), "game_points": s.game_points,
             "per_unit": dict(s.per_unit), "mean": s.mean} for s in self.sides]
        return out


def summarize(outcomes: Sequence[Outcome], payoff: Payoff = WIN_POINTS,
              block: int = 1) -> MatchSummary:
    """Seat 0's mean payoff with its 95 % interval (``block`` > 1: over the means of
    consecutive blocks of that many games, a duplicate match's deals), the win rate with
    its interval, margins, kinds of win and points by source."""
    n = len(outcomes)
    seats = outcomes[0].seats if outcomes else 2
    units = sum(o.units for o in outcomes)
    names = list(dict.fromkeys(k for o in outcomes for k in o.stats))  # the game's order
    worth = {o.result: o.points for o in outcomes}
    sides = []
    for seat in range(seats):
        won = [o for o in outcomes if o.winner == seat]
        kinds: dict[str, int] = {}
        for o in won:
            kinds[o.result] = kinds.get(o.result, 0) + 1
        sides.append(SideStats(
            wins=len(won),
            results=dict(sorted(kinds.items(), key=lambda kv: worth[kv[0]])),
            game_points=sum(o.points for o in won),
            per_unit={k: sum(o.stats[k][seat] for o in outcomes if k in o.stats)
                      / max(units, 1) for k in names},
            mean=float(np.mean([o.payoffs[seat] for o in outcomes])) if n else 0.0,
        ))
    wins = sides[0].wins
    has_winners = any(o.winner is not None for o in outcomes) or not outcomes
    paid = np.array([o.payoffs[0] for o in outcomes], dtype=np.float64)
    whole = n - n % block
    means = paid[:whole].reshape(-1, block).mean(axis=1) if block > 1 else paid
    return MatchSummary(
        games=n,
        win_rate=(wins / n if n else 0.0) if has_winners else None,
        interval=wilson(wins, n),
        mean_margin=(float(np.mean([o.scores[0] - o.scores[1] for o in outcomes]))
                     if n else 0.0) if seats == 2 else None,
        units=units,
        sides=tuple(sides),
        mean=float(paid.mean()) if n else 0.0,
        ci95=mean_interval(means.tolist()),
        unit=payoff.unit,
    )
