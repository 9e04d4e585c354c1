"""``--explain`` of a large (learned) rule base: the fired rules that move the grade most,
the rest summed in one line, the memberships those rules read, a weighted sum's output
terms that move it most and the rest in one row. Every value is worked by hand from the
bases written here, or, for the shipped ``backgammon_td``, from its rule strengths and
conclusions with numpy."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval import compile_rulebase, load_rulebase
from fuzzeval.cli import app
from fuzzeval.cli.evaluate import print_explanation
from fuzzeval.formats.loading import load_rulebase_text
from tests.cli_tables import cells

runner = CliRunner()
ENV = {"COLUMNS": "80"}

# a = 7: lo 0.3, hi 0.7; b = 1: s 0.75, l 0.25; c = 0: z 1, m 0, t 0. Strengths (weight
# applied) and what each adds to the weighted sum (strength x value):
#   1  min(0.7, 0.25) = 0.25   x 10 = +2.5
#   2  0.3                     x -8 = -2.4
#   3  min(0.7, 1) = 0.7       x 4  = +2.8
#   4  0.75 x weight 0.5 = 0.375 x 2 = +0.75
#   5  c is m: 0 (does not fire)
#   6  min(0.7, 0.75) = 0.7    x 1  = +0.7
#   7  c is t: 0 (does not fire)
# The grade 2.5 - 2.4 + 2.8 + 0.75 + 0.7 = 4.35; the three that move it most are 3, 1
# and 2, the two more (4 and 6) add 1.45 together, and 2 rules did not fire.
SUM = """\
name: summed
made_by: written by hand
defuzzifier: weighted_sum
default: 0
inputs:
  a: {range: [0, 10], terms: {lo: [0, 0, 10], hi: [0, 10, 10]}}
  b: {range: [0, 4], terms: {s: [0, 0, 4], l: [0, 4, 4]}}
  c: {range: [0, 2], terms: {z: [0, 0, 1], m: [0, 1, 2], t: [1, 2, 2]}}
output: {name: y, range: [-10, 10], terms: {p10: 10, n8: -8, p4: 4, p2: 2, p1: 1}}
rules:
  - if a is hi and b is l then y is p10
  - if a is lo then y is n8
  - if a is hi and c is z then y is p4
  - rule: if b is s then y is p2
    weight: 0.5
  - if c is m then y is p10
  - if a is hi and b is s then y is p1
  - if c is t then y is n8
"""
INPUTS = {"a": 7.0, "b": 1.0, "c": 0.0}


def bar(filled: int) -> str:
    return "█" * filled + "·" * (20 - filled)


def _explained(text: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What print_explanation prints for INPUTS, summarised past 4 rules, 3 rules shown."""
    ev = compile_rulebase(load_rulebase_text(text))
    capsys.readouterr()
    print_explanation(ev, ev.explain(INPUTS), full_up_to=4, top=3)
    return capsys.readouterr().out.splitlines()


def _rows(lines: list[str]) -> list[list[str]]:
    return [cells(line) for line in lines if line.startswith(("┃", "│"))]


def _words(lines: list[str]) -> list[str]:
    """The lines that are no table's (titles, the rest lines, the grade)."""
    return [line.rstrip() for line in lines if line and line[0].isalnum()]


def test_a_weighted_sum_shows_what_moves_the_grade_and_sums_the_rest(
        capsys: pytest.CaptureFixture[str]) -> None:
    lines = _explained(SUM, capsys)
    assert _words(lines) == [
        "memberships above 0 that the rules shown read",
        "1 more term above 0, read by no rule shown",  # b is s, 0.75: rules 4 and 6
        "rules: the 3 of 7 that move the grade most",
        "2 more fired, adding +1.4500 together; 2 did not fire",
        "output y: the 3 terms that move it most",
        "y = 4.35 (weighted sum)"]
    assert _rows(lines) == [
        ["input", "value", "term", "membership", ""],
        ["a", "7", "lo", "0.3000", bar(6)],
        ["", "", "hi", "0.7000", bar(14)],
        ["b", "1", "l", "0.2500", bar(5)],
        ["c", "0", "z", "1.0000", bar(20)],
        ["#", "rule", "strength", "adds"],
        ["3", "if a is hi and c is z then y is p4", "0.7000", "+2.8000"],
        ["1", "if a is hi and b is l then y is p10", "0.2500", "+2.5000"],
        ["2", "if a is lo then y is n8", "0.3000", "-2.4000"],
        ["term", "value", "strengths", "adds"],
        ["p4", "4", "0.7000", "+2.8000"],
        ["p10", "10", "0.2500", "+2.5000"],  # rule 5 concludes p10 too, at 0
        ["n8", "-8", "0.3000", "-2.4000"],
        ["2 more terms", "", "1.0750", "+1.4500"]]  # p2 0.375 (+0.75), p1 0.7 (+0.7)


def test_a_weighted_sum_printed_whole_lists_only_the_terms_its_rules_reach(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Printed whole (7 rules), at a = 10, b = 4, c = 2: a is hi 1, b is l 1, c is t 1 and
    every other membership 0, so rule 1 concludes p10 at 1 and rule 7 n8 at 1; p4, p2 and
    p1 reach 0 and are left out of the output table. The grade: 10 - 8 = 2."""
    ev = compile_rulebase(load_rulebase_text(SUM))
    capsys.readouterr()
    print_explanation(ev, ev.explain({"a": 10.0, "b": 4.0, "c": 2.0}))
    rows = _rows(capsys.readouterr().out.splitlines())
    head = rows.index(["term", "value", "strengths", "adds"])
    assert rows[head + 1:] == [["p10", "10", "1.0000", "+10.0000"],
                               ["n8", "-8", "1.0000", "-8.0000"]]
    assert ev.explain({"a": 10.0, "b": 4.0, "c": 2.0}).grade == 2.0


def test_a_weighted_average_s_rules_add_their_share_of_the_total_strength(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The strengths sum to 2.325, so each rule adds strength x value / 2.325: rule 3
    2.8 / 2.325 = 1.2043, rule 1 1.0753, rule 2 -1.0323, the two more 1.45 / 2.325 =
    0.6237; the grade 4.35 / 2.325 = 1.87097. The output keeps its activation table."""
    lines = _explained(SUM.replace("weighted_sum", "weighted_average"), capsys)
    rows = _rows(lines)
    at = rows.index(["#", "rule", "strength", "adds"])
    assert [[r[0], r[-1]] for r in rows[at + 1:at + 4]] == [
        ["3", "+1.2043"], ["1", "+1.0753"], ["2", "-1.0323"]]
    assert "2 more fired, adding +0.6237 together; 2 did not fire" in _words(lines)
    assert rows[at + 4:] == [["term", "peak", "activation", ""],
                             ["p10", "10", "0.2500", bar(5)], ["n8", "-8", "0.3000", bar(6)],
                             ["p4", "4", "0.7000", bar(14)], ["p2", "2", "0.3750", bar(8)],
                             ["p1", "1", "0.7000", bar(14)]]
    assert _words(lines)[-1] == "y = 1.87097 (weighted average)"


def test_a_centroid_base_shows_its_strongest_rules(
        capsys: pytest.CaptureFixture[str]) -> None:
    """No sum to split: the strongest first (rules 3 and 6 at 0.7, in rule order, then 4
    at 0.375), the rest counted; the memberships are those three rules' terms."""
    centroid = SUM.replace("weighted_sum", "centroid").replace(
        "{p10: 10, n8: -8, p4: 4, p2: 2, p1: 1}",
        "{p10: [5, 10, 10], n8: [-10, -8, -4], p4: [0, 4, 8], p2: [0, 2, 4], "
        "p1: [0, 1, 2]}")
    lines = _explained(centroid, capsys)
    rows = _rows(lines)
    assert rows[:4] == [["input", "value", "term", "membership", ""],
                        ["a", "7", "hi", "0.7000", bar(14)],
                        ["b", "1", "s", "0.7500", bar(15)],
                        ["c", "0", "z", "1.0000", bar(20)]]
    assert rows[4:8] == [["#", "rule", "strength", ""],
                         ["3", "if a is hi and c is z then y is p4", "0.7000", bar(14)],
                         ["6", "if a is hi and b is s then y is p1", "0.7000", bar(14)],
                         ["4", "if b is s then y is p2", "0.3750", bar(8)]]
    assert _words(lines)[:4] == ["memberships above 0 that the rules shown read",
                                 "2 more terms above 0, read by no rule shown",
                                 "rules: the 3 of 7 that fire the strongest",
                                 "2 more fired; 2 did not fire"]


def _ladder(n: int) -> str:
    """n rules: rule 1 ``a is lo`` concludes v1 (1), rule k ``a is hi`` concludes vk (k)."""
    terms = ", ".join(f"v{k}: {k}" for k in range(1, n + 1))
    rules = "\n".join(f"  - if a is {'lo' if k == 1 else 'hi'} then y is v{k}"
                      for k in range(1, n + 1))
    return f"""\
name: ladder
made_by: written by hand
defuzzifier: weighted_sum
default: 0
inputs:
  a: {{range: [0, 10], terms: {{lo: [0, 0, 10], hi: [0, 10, 10]}}}}
output: {{name: y, range: [0, {n}], terms: {{{terms}}}}}
rules:
{rules}
"""


def test_evaluate_summarises_a_base_of_more_than_40_rules(tmp_path: Path) -> None:
    """a = 10: hi 1, lo 0. 40 rules print whole. 41: rules 2-41 fire at 1 and add 2 to 41
    (860); the 20 shown are 41 down to 22, the 20 more (2 to 21) add 230 together, rule 1
    did not fire."""
    path = tmp_path / "ladder.yaml"
    path.write_text(_ladder(40))
    whole = runner.invoke(app, ["evaluate", str(path), "-i", "a=10", "--explain"], env=ENV)
    assert whole.exit_code == 0, whole.output
    assert "rules" in _words(whole.stdout.splitlines())
    assert [r[0] for r in _rows(whole.stdout.splitlines()) if r[1].startswith("if ")] == [
        str(k) for k in range(1, 41)]
    path.write_text(_ladder(41))
    done = runner.invoke(app, ["evaluate", str(path), "-i", "a=10", "--explain"], env=ENV)
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert _words(lines) == [
        "rule base ladder: written by hand", "memberships above 0 that the rules shown read",
        "rules: the 20 of 41 that move the grade most",
        "20 more fired, adding +230.0000 together; 1 did not fire",
        "output y: the 20 terms that move it most", "y = 860 (weighted sum)"]
    rows = _rows(lines)
    assert rows[1] == ["a", "10", "hi", "1.0000", bar(20)]
    assert [r[0] for r in rows if r[1].startswith("if ")] == [str(k) for k in range(41, 21, -1)]
    assert rows[-1] == ["20 more terms", "", "20.0000", "+230.0000"]
    every = runner.invoke(app, ["evaluate", str(path), "-i", "a=10", "--explain", "--json"])
    assert len(json.loads(every.stdout)["rules"]) == 41  # every rule, as data


def test_backgammon_td_explains_its_play_in_a_screenful() -> None:
    """The shipped learned base (4,391 rules) printed 19,686 lines; now the rules that move
    the best play's grade most. The top rule and the rest line are worked with numpy from
    the evaluator's strengths and the conclusions' values."""
    args = ["backgammon", "moves", "4HPwATDgc/ABMA", "--dice", "31", "-p", "fuzzy",
            "--explain"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    rb = load_rulebase("backgammon_td")
    ev = compile_rulebase(rb)
    used = data["explanation"]["used"]
    strengths = ev.strengths([[used[n] for n in ev.input_names]])[0]
    peak = {t.name: t.triangle.peak for t in rb.output.terms}
    adds = strengths * np.array([peak[r.output_term] for r in rb.rules])
    assert adds.sum() == pytest.approx(data["explanation"]["grade"], abs=1e-12)
    order = np.argsort(-np.abs(adds), kind="stable")
    fired = int((strengths > 0).sum())
    top = int(order[0])

    done = runner.invoke(app, args, env=ENV)
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert len(lines) < 150
    words = _words(lines)
    assert f"rules: the 20 of {len(rb.rules)} that move the grade most" in words
    assert (f"{fired - 20} more fired, adding {adds[order[20:fired]].sum():+.4f} together; "
            f"{len(rb.rules) - fired} did not fire") in words
    rows = _rows(lines)
    first = rows.index(["#", "rule", "strength", "adds"]) + 1
    number, text, strength, add = rows[first]
    for more in rows[first + 1:]:  # the rule's text wraps at 80 columns
        if more[0]:
            break
        text += " " + more[1]
    assert (number, text, strength, add) == (str(top + 1), rb.rule_texts()[top],
                                             f"{strengths[top]:.4f}", f"{adds[top]:+.4f}")
