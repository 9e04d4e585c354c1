"""Values, not only the form, of the command-line modules and the small helpers under them:
tests added for the mutants of fuzzeval/cli/, plots, lazy, jit, loading, play.testing,
play.registry, learn.held_out and games.options that survived the suite.

Every expected value is worked out by hand here (memberships of triangles, weighted
averages, Wilson-style intervals given as inputs), never taken from the code under test.
Tables are read cell by cell (``cells``), so the box drawing and padding of rich may change
without failing a test, while every header, label and number is pinned; the console is
80 columns wide, as in tests/test_cli_rulebase_list.py."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar, cast

import pytest
from rich.console import Console
from rich.progress import Progress
from typer.testing import CliRunner

from fuzzeval.cli import app

pytestmark = pytest.mark.mutation_pin

runner = CliRunner()
ENV = {"COLUMNS": "80"}

# Two inputs, a weighted rule and a weighted average: every grade is a sum done by hand.
SMALL = """\
name: small
made_by: written by hand
defuzzifier: weighted_average
default: 0.5
inputs:
  a: {range: [0, 10], terms: {lo: [0, 0, 10], hi: [0, 10, 10]}}
  b: {range: [0, 4], terms: {s: [0, 0, 4], l: [0, 4, 4]}}
output: {name: y, range: [0, 1], terms: {nay: 0, aye: 1}}
rules:
  - if a is hi and b is l then y is aye
  - rule: if a is lo then y is nay
    weight: 0.5
"""
# (b is s is used by no rule: loading it warns, on stderr, naming the file and line 7)


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.yaml"
    path.write_text(SMALL)
    return path


def cells(line: str) -> list[str]:
    """The cells of one printed table row (any of rich's boxes)."""
    return [c.strip() for c in line.replace("┃", "│").split("│")[1:-1]]


def bar(filled: int) -> str:
    """A 20-character bar with ``filled`` blocks (evaluate --explain's bars)."""
    return "█" * filled + "·" * (20 - filled)


def terminal(width: int = 80) -> tuple[Console, io.StringIO]:
    """A console that colours, as a terminal does, writing into a buffer."""
    out = io.StringIO()
    return Console(file=out, force_terminal=True, color_system="standard", width=width,
                   soft_wrap=True), out


# --- fuzzeval evaluate ----------------------------------------------------------------

def test_explain_prints_every_membership_rule_and_activation(small: Path) -> None:
    # a = 7: lo [0,0,10] = 3/10, hi [0,10,10] = 7/10; b = 1: s [0,0,4] = 3/4, l = 1/4.
    # Rule 1: min(0.7, 0.25) = 0.25 (weight 1); rule 2: 0.3 x weight 0.5 = 0.15.
    # y = (0.25 x 1 + 0.15 x 0) / (0.25 + 0.15) = 0.625. A bar is round(20 x value) blocks.
    res = runner.invoke(app, ["evaluate", str(small), "-i", "a=7", "-i", "b=1", "--explain"],
                        env=ENV)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "rule base small: written by hand"
    assert lines[1].rstrip() == "memberships"
    rows = [cells(line) for line in lines if line.startswith(("┃", "│"))]
    assert rows == [
        ["input", "value", "term", "membership", ""],
        ["a", "7", "lo", "0.3000", bar(6)],
        ["", "", "hi", "0.7000", bar(14)],
        ["b", "1", "s", "0.7500", bar(15)],
        ["", "", "l", "0.2500", bar(5)],
        ["#", "rule", "weight", "strength", ""],
        ["1", "if a is hi and b is l then y", "1", "0.2500", bar(5)],  # 80 columns: the
        ["", "is aye", "", "", ""],                                   # rule wraps
        ["2", "if a is lo then y is nay", "0.5", "0.1500", bar(3)],
        ["term", "peak", "activation", ""],
        ["nay", "0", "0.1500", bar(3)],
        ["aye", "1", "0.2500", bar(5)],
    ]
    titles = [line.rstrip() for line in lines if line and line[0].isalpha()]
    assert titles == ["rule base small: written by hand", "memberships", "rules", "output y",
                      "y = 0.625 (weighted average)"]


def test_explain_shows_a_clipped_input_and_its_value_used(small: Path) -> None:
    # b = 9 is past the range [0, 4]: graded as 4, so l = 1 and s = 0.
    res = runner.invoke(app, ["evaluate", str(small), "-i", "a=7", "-i", "b=9", "--explain"],
                        env=ENV)
    assert res.exit_code == 0, res.output
    rows = [cells(line) for line in res.stdout.splitlines() if line.startswith("│")]
    assert rows[2:4] == [["b", "9 → 4 (clipped)", "s", "0.0000", bar(0)],
                         ["", "", "l", "1.0000", bar(20)]]


def test_json_without_explain_is_the_grade_and_whether_a_rule_fired(small: Path) -> None:
    res = runner.invoke(app, ["evaluate", str(small), "-i", "a=7", "-i", "b=1", "--json"],
                        env=ENV)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == {"grade": pytest.approx(0.625, abs=1e-12), "fired": True}
    assert set(json.loads(res.stdout)) == {"grade", "fired"}


def test_a_graded_csv_keeps_its_cells_and_adds_the_grade(
        small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # short names: the lines fit 80 columns
    table = Path("in.csv")
    table.write_text("note,a,b\nx,7,1\ny,10,4\nz,0,0\n")
    # (10, 4): rule 1 fires fully, rule 2 not: y = 1. (0, 0): only rule 2, at 0.5: y = 0.
    res = runner.invoke(app, ["evaluate", str(small), "--csv", str(table)], env=ENV)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "note,a,b,y"
    assert [line.rsplit(",", 1)[0] for line in lines[1:]] == ["x,7,1", "y,10,4", "z,0,0"]
    assert [float(line.rsplit(",", 1)[1]) for line in lines[1:]] == pytest.approx(
        [0.625, 1.0, 0.0], abs=1e-12)
    out = Path("out.csv")
    res = runner.invoke(app, ["evaluate", str(small), "--csv", str(table), "-o", str(out)],
                        env=ENV)
    assert res.exit_code == 0, res.output
    assert res.stdout == f"graded 3 rows -> {out}\n"
    assert out.read_text().splitlines() == lines


def test_output_without_csv_and_output_over_the_csv_are_refused(small: Path,
                                                                tmp_path: Path) -> None:
    res = runner.invoke(app, ["evaluate", str(small), "-i", "a=1", "-i", "b=1", "-o",
                              str(tmp_path / "o.csv")], env=ENV)
    assert res.exit_code == 2
    assert res.stderr == "error: --output writes the table graded with --csv; give --csv " \
                         "FILE too\n"
    table = tmp_path / "in.csv"
    table.write_text("a,b\n1,1\n")
    res = runner.invoke(app, ["evaluate", str(small), "--csv", str(table), "-o", str(table)],
                        env=ENV)
    assert res.exit_code == 2
    assert res.stderr == (f"error: --output {table}: the same file as --csv {table}, which "
                          "this command reads; give another name\n")
    assert table.read_text() == "a,b\n1,1\n"


def test_a_rule_base_warning_is_printed_as_written(tmp_path: Path) -> None:
    """Square brackets in a file name are not console markup."""
    path = tmp_path / "b[bold]x.yaml"
    path.write_text(SMALL)
    res = runner.invoke(app, ["evaluate", str(path), "-i", "a=7", "-i", "b=1"], env=ENV)
    assert res.exit_code == 0, res.output
    assert res.stdout == "0.625\n"
    assert res.stderr == f"{path}:7: warning: inputs.b.terms.s: no rule uses this term\n"


# --- fuzzeval tournament ----------------------------------------------------------------

def _cells(n: int) -> list[list[tuple[float, float, float] | None]]:
    """Row i beats every later player 60 % of the time (interval 34-100 %), so it loses
    to every earlier one 40 % of the time (interval 0-66 %)."""
    return [[None if i == j else (0.6, 0.34, 1.0) if i < j else (0.4, 0.0, 0.66)
             for j in range(n)] for i in range(n)]


def _render(table: Any, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width).print(table)
    return [line.rstrip() for line in out.getvalue().splitlines()]


def _title(lines: list[str]) -> str:
    """A table's title, as one line (it wraps at the table's width)."""
    return " ".join(lines[:lines.index("")])


def test_tournament_matrix_rows_and_overall(monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.cli import tournament as T

    monkeypatch.setattr(T, "console", Console(width=80))
    lines = _render(T._table("toy", 4, 7, ["a", "b", "c"], _cells(3)), 80)
    assert _title(lines) == ("toy round robin, 4 games a pairing, seed 7: the row player's "
                             "win rate against each column's, over its 95% interval")
    # overall: the mean of a row's cells, (60 + 60) / 2, (40 + 60) / 2, (40 + 40) / 2
    assert [line.split() for line in lines[lines.index("") + 1:]] == [
        ["player", "1", "2", "3", "overall"], ["─" * 44],
        ["1", "a", "—", "60.0%", "60.0%", "60.0%"], ["34–100", "34–100"],
        ["2", "b", "40.0%", "—", "60.0%", "50.0%"], ["0–66", "34–100"],
        ["3", "c", "40.0%", "40.0%", "—", "40.0%"], ["0–66", "0–66"], []]


def test_tournament_pairings_one_a_row_when_the_matrix_is_too_wide(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.cli import tournament as T

    monkeypatch.setattr(T, "console", Console(width=80))
    names = [f"p{k}" for k in range(7)]  # 20 + 8 x 8 = 84 columns: too wide for 80
    lines = _render(T._table("toy", 4, 7, names, _cells(7)), 80)
    assert _title(lines) == ("toy round robin, 4 games a pairing, seed 7: each pairing's "
                             "win rate with its 95% interval")
    top = lines.index("") + 1
    assert lines[top].split() == ["player", "opponent", "win", "rate", "95%", "interval"]
    rows = [line.split() for line in lines[top + 2:] if line.strip()]
    # every pair once, from the earlier player's side: 60 %, 34-100 %
    assert rows == [[f"p{i}", f"p{j}", "60.0%", "34–100%"] for i in range(7)
                    for j in range(i + 1, 7)]


def test_tournament_overall_column_never_wraps_on_a_wide_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 160 columns 16 players still get the matrix: the names are squeezed (to three
    columns), never the overall rates."""
    from fuzzeval.cli import tournament as T

    monkeypatch.setattr(T, "console", Console(width=160))
    lines = _render(T._table("toy", 4, 7, [f"player{k}" for k in range(16)], _cells(16)), 160)
    head = next(line for line in lines if " 16 " in line)
    assert head.split()[-17:] == [*map(str, range(1, 17)), "overall"]
    rows = [line.split() for line in lines if "—" in line]
    # player i: 15 - i wins at 60 % and i losses at 40 %, over 15 opponents
    assert [r[-1] for r in rows] == [f"{(60 - 20 * i / 15) / 100:.1%}" for i in range(16)]


def test_tournament_cells_read_a_match_both_ways_and_round_intervals() -> None:
    from fuzzeval.cli.tournament import _cell, _span
    from fuzzeval.play.match import MatchSummary
    from fuzzeval.play.tournament import Tournament

    won = MatchSummary(games=8, win_rate=0.75, interval=(0.25, 0.5), mean_margin=None,
                       units=0, sides=())
    t = Tournament(("a", "b"), 8, 1, {(0, 1): won})
    assert _cell(t, 0, 0) is None
    assert _cell(t, 0, 1) == (0.75, 0.25, 0.5)
    assert _cell(t, 1, 0) == (0.25, 0.5, 0.75)
    assert _span((0.6, 0.605, 0.994)) == "60–99"  # 60.5 rounds to even, 99.4 down
    assert _span((0.6, 0.6, 1.0)) == "60–100"
    assert _span((5.0, 5.94, 7.06), rates=False) == "5.9–7.1"


def test_tournament_names_plot_in_its_refusals(tmp_path: Path) -> None:
    picture = tmp_path / "notes.png"
    picture.write_text("not a picture\n")
    res = runner.invoke(app, ["tournament", "cribbage", "-p", "random", "-p", "greedy",
                              "-n", "1", "--db", str(tmp_path / "t.sqlite"),
                              "--plot", str(picture)], env=ENV)
    assert res.exit_code == 2
    assert res.stderr == (f"error: --plot {picture}: an existing file that is text, not a "
                          "picture; it is not replaced: give another name or remove it\n")
    assert not (tmp_path / "t.sqlite").exists()


# --- fuzzeval evaluate-calibration --------------------------------------------------------

class _Bars(Progress):
    """A progress bar that remembers its tasks."""

    made: ClassVar[list[_Bars]] = []

    def __init__(self, *columns: Any, **options: Any) -> None:
        super().__init__(*columns, **options)
        _Bars.made.append(self)


def _evaluate_calibration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                          result: Any) -> list[str]:
    """evaluate-calibration's printed lines for a held-out result given by hand (the
    matches themselves are tested in tests/test_calibration_rounds.py)."""
    from fuzzeval.learn import calibration_rounds, held_out
    from fuzzeval.play.store import History

    db = tmp_path / "c.sqlite"
    with History(db):
        pass
    cal = SimpleNamespace(id=3, finished_rounds=(1, 2), rulebase_name="toy",
                          settings=SimpleNamespace(game="cribbage", opponent="random"))
    games_seen: list[int] = []

    def evaluate(history: Any, game: Any, c: Any, games: int, seed: Any, pool: Any,
                 deals: int, cache: Any, on_game: Any) -> held_out.HeldOut:
        assert c is cal and (games, seed, deals) == (10, None, 2000)
        for _ in range(2 * games):
            on_game(None)
        games_seen.append(games)
        return cast(held_out.HeldOut, result)

    monkeypatch.setattr(calibration_rounds, "load_calibration", lambda h, i: cal)
    monkeypatch.setattr(held_out, "evaluate_calibration", evaluate)
    monkeypatch.setattr("rich.progress.Progress", _Bars)
    _Bars.made = []
    res = runner.invoke(app, ["evaluate-calibration", str(db), "-n", "10", "-w", "1"],
                        env=ENV)
    assert res.exit_code == 0, res.output
    assert games_seen == [10]
    # the bar counts both rule bases' games, and ends full
    assert [(t.completed, t.total) for t in _Bars.made[-1].tasks] == [(20, 20)]
    lines = [line.rstrip() for line in res.stdout.splitlines()]
    top = lines.index("") + 1
    assert lines[top].split() == ["measure", "initial", "calibrated", "change", "(paired",
                                  "95%)"]
    return lines


def _rows(lines: list[str]) -> list[list[str]]:
    """The cells of a table's rows under its header (cells are 2+ spaces apart)."""
    top = lines.index("") + 3
    return [[w.strip() for w in line.split("  ") if w.strip()] for line in lines[top:] if line]


def test_evaluate_calibration_table_of_a_game_with_winners(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.learn.held_out import HeldOut
    from fuzzeval.learn.measure import Comparison
    from fuzzeval.play.match import MatchSummary

    initial = MatchSummary(games=10, win_rate=0.5, interval=(0.2366, 0.7634),
                           mean_margin=-3.25, units=0, sides=())
    calibrated = MatchSummary(games=10, win_rate=0.7, interval=(0.3968, 0.8922),
                              mean_margin=4.5, units=0, sides=())
    lines = _evaluate_calibration(tmp_path, monkeypatch, HeldOut(
        10, 77, initial, calibrated, 0.2, (-0.1, 0.5),
        (Comparison("discard efficiency", 100, 0.9, 0.95, (0.03, 0.07)),)))
    assert _title(lines) == ("toy before and after 2 rounds of calibration, against random: "
                             "10 held-out games and 2,000 held-out deals each (seed 77)")
    # +20.0 % +- half the interval's width, (0.5 - -0.1) / 2 = 30 %; the margin's change is
    # 4.50 - -3.25 = 7.75; the measure's 0.95 - 0.90 = 0.05 +- (0.07 - 0.03) / 2.
    assert _rows(lines) == [["win rate", "50.0%", "70.0%", "+20.0% ± 30.0%"],
                            ["95% interval", "23.7–76.3%", "39.7–89.2%"],
                            ["mean final margin", "-3.25", "+4.50", "+7.75"],
                            ["discard efficiency", "0.9000", "0.9500", "+0.0500 ± 0.0200"]]
    top = lines.index("") + 3
    assert lines[top + 1].startswith("    95% interval")  # indented under its win rate


def test_evaluate_calibration_table_of_a_game_without_winners(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hearts-like: the rate of beating the table's mean, and the mean payoff itself."""
    from fuzzeval.learn.held_out import HeldOut
    from fuzzeval.play.match import MatchSummary

    def summary(mean: float) -> MatchSummary:
        return MatchSummary(games=10, win_rate=None, interval=(0.0, 0.0), mean_margin=None,
                            units=0, sides=(), mean=mean, unit="points a game")

    lines = _evaluate_calibration(tmp_path, monkeypatch, HeldOut(
        10, 77, summary(-1.25), summary(-0.5), 0.3, (0.1, 0.5), (), rates=(0.3, 0.6),
        payoff_difference=0.75, payoff_interval=(0.25, 1.25)))
    assert _title(lines) == ("toy before and after 2 rounds of calibration, against random: "
                             "10 held-out games each (seed 77)")
    # 60 % - 30 % +- (0.5 - 0.1) / 2; -0.5 - -1.25 = 0.75 +- (1.25 - 0.25) / 2
    assert _rows(lines) == [["beat the table's mean", "30.0%", "60.0%", "+30.0% ± 20.0%"],
                            ["points a game", "-1.250", "-0.500", "+0.750 ± 0.500"]]


def test_held_out_deals_default_is_the_commands(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python API and `evaluate-calibration` measure the same held-out deals unless
    told otherwise: 2,000 (docs/cli.md, --held-out-deals)."""
    from fuzzeval.learn import held_out
    from fuzzeval.learn.calibration_rounds import (
        CalibrationSettings,
        load_calibration,
        run_calibration,
    )
    from fuzzeval.play.store import History
    from tests.toy import RULEBASE, ToyGame

    measured: list[int] = []

    def measures(game: Any, cal: Any, deals: int, *rest: Any) -> tuple[()]:
        measured.append(deals)
        return ()

    monkeypatch.setattr(held_out, "held_out_measures", measures)
    with History(tmp_path / "toy.sqlite") as h:
        run_calibration(h, ToyGame(), CalibrationSettings("toy", "random", 2, 1), RULEBASE, 1)
        result = held_out.evaluate_calibration(h, ToyGame(), load_calibration(h), 2)
    assert measured == [2000] and result.games == 2
    res = runner.invoke(app, ["evaluate-calibration", "--help"], env={"COLUMNS": "250"})
    assert "[default: 2000]" in next(line for line in res.stdout.splitlines()
                                     if "--held-out-deals" in line)


# --- fuzzeval match ---------------------------------------------------------------------

MATCH = ["match", "cribbage", "-p", "random", "--opponent", "random", "-w", "1"]


def test_match_json_says_whether_it_was_duplicate(tmp_path: Path) -> None:
    for duplicate in (False, True):
        res = runner.invoke(app, [*MATCH, "-n", "2", "--json", "--db",
                                  str(tmp_path / f"{duplicate}.sqlite"),
                                  *(["--duplicate"] if duplicate else [])], env=ENV)
        assert res.exit_code == 0, res.output
        out = json.loads(res.stdout)
        assert (out["duplicate"], out["seed"], out["resumed_games"], out["games"]) == (
            duplicate, 1, 0, 2)
        assert out["seats"] == ["random", "random"]


def test_a_stopped_match_names_its_database(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.play.estimate import Stopwatch

    ticks: list[int] = []

    def tick(self: Stopwatch) -> None:
        ticks.append(1)
        if len(ticks) == 2:
            raise KeyboardInterrupt  # Ctrl-C as the second game ends

    monkeypatch.setattr(Stopwatch, "tick", tick)
    db = tmp_path / "m.sqlite"
    res = runner.invoke(app, [*MATCH, "-n", "5", "--db", str(db)], env=ENV)
    assert res.exit_code == 130, res.output
    assert res.stderr.splitlines()[-1] == (
        f"interrupted: 2 of 5 games are saved in {db}; run the same command with --resume "
        "to finish the match")


def test_seats_keep_a_players_own_comma_separated_options() -> None:
    from fuzzeval.cli.match import _lineup
    from fuzzeval.play.spec import PlayerSpec

    got = _lineup("sampling:trials=5,stop=none,random, greedy", "fuzzy", None)
    assert got == (PlayerSpec("sampling", (("stop", "none"), ("trials", 5))),
                   PlayerSpec("random"), PlayerSpec("greedy"))


def test_the_changed_rule_base_line_is_plain_on_a_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.cli import match as M
    from fuzzeval.play import store

    console, out = terminal()
    monkeypatch.setattr(M, "err_console", console)
    monkeypatch.setattr(store, "resumable", lambda h, g, s: None)
    history = SimpleNamespace(path=Path("runs/m1.sqlite"),
                              find_match=lambda spec: SimpleNamespace(id=12))
    M._say_if_stored(history, None, None, False)  # type: ignore[arg-type]
    assert out.getvalue() == (
        "runs/m1.sqlite: a file a player reads (a rule base or a table) has changed since "
        "match 12 was stored with these settings: its games are another player's, so a new "
        "match starts\n")  # no colour codes: numbers and paths are not highlighted


# --- fuzzeval plot ------------------------------------------------------------------------

def test_plot_membership_of_a_shipped_name(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short name: the line fits 80 columns
    picture = Path("tipping.png")
    res = runner.invoke(app, ["plot", "membership", "tipping", "-o", str(picture)], env=ENV)
    assert res.exit_code == 0, res.output
    assert res.stdout == f"wrote {picture}\n"
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- fuzzeval.plots -----------------------------------------------------------------------

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


def test_membership_compare_draws_only_the_variables_that_move(saved: list[Any]) -> None:
    from fuzzeval import load_rulebase
    from fuzzeval.plots import plot_membership_compare

    tipping = load_rulebase("tipping")  # only quality's average peak may move
    plot_membership_compare(tipping, tipping, Path("x.png"), ("before", "after"))
    assert [ax.get_title() for ax in saved[0].axes] == ["quality"]
    assert saved[0].get_suptitle() == "tipping: dashed = before, solid = after"


def test_win_matrix_cells_read_as_rates_with_intervals(saved: list[Any]) -> None:
    from fuzzeval.plots import plot_win_matrix

    plot_win_matrix(["a", "b"], _cells(2), Path("x.png"), "t")
    assert [t.get_text() for t in saved[0].axes[0].texts] == [
        "—", "60.0%\n(34.0%–100.0%)", "40.0%\n(0.0%–66.0%)", "—"]


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


# --- helpers under the commands ---------------------------------------------------------

def test_lazy_exports_import_on_first_use_and_refuse_other_names() -> None:
    import fuzzeval.engine.evaluator
    from fuzzeval.lazy import lazy_exports

    get, names = lazy_exports("fuzzeval", {"compile_rulebase": "engine.evaluator"})
    assert get("compile_rulebase") is fuzzeval.engine.evaluator.compile_rulebase
    with pytest.raises(AttributeError, match=r"^module 'fuzzeval' has no attribute 'nope'$"):
        get("nope")
    assert "compile_rulebase" in names() and names() == sorted(names())


def test_jit_says_numba_is_loaded_once_a_kernel_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.engine.kernels import jit

    monkeypatch.setattr(jit, "_loaded", False)  # the rest of the session keeps its own
    assert jit.loaded() is False

    def twice(x: float) -> float:
        return 2 * x

    k = jit.Kernel(twice)
    assert jit.loaded() is False  # not yet: numba is imported on first use
    k.dispatcher()
    assert jit.loaded() is True


def test_a_list_where_a_mapping_belongs_is_named_a_list() -> None:
    from fuzzeval import parse_rulebase

    _, problems = parse_rulebase("name: x\ninputs: [1, 2]\n", "x.yaml")
    assert "x.yaml:2: inputs: must be a mapping (got a list)" in [str(p) for p in problems]
    _, problems = parse_rulebase("name: x\nrules: {a: 1}\n", "x.yaml")
    assert "x.yaml:2: rules: must be a non-empty list of rules (got a mapping)" in [
        str(p) for p in problems]


def test_check_game_sees_a_state_changed_in_place() -> None:
    from fuzzeval.play.testing import ConformanceError, check_game
    from tests.test_check_game import ApplyChangesTheState, CandidatesChangeTheState

    with pytest.raises(ConformanceError, match=r"candidates\(\) changed the state it was "):
        check_game(CandidatesChangeTheState(), games=1)
    with pytest.raises(ConformanceError, match=r"apply\(\) changed the state it was given"):
        check_game(ApplyChangesTheState(), games=1)


def test_command_entry_points_are_the_game_groups_by_name() -> None:
    from fuzzeval.play.registry import COMMANDS_GROUP, command_entry_points

    got = command_entry_points()
    names = [ep.name for ep in got]
    assert {"backgammon", "cribbage", "hearts"} <= set(names)
    assert names == sorted(names) and all(ep.group == COMMANDS_GROUP for ep in got)


def test_one_of_lists_every_choice() -> None:
    from fuzzeval.games.options import as_choice

    with pytest.raises(ValueError, match=r"^stop must be 'none' \(got 'x'\)$"):
        as_choice("stop", "x", ["none"])
    with pytest.raises(ValueError, match=r"^stop must be 'a', 'b' or 'c' \(got 'x'\)$"):
        as_choice("stop", "x", ["a", "b", "c"])


def test_an_unknown_backgammon_player_lists_the_players() -> None:
    from fuzzeval.games.backgammon.players import make_player

    with pytest.raises(ValueError, match=r"^unknown backgammon player 'nobody' \(players: "
                                         r"random, pubeval, gnubg, fuzzy\)$"):
        make_player("nobody")


def test_a_match_table_counts_what_its_games_stored(tmp_path: Path) -> None:
    """The summary of a backgammon match, row by row, against the stored games: who won
    each (pubeval all 4: by 1, 2, 3 and 3 points, read back from the history), the kinds,
    the game points 1 + 2 + 3 + 3 = 9 and their mean 2.25 a game."""
    import sqlite3

    db = tmp_path / "m.sqlite"
    res = runner.invoke(app, ["match", "backgammon", "-p", "pubeval", "--opponent", "random",
                              "-n", "4", "--seed", "3", "--db", str(db), "-w", "1"],
                        env={"COLUMNS": "100"})
    assert res.exit_code == 0, res.output
    with sqlite3.connect(db) as conn:
        stored = conn.execute("SELECT winner, points FROM games ORDER BY idx").fetchall()
    assert sorted(p for _, p in stored) == [1, 2, 3, 3]
    lines = [" ".join(line.strip("│┃ ").split()) for line in res.stdout.splitlines()]
    assert "pubeval ┃ random" in lines[2]
    for row in ("points per game (95% interval) │ 2.250", "wins │ 4 │ 0",
                "won by single │ 1 │ 0", "won by gammon │ 1 │ 0",
                "won by backgammon │ 2 │ 0", "game points │ 9 │ 0"):
        assert any(line.startswith(row) for line in lines), row
    # the last line, whose path may wrap: compared without whitespace
    assert "".join(res.stdout.split()).endswith(f"4games;historyin{db}")


def test_the_schema_and_the_reader_agree_on_the_least_resolution() -> None:
    """The JSON schema editors validate against says what the reader refuses: resolution
    11 is read, 10 is not."""
    from fuzzeval.formats.schema import rulebase_schema
    from fuzzeval.formats.yaml_read import MIN_RESOLUTION

    assert MIN_RESOLUTION == 11
    assert rulebase_schema()["properties"]["resolution"]["minimum"] == MIN_RESOLUTION


def test_a_measures_table_shows_before_after_and_the_paired_change() -> None:
    from fuzzeval.cli.common import measures_table
    from fuzzeval.learn.measure import Comparison

    table = measures_table("t", (Comparison("efficiency", 10, 0.5, 0.625, (0.1, 0.15)),))
    out = io.StringIO()
    Console(file=out, width=80).print(table)
    lines = [" ".join(line.split()) for line in out.getvalue().splitlines()]
    assert "measure initial calibrated change (paired 95%)" in lines
    assert "efficiency 0.5000 0.6250 +0.1250 ± 0.0250" in lines


def test_strict_json_spells_each_non_finite_float_as_float_reads_it() -> None:
    import numpy as np

    from fuzzeval.cli.common import strict_json_value

    data = {"a": [float("inf"), -float("inf"), float("nan"), 1.5, np.float64("-inf")],
            float("nan"): (np.array([np.inf, 2.0]), 3)}
    assert strict_json_value(data) == {"a": ["inf", "-inf", "nan", 1.5, "-inf"],
                                       "nan": [["inf", 2.0], 3]}
