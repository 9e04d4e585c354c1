"""What the FLL and FIS readers and writers share: located problems, the exact rewriting of
a condition (``not`` pushed to the terms), and the assembly of a RuleBase that passes the
YAML loader's own checks.

A reader collects problems as ``file:line: construct: what`` and either returns a RuleBase
or raises ConversionError with all of them; nothing is approximated (module docstrings of
``fll`` and ``fis`` list the subset).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from fuzzeval.engine.membership import Triangle, number_text, triangle_problem
from fuzzeval.engine.rulebase import (
    And,
    Condition,
    Defuzzifier,
    Is,
    Not,
    Or,
    Rule,
    RuleBase,
    Term,
    Variable,
)
from fuzzeval.errors import Problem, RuleBaseError
from fuzzeval.formats.grammar import KEYWORDS, NAME_RE


class ConversionError(RuleBaseError):
    """A file that cannot be converted exactly (malformed, or outside the subset): a usage
    error for the command line (exit 2, nothing written), with every problem found."""


@dataclass
class Problems:
    """The problems of one file, each at its line."""

    path: str
    found: list[Problem] = field(default_factory=list)

    def add(self, line: int | None, construct: str, message: str) -> None:
        self.found.append(Problem(self.path, line, construct, message))

    def fail(self) -> ConversionError:
        return ConversionError(self.found)


def fmt(x: float) -> str:
    """The shortest text that reads back as ``x`` (``5``, ``0.1``, ``1e-05``)."""
    return number_text(x)


def finite(text: str) -> float | None:
    """A finite number, or None (``nan``, ``inf`` and words are not)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a fuzzeval variable or term, or None."""
    if not NAME_RE.match(name):
        return "fuzzeval names are letters, digits and _ (not first a digit)"
    if name.lower() in KEYWORDS:
        return f"a keyword of fuzzeval's rules ({', '.join(sorted(KEYWORDS))})"
    return None


# --- conditions ------------------------------------------------------------------------


def negation_normal(cond: Condition, nots: int = 0) -> Condition:
    """The same condition with every ``not`` moved onto single terms (as fuzzylite's hedge
    and FIS's negative index need) and no ``and`` directly inside an ``and`` (nor ``or`` in
    ``or``): ``not (a or b)`` is ``not a and not b`` (De Morgan). Exact in floating point
    too: 1 - x rounds monotonically, so it swaps min and max exactly; a double ``not`` is
    kept (1 - (1 - x) is not always x in floating point)."""
    if isinstance(cond, Is):
        out: Condition = cond
        for _ in range(nots):
            out = Not(out)
        return out
    if isinstance(cond, Not):
        return negation_normal(cond.operand, nots + 1)
    as_and = isinstance(cond, And) != (nots % 2 == 1)
    parts: list[Condition] = []
    for operand in cond.operands:
        part = negation_normal(operand, nots)
        if isinstance(part, And if as_and else Or):
            parts.extend(part.operands)
        else:
            parts.append(part)
    return And(tuple(parts)) if as_and else Or(tuple(parts))


def term_nots(cond: Condition) -> tuple[Is, int] | None:
    """``not ... not variable is term`` as (the term, how many nots), or None."""
    nots = 0
    while isinstance(cond, Not):
        cond, nots = cond.operand, nots + 1
    return (cond, nots) if isinstance(cond, Is) else None


# --- assembly --------------------------------------------------------------------------


@dataclass(frozen=True)
class TermSpec:
    name: str
    points: tuple[float, float, float]
    line: int | None


@dataclass(frozen=True)
class VariableSpec:
    name: str
    lo: float
    hi: float
    terms: tuple[TermSpec, ...]
    line: int | None
    description: str = ""


@dataclass(frozen=True)
class RuleSpec:
    condition: Condition
    term: str
    weight: float
    line: int | None


def variable(problems: Problems, spec: VariableSpec, kind: str) -> Variable | None:
    """A fuzzeval variable, or None with a located problem for each term that breaks it."""
    ok = True
    bad = name_problem(spec.name)
    if bad:
        problems.add(spec.line, f"{kind} {spec.name!r}", bad)
        ok = False
    seen: set[str] = set()
    terms = []
    for t in spec.terms:
        where = f"term {t.name!r}"
        bad = name_problem(t.name) or (f"a second term of {spec.name!r} with this name"
                                       if t.name in seen else None)
        seen.add(t.name)
        problem = triangle_problem(t.points, spec.lo, spec.hi)
        if problem is not None and "inside the range" in problem:
            problem = (f"points {' '.join(map(fmt, t.points))} reach outside {spec.name!r}'s "
                       f"range [{fmt(spec.lo)}, {fmt(spec.hi)}]; fuzzeval's terms lie inside "
                       "their variable's range")
        if bad or problem:
            problems.add(t.line, where, bad or problem or "")
            ok = False
            continue
        terms.append(Term(t.name, Triangle(*t.points)))
    if not spec.terms:
        problems.add(spec.line, f"{kind} {spec.name!r}", "has no terms; a variable needs one")
        ok = False
    if not ok:
        return None
    return Variable(spec.name, spec.lo, spec.hi, tuple(terms), spec.description)


def assemble(problems: Problems, name: str, description: str, defuzzifier: Defuzzifier,
             default: float, inputs: list[Variable], output: Variable,
             rules: list[RuleSpec]) -> RuleBase:
    """The rule base, checked by the YAML loader itself (its limits, its rules on terms),
    so that the YAML written from it loads; ConversionError with every problem otherwise."""
    from fuzzeval.formats.loading import parse_rulebase
    from fuzzeval.formats.yaml_write import rulebase_to_yaml

    if not rules:
        problems.add(None, "rules", "none; a rule base needs at least one rule")
    if problems.found:
        raise problems.fail()
    rb = RuleBase(name=name, defuzzifier=defuzzifier, default=default, inputs=tuple(inputs),
                  output=output,
                  rules=tuple(Rule(r.condition, r.term, r.weight) for r in rules),
                  description=description)
    checked, found = parse_rulebase(rulebase_to_yaml(rb), problems.path)
    errors = [p for p in found if p.severity == "error"]
    for p in errors:  # the YAML's lines mean nothing here: name the construct only
        problems.add(None, p.key, p.message)
    if checked is None or errors:
        raise problems.fail()
    return checked
