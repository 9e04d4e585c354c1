"""Kendall & Shaw's evolution-strategy discard player (2002), faithfully, then fairly.

Suits are ignored, as in the paper: a hand is one of the 18,395 multisets of six ranks,
and each hand holds one real value per card, in a separate table for each crib owner.
The player throws the two cards with the lowest values. Training is a (1+1)-ES: after a
deal, an unsuccessful throw gets N(0, sigma) added to the values of its two cards.

- ``threshold``: unsuccessful when the realised points fall below p x the best points any
  throw would have made with that starter (p = 0.65 in the paper). When the best is
  negative (a poor hand into the opponent's crib), the bar is best - (1 - p) |best|.
- ``coevolution``: the same hand goes to a second player who throws at random, with the
  same starter and crib cards; the table player mutates when it scores less (a loss).

With ``crib=True`` (the paper's last experiment) two random cards join the throw in the
crib and its points count for the owner, against the other side; without it only the
hand counts. Values start uniform in [0.1, 0.9]; ``bounded`` keeps them there.

Training is exact (1+1)-ES order, done in batches: the points of every throw of a batch
of deals do not depend on the table, and deals of different hands do not interact, so
each batch is processed in rounds of the k-th occurrence of each (owner, hand).
"""

from __future__ import annotations

import zipfile
import zlib
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from fuzzeval.games.cribbage.discard import KEEPS, THROWS
from fuzzeval.games.cribbage.scoring import rank_index5, rank_table

Variant = Literal["threshold", "coevolution"]
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

N_HANDS = 18_395
SIGMA = 0.1
LOW, HIGH = 0.1, 0.9
_KEEP = np.array(KEEPS, dtype=np.intp)
_THROW = np.array(THROWS, dtype=np.intp)
_THROW_INDEX = np.full((6, 6), -1, dtype=np.intp)
for _t, (_a, _b) in enumerate(THROWS):
    _THROW_INDEX[_a, _b] = _THROW_INDEX[_b, _a] = _t


@cache
def hand_codes() -> npt.NDArray[np.int64]:
    """Base-13 codes of the 18,395 sorted six-rank hands (no rank more than four times)."""
    hands = [h for h in combinations_with_replacement(range(13), 6)
             if max(h.count(r) for r in set(h)) <= 4]
    r = np.array(hands, dtype=np.int64)
    codes = r @ (13 ** np.arange(5, -1, -1, dtype=np.int64))
    codes.flags.writeable = False
    assert codes.size == N_HANDS and np.all(np.diff(codes) > 0)
    return codes


def hand_index(ranks: npt.ArrayLike) -> IntArray:
    """Index (0..18,394) of hands given as sorted ranks (..., 6)."""
    r = np.asarray(ranks, dtype=np.int64)
    codes = r @ (13 ** np.arange(5, -1, -1, dtype=np.int64))
    idx: IntArray = np.searchsorted(hand_codes(), codes).astype(np.intp)
    return idx


def lowest_two(values: FloatArray) -> IntArray:
    """Throw index (THROWS order) of the two lowest values of each row (..., 6)."""
    order = np.argsort(values, axis=-1, kind="stable")
    out: IntArray = _THROW_INDEX[order[..., 0], order[..., 1]]
    return out


@dataclass(frozen=True)
class ESConfig:
    variant: Variant = "threshold"
    p: float = 0.65
    bounded: bool = False
    crib: bool = True
    sigma: float = SIGMA
    hands: int = 0  # size of a fixed training set of hands; 0 = every deal is new

    def __post_init__(self) -> None:
        if self.variant not in ("threshold", "coevolution"):
            raise ValueError(f"variant must be threshold or coevolution (got {self.variant!r})")
        if not 0 < self.p <= 1:
            raise ValueError(f"p must be in (0, 1] (got {self.p})")
        if self.sigma <= 0 or self.hands < 0:
            raise ValueError("sigma must be > 0 and hands >= 0")


@dataclass(frozen=True)
class Deals:
    """A batch of training deals, suits dropped: ranks of the six, the starter, two crib cards."""

    six: IntArray  # (b, 6) sorted ranks
    starter: IntArray  # (b,)
    crib2: IntArray  # (b, 2) the other side's two crib cards
    mine: npt.NDArray[np.bool_]  # (b,) whose crib


def deal(rng: np.random.Generator, size: int, training: IntArray | None = None) -> Deals:
    """Random deals; with a training set (k, 6) of card ids, the six come from it."""
    keys = rng.random((size, 52))
    if training is None:
        order = np.argsort(keys, axis=1)[:, :9]
        six, rest = order[:, :6], order[:, 6:]
    else:
        six = training[rng.integers(len(training), size=size)]
        taken = np.zeros((size, 52), dtype=bool)
        np.put_along_axis(taken, six, True, axis=1)
        keys[taken] = 2.0  # never drawn
        rest = np.argsort(keys, axis=1)[:, :3]
    mine = rng.random(size) < 0.5
    return Deals(np.sort(six // 4, axis=1), rest[:, 0] // 4, rest[:, 1:] // 4, mine)


def throw_points(d: Deals, crib: bool) -> IntArray:
    """Realised points of each of the 15 throws of each deal (b, 15), suits ignored."""
    b = d.six.shape[0]
    table = rank_table()
    kept = np.concatenate([d.six[:, _KEEP], np.broadcast_to(d.starter[:, None, None],
                                                             (b, 15, 1))], axis=2)
    points: IntArray = table[rank_index5(kept)].astype(np.intp)
    if crib:
        cribs = np.concatenate([d.six[:, _THROW], np.broadcast_to(d.crib2[:, None, :], (b, 15, 2)),
                                np.broadcast_to(d.starter[:, None, None], (b, 15, 1))], axis=2)
        sign = np.where(d.mine, 1, -1)[:, None]
        points = points + sign * table[rank_index5(cribs)].astype(np.intp)
    return points


def _occurrence(keys: IntArray) -> IntArray:
    """For each position, how many earlier positions hold the same key (0, 1, 2, ...)."""
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_keys)) + 1]
    run_start = np.repeat(starts, np.diff(np.r_[starts, keys.size]))
    occ = np.empty_like(keys)
    occ[order] = np.arange(keys.size) - run_start
    return occ


@dataclass(frozen=True)
class TrainResult:
    values: FloatArray  # (2, 18395, 6): [theirs, mine]
    scores: FloatArray  # realised points of the table player, one per iteration
    mutations: int
    random_level: float  # mean points of a random throw over the same deals
    best_level: float  # mean points of each hand's best throw, estimated from the same deals


def train(config: ESConfig, iterations: int, seed: int, values: FloatArray | None = None,
          batch: int = 8192, on_batch: object = None) -> TrainResult:
    """Run the (1+1)-ES for ``iterations`` deals; same seed, same table."""
    rng = np.random.default_rng(seed)
    table = (rng.uniform(LOW, HIGH, size=(2, N_HANDS, 6)) if values is None
             else np.array(values, dtype=np.float64))
    training = None
    if config.hands:
        training = np.sort(np.array([rng.choice(52, 6, replace=False)
                                     for _ in range(config.hands)]), axis=1)
    scores = np.empty(iterations)
    totals = np.zeros((2 * N_HANDS, 15))  # points of every throw, summed per (owner, hand)
    visits = np.zeros(2 * N_HANDS)
    mutations = 0
    done = 0
    while done < iterations:
        b = min(batch, iterations - done)
        d = deal(rng, b, training)
        points = throw_points(d, config.crib)
        noise = rng.normal(0.0, config.sigma, size=(b, 2))
        rival = rng.integers(15, size=b)
        owner = d.mine.astype(np.intp)
        hand = hand_index(d.six)
        key = owner * N_HANDS + hand
        np.add.at(totals, key, points)
        np.add.at(visits, key, 1)
        occ = _occurrence(key)
        chosen = np.empty(b, dtype=np.intp)
        for k in range(int(occ.max()) + 1):
            rows = np.flatnonzero(occ == k)
            o, h = owner[rows], hand[rows]
            t = lowest_two(table[o, h])
            chosen[rows] = t
            got = points[rows, t]
            if config.variant == "threshold":
                best = points[rows].max(axis=1)
                failed = got < best - (1 - config.p) * np.abs(best)
            else:
                failed = got < points[rows, rival[rows]]
            fr = rows[failed]
            if fr.size:
                cards = _THROW[chosen[fr]]  # (m, 2) positions
                of, hf = owner[fr][:, None], hand[fr][:, None]
                updated = table[of, hf, cards] + noise[fr]
                if config.bounded:
                    updated = np.clip(updated, LOW, HIGH)
                table[of, hf, cards] = updated
                mutations += fr.size
        scores[done:done + b] = points[np.arange(b), chosen]
        done += b
        if callable(on_batch):
            on_batch(b)
    seen = visits > 0
    random_level = float(totals[seen].sum() / (15 * visits.sum()))
    best_level = float((totals[seen].max(axis=1)).sum() / visits.sum())
    return TrainResult(table, scores, mutations, random_level, best_level)


def learning_curve(scores: FloatArray, points: int = 200) -> tuple[FloatArray, FloatArray]:
    """Average score per window (the paper's figures): window ends, window means."""
    window = max(1, scores.size // points)
    n = scores.size // window
    means = scores[: n * window].reshape(n, window).mean(axis=1)
    ends = np.arange(1, n + 1, dtype=np.float64) * window
    return ends, means


def save_table(path: Path, result: TrainResult, config: ESConfig, iterations: int,
               seed: int) -> None:
    """The table (float32) with the learning curve and the settings that made it."""
    x, y = learning_curve(result.scores)
    np.savez_compressed(path, values=result.values.astype(np.float32), curve_x=x, curve_y=y,
                        random_level=result.random_level, best_level=result.best_level,
                        variant=config.variant, p=config.p, bounded=config.bounded,
                        crib=config.crib, hands=config.hands, iterations=iterations, seed=seed)


DEFAULT_TABLE = Path(__file__).resolve().parent / "data" / "es_table.npz"


@cache
def default_table() -> FloatArray:
    """The shipped trained table (see the README for the command that made it)."""
    return load_table(DEFAULT_TABLE)


#: what np.load raises on a file that is not an .npz holding arrays: a missing or unreadable
#: file, another format, a truncated or corrupt archive, pickled objects, no ``values``
_UNREADABLE = (OSError, EOFError, KeyError, ValueError, TypeError, zipfile.BadZipFile,
               zlib.error)


def load_table(path: str | Path) -> FloatArray:
    """A table saved by ``save_table``, checked: a ValueError naming the file and what is
    wrong when it cannot be read, or its values are not (2, 18395, 6) finite real numbers."""
    try:
        with np.load(path) as data:
            raw = np.asarray(data["values"])
    except _UNREADABLE as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValueError(f"{path}: cannot read an ES table ({why})") from None
    return check_table(raw, path)


def check_table(raw: npt.NDArray[Any], path: str | Path) -> FloatArray:
    """The values of an ES table as float64, or a ValueError naming ``path`` and the fault."""
    need = (2, N_HANDS, 6)
    if raw.shape != need:
        raise ValueError(f"{path}: not an ES table: values have shape {raw.shape}, need {need}")
    if raw.dtype.kind != "f":
        raise ValueError(f"{path}: not an ES table: values are {raw.dtype}, need floating-point "
                         "numbers")
    values = np.asarray(raw, dtype=np.float64)
    nan = int(np.isnan(values).sum())
    inf = int(np.isinf(values).sum())
    if nan or inf:
        faults = [f"{n} {what} value{'s' if n > 1 else ''}"
                  for n, what in ((nan, "NaN"), (inf, "infinite")) if n]
        raise ValueError(f"{path}: a broken ES table: {' and '.join(faults)} (every value must "
                         "be a finite number)")
    return values


@dataclass(frozen=True)
class ESDiscard:
    """Throw the two cards with the lowest values in the hand's row of the table."""

    values: FloatArray

    def throws(self, hands: npt.ArrayLike, my_crib: npt.ArrayLike) -> IntArray:
        """Throw index of many hands at once: (n, 6) sorted card ids, (n,) -> (n,)."""
        ranks = np.asarray(hands, dtype=np.intp) // 4
        owner = np.asarray(my_crib, dtype=np.intp)
        return lowest_two(self.values[owner, hand_index(ranks)])

    def __call__(self, view: object, rng: np.random.Generator) -> int:
        hand, mine = view.hand, view.my_crib  # type: ignore[attr-defined]
        return int(self.throws([hand], [mine])[0])
