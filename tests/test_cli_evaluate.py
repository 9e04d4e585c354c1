"""``fuzzeval evaluate --explain``: its table pinned line by line (values worked by hand
from rulebases/tipping.yaml)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from tests.cli_tables import cells

runner = CliRunner()
ENV = {"COLUMNS": "80"}


@pytest.mark.pinned
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


def bar(filled: int) -> str:
    """A 20-character bar with ``filled`` blocks (evaluate --explain's bars)."""
    return "█" * filled + "·" * (20 - filled)


@pytest.mark.mutation_pin
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


@pytest.mark.mutation_pin
def test_explain_shows_a_clipped_input_and_its_value_used(small: Path) -> None:
    # b = 9 is past the range [0, 4]: graded as 4, so l = 1 and s = 0.
    res = runner.invoke(app, ["evaluate", str(small), "-i", "a=7", "-i", "b=9", "--explain"],
                        env=ENV)
    assert res.exit_code == 0, res.output
    rows = [cells(line) for line in res.stdout.splitlines() if line.startswith("│")]
    assert rows[2:4] == [["b", "9 → 4 (clipped)", "s", "0.0000", bar(0)],
                         ["", "", "l", "1.0000", bar(20)]]


@pytest.mark.mutation_pin
def test_json_without_explain_is_the_grade_and_whether_a_rule_fired(small: Path) -> None:
    res = runner.invoke(app, ["evaluate", str(small), "-i", "a=7", "-i", "b=1", "--json"],
                        env=ENV)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == {"grade": pytest.approx(0.625, abs=1e-12), "fired": True}
    assert set(json.loads(res.stdout)) == {"grade", "fired"}


@pytest.mark.mutation_pin
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


@pytest.mark.mutation_pin
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


@pytest.mark.mutation_pin
def test_a_rule_base_warning_is_printed_as_written(tmp_path: Path) -> None:
    """Square brackets in a file name are not console markup."""
    path = tmp_path / "b[bold]x.yaml"
    path.write_text(SMALL)
    res = runner.invoke(app, ["evaluate", str(path), "-i", "a=7", "-i", "b=1"], env=ENV)
    assert res.exit_code == 0, res.output
    assert res.stdout == "0.625\n"
    assert res.stderr == f"{path}:7: warning: inputs.b.terms.s: no rule uses this term\n"


@pytest.mark.parametrize(("row", "said"), [("7", "1 field"), ("7,1,2", "3 fields")])
def test_a_csv_row_of_another_length_than_its_header_is_refused_naming_it(
        small: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, row: str,
        said: str) -> None:
    """Line 3 of the table has one field, or three, under a header of two: one line naming
    the file, the line and both counts, in the singular for one."""
    monkeypatch.chdir(tmp_path)
    Path("in.csv").write_text(f"a,b\n1,1\n{row}\n")
    res = runner.invoke(app, ["evaluate", str(small), "--csv", "in.csv"], env=ENV)
    assert res.exit_code == 2
    assert res.stderr.splitlines()[-1] == (  # after the fixture base's unused-term warning
        f"error: in.csv:3: {said}, but the header (line 1) has 2; every row needs exactly "
        "one value per column")
