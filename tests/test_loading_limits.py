"""Hostile rule bases: extreme numbers, pathological YAML and rule text, paths that are not
rule-base files. The loader answers each with located problems (``RuleBaseError``), never
with another exception, a hang, or a rule base that grades wrong."""

from __future__ import annotations

import math
import os
import re
import sys
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fuzzeval import RuleBaseError, check_rulebase, compile_rulebase, load_rulebase
from fuzzeval.cli import app
from fuzzeval.engine.membership import MAX_MAGNITUDE, RESOLUTION, resolution
from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.formats import loading
from fuzzeval.formats.grammar import MAX_NESTING, RuleSyntaxError, parse_rule
from fuzzeval.formats.loading import MAX_RULEBASE_BYTES, parse_rulebase, read_rulebase_text
from fuzzeval.formats.yaml_read import MAX_YAML_DEPTH
from tests.corpus import shortened

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulebases").glob("*.yaml")) + sorted((ROOT / "tests/data").glob("*.yaml"))


def _text(
    inp_range: str = "[0, 10]",
    inp_term: str = "[0, 5, 10]",
    out_range: str = "[0, 10]",
    out_term: str = "[0, 5, 10]",
    default: str = "0",
    rule: str = "if a is t then y is o",
    weight: str = "1",
    defuzzifier: str = "centroid",
) -> str:
    # Line numbers matter: range of a = 6, its term = 7, output range = 10, its term = 11,
    # the rule = 13, its weight = 14.
    return f"""\
name: hostile
defuzzifier: {defuzzifier}
default: {default}
inputs:
  a:
    range: {inp_range}
    terms: {{t: {inp_term}}}
output:
  name: y
  range: {out_range}
  terms: {{o: {out_term}}}
rules:
  - rule: {rule}
    weight: {weight}
"""


def _errors(text: str) -> list[str]:
    """The errors of a rule base that must not load (every one a single located line)."""
    rb, problems = parse_rulebase(text, "h.yaml")
    assert rb is None
    errors = [str(p) for p in problems if p.severity == "error"]
    assert errors and all("\n" not in e and e.startswith("h.yaml") for e in errors)
    return errors


def _has(errors: list[str], prefix: str) -> bool:
    return any(e.startswith(prefix) for e in errors)


# --- 1. numbers the engine cannot evaluate exactly ------------------------------------


def test_shipped_and_fixture_rule_bases_are_within_the_limits() -> None:
    for path in SHIPPED:
        rb, problems = check_rulebase(path)
        assert rb is not None, [str(p) for p in problems]


def test_an_output_range_of_1e308_is_refused_where_it_stands() -> None:
    # Accepted before: the centroid graded NaN (and -inf with other terms).
    errors = _errors(_text(out_range="[-1.0e+308, 1.0e+308]", out_term="[-1.0e+308, 0, 1.0e+308]"))
    assert _has(errors, "h.yaml:10: output.range: must be a number from -1e15 to 1e15 "
                        "(got '-1.0e+308')")
    assert _has(errors, "h.yaml:10: output.range: must be a number from -1e15 to 1e15 "
                        "(got '1.0e+308')")
    assert _has(errors, "h.yaml:11: output.terms.o: must be a number from -1e15 to 1e15")
    errors = _errors(_text(inp_range="[0, 1.0e+16]"))
    assert _has(errors, "h.yaml:6: inputs.a.range: must be a number from -1e15 to 1e15 "
                        "(got '1.0e+16')")
    errors = _errors(_text(default="-1.0e+300"))
    assert _has(errors, "h.yaml:3: default: must be a number from -1e15 to 1e15")


def test_a_range_scaled_by_1e_200_is_refused() -> None:
    # Accepted before: graded 0 with "fired: true" (the centroid's moments underflowed).
    errors = _errors(_text(out_range="[0, 1.0e-200]", out_term="[0, 5.0e-201, 1.0e-200]"))
    assert _has(errors, "h.yaml:10: output.range: must be at least 1e-09 * max(1, |low|, "
                        "|high|) = 1e-09 wide (got [0, 1e-200])")
    # relative to the ends: doubles near 1e15 are 0.125 apart
    errors = _errors(_text(inp_range="[999999999999999, 1.0e+15]",
                           inp_term="[999999999999999, 999999999999999, 1.0e+15]"))
    assert _has(errors, "h.yaml:6: inputs.a.range: must be at least 1e-09 * max(1, |low|, "
                        "|high|) = 1e+06 wide (got [999999999999999, 1000000000000000])")


def test_a_subnormal_peak_is_refused() -> None:
    # Accepted before: at its own peak the membership was NaN and "no rule fired".
    errors = _errors(_text(inp_range="[0, 1]", inp_term="[0, 5.0e-324, 1]"))
    assert _has(errors, "h.yaml:7: inputs.a.terms.t: points must be equal or at least "
                        "2.23e-308 apart, so that a side's slope is finite (got [0, 5e-324, 1])")
    assert _errors(_text(inp_term="{points: [0, 5, 5.0e-310], adjust: [peak]}"))


def test_output_points_closer_than_the_resolution_are_refused() -> None:
    # The centroid takes such a side for vertical, and crosses side lines with its slope.
    errors = _errors(_text(out_term="[0, 5, 5.000000001]"))
    assert _has(errors, "h.yaml:11: output.terms.o: points must be equal or at least 1e-09 "
                        "* max(1, |low|, |high|) = 1e-08 apart (got [0, 5, 5.000000001])")
    errors = _errors(_text(out_range="[0, 1]", out_term="[0, 1.0e-300, 1]"))
    assert _has(errors, "h.yaml:11: output.terms.o: points must be equal or at least 1e-09")


@pytest.mark.parametrize("term", ["[0, 1.0e-300, 1]", "[0.5, 0.5000000000000001, 1]",
                                  "[4, 10.120695995201684, 10.120696014544976]"])
def test_input_points_closer_than_the_resolution_load_and_grade_exactly(term: str) -> None:
    # Calibration pulls the adjustable points of one triangle together round after round
    # (cribbage_linguistic's 'fair' after 178 rounds: the last term here): the loader must
    # keep reading what the calibrator writes; the engine evaluates any finite slope exactly.
    rb, e = _explain_at_peak(_text(inp_range="[0, 20]", inp_term=term))
    assert e.fired and e.memberships["a"]["t"] == 1.0
    tri = rb.inputs[0].terms[0].triangle
    ev = compile_rulebase(rb)
    assert ev.explain([tri.left]).memberships["a"]["t"] == (1.0 if tri.left == tri.peak else 0.0)
    mid = (tri.peak + tri.right) / 2
    assert ev.explain([mid]).memberships["a"]["t"] == pytest.approx(
        (tri.right - mid) / (tri.right - tri.peak), abs=1e-12)


def test_a_long_calibration_writes_rule_bases_that_load() -> None:
    from fuzzeval.formats.yaml_edit import rewrite_points
    from fuzzeval.learn.calibration_step import calibrate

    path = ROOT / "rulebases" / "cribbage_linguistic.yaml"
    rb, text = load_rulebase(path), path.read_text()
    # Eq. 1 pulls both adjustable points of 'fair' (and of 'good') toward one target: 0.9^k
    # of their distance is left after k rounds; 300 rounds at once with rate 1 - 0.9^300.
    rate = 1 - 0.9**300
    wins = {v.name: [v.lo + 0.37 * v.width] for v in rb.inputs}
    new, _ = calibrate(rb, wins, rate)
    back, problems = parse_rulebase(rewrite_points(text, new))
    assert back is not None, [str(p) for p in problems]


def test_a_subnormal_weight_is_refused() -> None:
    # Accepted before: two rules of weights 5e-324 and 1e-323 made the centroid 6, not 6.5.
    errors = _errors(_text(weight="5.0e-324"))
    assert _has(errors, "h.yaml:14: rules[0].weight: must be at least 1e-09 (got 5e-324)")
    assert _has(_errors(_text(weight="2")), "h.yaml:14: rules[0].weight: must be in (0, 1] "
                                             "(got 2)")


def _explain_at_peak(text: str) -> tuple[RuleBase, Any]:
    rb, problems = parse_rulebase(text)
    assert rb is not None, [str(p) for p in problems]
    return rb, compile_rulebase(rb).explain([rb.inputs[0].terms[0].triangle.peak])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"out_range": "[-1.0e+15, 1.0e+15]", "out_term": "[-1.0e+15, 0, 1.0e+15]"},
        {"inp_range": "[-1.0e+15, 1.0e+15]", "inp_term": "[-1.0e+15, 1.0e+15, 1.0e+15]"},
        {"out_range": "[0, 1.0e-9]", "out_term": "[0, 0, 1.0e-9]"},
        {"inp_range": "[0, 1]", "inp_term": "[0, 1.0e-9, 1]"},
        {"inp_range": "[0, 1]", "inp_term": "[0, 0, 1.0e-9]"},
        {"weight": "1.0e-9", "defuzzifier": "weighted_average", "out_term": "[3, 3, 3]"},
    ],
)
def test_the_limits_themselves_load_and_grade_exactly(kwargs: dict[str, str]) -> None:
    rb, e = _explain_at_peak(_text(**kwargs))
    assert e.fired and e.memberships["a"]["t"] == 1.0
    out = rb.output.terms[0].triangle
    expected = out.peak if rb.defuzzifier == "weighted_average" else sum(out.points) / 3
    assert e.grade == pytest.approx(expected, rel=1e-9, abs=_tolerance(rb))


def _tolerance(rb: RuleBase) -> float:
    """The centroid draws a side steeper than 1e9 / width as vertical: off by a resolution."""
    return 2 * resolution(rb.output.lo, rb.output.hi) + 1e-9 * rb.output.width


def _near(lo: float, hi: float) -> st.SearchStrategy[float]:
    """Numbers of [lo, hi], often at or next to an end."""
    if not lo < hi:  # one point (also 0.0 and -0.0, which hypothesis cannot span)
        return st.just(hi)
    return st.one_of(
        st.floats(lo, hi),
        st.sampled_from([lo, hi, math.nextafter(lo, hi), math.nextafter(hi, lo),
                         lo + (hi - lo) / 2 if math.isfinite(hi - lo) else 0.0]),
    )


MAGNITUDES = st.sampled_from([0.0, 5e-324, 1e-300, 1e-200, 1e-12, 1e-9, 1.0, 10.0, 1e6, 1e15,
                              1e16, 1e300, 1e308])


@st.composite
def hostile_variables(draw: st.DrawFn) -> tuple[float, float, list[float]]:
    ends = sorted({draw(MAGNITUDES) * draw(st.sampled_from([-1.0, 1.0])) for _ in range(2)}
                  | {draw(st.floats(-1e20, 1e20))})
    lo, hi = ends[0], ends[-1]
    left = draw(_near(lo, hi))
    peak = draw(st.one_of(_near(left, hi), st.just(math.nextafter(left, math.inf))))
    right = draw(_near(min(max(peak, lo), hi), hi))
    return lo, hi, [left, peak, right]


@settings(max_examples=400)
@given(hostile_variables(), hostile_variables(),
       st.sampled_from(["centroid", "weighted_average"]))
def test_whatever_loads_grades_exactly(inp: tuple[float, float, list[float]],
                                       out: tuple[float, float, list[float]],
                                       defuzzifier: str) -> None:
    (ilo, ihi, ipts), (olo, ohi, opts) = inp, out
    data = {"name": "h", "defuzzifier": defuzzifier, "default": olo,
            "inputs": {"a": {"range": [ilo, ihi], "terms": {"t": ipts}}},
            "output": {"name": "y", "range": [olo, ohi], "terms": {"o": opts}},
            "rules": ["if a is t then y is o"]}
    rb, problems = parse_rulebase(yaml.safe_dump(data), "h.yaml")
    if rb is None:
        assert all(str(p).startswith("h.yaml:") and "\n" not in str(p) for p in problems)
        return
    ev = compile_rulebase(rb)
    e = ev.explain([ipts[1]])
    assert e.memberships["a"]["t"] == 1.0 and e.fired
    o = rb.output.terms[0].triangle
    expected = o.peak if defuzzifier == "weighted_average" else sum(o.points) / 3
    assert e.grade == pytest.approx(expected, rel=1e-9, abs=_tolerance(rb))
    xs = np.array([[ilo], [ihi], [ipts[0]], [ipts[2]], [-np.inf], [np.inf]])
    grades = ev.grade(xs)
    assert np.isfinite(grades).all()
    assert ((grades >= rb.output.lo) & (grades <= rb.output.hi)).all()


# --- 2. nothing but RuleBaseError ----------------------------------------------------


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("1" + "0" * 400, "must be a number written in at most 100 characters (got '10000"),
        ("1" + "0" * 5000, "must be a number written in at most 100 characters"),  # int limit
        ("1" + "0" * 99, "must be a number from -1e15 to 1e15 (got '1000000000"),
        ("0x" + "f" * 98, "must be a number from -1e15 to 1e15 (got '0xffff"),
        ("1" + ":59" * 2000, "must be a number written in at most 100 characters"),
        ("-" + "9" * 99, "must be a number from -1e15 to 1e15"),
        ("!!int ''", "must be a number from -1e15 to 1e15 (got '')"),  # IndexError
        ("!!int '-'", "must be a number from -1e15 to 1e15 (got '-')"),
        ("!!int '0x'", "must be a number from -1e15 to 1e15 (got '0x')"),
        ("!!float 'abc'", "must be a number from -1e15 to 1e15 (got 'abc')"),
        ("!!float '1:'", "must be a number from -1e15 to 1e15 (got '1:')"),
        (".nan", "must be a number from -1e15 to 1e15 (got '.nan')"),
        ("-.inf", "must be a number from -1e15 to 1e15 (got '-.inf')"),
    ],
)
def test_numbers_that_are_not_numbers_are_located_problems(number: str, message: str) -> None:
    errors = _errors(_text(out_range=f"[0, {number}]"))
    assert _has(errors, f"h.yaml:10: output.range: {message}"), errors
    assert _has(_errors(_text(weight=number)), f"h.yaml:14: rules[0].weight: {message}")


@pytest.mark.parametrize(
    ("condition", "column"),
    [
        ("(" * 330 + "a is t" + ")" * 330, 104),
        ("not " * 900 + "a is t", 404),
        ("not (" * 60 + "a is t" + ")" * 60, 254),
        ("(" * 60 + "not " * 60 + "a is t" + ")" * 60, 224),
    ],
)
def test_rules_nested_too_deep_are_located_problems(condition: str, column: int) -> None:
    # RecursionError before.
    errors = _errors(_text(rule=f"if {condition} then y is o"))
    assert _has(errors, f"h.yaml:13: rules[0]: rule syntax: 'not' and parentheses may nest at "
                        f"most 100 levels deep (got level 101) at column {column}"), errors
    assert max(map(len, errors)) < 300  # the rule is shown shortened


def test_rules_nested_100_deep_load_and_grade() -> None:
    assert MAX_NESTING == 100
    for cond in ("(" * 100 + "a is t" + ")" * 100, "not " * 100 + "a is t",
                 "not (" * 50 + "a is t" + ")" * 50):
        rb, problems = parse_rulebase(_text(rule=f"if {cond} then y is o"))
        assert rb is not None, problems
        rb.rule_texts()
        compile_rulebase(rb).grade([[5.0]])
    with pytest.raises(RuleSyntaxError, match="at most 100 levels deep"):
        parse_rule("if " + "not " * 101 + "a is t then y is o")


DEEP_YAML = [
    ("extra: " + "[" * 2000 + "]" * 2000, 15),
    ("extra: " + "{a: " * 2000 + "1" + "}" * 2000, 15),
    ("extra:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 400)) + " " * 400 + "x: 1", 115),
    ("extra:\n" + "- " * 1000 + "1", 16),
]


@pytest.mark.parametrize(("tail", "line"), DEEP_YAML)
def test_deeply_nested_yaml_is_a_located_problem(tail: str, line: int) -> None:
    # RecursionError before.
    assert MAX_YAML_DEPTH == 100
    errors = _errors(_text() + tail + "\n")
    assert errors == [f"h.yaml:{line}: (yaml): lists and mappings may nest at most 100 levels "
                      "deep (got level 101)"]


def test_yaml_nested_100_deep_is_only_an_unknown_key() -> None:
    errors = _errors(_text() + "extra: " + "[" * 99 + "]" * 99 + "\n")
    assert errors == ["h.yaml:15: extra: unknown key; allowed here: name, description, "
                      "made_by, defuzzifier, default, resolution, inputs, output, rules"]


def test_characters_yaml_refuses_are_one_located_line() -> None:
    # Two lines before: PyYAML's ReaderError names the position on a line of its own.
    errors = _errors(_text() + "extra: a\x07b\n")
    assert errors == ["h.yaml:15: (yaml): not valid YAML: special characters are not allowed "
                      "(got character #x0007)"]


def _with_recursion_limit(headroom: int, fn: Callable[[], Any]) -> Any:
    def depth() -> int:
        frame: Any = sys._getframe()
        n = 0
        while frame is not None:
            frame, n = frame.f_back, n + 1
        return n

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(depth() + headroom)
    try:
        return fn()
    finally:
        sys.setrecursionlimit(old)


def test_running_out_of_stack_while_reading_yaml_is_a_located_problem() -> None:
    text = _text() + "extra: " + "[" * 90 + "]" * 90 + "\n"
    rb, problems = _with_recursion_limit(120, lambda: parse_rulebase(text, "h.yaml"))
    assert rb is None
    assert [str(p) for p in problems] == [
        "h.yaml:15: (yaml): nested too deeply to read (ran out of stack)"]


def test_hostile_files_raise_only_rulebase_error(tmp_path: Path) -> None:
    for i, text in enumerate([
        _text(out_range="[0, " + "1" * 401 + "]"),
        _text(rule="if " + "(" * 330 + "a is t" + ")" * 330 + " then y is o"),
        _text() + "extra: " + "[" * 3000 + "]" * 3000,
        '"key\nwith a break": 1\n' + _text(),
    ]):
        path = tmp_path / f"h{i}.yaml"
        path.write_text(text)
        with pytest.raises(RuleBaseError) as info:
            load_rulebase(path)
        assert all(p.line is not None for p in info.value.problems)
        assert all("\n" not in str(p) for p in info.value.problems)


def test_rulebase_check_checks_every_file_even_after_pathological_ones(tmp_path: Path) -> None:
    files = []
    for name, text in [
        ("digits.yaml", _text(out_range="[0, " + "1" * 5001 + "]")),
        ("parens.yaml", _text(rule="if " + "(" * 330 + "a is t" + ")" * 330 + " then y is o")),
        ("nots.yaml", _text(rule="if " + "not " * 900 + "a is t then y is o")),
        ("deep.yaml", _text() + "extra: " + "[" * 3000 + "]" * 3000),
        ("fine.yaml", _text()),
    ]:
        (tmp_path / name).write_text(text)
        files.append(str(tmp_path / name))
    result = CliRunner().invoke(app, ["rulebase", "check", *files, "tipping"])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr
    for f in files[:4]:
        assert f"{f}: 1 error(s)" in result.stdout
    assert f"{files[4]}: ok (1 inputs, 1 rules" in result.stdout
    assert "tipping.yaml: ok" in result.stdout


# --- 3. what is read ------------------------------------------------------------------


def _within(seconds: float, fn: Callable[[], Any]) -> Any:
    """fn(), failing (not hanging) when it takes longer than ``seconds``."""
    out: list[Any] = []
    failed: list[BaseException] = []

    def target() -> None:
        try:
            out.append(fn())
        except BaseException as exc:  # handed to the caller's thread
            failed.append(exc)

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), "hangs"
    if failed:
        raise failed[0]
    return out[0]


def _refused(path: str, fragment: str) -> None:
    with pytest.raises(RuleBaseError) as info:
        _within(20, lambda: read_rulebase_text(path))
    message = str(info.value)
    assert "\n" not in message and message.startswith(f"{path}: (file): ") and fragment in message
    rb, problems = _within(20, lambda: check_rulebase(path))
    assert rb is None and [str(p) for p in problems] == [message]
    with pytest.raises(RuleBaseError):
        _within(20, lambda: load_rulebase(path))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_is_refused_at_once() -> None:
    _refused("/dev/zero", "must be a regular file (got a character device)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "rb.yaml"
    os.mkfifo(fifo)
    _refused(str(fifo), "must be a regular file (got a FIFO)")


def test_a_directory_is_refused(tmp_path: Path) -> None:
    _refused(str(tmp_path), "must be a regular file (got a directory)")


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    _refused(str(tmp_path / "none.yaml"), "cannot be read: No such file or directory")


def test_a_file_over_10_mb_is_refused_unread(tmp_path: Path) -> None:
    assert MAX_RULEBASE_BYTES == 10_000_000
    big = tmp_path / "big.yaml"
    with big.open("wb") as f:
        f.truncate(MAX_RULEBASE_BYTES + 1)  # sparse: nothing to write
    _refused(str(big), "must be at most 10,000,000 bytes (got 10,000,001)")


def test_the_cap_counts_bytes_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _text()
    path = tmp_path / "rb.yaml"
    path.write_text(text)
    monkeypatch.setattr(loading, "MAX_RULEBASE_BYTES", len(text.encode()))
    assert read_rulebase_text(path) == text
    monkeypatch.setattr(loading, "MAX_RULEBASE_BYTES", len(text.encode()) - 1)
    _refused(str(path), f"must be at most {len(text.encode()) - 1:,} bytes")


def test_text_is_read_like_read_text(tmp_path: Path) -> None:
    path = tmp_path / "rb.yaml"
    path.write_bytes(_text().replace("\n", "\r\n").encode())
    assert read_rulebase_text(path) == path.read_text(encoding="utf-8") == _text()
    path.write_bytes(b"name: \xff\n")
    _refused(str(path), "must be UTF-8 text (got invalid start byte at byte 6)")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_rulebase_check_goes_on_after_files_that_are_not_files(tmp_path: Path) -> None:
    fine = tmp_path / "fine.yaml"
    fine.write_text(_text())
    result = _within(60, lambda: CliRunner().invoke(
        app, ["rulebase", "check", "/dev/zero", str(tmp_path), str(fine)]))
    assert result.exit_code == 1
    assert "/dev/zero: (file): must be a regular file (got a character device)" in result.stderr
    assert f"{tmp_path}: (file): must be a regular file (got a directory)" in result.stderr
    assert f"{fine}: ok" in result.stdout


# --- fuzzing: hostile mutations of valid files ------------------------------------------

VALID = [shortened(p.read_text()) for p in SHIPPED]  # learned bases cut (tests/corpus.py)
HOSTILE = [
    "1" * 401, "9" * 5001, "0x" + "f" * 300, "1" + ":59" * 300, "!!int ''", "!!float x",
    "1.0e+308", "-1.0e+308", "5.0e-324", "1.0e-200", "[" * 500 + "]" * 500,
    "{a: " * 300 + "1" + "}" * 300, "- " * 300 + "x", "not " * 600 + "x is y", "(" * 400,
    ")" * 400, "&a [1, *a]", "*undefined", "!!binary aGk=", "!!python/object:os.system x",
    "<<: {a: 1}", "? [a, b]", "!!timestamp 2001-12-14", "'\\x00'", "\"a\\nb\"", "~", "!!set {}",
    "1e15", "1.0e+15", "999999999999999.9", "-0.0", "0o17", "0b101", "+.inf",
]


NUMBER = re.compile(r"(?<![\w.])-?[0-9]+(?:\.[0-9]+)?(?![\w.])")
CONDITION = re.compile(r"(?<=if ).*?(?= then)")
SCALAR = re.compile(r"(?<=: )[^\s#{}\[\],]+|(?<=\[)[^\s#{}\[\],]+|(?<=, )[^\s#{}\[\],]+")


@st.composite
def hostile(draw: st.DrawFn) -> str:
    """A shipped rule base with a few numbers, scalars or conditions made hostile."""
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 3))):
        pattern = draw(st.sampled_from([NUMBER, NUMBER, SCALAR, CONDITION]))
        spots = list(pattern.finditer(text))
        if not spots:
            continue
        m = spots[draw(st.integers(0, len(spots) - 1))]
        if pattern is CONDITION:
            k = draw(st.sampled_from([1, 99, 100, 101, 400, 1000]))
            new = draw(st.sampled_from(["not " * k + m[0], "(" * k + m[0] + ")" * k]))
        else:
            new = draw(st.sampled_from(HOSTILE))
        text = text[: m.start()] + new + text[m.end():]
    return text


@settings(max_examples=300)
@given(hostile())
def test_hostile_mutations_give_only_problems_or_rule_bases_that_grade(text: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow or invalid-value warnings too
        rb, problems = parse_rulebase(text, "fuzz.yaml")
        if rb is None:
            assert any(p.severity == "error" for p in problems)
            assert all(str(p).startswith("fuzz.yaml") and "\n" not in str(p) for p in problems)
            return
        ev = compile_rulebase(rb)
        lo, hi = ev.lo, ev.hi
        xs = np.stack([lo, hi, (lo + hi) / 2, lo + (hi - lo) / 3])
        grades = ev.grade(xs)
    assert np.isfinite(grades).all()
    assert ((grades >= rb.output.lo) & (grades <= rb.output.hi)).all()


def test_limits_are_what_the_format_guide_says() -> None:
    readme = (ROOT / "docs" / "rulebase-format.md").read_text()
    assert MAX_MAGNITUDE == 1e15 and RESOLUTION == 1e-9
    for fragment in ("1e15", "1e-9", "10 MB", "100 levels"):
        assert fragment in readme


def test_a_mapping_rule_without_its_rule_and_an_adjusted_conclusion_are_located() -> None:
    """tipping.yaml's output terms are on line 26 and its fourth rule, a mapping, on 31:
    each problem names its line and says what must hold."""
    text = (ROOT / "rulebases" / "tipping.yaml").read_text()
    text = text.replace("  - rule: if quality is good then tip is high\n    weight",
                        "  - weight", 1)  # the rule's weight, without its rule
    text = text.replace("high: [13, 25, 25]}", "high: {points: [13, 25, 25], adjust: [peak]}}",
                        1)
    rb, problems = parse_rulebase(text, "t.yaml")
    assert rb is None
    shown = [str(p) for p in problems if "warning" not in str(p)]
    assert shown == [
        "t.yaml:26: output.terms.high.adjust: only input terms can be adjusted: the "
        "calibrator moves points toward the mean of winning inputs",
        "t.yaml:31: rules[3]: a rule written as a mapping needs 'rule: if ... then ...'"]
