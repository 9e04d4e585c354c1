"""Membership pictures of every shipped rule base are readable: measured on the drawn
figure, no text leaves the picture, the title covers no panel, and no two labels of a
panel overprint each other (each term is named on its curve; there is no legend)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib
import pytest

from fuzzeval.loading import load_rulebase
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
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        whole = fig.bbox
        title = fig._suptitle.get_window_extent(renderer)
        for ax in fig.axes:
            assert ax.get_legend() is None
            assert not _overlap(title, ax.get_window_extent(renderer))
            assert not _overlap(title, ax.title.get_window_extent(renderer))
            texts = [t for t in ax.texts if t.get_text().strip()]
            boxes = [t.get_window_extent(renderer) for t in texts]
            for t, box in zip(texts, boxes, strict=True):
                assert whole.x0 <= box.x0 and box.x1 <= whole.x1, t.get_text()
                assert whole.y0 <= box.y0 and box.y1 <= whole.y1, t.get_text()
                assert not _overlap(box, ax.title.get_window_extent(renderer)), t.get_text()
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
