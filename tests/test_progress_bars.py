"""What each long command tells its progress bar: the task, its total, each round's label.
A bar is drawn only on a terminal, so a recording bar stands in for rich's (the
values a command shows, pinned)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.cli.common import err_console


class Recorder:
    """progress_bar's stand-in: what was asked of it, in order."""

    def __init__(self, label: str = "{task.description}", disable: bool = False,
                 eta: bool = True) -> None:
        self.label = label
        self.events: list[tuple[Any, ...]] = []
        self.console = err_console
        self.task_ids: list[int] = []

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def start(self) -> None:  # shown or hidden: not what the bar says
        return None

    def stop(self) -> None:
        return None

    def add_task(self, description: str, total: float | None = None, **_: Any) -> int:
        self.events.append(("add", description, total))
        self.task_ids.append(len(self.task_ids))
        return self.task_ids[-1]

    def reset(self, task: int, *, total: float | None = None, description: str | None = None,
              completed: int = 0, **_: Any) -> None:
        self.events.append(("reset", description, total, completed))

    def update(self, task: int, *, completed: float | None = None,
               description: str | None = None, **_: Any) -> None:
        self.events.append(("update", description, completed))

    def advance(self, task: int, advance: float = 1) -> None:
        if self.events and self.events[-1][0] == "advance":  # runs of steps, summed
            self.events[-1] = ("advance", self.events[-1][1] + advance)
        else:
            self.events.append(("advance", advance))


@pytest.fixture
def bars(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Recorder]]:
    made: list[Recorder] = []

    def progress_bar(*args: Any, **kwargs: Any) -> Recorder:
        made.append(Recorder(*args, **kwargs))
        return made[-1]

    for module in ("calibrate", "evaluate_calibration", "learn", "tune"):
        monkeypatch.setattr(f"fuzzeval.cli.{module}.progress_bar", progress_bar)
    yield made


@pytest.mark.usefixtures("drift_not_drawn")
def test_calibrate_counts_each_rounds_games_then_the_held_out_deals(
        tmp_path: Path, bars: list[Recorder]) -> None:
    db = tmp_path / "cal.sqlite"
    res = CliRunner().invoke(app, [
        "calibrate", "cribbage", "--opponent", "greedy", "--rounds", "2",
        "--games-per-round", "4", "--workers", "1", "--db", str(db), "--plot",
        str(tmp_path / "d.png"), "--held-out-deals", "10"])
    assert res.exit_code == 0, res.output
    rounds, held_out = bars
    assert rounds.label == "{task.description}"
    assert rounds.events == [("add", "calibration", 4),
                             ("reset", "round 1/2", 4, 0), ("advance", 4),
                             ("reset", "round 2/2", 4, 0), ("advance", 4)]
    assert held_out.label == "held-out deals: exact values"
    assert held_out.events == [("add", "deals", 20), ("advance", 20)]  # both crib owners

    bars.clear()
    res = CliRunner().invoke(app, ["evaluate-calibration", str(db), "--games", "3",
                                   "--workers", "1", "--held-out-deals", "10"])
    assert res.exit_code == 0, res.output
    (games,) = bars
    assert games.label == "held-out games"
    assert games.events == [("add", "games", 6), ("advance", 6)]  # before and after


def test_learn_counts_its_games_block_by_block(tmp_path: Path, bars: list[Recorder]) -> None:
    res = CliRunner().invoke(app, [
        "learn", "hearts", "-n", "16", "--block", "8", "--measure-every", "1",
        "--measure-games", "8", "--sample-games", "4", "--order", "1", "-w", "1",
        "--db", str(tmp_path / "l.sqlite"), "-o", str(tmp_path / "l.yaml"),
        "--plot", str(tmp_path / "c.png")])
    assert res.exit_code == 0, res.output
    (bar,) = bars  # one bar: the sampling, then the learning
    assert bar.events[:2] == [("add", "sampling decisions: 4 games", None),
                              ("reset", "learning", 16, 0)]
    assert [e[0] for e in bar.events[2:]] == ["update", "update"]
    assert [e[2] for e in bar.events[2:]] == [8, 16]
    for event in bar.events[2:]:
        assert str(event[1]).startswith("learning: ") and \
            str(event[1]).endswith(" against heuristic")


def test_tune_counts_its_deals_then_its_evaluations_then_the_held_out_deals(
        tmp_path: Path, bars: list[Recorder]) -> None:
    """--popsize 3, --budget 7: the start and two generations, 4 then 7 evaluations."""
    res = CliRunner().invoke(app, [
        "tune", "cribbage", "--popsize", "3", "--budget", "7", "--training-deals", "20",
        "--held-out-deals", "5", "--workers", "1", "--db", str(tmp_path / "t.sqlite")])
    assert res.exit_code == 0, res.output
    (bar,) = bars
    assert bar.label == "{task.description}"
    assert bar.events[:3] == [("add", "training deals: exact values", 40), ("advance", 40),
                              ("reset", "tuning", 7, 0)]
    assert [(e[0], e[2]) for e in bar.events[3:5]] == [("update", 4), ("update", 7)]
    assert all(str(e[1]).startswith("tuning: best 0.") for e in bar.events[3:5])
    assert bar.events[5:] == [("reset", "held-out deals: exact values", 10, 0),
                              ("advance", 10)]


def test_the_bar_shows_each_tasks_own_description_by_default() -> None:
    from fuzzeval.cli.common import progress_bar

    bar = progress_bar()
    assert bar.columns[0].text_format == "{task.description}"  # type: ignore[union-attr]
