"""benchmarks/scaling.py: where the workers' time went, worked by hand."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.scaling import _pct, check_variant, where

ROOT = Path(__file__).resolve().parents[1]


def test_a_worker_s_time_splits_into_before_tasks_between_and_after() -> None:
    # worker A: tasks 1-3 and 4-8 of a 10 s match; worker B: 2-6; a third played nothing
    shares = where([[(1.0, 3.0), (4.0, 8.0)], [(2.0, 6.0)]], 3, 10.0)
    assert shares["in"] == pytest.approx((2 + 4 + 4) / 30)
    assert shares["before"] == pytest.approx((0.1 + 0.2 + 1.0) / 3)
    assert shares["between"] == pytest.approx(1 / 30)
    assert shares["after"] == pytest.approx((0.2 + 0.4) / 3)
    assert sum(shares.values()) == pytest.approx(1.0)


def test_a_share_reads_as_a_percentage_or_a_dash() -> None:
    assert _pct(0.1764, 7) == "  17.6%"
    assert _pct(math.nan, 5) == "    -"


@pytest.mark.parametrize(("variant", "why"), [
    ("as-is", None), ("task=0.2+window=2", None), ("nice-workers", None),
    ("nice-workers=3+commit=0.1+narrow-pipe+fast-switch", None),
    ("tusk=1", "unknown variant 'tusk=1' (known: as-is, narrow-pipe, fast-switch, task, "
               "window, nice-workers, commit)"),
    ("task", "'task': write task=NUMBER"), ("as-is=1", "'as-is=1': write as-is"),
    ("window=2.5", "'window=2.5': '2.5' is not a number of its kind"),
    ("task=0", "'task=0': the number must be finite and positive"),
    ("task=inf", "'task=inf': the number must be finite and positive"),
    ("commit=nan", "'commit=nan': the number must be finite and positive"),
    ("nice-workers=-1", "'nice-workers=-1': the number must be finite and not negative"),
    ("nice-workers=0", None),
])
def test_a_variant_is_checked_before_anything_runs(variant: str, why: str | None) -> None:
    assert check_variant(variant) == why


def test_an_unknown_variant_is_refused_in_one_line() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks/scaling.py"), "--workers",
                           "2", "--games", "1", "--variant", "as-is,tusk=1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1].endswith("--variant: unknown variant 'tusk=1' "
                                                 "(known: as-is, narrow-pipe, fast-switch, "
                                                 "task, window, nice-workers, commit)")
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_a_variant_named_twice_is_refused_in_one_line() -> None:
    """Both would write one database: the second would find its match played."""
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks/scaling.py"), "--variant",
                           "as-is,window=2,as-is"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1].endswith(
        "--variant: 'as-is,window=2,as-is' names a variant twice")
