"""The built wheel, not only the source tree: both packages, the console script, and the
default rule bases shipped inside it and found from anywhere."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the test session's own cache folder (tests/conftest.py), not the user's
CACHE = {"FUZZEVAL_CACHE_DIR": os.environ["FUZZEVAL_CACHE_DIR"]}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(out), str(ROOT)],
        check=True,
    )
    (whl,) = out.glob("fuzzeval-*.whl")
    return whl


def test_wheel_contents(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    shipped = {p.name for p in (ROOT / "rulebases").glob("*.yaml")}
    assert shipped and {f"fuzzeval/rulebases/{n}" for n in shipped} <= set(names)
    assert "fuzzeval/games/__init__.py" in names and "fuzzeval/engine/evaluator.py" in names
    # No generic top-level name: everything installs under fuzzeval/ (and its dist-info).
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"fuzzeval"}
    for data in ("opponent_throws.json", "crib_pair_values.json", "es_table.npz"):
        assert f"fuzzeval/games/cribbage/data/{data}" in names
    assert not any(n.startswith("tests/") for n in names)
    # the studio's page travels with it (fuzzeval studio reads it from the package)
    assert {f"fuzzeval/studio/static/studio.{x}" for x in ("html", "js", "css")} <= set(names)
    # The MIT licence travels with the wheel, word for word.
    (licence,) = [n for n in names if n.endswith(".dist-info/licenses/LICENSE")]
    text = zipfile.ZipFile(wheel).read(licence).decode()
    assert text == (ROOT / "LICENSE").read_text() and text.startswith("MIT License\n")
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry).decode()
    assert "fuzzeval = fuzzeval.cli:main" in text


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed once into a target folder (its console script in ``bin``)."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
         str(wheel)],
        check=True,
    )
    return target


def test_installed_wheel_finds_its_rulebases(installed: Path, tmp_path: Path) -> None:
    target = installed
    code = (
        "import fuzzeval.resources as r, fuzzeval; "
        "print(fuzzeval.__file__); print(r.rulebase_dir())"
    )
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=elsewhere, capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(target), "PATH": "", **CACHE},
    ).stdout.split()
    assert out[0].startswith(str(target)) and out[1] == str(target / "fuzzeval" / "rulebases")
    graded = subprocess.run(
        [sys.executable, "-m", "fuzzeval", "evaluate", "tipping", "-i", "quality=6.5",
         "-i", "service=9.8"],
        cwd=elsewhere, capture_output=True, text=True, env={"PYTHONPATH": str(target), **CACHE},
    )
    assert graded.returncode == 0, graded.stderr
    from fuzzeval import compile_rulebase, load_rulebase

    source = compile_rulebase(load_rulebase(ROOT / "rulebases" / "tipping.yaml"))
    assert float(graded.stdout) == pytest.approx(source.grade([[6.5, 9.8]])[0], rel=1e-5)

    # The README's first command (shortened): a calibration on the shipped defaults.
    calibrated = subprocess.run(
        [sys.executable, "-m", "fuzzeval", "calibrate", "cribbage", "--rounds", "1",
         "--games-per-round", "2", "--workers", "1", "--held-out-deals", "20"],
        cwd=elsewhere, capture_output=True, text=True, env={"PYTHONPATH": str(target), **CACHE},
    )
    assert calibrated.returncode == 0, calibrated.stderr
    assert (elsewhere / "runs" / "cribbage_calibration.calibrated.yaml").is_file()
    assert (elsewhere / "plots" / "cribbage_drift.png").stat().st_size > 10_000


def test_the_installed_console_script_runs_from_anywhere(installed: Path, tmp_path: Path) -> None:
    """The `fuzzeval` command itself, as pip writes it from the wheel's entry point, not
    `python -m fuzzeval`: its help lists the commands and it grades the README's tip."""
    script = installed / "bin" / "fuzzeval"
    assert script.is_file()
    env = {"PYTHONPATH": str(installed), "PATH": str(installed / "bin"), **CACHE}
    helped = subprocess.run([str(script), "--help"], cwd=tmp_path, capture_output=True,
                            text=True, env=env)
    assert helped.returncode == 0, helped.stderr
    assert "evaluate" in helped.stdout and "calibrate" in helped.stdout
    graded = subprocess.run(
        [str(script), "evaluate", "tipping", "-i", "quality=6.5", "-i", "service=9.8"],
        cwd=tmp_path, capture_output=True, text=True, env=env,
    )
    assert graded.returncode == 0, graded.stderr
    from fuzzeval import compile_rulebase, load_rulebase

    source = compile_rulebase(load_rulebase(ROOT / "rulebases" / "tipping.yaml"))
    assert float(graded.stdout) == pytest.approx(source.grade([[6.5, 9.8]])[0], rel=1e-5)


_GRADE_AND_REPORT = (
    "import fuzzeval, numpy as np; from fuzzeval.engine.kernels import compiled; "
    "from fuzzeval.resources import default_rulebase as d; "
    "ev = fuzzeval.compile_rulebase(fuzzeval.load_rulebase(d('tipping'))); "
    "grade = ev.grade(np.array([[6.5, 9.8]]))[0]; "
    "print(grade, sum(compiled.grade_centroid.stats.cache_hits.values()))"
)


def test_compiled_kernels_are_cached_for_a_read_only_install(
    installed: Path, tmp_path: Path
) -> None:
    """An installed wheel whose folder cannot be written (here: the kernels'
    ``__pycache__`` is a file, which stops even root) caches them in the user's cache
    folder: the first process compiles, the next loads; with no writable folder at all they compile
    in every process and still grade."""
    import shutil

    site = tmp_path / "site"
    shutil.copytree(installed, site)
    for pkg in (site / "fuzzeval").rglob("__pycache__"):
        shutil.rmtree(pkg)
    (site / "fuzzeval" / "engine" / "kernels" / "__pycache__").write_text("not a folder")
    cache = tmp_path / "cache"
    env = {"PYTHONPATH": str(site), "HOME": str(tmp_path), "XDG_CACHE_HOME": str(cache),
           "PYTHONDONTWRITEBYTECODE": "1"}

    def run() -> list[str]:
        done = subprocess.run([sys.executable, "-c", _GRADE_AND_REPORT], cwd=tmp_path,
                              capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    first, second = run(), run()
    assert float(first[0]) == pytest.approx(14.7982, abs=5e-5)  # docs/rulebase-format.md
    assert first[1] == "0"  # compiled: nothing to load yet
    assert second == [first[0], "1"]  # loaded from the user's cache
    assert any(cache.rglob("*.nbi")), "the index of the cached kernels is in XDG_CACHE_HOME"
    shutil.rmtree(cache)
    cache.write_text("not a folder either")
    third = run()
    assert third == [first[0], "0"]
