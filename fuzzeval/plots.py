"""Pictures. The only module that imports matplotlib (lazily, with a file backend)."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fuzzeval.engine.membership import Triangle
from fuzzeval.engine.rulebase import RuleBase, Variable

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from fuzzeval.learn.calibration_rounds import Calibration
    from fuzzeval.learn.td_runs import Block
    from fuzzeval.play.game import Payoff


def _shape(var: Variable, tri: Triangle) -> tuple[list[float], list[float]]:
    """The outline of a term: a triangle, or a shoulder at the edge of the range."""
    left, peak, right = tri.points
    if left == var.lo and peak == var.lo:
        return [var.lo, right], [1.0, 0.0]
    if right == var.hi and peak == var.hi:
        return [left, var.hi], [0.0, 1.0]
    return [left, peak, right], [0.0, 1.0, 0.0]


#: a panel's size in inches, and the font sizes of its term labels and axis label
PANEL = (4.6, 2.9)
LABEL_FONT = 8
AXIS_FONT = 7.5
#: more singleton output terms than this are drawn as a dot chart, one row a term
MAX_STEMS = 8


def _text_width(text: str, fontsize: float, axes_inches: float, span: float) -> float:
    """About how much of the x axis a label covers, with a space to spare (a generous
    0.62 em a glyph)."""
    return (len(text) + 1) * fontsize * 0.62 / 72 / axes_inches * span


def _place_labels(axes: Axes, labels: list[tuple[str, float, Any]], axes_inches: float) -> int:
    """Write each term's name over its peak, in its colour, kept inside the panel; a label
    that would overprint one already placed goes a level higher. Returns the levels used."""
    xmin, xmax = axes.get_xlim()
    span = xmax - xmin
    placed: list[list[tuple[float, float]]] = []  # per level: the x extents taken
    for text, x, color in sorted(labels, key=lambda t: t[1]):
        width = _text_width(text, LABEL_FONT, axes_inches, span)
        # centred over the peak; at an edge, aligned to it (so never cut by the frame)
        anchor, ha = x, "center"
        if x - width / 2 < xmin:
            anchor, ha = xmin + 0.01 * span, "left"
        elif x + width / 2 > xmax:
            anchor, ha = xmax - 0.01 * span, "right"
        left = {"left": anchor, "center": anchor - width / 2, "right": anchor - width}[ha]
        extent = (left, left + width)
        level = next((k for k, taken in enumerate(placed)
                      if all(extent[1] <= a or extent[0] >= b for a, b in taken)), len(placed))
        if level == len(placed):
            placed.append([])
        placed[level].append(extent)
        axes.text(anchor, 1.05 + 0.13 * level, text, color=color, fontsize=LABEL_FONT,
                  ha=ha, va="bottom", clip_on=False)
    return len(placed)


def _axis_label(var: Variable, chars: int) -> str:
    """The variable's description on at most two lines (``rulebase show`` has all of it)."""
    lines = textwrap.wrap(var.description or var.name, chars)
    if len(lines) > 2:
        lines = [lines[0], textwrap.shorten(" ".join(lines[1:]), chars, placeholder=" …")]
    return "\n".join(lines)


def _draw_variable(axes: Axes, var: Variable, kind: str, axes_inches: float) -> None:
    """A variable's terms with each name on its curve (no legend to cover them); hollow
    dots mark the points the calibrator may move."""
    pad = 0.03 * (var.hi - var.lo)  # keeps shoulders and singletons at the edges visible
    axes.set_xlim(var.lo - pad, var.hi + pad)
    labels: list[tuple[str, float, Any]] = []  # name, x, colour
    for term in var.terms:
        peak = term.triangle.peak
        if term.triangle.is_singleton:  # a stem with a dot: its value, membership 1
            (line,) = axes.plot([peak, peak], [0.0, 1.0], linewidth=2)
            axes.plot([peak], [1.0], "o", color=line.get_color(), markersize=6)
            labels.append((f"{term.name} = {peak:g}", peak, line.get_color()))
            continue
        (line,) = axes.plot(*_shape(var, term.triangle), linewidth=2)
        labels.append((term.name, peak, line.get_color()))
        for which in term.adjust:
            x = getattr(term.triangle, which)
            axes.plot([x], [1.0 if which == "peak" else 0.0], "o", color=line.get_color(),
                      markersize=7, markerfacecolor="white", markeredgewidth=2, zorder=3)
    levels = _place_labels(axes, labels, axes_inches)
    axes.set_ylim(-0.03, 1.05 + 0.13 * levels + 0.02)
    axes.set_yticks([0, 0.5, 1])
    axes.set_title(f"{kind} {var.name}", fontsize=10, loc="left")
    axes.set_xlabel(_axis_label(var, int(axes_inches * 72 / (AXIS_FONT * 0.55))),
                    fontsize=AXIS_FONT)
    axes.set_ylabel("membership", fontsize=AXIS_FONT)
    axes.tick_params(labelsize=AXIS_FONT)
    axes.grid(alpha=0.3)


def _draw_dots(axes: Axes, var: Variable, kind: str) -> None:
    """Many singleton output terms: one row each, its name on the left, a dot at its value
    (a singleton's membership is 1 at its value, so the rows lose nothing)."""
    terms = sorted(var.terms, key=lambda t: t.triangle.peak)
    ys = range(len(terms))
    for y in ys:  # a light line a row, to follow a name to its dot
        axes.axhline(y, color="0.9", linewidth=0.8, zorder=0)
    axes.plot([t.triangle.peak for t in terms], ys, "o", markersize=5)
    for y, t in zip(ys, terms, strict=True):
        axes.text(t.triangle.peak, y, f"  {t.triangle.peak:g}", va="center",
                  fontsize=AXIS_FONT)
    axes.set_yticks(list(ys), [t.name for t in terms], fontsize=AXIS_FONT)
    pad = 0.03 * (var.hi - var.lo)
    axes.set_xlim(var.lo - pad, var.hi + 6 * pad)  # room for the values' labels
    axes.set_ylim(-0.7, len(terms) - 0.3)
    axes.set_title(f"{kind} {var.name}: {len(terms)} singleton terms, by value", fontsize=10,
                   loc="left")
    axes.set_xlabel(var.description or var.name, fontsize=AXIS_FONT)
    axes.tick_params(axis="x", labelsize=AXIS_FONT)
    axes.grid(axis="x", alpha=0.3)


def plot_membership(rb: RuleBase, path: Path) -> Path:
    """Every variable's terms, one panel each, names on the curves; hollow dots mark points
    the calibrator may move. An output of many singletons gets a dot chart of its own."""
    return _save(membership_figure(rb), path)


#: more singleton conclusions than this (a learned base's thousands) are drawn as a
#: histogram of their values: a row each would be thousands of rows
MAX_DOT_ROWS = 60


def _draw_histogram(axes: Axes, var: Variable, kind: str) -> None:
    """Many singleton conclusions: how many rules conclude each value."""
    axes.hist([t.triangle.peak for t in var.terms], bins=60)
    axes.set_xlabel(f"{kind} {var.name}: the values of its {len(var.terms):,} conclusions",
                    fontsize=AXIS_FONT)
    axes.set_ylabel("rules", fontsize=AXIS_FONT)


def membership_figure(rb: RuleBase) -> Any:
    """The figure of ``plot_membership``, not yet saved (to be measured)."""
    plt = _pyplot()
    out = rb.output
    dots = len(out.terms) > MAX_STEMS and all(t.triangle.is_singleton for t in out.terms)
    panels = [*((v, "input") for v in rb.inputs), *(() if dots else ((out, "output"),))]
    cols = min(4 if len(panels) > 12 else 3, len(panels))
    rows = math.ceil(len(panels) / cols)
    many = dots and len(out.terms) > MAX_DOT_ROWS
    dot_rows = 3 if many else math.ceil(len(out.terms) * 0.16 + 0.8) if dots else 0
    width, height = PANEL[0] * cols, PANEL[1] * rows + dot_rows + 0.5
    fig = plt.figure(figsize=(width, height), layout="constrained")
    grid = fig.add_gridspec(rows + (1 if dots else 0), cols,
                            height_ratios=[PANEL[1]] * rows + ([dot_rows] if dots else []))
    axes_inches = PANEL[0] * 0.78  # the plotting area of a panel, without its labels
    for k, (var, kind) in enumerate(panels):
        _draw_variable(fig.add_subplot(grid[k // cols, k % cols]), var, kind, axes_inches)
    if dots:
        (_draw_histogram if many else _draw_dots)(fig.add_subplot(grid[rows, :]), out,
                                                   "output")
    fig.suptitle(f"Membership functions of rule base '{rb.name}' ({rb.defuzzifier}; "
                 "○ = a point the calibrator may move)", fontsize=12)
    return fig


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


IMAGE_SUFFIXES = (".png", ".svg", ".pdf")


def image_path(path: Path) -> Path:
    """Where a picture goes: a name without an extension gets .png (and that is the path
    reported); another extension than .png, .svg or .pdf is refused."""
    if not path.suffix:
        return path.with_name(path.name + ".png")
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise ValueError(f"{path}: a picture is written as {', '.join(IMAGE_SUFFIXES)} "
                         f"(got {path.suffix!r})")
    return path


def _save(fig: Any, path: Path) -> Path:
    path = image_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if fig.get_layout_engine() is None:  # a constrained layout lays itself out
        fig.tight_layout()
    fig.savefig(path, dpi=120)
    _pyplot().close(fig)
    return path


@dataclass(frozen=True)
class Curve:
    """One line of a learning curve; ``band`` is an optional (low, high) per point."""

    label: str
    x: Sequence[float]
    y: Sequence[float]
    band: tuple[Sequence[float], Sequence[float]] | None = None


def plot_curves(curves: Sequence[Curve], path: Path, title: str, xlabel: str, ylabel: str,
                levels: Mapping[str, float] | None = None, integer_x: bool = False) -> Path:
    """Lines over training time, with dashed reference levels (e.g. random and best play)."""
    return _save(curves_figure(curves, title, xlabel, ylabel, levels, integer_x), path)


def curves_figure(curves: Sequence[Curve], title: str, xlabel: str, ylabel: str,
                  levels: Mapping[str, float] | None = None, integer_x: bool = False) -> Any:
    """The figure of ``plot_curves``, not yet saved; its legend stands below the axes, where
    it hides none of the lines (a band or a line's end) and leaves them the figure's width
    (beside them, one long label took a quarter of it)."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(11.0, 4.8), layout="constrained")
    if integer_x:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,.0f}"))
    for c in curves:
        (line,) = ax.plot(c.x, c.y, linewidth=1.6, label=c.label)
        if c.band is not None:
            ax.fill_between(c.x, c.band[0], c.band[1], color=line.get_color(), alpha=0.2)
    for (name, value), style in zip((levels or {}).items(), ("--", ":", "-."), strict=False):
        ax.axhline(value, color="0.35", linestyle=style, linewidth=1, label=name)
    points = sorted({float(x) for c in curves for x in c.x})
    if 1 < len(points) <= 12:  # few measurements: a tick at each (not at 18,000 of 10,000s)
        ax.set_xticks(points)
    ax.set(title=title, xlabel=xlabel, ylabel=ylabel)
    ax.grid(alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 3),
               fontsize=8, frameon=False)
    return fig


def plot_learning_curve(curve: Sequence[Block], path: Path, title: str, unit: str,
                        games: int) -> Path:
    """A learn's curve: the learned player's mean payoff at each measured block, with its
    95 % band (``games`` games a point)."""
    half = [b.measure_half or 0.0 for b in curve]
    means = [float(b.measure or 0.0) for b in curve]
    band = ([m - h for m, h in zip(means, half, strict=True)],
            [m + h for m, h in zip(means, half, strict=True)])
    return plot_curves([Curve(f"learned player ({games} games a point, 95 % band)",
                              [b.games for b in curve], means, band)],
                       path, title, "games learned from", unit, integer_x=True)


def plot_bars(groups: Sequence[str], series: Mapping[str, Sequence[float]], path: Path,
              title: str, ylabel: str,
              errors: Mapping[str, Sequence[tuple[float, float]]] | None = None,
              label_format: str = "%.3f") -> Path:
    """Grouped bars: one group per entry of ``groups``, one bar per series in each group."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(max(8.0, 1.4 * len(groups) + 2), 4.8))
    width = 0.8 / max(1, len(series))
    for k, (name, values) in enumerate(series.items()):
        xs = [i + (k - (len(series) - 1) / 2) * width for i in range(len(groups))]
        yerr = None
        if errors and name in errors:
            yerr = [[v - lo for v, (lo, _) in zip(values, errors[name], strict=True)],
                    [hi - v for v, (_, hi) in zip(values, errors[name], strict=True)]]
        bars = ax.bar(xs, values, width, label=name, yerr=yerr, capsize=3)
        ax.bar_label(bars, fmt=label_format, fontsize=7, padding=2)
    ax.set_xticks(range(len(groups)), groups, rotation=15)
    ax.set(title=title, ylabel=ylabel)
    ax.axhline(0, color="0.3", linewidth=0.8)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, path)


def plot_win_matrix(labels: Sequence[str], cells: Sequence[Sequence[tuple[float, float, float]
                                                                     | None]],
                    path: Path, title: str, unit: Payoff | None = None) -> Path:
    """Row player's win rate against the column player, with its 95 % interval per cell;
    with a payoff ``unit``, its mean payoff instead (blue where better: the colours run
    the payoff's way)."""
    import numpy as np

    plt = _pyplot()
    n = len(labels)
    values = np.array([[np.nan if c is None else c[0] for c in row] for row in cells])
    fig, ax = plt.subplots(figsize=(1.5 * n + 3, 1.2 * n + 2))
    if unit is None:
        lo, hi, cmap = 0.0, 1.0, "RdBu"
    else:
        lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
        lo, hi = (lo - 0.5, hi + 0.5) if lo == hi else (lo, hi)
        cmap = "RdBu" if unit.higher_is_better else "RdBu_r"
    image = ax.imshow(values, cmap=cmap, vmin=lo, vmax=hi)
    for i in range(n):
        for j in range(n):
            cell = cells[i][j]
            if cell is None:
                text = "—"
            elif unit is None:
                text = f"{cell[0]:.1%}\n({cell[1]:.1%}–{cell[2]:.1%})"
            else:
                text = f"{cell[0]:.2f}\n({cell[1]:.2f}–{cell[2]:.2f})"
            middle = cell is None or abs((cell[0] - lo) / (hi - lo) - 0.5) < 0.25
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="black" if middle else "white")
    ax.set_xticks(range(n), labels, rotation=20)
    ax.set_yticks(range(n), labels)
    import textwrap

    # about nine characters of a 12-point title to an inch of the figure
    ax.set(xlabel="opponent (column)", ylabel="player (row)",
           title=textwrap.fill(title, int(9 * (1.5 * n + 3))))
    fig.colorbar(image, ax=ax, label="row player's " + ("win rate" if unit is None
                                                           else unit.unit))
    return _save(fig, path)


@dataclass(frozen=True)
class PointPath:
    """Points of one variable that moved together: one line in the drift picture.
    ``positions`` is where they stood at the start and after each round; ``targets`` the
    winning mean each round pulled them toward (eq. 1), nan where a round had none."""

    points: tuple[str, ...]
    positions: tuple[float, ...]
    targets: tuple[float, ...]

    @property
    def label(self) -> str:
        return " = ".join(self.points)


def _same(a: Sequence[float], b: Sequence[float]) -> bool:
    return len(a) == len(b) and all(
        (math.isnan(x) and math.isnan(y)) or math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
        for x, y in zip(a, b, strict=True))


def group_paths(points: Mapping[str, tuple[Sequence[float], Sequence[float]]]
                ) -> list[PointPath]:
    """Points (name -> (positions, targets)) whose positions and targets agree at every
    round are one path, named by all of them in the order given; paths keep the order of
    their first point. Points that move together would otherwise hide each other's lines."""
    paths: list[PointPath] = []
    for name, (positions, targets) in points.items():
        for k, path in enumerate(paths):
            if _same(path.positions, positions) and _same(path.targets, targets):
                paths[k] = PointPath((*path.points, name), path.positions, path.targets)
                break
        else:
            paths.append(PointPath((name,), tuple(positions), tuple(targets)))
    return paths


def shared_targets(paths: Sequence[PointPath]) -> list[tuple[tuple[int, ...],
                                                          tuple[float, ...]]]:
    """The distinct target sequences of the paths, each with the indices of the paths
    pulled toward it (paths that move apart may share a winning mean: one line, not two on
    top of each other). Paths without a round have none."""
    shared: list[tuple[tuple[int, ...], tuple[float, ...]]] = []
    for i, path in enumerate(paths):
        if not path.targets:
            continue
        for k, (owners, values) in enumerate(shared):
            if _same(values, path.targets):
                shared[k] = ((*owners, i), values)
                break
        else:
            shared.append(((i,), path.targets))
    return shared


#: the colours of the paths (matplotlib's cycle without its grey) and of the targets,
#: which are neutral so that none can be read as a path's
PATH_COLOURS = ("C0", "C1", "C2", "C3", "C4", "C5", "C6", "C8", "C9")
TARGET_COLOUR = "black"
TARGET_STYLES = (":", "-.", (0, (5, 2, 1, 2, 1, 2)), (0, (1, 3)))


def drift_paths(cal: Calibration) -> dict[str, list[PointPath]]:
    """Each variable with adjustable points: its point paths, round by round (before any
    round, where the points stand)."""
    by_var: dict[str, dict[str, tuple[list[float], list[float]]]] = {}
    for r in cal.finished_rounds:
        for m in r.moves:
            positions, targets = by_var.setdefault(m.variable, {}).setdefault(
                f"{m.term}.{m.point}", ([m.before], []))
            positions.append(m.after)
            targets.append(m.target)
    if not by_var:  # nothing played yet: the adjustable points where they stand
        rb = cal.results[0].rulebase()
        for ref in rb.adjustable_points():
            by_var.setdefault(ref.variable, {})[f"{ref.term}.{ref.point}"] = (
                [rb.point(ref)], [])
    return {var: group_paths(points) for var, points in sorted(by_var.items())}


def _draw_paths(ax: Axes, var: str, paths: Sequence[PointPath]) -> None:
    """One line per group of points, its targets dotted in a neutral colour; the legend
    outside the axes, on the right, so it hides no line's end."""
    from matplotlib.ticker import MaxNLocator

    for k, path in enumerate(paths):
        colour = PATH_COLOURS[k % len(PATH_COLOURS)]
        ax.plot(range(len(path.positions)), path.positions, marker="o", markersize=3,
                linewidth=1.8, color=colour, label=textwrap.fill(path.label, 28))
    targets = shared_targets(paths)
    for k, (owners, values) in enumerate(targets):
        name = "winning mean (eq. 1's target)" if len(targets) == 1 else textwrap.fill(
            "winning mean of " + ", ".join(paths[i].points[0] for i in owners), 28)
        ax.plot(range(1, len(values) + 1), values, color=TARGET_COLOUR,
                linestyle=TARGET_STYLES[k % len(TARGET_STYLES)], linewidth=1.2, alpha=0.8,
                label=name)
    ax.set(title=f"{var}: point positions", xlabel="after round", ylabel="position")
    ax.title.set_fontsize(10)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7.5, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0,
              frameon=False)


def _draw_compare(ax: Axes, before: Variable, after: Variable, axes_inches: float) -> None:
    """A variable's terms before (dashed) and after (solid) in one colour a term, each
    named over its new peak."""
    pad = 0.03 * (before.hi - before.lo)
    ax.set_xlim(before.lo - pad, before.hi + pad)
    names: list[tuple[str, float, Any]] = []
    for old_t, new_t in zip(before.terms, after.terms, strict=True):
        (line,) = ax.plot(*_shape(before, old_t.triangle), linestyle="--", linewidth=1.2)
        ax.plot(*_shape(after, new_t.triangle), color=line.get_color(), linewidth=2)
        names.append((new_t.name, new_t.triangle.peak, line.get_color()))
    levels = _place_labels(ax, names, axes_inches)  # names on the curves, no legend
    ax.set(ylim=(-0.03, 1.05 + 0.13 * levels + 0.02), ylabel="membership")
    ax.set_yticks([0, 0.5, 1])
    ax.grid(alpha=0.3)


def drift_figure(cal: Calibration) -> Any:
    """The figure of ``plot_drift``, not yet saved (to be measured)."""
    plt = _pyplot()
    by_var = drift_paths(cal)
    first, last = cal.results[0].rulebase(), cal.final_rulebase()
    rounds = len(cal.finished_rounds)
    fig = plt.figure(figsize=(14.0, 2.9 * len(by_var) + 0.9), layout="constrained")
    grid = fig.add_gridspec(len(by_var), 2, width_ratios=[1.45, 1.0])
    for row, (var, paths) in enumerate(by_var.items()):
        _draw_paths(fig.add_subplot(grid[row, 0]), var, paths)
        ax = fig.add_subplot(grid[row, 1])
        _draw_compare(ax, first.input(var), last.input(var), 14.0 * 0.36)
        ax.set_title(f"{var}: dashed initial, solid after round {rounds}", fontsize=10,
                     loc="left")
    s = cal.settings
    fig.suptitle(f"Membership drift: {cal.rulebase_name} vs {s.opponent}, "
                 f"{s.games_per_round} games a round, rate {s.rate:g}")
    return fig


def plot_drift(cal: Calibration, path: Path) -> Path:
    """Left, each group of adjustable points that moved together as one line, round by
    round, with the winning mean it was pulled toward (eq. 1); right, the variable's terms
    before (dashed) and after (solid): what a fuzzy-logic reader expects to see."""
    return _save(drift_figure(cal), path)


def plot_win_curve(cals: Sequence[Calibration], path: Path) -> Path:
    """Win rate per round with its 95 % Wilson band (Fuzzeval's Fig. 5, with intervals),
    one line per calibration."""
    curves = []
    for cal in cals:
        rounds = cal.finished_rounds
        s = cal.settings
        curves.append(Curve(
            f"{cal.rulebase_name}, {s.games_per_round} games a round",
            [r.round + 1 for r in rounds], [r.win_rate for r in rounds],
            ([r.interval[0] for r in rounds], [r.interval[1] for r in rounds])))
    opponents = sorted({cal.settings.opponent for cal in cals})
    return plot_curves(curves, path, title=f"Win rate per calibration round against "
                       f"{', '.join(opponents)} (95% intervals)",
                       xlabel="round", ylabel="win rate", levels={"even": 0.5},
                       integer_x=True)


def plot_membership_compare(before: RuleBase, after: RuleBase, path: Path,
                            labels: tuple[str, str]) -> Path:
    """The input terms of two rule bases overlaid: dashed before, solid after."""
    plt = _pyplot()
    variables = [v for v in before.inputs if any(t.adjust for t in v.terms)] or list(
        before.inputs)
    fig, axes = plt.subplots(len(variables), 1, figsize=(8.5, 2.8 * len(variables) + 0.8),
                             squeeze=False)
    for ax, var in zip(axes[:, 0], variables, strict=True):
        _draw_compare(ax, var, after.input(var.name), 8.5 * 0.85)
        ax.set_title(var.name)
    fig.suptitle(f"{before.name}: dashed = {labels[0]}, solid = {labels[1]}")
    return _save(fig, path)
