"""``fuzzeval openspiel``: what it prints, pinned."""

from __future__ import annotations

import io

import pytest
from typer.testing import CliRunner

runner = CliRunner()

pytestmark = pytest.mark.pinned


def test_an_openspiel_series_table_right_aligns_its_numbers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`fuzzeval openspiel`'s table (values worked by hand): numbers right-aligned in
    their columns, so that 5.0 % and 55.0 % line up by their last digit."""
    from rich.console import Console

    from fuzzeval.cli import openspiel as cli
    from fuzzeval.interop.openspiel import SeatResult, Series

    console = Console(width=80, record=True, file=io.StringIO())
    monkeypatch.setattr(cli, "console", console)
    rows = (SeatResult(0, "fuzzy", 20, 0.5, -0.1, 1.1, 0.55, 0.34, 0.74),
            SeatResult(1, "fuzzy", 20, -12.25, -20.0, -4.5, 0.05, 0.01, 0.24),
            SeatResult(None, "fuzzy", 40, 150.0, 120.0, 180.0, 1.0, 0.91, 1.0))
    cli._print(Series("cribbage", "fuzzy", "random", 40, 3, 812, rows))
    out = console.export_text().splitlines()
    body = [line.rstrip() for line in out if line.lstrip().startswith(("0 ", "1 ", "all "))]
    assert body == [
        " 0      fuzzy       20   0.500 [-0.100, 1.100]     55.0% [34, 74]",
        " 1      fuzzy       20   -12.2 [-20.0, -4.500]       5.0% [1, 24]",
        " all    fuzzy       40          150 [120, 180]   100.0% [91, 100]"]
    assert out[-1] == "812 decisions, every action legal in OpenSpiel"
