"""The surface: the grade over a grid of two inputs, every cell in one batch call of the
compiled evaluator (``Evaluator.grade``); the other inputs held where the viewer has them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from fuzzeval.studio.views.base import usable

#: the most cells a side
MAX_SIDE = 200


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
            "range": [rb.output.lo, rb.output.hi]}
