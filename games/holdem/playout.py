"""Compiled playouts of the hold'em sampling player: Billings et al. (1999)'s simulations with
the fuzzy triple in both seats, fast enough for 500 trials a decision.

One call simulates a batch of trials of one decision. Each trial draws the opponent's two
cards from its modelled range (the ``cdf`` of the holdings' probabilities, made once per
decision by ``sampling.determinized``'s range) and the rest of the board uniformly, then
plays every candidate action out from the same draw with the same random stream (common
random numbers): at each later decision the mover's legal actions are graded by the rule
base (``fuzzeval.engine.kernels.compiled``' ``fill`` and ``wa_row``, the engine's own
compiled steps), the grades become the triple by the softmax of ``fuzzy.triple`` and one
uniform number draws the action, as ``players.draw`` does. A trial is worth the chips the
deciding position wins in the hand, in small bets.

**Strength in a playout.** The live feature (``features.hand_strength``) estimates the
showdown equity against any holding from 300 sampled (runout, holding) pairs after the
flop: about 30 us, a third of a trial's budget, needed up to six times a trial. A playout
reads the same number preflop (the live feature's table of 169 classes) and after the
flop the same estimator with ``PLAYOUT_PAIRS`` pairs: only the noise differs. Each seat's
strength is estimated once a round of a trial, from its own cards and the board it sees,
never the cards it cannot see, and shared by the trial's candidates. This is the paper's
"simple, fast routine for ProbTriple()" in its simulations.

Random numbers come from Marsaglia's xorshift32 (``_next``), each stream seeded through a
32-bit hash from a number the caller's generator draws for the trial, so the plain-Python source and
the compiled code draw the same numbers (tests compare them) and a trial's strengths do not
disturb its playout stream.
"""

from __future__ import annotations

import types
from functools import cache
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.evaluator import Evaluator
from fuzzeval.engine.kernels.compiled import fill, wa_row
from fuzzeval.engine.kernels.jit import Kernel
from fuzzeval.games.holdem import strength as S
from fuzzeval.games.holdem.features import FEATURE_NAMES, preflop_strength
from fuzzeval.games.holdem.players import Decision
from fuzzeval.games.holdem.range import HOLDINGS
from fuzzeval.games.holdem.rules import BET_SIZE, BOARD_SIZE, Betting
from fuzzeval.search.sampling import Simulator

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: (holding, runout) pairs of a playout's strength estimate after the flop: standard
#: error about 0.5 / sqrt(PAIRS) = 0.07; the live feature's is 0.03 (docs/holdem.md)
PLAYOUT_PAIRS = 48
_M32 = 0xFFFFFFFF
_mix = S._mix
_next = S._next
_card = S._card
_equity = S._equity
_first_above = S._first_above
#: the betting state's slots (an int64 array): chips in by position, the round, actions
#: this round, bets this round, the position to move (-1: over), the position that
#: folded (-1: none), calls and raises of each position this hand
SPENT0, SPENT1, ROUND, NACT, BETS, MOVER, FOLDED, CALLS0, CALLS1, RAISES0, RAISES1 = range(11)
SLOTS = 11
#: the feature columns the kernel writes, in the order of ``features.FEATURES``
COLUMNS = ("strength", "pot_odds", "to_call", "bets", "position", "round", "aggression",
           "action")
# phevaluator's evaluator; in compiled code, its C function
_eval7: Any = S._eval7


def _uniform(x: int) -> float:
    """A number in [0, 1) from a state."""
    return x / 4294967296.0


def _rank7(a: int, b: int, board: IntArray) -> int:
    """phevaluator's rank of two hole cards and a five-card board (smaller is stronger)."""
    return int(_eval7(a, b, board[0], board[1], board[2], board[3], board[4]))


def _act(bet: IntArray, action: int) -> None:
    """Apply an action (0 fold, 1 check or call, 2 bet or raise) to the betting ``bet``,
    as ``rules.act`` does."""
    me = bet[MOVER]
    if action == 0:
        bet[FOLDED] = me
        bet[MOVER] = -1
        return
    top = max(bet[SPENT0], bet[SPENT1])
    bet[NACT] += 1
    if action == 2:
        bet[SPENT0 + me] = top + BET_SIZE[bet[ROUND]]
        bet[BETS] += 1
        bet[RAISES0 + me] += 1
        bet[MOVER] = 1 - me
        return
    bet[SPENT0 + me] = top
    bet[CALLS0 + me] += 1
    if bet[NACT] == 1:  # the first action of a round does not close it
        bet[MOVER] = 1 - me
    elif bet[ROUND] == 3:
        bet[MOVER] = -1
    else:
        bet[ROUND] += 1
        bet[NACT] = 0
        bet[BETS] = 0
        bet[MOVER] = 0  # the big blind opens the flop, turn and river


def _chips(bet: IntArray, holes: IntArray, board: IntArray, position: int) -> float:
    """What ``position`` wins in the finished hand ``bet``, in small bets."""
    folded = bet[FOLDED]
    if folded >= 0:
        lost = float(bet[SPENT0 + folded])
        return -lost / 10.0 if folded == position else lost / 10.0
    r0 = _rank7(holes[0, 0], holes[0, 1], board)
    r1 = _rank7(holes[1, 0], holes[1, 1], board)
    if r0 == r1:
        return 0.0
    won = float(bet[SPENT0]) / 10.0
    return won if (r0 < r1) == (position == 0) else -won


def _playout(bet: IntArray, holes: IntArray, board: IntArray, position: int, seed: int,
             strengths: FloatArray, strength_seed: int, pre: FloatArray, pairs: int,
             temperature: float, x: FloatArray, grades: FloatArray, scratch: IntArray,
             reg: FloatArray, col: IntArray, par: FloatArray, prog: IntArray, first: int,
             weights: FloatArray, values: FloatArray, default: float, normalise: bool
             ) -> float:
    """Play the hand ``bet`` to its end with the fuzzy triple in both seats; what
    ``position`` wins, in small bets. ``strengths[p, r]`` caches each position's strength
    per round for the trial (negative: not yet estimated)."""
    state = seed
    while bet[MOVER] >= 0:
        me = bet[MOVER]
        rnd = bet[ROUND]
        if strengths[me, rnd] < 0:
            if rnd == 0:
                strengths[me, rnd] = pre[holes[me, 0], holes[me, 1]]
            else:
                strengths[me, rnd] = _equity(holes[me, 0], holes[me, 1], board,
                                             BOARD_SIZE[rnd], pairs,
                                             (strength_seed + 8 * me + rnd) & _M32,
                                             scratch[0], scratch[1])
        owed = abs(bet[SPENT0] - bet[SPENT1])
        x[0] = strengths[me, rnd]
        x[1] = owed / (bet[SPENT0] + bet[SPENT1] + owed)
        x[2] = owed / BET_SIZE[rnd]
        x[3] = bet[BETS]
        x[4] = 1.0 if me == 1 else 0.0
        x[5] = rnd
        x[6] = (bet[RAISES0 + 1 - me] + 1.0) / (bet[CALLS0 + 1 - me]
                                               + bet[RAISES0 + 1 - me] + 2.0)
        lowest = 0 if owed > 0 else 1
        highest = 2 if bet[BETS] < 4 else 1
        top = -1e300
        for a in range(lowest, highest + 1):
            x[7] = a
            fill(x, reg, col, par, prog, first, weights)
            g = wa_row(reg[first:first + weights.size], values, default, normalise)
            grades[a] = g
            top = max(top, g)
        total = 0.0
        for a in range(lowest, highest + 1):
            grades[a] = np.exp((grades[a] - top) / temperature)
            total += grades[a]
        state = _next(state)
        u = _uniform(state) * total
        choice = highest
        for a in range(lowest, highest):
            u -= grades[a]
            if u < 0:
                choice = a
                break
        _act(bet, choice)
    return _chips(bet, holes, board, position)


def _simulate(root: IntArray, actions: IntArray, position: int, hole: IntArray,
              known: IntArray, cdf: FloatArray, holdings: IntArray, seeds: IntArray,
              pre: FloatArray, pairs: int, temperature: float, out: FloatArray,
              col: IntArray, par: FloatArray, prog: IntArray, n_reg: int, first: int,
              weights: FloatArray, values: FloatArray, default: float, normalise: bool
              ) -> None:
    """``out[t, c]``: the value of candidate ``actions[c]`` in trial t, one trial per seed.
    ``root`` is the betting now, ``hole`` the deciding ``position``'s cards, ``known`` the
    board so far; the other position's cards come from ``cdf`` over ``holdings``."""
    bet = np.empty(SLOTS, dtype=np.int64)
    holes = np.empty((2, 2), dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    strengths = np.empty((2, 4))
    x = np.empty(8)
    grades = np.empty(3)
    scratch = np.empty((2, 7), dtype=np.int64)
    reg = np.zeros(n_reg)
    total = cdf[cdf.size - 1]
    holes[position, 0] = hole[0]
    holes[position, 1] = hole[1]
    for t in range(seeds.size):
        state = _mix(seeds[t])
        lo = _first_above(cdf, _uniform(state) * total)
        holes[1 - position, 0] = holdings[lo, 0]
        holes[1 - position, 1] = holdings[lo, 1]
        used = (1 << hole[0]) | (1 << hole[1]) | (1 << holdings[lo, 0]) \
            | (1 << holdings[lo, 1])
        for i in range(known.size):
            board[i] = known[i]
            used |= 1 << known[i]
        for i in range(known.size, 5):
            state, c = _card(state, used)
            used |= 1 << c
            board[i] = c
        for i in range(8):
            strengths[i // 4, i % 4] = -1.0
        for c in range(actions.size):
            for i in range(SLOTS):
                bet[i] = root[i]
            _act(bet, actions[c])
            out[t, c] = _playout(bet, holes, board, position, _mix(seeds[t] ^ 0x5BD1E995),
                                 strengths, seeds[t] ^ 0x1B873593, pre, pairs, temperature, x,
                                 grades, scratch, reg, col, par, prog, first, weights,
                                 values, default, normalise)


_PLAIN = ("_uniform", "_rank7", "_act", "_chips", "_playout", "_simulate")


@cache
def _compiled() -> dict[str, Any]:
    """The functions above compiled by numba in call order, each seeing the compiled
    forms of those it calls (phevaluator's C evaluator, the engine's kernels)."""
    import numba

    base = S._compiled()
    scope: dict[str, Any] = {"_eval7": base["_eval7"], "_mix": base["_mix"],
                             "_next": base["_next"], "_card": base["_card"],
                             "_equity": base["_equity"], "_first_above": base["_first_above"],
                             "fill": cast(Kernel, fill).dispatcher(),
                             "wa_row": cast(Kernel, wa_row).dispatcher()}
    for name in _PLAIN:
        fn = globals()[name]
        copy = types.FunctionType(fn.__code__, {**fn.__globals__, **scope}, fn.__name__)
        scope[name] = S._njit(numba, copy)
    return scope


def _kernel(name: str) -> Any:
    return _compiled()[name]


@cache
def preflop_table() -> FloatArray:
    """The live ``strength`` feature preflop for every ordered pair of hole cards (the
    table of its 169 classes)."""
    pre = np.zeros((52, 52))
    for a in range(52):
        for b in range(52):
            if a != b:
                pre[a, b] = preflop_strength((a, b))
    pre.setflags(write=False)
    return pre


def root_betting(b: Betting) -> IntArray:
    """The compiled playout's betting state (``SLOTS``) of a hand in progress."""
    counts = (S.actions(b, 0), S.actions(b, 1))
    return np.array([b.spent[0], b.spent[1], b.round, len(b.rounds[-1]), b.bets,
                     -1 if b.to_move is None else b.to_move,
                     -1 if b.folded is None else b.folded, counts[0].calls,
                     counts[1].calls, counts[0].raises, counts[1].raises], dtype=np.int64)


def can_compile(evaluator: Evaluator) -> bool:
    """Whether playouts with this rule base compile: a singleton conclusion (weighted
    average or sum) over hold'em features; centroid bases play out in Python."""
    return (evaluator.plan is None and FEATURE_NAMES == COLUMNS
            and all(n in FEATURE_NAMES for n in evaluator.input_names))


def compiled_simulator(d: Decision, evaluator: Evaluator, temperature: float,
                       probabilities: FloatArray, pairs: int = PLAYOUT_PAIRS) -> Simulator:
    """The simulator of decision ``d``: the opponent's holdings drawn by ``probabilities``
    (over ``HOLDINGS``), playouts by the fuzzy triple of ``evaluator`` at ``temperature``
    in both seats."""
    if not can_compile(evaluator):
        raise ValueError("compiled playouts need a weighted-average or weighted-sum rule "
                         "base over hold'em features")
    col = np.array([FEATURE_NAMES.index(evaluator.input_names[c])
                    for c in evaluator.term_col], dtype=np.intp)
    cdf = np.cumsum(probabilities)
    root = root_betting(d.betting)
    codes = np.array(["fcr".index(a) for a in d.actions], dtype=np.int64)
    hole = np.array(d.hole, dtype=np.int64)
    known = np.array(d.board, dtype=np.int64)
    pre = preflop_table()
    run = _kernel("_simulate")
    _, par, prog, n_reg, first, weights = evaluator._program()
    default = float(evaluator.rulebase.default)

    def simulator(n: int, rng: np.random.Generator) -> FloatArray:
        out = np.empty((n, codes.size))
        seeds = rng.integers(0, 2**32, size=n, dtype=np.int64)
        run(root, codes, d.position, hole, known, cdf, HOLDINGS, seeds, pre, pairs,
            temperature, out, col, par, prog, n_reg, first, weights, evaluator.values,
            default, evaluator.normalise)
        return out

    return simulator
