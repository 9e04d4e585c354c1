"""RuleBase -> YAML text, with a stable key order: ``parse_rulebase`` of it gives the rule
base back, and a match's fingerprint is its bytes."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from fuzzeval.engine.rulebase import RuleBase, Term, Variable
from fuzzeval.errors import expect


class _Flow(list[Any]):
    """A list written inline: [0, 5, 10]."""


def _flow(dumper: yaml.SafeDumper, value: _Flow) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=True)


class _PyDumper(yaml.SafeDumper):
    pass


_PyDumper.add_representer(_Flow, _flow)
_Dumper: type = _PyDumper
try:
    from yaml.cyaml import CSafeDumper
except ImportError:  # PyYAML built without libyaml
    pass
else:
    #: libyaml's emitter where PyYAML has it, written in a fifth of the time (a match's
    #: fingerprint writes its bases); rulebase_to_yaml says when its bytes are PyYAML's.
    class _CDumper(CSafeDumper):
        pass

    _CDumper.add_representer(_Flow, _flow)  # type: ignore[arg-type]
    _Dumper = _CDumper


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() and abs(x) < 2**53 else float(x)


def _term_data(term: Term, is_output: bool) -> Any:
    pts = _Flow(_num(v) for v in term.triangle.points)
    if term.bounds is not None:
        return {"points": _num(term.triangle.peak), "bounds": _Flow(_num(b) for b in term.bounds)}
    if term.adjust:
        return {"points": pts, "adjust": _Flow(term.adjust)}
    if is_output and term.triangle.is_singleton:
        return _num(term.triangle.peak)
    return pts


def _variable_data(var: Variable, is_output: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"name": var.name} if is_output else {}
    if var.description:
        data["description"] = var.description
    data["range"] = _Flow([_num(var.lo), _num(var.hi)])
    data["terms"] = {t.name: _term_data(t, is_output) for t in var.terms}
    return data


def rulebase_to_yaml(rb: RuleBase) -> str:
    """YAML text with a stable key order; ``parse_rulebase`` of it gives ``rb`` back."""
    expect(rb, RuleBase, "rulebase_to_yaml(rb)")
    data: dict[str, Any] = {"name": rb.name}
    if rb.description:
        data["description"] = rb.description
    if rb.made_by:
        data["made_by"] = rb.made_by
    data["defuzzifier"] = rb.defuzzifier
    data["default"] = _num(rb.default)
    data["resolution"] = rb.resolution
    data["inputs"] = {v.name: _variable_data(v, False) for v in rb.inputs}
    data["output"] = _variable_data(rb.output, True)
    data["rules"] = [
        text if r.weight == 1.0 else {"rule": text, "weight": _num(r.weight)}
        for r, text in zip(rb.rules, rb.rule_texts(), strict=True)
    ]
    def dump(dumper: type) -> str:
        out: str = yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True,
                             width=100)
        return out

    text = dump(_Dumper)
    if _Dumper is not _PyDumper and (not text.isascii() or '"' in text):
        # libyaml writes some text otherwise than PyYAML (characters beyond U+FFFF, U+0085,
        # the folding of double-quoted lines): only plain and single-quoted ASCII is the
        # same bytes (tests/test_loading.py), and a shipped base is that
        text = dump(_PyDumper)
    return text


def dump_rulebase(rb: RuleBase, path: str | os.PathLike[str]) -> None:
    expect(rb, RuleBase, "dump_rulebase(rb)")
    expect(path, (str, os.PathLike), "dump_rulebase(path)")
    Path(path).write_text(rulebase_to_yaml(rb), encoding="utf-8")
