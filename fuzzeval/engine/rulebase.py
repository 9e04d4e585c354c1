"""A rule base as frozen values: variables, terms, rules. No I/O, no numpy.

Edits are pure (``with_points`` returns a new RuleBase), so a calibration
round can keep the rule base it started from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from fuzzeval.engine.membership import POINT_NAMES, Triangle, triangle_problem
from fuzzeval.engine.membership import PointName as PointName

Defuzzifier = Literal["centroid", "weighted_average", "weighted_sum"]
DEFUZZIFIERS: tuple[Defuzzifier, ...] = ("centroid", "weighted_average", "weighted_sum")


# --- rule conditions -------------------------------------------------------


@dataclass(frozen=True)
class Is:
    """``variable is term``: the term's membership of the variable's input."""

    variable: str
    term: str


@dataclass(frozen=True)
class Not:
    """1 - membership."""

    operand: Condition


@dataclass(frozen=True)
class And:
    """Minimum of the operands."""

    operands: tuple[Condition, ...]


@dataclass(frozen=True)
class Or:
    """Maximum of the operands."""

    operands: tuple[Condition, ...]


Condition = Is | Not | And | Or


def render(cond: Condition) -> str:
    """The condition as rule text, with only the parentheses the grammar needs."""
    if isinstance(cond, Is):
        return f"{cond.variable} is {cond.term}"
    if isinstance(cond, Not):
        inner = render(cond.operand)
        return f"not {inner}" if isinstance(cond.operand, Is) else f"not ({inner})"
    if isinstance(cond, And):
        return " and ".join(
            f"({render(c)})" if isinstance(c, Or) else render(c) for c in cond.operands
        )
    return " or ".join(render(c) for c in cond.operands)


def conditions_used(cond: Condition) -> list[Is]:
    """Every ``variable is term`` inside a condition, in reading order."""
    if isinstance(cond, Is):
        return [cond]
    if isinstance(cond, Not):
        return conditions_used(cond.operand)
    return [leaf for c in cond.operands for leaf in conditions_used(c)]


# --- definitions -----------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """A term. ``bounds`` (single-valued output terms only) is the range its meaning allows,
    within which the tuner may move it; an output term without bounds is pinned."""

    name: str
    triangle: Triangle
    adjust: tuple[PointName, ...] = ()
    bounds: tuple[float, float] | None = None


@dataclass(frozen=True)
class Variable:
    name: str
    lo: float
    hi: float
    terms: tuple[Term, ...]
    description: str = ""

    def __post_init__(self) -> None:
        if not self.lo < self.hi:
            raise ValueError(f"{self.name}: range needs lo < hi (got [{self.lo}, {self.hi}])")
        for t in self.terms:
            problem = triangle_problem(t.triangle.points, self.lo, self.hi)
            if problem:
                raise ValueError(f"{self.name}.{t.name}: {problem}")

    @property
    def width(self) -> float:
        return self.hi - self.lo

    @property
    def term_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.terms)

    def term(self, name: str) -> Term:
        for t in self.terms:
            if t.name == name:
                return t
        raise KeyError(f"variable {self.name!r} has no term {name!r}")


@dataclass(frozen=True)
class Rule:
    condition: Condition
    output_term: str
    weight: float = 1.0

    def text(self, output_name: str) -> str:
        return f"if {render(self.condition)} then {output_name} is {self.output_term}"


@dataclass(frozen=True, order=True)
class PointRef:
    """One point of one term's triangle, e.g. (quality, average, peak)."""

    variable: str
    term: str
    point: PointName

    def __str__(self) -> str:
        return f"{self.variable}.{self.term}.{self.point}"


@dataclass(frozen=True)
class RuleBase:
    name: str
    defuzzifier: Defuzzifier
    default: float
    inputs: tuple[Variable, ...]
    output: Variable
    rules: tuple[Rule, ...]
    resolution: int = 1001
    description: str = ""
    made_by: str = ""  # where it came from: written by hand, or the command that made it

    @property
    def origin(self) -> str:
        """One line naming the rule base and where it came from, for advice headers."""
        made = self.made_by or "where it came from is not stated (no made_by: in its file)"
        return f"rule base {self.name}: {made}"

    @property
    def input_names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.inputs)

    def input(self, name: str) -> Variable:
        for v in self.inputs:
            if v.name == name:
                return v
        raise KeyError(f"rule base {self.name!r} has no input {name!r}")

    def rule_texts(self) -> tuple[str, ...]:
        return tuple(r.text(self.output.name) for r in self.rules)

    def adjustable_points(self) -> tuple[PointRef, ...]:
        """The points marked ``adjust:``, which the calibrator may move."""
        return tuple(
            PointRef(v.name, t.name, p) for v in self.inputs for t in v.terms for p in t.adjust
        )

    def point(self, ref: PointRef) -> float:
        tri = self.input(ref.variable).term(ref.term).triangle
        return float(getattr(tri, ref.point))

    def with_points(self, moves: Mapping[PointRef, float]) -> RuleBase:
        """A copy with some input-term points moved; ValueError if a triangle would break."""
        new_inputs = []
        for var in self.inputs:
            terms = []
            for term in var.terms:
                pts = dict(zip(POINT_NAMES, term.triangle.points, strict=True))
                for which in POINT_NAMES:
                    ref = PointRef(var.name, term.name, which)
                    if ref in moves:
                        pts[which] = float(moves[ref])
                tri = (pts["left"], pts["peak"], pts["right"])
                problem = triangle_problem(tri, var.lo, var.hi)
                if problem:
                    raise ValueError(f"{var.name}.{term.name}: {problem}")
                terms.append(replace(term, triangle=Triangle(*tri)))
            new_inputs.append(replace(var, terms=tuple(terms)))
        known = set(self.all_points())
        unknown = [str(r) for r in moves if r not in known]
        if unknown:
            raise KeyError(f"no such points: {', '.join(unknown)}")
        return replace(self, inputs=tuple(new_inputs))

    def bounded_outputs(self) -> tuple[str, ...]:
        """The single-valued output terms with ``bounds:``, which the tuner may move."""
        return tuple(t.name for t in self.output.terms
                     if t.triangle.is_singleton and t.bounds is not None)

    def with_outputs(self, values: Mapping[str, float]) -> RuleBase:
        """A copy with some singleton output terms moved; ValueError if one leaves the range
        or is not a singleton."""
        terms = []
        for term in self.output.terms:
            if term.name in values:
                v = float(values[term.name])
                if not term.triangle.is_singleton:
                    raise ValueError(f"output term {term.name!r} is not a single value")
                if not self.output.lo <= v <= self.output.hi:
                    raise ValueError(f"output term {term.name!r}: {v} is outside the range "
                                     f"[{self.output.lo:g}, {self.output.hi:g}]")
                if term.bounds is not None and not term.bounds[0] <= v <= term.bounds[1]:
                    raise ValueError(f"output term {term.name!r}: {v} is outside its bounds "
                                     f"[{term.bounds[0]:g}, {term.bounds[1]:g}]")
                term = replace(term, triangle=Triangle(v, v, v))
            terms.append(term)
        unknown = sorted(set(values) - set(self.output.term_names))
        if unknown:
            raise KeyError(f"no such output terms: {', '.join(unknown)}")
        return replace(self, output=replace(self.output, terms=tuple(terms)))

    def all_points(self) -> tuple[PointRef, ...]:
        return tuple(
            PointRef(v.name, t.name, p) for v in self.inputs for t in v.terms for p in POINT_NAMES
        )
