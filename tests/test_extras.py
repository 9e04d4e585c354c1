"""A player or option that needs an optional extra not installed (OpenSpiel, gnubg, Dask) is
refused in one line naming the extra, exit 2, before any file is made, in every command
that takes it (fuzzeval.extras; docs/cli.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.errors import MissingExtra, UsageError
from fuzzeval.extras import OPENSPIEL, Extra

runner = CliRunner()

ISMCTS = ("error: hearts player 'ismcts' needs OpenSpiel, an optional extra: pip install "
          "'fuzzeval[openspiel]'")
GNUBG = ("error: backgammon player 'gnubg' needs GNU Backgammon's bindings, an optional "
         "extra: pip install 'fuzzeval[gnubg]'")
OPENSPIEL_PLAY = ("error: fuzzeval openspiel play needs OpenSpiel, an optional extra: pip "
                  "install 'fuzzeval[openspiel]'")
DASK = ("error: --dask needs Dask's distributed, an optional extra: pip install "
        "'fuzzeval[dask]'")


CASES = [
    # the report's command: an 86-line traceback from the first game, and a database left
    ("pyspiel", ["match", "hearts", "--opponent", "ismcts"], ISMCTS),
    ("pyspiel", ["match", "hearts", "-p", "ismcts:simulations=5"], ISMCTS),
    ("pyspiel", ["match", "hearts", "--seats", "fuzzy,heuristic,ismcts,random"], ISMCTS),
    ("pyspiel", ["match", "hearts", "-p", "sampling:others=ismcts"], ISMCTS),
    ("pyspiel", ["tournament", "hearts", "-p", "fuzzy", "-p", "ismcts"], ISMCTS),
    ("pyspiel", ["calibrate", "hearts", "--opponent", "ismcts"], ISMCTS),
    ("pyspiel", ["learn", "hearts", "--opponent", "ismcts"], ISMCTS),
    ("pyspiel", ["learn", "hearts", "--measure-opponent", "ismcts"], ISMCTS),
    ("pyspiel", ["openspiel", "play", "cribbage", "--opponent", "ismcts"], OPENSPIEL_PLAY),
    ("gnubg", ["match", "backgammon", "--opponent", "gnubg"], GNUBG),
    ("gnubg", ["tournament", "backgammon", "-p", "gnubg", "-p", "random"], GNUBG),
    ("gnubg", ["calibrate", "backgammon", "--opponent", "gnubg"], GNUBG),
    ("gnubg", ["learn", "backgammon", "--opponent", "gnubg"], GNUBG),
    ("gnubg", ["play", "backgammon", "--opponent", "gnubg"], GNUBG),
    ("gnubg", ["backgammon", "moves", "4HPwATDgc/ABMA", "--dice", "31", "-p", "gnubg"], GNUBG),
    ("distributed", ["match", "cribbage", "--dask", "tcp://127.0.0.1:1"], DASK),
]


@pytest.mark.parametrize(("missing", "args", "line"), CASES,
                         ids=[" ".join(args) for _, args, _ in CASES])
def test_a_missing_extra_is_one_line_naming_it_before_any_file(
        missing: str, args: list[str], line: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # as if not installed: import fails
    monkeypatch.chdir(tmp_path)  # the default database, runs/GAME....sqlite, would be here
    res = runner.invoke(app, args)
    assert res.exit_code == 2, res.output
    assert res.stderr == line + "\n" and res.stdout == ""
    assert list(tmp_path.iterdir()) == []  # no database, no runs/ folder


def test_a_missing_extra_is_a_usage_error_naming_who_needs_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(MissingExtra) as caught:
        OPENSPIEL.require("player 'x'")
    assert isinstance(caught.value, UsageError)
    assert str(caught.value) == ("player 'x' needs OpenSpiel, an optional extra: pip install "
                                 "'fuzzeval[openspiel]'")
    Extra("json", "json", "JSON").require("anyone")  # installed: nothing said


def test_an_empty_dask_address_is_refused_not_run_here(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, ["match", "cribbage", "-n", "2", "--dask", ""])
    assert res.exit_code == 2, res.output
    assert res.stderr == ("error: --dask needs the scheduler's address, e.g. "
                          "tcp://host:8786\n")
    assert list(tmp_path.iterdir()) == []
