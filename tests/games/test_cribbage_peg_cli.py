"""``fuzzeval cribbage peg``: the card to lay and why, worked by hand; bad views refused
in one line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

runner = CliRunner()
# Pone led 6C, I laid 5C, pone 4D: count 15, my turn with K, 3 and 7.
VIEW = ["cribbage", "peg", "KC", "3D", "7S", "--count", "6C 5C 4D", "--mine", "5C",
        "--starter", "KH", "--crib", "mine", "--thrown", "9C 9D"]


def test_every_card_with_its_points_and_the_rule_bases_choice() -> None:
    result = runner.invoke(app, [*VIEW, "-p", "exhaustive:pegging=fuzzy", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = {r["card"]: r for r in data["table"]}
    # 7 makes 4-5-6-7 (a run of four, 22); 3 makes 3-4-5-6 (a run of four, 18); the king
    # makes 25 and nothing.
    assert rows["7S"]["points_now"] == 4 and rows["7S"]["count_after"] == 22
    assert rows["3D"]["points_now"] == 4 and rows["3D"]["count_after"] == 18
    assert rows["KC"]["points_now"] == 0 and rows["KC"]["count_after"] == 25
    assert data["rulebase"] == "cribbage_pegging" and data["count"] == 15
    assert data["lay"] == data["table"][0]["card"] in ("7S", "3D")
    why = runner.invoke(app, [*VIEW, "-p", "exhaustive:pegging=fuzzy", "--explain"])
    assert why.exit_code == 0 and "memberships" in why.stdout and "worth =" in why.stdout


def test_the_sampling_player_shows_each_cards_simulated_mean() -> None:
    result = runner.invoke(app, [*VIEW, "-p", "sampling:trials=60,stop=none", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["sampling"] == {"trials": 60, "stopped": False, "stop": "none"}
    means = [r["mean"] for r in data["table"]]
    assert means == sorted(means, reverse=True) and data["lay"] == data["table"][0]["card"]
    assert data["table"][-1]["card"] == "KC"  # the four points now are worth having


@pytest.mark.parametrize(("extra", "message"), [
    (["--mine", "5C 4D"], "hand and --mine make 5 cards"),
    (["--mine", "2C"], "--mine 2C: not among the cards laid"),
    (["--count", "6C 5C 4D KS KD"], "the count would be 35, over 31"),
    (["--starter", "KC"], "KC"),
    (["--thrown", "9C"], "--thrown is the two cards"),
])
def test_views_that_do_not_add_up_are_refused(extra: list[str], message: str) -> None:
    result = runner.invoke(app, [*VIEW, *extra])
    assert result.exit_code == 2, result.output
    assert message in result.output and result.output.count("\n") == 1


def refusal(args: list[str]) -> tuple[int, str]:
    """``cribbage peg`` of a view: its exit status and its output, one line expected."""
    result = runner.invoke(app, ["cribbage", "peg", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(("args", "message"), [
    # They led KS, I laid QS (20), they laid 5H (25): with --count empty the count of 25
    # was over, yet my ace fits on it.
    (["AC", "3D", "7S", "--earlier", "KS QS 5H", "--mine", "QS", "--starter", "KH"],
     "--count is empty, so --earlier's last count, 25, ended with both saying go, yet I "
     "hold AC, which fits: a seat says go only when nothing it holds is worth 6 or less; "
     "give that count's cards with --count"),
    # They laid 6C and then 4D: I said go on 6, yet every card in my hand fits.
    (["KC", "3D", "7S", "2H", "--count", "6C 4D", "--starter", "KH"],
     "--count 6C 4D: I said go on 6 (6C then 4D, both theirs), yet held KC, which fits: a "
     "seat says go only when nothing it holds is worth 25 or less"),
    # They led KS, I laid QS, they 9H (29); my JC does not fit, so both said go on 29 and I
    # led JC: their 2D, laid after, would have fitted on 29.
    (["KC", "QC", "--earlier", "KS QS 9H", "--count", "JC 2D", "--mine", "QS JC",
      "--starter", "KH"],
     "--count JC 2D: the opponent said go on 29 (JC does not fit on it), yet held 2D, which "
     "fits: a seat says go only when nothing it holds is worth 2 or less"),
])
def test_a_go_by_a_seat_holding_a_card_that_fits_is_refused(args: list[str],
                                                             message: str) -> None:
    assert refusal(args) == (2, f"error: {message}\n")


@pytest.mark.parametrize(("args", "message"), [
    # 6C 5C make 11 and 4D fits on it: the count goes on, 15, not a new count of 4.
    (["KC", "3D", "7S", "--earlier", "6C 5C", "--count", "4D", "--mine", "5C",
      "--starter", "KH"],
     "--count 4D: the cards laid make a count of 15, not 4, since a count runs until 31 or "
     "until neither seat can lay: give --count '6C 5C 4D' and the cards before with "
     "--earlier"),
    # 10 + 10 + 10 + 1 = 31 ends the count: the next starts at 0.
    (["KC", "3D", "7S", "--count", "TS QC JD AH", "--mine", "QC", "--starter", "KH"],
     "--count TS QC JD AH: the cards laid make a count of 0, not 31, since a count runs "
     "until 31 or until neither seat can lay: give them with --earlier, none with --count"),
])
def test_a_count_the_cards_laid_do_not_make_is_refused(args: list[str], message: str) -> None:
    assert refusal(args) == (2, f"error: {message}\n")


def test_sampling_needs_the_thrown_cards() -> None:
    view = [a for a in VIEW if a not in ("--thrown", "9C 9D")]
    result = runner.invoke(app, [*view, "-p", "sampling"])
    assert result.exit_code == 2 and "needs --thrown" in result.output
