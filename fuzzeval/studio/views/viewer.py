"""The rule viewer: one candidate explained by the evaluator (``Evaluator.explain``, what
``fuzzeval evaluate --explain`` prints), and the output sets behind its grade
(``fuzzeval.engine.output_sets``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fuzzeval.engine.output_sets import output_sets
from fuzzeval.studio.views.base import usable


def explain(text: str, path: str, inputs: Mapping[str, float]) -> dict[str, Any]:
    """Memberships, each rule's strength, each output term's activation and the grade;
    ``output``: the clipped terms and their aggregate, or the singletons' contributions."""
    rb, ev = usable(text, path)
    exp = ev.explain(dict(inputs))
    return {**exp.to_dict(), "defuzzifier": rb.defuzzifier,
            "output": output_sets(rb, exp).to_dict()}
