"""The command line's shared conventions (docs/cli.md): the version, help, option spellings
and their deprecated forms, exit codes, round numbers."""

from __future__ import annotations

from importlib.metadata import version

import pytest
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
