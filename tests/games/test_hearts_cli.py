"""``fuzzeval hearts card``: advice for one decision, its JSON, --explain, and one-line
errors (exit 2) naming the bad token."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

runner = CliRunner()
HAND_TEXT = "QS AH KH 3D 4D 5D 6D 7D 8D 9D TD JD"
HAND = HAND_TEXT.split()


def run(*args: str) -> tuple[int, str, str]:
    res = runner.invoke(app, ["hearts", "card", *args])
    return res.exit_code, res.stdout, res.stderr


def test_void_in_clubs_the_fuzzy_player_dumps_the_queen() -> None:
    code, out, _ = run(*HAND, "--trick", "KC", "--earlier", "2C,3C,4C,5C", "--json")
    data = json.loads(out)
    assert code == 0 and data["play"] == "QS" and data["rulebase"] == "hearts"
    assert data["table"][0]["card"] == "QS" and len(data["table"]) == 12
    code, out, _ = run(*HAND, "--trick", "KC", "--earlier", "2C,3C,4C,5C", "--explain")
    assert code == 0 and "play QS" in out and "rule base hearts: written by hand" in out
    assert "why QS:" in out and "worth = 10" in out


def test_the_pass_gives_three_cards_and_heuristic_advises_too() -> None:
    hand = [*HAND, "2S"]
    code, out, _ = run(*hand, "--pass", "left", "--json")
    assert code == 0 and json.loads(out)["pass"][0] == "QS"
    assert len(json.loads(out)["pass"]) == 3
    code, out, _ = run(*hand, "--pass", "left", "-p", "heuristic", "--json")
    assert code == 0 and json.loads(out)["pass"] == ["QS", "AH", "KH"]


@pytest.mark.parametrize(("args", "token"), [
    ([*HAND[:-1], "1D", "--trick", "KC", "--earlier", "2C,3C,4C,5C"], "'1D'"),
    ([*HAND[:-1], "QS", "--trick", "KC", "--earlier", "2C,3C,4C,5C"], "'QS'"),
    ([*HAND, "--trick", "QS", "--earlier", "2C,3C,4C,5C"], "'QS': in the hand and in the trick"),
    ([*HAND, "--trick", "KC,AC,6C,7C", "--earlier", "2C,3C,4C,5C"], "at most 3 cards"),
    ([*HAND, "--trick", "KC", "--earlier", "2C,3C,4C"], "whole tricks"),
    ([*HAND, "--trick", "KC", "--earlier", "2C,3C,4C,5C", "--voids", "me:S"], "'me:S'"),
    ([*HAND, "--trick", "KC", "--earlier", "2C,3C,4C,5H", "--taken", "0,2,0,0"],
     "took 2 points"),
    ([*HAND, "--trick", "KC", "--earlier", "2C,3C,4C,5C", "-p", "greedy"],
     "--player greedy: unknown hearts player 'greedy' (players: random, heuristic, fuzzy, "
     "ismcts, maxn, sampling, td)"),  # td: a learned player it takes
])
def test_bad_input_is_one_line_naming_the_token(args: list[str], token: str) -> None:
    code, out, errs = run(*args)
    assert code == 2 and out == ""
    assert errs.startswith("error: ") and token in errs and errs.count("\n") == 1


def test_the_table_shows_whole_names_while_they_fit_80_columns() -> None:
    """Inputs that tell the cards apart, in order, while 80 columns hold their whole names
    (a name's width or a number's 6, and 3 between): card, worth and five inputs make 74,
    the next would pass 80. It once cut the sixth and seventh names ('card_poin…')."""
    code, out, _ = run(*HAND, "--trick", "KC", "--earlier", "2C,3C,4C,5C")
    lines = out.splitlines()
    assert code == 0 and "…" not in out and max(map(len, lines)) <= 80
    assert lines[3].split() == ["card", "worth", "is_queen", "is_spade", "is_heart",
                                "card_points", "rank"]
    assert lines[5].split() == ["QS", "10", "1", "1", "0", "13", "10"]  # Q: rank 10 of 0..12
    assert lines[-1] == "14 more inputs in --json (alike for every card, or past 80 columns)"


def test_a_narrower_terminal_gets_fewer_columns_never_a_cut_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At 50 columns: card, worth, is_queen and is_spade make 40, is_heart (11) and
    card_points (14) would pass 50, rank (9) makes 49."""
    import io

    from rich.console import Console

    screen = io.StringIO()
    monkeypatch.setattr("fuzzeval.games.hearts.cli.console", Console(file=screen, width=50))
    code, _, _ = run(*HAND, "--trick", "KC", "--earlier", "2C,3C,4C,5C")
    lines = screen.getvalue().splitlines()
    assert code == 0 and "…" not in screen.getvalue() and max(map(len, lines)) <= 50
    header = next(line for line in lines if "worth" in line)
    assert header.split() == ["card", "worth", "is_queen", "is_spade", "rank"]
    assert " ".join(lines[-2:]) == ("16 more inputs in --json (alike for every card, or "
                                    "past 50 columns)")


def test_who_laid_each_earlier_card_follows_from_the_tricks() -> None:
    """The cards laid earlier were recorded as laid by seat -1 (the sampling player
    replayed them as seat 3's), the tricks as all won by me, and a void they show was not
    known: each now follows from the tricks, read backwards from the current one."""
    from fuzzeval.games.hearts.advice import position

    # trick 1: 2C 3C 4C 5C, 5C wins (4th card); trick 2 is led by its winner: 6D, 7D, 2S
    # (not a diamond: a void), 8D wins (4th card again); the current trick 9D, TD is led by
    # trick 2's winner and two cards sit on it, so that winner is across (seat 2), trick 2
    # was led by seat 3 (right), and trick 1, won by right, was led by me.
    s = position("QS AS 3H 4H 5H 6H 7H 8H 9H TH JH", earlier="2C,3C,4C,5C,6D,7D,2S,8D",
                 trick="9D,TD")
    assert [seat for seat, _ in s.laid] == [0, 1, 2, 3, 3, 0, 1, 2, 2, 3]
    assert s.winners == (3, 2) and s.leader == 2
    assert s.voids == (0, 1 << 1, 0, 0)  # left did not follow diamonds
    code, out, _ = run("QS", "AS", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH",
                       "--earlier", "2C,3C,4C,5C,6D,7D,2S,8D", "--trick", "9D,TD", "-p",
                       "sampling:trials=20", "--json")
    assert code == 0 and json.loads(out)["play"] in ("QS", "AS", "JH", "TH", "9H", "8H",
                                                     "7H", "6H", "5H", "4H", "3H")


@pytest.mark.parametrize(("hand", "earlier", "trick", "message"), [
    # left leads KC, so it won trick 3 with the JD (4th), which across led; across won
    # trick 2 with the 8D (4th), which right led: left laid the 2S there, a void
    ("QS AS 3H 4H 5H 6H 7H 8H 9H TH", "2C,3C,4C,5C,6D,7D,2S,8D,9D,TD,3D,JD", "KC,QC,AC",
     "'JD': left showed a void in diamonds before laying it"),
    # I laid the 2S on a diamond lead, so I hold no diamond
    ("QS AS 3H 4H 5H 6H 7H 8H 9H 3D KD", "2C,3C,4C,5C,6D,2S,7D,8D", "9D,TD",
     "'3D': in my hand, but I did not follow diamonds earlier"),
])
def test_a_history_that_contradicts_a_void_is_refused(hand: str, earlier: str, trick: str,
                                                      message: str) -> None:
    code, out, errs = run(*hand.split(), "--earlier", earlier, "--trick", trick)
    assert code == 2 and out == "" and errs == f"error: {message}\n"
