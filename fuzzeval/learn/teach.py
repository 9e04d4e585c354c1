"""Teach a weighted-average rule base the preferences of a stronger player.

With the weighted-average defuzzifier a grade is ``sum_r s_r c_r / sum_r s_r``: linear in
the rules' consequent values ``c_r`` once the firing strengths ``s_r`` are known. A player
only compares the candidates of one decision, so ``c`` is fitted either to imitate the
teacher's choices (``fit_choices``: softmax cross-entropy within each decision) or by least
squares to the teacher's values after subtracting each decision's mean from both sides
(``Normal``). Then the conclusions become named terms: the terms' values are placed where
the fitted values cluster (``taught_levels``); each rule takes a term, the largest first,
the others refitted after each move (``snap_to_terms``), so the rounding of one rule is made
up by the rest; and each term may step up or down while that imitates the teacher's choices
better (``refine_choices``). Every rule still reads "... then Grade is Good3".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.evaluator import Evaluator

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


def firing_shares(evaluator: Evaluator, x: npt.ArrayLike) -> FloatArray:
    """Each rule's share of the total firing strength (n, rules); rows sum to 1 (0 when
    nothing fires). The grade is ``shares @ values``."""
    s = evaluator.strengths(x)
    total = s.sum(axis=1, keepdims=True)
    out: FloatArray = np.divide(s, total, out=np.zeros_like(s), where=total > 0)
    return out


def _centred(a: FloatArray, groups: IntArray) -> FloatArray:
    """Subtract each decision's mean from its rows."""
    counts = np.bincount(groups).astype(np.float64)
    counts[counts == 0] = 1.0
    if a.ndim == 1:
        out1: FloatArray = a - (np.bincount(groups, a) / counts)[groups]
        return out1
    sums = np.zeros((counts.size, a.shape[1]))
    np.add.at(sums, groups, a)
    out: FloatArray = a - (sums / counts[:, None])[groups]
    return out


@dataclass(frozen=True)
class Normal:
    """The normal equations of the centred least-squares problem (all one needs to refit).
    Built per chunk of whole decisions and added up, so the data need not fit in memory."""

    gram: FloatArray  # (rules, rules)
    rhs: FloatArray  # (rules,)
    yy: float  # sum of squared centred targets
    ridge: float = 1e-3

    @classmethod
    def build(cls, shares: FloatArray, groups: npt.ArrayLike, target: npt.ArrayLike,
              ridge: float = 1e-3, weight: npt.ArrayLike | None = None) -> Normal:
        """``weight`` (per row) lets the candidates that matter count more, e.g. the plays
        close to the teacher's best, which are the ones a player must tell apart."""
        g = np.asarray(groups, dtype=np.intp)
        g = g - g.min() if g.size else g
        a = _centred(np.asarray(shares, dtype=np.float64), g)
        y = _centred(np.asarray(target, dtype=np.float64), g)
        w = np.ones(y.size) if weight is None else np.asarray(weight, dtype=np.float64)
        aw = a * w[:, None]
        return cls(aw.T @ a, aw.T @ y, float(y @ (w * y)), ridge)

    def __add__(self, other: Normal) -> Normal:
        """Both chunks' equations (decisions must not be split between chunks)."""
        return Normal(self.gram + other.gram, self.rhs + other.rhs, self.yy + other.yy,
                      self.ridge)

    def solve(self, fixed: Mapping[int, float]) -> FloatArray:
        """Best values with the rules in ``fixed`` held at their values."""
        n = self.rhs.size
        values = np.zeros(n)
        held = np.zeros(n, dtype=bool)
        for i, v in fixed.items():
            values[i], held[i] = v, True
        free = ~held
        gram = self.gram + self.ridge * np.eye(n)
        if free.any():
            rhs = self.rhs[free] - gram[np.ix_(free, held)] @ values[held]
            values[free] = np.linalg.solve(gram[np.ix_(free, free)], rhs)
        return values

    def residual(self, values: FloatArray) -> float:
        """Sum of squared centred errors (with the ridge term) of ``values``."""
        gram = self.gram + self.ridge * np.eye(self.rhs.size)
        return float(values @ gram @ values - 2 * values @ self.rhs + self.yy)


def snap_to_terms(normal: Normal, term_values: Sequence[float],
                  fixed: Mapping[int, int] | None = None,
                  scales: Sequence[float] | None = None) -> tuple[IntArray, float]:
    """An output term (index into ``term_values``) for every rule, and the scale at which
    ``scale * term_values`` best fits the teacher. ``fixed`` maps rules to terms they keep.
    Each scale is tried; rules are snapped largest first, the rest refitted after each."""
    levels = np.asarray(term_values, dtype=np.float64)
    keep = dict(fixed or {})
    if scales is None:  # around the scale at which the free fit fills the terms
        top = float(np.abs(normal.solve({})).max()) / max(float(np.abs(levels).max()), 1e-12)
        scales = [top * f for f in np.geomspace(0.25, 2.0, 13)]
    best: tuple[float, IntArray, float] | None = None
    for scale in scales:
        terms = np.full(normal.rhs.size, -1, dtype=np.intp)
        for i, t in keep.items():
            terms[i] = t
        while (terms < 0).any():
            held = {i: scale * levels[t] for i, t in enumerate(terms) if t >= 0}
            values = normal.solve(held)
            open_ = np.where(terms < 0)[0]
            i = open_[np.argmax(np.abs(values[open_]))]
            terms[i] = int(np.abs(values[i] / scale - levels).argmin())
        err = normal.residual(scale * levels[terms])
        if best is None or err < best[0]:
            best = (err, terms, float(scale))
    assert best is not None
    return best[1], best[2]


def _group_softmax(z: FloatArray, groups: IntArray) -> FloatArray:
    top = np.full(int(groups.max()) + 1, -np.inf)
    np.maximum.at(top, groups, z)
    e = np.exp(z - top[groups])
    out: FloatArray = e / np.bincount(groups, e)[groups]
    return out


def fit_choices(shares: npt.NDArray[np.floating], groups: npt.ArrayLike, target: npt.ArrayLike,
                temperature: float = 0.02, sharpness: float = 100.0,
                fixed: Sequence[int] = (), iterations: int = 300) -> FloatArray:
    """Consequent values whose choices imitate the teacher's: within each decision the
    student's softmax of ``sharpness * grade`` is fitted (cross-entropy, L-BFGS) to the
    teacher's softmax of ``target / temperature``. This weighs what a player does — pick
    one play — rather than equity differences between plays nobody would pick. Rules in
    ``fixed`` stay at 0."""
    from scipy.optimize import minimize  # type: ignore[import-untyped]

    g = np.asarray(groups, dtype=np.intp)
    s = np.asarray(shares, dtype=np.float32)
    q = _group_softmax(np.asarray(target, dtype=np.float64) / temperature, g)
    n_dec = int(g.max()) + 1
    free = np.setdiff1d(np.arange(s.shape[1]), np.asarray(fixed, dtype=np.intp))

    def loss(v: FloatArray) -> tuple[float, FloatArray]:
        c = np.zeros(s.shape[1], dtype=np.float32)
        c[free] = v
        p = _group_softmax(sharpness * (s @ c).astype(np.float64), g)
        grad = sharpness * (s.T @ (p - q).astype(np.float32)).astype(np.float64) / n_dec
        value = -float(q @ np.log(p + 1e-300)) / n_dec + 1e-6 * float(v @ v)
        return value, grad[free] + 2e-6 * v

    found = minimize(loss, np.zeros(free.size), jac=True, method="L-BFGS-B",
                     options={"maxiter": iterations})
    values = np.zeros(s.shape[1])
    values[free] = found.x
    return values


def taught_levels(values: npt.ArrayLike, per_side: int, iterations: int = 100) -> FloatArray:
    """Output-term values for fitted conclusions: 0, and ``per_side`` values each side of
    it placed by one-dimensional k-means on the positive and on the negative conclusions,
    scaled so the largest is 1 (a side with no conclusions gets none). Fixed steps (1, 2,
    3, 4, 6, ... / 32) rounded the spread of taught conclusions (over two orders of
    magnitude) too coarsely at both ends."""
    v = np.asarray(values, dtype=np.float64)
    sides = []
    for side in (-v[v < 0], v[v > 0]):
        if side.size == 0:
            sides.append(np.zeros(0))
            continue
        k = min(per_side, np.unique(side).size)
        centres = np.quantile(side, (np.arange(k) + 0.5) / k)
        for _ in range(iterations):
            nearest = np.abs(side[:, None] - centres[None, :]).argmin(axis=1)
            moved = np.array([side[nearest == j].mean() if (nearest == j).any() else centres[j]
                              for j in range(k)])
            if np.allclose(moved, centres):
                break
            centres = moved
        sides.append(np.sort(centres))
    top = max((float(s.max()) for s in sides if s.size), default=1.0)
    out: FloatArray = np.concatenate([-sides[0][::-1], [0.0], sides[1]]) / top
    return out


def refine_choices(shares: npt.NDArray[np.floating], groups: npt.ArrayLike,
                   target: npt.ArrayLike, terms: npt.ArrayLike, term_values: npt.ArrayLike,
                   temperature: float = 0.02, sharpness: float = 100.0,
                   fixed: Sequence[int] = (), passes: int = 4) -> IntArray:
    """Terms after coordinate descent on ``fit_choices``' cross-entropy: each free rule in
    turn moves one term up or down when that imitates the teacher's choices better. Least
    squares rounding (``snap_to_terms``) keeps the grades close to the fit everywhere; this
    keeps the choices close, which is what a player needs. Only the decisions a rule fires
    in are recomputed for it. ``groups`` must list each decision's rows together;
    ``term_values`` are at the fit's scale (``scale * values`` of ``snap_to_terms``)."""
    g = np.asarray(groups, dtype=np.intp)
    s = np.asarray(shares, dtype=np.float32)
    levels = np.asarray(term_values, dtype=np.float64)
    out = np.asarray(terms, dtype=np.intp).copy()
    q = _group_softmax(np.asarray(target, dtype=np.float64) / temperature, g)
    z = sharpness * (s @ levels[out].astype(np.float32)).astype(np.float64)
    starts = np.flatnonzero(np.r_[True, np.diff(g) != 0])
    ends = np.r_[starts[1:], g.size]
    keep = set(int(i) for i in fixed)

    def loss(rows: IntArray, zz: FloatArray, local: IntArray) -> float:
        p = _group_softmax(zz, local)
        return -float(q[rows] @ np.log(p + 1e-300))

    def best_move(r: int) -> tuple[float, int, IntArray, FloatArray]:
        """The gain of rule r's best one-term step, that term, and its rows and column."""
        touched = np.unique(g[s[:, r] > 0])
        if touched.size == 0:  # a rule that fires in no decision: no step changes a thing
            return 0.0, int(out[r]), np.zeros(0, dtype=np.intp), np.zeros(0)
        first = np.searchsorted(g[starts], touched)
        lengths = ends[first] - starts[first]
        rows = np.repeat(starts[first] - np.cumsum(np.r_[0, lengths[:-1]]), lengths) + \
            np.arange(int(lengths.sum()))
        local = np.repeat(np.arange(touched.size), lengths)
        col = sharpness * s[rows, r].astype(np.float64)
        now, gain, pick = loss(rows, z[rows], local), 0.0, int(out[r])
        for t in (pick - 1, pick + 1):
            if 0 <= t < levels.size:
                trial = now - loss(rows, z[rows] + col * (levels[t] - levels[out[r]]), local)
                if trial > gain + 1e-12:
                    gain, pick = trial, t
        return gain, pick, rows, col

    free = [r for r in range(s.shape[1]) if r not in keep]
    for _ in range(passes):
        # Largest gain first, each step checked again when its turn comes: in plain rule
        # order one rule would make up for another's wrong term and both would stay wrong.
        order = sorted(free, key=lambda r: -best_move(r)[0])
        changed = False
        for r in order:
            gain, pick, rows, col = best_move(r)
            if gain > 0:
                z[rows] += col * (levels[pick] - levels[out[r]])
                out[r], changed = pick, True
        if not changed:
            break
    return out
