"""Hostile batch files: a line that is not UTF-8 is that line's error and the other lines
are answered; cards given with --batch are refused."""

from __future__ import annotations

import codecs
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

runner = CliRunner()
GOOD_SIX = [b"5H 5S JD QC 4S 9C", b"AC 2D 3H 4S 5C 6D"]
GOOD_FIVE = [b"5H 5S 5C JD 5D", b"AC 2D 3H 4S KC"]


def _cribbage(*args: str) -> Any:
    return runner.invoke(app, ["cribbage", *args])


def _score_alone(line: bytes) -> Any:
    res = _cribbage("score", *line.decode().split(), "--json")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def _write(tmp_path: Path, lines: list[bytes]) -> Path:
    path = tmp_path / "hands.txt"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _check(res: Any, bad_line: int, bad_input: str, count: int) -> list[dict[str, Any]]:
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    got = [json.loads(x) for x in res.stdout.splitlines()]
    assert len(got) == count
    bad = got[bad_line - 1]
    assert bad["line"] == bad_line and bad["input"] == bad_input
    assert bad["error"].startswith("not UTF-8 text"), bad
    assert all("error" not in o for i, o in enumerate(got) if i != bad_line - 1)
    return got


@pytest.mark.parametrize("player", ["exhaustive", "fuzzy", "es", "greedy"])
def test_discard_batch_answers_every_line_around_one_that_is_not_utf8(
        tmp_path: Path, player: str) -> None:
    path = _write(tmp_path, [GOOD_SIX[0], b"5H 5S \xff\xfe QC 4S 9C", GOOD_SIX[1]])
    res = _cribbage("discard", "--crib", "mine", "--batch", str(path), "-p", player)
    got = _check(res, 2, "5H 5S \\xff\\xfe QC 4S 9C", 3)
    alone = _cribbage("discard", "--crib", "mine", *GOOD_SIX[1].decode().split(), "-p", player,
                      "--json")
    assert json.loads(alone.stdout) == got[2]


def test_score_batch_answers_every_line_around_one_that_is_not_utf8(tmp_path: Path) -> None:
    path = _write(tmp_path, [GOOD_FIVE[0], b"\xc3\x28 2D 3H 4S KC", GOOD_FIVE[1]])
    res = _cribbage("score", "--batch", str(path))
    got = _check(res, 2, "\\xc3( 2D 3H 4S KC", 3)
    assert got[0]["points"] == 29 and got[2] == _score_alone(GOOD_FIVE[1])


def test_a_latin1_file_and_crlf_line_ends(tmp_path: Path) -> None:
    """Windows line ends are line ends; a comment in Latin-1 is still an error of its line
    (it cannot be known to be a comment), and the line numbers stay right."""
    path = tmp_path / "hands.txt"
    path.write_bytes(b"5H 5S 5C JD 5D\r\n# caf\xe9\r\nAC 2D 3H 4S KC\r\n")
    res = _cribbage("score", "--batch", str(path))
    got = _check(res, 2, "# caf\\xe9", 3)
    assert got[2] == _score_alone(GOOD_FIVE[1])


def test_a_utf8_bom_is_not_part_of_the_first_card(tmp_path: Path) -> None:
    path = _write(tmp_path, [b"\xef\xbb\xbf" + GOOD_FIVE[0], GOOD_FIVE[1]])
    res = _cribbage("score", "--batch", str(path))
    assert res.exit_code == 0, res.output
    assert [json.loads(x) for x in res.stdout.splitlines()] == [_score_alone(line)
                                                                for line in GOOD_FIVE]


@pytest.mark.parametrize(("command", "cards", "player"), [
    ("discard", ["5H", "5S", "JD", "QC", "4S", "9C"], ["--crib", "mine"]),
    ("discard", ["5H", "5S", "JD", "QC", "4S", "9C"], ["-p", "fuzzy", "--crib", "mine"]),
    ("score", ["5H", "5S", "5C", "JD", "5D"], []),
])
def test_cards_and_a_batch_together_are_refused(tmp_path: Path, command: str,
                                                cards: list[str], player: list[str]) -> None:
    path = _write(tmp_path, GOOD_SIX if command == "discard" else GOOD_FIVE)
    res = _cribbage(command, *cards, "--batch", str(path), *player)
    assert res.exit_code == 2, res.output
    assert res.stdout == "" and "Traceback" not in res.output
    lines = res.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: give cards or --batch FILE, not both"), lines


@pytest.mark.pinned
def test_a_batch_file_saved_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_text("5H 5S JD QC 4S 9C\nAS 2S 3S 4S 5S 6S\n")
    marked.write_bytes(codecs.BOM_UTF8 + plain.read_bytes())
    base = ["cribbage", "discard", "--crib", "mine", "--json", "--batch"]
    a = runner.invoke(app, [*base, str(plain)])
    b = runner.invoke(app, [*base, str(marked)])
    assert a.exit_code == 0 and b.exit_code == 0, b.output
    assert a.stdout == b.stdout and a.stdout.count("\n") == 2
