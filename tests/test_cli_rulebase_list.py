"""``fuzzeval rulebase list``: every shipped rule base, with what it reads and holds."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from fuzzeval.cli import app

ROOT = Path(__file__).resolve().parent.parent


def test_lists_every_shipped_rulebase() -> None:
    result = CliRunner().invoke(app, ["rulebase", "list"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    for path in (ROOT / "rulebases").glob("*.yaml"):
        assert path.stem in result.output
    # tipping.yaml, counted by hand: inputs quality and service, four rules.
    row = next(line for line in result.output.splitlines() if " tipping " in f" {line} ")
    assert row.split()[1:3] == ["2", "4"]
    assert max(len(line) for line in result.output.splitlines()) <= 80
