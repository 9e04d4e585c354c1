"""The loader: every problem at once, each with its line and key; warnings; round trips."""

from __future__ import annotations

import re
import warnings
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fuzzeval import (
    RuleBaseError,
    RuleBaseWarning,
    dump_rulebase,
    load_rulebase,
    parse_rulebase,
    rulebase_to_yaml,
)
from fuzzeval.engine.membership import Triangle
from fuzzeval.engine.rulebase import Is, Rule, RuleBase, Term, Variable
from tests.strategies import rulebases

ROOT = Path(__file__).resolve().parent.parent
BROKEN = """\
name: broken
defuzzifier: mean
default: 99
inputs:
  a:
    range: [0, 10]
    terms: {lo: [0, 5, 3], hi: [5, 10, 12], hi: [1, 2, 3]}
    colour: red
output: {name: y, range: [0, 1], terms: {z: 0.5}}
rules:
  - if a is lo and c is x then y is z
  - if a is ( then y is z
  - {rule: if a is lo then y is z, weight: 2}
"""


def test_every_problem_with_line_and_key() -> None:
    rb, problems = parse_rulebase(BROKEN, "b.yaml")
    assert rb is None
    got = {str(p) for p in problems}
    expected = [
        "b.yaml:2: defuzzifier: must be one of centroid, weighted_average, weighted_sum "
        "(got 'mean')",
        "b.yaml:7: inputs.a.terms.hi: duplicate key: each name may appear once",
        "b.yaml:7: inputs.a.terms.lo: points must satisfy left <= peak <= right",
        "b.yaml:7: inputs.a.terms.hi: points must lie inside the range [0, 10]",
        "b.yaml:8: inputs.a.colour: unknown key; allowed here: range, terms, description",
        "b.yaml:12: rules[1]: rule syntax: expected a term name (got '(') at column 9",
        "b.yaml:13: rules[2].weight: must be in (0, 1] (got 2)",
    ]
    for line in expected:
        assert any(g.startswith(line) for g in got), line
    # 'a' is declared (though broken): rules using it are not re-reported as unknown.
    assert not any("unknown input variable 'a'" in g for g in got)
    assert any("unknown input variable 'c'" in g for g in got)


def test_load_raises_with_all_errors_and_warns_for_unused_terms(tmp_path: Path) -> None:
    bad = tmp_path / "b.yaml"
    bad.write_text(BROKEN)
    with pytest.raises(RuleBaseError) as info:
        load_rulebase(bad)
    assert len(str(info.value).splitlines()) >= 7
    with pytest.warns(RuleBaseWarning) as caught:
        load_rulebase(ROOT / "tests" / "data" / "spec_tipping.yaml")
    unused = sorted(str(w.message).split("warning: ")[1] for w in caught)
    assert unused == ["inputs.quality.terms.average: no rule uses this term",
                      "inputs.service.terms.good: no rule uses this term"]


@pytest.mark.parametrize(
    ("snippet", "fragment"),
    [
        ("", "is empty"),
        ("- just\n- a list\n", "must be a mapping"),
        ("name: [unclosed\n", "not valid YAML"),
    ],
)
def test_documents_that_are_not_rule_bases(snippet: str, fragment: str) -> None:
    rb, problems = parse_rulebase(snippet)
    assert rb is None and any(fragment in p.message for p in problems)


def test_centroid_rejects_singleton_output_and_adjust_on_output() -> None:
    text = (ROOT / "rulebases" / "tipping.yaml").read_text()
    rb, problems = parse_rulebase(text.replace("low: [0, 0, 13]", "low: 0"))
    assert rb is None and any("singleton has no area" in p.message for p in problems)
    rb, problems = parse_rulebase(
        text.replace("low: [0, 0, 13]", "low: {points: [0, 0, 13], adjust: [peak]}"))
    assert rb is None and any("only input terms can be adjusted" in p.message for p in problems)


@pytest.mark.parametrize("path", sorted((ROOT / "rulebases").glob("*.yaml")), ids=lambda p: p.name)
def test_round_trip(path: Path, tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rb = load_rulebase(path)
    out = tmp_path / "copy.yaml"
    dump_rulebase(rb, out)
    assert load_rulebase(out) == rb
    assert rulebase_to_yaml(load_rulebase(out)) == out.read_text()  # stable output
    keys = [line.split(":")[0] for line in out.read_text().splitlines()
            if line[:1] not in (" ", "-")]
    assert keys[:4] == ["name", "description", "made_by", "defuzzifier"]
    assert keys[-2:] == ["output", "rules"]


def test_load_rulebase_takes_a_shipped_name_from_any_folder_and_a_path_wins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's load_rulebase("tipping") from a folder outside the checkout (it raised
    "rulebases/tipping.yaml: cannot be read" there when the snippet named the file)."""
    from fuzzeval.errors import NotFound

    shipped = Path(__file__).resolve().parents[1] / "rulebases" / "tipping.yaml"
    monkeypatch.chdir(tmp_path)
    rb = load_rulebase("tipping")
    assert rb.name == "tipping" and rb.input_names == ("quality", "service")
    # a file of that name in the folder is a path, and a path always wins (as on the CLI)
    Path("tipping").write_text(shipped.read_text().replace("name: tipping", "name: mine", 1))
    assert load_rulebase("tipping").name == "mine"
    assert load_rulebase(Path("tipping")).name == "mine"
    with pytest.raises(NotFound, match=r"no shipped rule base 'tiping' \(shipped: .*tipping"):
        load_rulebase("tiping")
    with pytest.raises(RuleBaseError, match=r"rulebases/tipping\.yaml: .*cannot be read"):
        load_rulebase("rulebases/tipping.yaml")  # a path, never a name


_X = Variable("x", 0.0, 1.0, (Term("a", Triangle(0.0, 0.5, 1.0)),))
_Y = Variable("y", 0.0, 1.0, (Term("b", Triangle(0.0, 0.5, 1.0)),))
_SMALL = RuleBase("r", "centroid", 0.0, (_X,), _Y, (Rule(Is("x", "a"), "b"),))
#: any text, and text made of what YAML quotes, folds or escapes (long lines too)
_TEXT = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=300),
    st.lists(st.sampled_from([*" :#-'\"\n\tab\\?&*!|>%@`,[]{}\ré\x85\U0001f600\u2028\ufeff0.e+",
                              "yes", "null", "~", "  ", "\n\n", "word ", "x" * 30]),
             max_size=120).map("".join),
)


#: found by hypothesis: libyaml folds this double-quoted line otherwise than PyYAML
_FOLDED = ("     " + " " * 16 + '""\r\ufeff' + " " * 16 + '"""\r\ufeff' + " " * 11
           + '""nullnull\n\n')


@settings(max_examples=150, deadline=None)
@given(rb=rulebases(), description=_TEXT, made_by=_TEXT, about=_TEXT)
@example(rb=_SMALL, description=_FOLDED, made_by="", about="")
@example(rb=_SMALL, description="", made_by="", about="\U00010000")
def test_libyaml_writes_the_bytes_python_writes(rb: RuleBase, description: str,
                                                made_by: str, about: str) -> None:
    """rulebase_to_yaml writes with libyaml's emitter where PyYAML has it (a fifth of the
    time: a match's fingerprint writes its bases). It must write what PyYAML's own emitter
    writes, or a stored match's fingerprint would depend on how PyYAML was built; text of
    any characters, long lines included."""
    from fuzzeval.formats import yaml_write

    rb = replace(rb, description=description, made_by=made_by,
                 inputs=(replace(rb.inputs[0], description=about), *rb.inputs[1:]))
    assert yaml_write._Dumper is not yaml_write._PyDumper  # libyaml is there (CI installs it)
    fast = rulebase_to_yaml(rb)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(yaml_write, "_Dumper", yaml_write._PyDumper)
        assert fast == rulebase_to_yaml(rb)


@pytest.mark.parametrize("path", sorted((ROOT / "rulebases").glob("*.yaml")),
                         ids=lambda p: p.stem)
def test_libyaml_writes_each_shipped_base_as_python_does(path: Path) -> None:
    from fuzzeval.formats import yaml_write

    rb = load_rulebase(path)
    fast = rulebase_to_yaml(rb)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(yaml_write, "_Dumper", yaml_write._PyDumper)
        assert fast == rulebase_to_yaml(rb)


def test_a_text_is_parsed_once_and_its_problems_are_the_callers_own() -> None:
    """A command reads one base several times (a match's players and its fingerprint):
    the second read of the same text returns the same frozen rule base, while the list of
    problems is a fresh one each time, so a caller that appends to it changes no later
    read."""
    text = (ROOT / "rulebases" / "tipping.yaml").read_text()
    first, problems = parse_rulebase(text, "a.yaml")
    problems.append("changed by the caller")  # type: ignore[arg-type]
    again, problems_again = parse_rulebase(text, "a.yaml")
    assert again is first
    assert "changed by the caller" not in problems_again
    other, _ = parse_rulebase(text, "b.yaml")  # another path: its own problems' paths
    assert other == first


def test_threads_reading_bases_at_once_share_the_cache_safely() -> None:
    """A Dask worker runs tasks in threads: many texts read at once, more than the cache
    keeps, each thread gets its own base back and nothing raises."""
    from concurrent.futures import ThreadPoolExecutor

    text = (ROOT / "rulebases" / "tipping.yaml").read_text()
    texts = [text.replace("name: tipping", f"name: tipping{k}") for k in range(12)]

    def read(k: int) -> str:
        rb, _ = parse_rulebase(texts[k % 12], f"t{k % 12}.yaml")
        assert rb is not None
        return rb.name

    with ThreadPoolExecutor(8) as pool:
        names = list(pool.map(read, range(600)))
    assert names == [f"tipping{k % 12}" for k in range(600)]


@pytest.mark.pinned
def test_a_long_value_in_a_bad_place_is_shown_cut_at_40_characters() -> None:
    from fuzzeval.errors import FuzzevalError
    from fuzzeval.formats.loading import load_rulebase_text
    from fuzzeval.resources import default_rulebase

    text = default_rulebase("tipping").read_text()
    bad = re.sub(r"(?m)^inputs:\n", "inputs: " + "x" * 50 + "\nzzz:\n", text, count=1)
    with pytest.raises(FuzzevalError) as caught:
        load_rulebase_text(bad, "t.yaml")
    assert f"t.yaml:11: inputs: must be a mapping (got '{'x' * 40}...')" in str(caught.value)


@pytest.mark.mutation_pin
def test_a_list_where_a_mapping_belongs_is_named_a_list() -> None:
    from fuzzeval import parse_rulebase

    _, problems = parse_rulebase("name: x\ninputs: [1, 2]\n", "x.yaml")
    assert "x.yaml:2: inputs: must be a mapping (got a list)" in [str(p) for p in problems]
    _, problems = parse_rulebase("name: x\nrules: {a: 1}\n", "x.yaml")
    assert "x.yaml:2: rules: must be a non-empty list of rules (got a mapping)" in [
        str(p) for p in problems]
