"""Start-up: the command line imports a heavy library only for a command that uses it.

Each case runs in a fresh interpreter and lists ``sys.modules`` after the command; nothing
is timed here (``python benchmarks/startup.py`` measures the CPU seconds). ``--help`` needs
neither numpy nor the engine; advising one hand with the exhaustive player needs numpy, but
not pandas (its table is built without a DataFrame), the engine, numba or the history store.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HAND = ["5H", "5S", "JD", "QC", "4S", "9C"]
#: never imported by a command that does not use them
HEAVY = {"pandas", "numba", "matplotlib", "scipy", "skfuzzy", "dask", "distributed", "cma",
         "fuzzeval.engine", "fuzzeval.store", "rich.progress", "pydantic"}
RUN = """
import json, sys
out, sys.argv = sys.argv[2], ["fuzzeval", *json.loads(sys.argv[1])]
from fuzzeval.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
with open(out, "w") as f:
    json.dump({"code": code, "modules": sorted(sys.modules)}, f)
"""


def imported(tmp_path: Path, args: list[str]) -> tuple[set[str], str]:
    """The modules a fresh process holds after ``fuzzeval ARGS``, and what it printed."""
    out = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", RUN, json.dumps(args), str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["code"] in (0, None), (done.stdout, done.stderr)
    return set(result["modules"]), done.stdout


def loaded(modules: set[str], names: set[str]) -> list[str]:
    """Which of ``names`` (packages or modules) are among ``modules``."""
    return sorted(m for m in modules if m in names or m.split(".")[0] in names)


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["cribbage", "--help"],
                                  ["cribbage", "discard", "--help"], ["match", "--help"]])
def test_help_imports_neither_numpy_nor_the_engine(tmp_path: Path, args: list[str]) -> None:
    modules, shown = imported(tmp_path, args)
    assert shown.strip()
    assert loaded(modules, HEAVY | {"numpy"}) == []


@pytest.mark.parametrize("extra", [[], ["--json"], ["--crib", "theirs", "--weights", "expert"]])
def test_one_exhaustive_discard_imports_numpy_only(tmp_path: Path, extra: list[str]) -> None:
    modules, shown = imported(tmp_path, ["cribbage", "discard", *HAND, *extra])
    assert "9C" in shown
    assert "numpy" in modules
    assert loaded(modules, HEAVY) == []


def test_counting_a_hand_imports_numpy_only(tmp_path: Path) -> None:
    modules, shown = imported(tmp_path, ["cribbage", "score", "5H", "5D", "5S", "JC", "5C"])
    assert "29" in shown
    assert loaded(modules, HEAVY) == []


def test_importing_the_package_is_cheap() -> None:
    """``import fuzzeval`` loads no numpy and reads no package metadata; the names still
    resolve on first use."""
    code = ("import sys, fuzzeval; before = sorted(m for m in sys.modules if m == 'numpy' or "
            "m.startswith(('fuzzeval.', 'importlib.metadata'))); "
            "from fuzzeval import compile_rulebase, __version__; "
            "print(before, 'fuzzeval.engine' in sys.modules, bool(__version__))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "['fuzzeval.lazy'] True True"
