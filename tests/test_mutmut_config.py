"""The mutation-testing setup (docs/checking.md) names files that exist: a renamed module or
test file would otherwise make ``mutmut run`` mutate nothing or run nothing."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _config() -> dict[str, Any]:
    config: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    return config


def _selection() -> tuple[list[str], list[str]]:
    """The selection's paths and the paths it leaves out (``--ignore=PATH``)."""
    args = _config()["pytest_add_cli_args_test_selection"]
    ignored = [a.removeprefix("--ignore=") for a in args if a.startswith("--ignore=")]
    paths = [a for a in args if not a.startswith("-")]
    assert len(paths) + len(ignored) == len(args), "only paths and --ignore=PATH"
    return paths, ignored


def selected_tests() -> list[str]:
    """Every test file mutmut runs: those under the selected paths, less the ignored."""
    paths, ignored = _selection()
    files = [str(f.relative_to(ROOT)) for p in paths
             for f in ([ROOT / p] if p.endswith(".py") else sorted((ROOT / p).rglob("test_*.py")))]
    return [f for f in files if f not in ignored]


def test_mutmut_names_existing_files() -> None:
    config = _config()
    paths, ignored = _selection()
    named = [*paths, *ignored, *config["source_paths"], *config["also_copy"]]
    assert [n for n in named if not (ROOT / n).exists()] == []
    # only_mutate is a glob (``*`` spans folders): every module, the games' through the link
    assert config["only_mutate"] == ["fuzzeval/*.py"]
    some = ["fuzzeval/cli/play.py", "fuzzeval/games/cribbage/sampling.py",
            "fuzzeval/search/sampling.py"]
    assert [m for m in some if not ((ROOT / m).is_file() and fnmatch(m, "fuzzeval/*.py"))] == []
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert any(d.startswith("mutmut") for d in extras["optional-dependencies"]["mutation"])


def test_every_test_file_is_selected_unless_left_out_by_name() -> None:
    """The selection is the whole tests/ folder: a new test file is run by mutmut without
    a list to keep up (each module's tests: hearts, hold'em, learning, interop, matches,
    search and the OpenSpiel bridges), and only files named with their reason in
    pyproject.toml are left out."""
    assert _selection()[0] == ["tests"]
    chosen = set(selected_tests())
    for test in ("tests/games/test_hearts_rules.py", "tests/games/test_holdem_acpc.py",
                 "tests/test_td.py", "tests/test_conjunctions.py", "tests/test_td_runs.py",
                 "tests/test_formats_refusals.py", "tests/test_match_spec.py",
                 "tests/test_tournament.py", "tests/test_sampling.py",
                 "tests/test_openspiel_bots.py", "tests/games/test_hearts_openspiel.py"):
        assert test in chosen, test
    assert "tests/test_startup.py" not in chosen


def test_mutmut_copies_what_the_selected_tests_read() -> None:
    """mutmut runs the tests inside mutants/, holding only what it mutates and ``also_copy``:
    a folder a selected test reads (``ROOT / "docs"``) and nobody copied fails every run."""
    config = _config()
    copied = {p.strip("/").split("/")[0] for p in [*config["also_copy"], *config["source_paths"]]}
    read = {
        m.split("/")[0]
        for test in selected_tests()
        for m in re.findall(r'ROOT / "([^"]+)"', (ROOT / test).read_text())
    }
    assert read, "the pattern finds the folders the tests read"
    assert read - copied == set()


def test_a_test_file_is_named_for_what_it_checks() -> None:
    """How a test came about (a mutant that survived, an audit, a value pinned) is a marker
    registered in pyproject.toml, not its file's name: files are found by their subject."""
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"]["markers"]
    assert [m.split(":")[0] for m in markers] == ["mutation_pin", "audit", "pinned"]
    by_technique = [str(f.relative_to(ROOT)) for f in sorted((ROOT / "tests").rglob("test_*.py"))
                    if f.name.startswith(("test_mutation_", "test_audit_", "test_pinned_"))]
    assert by_technique == []
