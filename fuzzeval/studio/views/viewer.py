"""The rule viewer: one candidate explained by the evaluator (``Evaluator.explain``, what
``fuzzeval evaluate --explain`` prints)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fuzzeval.studio.views.base import usable


def explain(text: str, path: str, inputs: Mapping[str, float]) -> dict[str, Any]:
    """Memberships, each rule's strength, each output term's activation and the grade."""
    rb, ev = usable(text, path)
    out = ev.explain(dict(inputs)).to_dict()
    out["defuzzifier"] = rb.defuzzifier
    return out
