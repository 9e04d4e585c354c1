"""The flat kernel (``compiled.grade_flat``): a base whose every rule is a term or an
``and`` of terms (every learned conjunction base) is graded without the register program,
skipping runs of rules whose leading terms are 0. It must give the program's doubles
exactly, so that a learn or a match is the same bytes whichever path graded it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzzeval import compile_rulebase, load_rulebase
from fuzzeval.engine.evaluator import Evaluator
from fuzzeval.engine.kernels import compiled, numpy_twins
from fuzzeval.engine.rulebase import And, Is, Rule, RuleBase, Term, Variable
from fuzzeval.formats.loading import parse_rulebase
from tests.strategies import triangles


def _program_grades(ev: Evaluator, xs: np.ndarray) -> np.ndarray:
    out = np.empty(len(xs))
    assert compiled.grade_wa(xs, out, *ev._program(), ev.values, float(ev.rulebase.default),
                             ev.normalise) == -1
    return out


def _flat_grades(ev: Evaluator, xs: np.ndarray) -> np.ndarray:
    assert ev.flat is not None
    out = np.empty(len(xs))
    assert compiled.grade_flat(xs, out, ev.term_col, ev.term_par, *ev.flat, ev.weights,
                               ev.values, float(ev.rulebase.default), ev.normalise) == -1
    return out


def _layered(tails: str = "yz") -> str:
    """A base laid out as ``fuzzeval learn`` lays its conjunctions: a group atom ``g``,
    then each term of ``x`` with every term of ``y`` and of ``z``; each rule its own
    conclusion, rule k's worth 0.25 k - 3."""
    rules = ["g is far", "g is far and x is t0", "g is far and x is t1", "g is far and x is t2",
             "g is near"]
    rules += [f"g is near and x is t{i} and {v} is t{j}"
              for i in range(4) for v in tails for j in range(4)]
    return "\n".join([
        "name: layered", "defuzzifier: weighted_sum", "default: 0", "inputs:",
        "  g:", "    range: [0, 1]", "    terms: {far: [0, 0, 1], near: [0, 1, 1]}",
        *[f"  {v}:\n    range: [0, 3]\n    terms: {{t0: [0, 0, 1], t1: [0, 1, 2], "
          f"t2: [1, 2, 3], t3: [2, 3, 3]}}" for v in "x" + tails],
        "output:", "  name: value", "  range: [-100, 100]",
        "  terms: {" + ", ".join(f"r{k}: {0.25 * k - 3.0}" for k in range(len(rules))) + "}",
        "rules:", *[f"  - if {r} then value is r{k}" for k, r in enumerate(rules)], ""])


def _compiled(text: str) -> Evaluator:
    rb, problems = parse_rulebase(text, "layered.yaml")
    assert rb is not None and not problems, problems
    return compile_rulebase(rb)


def test_the_segments_follow_the_learned_layout_by_hand() -> None:
    """Registers: g far 0, near 1; x t0..t3 2-5; y 6-9; z 10-13. The four ``g is far`` rules
    are too few to test (one segment, -1); ``g is near`` alone is tested on g; each term of
    x leads 8 rules (4 of y, 4 of z): tested on g and that term."""
    ev = _compiled(_layered())
    assert ev.flat is not None
    atoms, segments = ev.flat
    assert segments.tolist() == [[0, 4, -1, -1], [4, 5, 1, 1], [5, 13, 1, 2],
                                 [13, 21, 1, 3], [21, 29, 1, 4], [29, 37, 1, 5]]
    assert atoms.shape == (37, 3)
    assert atoms[0].tolist() == [0, 0, 0]  # "g is far": its one term, repeated
    assert atoms[1].tolist() == [0, 2, 0]  # "g is far and x is t0"
    assert atoms[5].tolist() == [1, 2, 6]  # "g is near and x is t0 and y is t0"
    assert atoms[36].tolist() == [1, 5, 13]  # "g is near and x is t3 and z is t3"


def test_short_runs_under_one_term_share_one_test_by_hand() -> None:
    """Without the z rules each term of x leads 4 rules, too few for a test of their own:
    the 16 share one segment tested on g alone (registers: g 0-1, x 2-5, y 6-9)."""
    ev = _compiled(_layered("y"))
    assert ev.flat is not None
    assert ev.flat[1].tolist() == [[0, 4, -1, -1], [4, 21, 1, 1]]


def test_rules_of_one_or_two_terms_are_laid_out_in_three_columns_by_hand() -> None:
    """The kernel reads three atoms a rule unrolled: a base of ones and pairs has its
    first term repeated to three (a minimum unchanged). Registers: g far 0, near 1; x
    t0..t3 2-5. At g = 1, x = 1 only "g is near" (r4: -2.0) fires; at g = 0, x = 1 "g is
    far" (r0: -3.0) and "g is far and x is t1" (r2: -2.5). No rule reads x's t3: it has
    no register."""
    rb, _ = parse_rulebase(_layered(""), "layered.yaml")  # warned of t3, no error
    assert rb is not None
    ev = compile_rulebase(rb)
    assert ev.flat is not None
    atoms, _ = ev.flat
    assert atoms.tolist() == [[0, 0, 0], [0, 2, 0], [0, 3, 0], [0, 4, 0], [1, 1, 1]]
    xs = np.array([[1.0, 1.0], [0.0, 1.0]])
    assert _flat_grades(ev, xs).tolist() == [-2.0, -5.5]


def test_a_skipped_run_adds_nothing_and_a_tested_one_everything_by_hand() -> None:
    """g = 1 (near 1, far 0), x = 1 (t1 only), y = 0.5 (t0 0.5, t1 0.5), z = 3 (t3 only).
    Rules that fire: "g is near" (r4: -2.0) at 1; x t1 with y t0 (r13: 0.25) and y t1
    (r14: 0.5) at 0.5 each, with z t3 (r20: 2.0) at 1. The sum: -2 + 0.125 + 0.25 + 2 =
    0.375. At g = 0 only "g is far" (r0: -3.0) and "g is far and x is t1" (r2: -2.5) at 1:
    -5.5."""
    ev = _compiled(_layered())
    xs = np.array([[1.0, 1.0, 0.5, 3.0], [0.0, 1.0, 0.5, 3.0]])
    assert _flat_grades(ev, xs).tolist() == [0.375, -5.5]
    assert ev.grade(xs).tolist() == [0.375, -5.5]


def test_a_base_with_not_or_or_is_left_to_the_program() -> None:
    for condition in ("x is t0 or y is t1", "not x is t0", "x is t0 and not y is t1"):
        text = _layered().replace("if g is far and x is t0 then",
                                           f"if {condition} then")
        ev = _compiled(text)
        assert ev.flat is None
        assert ev._kernel is compiled.grade_wa


@st.composite
def _flat_bases(draw: st.DrawFn) -> RuleBase:
    """Random conjunction bases, rules drawn in runs that share their leading terms (so
    that segments form and are skipped), weights, both weighted defuzzifiers."""
    inputs = tuple(Variable(f"x{i}", 0.0, 6.0, tuple(
        Term(f"t{k}", draw(triangles(0.0, 6.0))) for k in range(draw(st.integers(1, 3)))))
        for i in range(draw(st.integers(1, 4))))
    atoms = [Is(v.name, t.name) for v in inputs for t in v.terms]
    rules: list[Rule] = []
    for _ in range(draw(st.integers(1, 6))):
        lead = draw(st.lists(st.sampled_from(atoms), min_size=0, max_size=2))
        for _ in range(draw(st.integers(1, 12))):
            tail = draw(st.lists(st.sampled_from(atoms), min_size=0 if lead else 1,
                                 max_size=2))
            parts = (*lead, *tail)
            condition = parts[0] if len(parts) == 1 else And(parts)
            rules.append(Rule(condition, f"r{len(rules)}",
                              draw(st.sampled_from([1.0, 0.5, 0.25]))))
    output = Variable("y", -5.0, 5.0, tuple(
        Term(f"r{k}", draw(triangles(-5.0, 5.0))) for k in range(len(rules))))
    defuzzifier = draw(st.sampled_from(["weighted_average", "weighted_sum"]))
    return RuleBase("flat", defuzzifier, draw(st.sampled_from([-1.0, 0.0, 2.0])),  # type: ignore[arg-type]
                    inputs, output, tuple(rules))


@given(_flat_bases(), st.integers(0, 2**32 - 1))
@settings(max_examples=50)
def test_random_conjunction_bases_grade_bit_for_bit_as_the_program(rb: RuleBase,
                                                                   seed: int) -> None:
    ev = compile_rulebase(rb)
    assert ev.flat is not None
    rng = np.random.default_rng(seed)
    xs = rng.uniform(-1.0, 7.0, (300, len(rb.inputs)))
    xs[::2] = rng.integers(0, 21, (150, len(rb.inputs))) * 0.3  # on the terms' vertices
    want = _program_grades(ev, xs)
    assert _flat_grades(ev, xs).tobytes() == want.tobytes()
    twin = numpy_twins.grade_wa(xs, *ev._program(), ev.values, float(rb.default),
                                ev.normalise)
    assert twin.tobytes() == want.tobytes()


@pytest.mark.parametrize("name", ["hearts_positions_td_queen"])
def test_learned_bases_grade_bit_for_bit_as_the_program(name: str) -> None:
    """The shipped learned bases (thousands of conjunctions), at random points and on the
    terms' vertices: the doubles of the program's kernel, and many of them."""
    rb = load_rulebase(name)
    ev = compile_rulebase(rb)
    assert ev.flat is not None and ev._kernel is compiled.grade_flat
    rng = np.random.default_rng(5)
    lo = np.array([v.lo for v in rb.inputs])
    width = np.array([v.hi - v.lo for v in rb.inputs])
    xs = lo + width * rng.uniform(-0.1, 1.1, (400, len(lo)))
    xs[::2] = np.round(xs[::2])  # the counts a game gives
    want = _program_grades(ev, xs)
    assert ev.grade(xs).tobytes() == want.tobytes()
    assert len(np.unique(want)) > 300
