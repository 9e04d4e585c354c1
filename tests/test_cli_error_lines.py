"""Every error line, and every line naming a file a command wrote, is printed as written: a
player, a command or a file name holding ``:hand:`` (an emoji name to rich) or ``[bold]``
(rich markup) comes back as typed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.resources import find_rulebase

runner = CliRunner()


def test_a_player_is_named_as_typed(tmp_path: Path) -> None:
    result = runner.invoke(app, ["match", "cribbage", "-p", ":hand:", "--db",
                                 str(tmp_path / "h.sqlite")])
    assert result.exit_code == 2
    assert result.stderr == ("error: player ':hand:': a player is written name or "
                             "name:key=value,...\n")


def test_an_unknown_command_is_named_as_typed() -> None:
    result = runner.invoke(app, [":hand:"])
    assert result.exit_code == 2
    assert result.stderr == "error: No such command ':hand:'. (see fuzzeval --help)\n"


def test_rulebase_top_names_the_file_as_typed(tmp_path: Path) -> None:
    path = tmp_path / ":hand:[bold].yaml"
    shutil.copy(find_rulebase("tipping"), path)
    result = runner.invoke(app, ["rulebase", "top", str(path)])
    assert result.exit_code == 2
    assert result.stderr == (f"error: {path}: rule base 'tipping' concludes on triangles "
                             "(centroid); top ranks single-valued conclusions\n")


@pytest.mark.parametrize("command", [["evaluate"], ["rulebase", "show"]])
def test_a_missing_file_is_named_as_typed(command: list[str]) -> None:
    result = runner.invoke(app, [*command, ":hand:[bold]x.yaml"])
    assert result.exit_code == 2
    assert result.stderr == "error: :hand:[bold]x.yaml: no such rule-base file\n"


def test_rulebase_check_names_a_missing_file_as_typed() -> None:
    result = runner.invoke(app, ["rulebase", "check", ":hand:[bold]x.yaml"])
    assert result.exit_code == 1
    assert result.stderr == ":hand:[bold]x.yaml: no such rule-base file\n"


def test_rulebase_import_names_the_file_as_typed(tmp_path: Path) -> None:
    path = tmp_path / ":hand:[b].fll"
    path.write_text("Engine: e\nbogus line\n")
    result = runner.invoke(app, ["rulebase", "import", str(path), "-o",
                                 str(tmp_path / "o.yaml")])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (f"error: {path}:2: (line): expected "
                                             "'key: value' (got 'bogus line')")


# --- the lines that name a written file: ``say_files``, one helper for all -------------


def test_plot_names_the_picture_it_wrote_as_typed(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short name: the line fits 80 columns
    picture = Path(":hand:[bold]x.png")
    result = runner.invoke(app, ["plot", "membership", "tipping", "-o", str(picture)],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert result.stdout == f"wrote {picture}\n"
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_evaluate_csv_names_its_output_as_typed(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # short names: the line fits 80 columns
    table = Path("in.csv")
    table.write_text("quality,service\n8,3\n")
    out = Path(":hand:[bold]graded.csv")
    result = runner.invoke(app, ["evaluate", "tipping", "--csv", str(table), "-o", str(out)],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert result.stdout == f"graded 1 rows -> {out}\n"
    assert out.read_text().splitlines()[0] == "quality,service,tip"


@pytest.mark.parametrize(("command", "shipped", "first_line"), [
    (["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C", "--crib", "theirs"],
     "cribbage_linguistic", "4S 5H 5S 9C JD QC, their crib, player fuzzy:rulebase=[b]x.yaml: "
                            "throw 4S 9C, keep 5H 5S JD QC"),
    (["hearts", "card", "QS", "KS", "4S", "3D", "7D", "JD", "5H", "8H", "AH", "9C", "KC", "6D",
      "--earlier", "2C,AC,5C,TC", "--trick", "8S,JS"],
     "hearts", "3D 4S 5H 6D 7D 8H 9C JD QS KC KS AH, trick 8S JS, player "
               "fuzzy:rulebase=[b]x.yaml: play 4S"),
])
def test_advice_names_a_player_s_rule_base_file_as_typed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], shipped: str,
        first_line: str) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(find_rulebase(shipped), tmp_path / "[b]x.yaml")
    result = runner.invoke(app, [*command, "-p", "fuzzy:rulebase=[b]x.yaml"])
    assert result.exit_code == 0, result.output
    assert " ".join(result.stdout.split()).startswith(first_line)  # folded at 80 columns


def test_a_tournament_table_names_a_player_s_rule_base_file_as_typed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(find_rulebase("cribbage_linguistic"), tmp_path / "[b]c.yaml")
    result = runner.invoke(app, ["tournament", "cribbage", "-p", "random", "-p",
                                 "fuzzy:rulebase=[b]c.yaml", "--games", "1", "-w", "1",
                                 "--db", "t.sqlite", "--plot", "t.png"])
    assert result.exit_code == 0, result.output
    rows = [line.split("  ")[1] for line in result.stdout.splitlines()
            if line.startswith("  1 ") or line.startswith("  2 ")]
    assert rows == ["1 random", "2 fuzzy ([b]c.yaml)"]
    assert result.stdout.splitlines()[-1] == "history: t.sqlite  picture: t.png"


def test_a_match_names_its_players_and_its_history_as_typed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(find_rulebase("cribbage_linguistic"), tmp_path / "[b]x.yaml")
    result = runner.invoke(app, ["match", "cribbage", "-p", "fuzzy:rulebase=[b]x.yaml",
                                 "--opponent", "random", "-n", "2", "-w", "1",
                                 "--db", "[b]h.sqlite"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].rstrip() == "cribbage: fuzzy:rulebase=[b]x.yaml vs random, 2 games, seed 1"
    assert lines[2].split("┃")[2].strip() == "fuzzy:rulebase=[b]x.yaml"
    assert lines[-1] == "20 deals; history in [b]h.sqlite"


@pytest.mark.usefixtures("drift_not_drawn")
def test_a_calibration_names_its_opponent_and_its_files_as_typed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(find_rulebase("cribbage_linguistic"), tmp_path / "[b]x.yaml")
    result = runner.invoke(app, ["calibrate", "cribbage", "--opponent",
                                 "fuzzy:rulebase=[b]x.yaml", "--rounds", "1",
                                 "--games-per-round", "2", "-w", "1", "--held-out-deals", "0",
                                 "--db", "[b]c.sqlite"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.rstrip() for line in lines[:2]] == [
        "cribbage: calibrating cribbage_linguistic against",
        "fuzzy:rulebase=[b]x.yaml, 2 games a round, rate 0.1"]
    assert lines[-3:] == ["calibrated rule base: [b]c.calibrated.yaml",
                          "drift: plots/[b]c_drift.png", "history: [b]c.sqlite"]


def test_a_learn_names_its_files_as_typed(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["learn", "hearts", "-n", "8", "--block", "8",
                                 "--measure-every", "1", "--measure-games", "4",
                                 "--sample-games", "4", "--order", "1", "-w", "1",
                                 "--db", "[b]l.sqlite"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-3:] == ["learned rule base: [b]l.learned.yaml",
                                               "history: [b]l.sqlite",
                                               "learning curve: plots/[b]l_curve.png"]
