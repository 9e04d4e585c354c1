"""The command line's shared conventions (docs/cli.md): the version, help, option spellings
and their deprecated forms, exit codes, round numbers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

import fuzzeval
from fuzzeval.cli import app
from fuzzeval.cli.plot import _label, _two_rounds
from fuzzeval.learn.calibration_rounds import load_calibration
from fuzzeval.play.store import History
from tests.conftest import skip_drift_drawing

runner = CliRunner()


def test_version_option_and_attribute() -> None:
    assert fuzzeval.__version__ == version("fuzzeval")
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout.strip() == f"fuzzeval {fuzzeval.__version__}"


@pytest.mark.parametrize("group", [[], ["plot"], ["rulebase"], ["cribbage"], ["backgammon"],
                                   ["hearts"]])
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


def test_o_in_match_and_calibrate_is_refused_naming_opponent_and_db(tmp_path: Path) -> None:
    """-o was the opponent in match and calibrate and an output everywhere else: refused,
    before any file, in one line that says where each goes."""
    for command in ("match", "calibrate"):
        db = tmp_path / f"{command}.sqlite"
        res = runner.invoke(app, [command, "cribbage", "-o", "random", "--db", str(db)])
        assert res.exit_code == 2 and res.stderr == (
            f"error: -o random: {command} has no -o: it writes its games to --db, and its "
            "opponent is --opponent (-o is an output elsewhere)\n"), res.output
        assert not db.exists()
        help_text = runner.invoke(app, [command, "--help"]).stdout
        assert "--opponent" in help_text and "-o " not in help_text


def test_tune_output_is_o(tmp_path: Path) -> None:
    folder = tmp_path / "adir"
    folder.mkdir()
    for spelling in ("-o", "--output"):  # refused before any work, naming --output
        res = runner.invoke(app, ["tune", "cribbage", spelling, str(folder), "--db",
                                  str(tmp_path / "t.db")])
        assert res.exit_code == 2 and "--output" in res.stderr and "not a file name" in res.stderr
        assert "warning" not in res.stderr


# --- --workers/-w ----------------------------------------------------------------------


def test_every_workers_option_is_w_defaults_to_2_and_refuses_0() -> None:
    found = []
    for path, command in _commands(typer.main.get_command(app)):
        for param in command.params:
            if param.name != "workers":
                continue
            found.append(path[-1])
            assert sorted(param.opts) == ["--workers", "-w"] and param.default == 2, path
            needs = ["cribbage"] if path[0] in ("match", "calibrate", "tournament", "tune",
                                                "learn") else (
                ["x.sqlite"] if path[0] == "evaluate-calibration" else [])
            res = runner.invoke(app, [*path, *needs, "--workers", "0"])
            assert res.exit_code == 2 and "--workers" in res.output, (path, res.output)
    assert sorted(found) == ["calibrate", "evaluate-calibration", "learn", "match",
                             "report", "tournament", "tune"]


# --- a number option is a finite number ------------------------------------------------


def test_every_number_option_refuses_inf_and_nan_in_one_line() -> None:
    """Click reads ``inf``, ``nan`` and ``1e400`` as floats; no option means them (a learn
    with ``--alpha inf`` wrote a base whose conclusions were all 0)."""
    found = []
    for path, command in _commands(typer.main.get_command(app)):
        for param in command.params:
            if type(param.type).__name__ not in ("FloatParamType", "FloatRange"):
                continue
            option = max(param.opts, key=len)
            found.append(f"{' '.join(path)} {option}")
            for value in ("inf", "-inf", "nan", "1e400"):
                res = runner.invoke(app, [*path, option, value])
                assert res.exit_code == 2, (path, option, res.output)
                assert res.output == (f"error: Invalid value for '{option}': {value!r} is not "
                                      f"a finite number (see fuzzeval {' '.join(path)} "
                                      "--help)\n"), res.output
    assert sorted(found) == [
        "calibrate --rate", "cribbage train-es --p", "holdem act --temperature",
        "learn --alpha", "learn --lambda", "learn --min-share", "learn --quad-share",
        "learn --scale", "learn --triple-share", "rulebase import --default", "tune --sigma"]


# --- --seed ---------------------------------------------------------------------------


def test_every_seed_defaults_to_1_and_takes_any_stored_seed() -> None:
    """One default for every --seed (the documented commands and shipped bases use 1), and
    the same range, 0 to the largest seed the history stores; left out only where the seed
    comes from elsewhere: evaluate-calibration (the calibration's held-out family) and play
    (a new game each time)."""
    from fuzzeval.cli.common import SEED_MAX

    found = {}
    for path, command in _commands(typer.main.get_command(app)):
        for param in command.params:
            if param.name == "seed":
                found[" ".join(path)] = param.default
                assert (param.type.min, param.type.max) == (0, SEED_MAX), path  # type: ignore[attr-defined]
    assert found == {"calibrate": 1, "evaluate-calibration": None, "match": 1,
                     "tournament": 1, "tune": 1, "learn": 1, "play": None,
                     "openspiel play": 1, "cribbage train-es": 1, "cribbage report": 1,
                     "cribbage pegging": 1, "hearts card": 1, "holdem act": 1}


# --- --crib says whose crib; score's switch is --as-crib, train-es's --with-crib ----------


def test_score_as_crib() -> None:
    hand = ["cribbage", "score", "5H", "6H", "7H", "8H", "KS", "--json"]  # a four-card flush
    plain, as_crib = (runner.invoke(app, [*hand, *extra]) for extra in ([], ["--as-crib"]))
    assert json.loads(plain.stdout)["points"] == json.loads(as_crib.stdout)["points"] + 4
    assert as_crib.stderr == ""
    help_text = _flat(runner.invoke(app, ["cribbage", "score", "--help"],
                                    env={"COLUMNS": "250"}).stdout)
    assert "--as-crib" in help_text and "--crib" not in help_text


@pytest.mark.parametrize(("flags", "counted"), [(["--hand-only"], False),
                                               (["--with-crib"], True), ([], True)])
def test_train_es_with_crib_or_hand_only(tmp_path: Path, flags: list[str],
                                         counted: bool) -> None:
    """--with-crib (the default) scores the crib too, --hand-only the hand alone."""
    out = tmp_path / "es.npz"
    res = runner.invoke(app, ["cribbage", "train-es", "-n", "2000", "--hands", "9", *flags,
                              "-o", str(out), "--plot", str(tmp_path / "es.png")])
    assert res.exit_code == 0, res.output
    assert "warning" not in res.stderr
    with np.load(out) as data:
        assert bool(data["crib"]) is counted


# --- players: -p NAME[:key=value,...], once per player -----------------------------------


def test_tournament_takes_repeated_p(tmp_path: Path) -> None:
    base = ["tournament", "cribbage", "--games", "2", "--workers", "1", "--json",
            "--plot", str(tmp_path / "t.png")]
    new = runner.invoke(app, [*base, "-p", "random", "--player",
                              "exhaustive:weights=expert,pegging=basic",
                              "--db", str(tmp_path / "a.db")])
    assert new.exit_code == 0, new.output
    assert new.stderr == ""
    assert json.loads(new.stdout)["players"] == ["random",
                                                 "exhaustive:weights=expert,pegging=basic"]
    res = runner.invoke(app, [*base, "-p", "random", "--db", str(tmp_path / "c.db")])
    assert res.exit_code == 2 and "at least two players (got 1)" in res.stderr, res.output
    assert len(res.stderr.splitlines()) == 1 and not (tmp_path / "c.db").exists()


def test_cribbage_report_takes_repeated_p(tmp_path: Path) -> None:
    base = ["cribbage", "report", "--deals", "20", "--workers", "1", "--json",
            "--plot", str(tmp_path / "r.png")]
    new = runner.invoke(app, [*base, "-p", "random", "-p", "exhaustive:weights=expert"])
    assert new.exit_code == 0, new.output
    assert "warning" not in new.stderr
    names = [p["player"] for p in json.loads(new.stdout)["players"]]
    assert names == ["random", "exhaustive:weights=expert"]


# --- exit codes: 2 for the command line, 1 for a failure --------------------------------


@pytest.fixture(scope="module")
def calibration_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished one-round calibration (rule bases 0 and 1 stored)."""
    folder = tmp_path_factory.mktemp("cal")
    db = folder / "cal.sqlite"
    with pytest.MonkeyPatch.context() as mp:  # its picture is not what is checked here
        skip_drift_drawing(mp)
        res = runner.invoke(app, ["calibrate", "cribbage", "--opponent", "greedy", "--rounds",
                                  "1", "--games-per-round", "2", "--held-out-deals", "0",
                                  "--workers", "1", "--db", str(db), "--plot",
                                  str(folder / "drift.png"), "--json"])
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


# --- one name, one meaning: every option of every command against one declared table ------


@dataclass(frozen=True)
class Meaning:
    """What an option name means everywhere, and how every help of it begins (a regular
    expression matched at the start): a help that begins so is this option and no other."""

    what: str
    help: str


#: every option name of every command (docs/cli.md, "Option names"), by its long spelling
OPTIONS: dict[str, Meaning] = {
    "--input": Meaning("an input variable's value NAME=VALUE", r"NAME=VALUE"),
    "--explain": Meaning("why: memberships and rule strengths", r"Why: "),
    "--json": Meaning("machine-readable output on stdout", r"Print the [\w ]+ as JSON\.$"),
    "--csv": Meaning("a table of inputs to grade", r"Grade every row of a CSV"),
    "--output": Meaning("the command's output file", r"Output file|Image file"),
    "--rulebase": Meaning("the rule base a command works on", r"Rule base to "),
    "--player": Meaning("a player under test, NAME[:key=value,...]",
                        r"Player( A| whose pegging)?:|A player[:,]|Seat 0, the player"),
    "--opponent": Meaning("the player measured against, NAME[:key=value,...]",
                          r"Opponent:|Every other seat:|Player B\b"),
    "--advisor": Meaning("a player ? asks at the terminal, NAME[:key=value,...]",
                         r"A player \? asks"),
    "--games": Meaning("games the command plays", r"(Held-out )?[Gg]ames (to play|per|for)"),
    "--rounds": Meaning("calibration rounds", r"Rounds of play-then-calibrate"),
    "--games-per-round": Meaning("games in each calibration round", r"Games in each round"),
    "--rate": Meaning("eq. 1's calibration rate", r"Eq\. 1's rate"),
    "--seed": Meaning("the seed of the randomness", r"([\w-]+ )?[Ss]eed\b"),
    "--db": Meaning("the SQLite history database",
                    r"History database \(SQLite\); default runs/GAME(_\w+)?\.sqlite\.$"),
    "--workers": Meaning("local worker processes", r"Local worker processes"),
    "--win-unit": Meaning("winning decisions: of won games or deals", r"Winning decisions"),
    "--window": Meaning("calibrate from this round or all rounds", r"Calibrate from"),
    "--resume": Meaning("continue the stored run", r"Continue the stored run with these "
                                                     r"settings, and fail if there is none"),
    "--option": Meaning("a game option key=value", r"Game option key=value"),
    "--plot": Meaning("a picture besides the results", r"[\w-]+( [\w-]+)* picture\b"),
    "--deals": Meaning("deals the command plays (its sample)", r"Deals\b"),
    "--held-out-deals": Meaning("deals from a seed no round or training uses, for the "
                                "game's own measure of a rule base", r"Held-out deals"),
    "--training-deals": Meaning("deals tune fits the rule base on", r"Training deals"),
    "--calibration": Meaning("which calibration in the database", r"Which calibration"),
    "--dask": Meaning("a Dask scheduler to run on", r"(Run the games|Evaluate) on [\w ]*Dask"),
    "--budget": Meaning("evaluations of the measure at most", r"Evaluations of the measure"),
    "--outputs": Meaning("tune the output terms too", r"Also tune the output terms that declare"),
    "--sigma": Meaning("CMA-ES's first step", r"CMA-ES's first step"),
    "--popsize": Meaning("rule bases a CMA-ES generation", r"Rule bases a generation"),
    "--round": Meaning("two stored rule bases to overlay", r"With a database: the two rule"),
    "--dice": Meaning("the backgammon roll", r"The roll"),
    "--crib": Meaning("whose crib: mine or theirs", r"Whose crib: mine or theirs"),
    "--weights": Meaning("the opponent's throws: uniform or expert",
                         r"Exhaustive player: opponent's throws"),
    "--batch": Meaning("one hand a line in, one JSON object a line out", r"One hand per line"),
    "--starter": Meaning("the starter (cut) card", r"The starter"),
    "--as-crib": Meaning("count the hand as a crib", r"Count the hand as a crib"),
    "--port": Meaning("the studio's port", r"Port to listen on"),
    "--host": Meaning("the studio's address", r"Address to listen on"),
    "--no-open": Meaning("print the studio's address, open no browser", r"Print the address"),
    "--iterations": Meaning("ES iterations, a deal each", r"Iterations: deals to learn"),
    "--variant": Meaning("the ES variant", r"threshold or coevolution"),
    "--p": Meaning("the ES threshold", r"Threshold: success is"),
    "--bounded": Meaning("keep ES values in [0.1, 0.9]", r"Keep values in"),
    "--with-crib": Meaning("train on the hand and the crib, or the hand only",
                           r"Score the hand and the crib"),
    "--hands": Meaning("train on this many fixed hands", r"Train on this many fixed"),
    "--count": Meaning("the current count's cards", r"The current count's cards"),
    "--earlier": Meaning("cards laid earlier this deal", r"Cards laid earlier"),
    "--mine": Meaning("which laid cards are mine", r"Which of the laid cards are mine"),
    "--thrown": Meaning("the two cards I threw", r"The two cards I threw"),
    "--score": Meaning("my score", r"My score"),
    "--opponent-score": Meaning("the opponent's score", r"Theirs"),
    "--version": Meaning("print the version", r"Print the version"),
    "--default": Meaning("the grade where no rule fires", r"The grade where no rule fires"),
    "--match": Meaning("which stored match", r"Match id"),
    "--game": Meaning("which stored game of a match", r"Game index"),
    "--seats": Meaning("every seat's player, seat 0 first", r"Every seat's player"),
    "--duplicate": Meaning("each deal played with every seat moving first",
                           r"Play each deal once with every seat"),
    "--format": Meaning("the output's format", r"jsonl"),
    "--trick": Meaning("the cards on the current trick", r"Cards on the current trick"),
    "--voids": Meaning("the voids each seat has shown", r"Voids shown"),
    "--taken": Meaning("the points each seat has taken", r"Points taken this hand"),
    "--pass": Meaning("the pass direction: advise the pass", r"Pass direction"),
    "--rules": Meaning("which rules of the game", r"Hearts rules"),
    "--each": Meaning("rules shown each way", r"Rules shown each way"),
    "--with": Meaning("only the rules that assert an atom",
                      r"Only rules whose condition is this atom"),
    "--block": Meaning("games between two commits of a learn",
                       r"Games between two commits to --db"),
    "--halving": Meaning("games a TD(λ) step size takes to halve",
                         r"TD\(λ\): the step size's schedule"),
    "--update": Meaning("games a TD(λ) update", r"TD\(λ\): games played with the same"),
    "--lambda": Meaning("TD(λ)'s λ", r"TD\(λ\): λ in"),
    "--alpha": Meaning("TD(λ)'s step size", r"TD\(λ\): a decision's step size"),
    "--order": Meaning("atoms a generated conjunction joins",
                       r"Generated start: conjunctions of at most"),
    "--min-share": Meaning("the firing share an atom or a pair needs",
                           r"Generated start: an atom or a pair"),
    "--triple-share": Meaning("the firing share a triple needs", r"Generated start: a triple"),
    "--quad-share": Meaning("the firing share a quadruple needs",
                            r"Generated start: a quadruple"),
    "--average": Meaning("blocks whose conclusions the learned base averages",
                         r"The learned base concludes the mean"),
    "--monte-carlo": Meaning("a kind of decision that learns from the payoff after it",
                             r"Decisions of this kind learn from the payoff after them"),
    "--target": Meaning("what a learned value steps toward", r"TD\(λ\): what a choice's "
                                                             r"value steps toward"),
    "--split": Meaning("the feature whose atoms each lead a group of generated rules",
                       r"Generated start: one group of rules for each atom"),
    "--single-features": Meaning("features whose atoms join no other feature's",
                                 r"Generated start: atoms of these features"),
    "--group-features": Meaning("the features a group of generated rules draws on",
                                r"Generated start with --split: the group of these atoms"),
    "--sample-games": Meaning("games that sample the decisions", r"Generated start: games"),
    "--scale": Meaning("the range of generated conclusions",
                       r"Generated start: conclusions stay"),
    "--measure-every": Meaning("blocks between two points of a learning curve",
                               r"Learning curve: blocks"),
    "--measure-games": Meaning("games a point of a learning curve", r"Learning curve: games"),
    "--measure-opponent": Meaning("the learning curve's opponent",
                                  r"Learning curve: the fixed opponent"),
    "--hole": Meaning("my hole cards", r"My hole cards"),
    "--board": Meaning("the board so far", r"The board so far"),
    "--betting": Meaning("the betting so far, the ACPC way", r"The betting so far"),
    "--temperature": Meaning("the triple's softmax temperature", r"Softmax temperature"),
    "--action": Meaning("the action to explain", r"The action to explain"),
    "--simulations": Meaning("simulations per decision of OpenSpiel's searches",
                             r"Simulations per decision"),
}
#: the short spellings, each of one meaning (-n: how many of the command's unit)
SHORT = {"-i": {"--input"}, "-o": {"--output"}, "-p": {"--player"}, "-w": {"--workers"},
         "-n": {"--games", "--iterations", "--each"}}
#: the off switches of flags
OFF = {"--outputs": "--points-only", "--bounded": "--unbounded", "--with-crib": "--hand-only"}
#: hidden spellings that are refused, saying what to give instead (-o, the opponent once)
REFUSED = {("match", "-o"), ("calibrate", "-o")}
#: spellings removed before the first release (docs/cli.md): (command line, old spelling
#: and its value) -> Click's usage error, in the command line's one line
REMOVED = {
    ("tune cribbage", "--out x.yaml"):
        "No such option: --out (Possible options: --budget, --output, --outputs) "
        "(see fuzzeval tune --help)",
    ("tune cribbage", "--deals 5"):
        "No such option: --deals (Possible options: --dask, --help, --training-deals) "
        "(see fuzzeval tune --help)",
    ("tune cribbage", "--held-out 5"):
        "No such option: --held-out (Possible options: --held-out-deals, --help) "
        "(see fuzzeval tune --help)",
    ("calibrate cribbage", "--deals 5"):
        "No such option: --deals (Possible options: --dask, --held-out-deals, --help) "
        "(see fuzzeval calibrate --help)",
    ("evaluate-calibration c.sqlite", "--deals 5"):
        "No such option: --deals (Possible options: --dask, --held-out-deals, --help) "
        "(see fuzzeval evaluate-calibration --help)",
    ("cribbage score 5H 6H 7H 8H KS", "--crib"):
        "No such option: --crib (Possible options: --as-crib) "
        "(see fuzzeval cribbage score --help)",
    ("cribbage train-es", "--crib"):
        "No such option: --crib (Possible options: --with-crib) "
        "(see fuzzeval cribbage train-es --help)",
    ("cribbage train-es", "--no-crib"):
        "No such option: --no-crib (Possible options: --with-crib) "
        "(see fuzzeval cribbage train-es --help)",
    ("tournament cribbage", "--players random,greedy"):
        "No such option: --players (Possible options: --games, --player) "
        "(see fuzzeval tournament --help)",
    ("cribbage report", "--players random,greedy"):
        "No such option: --players (Possible options: --player) "
        "(see fuzzeval cribbage report --help)",
    ("cribbage pegging", "--against greedy"):
        "No such option: --against (see fuzzeval cribbage pegging --help)",
    ("play cribbage", "--against greedy"):
        "No such option: --against (Possible options: --games) (see fuzzeval play --help)",
    ("evaluate tipping -i quality=6.5 -i service=9.8", "--no-explain"):
        "No such option: --no-explain (Possible options: --explain) "
        "(see fuzzeval evaluate --help)",
}


def _options() -> Iterator[tuple[str, Any]]:
    """(command path, option) for every option of every command, game commands included."""
    for path, command in _commands(typer.main.get_command(app)):
        for param in command.params:
            if param.param_type_name == "option" and param.name != "help":
                yield " ".join(path), param


def _clashes() -> list[str]:
    """Each option that breaks the table: an unknown name, a help that begins like another
    name's meaning (one meaning, two names) or not like its own (one name, two meanings)."""
    found = []
    for where, param in _options():
        longs = [o for o in param.opts if o.startswith("--")]
        shorts = [o for o in param.opts if not o.startswith("--")]
        help_text = param.help or ""
        if param.hidden:
            old = param.opts[0]
            if (where, old) in REFUSED and help_text.startswith("Not an option here"):
                continue  # a spelling refused in one line that says what to give instead
            found.append(f"{where} {old}: hidden but not a refused spelling")
            continue
        if len(longs) != 1 or longs[0] not in OPTIONS:
            found.append(f"{where} {'/'.join(param.opts)}: not in the table of option names")
            continue
        name = longs[0]
        if not re.match(OPTIONS[name].help, help_text):
            found.append(f"{where} {name}: help {help_text[:40]!r} is not its meaning, "
                         f"{OPTIONS[name].what}")
        for other, meaning in OPTIONS.items():
            if other != name and re.match(meaning.help, help_text):
                found.append(f"{where} {name}: means {other} ({meaning.what})")
        found.extend(f"{where} {short}: is {name} here, not {SHORT.get(short)}"
                     for short in shorts if name not in SHORT.get(short, ()))
        if param.secondary_opts != ([OFF[name]] if name in OFF else []):
            found.append(f"{where} {name}: off switch {param.secondary_opts}")
    return found


def test_every_option_of_every_command_has_one_name_and_one_meaning() -> None:
    """The option walk: every command's options (the game commands' too) against OPTIONS.
    Before the fix: tune --deals meant training deals, calibrate --deals held-out ones;
    cribbage pegging's opponent was --against; evaluate had a --no-explain."""
    assert _clashes() == []
    walked = {param.opts[0] if param.hidden else next(o for o in param.opts if o[:2] == "--")
              for _, param in _options()}
    assert walked >= set(OPTIONS) | {old for _, old in REFUSED}  # no stale entries
    meanings = [m.what for m in OPTIONS.values()]
    assert len(set(meanings)) == len(meanings)


def test_the_option_walk_catches_a_clash(monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk fails on the clashes this issue found, put back."""
    command = typer.main.get_command(app)
    tune_deals = next(p for p in command.commands["tune"].params  # type: ignore[attr-defined]
                      if p.opts == ["--training-deals"])
    monkeypatch.setattr(tune_deals, "opts", ["--deals"])  # tune --deals: training deals
    monkeypatch.setattr(typer.main, "get_command", lambda _app: command)
    assert _clashes() == ["tune --deals: help 'Training deals: the deals the measure is' is "
                          "not its meaning, deals the command plays (its sample)",
                          "tune --deals: means --training-deals (deals tune fits the rule "
                          "base on)"]


def test_docs_cli_lists_every_option_and_removed_spelling() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text()
    table = text.split("## Option names", 1)[1].split("\n## ", 1)[0]
    missing = [n for n in OPTIONS if f"`{n}" not in table]
    assert missing == []
    removed = text.split("## Removed spellings", 1)[1].split("\n## ", 1)[0]
    assert [old for _, old in REMOVED if f"`{old.split()[0]}" not in removed] == []


@pytest.mark.parametrize(("command", "old"), sorted(REMOVED))
def test_a_spelling_removed_before_the_first_release_is_no_such_option(
        command: str, old: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The old spellings never shipped in a release, so none is kept: each gets Click's usage
    error in one line, exit 2, and nothing is written (not even the default runs/)."""
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, [*command.split(), *old.split()])
    assert res.exit_code == 2
    assert res.stderr == f"error: {REMOVED[command, old]}\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", ["cribbage", "backgammon"])
def test_every_player_option_names_every_player_of_its_game(game: str) -> None:
    """cribbage discard's -p left out sampling; each game command's -p and --opponent help
    now names each of the game's players."""
    from fuzzeval.games.cribbage.lineup import NAMES
    from fuzzeval.play.registry import load_game

    names = load_game(game).player_names
    if game == "cribbage":
        assert names == NAMES  # the help's cheap copy of the game's list
    checked = []
    for where, param in _options():
        if where.startswith(f"{game} ") and param.name == "player":
            words = set(re.findall(r"[\w]+", param.help or ""))
            assert [n for n in names if n not in words] == [], where
            checked.append(where)
    assert checked == {"cribbage": ["cribbage discard", "cribbage report", "cribbage pegging",
                                    "cribbage peg"],
                       "backgammon": ["backgammon moves"]}[game]


# --- the renamed options -------------------------------------------------------------


def test_tune_training_deals_and_held_out_deals_are_checked(tmp_path: Path) -> None:
    """Refused before any work, naming the option."""
    db = ["--db", str(tmp_path / "t.db")]
    res = runner.invoke(app, ["tune", "cribbage", "--training-deals", "0", *db])
    assert res.exit_code == 2
    assert res.stderr == "error: --training-deals must be at least 1 (got 0)\n"
    res = runner.invoke(app, ["tune", "cribbage", "--held-out-deals", "-1", *db])
    assert res.exit_code == 2
    assert res.stderr == "error: --held-out-deals must be at least 0 (got -1)\n"
    assert not (tmp_path / "t.db").exists()


def test_held_out_deals_counts_the_held_out_deals(calibration_db: Path) -> None:
    base = ["evaluate-calibration", str(calibration_db), "--games", "2", "-w", "1", "--json"]
    new, again, other = (runner.invoke(app, [*base, *extra]) for extra in (
        ["--held-out-deals", "3"], ["--held-out-deals", "3"], ["--held-out-deals", "4"]))
    assert new.exit_code == other.exit_code == 0, new.output
    assert new.stdout == again.stdout != other.stdout and new.stderr == ""


def _untimed(stdout: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(stdout)
    for row in data["players"]:
        del row["ms_per_decision"]
    return data


def test_cribbage_pegging_opponent() -> None:
    base = ["cribbage", "pegging", "-p", "exhaustive:pegging=basic", "--deals", "4", "--json"]
    new = runner.invoke(app, [*base, "--opponent", "greedy"])
    again = runner.invoke(app, [*base, "--opponent", "greedy"])
    assert new.exit_code == again.exit_code == 0, new.output
    assert _untimed(again.stdout) == _untimed(new.stdout)
    assert new.stderr.strip() == ""  # the progress bar leaves a blank line
    assert [p["player"] for p in json.loads(new.stdout)["players"]] == [
        "exhaustive:pegging=basic", "greedy"]


HAND6 = ["7H", "8S", "KD", "QC", "2S", "3C"]


def test_discard_needs_whose_crib() -> None:
    """The same six cards are thrown differently to my crib and to theirs, so --crib has no
    default: left out, it is Click's missing-option usage error."""
    mine, theirs, left_out = (runner.invoke(app, ["cribbage", "discard", *HAND6, *extra,
                                                  "--json"])
                              for extra in (["--crib", "mine"], ["--crib", "theirs"], []))
    assert json.loads(mine.stdout)["discard"] == ["7H", "8S"]  # a fifteen to my crib
    assert json.loads(theirs.stdout)["discard"] == ["KD", "QC"]  # nothing to theirs
    assert mine.stderr == ""
    assert (left_out.exit_code, left_out.stdout) == (2, "")
    assert left_out.stderr == ("error: Missing option '--crib'. "
                               "(see fuzzeval cribbage discard --help)\n")
    bad = runner.invoke(app, ["cribbage", "discard", "--crib", "mine", *HAND6[:5], "1X"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1


def test_peg_works_out_whose_crib_from_the_play() -> None:
    """The dealer's opponent lays the deal's first card: 6C laid first by them, so my crib;
    nothing laid and my turn, so I lead and the crib is theirs."""
    from fuzzeval.games.cribbage.pegging.advice import Seat, peg_view

    led = Seat("KC 3D 7S", count="6C 5C 4D", mine="5C", starter="KH")
    assert peg_view(led).my_crib is True
    assert peg_view(Seat("KC 3D 7S 2H", starter="KH")).my_crib is False
    assert peg_view(Seat("KC 3D 7S", count="5C 6C", mine="5C",
                         starter="KH")).my_crib is False  # I led 5C
    view = ["cribbage", "peg", "KC", "3D", "7S", "--count", "6C 5C 4D", "--mine", "5C",
            "--starter", "KH", "--thrown", "9C 9D", "-p", "sampling:trials=30", "--json"]
    assert runner.invoke(app, view).stdout == runner.invoke(app, [*view, "--crib", "mine"]).stdout
    for args, message in [
            ([*view, "--crib", "theirs"], "error: --crib theirs does not fit the play: 6C, the "
             "first card laid this deal, is theirs, and the dealer's opponent leads, so the "
             "crib is mine (leave --crib out to have it worked out)"),
            (["cribbage", "peg", "KC", "3D", "7S", "2H", "--starter", "KH", "--crib", "mine"],
             "error: --crib mine does not fit the play: nothing is laid yet and it is my turn, "
             "and the dealer's opponent leads, so the crib is theirs (leave --crib out to have "
             "it worked out)")]:
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and res.stderr == message + "\n", res.output


def test_evaluate_without_explain_gives_the_grade_alone() -> None:
    base = ["evaluate", "tipping", "-i", "quality=6.5", "-i", "service=9.8"]
    plain = runner.invoke(app, base)
    assert plain.stdout == "14.7982\n" and plain.stderr == ""


def test_the_docs_give_whose_crib_to_every_discard() -> None:
    from tests.test_docs import commands

    shown = [c for c in commands() if c.args[:2] == ("cribbage", "discard")]
    assert len(shown) >= 5
    assert [str(c) for c in shown if "--crib" not in c.args] == []


@pytest.mark.parametrize(("game", "player", "message"), [
    ("holdem", "fuzzy:temperature=inf",
     "error: holdem player 'fuzzy:temperature=inf': temperature must be a finite number "
     "above 0 (got inf)"),
    ("holdem", "fuzzy:temperature=nan",
     "error: holdem player 'fuzzy:temperature=nan': temperature must be a finite number "
     "above 0 (got nan)"),
    ("hearts", "ismcts:uct_c=nan",
     "error: hearts player 'ismcts:uct_c=nan': uct_c must be a number from 0 to 1e+06 (got "
     "nan)"),
])
def test_a_player_option_that_is_no_finite_number_is_refused_before_a_match(
        tmp_path: Path, game: str, player: str, message: str) -> None:
    db = tmp_path / "m.sqlite"
    res = runner.invoke(app, ["match", game, "-p", player, "-n", "2", "--db", str(db)])
    assert res.exit_code == 2 and res.output == message + "\n", res.output
    assert not db.exists()


# --- counts a run can finish --------------------------------------------------------------


def test_every_games_option_stops_at_games_max_and_workers_at_4_a_cpu(tmp_path: Path) -> None:
    """-n 10**17 started a match estimated at 447 billion hours; -w 100000 forked a pool for
    two games that hung, and its killed parent left a worker behind."""
    import os

    from fuzzeval.cli.common import GAMES_MAX
    from fuzzeval.play.executors import workers_max

    assert GAMES_MAX == 100_000_000
    assert workers_max() == max(8, 4 * (os.cpu_count() or 1))
    capped = {}
    for path, command in _commands(typer.main.get_command(app)):
        for param in command.params:
            if param.name == "games" and hasattr(param.type, "max"):
                capped[" ".join(path)] = param.type.max
    assert capped == {"evaluate-calibration": GAMES_MAX, "match": GAMES_MAX,
                      "tournament": GAMES_MAX, "play": GAMES_MAX, "openspiel play": GAMES_MAX}
    too_many = str(workers_max() + 1)
    for args in (["match", "cribbage"], ["tournament", "cribbage"], ["calibrate", "cribbage"],
                 ["learn", "hearts"], ["tune", "cribbage"]):
        db = tmp_path / f"{args[0]}.sqlite"
        res = runner.invoke(app, [*args, "-w", too_many, "--db", str(db)])
        assert res.exit_code == 2 and res.stderr == (
            f"error: --workers {too_many}: at most {workers_max()} on this machine (4 a CPU, "
            f"{os.cpu_count() or 1} CPUs): more workers only wait for a CPU\n"), (args, res.output)
        assert not db.exists(), args
    res = runner.invoke(app, ["cribbage", "report", "--deals", "5", "-w", too_many])
    assert res.exit_code == 2 and res.stderr.startswith(  # was a traceback, exit 1
        f"error: --workers {too_many}: at most {workers_max()} on this machine"), res.output
    res = runner.invoke(app, ["learn", "hearts", "-n", str(GAMES_MAX + 100)])
    assert res.exit_code == 2 and res.stderr == (
        "error: --games must be at most 100,000,000 (got 100,000,100)\n")
    res = runner.invoke(app, ["calibrate", "cribbage", "--rounds", "10001",
                              "--games-per-round", "10000"])
    assert res.exit_code == 2 and res.stderr == (
        "error: --rounds 10,001 of --games-per-round 10,000 are more than 100,000,000 games "
        "in all\n")


def test_a_match_spec_of_more_games_than_a_run_can_finish_is_refused() -> None:
    from fuzzeval.errors import UsageError
    from fuzzeval.play.match import MatchSpec
    from fuzzeval.play.spec import PlayerSpec

    with pytest.raises(UsageError, match=r"^MatchSpec games must be a whole number from 1 to "
                                         r"100000000 \(got 100000001\)$"):
        MatchSpec("cribbage", PlayerSpec("random"), PlayerSpec("random"), 100_000_001, 1)


@pytest.mark.parametrize("args", [
    ["tune", "cribbage", "--training-deals", "1000000000000"],
    ["tune", "cribbage", "--held-out-deals", "1000001"],
    ["calibrate", "cribbage", "--held-out-deals", "1000000000000"],
    ["evaluate-calibration", "x.sqlite", "--held-out-deals", "1000001"],
    ["cribbage", "train-es", "-n", "1000000000000"],
    ["cribbage", "train-es", "--hands", "30000000"],
    ["cribbage", "pegging", "--deals", "1000000000000"],
    ["cribbage", "report", "--deals", "1000001"],
])
def test_a_count_of_deals_no_machine_holds_is_refused_in_one_line(
        args: list[str], tmp_path: Path) -> None:
    """A trillion held-out deals asked numpy for 378 TiB (a traceback after the rounds were
    played); --hands 30,000,000 drew hands for ever."""
    res = runner.invoke(app, args)
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1, res.output
    assert res.stderr.startswith("error: ") and ("1,000,000" in res.stderr
                                                  or "1000000" in res.stderr), res.stderr
