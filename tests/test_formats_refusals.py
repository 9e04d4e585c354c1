"""What FLL and FIS import refuses, and how: every construct outside the exact subset and
every malformed file gives located lines naming it (``file:line: construct: why``),
``fuzzeval rulebase import`` exits 2 and writes nothing, never a traceback. And the
semantics of what is accepted, worked by hand (FIS's NOT, OR and weights; lock-range)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fuzzeval import compile_rulebase
from fuzzeval.cli import app
from fuzzeval.cli.common import resolve_rulebase
from fuzzeval.formats.fll_fis import ConversionError, import_text

DATA = Path(__file__).parent / "data" / "interop"
FLL = (DATA / "tipper.fll").read_text()
FIS = (DATA / "tipper.fis").read_text()
runner = CliRunner()

#: (what, line of tipper.fll to change, its replacement, the one line expected)
FLL_REFUSED = [
    ("gaussian", "  term: average Triangle 2 5 8", "  term: average Gaussian 5 1.5",
     "tipper.fll:12: term 'average': is a Gaussian; fuzzeval has triangles"),
    ("flat trapezoid", "  term: average Triangle 2 5 8", "  term: average Trapezoid 2 4 6 8",
     "tipper.fll:12: term 'average': is a Trapezoid with a flat top from 4 to 6; fuzzeval "
     "has triangles (one top point)"),
    ("ramp short of the end", "  term: delicious Ramp 6 10", "  term: delicious Ramp 6 9",
     "tipper.fll:19: term 'delicious': is a Ramp that is 1 from 9 to the range's end 10; "
     "fuzzeval has triangles (a Ramp is one only when it ends at the end of the range)"),
    ("height", "  term: average Triangle 2 5 8", "  term: average Triangle 2 5 8 0.5",
     "tipper.fll:12: term 'average': has height 0.5; fuzzeval's terms reach 1"),
    ("linear", "  term: cheap Triangle 0 5 5", "  term: cheap Linear 1 2 3",
     "tipper.fll:28: term 'cheap': is a Linear function (first-order Takagi-Sugeno); "
     "fuzzeval's conclusions are Constant terms"),
    ("product and", "  conjunction: Minimum", "  conjunction: AlgebraicProduct",
     "tipper.fll:33: RuleBlock mamdani: conjunction AlgebraicProduct; fuzzeval's and is "
     "Minimum"),
    ("product or", "  disjunction: Maximum", "  disjunction: AlgebraicSum",
     "tipper.fll:34: RuleBlock mamdani: disjunction AlgebraicSum; fuzzeval's or is Maximum"),
    ("product implication", "  implication: Minimum", "  implication: AlgebraicProduct",
     "tipper.fll:35: RuleBlock mamdani: implication AlgebraicProduct; fuzzeval clips "
     "(Minimum)"),
    ("activation", "  activation: General", "  activation: Highest 2",
     "tipper.fll:36: RuleBlock mamdani: activation Highest; fuzzeval fires every rule "
     "(General)"),
    ("aggregation", "  aggregation: Maximum", "  aggregation: AlgebraicSum",
     "tipper.fll:24: OutputVariable tip: aggregation AlgebraicSum; fuzzeval aggregates the "
     "Centroid's terms with Maximum"),
    ("defuzzifier", "  defuzzifier: Centroid 1000", "  defuzzifier: Bisector 1000",
     "tipper.fll:25: OutputVariable tip: defuzzifier Bisector; fuzzeval has Centroid, "
     "WeightedAverage and WeightedSum"),
    ("hedge", "if service is average then", "if service is very average then",
     "tipper.fll:38: rule: hedge 'very'; fuzzeval has only 'not'"),
    ("two conclusions", "then tip is average\n", "then tip is average and tip is cheap\n",
     "tipper.fll:38: rule: has several conclusions; fuzzeval has one output"),
    ("two outputs", "RuleBlock: mamdani",
     "OutputVariable: other\n  range: 0 1\nRuleBlock: mamdani",
     "tipper.fll:31: OutputVariable other: a second output; fuzzeval has one output"),
    ("lock-previous", "  lock-previous: false", "  lock-previous: true",
     "tipper.fll:27: OutputVariable tip: lock-previous: true; fuzzeval has no memory of "
     "grades"),
    ("disabled", "  enabled: true", "  enabled: false",
     "tipper.fll:8: InputVariable service: enabled: false; fuzzeval has no disabled "
     "variables"),
    ("nan default", "  default: 15", "  default: nan",
     "tipper.fll:26: OutputVariable tip: default: nan is fuzzylite's answer when no rule "
     "fires; fuzzeval grades a number there: give --default X"),
    # malformed
    ("unknown section", "RuleBlock: mamdani", "Foo: bar\nRuleBlock: mamdani",
     "tipper.fll:31: section 'Foo': unknown; FLL has Engine, InputVariable, OutputVariable, "
     "RuleBlock"),
    ("unknown property", "  lock-previous: false", "  lock-prev: false",
     "tipper.fll:27: OutputVariable tip: unknown property 'lock-prev'; OutputVariable has "
     "description, enabled, range, lock-range, aggregation, defuzzifier, default, "
     "lock-previous, term"),
    ("missing term", "then tip is average\n", "then tip is averag\n",
     "tipper.fll:38: rule: names term 'averag' of 'tip', which has none such (terms: cheap, "
     "average, generous)"),
    ("missing input", "if service is average then", "if servic is average then",
     "tipper.fll:38: rule: names input 'servic', which is not defined (inputs: service, "
     "food)"),
    ("range lo > hi", "  range: 0 30", "  range: 30 0",
     "tipper.fll:22: OutputVariable tip: range 30 0: low must be below high"),
    ("too few parameters", "  term: average Triangle 10 15 20", "  term: average Triangle 10 15",
     "tipper.fll:29: term 'average': a Triangle needs 3 parameter(s), got 2"),
    ("points out of order", "  term: average Triangle 10 15 20",
     "  term: average Triangle 10 25 20",
     "tipper.fll:29: term 'average': points 10 25 20 must not decrease"),
    ("points outside the range", "  term: average Triangle 10 15 20",
     "  term: average Triangle 10 15 40",
     "tipper.fll:29: term 'average': points 10 15 40 reach outside 'tip''s range [0, 30]; "
     "fuzzeval's terms lie inside their variable's range"),
    ("weight", "with 0.5", "with 1.5", "tipper.fll:40: rule: weight '1.5' must be a number "
                                       "in (0, 1]"),
    ("cut in a rule", "  rule: if food is delicious then tip is generous with 0.5",
     "  rule: if food is delicious", "tipper.fll:40: rule: needs one 'then' (cut off?)"),
]


@pytest.mark.parametrize(("old", "new", "line"), [c[1:] for c in FLL_REFUSED],
                         ids=[c[0] for c in FLL_REFUSED])
def test_fll_refusals_are_one_located_line_each(old: str, new: str, line: str) -> None:
    assert old in FLL
    with pytest.raises(ConversionError) as caught:
        import_text(FLL.replace(old, new, 1), ".fll", "tipper.fll")
    assert str(caught.value).splitlines() == [line]


def test_a_truncated_fll_file_says_what_is_missing() -> None:
    lines = FLL.splitlines()
    cut = "\n".join(lines[:lines.index("  term: generous Triangle 18 25 30") + 1])
    with pytest.raises(ConversionError) as caught:
        import_text(cut, ".fll", "tipper.fll")
    assert str(caught.value).splitlines() == [
        "tipper.fll: RuleBlock: missing; a rule base needs one RuleBlock (is the file cut "
        "off?)"]
    cut = "\n".join(lines[:lines.index("  disjunction: Maximum") + 1])
    with pytest.raises(ConversionError) as caught:
        import_text(cut, ".fll", "tipper.fll")
    assert str(caught.value).splitlines() == [
        "tipper.fll:31: RuleBlock mamdani: no implication (is the file cut off?); fuzzeval "
        "clips (implication: Minimum)",
        "tipper.fll:31: RuleBlock mamdani: has no rules (is the file cut off?)"]


FIS_REFUSED = [
    ("gaussian", "MF2='average':'trimf',[2 5 8]", "MF2='average':'gaussmf',[1.5 5]",
     "tipper.fis:22: term 'average': is a Gaussian (gaussmf); fuzzeval has triangles"),
    ("flat trapezoid", "MF2='average':'trimf',[2 5 8]", "MF2='average':'trapmf',[2 4 6 8]",
     "tipper.fis:22: term 'average': is a trapezoid with a flat top from 4 to 6; fuzzeval "
     "has triangles"),
    ("product and", "AndMethod='min'", "AndMethod='prod'",
     "tipper.fis:11: [System]: AndMethod='prod' in a mamdani system; fuzzeval's and is min"),
    ("product implication", "ImpMethod='min'", "ImpMethod='prod'",
     "tipper.fis:13: [System]: ImpMethod='prod' in a mamdani system; fuzzeval clips (min)"),
    ("sum aggregation", "AggMethod='max'", "AggMethod='sum'",
     "tipper.fis:14: [System]: AggMethod='sum' in a mamdani system; fuzzeval aggregates "
     "with max (mamdani) or sums rule by rule (sugeno)"),
    ("defuzzifier", "DefuzzMethod='centroid'", "DefuzzMethod='bisector'",
     "tipper.fis:15: [System]: DefuzzMethod='bisector' in a mamdani system; fuzzeval has "
     "centroid (mamdani), wtaver and wtsum (sugeno)"),
    ("type", "Type='mamdani'", "Type='tsukamoto'",
     "tipper.fis:6: [System]: Type='tsukamoto'; fuzzeval converts mamdani and sugeno "
     "systems"),
    ("not on the conclusion", "0 2, 3 (0.5) : 1", "0 2, -3 (0.5) : 1",
     "tipper.fis:44: rule: NOT on the conclusion; fuzzeval concludes on a term"),
    ("hedge", "0 2, 3 (0.5) : 1", "0 2.2, 3 (0.5) : 1",
     "tipper.fis:44: rule: indexes must be whole numbers (hedges such as 0.2 are not "
     "converted)"),
    ("unknown section", "[Rules]", "[Foo]\nx=1\n[Rules]",
     "tipper.fis:40: section [Foo]: unknown; FIS has [System], [Input1] ..., [Output1], "
     "[Rules]"),
    ("missing term", "0 2, 3 (0.5) : 1", "0 3, 3 (0.5) : 1",
     "tipper.fis:44: rule: names MF3 of input 'food', which has 2"),
    ("range lo > hi", "Range=[0 30]", "Range=[30 0]",
     "tipper.fis:34: [Output1]: Range [30 0]: low must be below high"),
    ("too few parameters", "MF2='average':'trimf',[10 15 20]",
     "MF2='average':'trimf',[10 15]",
     "tipper.fis:37: term 'average': trimf takes 3 number(s) (got [10 15]) (is the file cut "
     "off?)"),
]


@pytest.mark.parametrize(("old", "new", "line"), [c[1:] for c in FIS_REFUSED],
                         ids=[c[0] for c in FIS_REFUSED])
def test_fis_refusals_are_one_located_line_each(old: str, new: str, line: str) -> None:
    assert old in FIS
    with pytest.raises(ConversionError) as caught:
        import_text(FIS.replace(old, new, 1), ".fis", "tipper.fis")
    assert str(caught.value).splitlines() == [line]


def test_a_truncated_fis_file_is_located() -> None:
    lines = FIS.splitlines()
    with pytest.raises(ConversionError) as caught:
        import_text("\n".join(lines[:-2]), ".fis", "tipper.fis")
    assert str(caught.value).splitlines() == [
        "tipper.fis:10: [System]: NumRules=5 but [Rules] has 3 (is the file cut off?)"]
    with pytest.raises(ConversionError) as caught:
        import_text("\n".join(lines[:lines.index("[Output1]")]), ".fis", "tipper.fis")
    assert "tipper.fis: [Output1]: missing (is the file cut off?)" in str(caught.value)


def test_several_outputs_are_refused_in_fis() -> None:
    text = FIS.replace("NumOutputs=1", "NumOutputs=2")
    with pytest.raises(ConversionError, match=r"tipper.fis:9: \[System\]: NumOutputs=2; "
                                              "fuzzeval has one output"):
        import_text(text, ".fis", "tipper.fis")


# --- the semantics of what converts, by hand --------------------------------------------

TWO = """[System]
Name='hand'
Type='sugeno'
NumInputs=2
NumOutputs=1
NumRules=3
AndMethod='min'
OrMethod='max'
ImpMethod='prod'
AggMethod='sum'
DefuzzMethod='wtaver'

[Input1]
Name='x'
Range=[0 10]
NumMFs=2
MF1='lo':'trimf',[0 0 10]
MF2='hi':'trimf',[0 10 10]

[Input2]
Name='y'
Range=[0 1]
NumMFs=1
MF1='on':'trapmf',[0 1 1 1]

[Output1]
Name='z'
Range=[0 100]
NumMFs=2
MF1='small':'constant',[10]
MF2='big':'constant',[90]

[Rules]
-1 0, 2 (0.5) : 1
1 -1, 1 (1) : 2
2 1, 2 (1) : 1
"""


def test_fis_not_or_and_weights_by_hand() -> None:
    rb, warnings = import_text(TWO, ".fis", "hand.fis")
    assert warnings == [] and rb.default == 50  # the middle of [0, 100], as MATLAB
    assert rb.rule_texts() == ("if not x is lo then z is big",
                               "if x is lo or not y is on then z is small",
                               "if x is hi and y is on then z is big")
    assert [r.weight for r in rb.rules] == [0.5, 1, 1]
    # x = 2.5: lo 0.75, hi 0.25; y = 0.4: on 0.4. Rule strengths: 0.5 x (1 - 0.75) =
    # 0.125 (big), max(0.75, 0.6) = 0.75 (small), min(0.25, 0.4) = 0.25 (big).
    grade = compile_rulebase(rb).grade(np.array([[2.5, 0.4]]))[0]
    assert grade == pytest.approx((0.125 * 90 + 0.75 * 10 + 0.25 * 90) / 1.125, abs=1e-12)
    rb, _ = import_text(TWO.replace("wtaver", "wtsum"), ".fis", "hand.fis", default=0)
    grade = compile_rulebase(rb).grade(np.array([[2.5, 0.4]]))[0]
    assert grade == pytest.approx(0.125 * 90 + 0.75 * 10 + 0.25 * 90, abs=1e-12)


def test_fll_lock_range_false_is_a_warning_and_an_nan_default_takes_default() -> None:
    text = FLL.replace("  lock-range: true", "  lock-range: false", 1)
    rb, warnings = import_text(text.replace("  default: 15", "  default: nan"), ".fll",
                               "tipper.fll", default=7.5)
    assert rb.default == 7.5
    assert warnings == ["tipper.fll:10: warning: InputVariable service: lock-range: false, "
                        "so fuzzylite does not clip it; fuzzeval clips inputs to the range, "
                        "so inputs outside it may grade differently"]


def test_fll_ramps_and_a_one_top_trapezoid_are_these_triangles() -> None:
    rb, _ = import_text(FLL, ".fll", "tipper.fll")
    service, food = rb.inputs
    assert [t.triangle.points for t in service.terms] == [(0, 0, 5), (2, 5, 8), (5, 10, 10)]
    assert [t.triangle.points for t in food.terms] == [(0, 0, 4), (6, 10, 10)]
    assert rb.rule_texts()[-1] == ("if (service is good or food is delicious) and not food "
                                   "is rancid then tip is average")
    assert rb.default == 15 and rb.defuzzifier == "centroid"


def test_a_one_top_trapezoid_between_two_feet_is_that_triangle() -> None:
    """A trapezoid whose top is one point, 5, with feet at 2 and 8 (not a shoulder at the
    range's end): the triangle 2 5 8, in FLL and in FIS alike."""
    fll, _ = import_text(FLL.replace("  term: average Triangle 2 5 8",
                                     "  term: average Trapezoid 2 5 5 8"), ".fll", "tipper.fll")
    fis, _ = import_text(FIS.replace("MF2='average':'trimf',[2 5 8]",
                                     "MF2='average':'trapmf',[2 5 5 8]"), ".fis", "tipper.fis")
    for rb in (fll, fis):
        assert rb.inputs[0].terms[1].name == "average"
        assert rb.inputs[0].terms[1].triangle.points == (2, 5, 8)


# --- the command line ---------------------------------------------------------------


def test_import_refused_exits_2_writes_nothing_one_line_each(tmp_path: Path) -> None:
    bad = tmp_path / "tipper.fll"
    bad.write_text(FLL.replace("  term: average Triangle 2 5 8", "  term: average Bell 5 2 3")
                   .replace("  conjunction: Minimum", "  conjunction: AlgebraicProduct"))
    out = tmp_path / "out.yaml"
    res = runner.invoke(app, ["rulebase", "import", str(bad), "-o", str(out)])
    assert res.exit_code == 2 and not out.exists()
    assert res.stderr.splitlines() == [
        f"error: {bad}:12: term 'average': is a Bell; fuzzeval has triangles",
        f"error: {bad}:33: RuleBlock mamdani: conjunction AlgebraicProduct; fuzzeval's and "
        "is Minimum"]
    assert "Traceback" not in res.output


def test_import_then_grade(tmp_path: Path) -> None:
    out = tmp_path / "tsk.yaml"
    res = runner.invoke(app, ["rulebase", "import", str(DATA / "tsk_average.fll"), "-o",
                              str(out), "--default", "-3"])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == f"{out}: 3 inputs, 6 rules, weighted_average, default -3"
    # a = 5 (mid 1), b = 0, c = 50: rule 2 fires alone (0.8 x 1), so the grade is 0.5
    res = runner.invoke(app, ["evaluate", str(out), "-i", "a=5", "-i", "b=0", "-i", "c=50"])
    assert res.exit_code == 0 and res.stdout.strip() == "0.5"
    res = runner.invoke(app, ["evaluate", str(out), "-i", "a=3.5", "-i", "b=0", "-i", "c=50"])
    assert res.stdout.strip() == "-3"  # no rule fires: the default given
    res = runner.invoke(app, ["rulebase", "import", str(DATA / "tsk_average.fll"), "-o",
                              str(tmp_path / "again.yaml")])
    assert res.exit_code == 2 and not (tmp_path / "again.yaml").exists()
    assert "give --default X" in res.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["import", "x.txt", "-o", "o.yaml"], "error: x.txt: give an FLL (.fll) or FIS (.fis) file"),
    (["import", "{tipper}"], "error: --output: give the rule base to write, e.g. -o "
                             "rulebase.yaml"),
    (["import", "{tipper}", "-o", "o.fll"], "error: --output o.fll: give the rule base to "
                                            "write, e.g. -o rulebase.yaml"),
    (["import", "{tipper}", "-o", "o.yaml", "--default", "nan"],
     "error: Invalid value for '--default': 'nan' is not a finite number (see fuzzeval "
     "rulebase import --help)"),
    (["import", "nowhere.fis", "-o", "o.yaml"], "error: nowhere.fis: no such file"),
    (["import", "{tipper}", "-o", "{tipper}"], "error: --output {tipper}: give the rule base "
                                               "to write, e.g. -o rulebase.yaml"),
    (["export", "tipping"], "error: --output: give the file to write, ending in .fll "
                            "(fuzzylite) or .fis (MATLAB/Octave)"),
    (["export", "tipping", "-o", "t.yaml"], "error: --output t.yaml: give the file to write, "
                                            "ending in .fll (fuzzylite) or .fis "
                                            "(MATLAB/Octave)"),
])
def test_usage_errors_are_one_line_exit_2(args: list[str], message: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    tipper = str(DATA / "tipper.fll")
    args = [a.replace("{tipper}", tipper) for a in args]
    res = runner.invoke(app, ["rulebase", *args])
    assert res.exit_code == 2
    assert res.stderr.splitlines() == [message.replace("{tipper}", tipper)]
    assert list(tmp_path.iterdir()) == []


def test_export_refused_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "hearts.fis"
    res = runner.invoke(app, ["rulebase", "export", "hearts", "-o", str(out)])
    assert res.exit_code == 2 and not out.exists()
    lines = res.stderr.splitlines()
    source = str(resolve_rulebase("hearts"))
    assert len(lines) == 6 and all(line.startswith(f"error: {source}: rules[") for line in lines)
    assert lines[0].endswith("it nests 'and' and 'or'; a FIS rule is one AND, or one OR, "
                             "of terms")


def test_export_never_replaces_its_input_or_another_kind_of_file(tmp_path: Path) -> None:
    db = tmp_path / "x.fll"
    db.write_bytes(b"SQLite format 3\x00" + bytes(100))
    res = runner.invoke(app, ["rulebase", "export", "tipping", "-o", str(db)])
    assert res.exit_code == 2 and "an existing file that is an SQLite database" in res.stderr
    assert db.read_bytes().startswith(b"SQLite format 3")


# --- whatever the text: a rule base or ConversionError, never another exception --------

_WORDS = st.sampled_from(["", "nan", "inf", "-1", "0", "1e400", "(", ")", "not", "is", "and",
                          "or", "with", "Triangle", "Constant", "'x'", "[", "]", ":", "=",
                          ",", "MF1", "[Rules]", "[Input1]", "Engine:", "rule:", "term:"])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([(FLL, ".fll"), (FIS, ".fis")]), st.data())
def test_mangled_files_give_conversion_errors_only(source: tuple[str, str],
                                                   data: st.DataObject) -> None:
    text, suffix = source
    lines = text.splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        k = data.draw(st.integers(0, len(lines) - 1))
        how = data.draw(st.sampled_from(["drop", "repeat", "cut", "word"]))
        if how == "drop":
            del lines[k]
        elif how == "repeat":
            lines.insert(k, lines[k])
        elif how == "cut":
            lines[k] = lines[k][:data.draw(st.integers(0, len(lines[k])))]
        else:
            words = lines[k].split(" ")
            words[data.draw(st.integers(0, len(words) - 1))] = data.draw(_WORDS)
            lines[k] = " ".join(words)
    try:
        rb, _ = import_text("\n".join(lines), suffix, "mangled" + suffix, default=1.0)
    except ConversionError as exc:
        assert exc.problems and all(p.path == "mangled" + suffix for p in exc.problems)
    else:
        assert compile_rulebase(rb).grade(np.zeros((1, len(rb.inputs)))).shape == (1,)


def test_a_file_that_is_not_text_exits_2_and_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    binary = tmp_path / "x.fis"
    binary.write_bytes(b"[System]\nName='\xff'\n")
    res = runner.invoke(app, ["rulebase", "import", str(binary), "-o", str(tmp_path / "o.yaml")])
    assert res.exit_code == 2 and not (tmp_path / "o.yaml").exists()
    assert res.stderr.splitlines() == [f"error: {binary}: (file): must be UTF-8 text (got "
                                       "invalid start byte at byte 15)"]
    marked = tmp_path / "tipper.fis"
    marked.write_text("\ufeff" + FIS, encoding="utf-8")
    res = runner.invoke(app, ["rulebase", "import", str(marked), "-o", str(tmp_path / "o.yaml")])
    assert res.exit_code == 0, res.output


def test_fuzzylite_5_files_are_named_as_such() -> None:
    old = FLL.replace("  aggregation: Maximum", "  accumulation: Maximum")
    with pytest.raises(ConversionError) as caught:
        import_text(old, ".fll", "tipper.fll")
    assert str(caught.value).splitlines()[0] == (
        "tipper.fll:24: 'accumulation': fuzzylite 5's FLL; fuzzeval reads fuzzylite 6 and "
        "later (aggregation, and the RuleBlock's implication where fuzzylite 5 says "
        "activation)")


def test_a_name_fis_cannot_quote_is_refused_on_export() -> None:
    from dataclasses import replace

    from fuzzeval import load_rulebase
    from fuzzeval.formats.fll_fis import export_rulebase

    rb = replace(load_rulebase("tipping"), name="Joe's tips")
    with pytest.raises(ConversionError, match="a FIS name is quoted with '"):
        export_rulebase(rb, ".fis")
    with pytest.raises(ConversionError, match="must be one word of letters"):
        export_rulebase(rb, ".fll")


def test_a_line_before_any_section_is_named_by_its_key(tmp_path: Path) -> None:
    fll = tmp_path / "b.fll"
    fll.write_text("foo: bar\n" + (DATA / "tipper.fll").read_text())
    res = runner.invoke(app, ["rulebase", "import", str(fll), "-o", str(tmp_path / "o.yaml")])
    assert res.exit_code == 2 and not (tmp_path / "o.yaml").exists()
    assert res.stderr.splitlines()[0] == (f"error: {fll}:1: 'foo': before any section "
                                          "(Engine, InputVariable, ...)")
