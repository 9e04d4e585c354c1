"""No output overwrites what a command reads or another of its outputs:
the rule once (fuzzeval.cli.outputs), then each command that writes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.cli.outputs import CannotWrite, Input, Output, check_outputs, same_file
from fuzzeval.errors import UsageError
from fuzzeval.play.store import History

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32


def _history(path: Path) -> bytes:
    """An empty fuzzeval history at ``path`` (any name), and its bytes."""
    History(path).close()
    return path.read_bytes()


def _refused(args: list[str], *words: str, code: int = 2) -> str:
    res = runner.invoke(app, args)
    assert res.exit_code == code, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    for word in words:
        assert word in lines[0], res.output
    return lines[0]


# --- the rule ---------------------------------------------------------------------------

def test_the_same_file_by_relative_absolute_symlink_and_hard_link(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    db = tmp_path / "d" / "h.sqlite"
    db.write_bytes(b"")
    (tmp_path / "link.png").symlink_to(db)
    os.link(db, tmp_path / "hard.png")
    for name in ("d/h.sqlite", "./d/../d/h.sqlite", str(db), "link.png", "hard.png"):
        assert same_file(Path(name), db), name
        with pytest.raises(UsageError, match=rf"--plot {re.escape(str(Path(name)))}: the "
                           "same file as --db"):
            check_outputs([Output("--db", db, "database"),
                           Output("--plot", Path(name), "picture")])
    assert not same_file(Path("d/other.sqlite"), db)
    # a dangling link is the file it would create
    (tmp_path / "dangling.yaml").symlink_to(tmp_path / "d" / "new.yaml")
    assert same_file(Path("dangling.yaml"), Path("d/new.yaml"))


@given(st.lists(st.sampled_from([".", "sub/..", "sub/./..", "a/b/../.."]), max_size=4))
def test_any_spelling_of_a_path_is_the_same_file(parts: list[str]) -> None:
    path = Path("runs") / "x.sqlite"
    assert same_file(path, Path("runs", *parts, "x.sqlite"))
    assert same_file(path.absolute(), Path("runs", *parts, "x.sqlite"))
    assert not same_file(path, Path("runs", *parts, "sub", "x.sqlite"))


def test_an_input_another_output_a_folder_and_a_file_of_another_kind(tmp_path: Path) -> None:
    rb, db, pic = tmp_path / "rb.yaml", tmp_path / "h.sqlite", tmp_path / "p.png"
    rb.write_text("name: x\n")
    _history(db)
    with pytest.raises(UsageError, match=r"^-o .*rb.yaml: the same file as --rulebase"):
        check_outputs([Output("-o", rb, "rulebase")], [Input("--rulebase", rb)])
    with pytest.raises(UsageError, match="give each output its own file"):
        check_outputs([Output("--db", pic, "database"), Output("--plot", pic, "picture")])
    with pytest.raises(UsageError, match="a folder, not a file name"):
        check_outputs([Output("-o", tmp_path, "rulebase")])
    cases: list[tuple[Path, str, bytes]] = [
        (db, "picture", b""), (db, "rulebase", b""), (db, "table", b""), (db, "npz", b""),
        (rb, "database", b""), (rb, "picture", b""), (pic, "database", PNG),
        (pic, "rulebase", PNG)]
    for path, kind, content in cases:
        if content:
            path.write_bytes(content)
        before = path.read_bytes()
        with pytest.raises(UsageError, match=r"an existing file that is .*it is not replaced"):
            check_outputs([Output("--x", path, kind)])  # type: ignore[arg-type]
        assert path.read_bytes() == before
    # what may be replaced: its own kind, an empty file, nothing there
    check_outputs([Output("--db", db, "database"), Output("-o", rb, "rulebase"),
                   Output("--plot", pic, "picture"), Output("-o", tmp_path / "new.csv", "table")])
    (tmp_path / "empty.png").write_bytes(b"")
    check_outputs([Output("--plot", tmp_path / "empty.png", "picture")])
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "empty.png", "h.sqlite", "p.png", "rb.yaml"]  # nothing made, not even a probe


def test_an_output_that_cannot_be_written_is_a_failure_before_any_work(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    with pytest.raises(CannotWrite, match=r"afile is a file, not a folder"):
        check_outputs([Output("-o", tmp_path / "afile" / "sub" / "x.yaml", "rulebase")])
    with pytest.raises(CannotWrite, match=r"^-o /proc/fuzzeval/x.yaml: cannot write in /proc"):
        check_outputs([Output("-o", Path("/proc/fuzzeval/x.yaml"), "rulebase")])


# --- each command -----------------------------------------------------------------------

def test_tune_never_writes_its_rule_base_over_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    small = ["tune", "cribbage", "--training-deals", "20", "--held-out-deals", "0",
             "--budget", "30", "-w", "1"]
    before = _history(tmp_path / "t.sqlite")
    _refused([*small, "--db", "t.sqlite", "-o", "t.sqlite"], "--output t.sqlite",
             "the same file as --db t.sqlite")
    assert (tmp_path / "t.sqlite").read_bytes() == before
    rb = tmp_path / "mine.yaml"
    rb.write_text((ROOT / "rulebases" / "cribbage_linguistic.yaml").read_text())
    _refused([*small, "--rulebase", str(rb), "--db", "u.sqlite", "-o", str(rb)],
             "which this command reads")
    _refused([*small, "--db", "u.sqlite", "-o", "t.sqlite"], "--output t.sqlite",
             "an SQLite database, not a text file")
    tuned = tmp_path / "u.tuned.yaml"  # tuning the tuned base again, into its database
    tuned.write_text(rb.read_text())
    _refused([*small, "--rulebase", str(tuned), "--db", "u.sqlite"],
             f"the tuned rule base {Path('u.tuned.yaml')}: the same file as --rulebase",
             "change -o")
    assert not (tmp_path / "u.sqlite").exists()


def test_tune_finds_an_unwritable_output_before_the_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    _refused(["tune", "cribbage", "--training-deals", "20", "--held-out-deals", "0",
              "--budget", "30", "-w", "1", "--db", "t.sqlite", "-o", "afile/sub/x.yaml"],
             "--output afile/sub/x.yaml: afile is a file", code=1)
    assert not (tmp_path / "t.sqlite").exists()  # no search, no database


def test_calibrate_never_draws_over_its_database_or_its_rule_base(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    small = ["calibrate", "cribbage", "--opponent", "random", "--rounds", "1",
             "--games-per-round", "2", "--held-out-deals", "0", "-w", "1"]
    _refused([*small, "--db", "c.png", "--plot", "c.png"], "--plot c.png",
             "the same file as --db c.png")
    assert not (tmp_path / "c.png").exists()
    before = _history(tmp_path / "c.png")
    _refused([*small, "--db", "c.png", "--plot", "c.png"], "--plot c.png")
    assert (tmp_path / "c.png").read_bytes() == before
    _refused([*small, "--db", "d.sqlite", "--plot", "c.png"], "--plot c.png",
             "an existing file that is an SQLite database, not a picture")
    # the calibrated rule base is written next to the database: never over the input
    rb = tmp_path / "x.calibrated.yaml"
    rb.write_text((ROOT / "rulebases" / "cribbage_linguistic.yaml").read_text())
    _refused([*small, "--rulebase", str(rb), "--db", "x.sqlite"],
             f"the calibrated rule base {Path('x.calibrated.yaml')}", "--rulebase",
             "which this command reads; change --db")
    assert not (tmp_path / "x.sqlite").exists() and not (tmp_path / "d.sqlite").exists()


def test_tournament_plot_and_evaluate_never_write_over_what_they_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _refused(["tournament", "cribbage", "-p", "random", "-p", "greedy", "-n", "2",
              "--db", "t.png", "--plot", "t.png"], "--plot t.png", "the same file as --db")
    assert not (tmp_path / "t.png").exists()
    before = _history(tmp_path / "c.png")
    for args in (["plot", "drift", "c.png", "-o", "c.png"],
                 ["plot", "curve", "c.png", "-o", "./c.png"],
                 ["plot", "membership", "c.png", "-o", "c.png"]):
        _refused(args, "--output", "the same file as DB c.png")
        assert (tmp_path / "c.png").read_bytes() == before
    table = tmp_path / "in.csv"
    table.write_text("food,service\n5,5\n")
    _refused(["evaluate", "tipping", "--csv", "in.csv", "-o", str(table)],
             "the same file as --csv in.csv")
    assert table.read_text() == "food,service\n5,5\n"


def test_match_play_and_game_commands_refuse_a_file_of_another_kind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    rb = tmp_path / "rb.yaml"
    rb.write_text("name: x\n")
    _refused(["match", "cribbage", "-n", "1", "--db", "rb.yaml"], "--db rb.yaml",
             "text, not an SQLite database")
    _refused(["play", "cribbage", "--db", "rb.yaml"], "--db rb.yaml")
    assert rb.read_text() == "name: x\n"
    db = _history(tmp_path / "h.png")
    _refused(["cribbage", "report", "--deals", "1", "--plot", "h.png"], "--plot h.png",
             "an SQLite database, not a picture")
    _refused(["cribbage", "train-es", "-n", "1", "-o", "h.npz", "--plot", "h.png"],
             "--plot h.png")
    (tmp_path / "t.npz").write_bytes(db)
    _refused(["cribbage", "train-es", "-n", "1", "-o", "t.npz"], "--output t.npz",
             "not a numpy archive")
    assert (tmp_path / "h.png").read_bytes() == db


# --- a database's journal files and history export ----------------------------------------

def test_a_journal_file_of_a_database_is_never_an_output(tmp_path: Path) -> None:
    db, other = tmp_path / "h.sqlite", tmp_path / "other.sqlite"
    _history(db)
    _history(other)
    for end in ("-wal", "-shm", "-journal"):
        # of the command's own database, whether or not the journal exists yet
        with pytest.raises(UsageError, match=rf"^--plot .*h.sqlite{end}: a journal file of "
                           r"--db .*h.sqlite; writing it would corrupt that database"):
            check_outputs([Output("--db", db, "database"),
                           Output("--plot", Path(f"{db}{end}"), "picture")])
        # of an input
        with pytest.raises(UsageError, match=rf"^-o .*h.sqlite{end}: a journal file of DB "):
            check_outputs([Output("-o", Path(f"{db}{end}"), "table")], [Input("DB", db)])
        # of any other existing database
        with pytest.raises(UsageError, match=rf"^-o .*other.sqlite{end}: the journal file of "
                           r"the SQLite database .*other.sqlite; writing it would corrupt"):
            check_outputs([Output("-o", Path(f"{other}{end}"), "table")])
    # a hard link to an existing journal, under another name
    wal = Path(f"{db}-wal")
    wal.write_bytes(b"x")
    os.link(wal, tmp_path / "notes.txt")
    with pytest.raises(UsageError, match=r"notes.txt: a journal file of DB"):
        check_outputs([Output("-o", tmp_path / "notes.txt", "table")], [Input("DB", db)])
    # a name that merely ends alike, beside no database, is an ordinary output
    check_outputs([Output("-o", tmp_path / "draft-journal", "table")])


def test_history_export_never_replaces_a_database(tmp_path: Path) -> None:
    db, other = tmp_path / "h.sqlite", tmp_path / "other.sqlite"
    before, other_before = _history(db), _history(other)
    os.link(db, tmp_path / "hard.jsonl")
    line = _refused(["history", "export", str(db), "-o", str(tmp_path / "hard.jsonl")])
    assert line == (f"error: --output {tmp_path / 'hard.jsonl'}: the same file as DB {db}, "
                    "which this command reads; give another name")
    line = _refused(["history", "export", str(db), "-o", str(other)])
    assert line == (f"error: --output {other}: an existing file that is an SQLite database, "
                    "not a text file; it is not replaced: give another name or remove it")
    line = _refused(["history", "export", str(db), "-o", f"{db}-wal"])
    assert line.startswith(f"error: --output {db}-wal: a journal file of DB {db}")
    line = _refused(["history", "export", str(db), "-o", str(tmp_path)])
    assert line == f"error: --output {tmp_path}: a folder, not a file name; give a file in it"
    assert db.read_bytes() == before and other.read_bytes() == other_before
    assert not Path(f"{db}-wal").exists()


def test_rulebase_import_and_export_write_what_other_outputs_do(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        out = tmp_path / "tipping.fll"
        res = runner.invoke(app, ["rulebase", "export", "tipping", "-o", str(out)])
        assert res.exit_code == 0, res.output
        assert out.stat().st_mode & 0o777 == 0o644
        back = tmp_path / "back.yaml"
        res = runner.invoke(app, ["rulebase", "import", str(out), "-o", str(back)])
        assert res.exit_code == 0, res.output
        assert back.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)


def test_an_output_in_a_folder_not_made_yet_is_written_there(tmp_path: Path) -> None:
    """history export and evaluate --csv said '[Errno 2] No such file or directory' (exit 1)
    where plot and rulebase export make the folder: every output's folder is made."""
    db = tmp_path / "h.sqlite"
    assert runner.invoke(app, ["match", "cribbage", "-p", "random", "--opponent", "random",
                               "-n", "1", "--db", str(db)]).exit_code == 0
    out = tmp_path / "new" / "games.jsonl"
    res = runner.invoke(app, ["history", "export", str(db), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert len(out.read_text().splitlines()) == 1
    table = tmp_path / "in.csv"
    table.write_text("quality,service\n6.5,9.8\n")
    graded = tmp_path / "other" / "graded.csv"
    res = runner.invoke(app, ["evaluate", "tipping", "--csv", str(table), "-o", str(graded)])
    assert res.exit_code == 0, res.output
    assert graded.read_text().splitlines()[1].startswith("6.5,9.8,14.798")


def test_holdem_replay_of_a_history_database_says_so_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    _history(db)
    res = runner.invoke(app, ["holdem", "replay", str(db)])
    assert res.exit_code == 2 and res.output == (
        f"error: {db}: an SQLite database, not an ACPC log; write one with fuzzeval history "
        f"export {db} --format acpc -o FILE\n")
