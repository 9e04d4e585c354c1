"""``fuzzeval plot``: a shipped rule base by name."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

runner = CliRunner()
ENV = {"COLUMNS": "80"}


@pytest.mark.mutation_pin
def test_plot_membership_of_a_shipped_name(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short name: the line fits 80 columns
    picture = Path("tipping.png")
    res = runner.invoke(app, ["plot", "membership", "tipping", "-o", str(picture)], env=ENV)
    assert res.exit_code == 0, res.output
    assert res.stdout == f"wrote {picture}\n"
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
