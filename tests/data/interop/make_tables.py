"""Make the agreement tables of tests/data/interop/tables/: the outputs that pyfuzzylite 8
(for the .fll controllers) and fuzzylab 0.13 (for the .fis ones, an Octave port) compute
on seeded inputs. tests/test_formats_agreement.py compares fuzzeval against them.

pyfuzzylite is GPL-3.0 (and pins numpy < 2) and fuzzylab derives from Octave's GPL
fuzzy-logic-toolkit, so neither is a dependency of fuzzeval: run this script in a
separate virtual environment outside the repository, from the repository's root:

    python3 -m venv /tmp/fl-env
    /tmp/fl-env/bin/pip install "pyfuzzylite==8.*" "fuzzylab==0.13" matplotlib
    /tmp/fl-env/bin/python tests/data/interop/make_tables.py [FILE ...]   # e.g. tipper.fis; all

(fuzzylab imports matplotlib.) Only the numbers these libraries compute are shipped.
The inputs are seeded (numpy's default_rng, seed 30 and the file's place in CONTROLLERS),
so a second run writes the same tables. It takes about three minutes: the centroid is
integrated on 1,000,000 cells (pyfuzzylite) or 100,001 points (fuzzylab).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

HERE = Path("tests/data/interop")
OUT = HERE / "tables"
#: (file, resolution of the centroid or None for the file's own) in a fixed order
CONTROLLERS = [
    ("tipper.fll", 1_000_000),
    ("tsk_average.fll", None),
    ("tsk_sum.fll", None),
    ("tipping.fll", None),  # written by `fuzzeval rulebase export tipping`: its own 10,000
    ("tipper.fis", 100_001),
    ("tsk_average.fis", None),
    # shipped rule bases as `fuzzeval rulebase export` writes them: hearts's not (a or b)
    # goes by De Morgan's law; cribbage_pegging is a sugeno system (weighted average)
    ("hearts.fll", None),
    ("cribbage_pegging.fis", None),
]
ROWS = 200


def inputs(ranges: list[tuple[float, float]], seed: int, outside: bool) -> np.ndarray:
    """The corners and middle of the input box, then ROWS seeded rows, reaching 20 % beyond
    each range where the file clips inputs (FLL's lock-range) and inside it otherwise."""
    lo = np.array([r[0] for r in ranges])
    hi = np.array([r[1] for r in ranges])
    fixed = [lo, hi, (lo + hi) / 2]
    rng = np.random.default_rng([30, seed])
    pad = 0.2 * (hi - lo) if outside else 0.0 * lo
    drawn = rng.uniform(lo - pad, hi + pad, size=(ROWS, len(ranges)))
    return np.vstack([*fixed, drawn])


def fll_table(path: Path, resolution: int | None, seed: int) -> tuple[list[str], list[list[float]]]:
    import fuzzylite as fl

    engine = fl.FllImporter().from_file(str(path))
    out = engine.output_variables[0]
    centroid = isinstance(out.defuzzifier, fl.Centroid)
    if centroid and resolution is not None:
        out.defuzzifier = fl.Centroid(resolution)
    names = [v.name for v in engine.input_variables]
    x = inputs([(v.minimum, v.maximum) for v in engine.input_variables], seed, True)
    rows = []
    for k, row in enumerate(x):
        for v, value in zip(engine.input_variables, row, strict=True):
            v.value = float(value)
        engine.process()
        grade = float(np.asarray(out.value).reshape(-1)[0])
        extra = []
        if centroid:
            n = out.defuzzifier.resolution
            h = (out.maximum - out.minimum) / n
            mids = out.minimum + (np.arange(n) + 0.5) * h
            extra = [float(np.sum(out.fuzzy.membership(mids)) * h), n]
        rows.append([*map(float, row), grade, *extra])
        if k % 50 == 0:
            print(f"  {path.name}: {k}/{len(x)}", file=sys.stderr)
    header = [*names, out.name, *(["area", "cells"] if centroid else [])]
    return header, rows


def fis_table(path: Path, resolution: int | None, seed: int) -> tuple[list[str], list[list[float]]]:
    import importlib

    import fuzzylab as fz

    ev = importlib.import_module("fuzzylab.evalfis")  # the package's evalfis is a function

    fis = fz.readfis(str(path))
    names = [v.Name for v in fis.Inputs]
    out = fis.Outputs[0]
    centroid = fis.Type == "mamdani"
    n = resolution or 101
    x = inputs([tuple(v.Range) for v in fis.Inputs], seed, False)
    rows = []
    for k, row in enumerate(x):
        grade = float(np.asarray(fz.evalfis(fis, row, num_points=n)).reshape(-1)[0])
        extra = []
        if centroid:  # the aggregated set as evalfis samples it, for the grid's area
            strength = ev.eval_firing_strength(fis, ev.fuzzify_input(fis, row))
            y = ev.aggregate_output_mamdani(fis, ev.eval_rules_mamdani(fis, strength, n))
            h = (out.Range[1] - out.Range[0]) / (n - 1)
            extra = [float(np.sum(y[:, 0]) * h), n]
        rows.append([*map(float, row), grade, *extra])
        if k % 50 == 0:
            print(f"  {path.name}: {k}/{len(x)}", file=sys.stderr)
    header = [*names, out.Name, *(["area", "points"] if centroid else [])]
    return header, rows


def main(only: list[str]) -> None:
    """Every table, or those of the files named on the command line."""
    import warnings

    warnings.simplefilter("ignore", RuntimeWarning)  # 0/0 where no rule fires: nan
    OUT.mkdir(exist_ok=True)
    for seed, (name, resolution) in enumerate(CONTROLLERS):
        if only and name not in only:
            continue
        path = HERE / name
        tool = "pyfuzzylite" if path.suffix == ".fll" else "fuzzylab"
        make = fll_table if path.suffix == ".fll" else fis_table
        header, rows = make(path, resolution, seed)
        target = OUT / f"{path.stem}_{path.suffix[1:]}_{tool}.csv"
        with target.open("w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header)
            w.writerows([repr(v) if isinstance(v, float) else str(v) for v in r] for r in rows)
        print(f"{target}: {len(rows)} rows", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
