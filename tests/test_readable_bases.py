"""Shipped rule bases say what they are: a term named by a number has that value, a comment
beside or about a conclusion states its value (or its bounds), every base says where it came
from (``made_by:``), and the advice headers print it.

The check is strict: it fails on the tuned base shipped before output terms declared bounds
("six" was 19.9999, the comment "(-1.5 points)" stood beside five_to_them = -5.9773).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.engine.rulebase import RuleBase, Term
from fuzzeval.formats.loading import load_rulebase, parse_rulebase
from fuzzeval.formats.yaml_edit import NUMBER_WORDS, numbers_in

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "rulebases").glob("*.yaml"))
OLD_TUNED = ROOT / "tests" / "data" / "cribbage_linguistic_tuned_before_issue_25.yaml"
TUNED_BY = ("tuned by `fuzzeval tune cribbage --rulebase cribbage_linguistic "
            "--training-deals 3000 "
            "--budget 8000 --seed 1` (CMA-ES, 7,580 evaluations)")
runner = CliRunner()


def _named_value(name: str) -> float | None:
    """The number a term's whole name states ("six", "12"), if it states one."""
    if name.isdigit():
        return float(name)
    value = NUMBER_WORDS.get(name.lower())
    return None if name.lower() == "half" else value


def _allowed(term: Term) -> set[float]:
    """What a comment about the term may state: its points and its bounds."""
    return {*term.triangle.points, *(term.bounds or ())}


def _term_lines(text: str, rb: RuleBase) -> dict[int, Term]:
    """Line number -> the term defined on it (a line ``  name: ...`` under terms)."""
    terms = {t.name: t for v in (*rb.inputs, rb.output) for t in v.terms}
    out: dict[int, Term] = {}
    for i, line in enumerate(text.splitlines()):
        m = re.match(r"\s+\"?([A-Za-z_]\w*)\"?:\s*[-\d\[{]", line)
        if m and m.group(1) in terms:
            out[i] = terms[m.group(1)]
    return out


def untrue_statements(text: str) -> list[str]:
    """Every name or comment of a rule base that states a number its values do not have."""
    rb, problems = parse_rulebase(text)
    assert rb is not None, problems
    found: list[str] = []
    for var in (*rb.inputs, rb.output):
        for term in var.terms:
            said = _named_value(term.name)
            if said is not None and term.triangle.peak != said:
                found.append(f"{var.name}.{term.name} is {term.triangle.peak:g}")
    by_line = _term_lines(text, rb)
    conclusions = {t.name: t for t in rb.output.terms}
    for i, line in enumerate(text.splitlines()):
        hit = re.search(r"(?:^|\s)#(.*)$", line)
        if hit is None:
            continue
        comment = hit.group(1)
        term = by_line.get(i)
        if term is not None:  # beside a term: every number it states is the term's
            wrong = [x for x in numbers_in(comment) if x not in _allowed(term)]
            if wrong:
                found.append(f"line {i + 1}: {term.name} beside {comment.strip()!r}")
        for name, t in conclusions.items():  # about a conclusion named in it: its points
            quoted = re.search(rf"[`\"']{name}[`\"']", comment)
            if "_" not in name and not quoted:
                continue  # a plain word (flush, two) is English as often as a name
            if not re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", comment):
                continue
            points = re.findall(r"([-+−]?\d+(?:\.\d+)?)\s*points?\b", comment)
            wrong = [p for p in points if float(p.replace("−", "-")) not in _allowed(t)]
            if wrong:
                found.append(f"line {i + 1}: {name} is {t.triangle.peak:g}, not {wrong}")
    return found


def test_the_check_fails_on_the_tuned_base_shipped_before() -> None:
    found = untrue_statements(OLD_TUNED.read_text())
    assert "worth.six is 19.9999" in found and "worth.eight is 19.9584" in found
    assert "worth.twenty is 19.9747" in found and "worth.four is 7.0133" in found
    assert "line 23: five_to_them is -5.9773, not ['-1.5']" in found
    assert any(f.startswith("line 137: flush beside") for f in found), found


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_base_states_only_numbers_it_has(path: Path) -> None:
    assert untrue_statements(path.read_text()) == []


def test_the_check_catches_each_kind_of_untrue_statement() -> None:
    draft = (ROOT / "rulebases" / "cribbage_linguistic.yaml").read_text()
    assert untrue_statements(draft) == []
    cases = {
        "    six: 6\n": ("    six: 6.5\n", "worth.six is 6.5"),
        "      four: {points: [2, 4, 7]": ("      four: {points: [2, 4.5, 7]",
                                           "kept_points.four is 4.5"),
        "    nobs: {points: 1, bounds: [0, 1]}\n": (
            "    nobs: {points: 1, bounds: [0, 1]}   # two points\n", "nobs beside"),
        "# conclusion (\"worth is five_to_them\": what": (
            "# conclusion (\"worth is five_to_them\", -2 points: what", "five_to_them is -1.5"),
    }
    for old, (new, expected) in cases.items():
        assert old in draft
        found = untrue_statements(draft.replace(old, new, 1))
        assert len(found) == 1 and expected in found[0], (new, found)


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_base_says_where_it_came_from(path: Path) -> None:
    made_by = load_rulebase(path).made_by
    assert re.match(r"(written by hand|tuned by `fuzzeval tune |calibrated by `fuzzeval "
                    r"calibrate |taught by `python -m |learned by `fuzzeval learn )",
                    made_by), made_by
    # the command it names runs today, in today's spellings (no deprecated option)
    for command in re.findall(r"`(fuzzeval [^`]+)`", made_by):
        words = shlex.split(command)[1:]
        cmd: Any = typer.main.get_command(app)
        while hasattr(cmd, "list_commands"):
            cmd, words = cmd.get_command(cmd.context_class(cmd), words[0]), words[1:]
        with cmd.make_context("fuzzeval", list(words)):
            pass
        hidden = {o for p in cmd.params if getattr(p, "hidden", False) for o in p.opts}
        assert not hidden & set(words), (path.name, command)


def test_the_tuned_base_keeps_the_drafts_unit_and_each_conclusion_in_its_bounds() -> None:
    draft = load_rulebase(ROOT / "rulebases" / "cribbage_linguistic.yaml")
    tuned = load_rulebase(ROOT / "rulebases" / "cribbage_linguistic_tuned.yaml")
    assert tuned.name == "cribbage_linguistic_tuned" and tuned.made_by == TUNED_BY
    pinned = {t.name: t.triangle.peak for t in draft.output.terms if t.bounds is None}
    assert pinned == {"nothing": 0, "two": 2, "four": 4, "six": 6, "eight": 8, "twelve": 12,
                      "twenty": 20}
    assert {t.name: t.triangle.peak for t in tuned.output.terms if t.bounds is None} == pinned
    for t in tuned.output.terms:
        if t.bounds is not None:
            assert t.bounds == draft.output.term(t.name).bounds
            assert t.bounds[0] <= t.triangle.peak <= t.bounds[1], t
    # what scores in a crib helps its owner; wide and balk cards the other way round
    for thing in ("five", "two_fives", "pair", "fifteen", "touching", "near"):
        assert draft.output.term(f"{thing}_to_me").bounds == (0, 6)
        assert draft.output.term(f"{thing}_to_them").bounds == (-6, 0)
    for thing in ("wide", "balk"):
        assert draft.output.term(f"{thing}_to_me").bounds == (-6, 0)
        assert draft.output.term(f"{thing}_to_them").bounds == (0, 6)
    assert draft.output.term("nobs").bounds == (0, 1)
    assert draft.output.term("flush").bounds == (0, 5)


def test_the_calibrated_base_names_its_command_and_keeps_every_conclusion() -> None:
    draft = load_rulebase(ROOT / "rulebases" / "cribbage_linguistic.yaml")
    cal = load_rulebase(ROOT / "rulebases" / "cribbage_linguistic_calibrated.yaml")
    assert cal.made_by == ("calibrated by `fuzzeval calibrate cribbage --rulebase "
                           "cribbage_linguistic --opponent exhaustive --rounds 5 "
                           "--games-per-round 100 --rate 0.1 --seed 1` (eq. 1)")
    assert cal.output == draft.output and cal.rules == draft.rules


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_discard_advice_header_names_the_base_and_where_it_came_from() -> None:
    res = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C",
                              "--crib", "theirs", "-p", "fuzzy", "--explain"])
    assert res.exit_code == 0, res.output
    head = _flat(res.output).split(" discard keep grade")[0]
    assert head.endswith(f"keep 5H 5S JD QC rule base cribbage_linguistic_tuned: {TUNED_BY}")
    res = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C",
                              "--crib", "theirs", "-p", "fuzzy:rulebase=cribbage_linguistic"])
    assert "rule base cribbage_linguistic: written by hand (the expert's first draft)" \
        in _flat(res.output)


def test_evaluate_explain_names_the_base_and_where_it_came_from(tmp_path: Path) -> None:
    res = runner.invoke(app, ["evaluate", "tipping", "--input", "quality=6.5", "--input",
                              "service=9.8", "--explain"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0] == "rule base tipping: written by hand"
    bare = tmp_path / "bare.yaml"
    bare.write_text(re.sub(r"(?m)^made_by:.*\n", "", (ROOT / "rulebases" /
                                                       "tipping.yaml").read_text()))
    res = runner.invoke(app, ["evaluate", str(bare), "--input", "quality=6.5", "--input",
                              "service=9.8", "--explain"])
    assert res.output.splitlines()[0] == ("rule base tipping: where it came from is not "
                                          "stated (no made_by: in its file)")


BASE = """\
# A tip.
name: t
defuzzifier: weighted_average
default: 0
inputs:
  q:
    range: [0, 10]
    terms:
      low: {points: [0, 0, 5], adjust: [right]}   # where "low" ends
      high: {points: [0, 5, 10], adjust: [peak]}   # high peaks at 5
output:
  name: tip
  range: [0, 20]
  terms:
    none: 0
    ten: 10
    small: {points: 2, bounds: [0, 5]}   # 2 points
    big: {points: 15, bounds: [10, 20]}
rules:
  - if q is low then tip is small
  - if q is high then tip is big
  - if q is low then tip is none
  - if q is high then tip is ten
"""


def _errors(text: str) -> list[str]:
    rb, problems = parse_rulebase(text, "t.yaml")
    assert rb is None
    return [str(p) for p in problems if p.severity == "error"]


def test_bounds_and_made_by_are_read_and_checked() -> None:
    rb = parse_rulebase(BASE.replace("name: t\n", "name: t\nmade_by: written by hand\n"))[0]
    assert rb is not None and rb.made_by == "written by hand"
    assert rb.output.term("small").bounds == (0, 5) and rb.output.term("none").bounds is None
    assert rb.bounded_outputs() == ("small", "big")
    assert _errors(BASE.replace("bounds: [0, 5]", "bounds: [3, 5]")) == [
        "t.yaml:17: output.terms.small.bounds: must contain the term's value 2 (got [3, 5])"]
    assert _errors(BASE.replace("bounds: [10, 20]", "bounds: [10, 25]")) == [
        "t.yaml:18: output.terms.big.bounds: must be [low, high] with low <= high inside the "
        "output range [0, 20] (got [10, 25])"]
    assert _errors(BASE.replace("{points: [0, 0, 5], adjust: [right]}",
                                "{points: [0, 0, 5], bounds: [0, 5]}")) == [
        "t.yaml:9: inputs.q.terms.low.bounds: only single-valued output terms have bounds "
        "(the values the tuner may give them); input terms mark their movable points with "
        "'adjust:'"]
    assert _errors(BASE.replace("name: t\n", "name: t\nmade_by: |\n  a\n  b\n")) == [
        "t.yaml:3: made_by: must be one line of at most 1,000 characters, e.g. 'written by "
        "hand' or the command that made the file (got 4 characters, several lines)"]
    # a control character reached the terminal through every advice header
    assert _errors(BASE.replace("name: t\n", 'name: t\nmade_by: "x\\0y \\e[2J"\n')) == [
        "t.yaml:3: made_by: must be printable text (got character #x0000)"]


def test_rewriting_drops_only_the_comments_that_state_a_changed_number() -> None:
    from fuzzeval.formats.yaml_edit import rewrite_points

    text = BASE.replace("# A tip.\n", "# A tip.\n#\n# The high term peaks at 5,\n# the middle."
                        "\n#\n# Small tips are 2 points.\n")
    rb = parse_rulebase(text)[0]
    assert rb is not None
    ref = next(r for r in rb.adjustable_points() if r.term == "high")
    moved = rb.with_points({ref: 6.0, next(r for r in rb.adjustable_points()
                                          if r.term == "low"): 6.0})
    out = rewrite_points(text, moved)
    assert out.startswith("# A tip.\n#\n# Small tips are 2 points.\nname: t\n")
    assert '      low: {points: [0, 0, 6], adjust: [right]}   # where "low" ends\n' in out
    assert "      high: {points: [0, 6, 10], adjust: [peak]}\n" in out
    assert "    small: {points: 2, bounds: [0, 5]}   # 2 points\n" in out  # unchanged
    changed = moved.with_outputs({"small": 3.5})
    from dataclasses import replace

    out = rewrite_points(text, replace(changed, name="t_tuned", made_by="tuned by `x`"))
    assert "    small: {points: 3.5, bounds: [0, 5]}\n" in out
    assert "Small tips are 2 points" not in out
    assert "name: t_tuned\nmade_by: tuned by `x`\ndefuzzifier" in out
    back = parse_rulebase(out)[0]
    assert back is not None and back.made_by == "tuned by `x`" and back.name == "t_tuned"
    again = rewrite_points(out, replace(back, made_by="a: b # c"))  # quoted where needed
    assert "made_by: \"a: b # c\"\n" in again
    assert parse_rulebase(again)[0] == replace(back, made_by="a: b # c")
    assert "made_by" not in rewrite_points(out, replace(back, made_by=""))


def test_peg_and_backgammon_advice_name_the_base_and_where_it_came_from() -> None:
    res = runner.invoke(app, ["cribbage", "peg", "KC", "3D", "7S", "--count", "6C 5C 4D",
                              "--mine", "5C", "--starter", "KH", "--crib", "mine", "-p",
                              "exhaustive:pegging=fuzzy"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[1] == "rule base cribbage_pegging: written by hand"
    res = runner.invoke(app, ["backgammon", "moves", "4HPwATDgc/ABMA", "--dice", "31",
                              "--player", "fuzzy"])
    assert res.exit_code == 0, res.output
    assert _flat(res.output).startswith(
        "rule base backgammon_td: learned by `fuzzeval learn backgammon --games 200000 "
        "--block 1000 --average 20 --update 2 --lambda 0.75 --alpha 0.1 --opponent self "
        "--seed 1 --order 2 --min-share 0.005 --triple-share 0.15 --sample-games 200 "
        "--scale 100 --split Contact --group-features "
        "Contact=no:PipCount,OpponentPipCount,BorneOff,OpponentBorneOff --single-features "
        "'Their*' --measure-every 20 --measure-games 500 --measure-opponent pubeval` "
        "4HPwATDgc/ABMA, roll 31")
    res = runner.invoke(app, ["backgammon", "moves", "4HPwATDgc/ABMA", "--dice", "31",
                              "--player", "fuzzy:rulebase=backgammon_refined"])
    assert _flat(res.output).startswith(
        "rule base backgammon_refined: taught by `python -m "
        "fuzzeval.games.backgammon.scripts.teach --games 3000 --seed 1 --player pubeval "
        "--exploration 0.1 --fit choice` (conclusions "
        "fitted to GNU Backgammon 0-ply's choices) 4HPwATDgc/ABMA, roll 31")
    res = runner.invoke(app, ["backgammon", "moves", "4HPwATDgc/ABMA", "--dice", "31"])
    assert "rule base" not in res.output  # pubeval reads no rule base
