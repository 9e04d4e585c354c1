from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
RULEBASES = ROOT / "rulebases"

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
settings.load_profile("default")


@pytest.fixture
def rulebases_dir() -> Path:
    return RULEBASES


@pytest.fixture
def data_dir() -> Path:
    return DATA
