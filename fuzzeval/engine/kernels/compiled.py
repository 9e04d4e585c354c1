"""Every compiled kernel of the engine, in one file: numba's on-disk cache tracks the file
a function is in, not the files of the kernels it calls, so kernels that call each other
live together and a change to one invalidates them all.

Each kernel is a plain function compiled by a call to ``kernel`` (``jit.py``) under
the public name: the plain one is what mutation testing mutates. One candidate at a time,
in a small register file: memberships of the terms the rules read, then rule strengths
grouped by output term, then temporaries.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.kernels.jit import kernel
from fuzzeval.engine.membership import TINY, FloatArray

IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

#: opcodes of a program step (opcode, destination, a, b) over registers
MIN, MAX, NOT, COPY = 0, 1, 2, 3


def _wa_row(s: FloatArray, values: FloatArray, default: float, normalise: bool) -> float:
    """sum_r s_r v_r / sum_r s_r (weighted average) or, not ``normalise``d, sum_r s_r v_r
    (weighted sum) for one candidate's strengths, summed in rule order; ``default`` where
    no rule fires."""
    num = 0.0
    den = 0.0
    for r in range(s.size):
        num += s[r] * values[r]
        den += s[r]
    if den <= 0:
        return default
    return num / den if normalise else num


def _centroid_row(
    act: FloatArray, lo: float, hi: float, peak: FloatArray, rise: FloatArray,
    fall: FloatArray, vertical_rise: BoolArray, vertical_fall: BoolArray, fixed: FloatArray,
    fixed_owner: IntArray, var_base: FloatArray, var_coef: FloatArray, var_term: IntArray,
    var_side: IntArray, default: float, fired: IntArray, moving: FloatArray, y: FloatArray,
) -> float:
    """The exact centroid of max_t min(a_t, mu_t) for one candidate's activations (T,),
    from a CentroidPlan's arrays (fuzzeval/engine/defuzzify.py says how); ``fired``, ``moving``
    and ``y`` are scratch space of T, J and F + J places.

    Only the breakpoints that can be kinks for these activations are visited: the points
    of terms that fired, and where a side reaches a level no higher than its own (a side
    clipped lower never reaches it)."""
    n_fired = 0
    for t in range(act.size):
        if act[t] != act[t]:  # NaN: no centroid
            return default
        if act[t] > 0:
            fired[n_fired] = t
            n_fired += 1
    if n_fired == 0:
        return default
    n_moving = 0  # the level points, sorted as they come
    for j in range(var_base.size):
        level = act[var_term[j]]
        if 0 < level <= act[var_side[j]]:
            v = min(max(level * var_coef[j] + var_base[j], lo), hi)
            k = n_moving
            while k > 0 and moving[k - 1] > v:
                moving[k] = moving[k - 1]
                k -= 1
            moving[k] = v
            n_moving += 1
    n = 0  # merged with the fixed points (sorted already) of the terms that fired
    k = 0
    for i in range(fixed.size):
        a, b = fixed_owner[i, 0], fixed_owner[i, 1]
        if a < 0 or (act[a] > 0 and act[b] > 0):
            while k < n_moving and moving[k] < fixed[i]:
                y[n] = moving[k]
                n += 1
                k += 1
            y[n] = fixed[i]
            n += 1
    while k < n_moving:
        y[n] = moving[k]
        n += 1
        k += 1
    # Linear pieces between breakpoints, f(y) = max_t min(a_t, mu_t(y)) at each:
    # area = sum dy (f0 + f1) / 2, moment = sum dy ((y0 + y1)(f0 + f1) + y0 f0 + y1 f1) / 6.
    area2 = 0.0
    moment6 = 0.0
    y0 = 0.0
    f0 = 0.0
    for k in range(n):
        y1 = y[k]
        f1 = 0.0
        for i in range(n_fired):
            t = fired[i]
            d = y1 - peak[t]
            m = 1.0 - max(d * -rise[t], d * fall[t])
            if (vertical_rise[t] and d < 0) or (vertical_fall[t] and d > 0):
                m = 0.0
            f1 = max(f1, min(m, act[t]))
        if k > 0:
            dy = y1 - y0
            fs = f0 + f1
            area2 += dy * fs
            moment6 += dy * ((y0 + y1) * fs + y0 * f0 + y1 * f1)
        y0 = y1
        f0 = f1
    return moment6 / (3.0 * area2) if area2 > 0 else default


wa_row = kernel(_wa_row)
centroid_row = kernel(_centroid_row)


def _wa_rows(strengths: FloatArray, values: FloatArray, default: float, normalise: bool,
             out: FloatArray) -> None:
    """Weighted averages (or sums) of strengths (n, R)."""
    for i in range(strengths.shape[0]):
        out[i] = wa_row(strengths[i], values, default, normalise)


def _centroid_rows(
    act: FloatArray, lo: float, hi: float, peak: FloatArray, rise: FloatArray,
    fall: FloatArray, vertical_rise: BoolArray, vertical_fall: BoolArray, fixed: FloatArray,
    fixed_owner: IntArray, var_base: FloatArray, var_coef: FloatArray, var_term: IntArray,
    var_side: IntArray, default: float, out: FloatArray,
) -> None:
    """Centroids of activations (n, T)."""
    fired = np.empty(peak.size, dtype=np.intp)
    moving = np.empty(var_base.size)
    y = np.empty(fixed.size + var_base.size)
    for i in range(act.shape[0]):
        out[i] = centroid_row(act[i], lo, hi, peak, rise, fall, vertical_rise, vertical_fall,
                              fixed, fixed_owner, var_base, var_coef, var_term, var_side,
                              default, fired, moving, y)


def _first_nan(xs: FloatArray) -> int:
    """Flat index of the first NaN in ``xs``, or -1."""
    flat = xs.ravel()
    for k in range(flat.size):
        if flat[k] != flat[k]:
            return k
    return -1


def _memberships(x: FloatArray, reg: FloatArray, col: IntArray, par: FloatArray) -> None:
    """The memberships of one candidate's terms into ``reg[:col.size]``: each input
    clipped to its variable's range (``par`` rows as ``fill`` reads them)."""
    for t in range(col.size):
        d = min(max(x[col[t]], par[t, 0]), par[t, 1]) - par[t, 2]
        m = 1.0 - max(d * par[t, 3], d * par[t, 4])
        # Rounding in (x - peak) * slope can leave ~1e-16 at a foot; a foot is 0.
        reg[t] = 0.0 if m < TINY else m


memberships = kernel(_memberships)


def _fill(x: FloatArray, reg: FloatArray, col: IntArray, par: FloatArray, prog: IntArray,
          first: int, weights: FloatArray) -> None:
    """The registers for one candidate: memberships, the program, the rule weights.

    ``par`` rows: the range of the term's variable (inputs are clipped to it), its peak,
    minus the slope of its rising side, the slope of its falling side.
    """
    memberships(x, reg, col, par)
    for k in range(prog.shape[0]):
        op, dst, a, b = prog[k, 0], prog[k, 1], prog[k, 2], prog[k, 3]
        if op == MIN:
            reg[dst] = min(reg[a], reg[b])
        elif op == MAX:
            reg[dst] = max(reg[a], reg[b])
        elif op == NOT:
            reg[dst] = 1.0 - reg[a]
        else:
            reg[dst] = reg[a]
    for r in range(weights.size):
        reg[first + r] *= weights[r]


def _grade_flat(xs: FloatArray, out: FloatArray, col: IntArray, par: FloatArray,
                atoms: IntArray, segments: IntArray, weights: FloatArray, values: FloatArray,
                default: float, normalise: bool) -> int:
    """``grade_wa`` for a base whose every rule is one term or an ``and`` of terms (the
    learned conjunction bases): the same numbers to the bit, with neither a program to
    interpret nor a branch a rule. ``atoms`` (rules, most atoms but at least three): each
    rule's term registers in strength-register order, a shorter rule's first repeated.
    ``segments`` (start, stop, register): runs of rules that all begin with that term, skipped whole
    where its membership is 0 (each of their strengths would be 0, adding nothing); a
    register of -1: rules always run."""
    bad = first_nan(xs)
    if bad >= 0:
        return bad
    reg = np.zeros(col.size)
    width = atoms.shape[1]
    for i in range(xs.shape[0]):
        memberships(xs[i], reg, col, par)
        num = 0.0
        den = 0.0
        for g in range(segments.shape[0]):
            if segments[g, 2] >= 0 and min(reg[segments[g, 2]], reg[segments[g, 3]]) == 0.0:
                continue
            for r in range(segments[g, 0], segments[g, 1]):
                # at least three atoms a rule (``Evaluator.flat``): the three unrolled are a
                # third faster than a loop over them
                s = min(min(reg[atoms[r, 0]], reg[atoms[r, 1]]), reg[atoms[r, 2]])
                for k in range(3, width):
                    s = min(s, reg[atoms[r, k]])
                s *= weights[r]
                num += s * values[r]
                den += s
        if den <= 0:
            out[i] = default
        else:
            out[i] = num / den if normalise else num
    return -1


first_nan = kernel(_first_nan)
fill = kernel(_fill)


def _grade_wa(xs: FloatArray, out: FloatArray, col: IntArray, par: FloatArray,
              prog: IntArray, n_reg: int, first: int, weights: FloatArray,
              values: FloatArray, default: float, normalise: bool) -> int:
    """Weighted-average (or, not ``normalise``d, weighted-sum) grades of candidates ``xs``
    into ``out``; the flat index of the first NaN input instead (nothing graded), or -1."""
    bad = first_nan(xs)
    if bad >= 0:
        return bad
    reg = np.zeros(n_reg)
    for i in range(xs.shape[0]):
        fill(xs[i], reg, col, par, prog, first, weights)
        out[i] = wa_row(reg[first:first + weights.size], values, default, normalise)
    return -1


def _grade_centroid(
    xs: FloatArray, out: FloatArray, col: IntArray, par: FloatArray, prog: IntArray,
    n_reg: int, first: int, weights: FloatArray, groups: IntArray, lo: float, hi: float,
    peak: FloatArray, rise: FloatArray, fall: FloatArray, vertical_rise: BoolArray,
    vertical_fall: BoolArray, fixed: FloatArray, fixed_owner: IntArray, var_base: FloatArray,
    var_coef: FloatArray, var_term: IntArray, var_side: IntArray, default: float,
) -> int:
    """Centroid grades, as ``grade_wa``; an output term's activation is the largest
    strength of its rules (``groups``: where each term's strength registers start)."""
    bad = first_nan(xs)
    if bad >= 0:
        return bad
    reg = np.zeros(n_reg)
    act = np.zeros(groups.size)
    fired = np.empty(peak.size, dtype=np.intp)
    moving = np.empty(var_base.size)
    y = np.empty(fixed.size + var_base.size)
    for i in range(xs.shape[0]):
        fill(xs[i], reg, col, par, prog, first, weights)
        for g in range(groups.size):
            stop = groups[g + 1] if g + 1 < groups.size else weights.size
            a = 0.0
            for r in range(groups[g], stop):
                a = max(a, reg[first + r])
            act[g] = a
        out[i] = centroid_row(act, lo, hi, peak, rise, fall, vertical_rise, vertical_fall,
                              fixed, fixed_owner, var_base, var_coef, var_term, var_side,
                              default, fired, moving, y)
    return -1


def _strengths(xs: FloatArray, out: FloatArray, col: IntArray, par: FloatArray,
               prog: IntArray, n_reg: int, first: int, weights: FloatArray,
               rule_rows: IntArray) -> int:
    """Rule strengths (n, rules) in file order (``rule_rows``: each rule's register)."""
    bad = first_nan(xs)
    if bad >= 0:
        return bad
    reg = np.zeros(n_reg)
    for i in range(xs.shape[0]):
        fill(xs[i], reg, col, par, prog, first, weights)
        for r in range(rule_rows.size):
            out[i, r] = reg[rule_rows[r]]
    return -1


wa_rows = kernel(_wa_rows)
centroid_rows = kernel(_centroid_rows)
grade_wa = kernel(_grade_wa)
grade_flat = kernel(_grade_flat)
grade_centroid = kernel(_grade_centroid)
strengths = kernel(_strengths)
