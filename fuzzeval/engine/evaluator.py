"""compile_rulebase(rb) -> Evaluator: the rule base as immutable arrays and a tiny
register program, run for every candidate by one compiled kernel
(fuzzeval/engine/kernels/jit.py).

A game grades small batches (15 throws, ~20 plays), where numpy's fixed cost per call,
not arithmetic, is the price; the kernel walks the candidates one by one with the rule
base's numbers in registers, so a call costs about what its arithmetic does. A process's
first grades take the kernels' numpy twins instead
(fuzzeval/engine/kernels/numpy_twins.py): the same grades, without numba's second of start-up.
A base whose every rule is a term or an ``and`` of terms (every learned conjunction base)
is graded by a kernel without the program (``compiled.grade_flat``): the same doubles,
1.5-1.8 times as fast on the learned backgammon bases, which a 1-ply search grades
thousands of times a move.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.defuzzify import CentroidPlan, plan_centroid
from fuzzeval.engine.kernels import compiled, numpy_twins
from fuzzeval.engine.kernels.compiled import COPY, MAX, MIN, NOT
from fuzzeval.engine.membership import FloatArray, membership, side_slopes
from fuzzeval.engine.rulebase import And, Condition, Is, Not, RuleBase
from fuzzeval.errors import expect

Op = tuple[int, int, int, int]  # (opcode, destination, a, b) over registers
_SKIPPED_RUN = 8  # rules beginning with one term, fewer are not worth a branch
IntArray = npt.NDArray[np.intp]


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
    term_keys: tuple[tuple[str, str], ...]  # (variable, term) of each register a rule reads
    term_col: IntArray  # input column of each of those terms
    term_par: FloatArray  # (terms, 5): variable's lo, hi; peak, -rise slope, fall slope
    program: IntArray  # (steps, 4): opcode, destination, a, b
    n_registers: int  # terms, then rule strengths grouped by output term, then temporaries
    rule_rows: IntArray  # register of each rule's strength (file order)
    weights: FloatArray  # rule weight per strength register
    values: FloatArray  # output term peak per strength register (weighted average)
    groups: IntArray  # strength registers are grouped by output term; group starts
    plan: CentroidPlan | None
    #: where every rule is a term or an ``and`` of terms: each rule's term registers
    #: (strength-register order), how many, and where to skip to (compiled.grade_flat)
    flat: tuple[IntArray, IntArray] | None = None
    #: the grading kernel and what it reads after (xs, out), fixed when compiled
    _kernel: Any = field(init=False, repr=False, compare=False)
    _kernel_args: tuple[Any, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        default = float(self.rulebase.default)
        kernel: Any
        args: tuple[Any, ...]
        if self.plan is None and self.flat is not None:
            kernel = compiled.grade_flat
            args = (self.term_col, self.term_par, *self.flat, self.weights, self.values,
                    default, self.normalise)
        elif self.plan is None:
            kernel, args = compiled.grade_wa, (*self._program(), self.values, default,
                                              self.normalise)
        else:
            kernel = compiled.grade_centroid
            args = (*self._program(), self.groups, *self.plan.kernel_args(), default)
        object.__setattr__(self, "_kernel", kernel)
        object.__setattr__(self, "_kernel_args", args)

    @property
    def normalise(self) -> bool:
        """Whether the singleton grade divides by the total strength (weighted average) or
        not (weighted sum)."""
        return self.rulebase.defuzzifier == "weighted_average"

    @property
    def n_inputs(self) -> int:
        return len(self.input_names)

    def grade(self, x: npt.ArrayLike) -> FloatArray:
        """Grades of candidates ``x`` of shape (n, n_inputs), columns in ``input_names`` order."""
        xs = self._check(x)
        if self.plan is None and numpy_twins.use_numpy(xs.shape[0], self._size):
            self._raise_nan(xs, numpy_twins.first_nan(xs))
            return numpy_twins.grade_wa(xs, *self._program(), self.values,
                                          float(self.rulebase.default), self.normalise)
        out = np.empty(xs.shape[0], dtype=np.float64)
        self._raise_nan(xs, self._kernel(xs, out, *self._kernel_args))
        return out

    def strengths(self, x: npt.ArrayLike) -> FloatArray:
        """Firing strength of every rule (n, rules), rules in file order, weights applied."""
        xs = self._check(x, "strengths(x)")
        if numpy_twins.use_numpy(xs.shape[0], self._size):
            self._raise_nan(xs, numpy_twins.first_nan(xs))
            return numpy_twins.strengths(xs, *self._program(), self.rule_rows)
        out = np.empty((xs.shape[0], len(self.rulebase.rules)), dtype=np.float64)
        self._raise_nan(xs, compiled.strengths(xs, out, *self._program(), self.rule_rows))
        return out

    def explain(self, x: Mapping[str, float] | npt.ArrayLike) -> Explanation:
        """Memberships, rule strengths, activations and grade for one candidate."""
        if isinstance(x, Mapping):
            missing = [n for n in self.input_names if n not in x]
            # a key that is not a string (explain({0: 1.0})) is shown as written, not joined
            extra = [k if isinstance(k, str) else f"{k!r} (not a string)"
                     for k in x if k not in self.input_names]
            if missing or extra:
                raise ValueError(
                    f"inputs must be exactly {', '.join(self.input_names)}"
                    + (f"; missing {', '.join(missing)}" if missing else "")
                    + (f"; unknown {', '.join(extra)}" if extra else "")
                )
            for n in self.input_names:
                expect(x[n], (int, float, np.integer, np.floating), f"explain(x): input {n!r}",
                       wanted="a number")
            row = np.array([[float(x[n]) for n in self.input_names]])
        else:
            row = self._numbers(x, "explain(x)").reshape(1, -1)
        row = self._check(row, "explain(x)")
        grade = float(self.grade(row)[0])
        strengths = self.strengths(row)[0]
        used = np.clip(row[0], self.lo, self.hi)
        rb = self.rulebase
        memberships = {
            v.name: {t.name: float(membership(u, t.triangle, v.width)) for t in v.terms}
            for v, u in zip(rb.inputs, used, strict=True)
        }
        firings = tuple(
            RuleFiring(i, text, rule.output_term, rule.weight, float(s))
            for i, (rule, text, s) in enumerate(
                zip(rb.rules, rb.rule_texts(), strengths, strict=True)
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

    @property
    def _size(self) -> int:
        """The program's size, instructions and registers (numpy's cost a candidate)."""
        return len(self.program) + self.n_registers

    def _program(self) -> tuple[IntArray, FloatArray, IntArray, int, int, FloatArray]:
        """What every kernel reads after (xs, out): how to fill the registers."""
        return (self.term_col, self.term_par, self.program, self.n_registers,
                len(self.term_keys), self.weights)

    def _numbers(self, x: npt.ArrayLike, where: str) -> FloatArray:
        """``x`` as floats, or a TypeError naming the argument and what it takes. A table
        with named columns (a pandas DataFrame) is read by its names, not by position."""
        columns = getattr(x, "columns", None)
        if columns is not None:
            missing = [n for n in self.input_names if n not in columns]
            if missing:
                raise ValueError(f"{where}: the table has no column {', '.join(missing)} "
                                 f"(the inputs are {', '.join(self.input_names)})")
            x = x[list(self.input_names)]  # type: ignore[index, call-overload]
        try:
            return np.asarray(x, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{where}: expected numbers, an array of shape (n, "
                            f"{self.n_inputs}) with columns {', '.join(self.input_names)} "
                            f"(got {type(x).__name__} {x!r:.40})") from None

    def _check(self, x: npt.ArrayLike, where: str = "grade(x)") -> FloatArray:
        xs = self._numbers(x, where)
        if xs.ndim != 2 or xs.shape[1] != self.n_inputs:
            raise ValueError(
                f"expected an array of shape (n, {self.n_inputs}) with columns "
                f"{', '.join(self.input_names)} (got shape {xs.shape})"
            )
        if not (xs.flags.c_contiguous and xs.flags.writeable):  # one compiled variant
            xs = np.array(xs, order="C")
        return xs

    def _raise_nan(self, xs: FloatArray, bad: int) -> None:
        if bad >= 0:
            row, col = divmod(bad, xs.shape[1])
            raise ValueError(f"input {self.input_names[col]!r} is NaN (row {row})")


class _ProgramBuilder:
    """Turns condition trees into (op, dst, a, b) steps over registers."""

    def __init__(self, term_row: dict[tuple[str, str], int], first_temp: int) -> None:
        self.term_row = term_row
        self.first_temp = first_temp
        self.next_temp = first_temp
        self.max_temp = first_temp
        self.ops: list[Op] = []

    def into(self, cond: Condition, dst: int) -> None:
        if isinstance(cond, Is):
            self.ops.append((COPY, dst, self.term_row[(cond.variable, cond.term)], 0))
        elif isinstance(cond, Not):
            self.ops.append((NOT, dst, self.value(cond.operand), 0))
        else:
            code = MIN if isinstance(cond, And) else MAX
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


def _terms_read(cond: Condition) -> Iterator[tuple[str, str]]:
    if isinstance(cond, Is):
        yield (cond.variable, cond.term)
    elif isinstance(cond, Not):
        yield from _terms_read(cond.operand)
    else:
        for c in cond.operands:
            yield from _terms_read(c)


def _flat(conditions: list[Condition], term_row: dict[tuple[str, str], int],
          ) -> tuple[IntArray, IntArray] | None:
    """``Evaluator.flat`` for these rule conditions (strength-register order), or None
    where one is not a term or an ``and`` of terms."""
    rows: list[list[int]] = []
    for cond in conditions:
        if isinstance(cond, Is):
            rows.append([term_row[(cond.variable, cond.term)]])
        elif isinstance(cond, And) and all(isinstance(c, Is) for c in cond.operands):
            rows.append([term_row[(c.variable, c.term)] for c in cond.operands
                         if isinstance(c, Is)])
        else:
            return None
    # at least three columns: the kernel reads three unrolled (a term repeated changes no
    # minimum)
    width = max([3, *(len(r) for r in rows)])
    atoms = [r + r[:1] * (width - len(r)) for r in rows]
    # (start, stop, a, b): runs of rules that all begin with terms a and b (b = a: with
    # a), each the longest within a run of one first term; -1: too few rules for a test
    segments: list[list[int]] = []

    def add(start: int, stop: int, a: int, b: int) -> None:
        if segments and segments[-1][1] == start and segments[-1][2:] == [a, b] and a == b:
            segments[-1][1] = stop  # short runs with the same test: one segment
        else:
            segments.append([start, stop, a, b])

    def run(start: int, stop: int, depth: int) -> int:
        end = start
        while end < stop and atoms[end][:depth] == atoms[start][:depth]:
            end += 1
        return end

    r = 0
    while r < len(rows):
        outer = run(r, len(rows), 1)
        if outer - r < _SKIPPED_RUN:
            add(r, outer, -1, -1)
        else:
            q = r
            while q < outer:
                inner = run(q, outer, 2)
                long = inner - q >= _SKIPPED_RUN
                add(q, inner, atoms[q][0], atoms[q][1] if long else atoms[q][0])
                q = inner
        r = outer
    return (_frozen(np.array(atoms, dtype=np.intp).reshape(-1, width), np.intp),
            _frozen(np.array(segments, dtype=np.intp).reshape(-1, 4), np.intp))


def compile_rulebase(rb: RuleBase) -> Evaluator:
    """Compile once, grade many times."""
    expect(rb, RuleBase, "compile_rulebase(rb)",
           "read one first: compile_rulebase(load_rulebase('tipping'))")
    read = {k for rule in rb.rules for k in _terms_read(rule.condition)}
    term_keys = tuple((v.name, t.name) for v in rb.inputs for t in v.terms
                      if (v.name, t.name) in read)  # terms no rule reads cost nothing
    term_row = {k: i for i, k in enumerate(term_keys)}
    col, par = [], []
    for i, v in enumerate(rb.inputs):
        for t in v.terms:
            if (v.name, t.name) in read:
                rise, fall = side_slopes(t.triangle, v.width)
                col.append(i)
                par.append((v.lo, v.hi, t.triangle.peak, -rise, fall))

    out_index = {t.name: i for i, t in enumerate(rb.output.terms)}
    for rule in rb.rules:
        if rule.output_term not in out_index:
            raise ValueError(f"rule concludes on unknown output term {rule.output_term!r}")
    # Registers: memberships, then rule strengths grouped by output term (stable, so a
    # term's activation is the max over one run of registers), then temporaries.
    order = sorted(range(len(rb.rules)), key=lambda r: out_index[rb.rules[r].output_term])
    first_strength = len(term_keys)
    builder = _ProgramBuilder(term_row, first_strength + len(order))
    for pos, r in enumerate(order):
        builder.rule(rb.rules[r].condition, first_strength + pos)
    rule_rows = np.empty(len(order), dtype=np.intp)  # each rule's register: order inverted
    rule_rows[order] = np.arange(first_strength, first_strength + len(order))

    terms_sorted = [out_index[rb.rules[r].output_term] for r in order]
    starts = [i for i in range(len(order)) if i == 0 or terms_sorted[i] != terms_sorted[i - 1]]
    plan = None
    if rb.defuzzifier == "centroid":
        plan = plan_centroid([rb.output.terms[terms_sorted[i]].triangle for i in starts],
                             rb.output.lo, rb.output.hi)
    return Evaluator(
        rulebase=rb,
        input_names=rb.input_names,
        lo=_frozen([v.lo for v in rb.inputs]),
        hi=_frozen([v.hi for v in rb.inputs]),
        term_keys=term_keys,
        term_col=_frozen(col, np.intp),
        term_par=_frozen(np.array(par, dtype=np.float64).reshape(-1, 5)),
        program=_frozen(np.array(builder.ops, dtype=np.intp).reshape(-1, 4), np.intp),
        n_registers=builder.max_temp,
        rule_rows=_frozen(rule_rows, np.intp),
        weights=_frozen([rb.rules[r].weight for r in order]),
        values=_frozen([rb.output.terms[t].triangle.peak for t in terms_sorted]),
        groups=_frozen(starts, np.intp),
        plan=plan,
        flat=_flat([rb.rules[r].condition for r in order], term_row),
    )
