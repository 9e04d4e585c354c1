"""Membership pictures of every shipped rule base are readable: measured on the laid-out
figure (drawn without its pixels), no text leaves the picture, the title covers no panel,
and no two labels of a panel overprint each other (each term is named on its curve; there
is no legend)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib
import pytest

from fuzzeval.formats.loading import load_rulebase
from fuzzeval.plots import membership_figure
from fuzzeval.resources import rulebase_dir

matplotlib.use("Agg")
SHIPPED = sorted(p.stem for p in rulebase_dir().glob("*.yaml"))


def _overlap(a: Any, b: Any) -> bool:
    """Two boxes share more than a pixel each way."""
    return min(a.x1, b.x1) - max(a.x0, b.x0) > 1 and min(a.y1, b.y1) - max(a.y0, b.y0) > 1


@pytest.mark.parametrize("name", SHIPPED)
def test_the_membership_picture_is_readable(name: str, tmp_path: Path) -> None:
    import matplotlib.pyplot as plt

    fig = membership_figure(load_rulebase(rulebase_dir() / f"{name}.yaml"))
    try:
        fig.draw_without_rendering()  # the layout and every text's place, no pixels
        renderer = fig.canvas.get_renderer()
        whole = fig.bbox
        title = fig._suptitle.get_window_extent(renderer)
        for ax in fig.axes:
            assert ax.get_legend() is None
            panel_title = ax.title.get_window_extent(renderer)  # measured once a panel
            assert not _overlap(title, ax.get_window_extent(renderer))
            assert not _overlap(title, panel_title)
            texts = [t for t in ax.texts if t.get_text().strip()]
            boxes = [t.get_window_extent(renderer) for t in texts]
            for t, box in zip(texts, boxes, strict=True):
                assert whole.x0 <= box.x0 and box.x1 <= whole.x1, t.get_text()
                assert whole.y0 <= box.y0 and box.y1 <= whole.y1, t.get_text()
                assert not _overlap(box, panel_title), t.get_text()
            for i, a in enumerate(boxes):
                for j in range(i):
                    assert not _overlap(a, boxes[j]), (ax.get_title(), texts[i].get_text(),
                                                       texts[j].get_text())
            for label in (ax.xaxis.label, ax.yaxis.label, ax.title):
                if not label.get_text():
                    continue
                box = label.get_window_extent(renderer)
                assert whole.x0 <= box.x0 and box.x1 <= whole.x1, label.get_text()
    finally:
        plt.close(fig)


# --- the drift picture: points that move together are one line, targets have their own
# colour, the legend sits outside the lines, and each variable's terms before and after.

NAN = float("nan")


def test_points_that_move_together_are_one_path() -> None:
    from fuzzeval.plots import group_paths

    paths = group_paths({
        "few.right": ([6.0, 6.04, 6.1], [6.4, 6.6]),
        "other.peak": ([2.0, 2.5, 2.9], [7.0, 7.0]),
        "some.peak": ([6.0, 6.04, 6.1], [6.4, 6.6]),
        "many.left": ([6.0, 6.04 + 1e-12, 6.1], [6.4, 6.6]),  # the same to rounding
        "same.path.other.target": ([6.0, 6.04, 6.1], [6.4, 6.7]),
        "none.right": ([3.0, 3.0], [NAN]),
        "also.none": ([3.0, 3.0], [NAN]),  # no winning mean either: still together
    })
    assert [p.label for p in paths] == [
        "few.right = some.peak = many.left", "other.peak", "same.path.other.target",
        "none.right = also.none"]
    assert paths[0].positions == (6.0, 6.04, 6.1) and paths[0].targets == (6.4, 6.6)
    assert [len(p.points) for p in paths] == [3, 1, 1, 2]


def test_paths_apart_may_share_one_winning_mean() -> None:
    from fuzzeval.plots import PointPath, shared_targets

    paths = [PointPath(("a.peak",), (7.0, 6.8), (5.5,)),
             PointPath(("b.peak",), (10.0, 9.5), (5.5,)),
             PointPath(("c.peak",), (1.0, 1.2), (3.0,)),
             PointPath(("d.peak",), (4.0,), ())]  # no round played: no target
    assert shared_targets(paths) == [((0, 1), (5.5,)), ((2,), (3.0,))]


def _toy_yaml(x_mid: float, y_a: float, y_b: float) -> str:
    """Two inputs: x's three terms meet at x_mid (three points that move together); y's
    a and b peaks move apart."""
    return f"""name: drifting
defuzzifier: weighted_average
default: 0.5
inputs:
  x:
    range: [0, 10]
    terms:
      low: {{points: [0, 0, {x_mid}], adjust: [right]}}
      mid: {{points: [0, {x_mid}, 10], adjust: [peak]}}
      high: {{points: [{x_mid}, 10, 10], adjust: [left]}}
  y:
    range: [0, 10]
    terms:
      a: {{points: [0, {y_a}, 5], adjust: [peak]}}
      b: {{points: [5, {y_b}, 10], adjust: [peak]}}
output:
  name: z
  range: [0, 1]
  terms: {{bad: [0, 0, 0], good: [1, 1, 1]}}
rules:
  - if x is low or y is a then z is bad
  - if x is mid or x is high or y is b then z is good
"""


def _toy_calibration() -> Any:
    from fuzzeval.learn.calibration_rounds import Calibration, CalibrationSettings, RoundResult
    from fuzzeval.learn.calibration_step import PointMove

    def moves(x: tuple[float, float, float], ya: tuple[float, float, float],
              yb: tuple[float, float, float]) -> tuple[PointMove, ...]:
        """(before, target, after) of x's three tied points, y.a.peak and y.b.peak."""
        return (*(PointMove("x", term, point, *x, 40, False)
                  for term, point in (("low", "right"), ("mid", "peak"), ("high", "left"))),
                PointMove("y", "a", "peak", *ya, 40, False),
                PointMove("y", "b", "peak", *yb, 40, False))

    return Calibration(1, CalibrationSettings("toy", "random", 10, 1), "drifting", 2, (
        RoundResult(0, _toy_yaml(5, 2, 8), 1, 10, 6,
                    moves((5, 10, 5.5), (2, 6, 2.4), (8, 6, 7.8))),
        RoundResult(1, _toy_yaml(5.5, 2.4, 7.8), 2, 10, 4,
                    moves((5.5, 8.5, 5.8), (2.4, 5, 2.66), (7.8, 5, 7.52))),
        RoundResult(2, _toy_yaml(5.8, 2.66, 7.52))))


def test_the_drift_picture_draws_one_line_a_group_and_its_terms_before_and_after() -> None:
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    from fuzzeval.plots import TARGET_COLOUR, drift_figure

    fig = drift_figure(_toy_calibration())
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        x_paths, x_terms, y_paths, y_terms = fig.axes
        # x: its three tied points are one line, with its target; y: two lines, one target
        assert [line.get_label() for line in x_paths.lines] == [
            "low.right = mid.peak =\nhigh.left", "winning mean (eq. 1's target)"]
        assert [line.get_label() for line in y_paths.lines] == [
            "a.peak", "b.peak", "winning mean (eq. 1's target)"]
        assert list(x_paths.lines[0].get_ydata()) == [5, 5.5, 5.8]
        assert list(x_paths.lines[1].get_xdata()) == [1, 2]  # a target after each round
        assert list(x_paths.lines[1].get_ydata()) == [10, 8.5]
        assert list(y_paths.lines[2].get_ydata()) == [6, 5]
        for ax in (x_paths, y_paths):
            legend = ax.get_legend()
            assert [t.get_text() for t in legend.get_texts()] == [
                line.get_label() for line in ax.lines]
            # the legend is outside the lines' box, to their right, and inside the picture
            box, frame = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
            assert box.x0 >= frame.x1 and box.x1 <= fig.bbox.x1
            for other in (x_terms, y_terms):
                assert not _overlap(box, other.get_window_extent(renderer))
            # the targets' colour is none of the paths'
            *paths, target = ax.lines
            assert to_rgba(target.get_color()) == to_rgba(TARGET_COLOUR)
            assert all(to_rgba(p.get_color()) != to_rgba(TARGET_COLOUR) for p in paths)
            assert target.get_linestyle() == ":"
        # beside them, each variable's terms: dashed initial, solid after the last round
        assert x_terms.get_legend() is None and len(x_terms.lines) == 6
        dashed = [line for line in x_terms.lines if line.get_linestyle() == "--"]
        solid = [line for line in x_terms.lines if line.get_linestyle() == "-"]
        assert [list(d.get_xdata()) for d in dashed] == [[0, 5], [0, 5, 10], [5, 10]]
        assert [list(s.get_xdata()) for s in solid] == [[0, 5.8], [0, 5.8, 10], [5.8, 10]]
        assert [d.get_color() for d in dashed] == [s.get_color() for s in solid]
        assert [t.get_text() for t in x_terms.texts] == ["low", "mid", "high"]
        assert "after round 2" in y_terms.get_title(loc="left")
        solid_y = [line for line in y_terms.lines if line.get_linestyle() == "-"]
        assert [list(s.get_xdata()) for s in solid_y] == [[0, 2.66, 5], [5, 7.52, 10]]
    finally:
        plt.close(fig)


def test_the_drift_picture_before_any_round_shows_where_the_points_stand() -> None:
    import matplotlib.pyplot as plt

    from fuzzeval.learn.calibration_rounds import Calibration, CalibrationSettings, RoundResult
    from fuzzeval.plots import drift_figure

    cal = Calibration(1, CalibrationSettings("toy", "random", 10, 1), "drifting", 2,
                      (RoundResult(0, _toy_yaml(5, 2, 8)),))
    fig = drift_figure(cal)
    try:
        x_paths, _, y_paths, _ = fig.axes
        assert [line.get_label() for line in x_paths.lines] == [
            "low.right = mid.peak =\nhigh.left"]  # no round: no target
        assert [list(line.get_ydata()) for line in y_paths.lines] == [[2], [8]]
    finally:
        plt.close(fig)


def test_a_curve_figure_keeps_its_legend_off_the_lines() -> None:
    """The win-rate curve (Fig. 5) and the ES curves: the legend used to sit on the bands."""
    import matplotlib.pyplot as plt

    from fuzzeval.plots import Curve, curves_figure

    fig = curves_figure([Curve("a, 100 games a round", [1, 2, 3], [0.2, 0.5, 0.45],
                               ([0.1, 0.4, 0.35], [0.3, 0.6, 0.55])),
                         Curve("b", [1, 2, 3], [0.3, 0.3, 0.4])],
                        "t", "round", "win rate", levels={"even": 0.5}, integer_x=True)
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        (ax,) = fig.axes
        (legend,) = fig.legends
        assert [t.get_text() for t in legend.get_texts()] == ["a, 100 games a round", "b",
                                                               "even"]
        box, frame = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
        assert box.y1 <= frame.y0 and box.y0 >= fig.bbox.y0  # below the axes, in the figure
        # the lines get the figure's width: beside them, a long label took a quarter of it
        assert frame.width >= 0.85 * fig.bbox.width
        assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3"]
    finally:
        plt.close(fig)


def test_a_learning_curve_has_a_tick_at_each_measurement() -> None:
    """A learn measured every 10,000 games had ticks at 12,000, 18,000, ... (matplotlib's
    choice), between its points; with a dozen points or fewer each has its tick."""
    import matplotlib.pyplot as plt

    from fuzzeval.plots import Curve, curves_figure

    xs = [10_000 * k for k in range(1, 7)]
    fig = curves_figure([Curve("learned", xs, [0.07, -0.05, 0.1, 0.07, 0.03, 0.15])], "t",
                        "games learned from", "points per game", integer_x=True)
    many = curves_figure([Curve("learned", list(range(1, 31)), [0.0] * 30)], "t", "x", "y")
    try:
        fig.canvas.draw()
        many.canvas.draw()
        assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == [
            "10,000", "20,000", "30,000", "40,000", "50,000", "60,000"]
        assert len(many.axes[0].get_xticks()) < 30  # thirty points: matplotlib's choice
    finally:
        plt.close(fig)
        plt.close(many)
