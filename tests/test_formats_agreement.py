"""fuzzeval agrees with fuzzylite and with the Octave port on our own FLL and FIS
controllers (tests/data/interop/): the tables are what pyfuzzylite 8 and fuzzylab 0.13
computed on seeded inputs (tests/data/interop/make_tables.py, run in a separate environment; neither
library is needed here). Weighted average and weighted sum: within 1e-6 of the output range.
Centroid: within the bound that the reference's grid explains (docs/fuzzylite.md)."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from fuzzeval import compile_rulebase
from fuzzeval.engine.rulebase import RuleBase
from fuzzeval.formats.fll_fis import import_rulebase

DATA = Path(__file__).parent / "data" / "interop"
TABLES = sorted((DATA / "tables").glob("*.csv"))
#: the grade where no rule fires, for the file whose default is nan (fuzzylite's answer)
DEFAULT = -3.0


def _load(table: Path) -> tuple[RuleBase, str, dict[str, np.ndarray]]:
    stem, suffix, tool = table.stem.rsplit("_", 2)
    path = DATA / f"{stem}.{suffix}"
    rb, _ = import_rulebase(path, default=DEFAULT if stem == "tsk_average" and
                            suffix == "fll" else None)
    with table.open(newline="") as f:
        rows = list(csv.DictReader(f))
    columns = {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}
    return rb, tool, columns


def test_every_controller_has_its_table() -> None:
    assert [t.name for t in TABLES] == [
        "cribbage_pegging_fis_fuzzylab.csv", "hearts_fll_pyfuzzylite.csv",
        "tipper_fis_fuzzylab.csv", "tipper_fll_pyfuzzylite.csv",
        "tipping_fll_pyfuzzylite.csv", "tsk_average_fis_fuzzylab.csv",
        "tsk_average_fll_pyfuzzylite.csv", "tsk_sum_fll_pyfuzzylite.csv"]


def grid_bound(rb: RuleBase, h: float, area: float, ends: bool) -> float:
    """How far a centroid summed on cells of width h, each at its middle, can lie from the
    exact one (docs/fuzzylite.md): [h^2 T/6 + h^2 S K (D + h)/4 + 2 h J D] / area, with T
    output terms, S their steepest sloped side, K = 4T + 9T(T-1)/2 breakpoints at most,
    J vertical sides inside the range (+2 for a grid through both ends, as evalfis's),
    D = W + h, area = the grid's own area of the aggregated set."""
    out = rb.output
    n_terms = len(out.terms)
    sides = [s for t in out.terms for s in (t.triangle.peak - t.triangle.left,
                                             t.triangle.right - t.triangle.peak)]
    steepest = max(1 / s for s in sides if s > 0)
    kinks = 4 * n_terms + 9 * n_terms * (n_terms - 1) / 2
    jumps = sum(a == b and out.lo < a < out.hi for t in out.terms
                for a, b in ((t.triangle.left, t.triangle.peak),
                             (t.triangle.peak, t.triangle.right))) + (2 if ends else 0)
    d = out.hi - out.lo + h
    return (h * h * n_terms / 6 + h * h * steepest * kinks * (d + h) / 4
            + 2 * h * jumps * d) / area


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.stem)
def test_fuzzeval_reproduces_the_reference_table(table: Path) -> None:
    rb, tool, col = _load(table)
    ev = compile_rulebase(rb)
    x = np.column_stack([col[n] for n in rb.input_names])
    ref, got = col[rb.output.name], ev.grade(x)
    width = rb.output.hi - rb.output.lo
    assert len(ref) == 203
    # the table is of this file: its first rows are the corners and the middle of its box
    lo, hi = [v.lo for v in rb.inputs], [v.hi for v in rb.inputs]
    assert x[:3].tolist() == [lo, hi, [(a + b) / 2 for a, b in zip(lo, hi, strict=True)]]
    fired = (ev.strengths(x) > 0).any(axis=1)
    # where no rule fires the reference answers nan (no default) and fuzzeval its default
    assert np.array_equal(np.isnan(ref), ~fired if np.isnan(ref).any() else np.zeros_like(
        fired))
    assert np.all(got[~fired] == rb.default)
    ok = ~np.isnan(ref)
    if rb.defuzzifier != "centroid":
        assert np.max(np.abs(got[ok] - ref[ok])) <= 1e-6 * width
        return
    ends = tool == "fuzzylab"  # evalfis samples linspace(lo, hi, points), both ends in
    n = col["points"] - 1 if ends else col["cells"]
    bound = np.array([grid_bound(rb, width / k, a, ends) for k, a in
                      zip(n, col["area"], strict=True)])
    assert np.all(np.abs(got - ref) <= bound)
    assert bound.max() < 2e-3 * width  # the bound says something


def test_what_each_table_exercises() -> None:
    """The cases the tables are for: no rule fires (nan in fuzzylite, the default in
    fuzzeval), a weighted sum beyond the output range, inputs beyond the locked ranges."""
    rb, _, col = _load(DATA / "tables" / "tsk_average_fll_pyfuzzylite.csv")
    assert np.isnan(col["z"]).sum() >= 3
    rb, _, col = _load(DATA / "tables" / "tsk_sum_fll_pyfuzzylite.csv")
    assert col["z"][1] == 14.0 > rb.output.hi  # 10 + 0.4 x 6 + 0.6 x 6 - 0.25 x 8: unclipped
    none = ~(compile_rulebase(rb).strengths(np.column_stack(
        [col[n] for n in rb.input_names])) > 0).any(axis=1)
    assert none.sum() >= 3 and np.all(col["z"][none] == 0.0) and rb.default == 0.0
    rb, _, col = _load(DATA / "tables" / "tipper_fll_pyfuzzylite.csv")
    assert (col["service"] < 0).any() and (col["food"] > 10).any()


def test_the_measured_deviations() -> None:
    """The figures docs/fuzzylite.md reports, as upper limits (relative to the range)."""
    worst = {}
    for table in TABLES:
        rb, _, col = _load(table)
        x = np.column_stack([col[n] for n in rb.input_names])
        ref, got = col[rb.output.name], compile_rulebase(rb).grade(x)
        ok = ~np.isnan(ref)
        worst[table.stem] = np.max(np.abs(got[ok] - ref[ok])) / (rb.output.hi - rb.output.lo)
    assert worst["tipping_fll_pyfuzzylite"] < 1e-8  # the exported Centroid 10000
    assert worst["tipper_fll_pyfuzzylite"] < 1e-6  # 1,000,000 cells, a vertical side
    assert worst["tipper_fis_fuzzylab"] < 5e-6  # 100,001 points
    weighted = [k for k in worst if "tip" not in k]
    assert len(weighted) == 5 and max(worst[k] for k in weighted) < 1e-15
