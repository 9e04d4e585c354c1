"""How well each discard player throws, measured on the same deals by exact expected value.

Every deal is a random six-card hand, played once to my crib and once to theirs. The exact
EV of all 15 throws (uniform opponent throws: hand over 46 starters, crib over 683,100
cribs) is the yardstick. For each player: the mean EV of its throws, the discard efficiency
(EV - random) / (optimal - random), where random is the mean EV of the 15 throws, the share
of deals where it threw an optimal discard, and its decisions per second.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.games.cribbage.discard import CribOwner, evaluate_discards
from fuzzeval.games.cribbage.es import ESDiscard
from fuzzeval.games.cribbage.fuzzy import FuzzyDiscard
from fuzzeval.games.cribbage.lineup import PLAYERS
from fuzzeval.games.cribbage.players import DiscardView, player_from_spec
from fuzzeval.games.cribbage.weights import Weighting, opponent_weights
from fuzzeval.play.spec import PlayerSpec

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
OWNERS = ("mine", "theirs")
CHUNK = 250


def random_hands(n: int, seed: int) -> IntArray:
    """n six-card hands (sorted card ids) from ``SeedSequence(seed)``."""
    rng = np.random.default_rng(seed)
    hands: IntArray = np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :6], axis=1)
    return hands


def exact_ev_chunk(hands: IntArray, mine: bool,
                   weighting: Weighting) -> tuple[FloatArray, float]:
    """Exact EV of the 15 throws of each hand, and the seconds it took (one process)."""
    w = opponent_weights(weighting, mine)
    crib: CribOwner = "mine" if mine else "theirs"
    evaluate_discards(tuple(int(c) for c in hands[0]), crib, w)  # tables built off the clock
    t0 = time.perf_counter()
    ev = np.array([evaluate_discards(tuple(int(c) for c in h), crib, w).ev for h in hands])
    return ev, time.perf_counter() - t0


def exact_ev(hands: IntArray, mine: bool, weighting: Weighting, executor: Executor | None,
             progress: Callable[[int], None] | None = None) -> tuple[FloatArray, float]:
    """Exact EV tables of many hands (n, 15), in chunks, here or on an executor; also the
    total seconds of work (summed over processes)."""
    chunks = [hands[i:i + CHUNK] for i in range(0, len(hands), CHUNK)]
    results: Iterator[tuple[FloatArray, float]]
    if executor is None:
        results = (exact_ev_chunk(c, mine, weighting) for c in chunks)
    else:
        results = executor.map(exact_ev_chunk, chunks, [mine] * len(chunks),
                               [weighting] * len(chunks))
    tables, seconds = [], 0.0
    for chunk, (ev, took) in zip(chunks, results, strict=True):
        tables.append(ev)
        seconds += took
        if progress:
            progress(len(chunk))
    return np.concatenate(tables), seconds


@dataclass(frozen=True)
class OwnerScore:
    ev: float
    efficiency: float
    optimal_share: float


@dataclass(frozen=True)
class PlayerScore:
    player: str
    mine: OwnerScore
    theirs: OwnerScore
    decisions_per_s: float  # the fastest way the player offers (many hands in one call)
    single_per_s: float  # one hand at a time, as in a game


@dataclass(frozen=True)
class Report:
    deals: int
    seed: int
    random: dict[str, float]  # mean EV of a random throw, per crib owner
    optimal: dict[str, float]
    players: tuple[PlayerScore, ...]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _ticker(progress: Callable[[str, int, int], None] | None, what: str,
            total: int) -> Callable[[int], None] | None:
    if progress is None:
        return None
    return lambda k: progress(what, k, total)


def batch_throws_of(discarder: FuzzyDiscard | ESDiscard, hands: IntArray,
                    mines: npt.NDArray[np.bool_]) -> IntArray:
    if isinstance(discarder, FuzzyDiscard):
        out: IntArray = np.argmax(discarder.grades(hands, mines), axis=1)
        return out
    return discarder.throws(hands, mines)


def batch_throws(player: str, hands: IntArray, mine: bool,
                 rng: np.random.Generator) -> tuple[IntArray, float | None]:
    """Throws of a player for many hands in one call when it can; None seconds if not."""
    discarder = player_from_spec(player).discarder
    mines = np.full(len(hands), mine)
    if isinstance(discarder, FuzzyDiscard | ESDiscard):
        batch_throws_of(discarder, hands[:2], mines[:2])  # tables loaded before the clock
    t0 = time.perf_counter()
    if isinstance(discarder, FuzzyDiscard | ESDiscard):
        out = batch_throws_of(discarder, hands, mines)
    elif player == "random":
        out = rng.integers(15, size=len(hands))
    else:
        return one_by_one(player, hands, mine, rng)[0], None
    return out, time.perf_counter() - t0


def one_by_one(player: str, hands: IntArray, mine: bool,
               rng: np.random.Generator) -> tuple[IntArray, float]:
    """Throws of a player one hand at a time, as in a game, and the seconds taken."""
    discarder = player_from_spec(player).discarder
    views = [DiscardView(tuple(int(c) for c in h), mine, (0, 0)) for h in hands]
    discarder(views[0], rng)  # tables loaded before the clock
    t0 = time.perf_counter()
    out = np.array([discarder(v, rng) for v in views], dtype=np.intp)
    return out, time.perf_counter() - t0


def score(ev: FloatArray, throws: IntArray) -> OwnerScore:
    got = ev[np.arange(len(ev)), throws]
    best, rand = ev.max(axis=1), ev.mean(axis=1)
    return OwnerScore(
        ev=float(got.mean()),
        efficiency=float((got.mean() - rand.mean()) / (best.mean() - rand.mean())),
        optimal_share=float(np.mean(got >= best - 1e-9)),
    )


def run_report(deals: int, seed: int, players: Sequence[str] = PLAYERS,
               executor: Executor | None = None, timing_sample: int = 500,
               progress: Callable[[str, int, int], None] | None = None) -> Report:
    """Score every player on the same deals, to both crib owners."""
    hands = random_hands(deals, seed)
    ev: dict[str, FloatArray] = {}
    exhaustive_seconds: dict[str, float] = {}
    for owner in OWNERS:
        ev[owner], exhaustive_seconds[owner] = exact_ev(
            hands, owner == "mine", "uniform", executor,
            _ticker(progress, f"exact EV, {owner} crib", deals))
    per_owner: dict[str, dict[str, OwnerScore]] = {p: {} for p in players}
    speed: dict[str, tuple[float, float]] = {}
    sample = hands[:timing_sample]
    for player in players:
        spec = PlayerSpec.parse(player)
        rng = np.random.default_rng([seed, len(per_owner)])
        batch_seconds, single_seconds = 0.0, 0.0
        for owner in OWNERS:
            mine = owner == "mine"
            if spec.name == "exhaustive":  # its work is the EV table itself
                if dict(spec.options).get("weights", "uniform") == "uniform":
                    table, seconds = ev[owner], exhaustive_seconds[owner]
                else:
                    table, seconds = exact_ev(hands, mine, "expert", executor,
                                              _ticker(progress, f"{player}, {owner}", deals))
                throws = np.argmax(table, axis=1)
                batch_seconds, single_seconds = batch_seconds + seconds, single_seconds + seconds
            else:
                throws, seconds_or_none = batch_throws(player, hands, mine, rng)
                single = one_by_one(player, sample, mine, rng)[1] * len(hands) / len(sample)
                single_seconds += single
                batch_seconds += single if seconds_or_none is None else seconds_or_none
            per_owner[player][owner] = score(ev[owner], throws)
        decisions = 2 * len(hands)
        speed[player] = (decisions / batch_seconds, decisions / single_seconds)
    return Report(
        deals=deals, seed=seed,
        random={o: float(ev[o].mean()) for o in OWNERS},
        optimal={o: float(ev[o].max(axis=1).mean()) for o in OWNERS},
        players=tuple(PlayerScore(p, per_owner[p]["mine"], per_owner[p]["theirs"], *speed[p])
                      for p in players),
    )
