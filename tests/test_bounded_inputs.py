"""Input that was accepted but should not be: the sampling player's
trials beyond MAX_TRIALS, an option key given twice (the last silently won), and pegging
views no deal can give, advised on by every player but the sampling one."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.errors import UsageError
from fuzzeval.play.spec import PlayerSpec, parse_options
from fuzzeval.search.sampling import MAX_TRIALS

runner = CliRunner()
HAND = ["5H", "5S", "JD", "QC", "4S", "9C", "--crib", "theirs"]


def _one_error(args: list[str]) -> str:
    result = runner.invoke(app, args)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert result.stdout == ""
    return lines[0]


def test_sampling_trials_beyond_the_cap_are_refused_with_the_valid_range() -> None:
    assert MAX_TRIALS == 100_000  # docs/sampling.md says so
    line = _one_error(["cribbage", "discard", "--crib", "mine",
                       *HAND, "-p", "sampling:trials=1000000000000"])
    assert "trials must be a whole number from 1 to 100,000 (got 1000000000000)" in line
    line = _one_error(["cribbage", "discard", "--crib", "mine",
                       *HAND, "-p", "sampling:trials=100001"])
    assert "from 1 to 100,000 (got 100001)" in line


def test_the_cap_itself_is_accepted() -> None:
    from fuzzeval.games.cribbage.players import player_from_spec

    player = player_from_spec("sampling:trials=100000")
    assert player.discarder.settings.trials == MAX_TRIALS  # type: ignore[attr-defined]


def test_a_key_given_twice_is_refused_naming_it() -> None:
    with pytest.raises(UsageError, match=r"player 'sampling' option 'trials' given twice "
                                         r"\('trials=50' and 'trials=60'\)"):
        PlayerSpec.parse("sampling:trials=50,trials=60")
    with pytest.raises(UsageError, match="option 'seed' given twice"):
        parse_options(["seed=1", " seed =2"], "cribbage")
    assert parse_options(["b=1", "a=x"], "g") == (("a", "x"), ("b", 1))  # distinct keys pass


@pytest.mark.parametrize("args", [
    ["cribbage", "discard", "--crib", "mine", *HAND, "-p", "sampling:trials=50,trials=60"],
    ["cribbage", "peg", "KC", "--starter", "9H", "--mine", "5S 4S 2S", "--count", "5S 3C 4S 2S",
     "-p", "exhaustive:pegging=fuzzy,pegging=basic"],
    ["match", "cribbage", "-p", "sampling:trials=50,trials=60", "-n", "2"],
    ["match", "cribbage", "--opponent", "random", "-p", "random", "--option", "target=61",
     "--option", "target=121", "-n", "2"],
    ["tournament", "cribbage", "-p", "random", "-p", "sampling:stop=none,stop=paired"],
    ["calibrate", "cribbage", "--option", "target=61", "--option", "target=61"],
])
def test_every_command_refuses_a_repeated_option_key_before_any_file(
        args: list[str], tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "h.sqlite")] if args[0] in ("match", "tournament",
                                                              "calibrate") else []
    line = _one_error([*args, *db])
    assert "given twice" in line and "give each option once" in line
    assert list(tmp_path.iterdir()) == []


# A view no deal gives: five cards laid by the opponent, who keeps four.
FIVE = ["cribbage", "peg", "KC", "--earlier", "AS 3C AH 3D 2S 4C 4D", "--count", "5C",
        "--mine", "AS AH 2S", "--starter", "9H"]
# The opponent said go at count 9 (I laid 4S and 5S running) yet holds three cards: each
# would be worth more than 22.
GO = ["cribbage", "peg", "KC", "--count", "2S 3C 4S 5S", "--mine", "2S 4S 5S",
      "--starter", "9H"]


@pytest.mark.parametrize("player", ["exhaustive", "greedy", "exhaustive:pegging=fuzzy",
                                    "sampling"])
def test_every_pegging_player_refuses_a_view_no_deal_gives(player: str) -> None:
    thrown = ["--thrown", "7H 8H"]
    line = _one_error([*FIVE, "-p", player, *thrown])
    assert "lays at most four (here 4 kept, 5 laid by the opponent)" in line
    line = _one_error([*GO, "-p", player, *thrown])
    assert "no cards the opponent could hold agree with this view" in line


def test_the_default_pegging_advice_still_takes_a_view_that_can_happen() -> None:
    # as GO, but the opponent laid after my 4S: no go said, my turn to lay 5S or KC
    result = runner.invoke(app, ["cribbage", "peg", "KC", "5S", "--count", "2S 3C 4S 5C",
                                 "--mine", "2S 4S", "--starter", "9H", "--json"])
    assert result.exit_code == 0, result.output
    assert '"options": [\n    "KC",\n    "5S"\n  ]' in result.stdout


def test_explain_given_a_key_that_is_not_a_string_names_it_cleanly() -> None:
    # explain({0: 1.0}) raised a TypeError while joining the names
    from fuzzeval.cli.common import open_rulebase
    from fuzzeval.engine.evaluator import compile_rulebase

    ev = compile_rulebase(open_rulebase("tipping"))
    with pytest.raises(ValueError) as caught:
        ev.explain({0: 1.0})  # type: ignore[dict-item]
    assert str(caught.value) == ("inputs must be exactly quality, service; missing quality, "
                                 "service; unknown 0 (not a string)")
    with pytest.raises(ValueError, match=r"; unknown x, \(1, 2\) \(not a string\)$"):
        ev.explain({"quality": 1.0, "service": 2.0, "x": 3.0, (1, 2): 4.0})  # type: ignore[dict-item]
