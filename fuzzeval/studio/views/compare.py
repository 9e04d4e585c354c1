"""Two rule bases side by side: both as the views draw them, and a list of what changed
from the first to the second (variables, terms and their points, rules and their weights,
the settings), in words a person reads."""

from __future__ import annotations

from typing import Any

from fuzzeval.engine.rulebase import RuleBase, Variable
from fuzzeval.studio.views.base import rulebase_dict, usable

POINTS = ("left", "peak", "right")


def _variable_changes(kind: str, a: Variable, b: Variable) -> list[str]:
    out = []
    if (a.lo, a.hi) != (b.lo, b.hi):
        out.append(f"{kind} {a.name}: range [{a.lo:g}, {a.hi:g}] -> [{b.lo:g}, {b.hi:g}]")
    after = {t.name: t for t in b.terms}
    for t in a.terms:
        if t.name not in after:
            out.append(f"{kind} {a.name}: term {t.name} removed")
            continue
        for point, x, y in zip(POINTS, t.triangle.points, after[t.name].triangle.points,
                               strict=True):
            if x != y:
                out.append(f"{a.name}.{t.name}.{point}: {x:g} -> {y:g}")
    out += [f"{kind} {b.name}: term {name} added" for name in after
            if name not in a.term_names]
    return out


def changes(a: RuleBase, b: RuleBase) -> list[str]:
    """What differs from ``a`` to ``b``, one line each, in file order."""
    out = [f"{key}: {getattr(a, key)!r} -> {getattr(b, key)!r}"
           for key in ("name", "defuzzifier", "default", "made_by")
           if getattr(a, key) != getattr(b, key)]
    inputs = {v.name: v for v in b.inputs}
    for v in a.inputs:
        if v.name in inputs:
            out += _variable_changes("input", v, inputs[v.name])
        else:
            out.append(f"input {v.name} removed")
    out += [f"input {n} added" for n in inputs if n not in a.input_names]
    if a.output.name != b.output.name:
        out.append(f"output: {a.output.name} -> {b.output.name}")
    else:
        out += _variable_changes("output", a.output, b.output)
    before = dict(zip(a.rule_texts(), (r.weight for r in a.rules), strict=True))
    now = dict(zip(b.rule_texts(), (r.weight for r in b.rules), strict=True))
    out += [f"rule removed: {t}" for t in before if t not in now]
    out += [f"rule added: {t}" for t in now if t not in before]
    out += [f"rule weight {before[t]:g} -> {now[t]:g}: {t}" for t in before
            if t in now and before[t] != now[t]]
    return out


def compare(a: tuple[str, str], b: tuple[str, str]) -> dict[str, Any]:
    """Rule bases ``a`` and ``b`` (each its text and path) as the views draw them, and
    ``changes`` from a to b."""
    first, _ = usable(*a)
    second, _ = usable(*b)
    return {"a": rulebase_dict(first), "b": rulebase_dict(second),
            "changes": changes(first, second)}
