"""The mutation-testing setup (docs/checking.md) names files that exist: a renamed module or
test file would otherwise make ``mutmut run`` mutate nothing or run nothing."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mutmut_names_existing_files() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    named = [*config["pytest_add_cli_args_test_selection"], *config["source_paths"],
             *config["also_copy"]]
    assert [n for n in named if not (ROOT / n).exists()] == []
    # only_mutate is a glob (``*`` spans folders): every module, the games' through the link
    assert config["only_mutate"] == ["fuzzeval/*.py"]
    some = ["fuzzeval/cli/play.py", "fuzzeval/games/cribbage/sampling.py",
            "fuzzeval/search/sampling.py"]
    assert [m for m in some if not ((ROOT / m).is_file() and fnmatch(m, "fuzzeval/*.py"))] == []
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert any(d.startswith("mutmut") for d in extras["optional-dependencies"]["mutation"])


def test_mutmut_copies_what_the_selected_tests_read() -> None:
    """mutmut runs the tests inside mutants/, holding only what it mutates and ``also_copy``:
    a folder a selected test reads (``ROOT / "docs"``) and nobody copied fails every run."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    copied = {p.strip("/").split("/")[0] for p in [*config["also_copy"], *config["source_paths"]]}
    read = {
        m.split("/")[0]
        for test in config["pytest_add_cli_args_test_selection"]
        for m in re.findall(r'ROOT / "([^"]+)"', (ROOT / test).read_text())
    }
    assert read, "the pattern finds the folders the tests read"
    assert read - copied == set()
