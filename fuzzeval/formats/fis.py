"""MATLAB's and Octave's FIS files in and out, for the subset that maps exactly.

What converts: ``Type='mamdani'`` with ``min``/``max`` and/or, ``min`` implication, ``max``
aggregation and ``centroid``; ``Type='sugeno'`` with ``constant`` outputs (zero-order
Takagi-Sugeno), ``sum`` aggregation and ``wtaver`` (fuzzeval's weighted_average) or
``wtsum`` (weighted_sum); ``trimf`` terms, and a ``trapmf`` with one top point; rules
``1 -2, 3 (0.5) : 1`` (0: the input is absent, a negative index: NOT, connective 1: AND,
2: OR, the weight in parentheses); one output. Everything else is refused, located.

A FIS file has no default grade: MATLAB grades the middle of the output range where no rule
fires, and so does an import without ``default``. A FIS rule is one AND, or one OR, of at
most one term per input, so only such fuzzeval rules can be written (after De Morgan).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fuzzeval.engine.rulebase import (
    And,
    Condition,
    Defuzzifier,
    Is,
    Not,
    Or,
    Rule,
    RuleBase,
    Variable,
)
from fuzzeval.formats.conversion import (
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

SYSTEM_KEYS = ("Name", "Type", "Version", "NumInputs", "NumOutputs", "NumRules", "AndMethod",
               "OrMethod", "ImpMethod", "AggMethod", "DefuzzMethod")
VARIABLE_KEYS = ("Name", "Range", "NumMFs")
OTHER_MFS = {
    "gaussmf": "a Gaussian", "gauss2mf": "a two-sided Gaussian",
    "gbellmf": "a generalized bell", "sigmf": "a sigmoid", "dsigmf": "a difference of sigmoids",
    "psigmf": "a product of sigmoids", "smf": "an S-shape", "zmf": "a Z-shape",
    "pimf": "a Pi-shape", "linsmf": "a linear S-shape", "linzmf": "a linear Z-shape",
}
_SECTION = re.compile(r"\[(System|Input|Output|Rules)(\d*)\]\Z")
_MF = re.compile(r"'([^']*)'\s*:\s*'([^']*)'\s*,\s*\[([^\]]*)\]\Z")
_RULE = re.compile(r"([-\d\s.]+),([-\d\s.]+)\(([^)]*)\)\s*:\s*(\S+)\Z")


@dataclass
class _Section:
    kind: str
    index: int
    line: int
    values: dict[str, tuple[str, int]] = field(default_factory=dict)
    mfs: list[tuple[int, str, int]] = field(default_factory=list)  # (k, text, line)
    rules: list[tuple[str, int]] = field(default_factory=list)

    @property
    def title(self) -> str:
        return f"[{self.kind}{self.index or ''}]"


def _sections(text: str, problems: Problems) -> list[_Section]:
    sections: list[_Section] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "%#":
            continue
        if line.startswith("["):
            m = _SECTION.match(line)
            if m is None or (m.group(1) in ("Input", "Output")) != bool(m.group(2)):
                problems.add(number, f"section {line[:40]}",
                             "unknown; FIS has [System], [Input1] ..., [Output1], [Rules]")
                sections.append(_Section("?", 0, number))
                continue
            sections.append(_Section(m.group(1), int(m.group(2) or 0), number))
            continue
        if not sections:
            problems.add(number, "(line)", "before [System]")
            continue
        sec = sections[-1]
        if sec.kind == "?":
            continue
        if sec.kind == "Rules":
            sec.rules.append((line, number))
            continue
        key, eq, value = line.partition("=")
        key, value = key.strip(), value.strip()
        allowed = SYSTEM_KEYS if sec.kind == "System" else VARIABLE_KEYS
        if not eq:
            problems.add(number, sec.title, f"expected Key=Value (got {line[:40]!r})")
        elif sec.kind != "System" and re.fullmatch(r"MF\d+", key):
            sec.mfs.append((int(key[2:]), value, number))
        elif key not in allowed:
            problems.add(number, sec.title, f"unknown key {key!r}; {sec.title} has "
                                            f"{', '.join(allowed)}"
                                            + (", MF1 ..." if sec.kind != "System" else ""))
        elif key in sec.values:
            problems.add(number, sec.title, f"{key} given twice")
        else:
            sec.values[key] = (value, number)
    return sections


def _quoted(problems: Problems, sec: _Section, key: str) -> tuple[str, int] | None:
    got = sec.values.get(key)
    if got is None:
        problems.add(sec.line, sec.title, f"missing {key}=")
        return None
    value, line = got
    if len(value) < 2 or value[0] != "'" or value[-1] != "'":
        problems.add(line, sec.title, f"{key} must be quoted, {key}='...' (got {value!r})")
        return None
    return value[1:-1], line


def _count(problems: Problems, sec: _Section, key: str) -> tuple[int, int] | None:
    got = sec.values.get(key)
    if got is None:
        problems.add(sec.line, sec.title, f"missing {key}=")
        return None
    if not got[0].isdigit():
        problems.add(got[1], sec.title, f"{key} must be a whole number (got {got[0]!r})")
        return None
    return int(got[0]), got[1]


def _numbers(text: str) -> list[float] | None:
    values = [finite(p) for p in text.replace(",", " ").split()]
    return None if None in values else [v for v in values if v is not None]


def _variable(problems: Problems, sec: _Section, role: str) -> Variable | None:
    """An [InputN] or [OutputN]; ``role``: input, output (mamdani) or constant (sugeno)."""
    name = _quoted(problems, sec, "Name")
    got = sec.values.get("Range")
    rng = None
    if got is None:
        problems.add(sec.line, sec.title, "missing Range=[low high]")
    else:
        inner = got[0].strip()
        values = _numbers(inner[1:-1]) if inner[:1] == "[" and inner[-1:] == "]" else None
        if values is None or len(values) != 2:
            problems.add(got[1], sec.title, f"Range must be [low high] (got {got[0]!r})")
        elif not values[0] < values[1]:
            problems.add(got[1], sec.title, f"Range {got[0]}: low must be below high")
        else:
            rng = (values[0], values[1])
    count = _count(problems, sec, "NumMFs")
    if count is not None and count[0] != len(sec.mfs):
        problems.add(count[1], sec.title, f"NumMFs={count[0]} but {len(sec.mfs)} MF lines "
                                          "follow (is the file cut off?)")
    terms = []
    for k, (index, text, line) in enumerate(sec.mfs, 1):
        if index != k:
            problems.add(line, sec.title, f"MF{index} where MF{k} was expected")
            continue
        term = _mf(problems, text, line, rng, role) if rng is not None else None
        if term is not None:
            terms.append(term)
    if name is None or rng is None or len(terms) != len(sec.mfs):
        return None
    return variable(problems, VariableSpec(name[0], rng[0], rng[1], tuple(terms), sec.line),
                    "input" if sec.kind == "Input" else "output")


def _mf(problems: Problems, text: str, line: int, rng: tuple[float, float] | None,
        role: str) -> TermSpec | None:
    m = _MF.match(text)
    if m is None:
        problems.add(line, "MF", f"expected 'name':'type',[parameters] (got {text[:50]!r})")
        return None
    name, kind, params = m.group(1), m.group(2), _numbers(m.group(3))
    where = f"term {name!r}"
    if kind in OTHER_MFS:
        problems.add(line, where, f"is {OTHER_MFS[kind]} ({kind}); fuzzeval has triangles")
        return None
    if kind == "linear":
        problems.add(line, where, "is linear (first-order Takagi-Sugeno); fuzzeval's "
                                  "conclusions are constants")
        return None
    needs = {"trimf": 3, "trapmf": 4, "constant": 1}.get(kind)
    if needs is None:
        problems.add(line, where, f"unknown membership function {kind!r}")
        return None
    if params is None or len(params) != needs:
        problems.add(line, where, f"{kind} takes {needs} number(s) (got [{m.group(3)}])"
                     + (" (is the file cut off?)" if params is not None
                        and len(params) < needs else ""))
        return None
    if (kind == "constant") != (role == "constant"):
        problems.add(line, where, f"is {kind}; " + (
            "a sugeno output's terms are constant" if role == "constant" else
            "input terms and a mamdani output's terms are triangles"))
        return None
    if kind == "constant":
        return TermSpec(name, (params[0], params[0], params[0]), line)
    if sorted(params) != params:
        problems.add(line, where, f"{kind} points [{m.group(3)}] must not decrease")
        return None
    if kind == "trapmf":
        if params[1] != params[2]:
            problems.add(line, where, f"is a trapezoid with a flat top from {fmt(params[1])} "
                                      f"to {fmt(params[2])}; fuzzeval has triangles")
            return None
        return TermSpec(name, (params[0], params[1], params[3]), line)
    return TermSpec(name, (params[0], params[1], params[2]), line)


_METHODS: dict[str, dict[str, tuple[str, ...]]] = {
    "mamdani": {"AndMethod": ("min",), "OrMethod": ("max",), "ImpMethod": ("min",),
                "AggMethod": ("max",), "DefuzzMethod": ("centroid",)},
    "sugeno": {"AndMethod": ("min",), "OrMethod": ("max",), "ImpMethod": ("prod", "min"),
               "AggMethod": ("sum",), "DefuzzMethod": ("wtaver", "wtsum")},
}
_WHY = {"AndMethod": "fuzzeval's and is min", "OrMethod": "fuzzeval's or is max",
        "ImpMethod": "fuzzeval clips (min)",
        "AggMethod": "fuzzeval aggregates with max (mamdani) or sums rule by rule (sugeno)",
        "DefuzzMethod": "fuzzeval has centroid (mamdani), wtaver and wtsum (sugeno)"}


def read_fis(text: str, path: str = "<fis>", default: float | None = None
             ) -> tuple[RuleBase, list[str]]:
    """The rule base a FIS text describes, and warnings; ConversionError with every located
    problem if it is malformed or outside the subset. Without ``default``, the grade where
    no rule fires is the middle of the output range (MATLAB's)."""
    problems = Problems(path)
    sections = _sections(text, problems)
    systems = [s for s in sections if s.kind == "System"]
    if not systems:
        problems.add(None, "[System]", "missing" + (" (is the file cut off?)"
                                                    if sections else " (is it a FIS file?)"))
        raise problems.fail()
    system = systems[0]
    for extra in systems[1:]:
        problems.add(extra.line, "[System]", "given twice")
    name = _quoted(problems, system, "Name")
    kind = _quoted(problems, system, "Type")
    if kind is not None and kind[0] not in _METHODS:
        problems.add(kind[1], "[System]", f"Type={kind[0]!r}; fuzzeval converts mamdani and "
                                          "sugeno systems")
    methods: dict[str, str] = {}
    for key in ("AndMethod", "OrMethod", "ImpMethod", "AggMethod", "DefuzzMethod"):
        got = _quoted(problems, system, key)
        if got is None or kind is None or kind[0] not in _METHODS:
            continue
        methods[key] = got[0]
        if got[0] not in _METHODS[kind[0]][key]:
            problems.add(got[1], "[System]", f"{key}={got[0]!r} in a {kind[0]} system; "
                                             f"{_WHY[key]}")
    counts = {k: _count(problems, system, k) for k in ("NumInputs", "NumOutputs", "NumRules")}
    n_out = counts["NumOutputs"]
    if n_out is not None and n_out[0] != 1:
        problems.add(n_out[1], "[System]", f"NumOutputs={n_out[0]}; fuzzeval has one output")
    sugeno = kind is not None and kind[0] == "sugeno"
    defuzz: Defuzzifier = ("centroid" if not sugeno else
                           "weighted_sum" if methods.get("DefuzzMethod") == "wtsum" else
                           "weighted_average")

    in_secs = [s for s in sections if s.kind == "Input"]
    out_secs = [s for s in sections if s.kind == "Output"]
    for secs, key in ((in_secs, "NumInputs"), (out_secs, "NumOutputs")):
        for k, sec in enumerate(secs, 1):
            if sec.index != k:
                problems.add(sec.line, sec.title, f"where [{sec.kind}{k}] was expected")
        stated = counts[key]
        if stated is not None and stated[0] != len(secs):
            problems.add(stated[1], "[System]", f"{key}={stated[0]} but the file has {len(secs)} "
                                             f"[{secs[0].kind if secs else key[3:-1]}N] "
                                             "sections (is it cut off?)")
    inputs = [_variable(problems, s, "input") for s in in_secs]
    output = (_variable(problems, out_secs[0], "constant" if sugeno else "output")
              if out_secs else None)
    if not out_secs:
        problems.add(None, "[Output1]", "missing (is the file cut off?)")
    names = [v.name for v in inputs if v is not None]
    for dup in sorted({n for n in names if names.count(n) > 1}):
        problems.add(None, f"input {dup!r}", "defined twice")
    rules_secs = [s for s in sections if s.kind == "Rules"]
    if not rules_secs:
        problems.add(None, "[Rules]", "missing (is the file cut off?)")
    rule_lines = [r for s in rules_secs for r in s.rules]
    stated = counts["NumRules"]
    if stated is not None and stated[0] != len(rule_lines):
        problems.add(stated[1], "[System]", f"NumRules={stated[0]} but [Rules] has "
                                         f"{len(rule_lines)} (is the file cut off?)")
    rules = []
    if None not in inputs and output is not None:
        ready = [v for v in inputs if v is not None]
        for text, line in rule_lines:
            rule = _rule(problems, text, line, ready, output)
            if rule is not None:
                rules.append(rule)
    if problems.found or output is None or name is None or None in inputs:
        raise problems.fail()
    value = (output.lo + output.hi) / 2 if default is None else default
    if not output.lo <= value <= output.hi:
        problems.add(None, "default", f"{fmt(value)} must lie in the output range "
                                      f"[{fmt(output.lo)}, {fmt(output.hi)}]")
    rb = assemble(problems, name[0], "", defuzz, value, [v for v in inputs if v is not None],
                  output, rules)
    return rb, []


def _rule(problems: Problems, text: str, line: int, inputs: list[Variable],
          output: Variable) -> RuleSpec | None:
    m = _RULE.match(text)
    if m is None:
        problems.add(line, "rule", f"expected 'i1 i2 ..., o (weight) : 1|2' (got {text[:50]!r}; "
                                   "is it cut off?)")
        return None
    ants, cons = m.group(1).split(), m.group(2).split()
    weight, link = finite(m.group(3)), m.group(4)
    if len(ants) != len(inputs) or len(cons) != 1:
        problems.add(line, "rule", f"needs {len(inputs)} input index(es) and 1 output index "
                                   f"(got {len(ants)} and {len(cons)})")
        return None
    if not all(re.fullmatch(r"-?\d+", a) for a in (*ants, *cons)):
        problems.add(line, "rule", "indexes must be whole numbers (hedges such as 0.2 are "
                                   "not converted)")
        return None
    if weight is None or not 0 < weight <= 1:
        problems.add(line, "rule", f"weight ({m.group(3)}) must be a number in (0, 1]")
        return None
    if link not in ("1", "2"):
        problems.add(line, "rule", f"connective {link!r} must be 1 (AND) or 2 (OR)")
        return None
    literals: list[Condition] = []
    for var, a in zip(inputs, map(int, ants), strict=True):
        if a == 0:
            continue
        if abs(a) > len(var.terms):
            problems.add(line, "rule", f"names MF{abs(a)} of input {var.name!r}, which has "
                                       f"{len(var.terms)}")
            return None
        leaf: Condition = Is(var.name, var.terms[abs(a) - 1].name)
        literals.append(Not(leaf) if a < 0 else leaf)
    c = int(cons[0])
    if not literals:
        problems.add(line, "rule", "every input index is 0: the rule has no condition")
        return None
    if c <= 0 or c > len(output.terms):
        problems.add(line, "rule", "NOT on the conclusion; fuzzeval concludes on a term"
                     if c < 0 else f"output index {c} must name one of the output's "
                                   f"{len(output.terms)} MFs")
        return None
    cond = literals[0] if len(literals) == 1 else (And if link == "1" else Or)(tuple(literals))
    return RuleSpec(cond, output.terms[c - 1].name, weight, line)


# --- writing ---------------------------------------------------------------------------


def _row(cond: Condition, inputs: list[Variable]) -> tuple[list[int], int] | str:
    """The rule's input indexes and connective, or why a FIS rule cannot say it."""
    cond = negation_normal(cond)
    literals = cond.operands if isinstance(cond, And | Or) else (cond,)
    found = [term_nots(c) for c in literals]
    if None in found:
        return "it nests 'and' and 'or'; a FIS rule is one AND, or one OR, of terms"
    index = {v.name: k for k, v in enumerate(inputs)}
    row = [0] * len(inputs)
    for leaf, nots in (f for f in found if f is not None):
        k = index[leaf.variable]
        if row[k]:
            return f"it reads input {leaf.variable!r} twice; a FIS rule names one term per input"
        if nots > 1:
            return f"'not not {leaf.variable} is {leaf.term}': a FIS index negates once"
        t = inputs[k].term_names.index(leaf.term) + 1
        row[k] = -t if nots else t
    return row, 2 if isinstance(cond, Or) else 1


def write_fis(rb: RuleBase, source: str | None = None) -> tuple[str, list[str]]:
    """FIS text MATLAB and Octave read as the same controller, and warnings (the default
    a FIS file cannot hold); ConversionError with every rule that a FIS file cannot hold
    (named by ``source``, the YAML file, or else the rule base's name)."""
    problems = Problems(source or rb.name)
    rows: list[tuple[tuple[list[int], int], Rule]] = []
    for k, (r, text) in enumerate(zip(rb.rules, rb.rule_texts(), strict=True)):
        row = _row(r.condition, list(rb.inputs))
        if isinstance(row, str):
            problems.add(None, f"rules[{k}]", f"{text!r}: {row}")
        else:
            rows.append((row, r))
    if rb.defuzzifier != "centroid":
        for t in rb.output.terms:
            if not t.triangle.is_singleton:
                problems.add(None, f"output term {t.name!r}", "is a triangle; a sugeno "
                             f"output's terms are constant: write it as {fmt(t.triangle.peak)}")
    if "'" in rb.name or not rb.name.isprintable():
        problems.add(None, "name", f"{rb.name!r}: a FIS name is quoted with ', so it may "
                                   "not hold one (nor a line break)")
    if problems.found:
        raise problems.fail()
    sugeno = rb.defuzzifier != "centroid"
    method = {"centroid": "centroid", "weighted_average": "wtaver",
              "weighted_sum": "wtsum"}[rb.defuzzifier]
    lines = ["[System]", f"Name='{rb.name}'", f"Type='{'sugeno' if sugeno else 'mamdani'}'",
             "Version=2.0", f"NumInputs={len(rb.inputs)}", "NumOutputs=1",
             f"NumRules={len(rb.rules)}", "AndMethod='min'", "OrMethod='max'",
             f"ImpMethod='{'prod' if sugeno else 'min'}'",
             f"AggMethod='{'sum' if sugeno else 'max'}'", f"DefuzzMethod='{method}'"]
    for kind, variables in (("Input", rb.inputs), ("Output", (rb.output,))):
        for k, v in enumerate(variables, 1):
            lines += ["", f"[{kind}{k}]", f"Name='{v.name}'", f"Range=[{fmt(v.lo)} {fmt(v.hi)}]",
                      f"NumMFs={len(v.terms)}"]
            for j, t in enumerate(v.terms, 1):
                if kind == "Output" and sugeno:
                    lines.append(f"MF{j}='{t.name}':'constant',[{fmt(t.triangle.peak)}]")
                else:
                    points = " ".join(map(fmt, t.triangle.points))
                    lines.append(f"MF{j}='{t.name}':'trimf',[{points}]")
    lines += ["", "[Rules]"]
    for (indexes, link), r in rows:
        conclusion = rb.output.term_names.index(r.output_term) + 1
        lines.append(f"{' '.join(map(str, indexes))}, {conclusion} ({fmt(r.weight)}) : {link}")
    warnings = []
    middle = (rb.output.lo + rb.output.hi) / 2
    if rb.default != middle:
        warnings.append(f"warning: a FIS file has no default grade: where no rule fires, "
                        f"MATLAB grades the middle of the output range, {fmt(middle)}, "
                        f"where {rb.name} grades {fmt(rb.default)}")
    return "\n".join(lines) + "\n", warnings


__all__ = ["read_fis", "write_fis"]
