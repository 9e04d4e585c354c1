"""Write moved points back into a rule base's own YAML text, keeping its comments.

The calibrator changes numbers, not structure, so instead of dumping a new document we
replace the number scalars of each input term's points where they stand in the original
text (PyYAML's node tree knows every scalar's position). Anything else is left as written.
"""

from __future__ import annotations

import yaml

from fuzzeval.loading import parse_rulebase
from fuzzeval.rulebase import RuleBase


def _number(x: float) -> str:
    """As YAML 1.1 reads it back as the same float: 1e-05 would be a string there, so an
    exponent always comes with a decimal point (1.0e-05)."""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    text = repr(float(x))
    if "e" in text and "." not in text.split("e")[0]:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def _value(mapping: yaml.Node | None, key: str) -> yaml.Node | None:
    if not isinstance(mapping, yaml.MappingNode):
        return None
    for k, v in mapping.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            node: yaml.Node = v
            return node
    return None


def rewrite_points(text: str, rb: RuleBase) -> str:
    """``text`` (a rule base) with every input term's points, and every output singleton,
    set to those of ``rb``.

    Raises ValueError when the text is not the same rule base apart from the points.
    """
    if any(isinstance(e, yaml.AliasEvent) for e in yaml.parse(text, Loader=yaml.SafeLoader)):
        raise ValueError("the rule base uses YAML anchors and aliases (&name, *name), so one "
                         "written number stands for several points; write the shared terms "
                         "out in full to have its points moved")
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    inputs = _value(root, "inputs")
    edits: list[tuple[int, int, str]] = []
    for var in rb.inputs:
        terms = _value(_value(inputs, var.name), "terms")
        for term in var.terms:
            node = _value(terms, term.name)
            if isinstance(node, yaml.MappingNode):
                node = _value(node, "points")
            if not isinstance(node, yaml.SequenceNode) or len(node.value) != 3:
                raise ValueError(f"inputs.{var.name}.terms.{term.name}: no points to rewrite")
            for scalar, x in zip(node.value, term.triangle.points, strict=True):
                edits.append((scalar.start_mark.index, scalar.end_mark.index, _number(x)))
    output_terms = _value(_value(root, "output"), "terms")
    for term in rb.output.terms:
        node = _value(output_terms, term.name)
        if isinstance(node, yaml.MappingNode):
            node = _value(node, "points")
        if isinstance(node, yaml.ScalarNode):  # a singleton written as one number
            edits.append((node.start_mark.index, node.end_mark.index,
                          _number(term.triangle.peak)))
        elif isinstance(node, yaml.SequenceNode) and len(node.value) == 3:
            for scalar, x in zip(node.value, term.triangle.points, strict=True):
                edits.append((scalar.start_mark.index, scalar.end_mark.index, _number(x)))
        else:
            raise ValueError(f"output.terms.{term.name}: no points to rewrite")
    out = text
    for start, end, new in sorted(edits, reverse=True):
        out = out[:start] + new + out[end:]
    back, problems = parse_rulebase(out)
    if back is None or back.inputs != rb.inputs or back.output != rb.output:
        raise ValueError("the rewritten text does not give the moved rule base back"
                         + (": " + "; ".join(str(p) for p in problems) if problems else ""))
    return out
