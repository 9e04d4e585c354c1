"""``fuzzeval evaluate --explain``: its table pinned line by line (values worked by hand
from rulebases/tipping.yaml)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

runner = CliRunner()

pytestmark = pytest.mark.pinned


def test_explain_shows_each_output_term_s_activation() -> None:
    """quality 6.5, service 9.8: average 0.7 and good 0.3; service average 0.04, good
    0.96. Rule 2 (or) 0.7 to medium; rule 3 (good and not poor) 0.96 and rule 4 (good,
    weight 0.5) 0.15 to high, which takes the larger."""
    done = runner.invoke(app, ["evaluate", "tipping", "--explain", "-i", "quality=6.5",
                               "-i", "service=9.8"])
    assert done.exit_code == 0, done.output
    out = done.output.splitlines()
    assert out[0] == "rule base tipping: written by hand"
    at = out.index("output tip                                           ")
    assert out[at + 2:at + 8] == [
        "┃ term   ┃ peak ┃ activation ┃                      ┃",
        "┡━━━━━━━━╇━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━┩",
        "│ low    │    0 │     0.0000 │ ···················· │",
        "│ medium │   13 │     0.7000 │ ██████████████······ │",
        "│ high   │   25 │     0.9600 │ ███████████████████· │",
        "└────────┴──────┴────────────┴──────────────────────┘"]
    assert "│ quality │   6.5 │ poor    │     0.0000 │" in done.output
    assert "│         │       │ average │     0.7000 │" in done.output
