"""The command line's shared conventions (docs/cli.md): the version, help, option spellings
and their deprecated forms, exit codes, round numbers."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.metadata import version
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import fuzzeval
from fuzzeval.cli import app

runner = CliRunner()


def test_version_option_and_attribute() -> None:
    assert fuzzeval.__version__ == version("fuzzeval")
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout.strip() == f"fuzzeval {fuzzeval.__version__}"


@pytest.mark.parametrize("group", [[], ["plot"], ["rulebase"], ["cribbage"], ["backgammon"]])
def test_a_group_alone_prints_its_help_and_exits_0(group: list[str]) -> None:
    res = runner.invoke(app, group)
    assert res.exit_code == 0, res.output
    assert f"Usage: fuzzeval {' '.join(group)}".rstrip() in res.stdout
    assert "Commands" in res.stdout and res.stderr == ""


def _commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command and group under ``command`` with its path (typer's own click inside)."""
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, (*path, name))


def _flat(text: str) -> str:
    """Rendered help as one line: box edges gone, runs of spaces (wrapping) one space."""
    return " ".join(text.replace("│", " ").split())


def test_help_texts_keep_their_square_brackets() -> None:
    """Rich markup ate '[seed, k]' and '[i]' from help texts; every command's help and every
    option's help shows its brackets as written (\\[ in the source escapes one)."""
    checked = 0
    for path, command in _commands(typer.main.get_command(app)):
        texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
        wanted = [t.replace("\\[", "[") for t in texts if "[" in t]
        if not wanted:
            continue
        res = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "250"})
        assert res.exit_code == 0, (path, res.output)
        shown = _flat(res.stdout)
        for text in wanted:
            for paragraph in text.split("\n\n"):
                assert _flat(paragraph) in shown, (path, paragraph)
        checked += 1
    assert checked >= 3  # calibrate's and match's --seed, match's --dask at least
