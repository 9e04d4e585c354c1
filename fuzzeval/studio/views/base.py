"""A rule base's text, read by the library's loader once per text: the base and its
problems (the same lines as ``fuzzeval rulebase check``), and its compiled evaluator."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from fuzzeval.engine.evaluator import Evaluator, compile_rulebase
from fuzzeval.engine.rulebase import RuleBase, Variable
from fuzzeval.errors import Problem, UsageError
from fuzzeval.formats.loading import parse_rulebase


class Unusable(UsageError):
    """A text with errors, asked for what only a usable rule base answers."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        errors = [str(p) for p in problems if p.severity == "error"]
        super().__init__(errors[0] if errors else "the rule base has errors")


@dataclass(frozen=True)
class Read:
    rulebase: RuleBase | None
    problems: tuple[Problem, ...]


@lru_cache(maxsize=8)
def read(text: str, path: str) -> Read:
    """The loader's answer for ``text`` (named ``path`` in its problems)."""
    rb, problems = parse_rulebase(text, path)
    return Read(rb, tuple(problems))


@lru_cache(maxsize=8)
def _compiled(rb: RuleBase) -> Evaluator:
    return compile_rulebase(rb)


def usable(text: str, path: str) -> tuple[RuleBase, Evaluator]:
    """The rule base and its evaluator, or Unusable with its problems."""
    found = read(text, path)
    if found.rulebase is None:
        raise Unusable(list(found.problems))
    return found.rulebase, _compiled(found.rulebase)


def problem_dict(p: Problem) -> dict[str, Any]:
    return {"line": p.line, "key": p.key, "message": p.message, "severity": p.severity,
            "text": str(p)}


def variable_dict(v: Variable) -> dict[str, Any]:
    return {"name": v.name, "lo": v.lo, "hi": v.hi, "description": v.description,
            "terms": [{"name": t.name, "points": list(t.triangle.points),
                       "adjust": list(t.adjust)} for t in v.terms]}


def rulebase_dict(rb: RuleBase) -> dict[str, Any]:
    """What the views draw: variables with their terms' points, the rules in words."""
    return {"name": rb.name, "description": rb.description, "made_by": rb.made_by,
            "defuzzifier": rb.defuzzifier,
            "default": rb.default, "inputs": [variable_dict(v) for v in rb.inputs],
            "output": variable_dict(rb.output),
            "rules": [{"text": t, "weight": r.weight, "output_term": r.output_term}
                      for r, t in zip(rb.rules, rb.rule_texts(), strict=True)]}


def check(text: str, path: str) -> dict[str, Any]:
    """The editor's answer to each change: every problem, and the base when it loads."""
    found = read(text, path)
    return {"problems": [problem_dict(p) for p in found.problems],
            "ok": found.rulebase is not None,
            "rulebase": rulebase_dict(found.rulebase) if found.rulebase is not None else None}
