"""``fuzzeval rulebase show``: its table pinned line by line (values worked by hand from
rulebases/tipping.yaml)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

runner = CliRunner()

pytestmark = pytest.mark.pinned


def test_rulebase_show_lists_each_term_under_its_variable() -> None:
    """tipping.yaml: quality's terms poor (0, 0, 5), average (0, 5, 10; its peak
    adjustable) and good (5, 10, 10); the title left-aligned over the table."""
    out = runner.invoke(app, ["rulebase", "show", "tipping"]).output.splitlines()
    at = out.index("input quality [0, 10] — Food quality, 0   ")
    assert out[at:at + 9] == [
        "input quality [0, 10] — Food quality, 0   ",
        "(inedible) to 10 (excellent).             ",
        "┏━━━━━━━━━┳━━━━━━┳━━━━━━┳━━━━━━━┳━━━━━━━━┓",
        "┃ term    ┃ left ┃ peak ┃ right ┃ adjust ┃",
        "┡━━━━━━━━━╇━━━━━━╇━━━━━━╇━━━━━━━╇━━━━━━━━┩",
        "│ poor    │    0 │    0 │     5 │        │",
        "│ average │    0 │    5 │    10 │ peak   │",
        "│ good    │    5 │   10 │    10 │        │",
        "└─────────┴──────┴──────┴───────┴────────┘"]
    head = next(line for line in out if line.startswith("┃ # ┃ rule"))
    assert head.endswith("┃ weight ┃")
    assert "│ 4 │ if quality is good then tip is high" in "\n".join(out)
    assert next(line for line in out if line.startswith("│ 4 │")).endswith("│    0.5 │")
