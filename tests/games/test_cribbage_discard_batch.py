"""``fuzzeval cribbage discard --batch``: the player is built once per run (a rule base
loaded and compiled once, a table read once), and the batch says, line by line, what each
hand alone says: same objects, same errors, exit code 2 when a line was bad."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import fuzzeval.games.cribbage.advice
from fuzzeval import load_rulebase
from fuzzeval.cli import app
from fuzzeval.engine.evaluator import compile_rulebase
from fuzzeval.games.cribbage.advice import player_advice
from fuzzeval.games.cribbage.cards import cards_str
from fuzzeval.games.cribbage.es import DEFAULT_TABLE, load_table
from fuzzeval.games.cribbage.fuzzy import FuzzyDiscard
from fuzzeval.games.cribbage.players import CribbagePlayer, player_from_spec
from fuzzeval.games.cribbage.report import random_hands

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
RULEBASE = next(p for p in (ROOT / "rulebases" / "cribbage_expected_points.yaml",
                            ROOT / "rulebases" / "cribbage_discard.yaml") if p.is_file())
FUZZY_PLAYERS = ["fuzzy", f"fuzzy:rulebase={RULEBASE}"]
BAD = "5H 5H JD QC 4S 9C"  # a card twice


def _lines(n: int, seed: int) -> list[str]:
    """n random hands, a bad line, a comment and a blank line in the middle."""
    hands = [cards_str([int(c) for c in h]) for h in random_hands(n, seed=seed)]
    return [*hands[: n // 2], BAD, "# a comment", "", *hands[n // 2:]]


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def _discard(*args: str) -> Any:
    return runner.invoke(app, ["cribbage", "discard", "--crib", "mine", *args])


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times rule bases are loaded and compiled, fuzzy players and ES tables made."""
    seen = {"load": 0, "compile": 0, "fuzzy player": 0, "es table": 0}

    def counting(key: str, f: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            seen[key] += 1
            return f(*args, **kwargs)
        return wrapper

    monkeypatch.setattr("fuzzeval.games.cribbage.fuzzy.load_rulebase",
                        counting("load", load_rulebase))
    monkeypatch.setattr("fuzzeval.play.game.compile_rulebase",  # as compile_for_features sees it
                        counting("compile", compile_rulebase))
    monkeypatch.setattr(FuzzyDiscard, "__post_init__",
                        counting("fuzzy player", FuzzyDiscard.__post_init__))
    monkeypatch.setattr("fuzzeval.games.cribbage.es.load_table",  # as players._es reads it
                        counting("es table", load_table))
    return seen


@pytest.mark.parametrize("player", FUZZY_PLAYERS)
def test_a_20_line_batch_loads_and_compiles_the_rule_base_once(
        tmp_path: Path, counts: dict[str, int], player: str) -> None:
    lines = _lines(20, seed=3)
    res = _discard("--batch", str(_write(tmp_path, lines)), "-p", player)
    assert res.exit_code == 2, res.output  # the bad line
    assert len(res.stdout.splitlines()) == 21
    assert counts == {"load": 1, "compile": 1, "fuzzy player": 1, "es table": 0}


def test_a_20_line_batch_reads_the_es_table_once(tmp_path: Path,
                                                 counts: dict[str, int]) -> None:
    res = _discard("--batch", str(_write(tmp_path, _lines(20, seed=4))), "-p",
                   f"es:table={DEFAULT_TABLE}")
    assert res.exit_code == 2 and len(res.stdout.splitlines()) == 21
    assert counts["es table"] == 1


@pytest.mark.parametrize("json_out", [True, False])
def test_one_hand_with_explain_builds_the_player_once(counts: dict[str, int],
                                                       json_out: bool) -> None:
    res = _discard("5H", "5S", "JD", "QC", "4S", "9C", "-p", FUZZY_PLAYERS[1], "--explain",
                   *(["--json"] if json_out else []))
    assert res.exit_code == 0, res.output
    assert "memberships" in res.stdout
    assert counts == {"load": 1, "compile": 1, "fuzzy player": 1, "es table": 0}


def _alone(hand: str, args: list[str]) -> Any:
    """What the CLI says of one hand: its JSON object, or its error as a batch writes it."""
    res = _discard(*hand.split(), *args, "--json")
    if res.exit_code == 0:
        return json.loads(res.stdout)
    assert res.exit_code == 2 and res.stderr.startswith("error: "), res.output
    return {"error": res.stderr.strip().removeprefix("error: ")}


@pytest.mark.parametrize("args", [
    ["-p", "fuzzy"],
    ["-p", "fuzzy", "--crib", "theirs", "--explain"],
    ["-p", FUZZY_PLAYERS[1]],
    ["-p", FUZZY_PLAYERS[1], "--crib", "theirs"],
    ["-p", "es"],
    ["-p", "es", "--crib", "theirs"],
    ["-p", "greedy"],
    ["-p", "random"],
    ["-p", "exhaustive"],
    ["-p", "exhaustive:weights=expert", "--crib", "theirs"],
], ids=lambda a: " ".join(a).replace(str(RULEBASE), "PATH"))
def test_the_batch_says_what_each_hand_alone_says(tmp_path: Path, args: list[str]) -> None:
    lines = _lines(20, seed=5)
    res = _discard("--batch", str(_write(tmp_path, lines)), *args)
    assert res.exit_code == 2, res.output
    got = [json.loads(x) for x in res.stdout.splitlines()]
    hands = [(number, line) for number, line in enumerate(lines, 1)
             if line and not line.startswith("#")]
    assert len(got) == len(hands) == 21
    for (number, line), out in zip(hands, got, strict=True):
        alone = _alone(line, args)
        if "error" in alone:
            assert out == {"line": number, "input": line, **alone}
        else:
            assert out == alone, line
    assert "appears twice" in got[10]["error"]
    if "fuzzy" in args[1]:
        assert all(set(r) >= {"discard", "keep", "grade"} for o in got[:10] for r in o["table"])
    if "--explain" in args:
        assert all("explanation" in o for o in got if "error" not in o)


@pytest.fixture
def built_once(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``player_advice`` (the one-hand reference) with its player built once per spec."""
    cache: dict[str, CribbagePlayer] = {}

    def cached(text: str) -> CribbagePlayer:
        if text not in cache:
            cache[text] = player_from_spec(text)
        return cache[text]

    monkeypatch.setattr(fuzzeval.games.cribbage.advice, "player_from_spec", cached)
    yield


@pytest.mark.parametrize("player", [*FUZZY_PLAYERS, "es"])
@pytest.mark.parametrize("crib", ["mine", "theirs"])
def test_a_large_batch_is_exactly_player_advice_hand_by_hand(
        tmp_path: Path, built_once: None, player: str, crib: str) -> None:
    """Hands graded together get grades equal up to rounding; throws that tie (two alike
    but for a suit) must still come in the order, and with the sixth decimals, of the hand
    graded alone."""
    lines = [cards_str([int(c) for c in h]) for h in random_hands(400, seed=21)]
    res = _discard("--batch", str(_write(tmp_path, lines)), "-p", player, "--crib", crib)
    assert res.exit_code == 0, res.output
    got = res.stdout.splitlines()
    assert len(got) == len(lines)
    for line, out in zip(lines, got, strict=True):
        want = player_advice(line.split(), "mine" if crib == "mine" else "theirs", player)
        assert out == json.dumps(want), line


@pytest.mark.parametrize("player", [FUZZY_PLAYERS[0], "es", "greedy"])
def test_chunks_of_a_long_batch_change_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               player: str) -> None:
    path = _write(tmp_path, [*_lines(20, seed=8), "2C 3C 4C", *_lines(9, seed=9)])
    whole = _discard("--batch", str(path), "-p", player)
    monkeypatch.setattr("fuzzeval.games.cribbage.cli.BATCH_CHUNK", 4)
    chunked = _discard("--batch", str(path), "-p", player)
    assert whole.exit_code == chunked.exit_code == 2
    assert chunked.stdout == whole.stdout and len(whole.stdout.splitlines()) == 32


def test_a_missing_batch_file_and_a_bad_player_are_one_line_errors(tmp_path: Path) -> None:
    res = _discard("--batch", str(tmp_path / "none.txt"), "-p", "fuzzy")
    assert res.exit_code == 2 and "none.txt" in res.stderr
    res = _discard("--batch", str(_write(tmp_path, _lines(4, seed=1))), "-p", "fuzzy:table=x")
    assert res.exit_code == 2 and res.stdout == "" and "--player fuzzy:table=x" in res.stderr
