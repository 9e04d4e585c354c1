"""The surface: the grade over a grid of two inputs, every cell in one batch call of the
compiled evaluator (``Evaluator.grade``); the other inputs held where the viewer has them.
Its contour lines are contourpy's (matplotlib's contour generator) over the same grid, its
axis ticks and iso-levels matplotlib's ``MaxNLocator``: the page only draws them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import contourpy
import numpy as np
from matplotlib.ticker import MaxNLocator

from fuzzeval.studio.views.axes import TICKS, ticks
from fuzzeval.studio.views.base import usable

#: the most cells a side
MAX_SIDE = 200


def contours(xs: np.ndarray, ys: np.ndarray, z: np.ndarray) -> list[dict[str, Any]]:
    """Each iso-level strictly inside the grades' span, with its lines as (x, y) points."""
    lo, hi = float(z.min()), float(z.max())
    if hi <= lo:
        return []
    make = contourpy.contour_generator(xs, ys, z, line_type=contourpy.LineType.Separate)
    out = []
    for level in MaxNLocator(TICKS).tick_values(lo, hi):
        if lo < level < hi:
            lines = cast(list[np.ndarray], make.lines(float(level)))  # LineType.Separate
            out.append({"level": float(level),
                        "lines": [np.round(line, 6).tolist() for line in lines]})
    return out


def surface(text: str, path: str, x: str, y: str, held: Mapping[str, float],
            n: int = 100) -> dict[str, Any]:
    """Grades on an ``n`` by ``n`` grid over inputs ``x`` and ``y`` across their ranges
    (rows: y, from its low end), the other inputs at ``held`` (else mid-range)."""
    rb, ev = usable(text, path)
    if x == y:
        raise ValueError(f"the surface needs two different inputs (got {x!r} twice)")
    if not 2 <= n <= MAX_SIDE:
        raise ValueError(f"n must be 2 to {MAX_SIDE} (got {n})")
    vx, vy = rb.input(x), rb.input(y)
    xs, ys = np.linspace(vx.lo, vx.hi, n), np.linspace(vy.lo, vy.hi, n)
    rows = np.empty((n * n, len(rb.inputs)))
    for col, v in enumerate(rb.inputs):
        rows[:, col] = float(held.get(v.name, (v.lo + v.hi) / 2))
    gy, gx = np.meshgrid(ys, xs, indexing="ij")
    rows[:, rb.input_names.index(x)] = gx.ravel()
    rows[:, rb.input_names.index(y)] = gy.ravel()
    z = ev.grade(rows).reshape(n, n)
    return {"x": xs.tolist(), "y": ys.tolist(), "z": z.tolist(), "min": float(z.min()),
            "max": float(z.max()), "output": rb.output.name,
            "range": [rb.output.lo, rb.output.hi],
            "ticks": {"x": ticks(vx.lo, vx.hi), "y": ticks(vy.lo, vy.hi)},
            "contours": contours(xs, ys, z)}
