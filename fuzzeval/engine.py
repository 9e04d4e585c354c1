"""compile_rulebase(rb) -> Evaluator: the rule base as immutable numpy arrays and a
tiny register program, so one call grades every candidate.

Layout: memberships and rule strengths are rows (one per term or rule) over a
chunk of candidates, so every step is a contiguous numpy operation on a chunk
that stays in cache.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.defuzzify import CentroidPlan, centroid, plan_centroid, weighted_average
from fuzzeval.membership import TINY, FloatArray, side_slopes
from fuzzeval.rulebase import And, Condition, Is, Not, RuleBase

CHUNK = 1024

_MIN, _MAX, _NOT, _COPY = 0, 1, 2, 3
Op = tuple[int, int, int, int]  # (opcode, destination, a, b) over workspace rows
IntArray = npt.NDArray[np.intp]
#: one opcode over many rows: (opcode, dst, a, b as arrays, the same steps as ints)
Wave = tuple[int, IntArray, IntArray, IntArray, tuple[tuple[int, int, int], ...]]
GATHER = 8  # from this many steps a wave gathers its rows; below, row by row is quicker


def _frozen(a: npt.ArrayLike, dtype: Any = np.float64) -> Any:
    arr = np.array(a, dtype=dtype)
    arr.flags.writeable = False
    return arr


@dataclass(frozen=True)
class RuleFiring:
    index: int
    text: str
    output_term: str
    weight: float
    strength: float  # weight x degree of fulfilment of the condition


@dataclass(frozen=True)
class Explanation:
    """Every intermediate number behind one grade, as data."""

    inputs: dict[str, float]  # as given
    used: dict[str, float]  # after clipping to each variable's range
    clipped: tuple[str, ...]  # names of the inputs that were outside their range
    memberships: dict[str, dict[str, float]]  # variable -> term -> membership
    rules: tuple[RuleFiring, ...]
    activations: dict[str, float]  # output term -> max strength of its rules
    grade: float
    fired: bool  # False: no rule fired and the grade is the rule base's default

    def to_dict(self) -> dict[str, Any]:
        return {
            "inputs": self.inputs,
            "used": self.used,
            "clipped": list(self.clipped),
            "memberships": self.memberships,
            "rules": [r.__dict__ for r in self.rules],
            "activations": self.activations,
            "grade": self.grade,
            "fired": self.fired,
        }


@dataclass(frozen=True, eq=False)
class Evaluator:
    """A compiled rule base. ``grade`` is pure; nothing is cached on the instance."""

    rulebase: RuleBase
    input_names: tuple[str, ...]
    lo: FloatArray
    hi: FloatArray
    term_keys: tuple[tuple[str, str], ...]  # (variable, term) of each membership row
    term_col: npt.NDArray[np.intp]
    term_lo: FloatArray  # (terms, 1): the range of each term's variable, for clipping
    term_hi: FloatArray
    peak: FloatArray
    neg_rise: FloatArray
    fall: FloatArray
    program: tuple[Wave, ...]
    n_registers: int
    rule_rows: npt.NDArray[np.intp]  # workspace row of each rule's strength (file order)
    weights: FloatArray | None  # per strength row, None when all are 1
    values: FloatArray  # output term peak per strength row (weighted average)
    groups: npt.NDArray[np.intp]  # strength rows are grouped by output term; group starts
    plan: CentroidPlan | None

    @property
    def n_inputs(self) -> int:
        return len(self.input_names)

    def grade(self, x: npt.ArrayLike) -> FloatArray:
        """Grades of candidates ``x`` of shape (n, n_inputs), columns in ``input_names`` order."""
        xs = self._check(x)
        out = np.empty(xs.shape[0], dtype=np.float64)
        for start in range(0, xs.shape[0], CHUNK):
            stop = min(start + CHUNK, xs.shape[0])
            work = self._forward(xs[start:stop])
            out[start:stop] = self._defuzzify(work)
        return out

    def strengths(self, x: npt.ArrayLike) -> FloatArray:
        """Firing strength of every rule (n, rules), rules in file order, weights applied."""
        xs = self._check(x)
        out = np.empty((xs.shape[0], len(self.rulebase.rules)), dtype=np.float64)
        rows = self._strength_index()
        for start in range(0, xs.shape[0], CHUNK):
            stop = min(start + CHUNK, xs.shape[0])
            out[start:stop] = self._strengths(self._forward(xs[start:stop]))[rows].T
        return out

    def explain(self, x: Mapping[str, float] | npt.ArrayLike) -> Explanation:
        """Memberships, rule strengths, activations and grade for one candidate."""
        if isinstance(x, Mapping):
            missing = [n for n in self.input_names if n not in x]
            extra = [k for k in x if k not in self.input_names]
            if missing or extra:
                raise ValueError(
                    f"inputs must be exactly {', '.join(self.input_names)}"
                    + (f"; missing {', '.join(missing)}" if missing else "")
                    + (f"; unknown {', '.join(extra)}" if extra else "")
                )
            row = np.array([[float(x[n]) for n in self.input_names]])
        else:
            row = np.asarray(x, dtype=np.float64).reshape(1, -1)
        row = self._check(row)
        work = self._forward(row)
        grade = float(self._defuzzify(work)[0])
        used = np.clip(row[0], self.lo, self.hi)
        memberships: dict[str, dict[str, float]] = {n: {} for n in self.input_names}
        for (var, term), mu in zip(self.term_keys, work[: len(self.term_keys), 0], strict=True):
            memberships[var][term] = float(mu)
        rb = self.rulebase
        strengths = self._strengths(work)[:, 0]
        firings = tuple(
            RuleFiring(i, text, rule.output_term, rule.weight, float(strengths[row_i]))
            for i, (rule, text, row_i) in enumerate(
                zip(rb.rules, rb.rule_texts(), self._strength_index(), strict=True)
            )
        )
        activations = {t.name: 0.0 for t in rb.output.terms}
        for f in firings:
            activations[f.output_term] = max(activations[f.output_term], f.strength)
        return Explanation(
            inputs={n: float(v) for n, v in zip(self.input_names, row[0], strict=True)},
            used={n: float(v) for n, v in zip(self.input_names, used, strict=True)},
            clipped=tuple(
                n for n, a, b in zip(self.input_names, row[0], used, strict=True) if a != b
            ),
            memberships=memberships,
            rules=firings,
            activations=activations,
            grade=grade,
            fired=any(f.strength > 0 for f in firings),
        )

    # --- internals ----------------------------------------------------------

    def _check(self, x: npt.ArrayLike) -> FloatArray:
        xs = np.asarray(x, dtype=np.float64)
        if xs.ndim != 2 or xs.shape[1] != self.n_inputs:
            raise ValueError(
                f"expected an array of shape (n, {self.n_inputs}) with columns "
                f"{', '.join(self.input_names)} (got shape {xs.shape})"
            )
        if np.isnan(xs).any():
            row, col = np.argwhere(np.isnan(xs))[0]
            raise ValueError(f"input {self.input_names[col]!r} is NaN (row {row})")
        return xs

    def _forward(self, xs: FloatArray) -> FloatArray:
        """Workspace rows: memberships, temporaries, then rule strengths (weighted)."""
        n = xs.shape[0]
        work = np.empty((self.n_registers, n), dtype=np.float64)
        m = len(self.term_keys)
        # Clip each term's input to its variable's range (np.clip is slow on small arrays).
        d = xs.T[self.term_col]
        np.maximum(d, self.term_lo, out=d)
        np.minimum(d, self.term_hi, out=d)
        d -= self.peak[:, None]
        up = work[:m]
        np.multiply(d, self.neg_rise[:, None], out=up)
        d *= self.fall[:, None]
        np.maximum(up, d, out=up)
        np.subtract(1.0, up, out=up)
        # Rounding in (x - peak) * slope can leave ~1e-16 at a foot; a foot is 0.
        up[up < TINY] = 0.0
        for op, dst, a, b, steps in self.program:
            if len(steps) < GATHER:
                for d0, a0, b0 in steps:
                    _apply(op, work[a0], work[b0], work[d0])
            else:
                d = np.empty((dst.size, n))
                _apply(op, work[a], work[b], d)
                work[dst] = d
        if self.weights is not None:
            self._strengths(work)[...] *= self.weights[:, None]
        return work

    def _strengths(self, work: FloatArray) -> FloatArray:
        m = len(self.term_keys)
        return work[m : m + self.values.size]

    def _strength_index(self) -> npt.NDArray[np.intp]:
        return self.rule_rows - len(self.term_keys)

    def _defuzzify(self, work: FloatArray) -> FloatArray:
        strengths = self._strengths(work)
        default = self.rulebase.default
        if self.plan is None:
            return weighted_average(strengths, self.values, default)
        act = np.maximum.reduceat(strengths, self.groups, axis=0)
        return centroid(self.plan, np.ascontiguousarray(act.T), default)


class _ProgramBuilder:
    """Turns condition trees into (op, dst, a, b) steps over workspace rows."""

    def __init__(self, term_row: dict[tuple[str, str], int], first_temp: int) -> None:
        self.term_row = term_row
        self.first_temp = first_temp
        self.next_temp = first_temp
        self.max_temp = first_temp
        self.ops: list[Op] = []

    def into(self, cond: Condition, dst: int) -> None:
        if isinstance(cond, Is):
            self.ops.append((_COPY, dst, self.term_row[(cond.variable, cond.term)], 0))
        elif isinstance(cond, Not):
            self.ops.append((_NOT, dst, self.value(cond.operand), 0))
        else:
            code = _MIN if isinstance(cond, And) else _MAX
            regs = [self.value(c) for c in cond.operands]
            self.ops.append((code, dst, regs[0], regs[1]))
            self.ops.extend((code, dst, dst, r) for r in regs[2:])

    def value(self, cond: Condition) -> int:
        if isinstance(cond, Is):
            return self.term_row[(cond.variable, cond.term)]
        tmp = self.next_temp
        self.next_temp += 1
        self.max_temp = max(self.max_temp, self.next_temp)
        self.into(cond, tmp)
        return tmp

    def rule(self, cond: Condition, dst: int) -> None:
        """Steps that leave the condition's degree in row ``dst``; temporaries are reused."""
        self.next_temp = self.first_temp
        self.into(cond, dst)


def _apply(op: int, x: FloatArray, y: FloatArray, out: FloatArray) -> None:
    if op == _MIN:
        np.minimum(x, y, out=out)
    elif op == _MAX:
        np.maximum(x, y, out=out)
    elif op == _NOT:
        np.subtract(1.0, x, out=out)
    else:
        out[...] = x


def _waves(ops: list[Op]) -> tuple[Wave, ...]:
    """Runs of steps with one opcode, none reading or writing a row an earlier step of its
    run writes, done as one numpy call each: a rule base of many two-term rules is one
    call instead of one per rule."""
    waves: list[Wave] = []
    run: list[Op] = []
    written: set[int] = set()

    def close() -> None:
        if run:
            cols = np.array([op[1:] for op in run], dtype=np.intp).T
            steps = tuple((d, a, b) for _, d, a, b in run)
            waves.append((run[0][0], cols[0], cols[1], cols[2], steps))

    for op in ops:
        code, dst, a, b = op
        if run and (code != run[0][0] or {dst, a, b} & written):
            close()
            run, written = [], set()
        run.append(op)
        written.add(dst)
    close()
    return tuple(waves)


def compile_rulebase(rb: RuleBase) -> Evaluator:
    """Compile once, grade many times."""
    term_keys = tuple((v.name, t.name) for v in rb.inputs for t in v.terms)
    term_row = {k: i for i, k in enumerate(term_keys)}
    col, peak, neg_rise, fall = [], [], [], []
    for i, v in enumerate(rb.inputs):
        for t in v.terms:
            rise_s, fall_s = side_slopes(t.triangle, v.width)
            col.append(i)
            peak.append(t.triangle.peak)
            neg_rise.append(-rise_s)
            fall.append(fall_s)

    out_index = {t.name: i for i, t in enumerate(rb.output.terms)}
    for rule in rb.rules:
        if rule.output_term not in out_index:
            raise ValueError(f"rule concludes on unknown output term {rule.output_term!r}")
    # Workspace rows: memberships, then rule strengths grouped by output term (stable,
    # so one max-reduce per term gives the activations), then temporaries.
    order = sorted(range(len(rb.rules)), key=lambda r: out_index[rb.rules[r].output_term])
    first_strength = len(term_keys)
    builder = _ProgramBuilder(term_row, first_strength + len(order))
    rule_rows = np.empty(len(rb.rules), dtype=np.intp)
    for pos, r in enumerate(order):
        builder.rule(rb.rules[r].condition, first_strength + pos)
        rule_rows[r] = first_strength + pos

    terms_sorted = [out_index[rb.rules[r].output_term] for r in order]
    weights = [rb.rules[r].weight for r in order]
    starts = [i for i in range(len(order)) if i == 0 or terms_sorted[i] != terms_sorted[i - 1]]
    group_terms = [terms_sorted[i] for i in starts]
    plan = None
    if rb.defuzzifier == "centroid":
        plan = plan_centroid(
            [rb.output.terms[t].triangle for t in group_terms], rb.output.lo, rb.output.hi
        )
    rule_rows.flags.writeable = False
    return Evaluator(
        rulebase=rb,
        input_names=rb.input_names,
        lo=_frozen([v.lo for v in rb.inputs]),
        hi=_frozen([v.hi for v in rb.inputs]),
        term_keys=term_keys,
        term_col=_frozen(col, np.intp),
        term_lo=_frozen([[rb.inputs[c].lo] for c in col]),
        term_hi=_frozen([[rb.inputs[c].hi] for c in col]),
        peak=_frozen(peak),
        neg_rise=_frozen(neg_rise),
        fall=_frozen(fall),
        program=_waves(builder.ops),
        n_registers=builder.max_temp,
        rule_rows=rule_rows,
        weights=None if all(w == 1.0 for w in weights) else _frozen(weights),
        values=_frozen([rb.output.terms[t].triangle.peak for t in terms_sorted]),
        groups=_frozen(starts, np.intp),
        plan=plan,
    )
