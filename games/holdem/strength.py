"""Loki's measures of a hand (Billings et al. 1999; Billings et al. 1998, *Opponent Modeling
in Poker*; Billings et al. 2002, *The Challenge of Poker*): hand strength against the opponent's
weighted range, positive and negative potential, effective hand strength, and the betting
features (pot odds, bets to call, bets this round, position, observed aggression).

Cards in, numbers out: card ids ``rank * 4 + suit`` (2c = 0 ... As = 51; see range.py), a
``Range`` of weights on the 1,326 holdings, and the ACPC betting string. Hands are ranked
by phevaluator (lower rank = stronger), its C functions called from compiled loops.

Two stages, so a decision pays only for what changed:

- ``outcomes(hole, board, ahead)``: for every holding the opponent may have, how our hand
  compares now and after each set of ``ahead`` more board cards (exact). This does not
  depend on the weights and is cached per spot.
- the measures: weighted sums over those tables, microseconds per range.

The exact potentials to the river from the flop rank a million hands (about 25 ms), so
``sampled`` estimates them from a few hundred seeded (holding, runout) pairs instead
(about 0.1 ms; benchmarks/holdem_strength.py measures both and the error).

Definitions (h runs over the holdings disjoint from our cards and the board, weighted by
w_h; "ahead" means our best hand beats h's, ties count half):

- ``HS = sum w_h [ahead_h + tied_h / 2] / sum w_h`` (heads-up, so HS_1).
- ``HP[s][f] = sum w_h [now_h = s] P_h(final = f) / sum w_h``, over completions equally
  likely; ``PPOT = (HP[b][a] + HP[b][t]/2 + HP[t][a]/2) / (HP[b][.] + HP[t][.]/2)`` and
  ``NPOT = (HP[a][b] + HP[t][b]/2 + HP[a][t]/2) / (HP[a][.] + HP[t][.]/2)``: the 1998
  paper's formulas with each holding's completions normalised to a probability (its
  pseudocode adds whole completion counts over the ``HPTotal`` of holdings, which is not a
  probability on the flop); 0 where the denominator is 0 (never behind, or never ahead).
- ``EHS = HS (1 - NPOT) + (1 - HS) PPOT``, the 2002 paper's full form (the 1998 paper's
  optimistic ``HS + (1 - HS) PPOT`` leaves out NPOT). With potentials to the river it is
  exactly the showdown equity, ``sum w_h [P_h(win) + P_h(tie) / 2] / sum w_h``.

Preflop there is no hand to rank yet: HS is the showdown equity, ``sampled`` (pair of
aces against a uniform range: 0.852), PPOT = NPOT = 0 and EHS = HS.

The betting features read the ACPC string of heads-up limit hold'em with reverse blinds
(``rules.parse_betting``); ``opponent_range`` replays the opponent's actions on a
``Range``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from phevaluator import _pheval  # type: ignore[import-untyped, unused-ignore]

from fuzzeval.errors import NotationError
from fuzzeval.games.holdem.range import HOLDINGS, N_HOLDINGS, Range, Reaction, check_cards
from fuzzeval.games.holdem.rules import BET_SIZE, BIG, BUTTON, parse_betting

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

AHEAD, TIED, BEHIND = 0, 1, 2
#: (holding, runout) pairs drawn by ``sampled``, the preflop measures' estimator
SAMPLED_PAIRS = 500
#: boards sampled for the holdings' preflop strengths (``holding_strengths(())``)
PREFLOP_STRENGTH_SAMPLES = 2000

# phevaluator's evaluators; in compiled code, its C functions of the same names
_eval5: Any = _pheval.evaluate_5cards
_eval6: Any = _pheval.evaluate_6cards
_eval7: Any = _pheval.evaluate_7cards


def _rank(c: IntArray, n: int) -> int:
    """Rank of the first ``n`` (5-7) cards of ``c`` (1 = royal flush ... 7462)."""
    if n == 7:
        return int(_eval7(c[0], c[1], c[2], c[3], c[4], c[5], c[6]))
    if n == 6:
        return int(_eval6(c[0], c[1], c[2], c[3], c[4], c[5]))
    return int(_eval5(c[0], c[1], c[2], c[3], c[4]))


def _outcome_table(hole: IntArray, board: IntArray, completions: IntArray,
                   holdings: IntArray, table: FloatArray) -> None:
    """``table[s, h]``: the share of the rows of ``completions`` (cards added to ``board``;
    a row may have no cards) on which our hole cards end ahead of (s = 0), tied with (1)
    or behind (2) holding h. Only rows without h's cards count; holdings that share a card
    with our hand or the board keep a zero column."""
    k = board.shape[0]
    m = completions.shape[1]
    n = k + m + 2
    ours = np.empty(7, dtype=np.int64)
    theirs = np.empty(7, dtype=np.int64)
    for row in range(completions.shape[0]):
        dead = 0
        for i in range(k):
            ours[i] = board[i]
            dead |= 1 << board[i]
        for i in range(m):
            ours[k + i] = completions[row, i]
            dead |= 1 << completions[row, i]
        for i in range(k + m):
            theirs[i] = ours[i]
        ours[n - 2] = hole[0]
        ours[n - 1] = hole[1]
        dead |= (1 << hole[0]) | (1 << hole[1])
        our_rank = _rank(ours, n)
        for h in range(holdings.shape[0]):
            a = holdings[h, 0]
            b = holdings[h, 1]
            if (dead >> a) & 1 or (dead >> b) & 1:
                continue
            theirs[n - 2] = a
            theirs[n - 1] = b
            r = _rank(theirs, n)
            if our_rank < r:
                table[0, h] += 1.0
            elif our_rank == r:
                table[1, h] += 1.0
            else:
                table[2, h] += 1.0
    for h in range(holdings.shape[0]):
        total = table[0, h] + table[1, h] + table[2, h]
        if total > 0:
            for st in range(3):
                table[st, h] /= total


def _hp(now: FloatArray, later: FloatArray, weights: FloatArray, hp: FloatArray) -> float:
    """``hp[s, f] = sum_h w_h now[s, h] later[f, h] / W`` over the holdings possible now
    (a nonzero column of ``now``), W their total weight; returns W."""
    total = 0.0
    for h in range(weights.shape[0]):
        w = weights[h]
        if w == 0.0:
            continue
        for st in range(3):
            x = w * now[st, h]
            if x != 0.0:
                total += x
                for f in range(3):
                    hp[st, f] += x * later[f, h]
    if total > 0.0:
        for st in range(3):
            for f in range(3):
                hp[st, f] /= total
    return total


def _strength_sums(board: IntArray, holdings: IntArray, sums: FloatArray,
                   seen: IntArray) -> None:
    """``sums[h] +=`` holding h's hand strength against a uniform holding on ``board``
    (5-7 cards with h), ``seen[h] += 1``, for every h disjoint from the board: the holdings
    ranked once, then for each the worse and tied ones counted from a histogram, less
    those that share one of its cards (they cannot be the opponent's)."""
    k = board.shape[0]
    n = k + 2
    cards = np.empty(7, dtype=np.int64)
    dead = 0
    for i in range(k):
        cards[i] = board[i]
        dead |= 1 << board[i]
    ranks = np.zeros(holdings.shape[0], dtype=np.int64)
    hist = np.zeros(7464, dtype=np.int64)
    by_card = np.zeros((52, 51), dtype=np.int64)
    per_card = np.zeros(52, dtype=np.int64)
    valid = 0
    for h in range(holdings.shape[0]):
        a = holdings[h, 0]
        b = holdings[h, 1]
        if (dead >> a) & 1 or (dead >> b) & 1:
            continue
        cards[n - 2] = a
        cards[n - 1] = b
        r = _rank(cards, n)
        ranks[h] = r
        hist[r] += 1
        by_card[a, per_card[a]] = r
        per_card[a] += 1
        by_card[b, per_card[b]] = r
        per_card[b] += 1
        valid += 1
    worse_than = np.zeros(7464, dtype=np.int64)  # holdings ranked strictly worse than r
    for r in range(7462, 0, -1):
        worse_than[r] = worse_than[r + 1] + hist[r + 1]
    for h in range(holdings.shape[0]):
        r = ranks[h]
        if r == 0:
            continue
        a = holdings[h, 0]
        b = holdings[h, 1]
        worse = worse_than[r]
        tied = hist[r] - 1
        for c in (a, b):
            for j in range(per_card[c]):
                other = by_card[c, j]
                if other > r:
                    worse -= 1
                elif other == r:
                    tied -= 1
        tied += 2  # h itself was taken off once for each of its two cards
        disjoint = valid - per_card[a] - per_card[b] + 1
        sums[h] += (worse + 0.5 * tied) / disjoint
        seen[h] += 1


_KERNELS = ("_outcome_table", "_hp", "_strength_sums", "_first_above", "_sample_pairs",
            "_mix", "_next", "_card", "_equity")


@cache
def _compiled() -> dict[str, Any]:
    """The kernels compiled by numba (cached on disk), phevaluator's C evaluators called
    by symbol: compiled on first use, so importing this module does not load numba."""
    import llvmlite.binding as llvm  # type: ignore[import-untyped, unused-ignore]
    import numba
    from numba import types

    llvm.load_library_permanently(_pheval.__file__)
    externals = {name: types.ExternalFunction(f"evaluate_{n}cards",
                                              types.intc(*[types.intc] * n))
                 for name, n in (("_eval5", 5), ("_eval6", 6), ("_eval7", 7))}
    import types as pytypes

    rank_scope = {**_rank.__globals__, **externals}
    rank = _njit(numba, pytypes.FunctionType(_rank.__code__, rank_scope, "_rank"))
    out: dict[str, Any] = {"_eval7": externals["_eval7"], "_rank": rank}
    for name in _KERNELS:  # in call order: each sees the compiled forms of the others
        fn = globals()[name]
        scope = {**fn.__globals__, **out}
        out[name] = _njit(numba, pytypes.FunctionType(fn.__code__, scope, fn.__name__))
    return out


def _njit(numba: Any, fn: Any) -> Any:
    try:
        return numba.njit(fn, cache=True, error_model="numpy")
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return numba.njit(fn, cache=False, error_model="numpy")


def _kernel(name: str) -> Any:
    return _compiled()[name]


def _spot(hole: Iterable[int], board: Iterable[int]) -> tuple[tuple[int, ...],
                                                             tuple[int, ...]]:
    cards = check_cards([*hole, *board])
    hole_t, board_t = cards[:2], cards[2:]
    if len(hole_t) != 2:
        raise NotationError(" ".join(map(str, hole_t)), "a hand has 2 hole cards")
    if len(board_t) not in (0, 3, 4, 5):
        raise NotationError(" ".join(map(str, board_t)), "a board has 0, 3, 4 or 5 cards")
    return hole_t, board_t


@dataclass(frozen=True, eq=False)
class Outcomes:
    """How our hand compares with every holding after ``ahead`` more cards, as shares of
    the completions that count for that holding: ``table[s, h]``, s = AHEAD, TIED,
    BEHIND (a zero column for holdings that share a card with our hand or the board)."""

    hole: tuple[int, ...]
    board: tuple[int, ...]
    ahead: int
    table: FloatArray


def completions(hole: Sequence[int], board: Sequence[int], ahead: int,
                samples: int | None = None, seed: int = 0) -> IntArray:
    """Every set of ``ahead`` further board cards (rows), or ``samples`` of them drawn
    uniformly (with replacement between rows, a seeded generator)."""
    if ahead == 0:
        return _NO_CARDS  # one completion: the board as it is
    dead = set(hole) | set(board)
    rest = np.array([c for c in range(52) if c not in dead], dtype=np.int64)
    if samples is None:
        return rest[np.array(list(combinations(range(rest.size), ahead)), dtype=np.int64)]
    rng = np.random.default_rng(seed)
    picks = np.argsort(rng.random((samples, rest.size)), axis=1)[:, :ahead]
    return rest[picks]


_NO_CARDS = np.empty((1, 0), dtype=np.int64)
_ONES = np.ones(N_HOLDINGS)
_ONES.setflags(write=False)
_NO_TABLE = np.zeros((3, N_HOLDINGS))  # preflop: no hand to rank yet
_NO_TABLE.setflags(write=False)


@lru_cache(maxsize=256)
def _outcomes(hole: tuple[int, ...], board: tuple[int, ...], ahead: int) -> Outcomes:
    table = np.zeros((3, N_HOLDINGS))
    _kernel("_outcome_table")(np.array(hole, dtype=np.int64), np.array(board, dtype=np.int64),
                              completions(hole, board, ahead), HOLDINGS, table)
    table.setflags(write=False)
    return Outcomes(hole, board, ahead, table)


def outcomes(hole: Iterable[int], board: Iterable[int], ahead: int) -> Outcomes:
    """Our hand against every holding after each set of ``ahead`` (0 to 5 - len(board))
    more board cards, on a flop, turn or river. Cached per spot (the last 256)."""
    hole_t, board_t = _spot(hole, board)
    if not board_t or not 0 <= ahead <= 5 - len(board_t):
        raise ValueError(f"cannot look {ahead} cards ahead of a {len(board_t)}-card board")
    return _outcomes(hole_t, board_t, ahead)


def _matrix(now: Outcomes, later: Outcomes, weights: Range | None) -> FloatArray:
    """``hp[now status, final status]`` under the weights, normalised (sums to 1)."""
    hp = np.zeros((3, 3))
    w = _ONES if weights is None else weights.weights
    if _kernel("_hp")(now.table, later.table, w, hp) <= 0.0:
        raise ValueError("the range gives weight 0 to every holding the opponent can have")
    return hp


def _strength(hp: FloatArray) -> float:
    """HS from ``hp``: ahead now, ties half."""
    return min(1.0, float(hp[AHEAD].sum() + hp[TIED].sum() / 2))  # rounding may pass 1


def _win(hp: FloatArray) -> float:
    """Equity from ``hp``: ahead at the end, ties half."""
    return min(1.0, float(hp[:, AHEAD].sum() + hp[:, TIED].sum() / 2))


def _potentials(hp: FloatArray) -> tuple[float, float]:
    """(PPOT, NPOT) from ``hp[now, final]`` (any scale)."""
    total = hp.sum(axis=1)
    behind = total[BEHIND] + total[TIED] / 2
    ahead = total[AHEAD] + total[TIED] / 2
    ppot = (hp[BEHIND, AHEAD] + hp[BEHIND, TIED] / 2 + hp[TIED, AHEAD] / 2) / behind \
        if behind > 0 else 0.0
    npot = (hp[AHEAD, BEHIND] + hp[TIED, BEHIND] / 2 + hp[AHEAD, TIED] / 2) / ahead \
        if ahead > 0 else 0.0
    return float(ppot), float(npot)


def hand_strength(hole: Iterable[int], board: Iterable[int], weights: Range | None = None,
                  ) -> float:
    """HS: the weighted share of the opponent's holdings we beat now, ties half (uniform
    when ``weights`` is None). Preflop: the showdown equity, ``sampled``."""
    hole_t, board_t = _spot(hole, board)
    if not board_t:
        return sampled(hole_t, board_t, weights).equity
    now = _outcomes(hole_t, board_t, 0)
    return _strength(_matrix(now, now, weights))


def potentials(hole: Iterable[int], board: Iterable[int], weights: Range | None = None,
               ahead: int | None = None) -> tuple[float, float]:
    """(PPOT, NPOT) over every set of ``ahead`` more cards (default: to the river).
    (0, 0) preflop and on the river."""
    hole_t, board_t = _spot(hole, board)
    if not board_t or len(board_t) == 5:
        return 0.0, 0.0
    later = outcomes(hole_t, board_t, 5 - len(board_t) if ahead is None else ahead)
    return _potentials(_matrix(_outcomes(hole_t, board_t, 0), later, weights))


def effective_strength(hs: float, ppot: float, npot: float) -> float:
    """EHS = HS (1 - NPOT) + (1 - HS) PPOT (Billings et al. 2002): the chance of being
    ahead now and staying so, plus that of being behind now and drawing ahead."""
    return hs * (1.0 - npot) + (1.0 - hs) * ppot


def equity(hole: Iterable[int], board: Iterable[int], weights: Range | None = None) -> float:
    """Showdown equity against the weighted range, win + tie / 2, over every river
    (preflop: ``sampled``)."""
    hole_t, board_t = _spot(hole, board)
    if not board_t:
        return sampled(hole_t, board_t, weights).equity
    now = _outcomes(hole_t, board_t, 0)
    return _win(_matrix(now, _outcomes(hole_t, board_t, 5 - len(board_t)), weights))


def _first_above(cdf: FloatArray, u: float) -> int:
    """The first index whose running weight ``cdf`` passes ``u`` (a draw by weight)."""
    lo, hi = 0, cdf.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


def _sample_pairs(hole: IntArray, board: IntArray, now: FloatArray, weights: FloatArray,
                  holdings: IntArray, pairs: int, seed: int, hp: FloatArray) -> float:
    """``hp[now, final]``: shares of ``pairs`` draws of a holding (by ``weights``, those
    sharing a card with our hand or the board left out) with a runout to the river that
    avoids it; the status now read from ``now`` (an ``Outcomes`` table; preflop every
    pair counts as tied now). Returns the weight drawn from (0: nothing drawn).

    numba's own generator, seeded per call (the same spot and seed give the same draws):
    a numpy Generator costs more to make than the draws."""
    np.random.seed(seed)  # noqa: NPY002
    k = board.shape[0]
    ours = np.empty(7, dtype=np.int64)
    theirs = np.empty(7, dtype=np.int64)
    dead = (1 << hole[0]) | (1 << hole[1])
    for i in range(k):
        ours[i] = board[i]
        theirs[i] = board[i]
        dead |= 1 << board[i]
    deck = np.empty(52, dtype=np.int64)
    left = 0
    for c in range(52):
        if not (dead >> c) & 1:
            deck[left] = c
            left += 1
    cdf = np.empty(holdings.shape[0])
    total = 0.0
    for h in range(holdings.shape[0]):
        if not ((dead >> holdings[h, 0]) & 1 or (dead >> holdings[h, 1]) & 1):
            total += weights[h]
        cdf[h] = total
    if total <= 0.0:
        return 0.0
    for _ in range(pairs):
        lo = _first_above(cdf, np.random.random() * total)  # noqa: NPY002
        a = holdings[lo, 0]
        b = holdings[lo, 1]
        status = 1
        if k > 0:
            status = 0 if now[0, lo] > 0.0 else 1 if now[1, lo] > 0.0 else 2
        used = dead | (1 << a) | (1 << b)
        for j in range(k, 5):
            c = deck[int(np.random.random() * left)]  # noqa: NPY002
            while (used >> c) & 1:
                c = deck[int(np.random.random() * left)]  # noqa: NPY002
            used |= 1 << c
            ours[j] = c
            theirs[j] = c
        ours[5] = hole[0]
        ours[6] = hole[1]
        theirs[5] = a
        theirs[6] = b
        mine = _rank(ours, 7)
        r = _rank(theirs, 7)
        hp[status, 0 if mine < r else 1 if mine == r else 2] += 1.0 / pairs
    return total


_M32 = 0xFFFFFFFF


def _mix(x: int) -> int:
    """A 32-bit hash of ``x`` (0 <= x < 2**32; never 0), to seed a stream: nearby
    seeds give unrelated streams."""
    x = (((x >> 16) ^ x) * 0x45D9F3B) & _M32
    x = (((x >> 16) ^ x) * 0x45D9F3B) & _M32
    x = (x >> 16) ^ x
    return x if x else 1


def _next(x: int) -> int:
    """Marsaglia's xorshift32 step (0 < x < 2**32). No intermediate passes 2**45, so
    numba's int64 never overflows (a signed overflow is undefined behaviour in LLVM) and
    the Python source draws the same numbers as the compiled code."""
    x ^= (x << 13) & _M32
    x ^= x >> 17
    x ^= (x << 5) & _M32
    return x


def _card(state: int, used: int) -> tuple[int, int]:
    """The generator's next state and a card drawn uniformly from those not in the bit set
    ``used`` (by rejection: at most 9 of the 52 are ever used)."""
    state = _next(state)
    c = state % 52
    while (used >> c) & 1:
        state = _next(state)
        c = state % 52
    return state, c


def _equity(a: int, b: int, board: IntArray, seen: int, pairs: int, seed: int,
            ours: IntArray, theirs: IntArray) -> float:
    """Showdown equity of hole cards (a, b) on the first ``seen`` cards of ``board``
    against any holding: ``pairs`` uniform draws of the rest of the board, then a holding
    from the cards left (``ours`` and ``theirs``: scratch space of 7)."""
    dead = (1 << a) | (1 << b)
    for i in range(seen):
        ours[i] = board[i]
        theirs[i] = board[i]
        dead |= 1 << board[i]
    ours[5] = a
    ours[6] = b
    state = _mix(seed)
    won = 0.0
    for _ in range(pairs):
        used = dead
        for i in range(seen, 7):  # the rest of the board, then the holding's two
            state, c = _card(state, used)
            used |= 1 << c
            theirs[i] = c
            if i < 5:
                ours[i] = c
        mine = _rank(ours, 7)
        r = _rank(theirs, 7)
        won += 1.0 if mine < r else 0.5 if mine == r else 0.0
    return won / pairs


def equity_estimate(hole: Iterable[int], board: Iterable[int], pairs: int, seed: int
                    ) -> float:
    """Showdown equity against any holding from ``pairs`` seeded (runout, holding)
    draws: an unbiased estimate of EHS with exact potentials to the river (which is this
    equity), standard error at most 0.5 / sqrt(pairs), about 0.1 us a pair compiled."""
    hole_t, board_t = _spot(hole, board)
    if pairs < 1:
        raise ValueError(f"pairs must be at least 1, got {pairs}")
    return checked_equity_estimate(hole_t, board_t, pairs, seed)


def checked_equity_estimate(hole: tuple[int, ...], board: tuple[int, ...], pairs: int,
                            seed: int) -> float:
    """``equity_estimate`` of cards already checked (distinct ids, 2 + 0, 3, 4 or 5)."""
    scratch = np.empty((2, 7), dtype=np.int64)
    return float(_kernel("_equity")(hole[0], hole[1], np.array(board, dtype=np.int64),
                                    len(board), pairs, seed % 2**32, scratch[0],
                                    scratch[1]))


@dataclass(frozen=True)
class Estimate:
    """Loki's measures from ``pairs`` sampled (holding, runout) pairs: ``ppot`` and
    ``npot`` to the river and ``equity`` estimated, ``hs`` exact (preflop: hs = the
    estimated equity, no potentials)."""

    hs: float
    ppot: float
    npot: float
    equity: float
    pairs: int


def sampled(hole: Iterable[int], board: Iterable[int], weights: Range | None = None,
            pairs: int = SAMPLED_PAIRS, seed: int = 0) -> Estimate:
    """The measures to the river by Monte Carlo: ``pairs`` draws of an opponent holding
    (by weight) with a runout, each ranked once; HS and the status now are exact, from
    the HS table. The equity's standard error is about 0.5 / sqrt(pairs): 0.022 at the default
    500 pairs, about 0.1 ms, where the exact flop potentials rank a million hands. The
    same seed gives the same estimate. Preflop HS is the equity (no hand yet to rank)
    and PPOT = NPOT = 0."""
    hole_t, board_t = _spot(hole, board)
    if pairs < 1:
        raise ValueError(f"pairs must be at least 1, got {pairs}")
    hp = np.zeros((3, 3))
    now = _outcomes(hole_t, board_t, 0).table if board_t else _NO_TABLE
    if _kernel("_sample_pairs")(np.array(hole_t, dtype=np.int64),
                                np.array(board_t, dtype=np.int64), now,
                                _ONES if weights is None else weights.weights, HOLDINGS,
                                pairs, seed, hp) <= 0.0:
        raise ValueError("the range gives weight 0 to every holding the opponent can have")
    if not board_t:
        return Estimate(_win(hp), 0.0, 0.0, _win(hp), pairs)
    exact = _outcomes(hole_t, board_t, 0)
    return Estimate(_strength(_matrix(exact, exact, weights)), *_potentials(hp), _win(hp),
                    pairs)


@lru_cache(maxsize=64)
def _holding_strengths(board: tuple[int, ...], samples: int) -> FloatArray:
    sums = np.zeros(N_HOLDINGS)
    seen = np.zeros(N_HOLDINGS, dtype=np.int64)
    kernel = _kernel("_strength_sums")
    if board:
        kernel(np.array(board, dtype=np.int64), HOLDINGS, sums, seen)
        out = sums / np.maximum(seen, 1)
    else:
        for row in completions((), (), 5, samples, seed=1):
            kernel(row, HOLDINGS, sums, seen)
        out = _by_class(sums, seen)
    out.setflags(write=False)
    return out


def _by_class(sums: FloatArray, seen: IntArray) -> FloatArray:
    """Per-holding means pooled over the 169 starting-hand classes (suits permuted)."""
    a, b = HOLDINGS[:, 0], HOLDINGS[:, 1]
    suited = (a % 4) == (b % 4)
    cls = (b // 4) * 13 + (a // 4) + np.where(suited, 169, 0)  # b's rank >= a's
    total = np.bincount(cls, weights=sums, minlength=338)
    count = np.bincount(cls, weights=seen, minlength=338)
    return np.asarray(total[cls] / count[cls], dtype=np.float64)


def holding_strengths(board: Iterable[int] = ()) -> FloatArray:
    """Each holding's hand strength against a uniform holding on ``board`` (0 for those
    that share a board card): what ``Range.updated`` weighs actions by. Preflop: its
    showdown equity against a uniform holding over ``PREFLOP_STRENGTH_SAMPLES`` seeded
    boards, pooled within its starting-hand class (AA, AKs, AKo, ...)."""
    board_t = check_cards(board, "board")
    if len(board_t) not in (0, 3, 4, 5):
        raise NotationError(" ".join(map(str, board_t)), "a board has 0, 3, 4 or 5 cards")
    return _holding_strengths(board_t, PREFLOP_STRENGTH_SAMPLES)


# -- betting: the ACPC string of heads-up limit hold'em, reverse blinds ---------------------

#: the position that acts first in each round (the button preflop, the big blind after)
FIRST = (BUTTON, BIG, BIG, BIG)


class BettingState(Protocol):
    """What the betting features read: each round's actions so far (``("rc", "r")``),
    the chips each position has put in, the position to move (None: the hand is over)."""

    @property
    def rounds(self) -> tuple[str, ...]: ...
    @property
    def spent(self) -> tuple[int, int]: ...
    @property
    def to_move(self) -> int | None: ...


def to_call(b: BettingState) -> int:
    """Chips the position to move must add to call (0: it may check, or nobody moves)."""
    return 0 if b.to_move is None else max(b.spent) - b.spent[b.to_move]


def bets_this_round(b: BettingState) -> int:
    """Bets made in the current round, 0 to 4 (the big blind counts as one preflop)."""
    return b.rounds[-1].count("r") + (len(b.rounds) == 1)


def bets_to_call(b: BettingState) -> float:
    """``to_call`` in bets of this round: 0, 0.5 (the small blind's first action) or 1."""
    return to_call(b) / BET_SIZE[len(b.rounds) - 1]


def pot_odds(b: BettingState) -> float:
    """The share of the pot after calling that the call costs, ``to_call / (pot +
    to_call)``: the showdown equity a call needs to break even (0: nothing to call)."""
    owed = to_call(b)
    return owed / (sum(b.spent) + owed)


def position(b: BettingState) -> float:
    """1.0 if the position to move is the button (position 1: it acts last on the flop,
    turn and river), 0.0 for the big blind (or nobody)."""
    return 1.0 if b.to_move == 1 else 0.0


@dataclass(frozen=True)
class Counts:
    """A position's actions: folds, calls (and checks), raises (and bets); add hands up
    with ``+``."""

    folds: int = 0
    calls: int = 0
    raises: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.folds + other.folds, self.calls + other.calls,
                      self.raises + other.raises)

    @property
    def aggression(self) -> float:
        """Share of raises among calls and raises, ``(raises + 1) / (calls + raises + 2)``
        (Laplace's rule: 0.5 before any action, always inside (0, 1))."""
        return (self.raises + 1) / (self.calls + self.raises + 2)


def actions(b: BettingState, who: int) -> Counts:
    """Position ``who``'s actions in this hand. Heads-up, turns alternate within a round,
    starting with ``FIRST[round]``."""
    letters = "".join(r[(who - FIRST[i]) % 2::2] for i, r in enumerate(b.rounds))
    return Counts(letters.count("f"), letters.count("c"), letters.count("r"))


def aggression(b: BettingState, who: int) -> float:
    """Position ``who``'s observed aggression in this hand (``Counts.aggression``)."""
    return actions(b, who).aggression


#: board cards seen in each round
BOARD_SEEN = (0, 3, 4, 5)


def opponent_range(betting: str, opponent: int, board: Sequence[int],
                   seen: Iterable[int] = (), reactions: dict[str, Reaction] | None = None,
                   ) -> Range:
    """The opponent's range after the hand's ``betting`` so far: uniform over the holdings
    without a ``seen`` card (our hole cards) or a board card, then ``Range.updated`` by
    each action of position ``opponent`` in turn, against the holdings' strengths on the
    board of that round (``holding_strengths``). ``board`` holds the cards dealt so far."""
    parse_betting(betting)  # the whole string is legal
    board_t = check_cards(board, "board")
    weights = Range.uniform([*check_cards(seen, "seen"), *board_t])
    for i, token in enumerate(betting):
        if token == "/":
            continue
        before = parse_betting(betting[:i])
        if before.to_move != opponent:
            continue
        cards = BOARD_SEEN[before.round]
        if len(board_t) < cards:
            raise NotationError(" ".join(map(str, board_t)),
                                f"round {before.round} needs {cards} board cards")
        weights = weights.updated(token, before.to_call > 0,
                                  holding_strengths(board_t[:cards]), reactions)
    return weights


def observed_aggression(hands: Iterable[tuple[str, int]]) -> float:
    """A player's aggression over many hands, given as (betting string, its position)."""
    total = Counts()
    for text, who in hands:
        total += actions(parse_betting(text), who)
    return total.aggression


__all__ = ["AHEAD", "BEHIND", "TIED", "BettingState", "Counts", "Estimate",
           "Outcomes", "actions", "aggression", "bets_this_round", "bets_to_call",
           "completions", "effective_strength", "equity", "hand_strength",
           "holding_strengths", "observed_aggression", "opponent_range", "outcomes",
           "parse_betting", "position", "pot_odds", "potentials", "sampled", "to_call"]
