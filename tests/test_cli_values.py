"""The small modules under the commands, values worked by hand (gaps found by mutation
testing): lazy exports, the jit's numba flag, loading's and the schema's words, check_game,
the command entry points, games.options, a match table and a measures table, strict JSON."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from fuzzeval.cli import app

pytestmark = pytest.mark.mutation_pin

runner = CliRunner()
ENV = {"COLUMNS": "80"}


def test_lazy_exports_import_on_first_use_and_refuse_other_names() -> None:
    import fuzzeval.engine.evaluator
    from fuzzeval.lazy import lazy_exports

    get, names = lazy_exports("fuzzeval", {"compile_rulebase": "engine.evaluator"})
    assert get("compile_rulebase") is fuzzeval.engine.evaluator.compile_rulebase
    with pytest.raises(AttributeError, match=r"^module 'fuzzeval' has no attribute 'nope'$"):
        get("nope")
    assert "compile_rulebase" in names() and names() == sorted(names())


def test_jit_says_numba_is_loaded_once_a_kernel_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    from fuzzeval.engine.kernels import jit

    monkeypatch.setattr(jit, "_loaded", False)  # the rest of the session keeps its own
    assert jit.loaded() is False

    def twice(x: float) -> float:
        return 2 * x

    k = jit.Kernel(twice)
    assert jit.loaded() is False  # not yet: numba is imported on first use
    k.dispatcher()
    assert jit.loaded() is True


def test_a_list_where_a_mapping_belongs_is_named_a_list() -> None:
    from fuzzeval import parse_rulebase

    _, problems = parse_rulebase("name: x\ninputs: [1, 2]\n", "x.yaml")
    assert "x.yaml:2: inputs: must be a mapping (got a list)" in [str(p) for p in problems]
    _, problems = parse_rulebase("name: x\nrules: {a: 1}\n", "x.yaml")
    assert "x.yaml:2: rules: must be a non-empty list of rules (got a mapping)" in [
        str(p) for p in problems]


def test_check_game_sees_a_state_changed_in_place() -> None:
    from fuzzeval.play.testing import ConformanceError, check_game
    from tests.test_check_game import ApplyChangesTheState, CandidatesChangeTheState

    with pytest.raises(ConformanceError, match=r"candidates\(\) changed the state it was "):
        check_game(CandidatesChangeTheState(), games=1)
    with pytest.raises(ConformanceError, match=r"apply\(\) changed the state it was given"):
        check_game(ApplyChangesTheState(), games=1)


def test_command_entry_points_are_the_game_groups_by_name() -> None:
    from fuzzeval.play.registry import COMMANDS_GROUP, command_entry_points

    got = command_entry_points()
    names = [ep.name for ep in got]
    assert {"backgammon", "cribbage", "hearts"} <= set(names)
    assert names == sorted(names) and all(ep.group == COMMANDS_GROUP for ep in got)


def test_one_of_lists_every_choice() -> None:
    from fuzzeval.games.options import as_choice

    with pytest.raises(ValueError, match=r"^stop must be 'none' \(got 'x'\)$"):
        as_choice("stop", "x", ["none"])
    with pytest.raises(ValueError, match=r"^stop must be 'a', 'b' or 'c' \(got 'x'\)$"):
        as_choice("stop", "x", ["a", "b", "c"])


def test_an_unknown_backgammon_player_lists_the_players() -> None:
    from fuzzeval.games.backgammon.players import make_player

    with pytest.raises(ValueError, match=r"^unknown backgammon player 'nobody' \(players: "
                                         r"random, pubeval, gnubg, fuzzy\)$"):
        make_player("nobody")


def test_a_match_table_counts_what_its_games_stored(tmp_path: Path) -> None:
    """The summary of a backgammon match, row by row, against the stored games: who won
    each (pubeval all 4: by 1, 2, 3 and 3 points, read back from the history), the kinds,
    the game points 1 + 2 + 3 + 3 = 9 and their mean 2.25 a game."""
    import sqlite3

    db = tmp_path / "m.sqlite"
    res = runner.invoke(app, ["match", "backgammon", "-p", "pubeval", "--opponent", "random",
                              "-n", "4", "--seed", "3", "--db", str(db), "-w", "1"],
                        env={"COLUMNS": "100"})
    assert res.exit_code == 0, res.output
    with sqlite3.connect(db) as conn:
        stored = conn.execute("SELECT winner, points FROM games ORDER BY idx").fetchall()
    assert sorted(p for _, p in stored) == [1, 2, 3, 3]
    lines = [" ".join(line.strip("│┃ ").split()) for line in res.stdout.splitlines()]
    assert "pubeval ┃ random" in lines[2]
    for row in ("points per game (95% interval) │ 2.250", "wins │ 4 │ 0",
                "won by single │ 1 │ 0", "won by gammon │ 1 │ 0",
                "won by backgammon │ 2 │ 0", "game points │ 9 │ 0"):
        assert any(line.startswith(row) for line in lines), row
    # the last line, whose path may wrap: compared without whitespace
    assert "".join(res.stdout.split()).endswith(f"4games;historyin{db}")


def test_the_schema_and_the_reader_agree_on_the_least_resolution() -> None:
    """The JSON schema editors validate against says what the reader refuses: resolution
    11 is read, 10 is not."""
    from fuzzeval.formats.schema import rulebase_schema
    from fuzzeval.formats.yaml_read import MIN_RESOLUTION

    assert MIN_RESOLUTION == 11
    assert rulebase_schema()["properties"]["resolution"]["minimum"] == MIN_RESOLUTION


def test_a_measures_table_shows_before_after_and_the_paired_change() -> None:
    from fuzzeval.cli.common import measures_table
    from fuzzeval.learn.measure import Comparison

    table = measures_table("t", (Comparison("efficiency", 10, 0.5, 0.625, (0.1, 0.15)),))
    out = io.StringIO()
    Console(file=out, width=80).print(table)
    lines = [" ".join(line.split()) for line in out.getvalue().splitlines()]
    assert "measure initial calibrated change (paired 95%)" in lines
    assert "efficiency 0.5000 0.6250 +0.1250 ± 0.0250" in lines


def test_strict_json_spells_each_non_finite_float_as_float_reads_it() -> None:
    import numpy as np

    from fuzzeval.cli.common import strict_json_value

    data = {"a": [float("inf"), -float("inf"), float("nan"), 1.5, np.float64("-inf")],
            float("nan"): (np.array([np.inf, 2.0]), 3)}
    assert strict_json_value(data) == {"a": ["inf", "-inf", "nan", 1.5, "-inf"],
                                       "nan": [["inf", 2.0], 3]}
