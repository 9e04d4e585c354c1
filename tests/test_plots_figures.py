"""Figures that cannot go stale: every picture in docs/ is made by one entry of
``python -m benchmarks.figures``, the pages that show it name that entry, and every
command of every entry parses with today's options (so a renamed option or rule base
breaks this test, not the next person re-making a figure)."""

from __future__ import annotations

import importlib.util
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from benchmarks.figures import ENTRIES, Entry, entry_command, listing, main, pick, run
from fuzzeval.cli import app
from tests.cli_tables import matrix_cells

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

runner = CliRunner()
ENV = {"COLUMNS": "80"}


def test_every_figure_in_docs_has_one_entry_and_every_entry_a_figure_or_a_page() -> None:
    on_disk = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs/figures").iterdir())
    outputs = sorted(e.output for e in ENTRIES if e.output)
    assert outputs == on_disk  # each file made by exactly one entry, no orphan
    assert len({e.name for e in ENTRIES}) == len(ENTRIES)
    for e in ENTRIES:
        assert e.docs and all((ROOT / page).is_file() for page in e.docs), e.name


def test_every_page_showing_a_figure_names_its_entry() -> None:
    by_output = {e.output: e for e in ENTRIES if e.output}
    shown = 0
    for page in PAGES:
        text = page.read_text()
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", text):
            figure = str((page.parent / target).resolve().relative_to(ROOT))
            # an entry writes a figure, or a folder of them (the studio's screenshots)
            entry = by_output.get(figure) or by_output[str(Path(figure).parent)]
            assert str(page.relative_to(ROOT)) in entry.docs, (page.name, figure)
            assert entry_command(entry.name) in text, (page.name, entry.name)
            shown += 1
    assert shown >= 7


def test_every_entry_is_named_by_each_of_its_pages() -> None:
    for e in ENTRIES:
        for page in e.docs:
            assert entry_command(e.name) in (ROOT / page).read_text(), (page, e.name)


def _parses(command: str) -> None:
    words = shlex.split(command)
    if words[0] == "fuzzeval":
        cmd: Any = get_command(app)
        rest = words[1:]
        while hasattr(cmd, "list_commands"):
            cmd, rest = cmd.get_command(cmd.context_class(cmd), rest[0]), rest[1:]
            assert cmd is not None, command
        with cmd.make_context("fuzzeval", rest):
            pass
        hidden = {o for p in cmd.params if getattr(p, "hidden", False) for o in p.opts}
        assert not hidden & {w.split("=")[0] for w in rest}, f"{command}: a deprecated spelling"
    elif words[:2] == ["python", "-m"]:
        assert importlib.util.find_spec(words[2]) is not None, command
    else:  # python or another environment's interpreter, then a script
        assert words[0] == "python" or words[0].endswith("/python"), command
        assert (ROOT / words[1]).is_file(), command


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_every_command_parses_with_todays_options(entry: Entry) -> None:
    assert entry.commands
    for command in entry.commands:
        _parses(command)
    if entry.output:  # a figure's last command writes it
        assert entry.output in entry.commands[-1]


def test_the_listing_says_what_makes_what() -> None:
    text = listing(ENTRIES)
    assert "cribbage_drift (figure, 4 min): docs/results.md\n" \
           "  writes docs/figures/cribbage_drift.png\n" \
           "  $ fuzzeval calibrate cribbage --rulebase cribbage_expected_points " in text
    assert "whole_games (table, 9 min): docs/results.md\n" \
           "  $ fuzzeval match cribbage -p exhaustive --opponent random -n 1000 --seed 1" in text
    assert text.count("\n  $ ") == sum(len(e.commands) for e in ENTRIES)


def test_only_picks_entries_in_the_order_given_and_refuses_an_unknown_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert [e.name for e in pick("whole_games, cribbage_drift")] == ["whole_games",
                                                                     "cribbage_drift"]
    assert [e.name for e in pick(None)] == [
        "es_experiments", "cribbage_linguistic_drift", "cribbage_drift",
        "cribbage_beginner_drift", "backgammon_refined_drift", "backgammon_fig5", "peers",
        "hearts_td", "backgammon_td", "studio"]
    assert main(["--only", "cribbage_drift,nope"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: --only cribbage_drift,nope: no entry "
                                               "nope; the entries are es_experiments, ")


def test_an_entry_starts_from_fresh_databases_and_stops_at_the_first_failure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "old.sqlite"
    db.write_text("an earlier run")
    marker = tmp_path / "ran"
    entry = Entry("toy", ("docs/results.md",), (
        f"python -c \"import pathlib, sys; sys.exit(pathlib.Path('{db}').exists())\" "
        f"--db {db}",
        "python -c \"import sys; sys.exit(3)\"",
        f"python -c \"open('{marker}', 'w')\""), "1 s")
    assert run(entry) == 3  # the first saw no old database; the second failed
    assert not marker.exists()
    out = capsys.readouterr().out
    assert "[toy 2/3] $ python -c" in out and "exit status 3" in out
    missing = Entry("venv", ("docs/benchmarks.md",), (f"{tmp_path}/nowhere/python x.py",),
                    "needs a venv")
    assert run(missing) == 1
    assert capsys.readouterr().err == \
        f"error: venv: {tmp_path}/nowhere/python: not found (needs a venv)\n"


def test_fuzzeval_and_python_run_with_this_interpreter() -> None:
    from benchmarks.figures import argv_of

    assert argv_of("fuzzeval plot curve a.sqlite -o b.png") == [
        sys.executable, "-m", "fuzzeval", "plot", "curve", "a.sqlite", "-o", "b.png"]
    assert argv_of("python benchmarks/x.py --n 3") == [sys.executable, "benchmarks/x.py",
                                                       "--n", "3"]
    assert argv_of(".bench-venv/bin/python y.py") == [".bench-venv/bin/python", "y.py"]


@pytest.mark.pinned
def test_membership_panels_show_the_edges_and_many_singletons_get_a_row_each() -> None:
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.plots import membership_figure

    fig = membership_figure(load_rulebase("tipping"))
    assert fig.axes[0].get_xlim() == pytest.approx((-0.3, 10.3))  # 3 % of the range
    assert fig.axes[2].get_xlim() == pytest.approx((-0.75, 25.75))
    rb = load_rulebase("cribbage_linguistic_tuned")
    fig = membership_figure(rb)
    dots = fig.axes[-1]
    spec = dots.get_subplotspec()
    assert spec is not None
    assert list(spec.colspan) == list(range(spec.get_gridspec().ncols))  # the whole width
    assert len(dots.get_yticklabels()) == len(rb.output.terms)


@pytest.mark.pinned
def test_thousands_of_learned_conclusions_are_drawn_as_a_histogram() -> None:
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.plots import membership_figure

    rb = load_rulebase("hearts_td")
    last = membership_figure(rb).axes[-1]
    assert last.get_xlabel() == "output value: the values of its 4,358 conclusions"
    assert sum(p.get_height() for p in last.patches) == len(rb.rules) == 4358


@pytest.fixture
def saved(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """The figures a plot function would save, kept open instead."""
    from fuzzeval import plots

    figures: list[Any] = []

    def keep(fig: Any, path: Path) -> Path:
        figures.append(fig)
        return path

    monkeypatch.setattr(plots, "_save", keep)
    yield figures
    import matplotlib.pyplot as plt

    for fig in figures:
        plt.close(fig)


@pytest.mark.mutation_pin
def test_membership_compare_draws_only_the_variables_that_move(saved: list[Any]) -> None:
    from fuzzeval import load_rulebase
    from fuzzeval.plots import plot_membership_compare

    tipping = load_rulebase("tipping")  # only quality's average peak may move
    plot_membership_compare(tipping, tipping, Path("x.png"), ("before", "after"))
    assert [ax.get_title() for ax in saved[0].axes] == ["quality"]
    assert saved[0].get_suptitle() == "tipping: dashed = before, solid = after"


@pytest.mark.mutation_pin
def test_win_matrix_cells_read_as_rates_with_intervals(saved: list[Any]) -> None:
    from fuzzeval.plots import plot_win_matrix

    plot_win_matrix(["a", "b"], matrix_cells(2), Path("x.png"), "t")
    assert [t.get_text() for t in saved[0].axes[0].texts] == [
        "—", "60.0%\n(34.0%–100.0%)", "40.0%\n(0.0%–66.0%)", "—"]


@pytest.mark.mutation_pin
def test_curve_legend_stays_inside_the_picture() -> None:
    import matplotlib.pyplot as plt

    from fuzzeval.plots import Curve, curves_figure

    fig = curves_figure([Curve("a rather long label for one curve, 100 games a round",
                               [1, 2, 3], [0.2, 0.5, 0.45])], "t", "round", "win rate")
    try:
        fig.canvas.draw()
        (legend,) = fig.legends  # below the axes (tests/test_plots_readable.py)
        box = legend.get_window_extent(fig.canvas.get_renderer())
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1
        assert fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1
    finally:
        plt.close(fig)
