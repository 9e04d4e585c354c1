from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
from pathlib import Path

# BLAS at one thread, set before numpy loads it (here and in the commands tests start):
# OpenBLAS's default of a thread per core, in each of `pytest -n 2`'s workers and in the
# processes they start, spin-waits for cores the others hold; teaching backgammon's base
# from ten games took 8 s of CPU instead of 1.3 s. The benchmarks pin it the same way.
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
RULEBASES = ROOT / "rulebases"

# Locally hypothesis keeps exploring new examples; CI (.ci/run sets HYPOTHESIS_PROFILE=ci)
# runs a fixed, derandomised set, so a red build is the same red build when run again.
settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True,
                          print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Parsed rule-base files are cached for later processes (fuzzeval.formats.loading): the tests', and
# the commands they start, keep theirs in a folder of their own, so that no test reads what
# another run, or the user's own commands, left there.
os.environ["FUZZEVAL_CACHE_DIR"] = tempfile.mkdtemp(prefix="fuzzeval-cache-")
atexit.register(shutil.rmtree, os.environ["FUZZEVAL_CACHE_DIR"], True)
# Tables fit the terminal's width up to 80 columns: the tests read them at 80 whatever the
# terminal they are run from.
os.environ["COLUMNS"] = "80"

if "MUTANT_UNDER_TEST" in os.environ:
    # mutmut (docs/checking.md) calls every function of a mutated module through a Python
    # trampoline, which numba cannot compile: the kernels of the mutated modules run as
    # their Python source (the others stay compiled).
    from fuzzeval.engine.kernels import compiled
    from fuzzeval.engine.kernels.jit import Kernel
    from fuzzeval.games.backgammon import moves
    from fuzzeval.games.cribbage import win_table
    from fuzzeval.games.cribbage.pegging import kernels as peg_kernels

    for _module in (compiled, moves, peg_kernels, win_table):
        for _name, _value in list(vars(_module).items()):
            if isinstance(_value, Kernel):
                setattr(_module, _name, _value.py_func)
    # Hold'em's kernels call phevaluator's C functions and are compiled by numba directly
    # (strength.py, playout.py): under mutmut every one runs as its Python source.
    from fuzzeval.games.holdem import playout, strength

    for _module in (strength, playout):
        _module._kernel = functools.partial(getattr, _module)  # type: ignore[attr-defined]


def skip_drift_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """calibrate's drift picture named but not drawn (a second or two each), for the tests
    that check the stored rounds, rule bases and what is printed, not the picture
    (test_plots_readable.py, test_default_pictures.py and test_calibration_rounds.py's
    command test draw it and check the file)."""
    import fuzzeval.plots

    monkeypatch.setattr(fuzzeval.plots, "plot_drift",
                        lambda _cal, path: fuzzeval.plots.image_path(path))


@pytest.fixture
def drift_not_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    skip_drift_drawing(monkeypatch)


@pytest.fixture
def rulebases_dir() -> Path:
    return RULEBASES


@pytest.fixture
def data_dir() -> Path:
    return DATA
