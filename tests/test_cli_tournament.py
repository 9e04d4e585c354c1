"""``fuzzeval tournament``: what it prints, pinned."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from fuzzeval.cli import app
from tests.cli_tables import matrix_cells, title

runner = CliRunner()
ENV = {"COLUMNS": "80"}


@pytest.mark.pinned
def test_a_two_seat_tournament_with_winners_measures_win_rates(tmp_path: Path) -> None:
    done = runner.invoke(app, ["tournament", "cribbage", "-p", "random", "-p", "greedy",
                               "--games", "2", "-w", "1", "--db", str(tmp_path / "t.sqlite"),
                               "--plot", str(tmp_path / "t.png")])
    assert done.exit_code == 0, done.output
    assert "the row player's win rate against each column's" in " ".join(done.output.split())


def _render(table: Any, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width).print(table)
    return [line.rstrip() for line in out.getvalue().splitlines()]


@pytest.mark.mutation_pin
def test_tournament_matrix_rows_and_overall(monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.cli import tournament as T

    monkeypatch.setattr(T, "console", Console(width=80))
    lines = _render(T._table("toy", 4, 7, ["a", "b", "c"], matrix_cells(3)), 80)
    assert title(lines) == ("toy round robin, 4 games a pairing, seed 7: the row player's "
                             "win rate against each column's, over its 95% interval")
    # overall: the mean of a row's cells, (60 + 60) / 2, (40 + 60) / 2, (40 + 40) / 2
    assert [line.split() for line in lines[lines.index("") + 1:]] == [
        ["player", "1", "2", "3", "overall"], ["─" * 44],
        ["1", "a", "—", "60.0%", "60.0%", "60.0%"], ["34–100", "34–100"],
        ["2", "b", "40.0%", "—", "60.0%", "50.0%"], ["0–66", "34–100"],
        ["3", "c", "40.0%", "40.0%", "—", "40.0%"], ["0–66", "0–66"], []]


@pytest.mark.mutation_pin
def test_tournament_pairings_one_a_row_when_the_matrix_is_too_wide(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.cli import tournament as T

    monkeypatch.setattr(T, "console", Console(width=80))
    names = [f"p{k}" for k in range(7)]  # 20 + 8 x 8 = 84 columns: too wide for 80
    lines = _render(T._table("toy", 4, 7, names, matrix_cells(7)), 80)
    assert title(lines) == ("toy round robin, 4 games a pairing, seed 7: each pairing's "
                             "win rate with its 95% interval")
    top = lines.index("") + 1
    assert lines[top].split() == ["player", "opponent", "win", "rate", "95%", "interval"]
    rows = [line.split() for line in lines[top + 2:] if line.strip()]
    # every pair once, from the earlier player's side: 60 %, 34-100 %
    assert rows == [[f"p{i}", f"p{j}", "60.0%", "34–100%"] for i in range(7)
                    for j in range(i + 1, 7)]


@pytest.mark.mutation_pin
def test_tournament_overall_column_never_wraps_on_a_wide_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 160 columns 16 players still get the matrix: the names are squeezed (to three
    columns), never the overall rates."""
    from fuzzeval.cli import tournament as T

    monkeypatch.setattr(T, "console", Console(width=160))
    lines = _render(T._table("toy", 4, 7, [f"player{k}" for k in range(16)], matrix_cells(16)), 160)
    head = next(line for line in lines if " 16 " in line)
    assert head.split()[-17:] == [*map(str, range(1, 17)), "overall"]
    rows = [line.split() for line in lines if "—" in line]
    # player i: 15 - i wins at 60 % and i losses at 40 %, over 15 opponents
    assert [r[-1] for r in rows] == [f"{(60 - 20 * i / 15) / 100:.1%}" for i in range(16)]


@pytest.mark.mutation_pin
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


@pytest.mark.mutation_pin
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
