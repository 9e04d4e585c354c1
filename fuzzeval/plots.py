"""Pictures. The only module that imports matplotlib (lazily, with a file backend)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from fuzzeval.rulebase import RuleBase, Variable

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def _draw_variable(axes: Axes, var: Variable, kind: str) -> None:
    for term in var.terms:
        left, peak, right = term.triangle.points
        xs, ys = [left, peak, right], [0.0, 1.0, 0.0]
        if left == var.lo and peak == var.lo:
            xs, ys = [var.lo, right], [1.0, 0.0]
        if right == var.hi and peak == var.hi:
            xs, ys = [left, var.hi], [0.0, 1.0]
        if term.triangle.is_singleton:  # a stem with a dot: its value, membership 1
            (line,) = axes.plot(
                [peak, peak], [0.0, 1.0], linewidth=2, label=f"{term.name} = {peak:g}"
            )
            axes.plot([peak], [1.0], "o", color=line.get_color(), markersize=7)
            continue
        (line,) = axes.plot(xs, ys, linewidth=2, label=term.name)
        for which in term.adjust:
            x = getattr(term.triangle, which)
            axes.plot(
                [x],
                [1.0 if which == "peak" else 0.0],
                "o",
                color=line.get_color(),
                markersize=7,
                markerfacecolor="white",
                markeredgewidth=2,
            )
    pad = 0.03 * (var.hi - var.lo)  # keeps shoulders and singletons at the edges visible
    axes.set_xlim(var.lo - pad, var.hi + pad)
    axes.set_ylim(-0.03, 1.08)
    axes.set_title(f"{kind} {var.name}", fontsize=10)
    axes.set_xlabel(var.description or var.name, fontsize=8)
    axes.set_ylabel("membership")
    axes.grid(alpha=0.3)
    axes.legend(fontsize=8, loc="best")


def plot_membership(rb: RuleBase, path: Path) -> Path:
    """Every variable's terms, one panel each; hollow dots mark points the calibrator may move."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    variables = [*((v, "input") for v in rb.inputs), (rb.output, "output")]
    cols = min(3, len(variables))
    rows = math.ceil(len(variables) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.3 * rows), squeeze=False)
    for ax, (var, kind) in zip(axes.flat, variables, strict=False):
        _draw_variable(ax, var, kind)
    for ax in list(axes.flat)[len(variables) :]:
        ax.set_visible(False)
    fig.suptitle(
        f"Membership functions of rule base '{rb.name}' ({rb.defuzzifier}; ○ = adjustable point)"
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
