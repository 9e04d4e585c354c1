"""``fuzzeval cribbage discard|score``: exit codes, one-line errors naming the token, JSON,
and batches."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.cribbage.cards import card_str, parse_cards
from fuzzeval.games.cribbage.cli import _discard_json
from fuzzeval.games.cribbage.discard import discard_table

HAND = ["5H", "5S", "JD", "QC", "4S", "9C"]

runner = CliRunner()


def test_discard_json_is_the_ranked_table() -> None:
    result = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C",
                                 "--crib", "theirs", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    table = discard_table("5H 5S JD QC 4S 9C", "theirs")
    assert data["discard"] == table.loc[0, "discard"].split()
    assert [r["discard"] for r in data["table"]] == list(table["discard"])
    evs = [r["ev"] for r in data["table"]]
    assert evs == sorted(evs, reverse=True) and len(evs) == 15


def _pandas_json(tokens: list[str], crib: str, weights: str) -> dict[str, Any]:
    """The command's JSON as it was built from discard_table's DataFrame."""
    table = discard_table(tokens, crib, weights)  # type: ignore[arg-type]
    best = table.iloc[0]
    return {"hand": " ".join(card_str(c) for c in parse_cards(tokens, 6)), "crib": crib,
            "weights": weights, "discard": best["discard"].split(),
            "ev": round(float(best["ev"]), 6),
            "table": json.loads(table.round(6).to_json(orient="records"))}


@pytest.mark.parametrize("weights", ["uniform", "expert"])
@pytest.mark.parametrize("crib", ["mine", "theirs"])
def test_discard_json_is_discard_table_without_pandas(crib: str, weights: str) -> None:
    """The same rows, numbers (rounded as DataFrame.round rounds) and order (ties in THROWS
    order, as the stable sort leaves them) as the DataFrame gave, on hands with ties."""
    rng = np.random.default_rng(18)
    hands = [HAND, ["5H", "5D", "5C", "5S", "JH", "JD"], ["AH", "2H", "3H", "4H", "5H", "6H"]]
    hands += [[card_str(int(c)) for c in rng.choice(52, 6, replace=False)] for _ in range(40)]
    ties = 0
    for tokens in hands:
        ours = _discard_json(tokens, crib, weights)  # type: ignore[arg-type]
        assert json.dumps(ours) == json.dumps(_pandas_json(tokens, crib, weights)), tokens
        evs = [r["ev"] for r in ours["table"]]
        ties += len(evs) - len(set(evs))
    assert ties > 0


def test_discard_table_printed() -> None:
    result = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C"])
    assert result.exit_code == 0 and "4S 9C" in result.stdout and "EV" in result.stdout


def test_bad_card_is_one_line_and_exit_2() -> None:
    result = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "1X"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: '1X': unknown rank '1' (ranks: A 2-9 T/10 J Q K)"
    )
    result = runner.invoke(app, ["cribbage", "score", "5H", "5H", "JD", "QC", "--starter", "2C"])
    assert result.exit_code == 2 and "'5H': this card appears twice" in result.stderr
    result = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "--crib", "yours"])
    assert result.exit_code == 2 and "--crib must be mine or theirs" in result.stderr


def test_score_json_and_count() -> None:
    result = runner.invoke(app, ["cribbage", "score", "5H", "5D", "5S", "JC", "--starter", "5C",
                                 "--json"])
    data = json.loads(result.stdout)
    assert data["points"] == 29 and data["count"].endswith("one for his nob is twenty-nine")
    result = runner.invoke(app, ["cribbage", "score", "2H", "4H", "6H", "8H", "--starter", "QS",
                                 "--as-crib", "--json"])
    assert json.loads(result.stdout)["points"] == 0  # a crib flush needs all five


def test_batches_one_json_line_per_hand(tmp_path: Path) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("5H 5S JD QC 4S 9C\n# a comment\n\nKH QH QD TS 5C 4D\n5H 5S JD QC 4S 9X\n")
    result = runner.invoke(app, ["cribbage", "discard", "--batch", str(hands)])
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(lines) == 3 and result.exit_code == 2
    assert lines[0]["discard"] == ["4S", "9C"]
    assert lines[2] == {"line": 5, "input": "5H 5S JD QC 4S 9X",
                        "error": "'9X': unknown suit 'X' (suits: C D H S)"}
    scores = tmp_path / "scores.txt"
    scores.write_text("5H 5D 5S JC 5C\n4C 4D 4S 5D 6S\n")
    result = runner.invoke(app, ["cribbage", "score", "--batch", str(scores)])
    assert result.exit_code == 0
    assert [json.loads(x)["points"] for x in result.stdout.splitlines()] == [29, 21]


def test_a_narrower_terminal_gets_fewer_advice_columns_and_is_told(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 50 columns the throw, the keep and the grade take 39 (15 + 15 + 9), and no input
    fits beside them: the shortest, kept_points, needs 14 more."""
    import io

    from rich.console import Console

    screen = io.StringIO()
    monkeypatch.setattr("fuzzeval.games.cribbage.cli.console", Console(file=screen, width=50))
    res = CliRunner().invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C",
                                   "--crib", "mine", "-p", "fuzzy"])
    assert res.exit_code == 0, res.output
    text = screen.getvalue()
    header = next(line for line in text.splitlines() if "grade" in line)
    assert header.split() == ["discard", "keep", "grade"]
    assert " ".join(text.split()).count("not shown, to fit 50 columns: kept_points, ") == 1
