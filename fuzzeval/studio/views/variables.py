"""The variables view: a term's point moved, written into the text by the point writer
the calibrator uses (``fuzzeval.formats.yaml_edit.rewrite_points``: the comments kept,
those stating the old number left out)."""

from __future__ import annotations

from typing import Any

from fuzzeval.engine.rulebase import PointRef
from fuzzeval.formats.yaml_edit import rewrite_points
from fuzzeval.studio.views.base import check, usable

POINTS = ("left", "peak", "right")


def move(text: str, path: str, variable: str, term: str, point: str,
         value: float) -> dict[str, Any]:
    """The text with input ``variable``'s term ``term`` having its ``point`` at ``value``;
    ValueError or KeyError (one line) when the triangle would break or there is no such
    point."""
    if point not in POINTS:
        raise ValueError(f"point {point!r}: one of {', '.join(POINTS)}")
    rb, _ = usable(text, path)
    moved = rb.with_points({PointRef(variable, term, point): value})  # type: ignore[arg-type]
    new = rewrite_points(text, moved)
    return {"text": new, **check(new, path)}
