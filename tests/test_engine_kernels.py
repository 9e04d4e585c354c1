"""The compiled engine against an independent reference written from the documented
semantics (tests/independent_engine.py: no rule compiler, side slopes or defuzzifier of the
engine's), on every shipped rule base and on random ones: the same weighted averages to
rounding, the same centroids to 1e-10 of the output's range (the engine draws a vertical
side as a slope 1e-12 of the range wide, the reference exactly)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from fuzzeval import compile_rulebase, load_rulebase
from fuzzeval.engine.rulebase import RuleBase
from tests.independent_engine import compile_plain
from tests.strategies import rulebases

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulebases").glob("*.yaml"))


def _rows(rb: RuleBase, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    lo = np.array([v.lo for v in rb.inputs])
    hi = np.array([v.hi for v in rb.inputs])
    span = hi - lo
    return lo - 0.1 * span + 1.2 * span * rng.random((n, len(rb.inputs)))  # some outside


def _agree(rb: RuleBase, xs: np.ndarray) -> None:
    _close(rb, compile_rulebase(rb).grade(xs), compile_plain(rb).grade(xs))


def _close(rb: RuleBase, got: np.ndarray, want: np.ndarray) -> None:
    scale = max(1.0, abs(rb.output.lo), abs(rb.output.hi))
    if rb.defuzzifier == "weighted_average":  # the same sums in another order
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * scale)
    else:
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-10 * scale)


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_rulebase_grades_as_before(path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # old names load with a FutureWarning
        rb = load_rulebase(path)
    xs = _rows(rb, 3000, 1)
    # One compiled base and one reference pass (a row's reference grade is computed from
    # that row alone): the engine's batches of 1, 2 and 20 rows against its first rows.
    ev = compile_rulebase(rb)
    want = compile_plain(rb).grade(xs)
    _close(rb, ev.grade(xs), want)
    for size in (1, 2, 20):
        _close(rb, ev.grade(xs[:size]), want[:size])


@given(rb=rulebases(defuzzifier=["centroid", "weighted_average", "weighted_sum"]),
       seed=st.integers(0, 2**32 - 1), n=st.integers(0, 40))
def test_random_rulebases_grade_as_before(rb: RuleBase, seed: int, n: int) -> None:
    _agree(rb, _rows(rb, n, seed))


@st.composite
def _terms_and_activations(draw: st.DrawFn) -> tuple[list[tuple[float, float, float]],
                                                     np.ndarray]:
    """Output terms on [0, 10] with shoulders, vertical sides and shared points, and
    activations of which some are 0 and some equal."""
    grid = st.sampled_from([0.0, 1.0, 2.5, 3.0, 4.0, 5.0, 6.5, 7.0, 9.0, 10.0])
    terms = [tuple(sorted(draw(st.tuples(grid, grid, grid))))
             for _ in range(draw(st.integers(1, 6)))]
    level = st.sampled_from([0.0, 0.0, 0.25, 0.5, 0.5, 0.8, 1.0])
    act = np.array([[draw(level) for _ in terms] for _ in range(draw(st.integers(1, 6)))])
    return terms, act  # type: ignore[return-value]


@given(_terms_and_activations())
def test_the_centroid_visits_only_the_points_that_can_kink(
    case: tuple[list[tuple[float, float, float]], np.ndarray],
) -> None:
    """Skipping the points of terms that did not fire, and levels a side clipped lower never
    reaches, gives the exact centroid of the reference, which cuts at every point (to 1e-9
    of the range: the engine draws a vertical side as a slope 1e-12 of the range wide).
    Singletons, which have no area, are not output terms of a centroid rule base."""
    from fuzzeval.engine.defuzzify import centroid, plan_centroid
    from fuzzeval.engine.membership import Triangle
    from tests import independent_engine

    terms, act = case
    tris = [Triangle(*t) for t in terms]
    assume(all(t.left < t.right for t in tris))
    got = centroid(plan_centroid(tris, 0.0, 10.0), act, -1.0)
    want = independent_engine.centroid(tris, 0.0, 10.0, act, -1.0)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9 * 10)


@pytest.mark.mutation_pin
def test_jit_says_numba_is_loaded_once_a_kernel_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.engine.kernels import jit

    monkeypatch.setattr(jit, "_loaded", False)  # the rest of the session keeps its own
    assert jit.loaded() is False

    def twice(x: float) -> float:
        return 2 * x

    k = jit.Kernel(twice)
    assert jit.loaded() is False  # not yet: numba is imported on first use
    k.dispatcher()
    assert jit.loaded() is True
