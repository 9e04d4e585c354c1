"""fuzzylite's FLL language in and out, for the subset that maps exactly.

What converts: ``Triangle`` terms, and a ``Trapezoid`` with one top point or a ``Ramp``
that reaches the end of its range (both are triangles); ``Constant`` conclusions under
``WeightedAverage`` or ``WeightedSum`` (zero-order Takagi-Sugeno, aggregation ``none``:
summed per rule, as fuzzeval does); ``Centroid`` with ``Maximum`` aggregation and
``Minimum`` implication; ``Minimum``/``Maximum`` for and/or, the hedge ``not``, rule weights
(``with w``), activation ``General``, one output and one rule block. Everything else is
refused with its line and the construct named, never approximated.

fuzzylite's ``not`` is a hedge on one term, so a fuzzeval ``not (a or b)`` is written by
De Morgan's law (``a is not x and b is not y``), which is exact for min, max and 1 - x.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from fuzzeval.engine.rulebase import And, Condition, Defuzzifier, Is, Not, Or, RuleBase, Variable
from fuzzeval.formats.conversion import (
    ConversionError,
    Problems,
    RuleSpec,
    TermSpec,
    VariableSpec,
    assemble,
    finite,
    fmt,
    negation_normal,
    term_nots,
    variable,
)
from fuzzeval.formats.grammar import MAX_NESTING

SECTIONS = ("Engine", "InputVariable", "OutputVariable", "RuleBlock")
PROPERTIES = {
    "Engine": ("description",),
    "InputVariable": ("description", "enabled", "range", "lock-range", "term"),
    "OutputVariable": ("description", "enabled", "range", "lock-range", "aggregation",
                       "defuzzifier", "default", "lock-previous", "term"),
    "RuleBlock": ("description", "enabled", "conjunction", "disjunction", "implication",
                  "activation", "rule"),
}
#: fuzzylite's term types that are not triangles, as a sentence names them
OTHER_TERMS = {
    "Gaussian": "a Gaussian", "GaussianProduct": "a Gaussian product", "Bell": "a Bell",
    "Sigmoid": "a Sigmoid", "SigmoidDifference": "a SigmoidDifference",
    "SigmoidProduct": "a SigmoidProduct", "SShape": "an SShape", "ZShape": "a ZShape",
    "PiShape": "a PiShape", "Cosine": "a Cosine", "Concave": "a Concave", "Spike": "a Spike",
    "Binary": "a Binary", "Discrete": "a Discrete", "Rectangle": "a Rectangle (a flat top)",
    "SemiEllipse": "a SemiEllipse", "Arc": "an Arc",
}
FUNCTIONS = {"Linear": "a Linear function", "Function": "a Function"}
HEDGES = ("very", "somewhat", "seldom", "extremely", "any")
#: words an FLL rule reads as keywords or hedges: no exported name may be one
RESERVED = frozenset({"if", "then", "is", "and", "or", "with", "not", *HEDGES})
#: the centroid's grid written on export: fuzzylite's midpoint sum on 10,000 cells agrees
#: with fuzzeval's exact centroid within the bound of docs/fuzzylite.md (about 1e-7 of the
#: range on the tipper controllers); fuzzylite's own default is 100 (C++) or 1,000 (Python)
EXPORT_RESOLUTION = 10_000
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass
class _Section:
    kind: str
    name: str
    line: int
    props: list[tuple[str, str, int]] = field(default_factory=list)

    def one(self, problems: Problems, key: str) -> tuple[str, int] | None:
        """The value and line of a property given at most once (a repeat is a problem)."""
        found = [(v, n) for k, v, n in self.props if k == key]
        for _, n in found[1:]:
            problems.add(n, f"{self.kind} {self.name}", f"'{key}' given twice")
        return found[0] if found else None


def _sections(text: str, problems: Problems) -> list[_Section]:
    sections: list[_Section] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not colon:
            problems.add(number, "(line)", f"expected 'key: value' (got {line[:40]!r})")
        elif key in SECTIONS:
            sections.append(_Section(key, value, number))
        elif key[:1].isupper():
            problems.add(number, f"section {key!r}",
                         f"unknown; FLL has {', '.join(SECTIONS)}")
        elif not sections:
            problems.add(number, f"'{key}'", "before any section (Engine, InputVariable, ...)")
        elif key in ("accumulation", "lock-valid"):
            problems.add(number, f"'{key}'", "fuzzylite 5's FLL; fuzzeval reads fuzzylite 6 "
                                             "and later (aggregation, and the RuleBlock's "
                                             "implication where fuzzylite 5 says activation)")
        elif key not in PROPERTIES[sections[-1].kind]:
            kind = sections[-1].kind
            problems.add(number, f"{kind} {sections[-1].name}",
                         f"unknown property {key!r}; {kind} has "
                         f"{', '.join(PROPERTIES[kind])}")
        else:
            sections[-1].props.append((key, value, number))
    return sections


def _flag(problems: Problems, sec: _Section, key: str, default: bool) -> tuple[bool, int]:
    """A true/false property and its line (the section's line when it is not given)."""
    got = sec.one(problems, key)
    if got is None:
        return default, sec.line
    if got[0] not in ("true", "false"):
        problems.add(got[1], f"{sec.kind} {sec.name}", f"{key} must be true or false "
                                                        f"(got {got[0]!r})")
        return default, got[1]
    return got[0] == "true", got[1]


def _word(sec: _Section, problems: Problems, key: str) -> tuple[str, int]:
    got = sec.one(problems, key)
    return (got[0].split()[0] if got[0].split() else "none", got[1]) if got else ("none",
                                                                                  sec.line)


def _range(problems: Problems, sec: _Section) -> tuple[float, float] | None:
    got = sec.one(problems, "range")
    where = f"{sec.kind} {sec.name}"
    if got is None:
        problems.add(sec.line, where, "no 'range: low high'")
        return None
    parts = got[0].split()
    values = [finite(p) for p in parts]
    if len(parts) != 2 or None in values:
        problems.add(got[1], where, f"range must be two finite numbers 'low high' "
                                    f"(got {got[0]!r})")
        return None
    lo, hi = values[0], values[1]
    assert lo is not None and hi is not None
    if not lo < hi:
        problems.add(got[1], where, f"range {got[0]}: low must be below high")
        return None
    return lo, hi


def _term(problems: Problems, value: str, line: int, rng: tuple[float, float],
          role: str) -> tuple[str, tuple[float, float, float]] | None:
    """(name, triangle) of a term line (a Constant v is (v, v, v)), or None and a problem.
    ``role``: input, output (under the Centroid) or constant (weighted conclusions)."""
    words = value.split()
    if len(words) < 2:
        problems.add(line, "term", f"needs a name and a type (got {value!r})")
        return None
    name, kind, params = words[0], words[1], words[2:]
    where = f"term {name!r}"
    if kind in OTHER_TERMS:
        problems.add(line, where, f"is {OTHER_TERMS[kind]}; fuzzeval has triangles")
        return None
    if kind in FUNCTIONS:
        problems.add(line, where, f"is {FUNCTIONS[kind]} (first-order Takagi-Sugeno); "
                                  "fuzzeval's conclusions are Constant terms")
        return None
    needs = {"Triangle": 3, "Trapezoid": 4, "Ramp": 2, "Constant": 1}.get(kind)
    if needs is None:
        problems.add(line, where, f"unknown term type {kind!r}")
        return None
    numbers = [finite(p) for p in params]
    if len(params) < needs:
        problems.add(line, where, f"a {kind} needs {needs} parameter(s), got {len(params)}")
        return None
    if len(params) > needs + (kind != "Constant") or None in numbers:
        problems.add(line, where, f"a {kind} takes {needs} finite number(s)"
                                  f"{'' if kind == 'Constant' else ' and an optional height'}"
                                  f" (got {' '.join(params)!r})")
        return None
    p = [float(x) for x in numbers if x is not None]
    if len(p) > needs and p[needs] != 1.0:
        problems.add(line, where, f"has height {fmt(p[needs])}; fuzzeval's terms reach 1")
        return None
    lo, hi = rng
    if kind == "Constant":
        if role != "constant":
            problems.add(line, where, "is a Constant; " + (
                "input terms are triangles" if role == "input" else
                "it has no area, so the Centroid cannot use it (WeightedAverage can)"))
            return None
        return name, (p[0], p[0], p[0])
    if role == "constant":
        problems.add(line, where, f"is a {kind}; fuzzeval's weighted average and weighted "
                                  "sum take Constant terms (a Triangle under WeightedAverage "
                                  "is Tsukamoto's method in fuzzylite)")
        return None
    if kind == "Triangle":
        tri = (p[0], p[1], p[2])
    elif kind == "Trapezoid":
        if not p[0] <= p[1] <= p[2] <= p[3]:
            problems.add(line, where, f"points {' '.join(params[:4])} must not decrease")
            return None
        if p[1] != p[2]:
            problems.add(line, where, f"is a Trapezoid with a flat top from {fmt(p[1])} to "
                                      f"{fmt(p[2])}; fuzzeval has triangles (one top point)")
            return None
        tri = (p[0], p[1], p[3])
    else:  # Ramp start end: 0 at start, 1 at end and beyond
        start, end = p
        top = hi if end > start else lo
        if start == end or end != top:
            problems.add(line, where, "is a Ramp " + (
                "with equal ends" if start == end else
                f"that is 1 from {fmt(end)} to the range's end {fmt(top)}")
                + "; fuzzeval has triangles (a Ramp is one only when it ends at the end "
                  "of the range)")
            return None
        tri = (start, hi, hi) if end > start else (lo, lo, start)
    if not tri[0] <= tri[1] <= tri[2]:
        problems.add(line, where, f"points {' '.join(params[:3])} must not decrease")
        return None
    return name, tri


def _variable(problems: Problems, sec: _Section, role: str, broken: set[str]
              ) -> Variable | None:
    """The variable, or None; ``broken`` gets its name if any of its terms has a problem
    (the rules that name it are then not checked against it: the term's line says it)."""
    before = len(problems.found)
    var = _read_variable(problems, sec, role)
    if var is None or len(problems.found) > before:
        broken.add(sec.name)
    return var


def _read_variable(problems: Problems, sec: _Section, role: str) -> Variable | None:
    enabled, line = _flag(problems, sec, "enabled", True)
    if not enabled:
        problems.add(line, f"{sec.kind} {sec.name}",
                     "enabled: false; fuzzeval has no disabled variables")
    rng = _range(problems, sec)
    terms = []
    for key, value, line in sec.props:
        if key == "term" and rng is not None:
            got = _term(problems, value, line, rng, role)
            if got is not None:
                terms.append(TermSpec(got[0], got[1], line))
    if rng is None:
        return None
    desc = sec.one(problems, "description")
    kind = "input" if sec.kind == "InputVariable" else "output"
    return variable(problems, VariableSpec(sec.name, rng[0], rng[1], tuple(terms), sec.line,
                                           desc[0] if desc else ""), kind)


# --- rules -----------------------------------------------------------------------------


class _RuleError(ValueError):
    pass


class _Unchecked(Exception):
    """A rule naming a variable whose own definition has a problem (reported there)."""


_TOKEN = re.compile(r"\(|\)|[^\s()]+")


class _Antecedent:
    """``if`` ... ``then``: propositions ``variable is [not]* term``, ``and`` binding
    tighter than ``or`` (as in fuzzylite), parentheses."""

    def __init__(self, tokens: list[str], inputs: dict[str, Variable],
                 broken: set[str]) -> None:
        self.tokens, self.at, self.inputs, self.broken = tokens, 0, inputs, broken
        self.depth = 0
        self.ands = self.ors = False

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        word = self.peek()
        if word is None:
            raise _RuleError("ends too early (cut off?)")
        self.at += 1
        return word

    def parse(self) -> Condition:
        cond = self.either()
        if self.peek() is not None:
            raise _RuleError(f"unexpected {self.peek()!r}")
        return cond

    def either(self) -> Condition:
        parts = [self.both()]
        while self.peek() == "or":
            self.take()
            self.ors = True
            parts.append(self.both())
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def both(self) -> Condition:
        parts = [self.atom()]
        while self.peek() == "and":
            self.take()
            self.ands = True
            parts.append(self.atom())
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def atom(self) -> Condition:
        word = self.take()
        if word == "(":
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise _RuleError(f"parentheses nest deeper than {MAX_NESTING}")
            inner = self.either()
            if self.take() != ")":
                raise _RuleError("a '(' is not closed")
            self.depth -= 1
            return inner
        var = self.inputs.get(word)
        if var is None and word in self.broken:
            raise _Unchecked
        if var is None:
            known = ", ".join(self.inputs) or "none"
            raise _RuleError(f"names input {word!r}, which is not defined (inputs: {known})")
        if self.take() != "is":
            raise _RuleError(f"expected 'is' after {word!r}")
        nots = 0
        while self.peek() in ("not", *HEDGES):
            hedge = self.take()
            if hedge != "not":
                raise _RuleError(f"hedge {hedge!r}; fuzzeval has only 'not'")
            nots += 1
        term = self.take()
        if term not in var.term_names and word in self.broken:
            raise _Unchecked
        if term not in var.term_names:
            raise _RuleError(f"names term {term!r} of {word!r}, which has none such "
                             f"(terms: {', '.join(var.term_names)})")
        cond: Condition = Is(word, term)
        for _ in range(nots):
            cond = Not(cond)
        return cond


def _rule(text: str, inputs: dict[str, Variable], output: Variable,
          used: Callable[[bool, bool], None], broken: set[str]
          ) -> tuple[Condition, str, float]:
    tokens = _TOKEN.findall(text)
    if not tokens or tokens[0] != "if":
        raise _RuleError("must start with 'if'")
    if tokens.count("then") != 1:
        raise _RuleError("needs one 'then'" + (" (cut off?)" if "then" not in tokens else ""))
    cut = tokens.index("then")
    ante = _Antecedent(tokens[1:cut], inputs, broken)
    cond = ante.parse()
    used(ante.ands, ante.ors)
    rest = tokens[cut + 1:]
    weight = 1.0
    if "with" in rest:
        at = rest.index("with")
        if len(rest) != at + 2:
            raise _RuleError("'with' takes one weight")
        w = finite(rest[at + 1])
        if w is None or not 0 < w <= 1:
            raise _RuleError(f"weight {rest[at + 1]!r} must be a number in (0, 1]")
        weight, rest = w, rest[:at]
    if "and" in rest:
        raise _RuleError("has several conclusions; fuzzeval has one output")
    if len(rest) == 4 and rest[2] in ("not", *HEDGES):
        raise _RuleError(f"hedge {rest[2]!r} on the conclusion; fuzzeval has none there")
    if len(rest) != 3 or rest[1] != "is":
        raise _RuleError(f"the conclusion must be '{output.name} is TERM'"
                         + (" (cut off?)" if len(rest) < 3 else ""))
    if rest[0] != output.name:
        raise _RuleError(f"concludes on {rest[0]!r}, not the output {output.name!r}")
    if rest[2] not in output.term_names and output.name in broken:
        raise _Unchecked
    if rest[2] not in output.term_names:
        raise _RuleError(f"names term {rest[2]!r} of {output.name!r}, which has none such "
                         f"(terms: {', '.join(output.term_names)})")
    return cond, rest[2], weight


# --- reading ---------------------------------------------------------------------------


_DEFUZZIFIERS: dict[str, Defuzzifier] = {"Centroid": "centroid",
                                         "WeightedAverage": "weighted_average",
                                         "WeightedSum": "weighted_sum"}


def read_fll(text: str, path: str = "<fll>", default: float | None = None
             ) -> tuple[RuleBase, list[str]]:
    """The rule base an FLL text describes, and warnings (one line each); ConversionError
    with every located problem if it is malformed or outside the subset. ``default``
    replaces the output's ``default`` (required where that is nan)."""
    problems = Problems(path)
    warnings: list[str] = []
    sections = _sections(text, problems)
    by_kind = {k: [s for s in sections if s.kind == k] for k in SECTIONS}
    for kind in ("Engine", "OutputVariable", "RuleBlock"):
        for extra in by_kind[kind][1:]:
            what = {"Engine": "a second Engine; a file holds one",
                    "OutputVariable": "a second output; fuzzeval has one output",
                    "RuleBlock": "a second rule block; fuzzeval has one"}[kind]
            problems.add(extra.line, f"{kind} {extra.name}", what)
        if not by_kind[kind] and kind != "Engine":
            problems.add(None, kind, f"missing; a rule base needs one {kind}"
                                     + (" (is the file cut off?)" if sections else ""))
    if not by_kind["InputVariable"]:
        problems.add(None, "InputVariable", "missing; a rule base needs at least one input")
    engine = by_kind["Engine"][0] if by_kind["Engine"] else None
    name = engine.name if engine and engine.name else Path(path).stem
    description = ""
    if engine is not None:
        got = engine.one(problems, "description")
        description = got[0] if got else ""

    inputs: dict[str, Variable] = {}
    broken: set[str] = set()
    for sec in by_kind["InputVariable"]:
        locked, line = _flag(problems, sec, "lock-range", False)
        if not locked:
            warnings.append(f"{path}:{line}: warning: InputVariable {sec.name}: "
                            "lock-range: false, so fuzzylite does not clip it; fuzzeval "
                            "clips inputs to the range, so inputs outside it may grade "
                            "differently")
        var = _variable(problems, sec, "input", broken)
        if var is not None and var.name in inputs:
            problems.add(sec.line, f"InputVariable {sec.name}", "defined twice")
        elif var is not None:
            inputs[var.name] = var

    out_sec = by_kind["OutputVariable"][0] if by_kind["OutputVariable"] else None
    block = by_kind["RuleBlock"][0] if by_kind["RuleBlock"] else None
    defuzz: Defuzzifier | None = None
    output: Variable | None = None
    value = math.nan
    if out_sec is not None:
        where = f"OutputVariable {out_sec.name}"
        if out_sec.name in inputs:
            problems.add(out_sec.line, where, "has the name of an input")
        spec = out_sec.one(problems, "defuzzifier")
        words = spec[0].split() if spec else []
        word, args = (words[0], words[1:]) if words else ("none", [])
        line = spec[1] if spec else out_sec.line
        defuzz = _DEFUZZIFIERS.get(word)
        if defuzz is None:
            problems.add(line, where, f"defuzzifier {word}; fuzzeval has Centroid, "
                                      "WeightedAverage and WeightedSum")
        elif args and (defuzz == "centroid") != (finite(args[0]) is not None):
            problems.add(line, where, f"defuzzifier {word} {' '.join(args)}"
                         + ("; fuzzeval's weighted defuzzifiers are TakagiSugeno "
                            "(Constant terms)" if defuzz != "centroid" else ""))
        elif args and defuzz != "centroid" and args[0] not in ("TakagiSugeno", "Automatic"):
            problems.add(line, where, f"defuzzifier {word} {args[0]}; fuzzeval's is "
                                      "TakagiSugeno (Constant terms)")
        agg, line = _word(out_sec, problems, "aggregation")
        if defuzz == "centroid" and agg != "Maximum":
            problems.add(line, where, f"aggregation {agg}; fuzzeval aggregates the Centroid's "
                                      "terms with Maximum")
        elif defuzz in ("weighted_average", "weighted_sum") and agg != "none":
            problems.add(line, where, f"aggregation {agg} joins a term's activations; "
                                      f"fuzzeval's {defuzz} sums them rule by rule "
                                      "(aggregation: none)")
        previous, line = _flag(problems, out_sec, "lock-previous", False)
        if previous:
            problems.add(line, where, "lock-previous: true; fuzzeval has no memory of grades")
        locked, line = _flag(problems, out_sec, "lock-range", False)
        if defuzz == "weighted_sum" and locked:
            problems.add(line, where, "lock-range: true clips the weighted sum to the range; "
                                "fuzzeval's weighted sum is not clipped")
        got = out_sec.one(problems, "default")
        if got is not None:
            number = finite(got[0])
            if number is None and got[0].lower() != "nan":
                problems.add(got[1], where, f"default {got[0]!r} must be a number or nan")
            value = math.nan if number is None else number
        if default is not None:
            value = default
        elif math.isnan(value):
            problems.add(got[1] if got else out_sec.line, where,
                         "default: nan is fuzzylite's answer when no rule fires; fuzzeval "
                         "grades a number there: give --default X")
        role = "output" if defuzz in ("centroid", None) else "constant"
        output = _variable(problems, out_sec, role, broken)
        if output is not None and not math.isnan(value) and not \
                output.lo <= value <= output.hi:
            problems.add(got[1] if got and default is None else None, "default",
                         f"{fmt(value)} must lie in the output range "
                         f"[{fmt(output.lo)}, {fmt(output.hi)}]")

    rules: list[RuleSpec] = []
    if block is not None:
        rules = _rule_block(problems, block, inputs, output, defuzz, broken)
    if problems.found or output is None or defuzz is None:
        raise problems.fail()
    rb = assemble(problems, name, description, defuzz, value, list(inputs.values()), output,
                  rules)
    return rb, warnings


def _rule_block(problems: Problems, block: _Section, inputs: dict[str, Variable],
                output: Variable | None, defuzz: Defuzzifier | None, broken: set[str]
                ) -> list[RuleSpec]:
    where = f"RuleBlock {block.name}"
    enabled, line = _flag(problems, block, "enabled", True)
    if not enabled:
        problems.add(line, where, "enabled: false; fuzzeval has no disabled rule blocks")
    norms = {}
    for key, wanted in (("conjunction", "Minimum"), ("disjunction", "Maximum")):
        word, line = _word(block, problems, key)
        norms[key] = (word, line)
        if word not in (wanted, "none"):
            what = "and" if key == "conjunction" else "or"
            problems.add(line, where, f"{key} {word}; fuzzeval's {what} is {wanted}")
    word, line = _word(block, problems, "implication")
    if defuzz == "centroid" and line == block.line:
        problems.add(line, where, "no implication (is the file cut off?); fuzzeval clips "
                                  "(implication: Minimum)")
    elif defuzz == "centroid" and word != "Minimum":
        problems.add(line, where, f"implication {word}; fuzzeval clips (Minimum)")
    elif defuzz != "centroid" and word not in ("Minimum", "none"):
        problems.add(line, where, f"implication {word}; fuzzeval clips (Minimum), and "
                                  "Constant conclusions need none")
    word, line = _word(block, problems, "activation")
    if word not in ("General", "none"):
        problems.add(line, where, f"activation {word}; fuzzeval fires every rule (General)")
    ands = ors = False

    def used(a: bool, o: bool) -> None:
        nonlocal ands, ors
        ands, ors = ands or a, ors or o

    rules: list[RuleSpec] = []
    for key, text, number in block.props:
        if key != "rule" or output is None:
            continue
        try:
            cond, term, weight = _rule(text, inputs, output, used, broken)
        except _RuleError as exc:
            problems.add(number, "rule", str(exc))
            continue
        except _Unchecked:
            continue
        rules.append(RuleSpec(cond, term, weight, number))
    if not any(key == "rule" for key, _, _ in block.props):
        problems.add(block.line, where, "has no rules (is the file cut off?)")
    for key, flag in (("conjunction", ands), ("disjunction", ors)):
        if flag and norms[key][0] == "none":
            problems.add(norms[key][1], where, f"{key} none, but a rule uses "
                                               f"{'and' if key == 'conjunction' else 'or'}")
    return rules


# --- writing ---------------------------------------------------------------------------


def _one_line(text: str) -> str:
    """A description as FLL holds it: one line; none where it has a '#' (which starts a
    comment in FLL)."""
    return "" if "#" in text else " ".join(text.split())


def _condition(cond: Condition, top: bool = True) -> str:
    literal = term_nots(cond)
    if literal is not None:  # negation normal form: every not is on a term
        leaf, nots = literal
        return f"{leaf.variable} is {'not ' * nots}{leaf.term}"
    assert isinstance(cond, And | Or)
    word = " and " if isinstance(cond, And) else " or "
    text = word.join(_condition(c, False) for c in cond.operands)
    return text if top else f"({text})"


def export_problems(rb: RuleBase) -> list[str]:
    """Why ``rb`` cannot be written as FLL (names fuzzylite reads as keywords)."""
    found = [f"{name!r} (of {var.name}) is a word FLL rules reserve "
             f"({', '.join(sorted(RESERVED))}); rename it"
             for var in (*rb.inputs, rb.output) for name in (var.name, *var.term_names)
             if name in RESERVED or not _NAME.match(name)]
    if rb.defuzzifier != "centroid":
        found += [f"output term {t.name!r} is a triangle "
                  f"[{', '.join(map(fmt, t.triangle.points))}]; fuzzylite's "
                  f"{rb.defuzzifier} takes Constant terms: write it as its peak "
                  f"{fmt(t.triangle.peak)}"
                  for t in rb.output.terms if not t.triangle.is_singleton]
    if not _NAME.match(rb.name):
        found.append(f"the name {rb.name!r} must be one word of letters, digits and _ in FLL")
    return found


def write_fll(rb: RuleBase, source: str | None = None) -> str:
    """FLL text fuzzylite reads as the same controller; ConversionError if it cannot be
    (its problems named by ``source``, the YAML file, or else the rule base's name)."""
    bad = export_problems(rb)
    if bad:
        problems = Problems(source or rb.name)
        for b in bad:
            problems.add(None, "export to FLL", b)
        raise problems.fail()
    lines = [f"Engine: {rb.name}"]
    if _one_line(rb.description):
        lines.append(f"  description: {_one_line(rb.description)}")

    def var_lines(v: Variable, kind: str, lock: bool) -> None:
        lines.append(f"{kind}: {v.name}")
        if _one_line(v.description):
            lines.append(f"  description: {_one_line(v.description)}")
        lines.extend(["  enabled: true", f"  range: {fmt(v.lo)} {fmt(v.hi)}",
                      f"  lock-range: {'true' if lock else 'false'}"])

    for v in rb.inputs:
        var_lines(v, "InputVariable", True)
        lines += [f"  term: {t.name} Triangle {' '.join(map(fmt, t.triangle.points))}"
                  for t in v.terms]
    var_lines(rb.output, "OutputVariable", False)
    if rb.defuzzifier == "centroid":
        lines += ["  aggregation: Maximum", f"  defuzzifier: Centroid {EXPORT_RESOLUTION}"]
    else:
        name = "WeightedAverage" if rb.defuzzifier == "weighted_average" else "WeightedSum"
        lines += ["  aggregation: none", f"  defuzzifier: {name} TakagiSugeno"]
    lines += [f"  default: {fmt(rb.default)}", "  lock-previous: false"]
    for t in rb.output.terms:
        if rb.defuzzifier == "centroid":
            lines.append(f"  term: {t.name} Triangle {' '.join(map(fmt, t.triangle.points))}")
        else:
            lines.append(f"  term: {t.name} Constant {fmt(t.triangle.peak)}")
    implication = "Minimum" if rb.defuzzifier == "centroid" else "none"
    lines += ["RuleBlock: rules", "  enabled: true", "  conjunction: Minimum",
              "  disjunction: Maximum", f"  implication: {implication}",
              "  activation: General"]
    for r in rb.rules:
        text = f"  rule: if {_condition(negation_normal(r.condition))} then " \
               f"{rb.output.name} is {r.output_term}"
        lines.append(text if r.weight == 1.0 else f"{text} with {fmt(r.weight)}")
    return "\n".join(lines) + "\n"


__all__ = ["ConversionError", "read_fll", "write_fll"]
