"""A command run by name builds only itself: building every command reads some eighty
functions' signatures and imports every command's module, 80 ms of each command's start-up
(benchmarks/startup.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest
import typer.main

from fuzzeval.cli import _named, build_app

EVERY = ["evaluate", "calibrate", "evaluate-calibration", "match", "tournament", "tune",
         "learn", "play", "studio", "rulebase", "plot", "history", "openspiel", "backgammon",
         "cribbage", "hearts", "holdem"]


def _commands(app: typer.Typer) -> list[str]:
    return list(typer.main.get_command(app).commands)  # type: ignore[attr-defined]


def test_the_whole_command_lists_every_command_in_its_order() -> None:
    assert _commands(build_app()) == EVERY
    from fuzzeval.cli import app

    assert _commands(app) == EVERY


@pytest.mark.parametrize("name", ["match", "evaluate-calibration", "rulebase", "cribbage"])
def test_a_named_command_builds_only_itself(name: str) -> None:
    assert _commands(build_app(name)) == [name]


@pytest.mark.parametrize(("args", "named"), [
    (["cribbage", "discard", "5H"], "cribbage"),
    (["evaluate-calibration", "--help"], "evaluate-calibration"),
    (["holdem"], "holdem"),
    ([], None),
    (["--help"], None),
    (["--version"], None),
    (["nosuch", "discard"], None),  # the whole command, to list what there is
    (["-p", "cribbage"], None),
])
def test_what_the_arguments_name(args: list[str], named: str | None) -> None:
    assert _named(args) == named


def test_running_a_command_imports_no_other_commands_module() -> None:
    code = ("import sys; sys.argv = ['fuzzeval', 'rulebase', 'list']\n"
            "from fuzzeval import cli\n"
            "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith(('fuzzeval.cli', "
            "'fuzzeval.games'))), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert "tipping" in done.stdout  # it ran
    assert done.stderr.strip() == "['fuzzeval.cli', 'fuzzeval.cli.common', " \
                                  "'fuzzeval.cli.rulebase']"


def test_an_unknown_command_is_still_named_with_the_whole_list() -> None:
    done = subprocess.run([sys.executable, "-m", "fuzzeval", "nosuch"], capture_output=True,
                          text=True)
    assert done.returncode == 2
    assert done.stderr == "error: No such command 'nosuch'. (see python -m fuzzeval --help)\n"
