"""The command line: exit codes, one-line errors, tables and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_evaluate_worked_example_json() -> None:
    code, out, _ = run(
        "evaluate", "fuzzeval_example", "-i", "SinglePieces=3", "-i", "OpponentOnBar=2",
        "-i", "SinglePiecesInHome=2", "--explain", "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["grade"] == pytest.approx(763 / 8207)
    assert [round(r["strength"], 3) for r in data["rules"]] == [
        0.077, 0.25, 0.333, 0.071, 0.2, 0.5, 0.071
    ]
    assert data["memberships"]["SinglePiecesInHome"] == pytest.approx({"Few": 0.5, "Many": 0.2})


def test_evaluate_without_explain_grades_without_building_an_explanation(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The worked example's grade (763/8207) and whether a rule fired, with the rule texts
    never made: an explanation of 100,000 rules takes a second."""
    from fuzzeval.engine.evaluator import Evaluator

    def refuse(self: Evaluator, x: object) -> None:
        raise AssertionError("explain() called without --explain")
    monkeypatch.setattr(Evaluator, "explain", refuse)
    args = ["evaluate", "fuzzeval_example", "-i", "SinglePieces=3", "-i", "OpponentOnBar=2",
            "-i", "SinglePiecesInHome=2"]
    code, out, _ = run(*args, "--json")
    assert code == 0 and json.loads(out) == {"grade": pytest.approx(763 / 8207), "fired": True}
    code, out, _ = run(*args)
    assert code == 0 and out == f"{763 / 8207:.6g}\n"
    # no rule fires: the default, and "fired": false
    base = tmp_path / "high.yaml"
    base.write_text("name: high\ndefuzzifier: centroid\ndefault: 7\ninputs:\n  x:\n"
                    "    range: [0, 10]\n    terms: {low: [0, 0, 5], high: [5, 10, 10]}\n"
                    "output:\n  name: y\n  range: [0, 10]\n  terms: {big: [5, 10, 10]}\n"
                    "rules:\n  - if x is high then y is big\n")
    code, out, _ = run("evaluate", str(base), "-i", "x=2", "--json")
    assert code == 0 and json.loads(out) == {"grade": 7.0, "fired": False}
    code, out, _ = run("evaluate", str(base), "-i", "x=7.5", "--json")
    assert code == 0 and json.loads(out)["fired"] is True


def test_evaluate_explain_table_names_rules_and_clipping() -> None:
    code, out, _ = run("evaluate", str(ROOT / "rulebases" / "tipping.yaml"),
                       "-i", "quality=12", "-i", "service=9.8", "--explain")
    assert code == 0
    assert "clipped" in out and "tip =" in out and "service is good" in out


def test_evaluate_bad_input_is_one_line_error() -> None:
    code, _, err = run("evaluate", "tipping", "-i", "quality=lots", "-i", "service=3")
    assert code == 2  # a bad value on the command line: a usage error (docs/cli.md)
    assert err.strip() == "error: --input 'quality=lots': 'lots' is not a number"
    code, _, err = run("evaluate", "tipping", "-i", "quality=3")
    assert code == 2 and "missing service" in err and "Traceback" not in err
    assert len(err.splitlines()) == 1 and err.startswith("error: --input")


def test_evaluate_unknown_rulebase() -> None:
    code, _, err = run("evaluate", "no_such_base", "-i", "x=1")
    assert code == 2 and "no shipped rule base 'no_such_base'" in err and "tipping" in err


def test_evaluate_csv(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("service,quality,id\n9.8,6.5,a\n0,0,b\n")
    out = tmp_path / "out.csv"
    code, _, _ = run("evaluate", "tipping", "--csv", str(src), "-o", str(out))
    assert code == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "service,quality,id,tip" and len(lines) == 3
    single = json.loads(run("evaluate", "tipping", "-i", "quality=6.5", "-i", "service=9.8",
                            "--json")[1])
    assert float(lines[1].split(",")[3]) == pytest.approx(single["grade"])
    src.write_text("service\n1\n")
    code, _, err = run("evaluate", "tipping", "--csv", str(src))
    assert code == 2 and "missing column(s) quality" in err


def test_rulebase_check_reports_every_problem_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: bad\ndefuzzifier: centroid\ndefault: 0\n"
        "inputs:\n  x: {range: [0, 1], terms: {lo: [0, 2, 1]}}\n"
        "output: {name: y, range: [0, 1], terms: {a: [0, 0, 1]}}\n"
        "rules:\n  - if x is hi then y is a\n  - if x is lo then y\n"
    )
    code, out, err = run("rulebase", "check", str(bad), "tipping")
    assert code == 1
    assert f"{bad}:5: inputs.x.terms.lo: points must satisfy left <= peak <= right" in err
    assert f"{bad}:8: rules[0]: unknown term 'hi'" not in err  # 'x' is broken: not re-reported
    assert f"{bad}:9: rules[1]: rule syntax" in err
    assert "Traceback" not in err and "ok (2 inputs" in out


def test_rulebase_check_ok_exit_zero_with_warnings() -> None:
    code, out, err = run("rulebase", "check", str(ROOT / "tests" / "data" / "spec_tipping.yaml"))
    assert code == 0 and "2 warning(s)" in out
    assert ":14: warning: inputs.quality.terms.average: no rule uses this term" in err


def test_rulebase_show_tables_and_json() -> None:
    code, out, _ = run("rulebase", "show", "tipping")
    assert code == 0 and "input quality" in out and "peak" in out
    code, out, _ = run("rulebase", "show", "tipping", "--json")
    assert json.loads(out)["output"]["name"] == "tip"


def test_rulebase_schema_is_json() -> None:
    code, out, _ = run("rulebase", "schema")
    assert code == 0 and json.loads(out)["type"] == "object"


def test_plot_membership_writes_png(tmp_path: Path) -> None:
    target = tmp_path / "m.png"
    code, _, _ = run("plot", "membership", "fuzzeval_example", "-o", str(target))
    assert code == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and target.stat().st_size > 10_000
    svg = tmp_path / "m.svg"
    assert run("plot", "membership", "tipping", "-o", str(svg))[0] == 0
    assert svg.read_text().lstrip().startswith("<?xml")


@pytest.mark.mutation_pin
def test_command_entry_points_are_the_game_groups_by_name() -> None:
    from fuzzeval.play.registry import COMMANDS_GROUP, command_entry_points

    got = command_entry_points()
    names = [ep.name for ep in got]
    assert {"backgammon", "cribbage", "hearts"} <= set(names)
    assert names == sorted(names) and all(ep.group == COMMANDS_GROUP for ep in got)


@pytest.mark.mutation_pin
def test_strict_json_spells_each_non_finite_float_as_float_reads_it() -> None:
    import numpy as np

    from fuzzeval.cli.common import strict_json_value

    data = {"a": [float("inf"), -float("inf"), float("nan"), 1.5, np.float64("-inf")],
            float("nan"): (np.array([np.inf, 2.0]), 3)}
    assert strict_json_value(data) == {"a": ["inf", "-inf", "nan", 1.5, "-inf"],
                                       "nan": [["inf", 2.0], 3]}
