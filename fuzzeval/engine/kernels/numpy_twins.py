"""The weighted-average kernels of ``compiled.py`` in numpy, for a process's first grades.

numba's first call in a process costs about a second of CPU (its import, its registries,
the cache lookups; docs/benchmarks.md, start-up), as much as grading some hundred thousand
candidates here. So a process grades with these until that much work is done
(``use_numpy``), then with the compiled kernels: a command advising one hand, or a batch of
a thousand, never loads numba; a match or a tuning run loads it in its first second.

The grades are the compiled kernels', bit for bit (tests/test_startup.py checks it on
thousands of hands and random rule bases): every candidate goes through the same float
operations in the same order, only many candidates at once. The one difference, which of
two equal values min and max return, can only change the sign of a zero, and no register
holds -0.0 (a membership below TINY is +0.0, a NOT of 1 is +0.0). The centroid has no twin
here: a centroid rule base loads the compiled kernels on its first grade.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.kernels import jit
from fuzzeval.engine.kernels.compiled import COPY, MAX, MIN, NOT
from fuzzeval.engine.membership import TINY, FloatArray

IntArray = npt.NDArray[np.intp]

#: work (candidates, plus CALL_ROWS a call) graded with numpy before a process turns to the
#: compiled kernels: about what numba's first call costs, measured (docs/benchmarks.md)
NUMPY_WORK = 200_000
#: a numpy grade's fixed cost in candidates: a small batch costs the compiled kernel little
#: more than its call, and numpy some hundred array operations
CALL_ROWS = 200
#: the program size (instructions and registers) of a candidate counted once: the shipped
#: hand-written bases are smaller (cribbage 112, Hearts 227); numpy runs a program one
#: array operation an instruction, so a larger one (a learned base of thousands of rules)
#: counts its candidates that many times more
PROGRAM_SIZE = 250
_work = 0.0


def use_numpy(rows: int, program_size: int = 0) -> bool:
    """Whether to grade ``rows`` candidates with numpy: numba is not loaded yet and the work
    done so far (this call's included, weighted by ``program_size``) is under
    NUMPY_WORK."""
    global _work
    if jit.loaded():
        return False
    _work += (rows + CALL_ROWS) * max(1.0, program_size / PROGRAM_SIZE)
    return _work <= NUMPY_WORK


def first_nan(xs: FloatArray) -> int:
    """Flat index of the first NaN in ``xs``, or -1 (compiled.first_nan)."""
    bad = np.flatnonzero(np.isnan(xs))
    return int(bad[0]) if bad.size else -1


def registers(xs: FloatArray, col: IntArray, par: FloatArray, prog: IntArray, n_reg: int,
              first: int, weights: FloatArray) -> FloatArray:
    """Every candidate's registers, (n_reg, n), as compiled.fill leaves them."""
    reg = np.zeros((n_reg, xs.shape[0]))
    n_terms = col.size
    d = np.minimum(np.maximum(xs.T[col], par[:, 0:1]), par[:, 1:2]) - par[:, 2:3]
    m = 1.0 - np.maximum(d * par[:, 3:4], d * par[:, 4:5])
    reg[:n_terms] = np.where(m < TINY, 0.0, m)
    for op, dst, a, b in prog.tolist():
        if op == MIN:
            np.minimum(reg[a], reg[b], out=reg[dst])
        elif op == MAX:
            np.maximum(reg[a], reg[b], out=reg[dst])
        elif op == NOT:
            np.subtract(1.0, reg[a], out=reg[dst])
        else:
            assert op == COPY
            reg[dst] = reg[a]
    reg[first:first + weights.size] *= weights[:, None]
    return reg


def grade_wa(xs: FloatArray, col: IntArray, par: FloatArray, prog: IntArray, n_reg: int,
             first: int, weights: FloatArray, values: FloatArray, default: float,
             normalise: bool) -> FloatArray:
    """Weighted-average or weighted-sum grades (compiled.grade_wa), summed in rule order; no
    NaN in ``xs``."""
    s = registers(xs, col, par, prog, n_reg, first, weights)[first:first + weights.size]
    num = np.zeros(xs.shape[0])
    den = np.zeros(xs.shape[0])
    for r in range(weights.size):
        num += s[r] * values[r]
        den += s[r]
    out = np.full(xs.shape[0], default)
    if normalise:
        np.divide(num, den, out=out, where=den > 0)
    else:
        np.copyto(out, num, where=den > 0)
    return out


def strengths(xs: FloatArray, col: IntArray, par: FloatArray, prog: IntArray, n_reg: int,
              first: int, weights: FloatArray, rule_rows: IntArray) -> FloatArray:
    """Rule strengths (n, rules) in file order (compiled.strengths); no NaN in ``xs``."""
    out: FloatArray = registers(xs, col, par, prog, n_reg, first, weights)[rule_rows].T
    return np.ascontiguousarray(out)
