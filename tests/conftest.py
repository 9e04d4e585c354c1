from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

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

# Under mutation testing (the suite runs inside mutmut's mutants/ folder) the compiled kernels
# must run as plain Python: numba cannot compile mutmut's trampolines, and every mutant would
# count as caught by a crash (docs/checking.md).
if ROOT.name == "mutants" and os.environ.get("NUMBA_DISABLE_JIT") != "1":
    raise pytest.UsageError("mutation testing needs NUMBA_DISABLE_JIT=1 (docs/checking.md)")


@pytest.fixture
def rulebases_dir() -> Path:
    return RULEBASES


@pytest.fixture
def data_dir() -> Path:
    return DATA
