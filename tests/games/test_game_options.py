"""Hostile input to the game plug-ins: every player and game option is checked (type,
allowed values, known keys, with the valid ones in the message), finished backgammon
positions are refused, and ES tables are checked when they are read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.backgammon import players as bg_players
from fuzzeval.games.backgammon.board import START, Position, position_id
from fuzzeval.games.backgammon.game import GAME as BACKGAMMON
from fuzzeval.games.cribbage import players as cr_players
from fuzzeval.games.cribbage.es import DEFAULT_TABLE, N_HANDS, load_table
from fuzzeval.games.cribbage.game import GAME as CRIBBAGE
from fuzzeval.games.cribbage.players import ExhaustiveDiscard
from tests.games.backgammon_helpers import side

runner = CliRunner()
HAND = ["5H", "5S", "JD", "QC", "4S", "9C"]


def _one_error_line(res: Any, *needles: str) -> None:
    """A usage error: exit 2, nothing on stdout, one 'error: ...' line with the needles."""
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and res.stdout == ""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


# --- 1. game options ----------------------------------------------------------------------

@pytest.mark.parametrize("value", ["flase", "maybe", "", "2", 2, 0.5, -1, "truee", None])
def test_cribbage_refuses_a_peg_counts_that_is_not_a_boolean(value: Any) -> None:
    with pytest.raises(ValueError, match=r"peg_counts must be true or false \(also yes/no, "
                                         r"on/off, 1/0\)"):
        CRIBBAGE.new_game(np.random.default_rng(0), 0, peg_counts=value)


@pytest.mark.parametrize(("value", "want"), [
    (True, True), (False, False), ("true", True), ("False", False), ("yes", True),
    ("no", False), ("on", True), ("off", False), ("1", True), ("0", False), (1, True),
    (0, False), (np.bool_(False), False)])
def test_cribbage_reads_the_documented_boolean_words(value: Any, want: bool) -> None:
    assert CRIBBAGE.new_game(np.random.default_rng(0), 0, peg_counts=value).peg_counts is want


def test_unknown_game_options_list_the_valid_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown cribbage options \['speed'\] "
                                         r"\(options: peg_counts\)"):
        CRIBBAGE.new_game(np.random.default_rng(0), 0, speed=3)
    with pytest.raises(ValueError, match=r"unknown backgammon options \['speed'\] "
                                         r"\(options: none\)"):
        BACKGAMMON.new_game(np.random.default_rng(0), 0, speed=3)


@pytest.mark.parametrize("value", ["flase", "maybe"])
def test_match_refuses_a_peg_counts_typo_in_one_line(tmp_path: Path, value: str) -> None:
    res = runner.invoke(app, ["match", "cribbage", "-n", "2", "-p", "random", "--opponent",
                              "random", "--option", f"peg_counts={value}", "--db",
                              str(tmp_path / "m.sqlite")])
    assert res.exit_code == 2, res.output  # a usage error
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1
    assert f"error: cribbage --option: peg_counts must be true or false (also yes/no, on/off, " \
           f"1/0) (got '{value}')" in res.output
    assert not (tmp_path / "m.sqlite").exists()  # refused before any match was recorded


# --- 1. player options --------------------------------------------------------------------

@pytest.mark.parametrize(("name", "options", "message"), [
    ("exhaustive", {"weights": "bogus"}, "weights must be 'uniform' or 'expert' (got 'bogus')"),
    ("exhaustive", {"weights": 1}, "weights must be 'uniform' or 'expert' (got 1)"),
    ("exhaustive", {"foo": "bar"},
     "player 'exhaustive' does not take options ['foo'] (options: peg_rulebase, pegging, weights)"),
    ("random", {"depth": 3}, "player 'random' does not take options ['depth'] "
                             "(options: peg_rulebase, pegging)"),
    ("greedy", {"weights": "expert"}, "player 'greedy' does not take options ['weights'] "
                                      "(options: peg_rulebase, pegging)"),
    ("fuzzy", {"table": "x.npz"}, "player 'fuzzy' does not take options ['table'] "
                                  "(options: peg_rulebase, pegging, rulebase)"),
    ("fuzzy", {"rulebase": ""}, "rulebase must be a rule base name or path (got '')"),
    ("es", {"rulebase": "x"}, "player 'es' does not take options ['rulebase'] "
                              "(options: peg_rulebase, pegging, table)"),
    ("es", {"table": ""}, "table must be the path of an ES table (.npz) (got '')"),
    ("random", {"pegging": "clever"}, "unknown pegging policy 'clever' "
                                      "(policies: basic, greedy, fuzzy)"),
    ("random", {"pegging": True}, "unknown pegging policy true (policies: basic, greedy, fuzzy)"),
])
def test_cribbage_players_check_every_option(name: str, options: dict[str, Any],
                                             message: str) -> None:
    with pytest.raises(ValueError) as info:
        cr_players.make_player(name, **options)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_the_exhaustive_strategy_itself_refuses_unknown_weights() -> None:
    with pytest.raises(ValueError, match="weights must be 'uniform' or 'expert'"):
        ExhaustiveDiscard("bogus")
    assert ExhaustiveDiscard("expert").weights == "expert"


@pytest.mark.parametrize(("name", "options", "message"), [
    ("pubeval", {"depth": 2}, "player 'pubeval' does not take options ['depth'] "
                              "(options: none)"),
    ("random", {"rulebase": "x"}, "player 'random' does not take options ['rulebase'] "
                                  "(options: none)"),
    ("fuzzy", {"selectr": "x"}, "player 'fuzzy' does not take options ['selectr'] "
                                "(options: lookahead, rulebase, selector, selector_games, "
                                "selector_win_rate, width)"),
    ("fuzzy", {"lookahead": 2}, "lookahead must be 0 or 1 (got 2)"),
    ("fuzzy", {"lookahead": "one"}, "lookahead must be a whole number >= 0 (got 'one')"),
    ("fuzzy", {"width": 3}, "width needs lookahead=1"),
    ("fuzzy", {"lookahead": 1, "width": 0}, "width must be a whole number >= 1 (got 0)"),
    ("fuzzy", {"rulebase": ""}, "rulebase must be a rule base name or path (got '')"),
    ("fuzzy", {"selector_games": 3}, "selector_games needs selector=DB"),
    ("fuzzy", {"selector_win_rate": 0.5}, "selector_win_rate needs selector=DB"),
    ("fuzzy", {"selector": "DB", "selector_games": "abc"},
     "selector_games must be a whole number >= 1 (got 'abc')"),
    ("fuzzy", {"selector": "DB", "selector_games": 0},
     "selector_games must be a whole number >= 1 (got 0)"),
    ("fuzzy", {"selector": "DB", "selector_games": 2.5},
     "selector_games must be a whole number >= 1 (got 2.5)"),
    ("fuzzy", {"selector": "DB", "selector_win_rate": 1.5},
     "selector_win_rate must be a number from 0 to 1 (got 1.5)"),
    ("fuzzy", {"selector": "DB", "selector_win_rate": "nan"},
     "selector_win_rate must be a number from 0 to 1 (got 'nan')"),
    ("fuzzy", {"selector": "DB", "selector_win_rate": "often"},
     "selector_win_rate must be a number from 0 to 1 (got 'often')"),
])
def test_backgammon_players_check_every_option(tmp_path: Path, name: str,
                                               options: dict[str, Any], message: str) -> None:
    db = tmp_path / "h.sqlite"
    db.write_bytes(b"")  # exists: the values are checked before the database is read
    given = {k: (str(db) if v == "DB" else v) for k, v in options.items()}
    with pytest.raises(ValueError) as info:
        bg_players.make_player(name, **given)
    assert message in str(info.value)


@pytest.mark.parametrize(("content", "why"), [
    (b"not sqlite at all, but long enough" * 10,
     "not a usable SQLite database (file is not a database)"),
    (b"", "an empty file, not a fuzzeval history")])
def test_a_selector_file_that_is_no_history_is_one_error(tmp_path: Path, content: bytes,
                                                         why: str) -> None:
    """Refused by the history's own reader, with the selector named after its words."""
    db = tmp_path / "notes.txt"
    db.write_bytes(content)
    with pytest.raises(ValueError) as info:
        bg_players.make_player("fuzzy", selector=str(db))
    assert str(info.value) == f"{db}: {why} (the board selector's history)"


@pytest.mark.parametrize("spec", ["exhaustive:weights=bogus", "exhaustive:foo=bar",
                                  "exhaustive:weights=expert,depth=2"])
def test_discard_refuses_bad_exhaustive_options(spec: str) -> None:
    """It used to run the uniform table for any weights and ignore unknown keys."""
    res = runner.invoke(app, ["cribbage", "discard", "--crib", "mine", *HAND, "-p", spec])
    _one_error_line(res, f"--player {spec}:")
    assert ("weights must be" in res.stderr
            or "(options: peg_rulebase, pegging, weights)" in res.stderr)


def test_discard_exhaustive_option_weights_is_the_weights_flag() -> None:
    by_option = runner.invoke(app, ["cribbage", "discard", "--crib", "mine", *HAND, "-p",
                                    "exhaustive:weights=expert", "--json"])
    by_flag = runner.invoke(app, ["cribbage", "discard", "--crib", "mine",
                                  *HAND, "--weights", "expert",
                                  "--json"])
    assert by_option.exit_code == by_flag.exit_code == 0, by_option.output
    assert by_option.stdout == by_flag.stdout and '"weights": "expert"' in by_option.stdout


def test_match_names_the_valid_player_options(tmp_path: Path) -> None:
    res = runner.invoke(app, ["match", "cribbage", "-n", "1", "-p", "exhaustive:foo=bar",
                              "--db", str(tmp_path / "m.sqlite")])
    assert res.exit_code in (1, 2) and "Traceback" not in res.output
    assert "does not take options ['foo'] (options: peg_rulebase, pegging, weights)" in res.output


# --- 2. finished backgammon positions -----------------------------------------------------

OFF = (0,) * 25
MINE_ALL_OFF = Position(OFF, side({20: 3, 13: 5, 6: 7}))  # the side on roll has won
THEIRS_ALL_OFF = Position(side({3: 4, 1: 2}), OFF)  # the other side has won


@pytest.mark.parametrize(("position", "who"), [(MINE_ALL_OFF, "the side on roll"),
                                               (THEIRS_ALL_OFF, "the other side")])
@pytest.mark.parametrize("player", ["pubeval", "random", "fuzzy"])
def test_moves_refuses_a_finished_game(position: Position, who: str, player: str) -> None:
    pid = position_id(position)
    res = runner.invoke(app, ["backgammon", "moves", pid, "--dice", "31", "-p", player])
    _one_error_line(res, pid, "the game is over", f"{who} has borne off all 15 checkers")
    res = runner.invoke(app, ["backgammon", "moves", pid, "--dice", "31", "--json"])
    _one_error_line(res, "the game is over")


def test_a_player_refuses_to_move_in_a_finished_game() -> None:
    with pytest.raises(ValueError, match="the game is over"):
        bg_players.make_player("pubeval").choose(THEIRS_ALL_OFF, (3, 1))
    assert bg_players.make_player("pubeval").choose(START, (3, 1)) != START


# --- 4. ES tables ---------------------------------------------------------------------------

def _table(tmp_path: Path, values: Any, name: str = "bad.npz", **extra: Any) -> Path:
    """A table in ``save_table``'s format with these values."""
    path = tmp_path / name
    np.savez_compressed(path, values=values, curve_x=np.arange(3.0), curve_y=np.ones(3),
                        random_level=1.0, best_level=2.0, variant="threshold", p=0.65,
                        bounded=False, crib=True, hands=0, iterations=10, seed=1, **extra)
    return path


def _good() -> np.ndarray:
    return np.random.default_rng(0).uniform(0.1, 0.9, size=(2, N_HANDS, 6)).astype(np.float32)


def _with(value: float, count: int) -> np.ndarray:
    values = _good()
    values.reshape(-1)[:: values.size // count][:count] = value
    return values


BAD_TABLES = {
    "nan": (lambda: _with(np.nan, 3), "3 NaN values"),
    "one inf": (lambda: _with(np.inf, 1), "1 infinite value"),
    "-inf": (lambda: _with(-np.inf, 5), "5 infinite values"),
    "shape": (lambda: _good()[:, :100], "values have shape (2, 100, 6), need (2, 18395, 6)"),
    "flat": (lambda: _good().reshape(-1), f"values have shape ({2 * N_HANDS * 6},)"),
    "strings": (lambda: _good().astype(str), "values are <U"),
    "booleans": (lambda: _good() > 0.5, "values are bool"),
    "complex": (lambda: _good().astype(np.complex64), "values are complex64"),
}


@pytest.mark.parametrize("kind", list(BAD_TABLES))
def test_a_bad_es_table_is_refused_naming_the_file(tmp_path: Path, kind: str) -> None:
    make, what = BAD_TABLES[kind]
    path = _table(tmp_path, make())
    with pytest.raises(ValueError) as info:
        load_table(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and what in message and "\n" not in message
    res = runner.invoke(app, ["cribbage", "discard", "--crib", "mine",
                              *HAND, "-p", f"es:table={path}"])
    _one_error_line(res, str(path), what)


@pytest.mark.parametrize(("content", "what"), [
    (b"", "cannot read an ES table"),
    (b"garbage", "cannot read an ES table"),
    (b"PK\x03\x04 truncated", "cannot read an ES table"),
])
def test_a_file_that_is_not_a_table_is_one_error_line(tmp_path: Path, content: bytes,
                                                      what: str) -> None:
    path = tmp_path / "t.npz"
    path.write_bytes(content)
    with pytest.raises(ValueError, match="cannot read an ES table"):
        load_table(path)
    res = runner.invoke(app, ["cribbage", "discard", "--crib", "mine",
                              *HAND, "-p", f"es:table={path}"])
    _one_error_line(res, str(path), what)


def test_other_es_files_are_one_error_line(tmp_path: Path) -> None:
    npy = tmp_path / "t.npy"
    np.save(npy, _good())
    with pytest.raises(ValueError, match=r"t\.npy: cannot read an ES table"):
        cr_players.make_player("es", table=str(npy))
    path = _table(tmp_path, _good(), name="novalues.npz")
    with np.load(path) as data:
        kept = {k: data[k] for k in data.files if k != "values"}
    np.savez(path, **kept)
    with pytest.raises(ValueError, match=r"novalues\.npz: cannot read an ES table"):
        load_table(path)


def test_a_good_table_and_the_shipped_one_still_load(tmp_path: Path) -> None:
    values = _good()
    np.testing.assert_array_equal(load_table(_table(tmp_path, values, "ok.npz")), values)
    assert load_table(DEFAULT_TABLE).shape == (2, N_HANDS, 6)


@pytest.mark.mutation_pin
def test_one_of_lists_every_choice() -> None:
    from fuzzeval.games.options import as_choice

    with pytest.raises(ValueError, match=r"^stop must be 'none' \(got 'x'\)$"):
        as_choice("stop", "x", ["none"])
    with pytest.raises(ValueError, match=r"^stop must be 'a', 'b' or 'c' \(got 'x'\)$"):
        as_choice("stop", "x", ["a", "b", "c"])


@pytest.mark.mutation_pin
def test_an_unknown_backgammon_player_lists_the_players() -> None:
    from fuzzeval.games.backgammon.players import make_player

    with pytest.raises(ValueError, match=r"^unknown backgammon player 'nobody' \(players: "
                                         r"random, pubeval, gnubg, fuzzy\)$"):
        make_player("nobody")
