"""The command line's shared conventions (docs/cli.md): the version, help, option spellings
and their deprecated forms, exit codes, round numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

import fuzzeval
from fuzzeval.calibration import load_calibration
from fuzzeval.cli import app
from fuzzeval.cli.plot import _label, _two_rounds
from fuzzeval.store import History

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


# --- -o is the output; the opponent is --opponent --------------------------------------


def test_match_o_for_the_opponent_still_works_with_a_deprecation_line(tmp_path: Path) -> None:
    base = ["match", "cribbage", "-p", "greedy", "-n", "2", "--json"]
    new = runner.invoke(app, [*base, "--opponent", "random", "--db", str(tmp_path / "a.db")])
    old = runner.invoke(app, [*base, "-o", "random", "--db", str(tmp_path / "b.db")])
    assert new.exit_code == old.exit_code == 0, old.output
    assert new.stderr == ""
    assert old.stderr == "warning: -o for the opponent is deprecated; use --opponent\n"
    drop = ("db", "match_id")
    assert ({k: v for k, v in json.loads(old.stdout).items() if k not in drop}
            == {k: v for k, v in json.loads(new.stdout).items() if k not in drop})
    both = runner.invoke(app, [*base, "-o", "random", "--opponent", "greedy"])
    assert both.exit_code == 2 and "--opponent given twice" in both.stderr
    assert len(both.stderr.splitlines()) == 1


def test_calibrate_o_for_the_opponent_still_works_with_a_deprecation_line(
        tmp_path: Path) -> None:
    res = runner.invoke(app, ["calibrate", "cribbage", "-o", "random", "--rounds", "1",
                              "--games-per-round", "2", "--deals", "0", "--json", "--workers",
                              "1", "--db", str(tmp_path / "c.db"), "--plot",
                              str(tmp_path / "d.png")])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["opponent"] == "random"
    assert res.stderr == "warning: -o for the opponent is deprecated; use --opponent\n"
    help_text = runner.invoke(app, ["calibrate", "--help"]).stdout
    assert "--opponent" in help_text and "-o " not in help_text


def test_tune_output_is_o_and_out_is_deprecated(tmp_path: Path) -> None:
    folder = tmp_path / "adir"
    folder.mkdir()
    for spelling in ("-o", "--output", "--out"):  # refused before any work, naming --output
        res = runner.invoke(app, ["tune", "cribbage", spelling, str(folder), "--db",
                                  str(tmp_path / "t.db")])
        assert res.exit_code == 2 and "--output" in res.stderr and "not a file name" in res.stderr
        assert ("warning: --out is deprecated; use --output (-o)" in res.stderr) == (
            spelling == "--out")


# --- --workers/-w ----------------------------------------------------------------------


def test_every_workers_option_is_w_defaults_to_2_and_refuses_0() -> None:
    found = []
    for path, command in _commands(typer.main.get_command(app)):
        for param in command.params:
            if param.name != "workers":
                continue
            found.append(path[-1])
            assert sorted(param.opts) == ["--workers", "-w"] and param.default == 2, path
            needs = ["cribbage"] if path[0] in ("match", "calibrate", "tournament", "tune") else (
                ["x.sqlite"] if path[0] == "evaluate-calibration" else [])
            res = runner.invoke(app, [*path, *needs, "--workers", "0"])
            assert res.exit_code == 2 and "--workers" in res.output, (path, res.output)
    assert sorted(found) == ["calibrate", "evaluate-calibration", "match", "report",
                             "tournament", "tune"]


# --- --crib says whose crib; score's switch is --as-crib, train-es's --with-crib ----------


def test_score_as_crib_and_its_deprecated_crib_spelling() -> None:
    hand = ["cribbage", "score", "5H", "6H", "7H", "8H", "KS", "--json"]  # a four-card flush
    plain, as_crib, old = (runner.invoke(app, [*hand, *extra])
                           for extra in ([], ["--as-crib"], ["--crib"]))
    assert json.loads(plain.stdout)["points"] == json.loads(as_crib.stdout)["points"] + 4
    assert as_crib.stdout == old.stdout and as_crib.stderr == ""
    assert old.stderr == ("warning: score --crib is deprecated; use --as-crib (--crib says "
                          "whose crib)\n")
    help_text = _flat(runner.invoke(app, ["cribbage", "score", "--help"],
                                    env={"COLUMNS": "250"}).stdout)
    assert "--as-crib" in help_text and "--crib" not in help_text


@pytest.mark.parametrize(("old", "new", "counted"), [("--no-crib", "--hand-only", False),
                                                     ("--crib", "--with-crib", True)])
def test_train_es_with_crib_and_its_deprecated_spelling(tmp_path: Path, old: str, new: str,
                                                        counted: bool) -> None:
    tables = []
    for flag in (old, new):
        out = tmp_path / f"{flag}.npz"
        res = runner.invoke(app, ["cribbage", "train-es", "-n", "2000", "--hands", "9", flag,
                                  "-o", str(out), "--plot", str(tmp_path / f"{flag}.png")])
        assert res.exit_code == 0, res.output
        assert ("deprecated; use --with-crib/--hand-only" in res.stderr) == (flag == old)
        with np.load(out) as data:
            assert bool(data["crib"]) is counted
            tables.append(data["values"].copy())
    assert np.array_equal(*tables)
    both = runner.invoke(app, ["cribbage", "train-es", "-n", "10", old, new])
    assert both.exit_code == 2 and "given twice" in both.stderr


# --- players: -p NAME[:key=value,...], once per player -----------------------------------


def test_tournament_takes_repeated_p_and_players_still_works(tmp_path: Path) -> None:
    base = ["tournament", "cribbage", "--games", "2", "--workers", "1", "--json",
            "--plot", str(tmp_path / "t.png")]
    new = runner.invoke(app, [*base, "-p", "random", "--player",
                              "exhaustive:weights=expert,pegging=basic",
                              "--db", str(tmp_path / "a.db")])
    old = runner.invoke(app, [*base, "--players", "random,exhaustive:weights=expert;pegging=basic",
                              "--db", str(tmp_path / "b.db")])
    assert new.exit_code == old.exit_code == 0, old.output
    assert new.stderr == ""
    assert old.stderr == ("warning: --players is deprecated; use -p NAME[:key=value,...] once "
                          "per player\n")
    drop = ("db",)
    assert ({k: v for k, v in json.loads(old.stdout).items() if k not in drop}
            == {k: v for k, v in json.loads(new.stdout).items() if k not in drop})
    assert json.loads(new.stdout)["players"] == ["random",
                                                 "exhaustive:weights=expert,pegging=basic"]
    for args, message in [(["-p", "random"], "at least two players (got 1)"),
                          (["-p", "random", "--players", "greedy,random"], "not both")]:
        res = runner.invoke(app, [*base, *args, "--db", str(tmp_path / "c.db")])
        assert res.exit_code == 2 and message in res.stderr, res.output
        assert len(res.stderr.splitlines()) == 1 and not (tmp_path / "c.db").exists()


def test_cribbage_report_takes_repeated_p_and_players_still_works(tmp_path: Path) -> None:
    base = ["cribbage", "report", "--deals", "20", "--workers", "1", "--json",
            "--plot", str(tmp_path / "r.png")]
    new = runner.invoke(app, [*base, "-p", "random", "-p", "exhaustive:weights=expert"])
    old = runner.invoke(app, [*base, "--players", "random,exhaustive:weights=expert"])
    assert new.exit_code == old.exit_code == 0, old.output
    assert "--players is deprecated" in old.stderr and "deprecated" not in new.stderr
    names = [p["player"] for p in json.loads(new.stdout)["players"]]
    assert names == [p["player"] for p in json.loads(old.stdout)["players"]]
    assert names == ["random", "exhaustive:weights=expert"]


# --- exit codes: 2 for the command line, 1 for a failure --------------------------------


@pytest.fixture(scope="module")
def calibration_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished one-round calibration (rule bases 0 and 1 stored)."""
    folder = tmp_path_factory.mktemp("cal")
    db = folder / "cal.sqlite"
    res = runner.invoke(app, ["calibrate", "cribbage", "--opponent", "greedy", "--rounds", "1",
                              "--games-per-round", "2", "--deals", "0", "--workers", "1",
                              "--db", str(db), "--plot", str(folder / "drift.png"), "--json"])
    assert res.exit_code == 0, res.output
    (folder / "calibrate.json").write_text(res.stdout)
    return db


def _one_error_line(res: Any) -> str:
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    lines = [line for line in res.stderr.splitlines() if not line.startswith("warning: ")]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    return lines[0]


def test_usage_errors_exit_2_in_one_line_before_any_work(tmp_path: Path,
                                                         calibration_db: Path) -> None:
    """Each of these exited 1, printed a box, or a traceback (some after the whole run)."""
    db, gif, none = str(tmp_path / "x.sqlite"), str(tmp_path / "x.gif"), str(tmp_path / "n.db")
    cal = str(calibration_db)
    cases = [
        (["evaluate", "tipping", "--csv", str(tmp_path / "no.csv")], "--csv"),
        (["evaluate", "tipping", "--csv", __file__, "-o", str(tmp_path)], "a folder"),
        (["evaluate", "tipping", "-i", "quality=1", "-i", "service=2", "-i", "x=3"],
         "unknown x"),
        (["rulebase", "show", "no_such.yaml"], "no such rule-base file"),
        (["calibrate", "cribbage", "--rulebase", "no_such", "--db", db], "no shipped rule base"),
        (["tune", "cribbage", "--rulebase", "no_such.yaml", "--db", db], "no such rule-base"),
        (["calibrate", "cribbage", "--rate", "-1", "--db", db], "--rate"),
        (["calibrate", "cribbage", "--rate", "nan", "--db", db], "--rate"),
        (["calibrate", "cribbage", "--win-unit", "hand", "--db", db], "--win-unit"),
        (["calibrate", "cribbage", "--window", "x", "--db", db], "--window"),
        (["calibrate", "cribbage", "--plot", gif, "--db", db], "--plot"),
        (["tournament", "cribbage", "-n", "1", "--plot", gif, "--db", db], "--plot"),
        (["cribbage", "report", "--deals", "5", "--plot", gif], "--plot"),
        (["cribbage", "report", "--deals", "5", "--plot", str(tmp_path)], "a folder"),
        (["cribbage", "report", "--deals", "5", "--seed", "-1"], "--seed"),
        (["cribbage", "train-es", "-n", "10", "--seed", "-1"], "--seed"),
        (["cribbage", "train-es", "-n", "10", "--plot", gif], "--plot"),
        (["cribbage", "train-es", "-n", "10", "--p", "3"], "--p must be"),
        (["cribbage", "train-es", "-n", "10", "-o", str(tmp_path)], "--output"),
        (["plot", "membership", "tipping", "-o", str(tmp_path)], "a folder"),
        (["plot", "drift", none], "no such database"),
        (["plot", "curve", cal, none], "no such database"),
        (["evaluate-calibration", none], "no such database"),
        (["evaluate-calibration", cal, "--calibration", "7"], "no calibration 7 (stored: 1)"),
        (["plot", "drift", cal, "--calibration", "7"], "no calibration 7"),
        (["plot", "membership", cal, "--round", "a,b"], "'a' is not first, last or a number"),
        (["plot", "membership", cal, "--round", "1"], "give two rule bases as A,B"),
        (["plot", "membership", cal, "--round", "0,1,2"], "give two rule bases as A,B"),
        (["plot", "membership", cal, "--round", "0,2"], "0..1"),
    ]
    for args, message in cases:
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        assert message in _one_error_line(res), (args, res.stderr)
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing was made


def test_clicks_own_usage_errors_are_one_line_too() -> None:
    """An unknown option, a value out of range, a missing argument: exit 2 and one line
    naming the option and the command's help (Click printed a usage text and a box)."""
    for args, message in [(["match", "cribbage", "--bogus"], "No such option: --bogus"),
                          (["match", "cribbage", "-w", "0"], "'--workers' / '-w'"),
                          (["tune", "cribbage", "--seed", "-1"], "'--seed'"),
                          (["match"], "Missing argument 'GAME'"),
                          (["nosuch"], "No such command 'nosuch'")]:
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        line = _one_error_line(res)
        assert message in line and line.endswith("--help)"), (args, line)
        assert res.stdout == ""


def test_failures_still_exit_1(tmp_path: Path) -> None:
    """What the command line names exists but will not do: exit 1."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\n")
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database")
    for args, message in [(["evaluate", str(bad), "-i", "x=1"], "defuzzifier"),
                          (["plot", "drift", str(junk)], "not a usable SQLite database"),
                          (["match", "cribbage", "--resume", "--db", str(tmp_path / "no.db")],
                           "nothing to resume")]:
        res = runner.invoke(app, args)
        assert res.exit_code == 1 and message in res.stderr, (args, res.output)


def test_an_old_shipped_name_warns_in_one_line() -> None:
    """Python's warnings print the file, line and source: the command prints one line."""
    done = subprocess.run([sys.executable, "-m", "fuzzeval", "rulebase", "show",
                           "cribbage_discard", "--json"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ("warning: the shipped rule base 'cribbage_discard' is now called "
                           "'cribbage_expected_points'; the old name will go\n")


# --- rounds count from 1; rule base N is the one after round N (0: the initial one) --------


def test_rounds_count_from_1_and_rule_base_n_is_after_round_n(calibration_db: Path) -> None:
    data = json.loads((calibration_db.parent / "calibrate.json").read_text())
    assert [r["round"] for r in data["rounds"]] == [1]  # was 0
    with History(calibration_db, readonly=True) as history:
        cal = load_calibration(history)
    initial, after_1 = (r.rulebase_yaml for r in cal.results)
    assert Path(data["calibrated"]).read_text() == after_1 != initial
    snapshots = calibration_db.parent / "cal_rulebases"
    assert (snapshots / "calibration1_round000.yaml").read_text() == initial
    # --round picks the same rule bases by the same numbers as before, now named as such
    assert _two_rounds("first,last", 1) == _two_rounds("0,1", 1) == (0, 1)
    assert (_label(0, 1), _label(1, 1)) == ("initial", "calibrated (after round 1)")
    assert _label(2, 5) == "after round 2"
    help_text = _flat(runner.invoke(app, ["plot", "membership", "--help"],
                                    env={"COLUMNS": "250"}).stdout)
    assert "the one after round N; rounds count from 1" in help_text
    res = runner.invoke(app, ["calibrate", "--help"], env={"COLUMNS": "250"})
    assert "round N (from 1) plays with SeedSequence([seed, N - 1])" in _flat(res.stdout)


def test_the_documented_round_seed_is_the_one_played(calibration_db: Path) -> None:
    """calibrate --seed's help: round N (from 1) plays with SeedSequence([seed, N - 1])."""
    with History(calibration_db, readonly=True) as history:
        seeds = history.matches()["seed"].tolist()
    state = np.random.SeedSequence([1, 0]).generate_state(1, np.uint32)[0]
    assert seeds == [int(state)]
