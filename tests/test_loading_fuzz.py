"""The loader never fails with anything but problems: arbitrary text, arbitrary YAML
data, and mutated valid files give a RuleBase or a list with at least one error."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval import RuleBaseError, load_rulebase, parse_rulebase
from tests.corpus import shipped_texts

ROOT = Path(__file__).resolve().parent.parent
VALID = shipped_texts()  # learned bases cut to their first rules (tests/corpus.py)


def _check(text: str) -> None:
    rb, problems = parse_rulebase(text, "fuzz.yaml")
    if rb is None:
        assert any(p.severity == "error" for p in problems)
        assert all(p.path == "fuzz.yaml" and p.message for p in problems)


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12))
data = st.recursive(
    scalars,
    lambda sub: st.one_of(st.lists(sub, max_size=4),
                          st.dictionaries(st.text(max_size=8), sub, max_size=4)),
    max_leaves=20,
)


@settings(max_examples=300)
@given(st.text(max_size=300))
def test_arbitrary_text(text: str) -> None:
    _check(text)


@settings(max_examples=300)
@given(data)
def test_arbitrary_yaml_data(value: object) -> None:
    _check(yaml.safe_dump(value))


TOKENS = ["", "-1", "1e400", ".nan", ".inf", "[1, 2]", "{a: 1}", "'x'", "and", "yes", "null",
          "[0, 0, 0]", "not", "(", "if", "then"]


@st.composite
def mutated(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(VALID)).splitlines()
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "token", "indent", "key"]))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "token":
            words = lines[i].split(" ")
            k = draw(st.integers(0, len(words) - 1))
            words[k] = draw(st.sampled_from(TOKENS))
            lines[i] = " ".join(words)
        elif kind == "indent":
            lines[i] = " " * draw(st.integers(0, 6)) + lines[i].lstrip()
        else:
            lines.insert(i, draw(st.sampled_from(["colour: red", "  extra: 1", "- x"])))
        if not lines:
            break
    return "\n".join(lines)


@settings(max_examples=300)
@given(mutated())
def test_mutated_valid_files(text: str) -> None:
    _check(text)


@settings(max_examples=60)
@given(mutated())
def test_load_raises_only_rulebase_error(tmp_path_factory: pytest.TempPathFactory,
                                         text: str) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "rb.yaml"
    path.write_text(text)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            load_rulebase(path)
        except RuleBaseError as exc:
            assert exc.problems
