"""benchmarks/peers.py without its timings: the generated rule bases have the sizes asked
for, and each peer's translation of a rule base grades as fuzzeval does. scikit-fuzzy is a
project dependency, so its comparison always runs; pyfuzzylite and simpful are compared where
they are installed (the separate benchmark environment of docs/benchmarks.md)."""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import io
import os
import random
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from fuzzeval.engine.evaluator import compile_rulebase
from fuzzeval.engine.rulebase import And, Condition, Is, Not, Or
from fuzzeval.formats.loading import parse_rulebase

ROOT = Path(__file__).resolve().parent.parent
# scikit-fuzzy 0.5.0 on numpy 2 (as in tests/test_reference.py)
pytestmark = pytest.mark.filterwarnings(
    "ignore:Passing more than 2 positional arguments:DeprecationWarning"
)


@pytest.fixture(scope="module")
def peers() -> ModuleType:
    """benchmarks/peers.py as a module; the thread pins it sets on import are undone."""
    saved, path = dict(os.environ), list(sys.path)
    try:
        spec = importlib.util.spec_from_file_location("bench_peers", ROOT / "benchmarks" /
                                                      "peers.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
        return module
    finally:
        os.environ.clear()
        os.environ.update(saved)
        sys.path[:] = path


def degree(cond: Condition, mu: dict[tuple[str, str], float]) -> float:
    if isinstance(cond, Is):
        return mu[(cond.variable, cond.term)]
    if isinstance(cond, Not):
        return 1.0 - degree(cond.operand, mu)
    parts = [degree(c, mu) for c in cond.operands]
    return min(parts) if isinstance(cond, And) else max(parts)


def test_the_generator_builds_every_size_asked_for(peers: ModuleType) -> None:
    sizes = peers.base_sizes()
    assert (15, 30) in sizes
    assert {r for i, r in sizes if i == 15} == {10, 30, 100, 300, 1000}
    assert {i for i, r in sizes if r == 30} == {5, 15, 30, 45}
    for n_inputs, n_rules in sizes:
        rb_wa, rb_c = peers.rulebases(n_inputs, n_rules)
        for rb, defuzzifier in ((rb_wa, "weighted_average"), (rb_c, "centroid")):
            assert (len(rb.inputs), len(rb.rules), rb.defuzzifier) == (n_inputs, n_rules,
                                                                       defuzzifier)
            assert len(set(rb.input_names)) == n_inputs
            assert sum(r.weight != 1.0 for r in rb.rules) == round(n_rules / 6)
            _, problems = parse_rulebase(peers.bench.rulebase_yaml(defuzzifier, 7, n_rules,
                                                                   n_inputs))
            assert not [p for p in problems if p.severity == "error"]
        # Every row fires a rule: scikit-fuzzy's array mode needs it.
        xs = peers.bench.random_rows(rb_wa, 200, seed=3)
        assert (compile_rulebase(rb_wa).strengths(xs).sum(axis=1) > 0).all()


def test_the_benchmark_base_is_the_default_and_warning_free(peers: ModuleType) -> None:
    text = peers.bench.rulebase_yaml("centroid", 7)
    assert text == peers.bench.rulebase_yaml("centroid", 7, n_rules=30, n_inputs=15)
    assert parse_rulebase(text)[1] == []
    assert peers.bench.input_names(17)[14:] == ("hand_value", "material_2", "mobility_2")
    with pytest.raises(ValueError, match="need >= 3 inputs"):
        peers.bench.rulebase_yaml("centroid", 7, n_inputs=2)


def test_negations_move_inward_without_changing_a_degree(peers: ModuleType) -> None:
    rb, _ = peers.rulebases(15, 300)
    rng = random.Random(5)
    keys = [(v.name, t.name) for v in rb.inputs for t in v.terms]
    nested = Not(And((Is("material", "low"), Not(Or((Is("space", "mid"),
                                                     Not(Is("tempo", "high"))))))))
    for _ in range(20):
        mu = {k: rng.random() for k in keys}
        for cond in [r.condition for r in rb.rules] + [nested]:
            moved = peers.negation_inward(cond)
            assert abs(degree(moved, mu) - degree(cond, mu)) <= 1e-15
            assert "not (" not in peers.fuzzylite_text(moved)


def test_rule_texts_in_each_peers_syntax(peers: ModuleType) -> None:
    cond = And((Or((Not(Is("a", "low")), Is("b", "mid"))), Is("c", "high")))
    assert peers.fuzzylite_text(peers.negation_inward(cond)) == (
        "((a is not low or b is mid) and c is high)")
    # simpful reads a text starting "(NOT" as one negation: a negation is wrapped twice.
    assert peers.simpful_text(cond) == (
        "((((NOT (a IS low))) OR (b IS mid)) AND (c IS high))")


def grades_agree(peers: ModuleType, peer: str, n_inputs: int = 5, n_rules: int = 30) -> None:
    rb_wa, rb_c = peers.rulebases(n_inputs, n_rules)
    with contextlib.redirect_stdout(io.StringIO()):
        cs = peers.peer_contenders(peer, rb_wa, rb_c)
    assert tuple(c.label for c in cs) == peers.LABELS[peer]
    xs = peers.bench.random_rows(rb_wa, 8, seed=2)
    xs[0] = [v.lo for v in rb_wa.inputs]  # the edges of every range
    xs[1] = [v.hi for v in rb_wa.inputs]
    for c in cs:
        for x in (xs[:1], xs):
            cell = peers.Cell()
            peers.checked_call(c, x, cell)  # stops the run (SystemExit) past the limit
            assert cell.max_diff <= c.limit


def test_scikit_fuzzy_grades_as_fuzzeval_does(peers: ModuleType) -> None:
    grades_agree(peers, "scikit-fuzzy")


def test_pyfuzzylite_grades_as_fuzzeval_does(peers: ModuleType) -> None:
    pytest.importorskip("fuzzylite")
    grades_agree(peers, "pyfuzzylite")
    grades_agree(peers, "pyfuzzylite", 15, 100)


def test_simpful_grades_as_fuzzeval_does(peers: ModuleType) -> None:
    pytest.importorskip("simpful")
    grades_agree(peers, "simpful", 5, 10)


def test_a_peer_that_disagrees_stops_the_run(peers: ModuleType) -> None:
    _, rb_c = peers.rulebases(5, 10)
    ev = compile_rulebase(rb_c)
    wrong = peers.Contender("scikit-fuzzy", peers.CENTROID, lambda x: ev.grade(x) + 0.01,
                            ev.grade, 0.002)
    with pytest.raises(SystemExit, match="disagrees with fuzzeval"):
        peers.checked_call(wrong, peers.bench.random_rows(rb_c, 5, seed=1), peers.Cell())


def test_a_tiny_run_reports_in_80_columns_and_plots(peers: ModuleType, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The machinery end to end on fuzzeval alone (peers absent), with no time to speak of."""
    monkeypatch.setattr(peers, "peer_versions", lambda: {d: None for d, _ in peers.PEERS})
    settings = peers.Settings(repeat=1, budget=1.0, min_time=0.0, big=100, variants=2)
    # no timing is checked: the full collection before each sample (a tenth of a second
    # each in a test process's heap, 30 of them) is skipped; gc is still off while timing
    monkeypatch.setattr(peers, "gc", SimpleNamespace(collect=lambda: 0, disable=gc.disable,
                                                     enable=gc.enable))
    results: dict[str, Any] = peers.run(settings, quick=True, log=lambda _m: None)
    assert set(results["bases"]) == {f"{i}x{r}" for i, r in peers.base_sizes(quick=True)}
    cell = results["bases"]["15x30"]["cells"]["fuzzeval wavg"]["100"]
    assert cell["us_per_call"] > 0 and cell["max_diff"] == 0
    lines: list[str] = []
    peers.report(results, lines.append)
    assert max(len(line) for line in lines) <= 80
    assert sum("not installed here: skipped" in line for line in lines) == 3
    md: list[str] = []
    peers.markdown(results, md.append)
    assert sum(line.startswith("| fuzzeval wavg |") for line in md) == 3 + 6
    peers.plot(results, tmp_path / "peers.png")
    assert (tmp_path / "peers.png").read_bytes()[:4] == b"\x89PNG"


def test_a_slow_build_is_foreseen_not_waited_for(peers: ModuleType) -> None:
    """scikit-fuzzy took 7.5 s to build 100 rules and 100 s for 300 (1,000: not waited for)."""
    assert peers.predicted_build([], 15, 1000) == 0
    done = [(15, 30, 1.8), (15, 100, 7.5)]
    assert peers.predicted_build(done, 15, 300) == pytest.approx(67.5)
    assert peers.predicted_build(done, 45, 30) == pytest.approx(5.4)
    assert peers.predicted_build(done, 5, 30) == pytest.approx(1.8)
