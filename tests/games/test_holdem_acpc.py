"""ACPC hand logs: lines written as the ACPC dealer logs them, read back and checked
against the rules, and ``fuzzeval holdem replay`` on a log with good and bad lines."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.errors import NotationError
from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.acpc import format_line, log_name, parse_line, read_log
from fuzzeval.games.holdem.game import deal_cards
from fuzzeval.games.holdem.rules import parse_betting
from tests.games.test_holdem_rules import deal

runner = CliRunner()
SHOWDOWN = "STATE:3:rc/crc/cc/rc:AsKd|2c2h/3c8c9h/Jd/Qs:-50|50:alice|bob"
FOLD = "STATE:4:rrf:AsKd|2c2h:20|-20:bob|alice"


def numbered(line: str, hand: int) -> str:
    """The line as hand ``hand`` of a log (a log's hands run 0, 1, 2, ...)."""
    return f"STATE:{hand}:{line.split(':', 2)[2]}"


def test_a_hand_is_written_as_the_dealer_logs_it() -> None:
    d = deal("AsKd|2c2h/3c8c9h/Jd/Qs")
    assert format_line(3, d, parse_betting("rc/crc/cc/rc"), ("alice", "bob")) == SHOWDOWN
    # a fold shows the board only as far as it was dealt
    assert format_line(4, d, parse_betting("rrf"), ("bob", "alice")) == FOLD
    assert format_line(5, d, parse_betting("cc/rrf"), ("a", "b")) == \
        "STATE:5:cc/rrf:AsKd|2c2h/3c8c9h:-20|20:a|b"
    assert log_name("fuzzy:rulebase=my base.yaml") == "fuzzy_rulebase=my_base.yaml"


def test_a_line_reads_back_checked() -> None:
    hand = parse_line(SHOWDOWN)
    assert hand.number == 3 and hand.chips == (-50, 50) and hand.names == ("alice", "bob")
    assert str(hand.betting) == "rc/crc/cc/rc" and hand.deal.board[-1] == 43  # Qs
    assert parse_line(FOLD).chips == (20, -20)
    # chips written as decimals, and a board shown past a fold, read too
    assert parse_line("STATE:9:f:AsKd|2c2h/3c8c9h/Jd/Qs:5.000000|-5.000000:a|b").chips \
        == (5, -5)


def test_random_hands_write_and_read_back() -> None:
    rng = np.random.default_rng(6)
    for number in range(300):
        d = deal_cards(rng)
        b = rules.START
        while not b.over:
            options = rules.legal(b)
            b = rules.act(b, options[int(rng.integers(len(options)))])
        hand = parse_line(format_line(number, d, b, ("x", "y")))
        assert hand.betting == b and hand.chips == rules.chips(d, b)


@pytest.mark.parametrize(("line", "token", "why"), [
    ("STATE:5:rrrr:AsKd|2c2h:0|0:a|b", "rrrr", "the cap"),
    ("STATE:6:rfc:AsKd|2c2h:20|-20:a|b", "rfc", "the hand is over (a fold)"),
    ("STATE:6:rc/crc/cc/rc:AsAs|2c2h/3c8c9h/Jd/Qs:-50|50:a|b", "As", "appears twice"),
    ("STATE:6:rc/crc/cc/rc:AsKd|2c2h/3c8c9h/Jd/2c:-50|50:a|b", "2c", "appears twice"),
    ("STATE:6:f:AsKx|2c2h:5|-5:a|b", "Kx", "unknown suit"),
    ("STATE:6:rc/crc/cc/rc:AsKd|2c2h/3c8c9h/Jd/Qs:-40|40:a|b", "-40|40",
     "the rules give -50|50"),
    ("STATE:7:rc/c:AsKd|2c2h/3c8c9h:0|0:a|b", "rc/c", "the hand is not finished"),
    ("STATE:8:cc/cc/cc/cc:AsKd|2c2h/3c8c9h:0|0:a|b", "AsKd|2c2h/3c8c9h",
     "the betting reached the river, but the board shows 3 cards"),
    ("MATCHSTATE:0:0::AsKd|", "MATCHSTATE:0:0::AsKd|", "not an ACPC log line"),
    ("STATE:x:f:AsKd|2c2h:5|-5:a|b", "x", "a hand number"),
    ("STATE:1:f:AsKd|2c2h:5|-5:a", "a", "the names are two"),
    ("STATE:1:f:AsKd|2c2h:five|-5:a|b", "five", "chips are a number"),
    ("STATE:1:f:AsKd:5|-5:a|b", "AsKd", "the hole cards are two pairs"),
])
def test_bad_lines_name_the_token(line: str, token: str, why: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_line(line)
    assert caught.value.token == token and why in caught.value.why


def test_a_log_adds_up_each_player_and_checks_its_score_line() -> None:
    totals = read_log([numbered(SHOWDOWN, 0), "", "# a comment", numbered(FOLD, 1),
                       "SCORE:-70|70:alice|bob"], "x")
    assert totals.errors == [] and totals.count == 2
    assert totals.chips == {"alice": -70, "bob": 70} and totals.hands == {"alice": 2,
                                                                         "bob": 2}
    wrong = read_log([numbered(SHOWDOWN, 0), "SCORE:-50|40:alice|bob"], "x")
    assert wrong.errors == ["x:2: '-50|40': the hands above give bob 50"]


def test_replay_reports_each_bad_line_and_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "match.log"
    log.write_text("\n".join([numbered(SHOWDOWN, 0), "STATE:1:rrrr:AsKd|2c2h:0|0:alice|bob",
                              numbered(FOLD, 2), "hello", "SCORE:-70|70:alice|bob"]) + "\n")
    result = runner.invoke(app, ["holdem", "replay", str(log)])
    assert result.exit_code == 2
    errors = result.stderr.splitlines()
    assert len(errors) == 2
    assert errors[0] == (f"error: {log}:2: 'rrrr': 'r' at character 4: 4 bets already "
                         "this round, the cap")
    # ":hand:" is an emoji name to rich: the message is printed as written
    assert errors[1] == (f"error: {log}:4: 'hello': not an ACPC log line "
                         "(STATE:hand:betting:cards:chips:names)")
    assert "alice" in result.stdout and "-70" in result.stdout and "2 hands" in result.stdout
    good = tmp_path / "good.log"
    good.write_text(f"{numbered(SHOWDOWN, 0)}\n{numbered(FOLD, 1)}\n")
    out = runner.invoke(app, ["holdem", "replay", str(good), "--json"])
    assert out.exit_code == 0, out.output
    rows = {p["player"]: p for p in json.loads(out.stdout)["players"]}
    assert rows["bob"] == {"player": "bob", "hands": 2, "chips": 70,
                           "small_bets_per_hand": 3.5}


def replay(tmp_path: Path, lines: list[bytes]) -> tuple[int, list[str], dict[str, int], Path]:
    """``holdem replay --json`` of a log of these lines: exit status, error lines, each
    player's hands counted, the log's path."""
    log = tmp_path / "match.log"
    log.write_bytes(b"\n".join(lines) + b"\n")
    result = runner.invoke(app, ["holdem", "replay", str(log), "--json"])
    hands = {p["player"]: p["hands"] for p in json.loads(result.stdout)["players"]}
    return result.exit_code, result.stderr.splitlines(), hands, log


def test_replay_refuses_a_dropped_hand_naming_it(tmp_path: Path) -> None:
    # The ACPC dealer numbers a match's hands 0, 1, 2, ...: a gap is a hand dropped.
    hand = [numbered(SHOWDOWN, n).encode() for n in range(4)]
    code, errors, _, log = replay(tmp_path, [hand[0], hand[2], hand[1]])
    assert code == 2 and errors == [
        f"error: {log}:2: '2': hand 1 is missing: an ACPC log numbers its hands 0, 1, 2, "
        "... with none left out",
        f"error: {log}:3: '1': hand 1 after hand 2: an ACPC log numbers its hands 0, 1, 2, "
        "... in order"]
    code, errors, _, log = replay(tmp_path, [hand[3]])
    assert code == 2 and errors == [
        f"error: {log}:1: '3': hands 0 to 2 are missing: an ACPC log numbers its hands 0, "
        "1, 2, ... with none left out"]


def test_replay_refuses_a_repeated_hand_naming_both_lines(tmp_path: Path) -> None:
    code, errors, hands, log = replay(tmp_path, [numbered(SHOWDOWN, 0).encode(),
                                                 numbered(FOLD, 1).encode(),
                                                 numbered(FOLD, 1).encode()])
    assert code == 2 and errors == [f"error: {log}:3: '1': hand 1 again: line 2 is hand 1 too"]
    assert hands == {"alice": 2, "bob": 2}  # the repeat is not counted


def test_replay_refuses_a_byte_that_is_not_utf8(tmp_path: Path) -> None:
    # "b\xe9b" is Latin-1 for bób: read as UTF-8 with replacement it was a third player.
    latin1 = numbered(FOLD, 1).replace("bob", "b\xe9b").encode("latin-1")
    code, errors, hands, log = replay(tmp_path, [numbered(SHOWDOWN, 0).encode(), latin1])
    # STATE:1:rrf:AsKd|2c2h:20|-20:b is 30 bytes: the 31st is 0xe9
    assert code == 2 and errors == [f"error: {log}:2: byte 31 of the line, 0xe9, is not "
                                    "UTF-8: an ACPC log is UTF-8 text"]
    assert hands == {"alice": 1, "bob": 1}


def test_replay_refuses_a_third_player_naming_the_names(tmp_path: Path) -> None:
    code, errors, hands, log = replay(tmp_path, [
        numbered(SHOWDOWN, 0).encode(),  # alice|bob
        numbered(FOLD, 1).replace("bob|alice", "carol|alice").encode()])
    assert code == 2 and errors == [
        f"error: {log}:2: 'carol|alice': a third player: a heads-up log has two, and the "
        "hands above name alice and bob"]
    assert hands == {"alice": 1, "bob": 1}


def test_replay_of_a_missing_file_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["holdem", "replay", str(tmp_path / "none.log")])
    assert result.exit_code == 2 and result.stderr.strip() == \
        f"error: {tmp_path / 'none.log'}: no such file"


def test_the_holdem_group_alone_prints_its_help() -> None:
    result = runner.invoke(app, ["holdem"])
    assert result.exit_code == 0 and "Usage: fuzzeval holdem" in result.stdout
    assert "replay" in result.stdout


def test_an_exported_hand_by_one_player_in_both_seats_names_each_seat() -> None:
    """``history export --format acpc`` of a self-play hand: the two seats' one name gets
    ``-seat0``/``-seat1`` (else the log holds one player), each at its position: seat 0 on
    the button (position 1) folds its small blind, so position 0, seat 1, wins 5 chips."""
    from fuzzeval.games.holdem.acpc import record_line

    record = {"index": 0, "seats": ["call", "call"], "scores": [-5, 5],
              "events": [{"chance": "deal", "seat": 0, "position": 1, "cards": ["As", "Kd"]},
                         {"chance": "deal", "seat": 1, "position": 0, "cards": ["2c", "2h"]},
                         {"seat": 0, "choice": "fold"}]}
    assert record_line(record, 7) == "STATE:7:f:2c2h|AsKd:5|-5:call-seat1|call-seat0"
    with pytest.raises(ValueError, match=r"game 0 replays to chips \(5, -5\), stored "
                                         r"\[5, -5\]"):
        record_line({**record, "scores": [5, -5]}, 7)  # the payoffs of the other seats


LONG = "STATE:0:f:AsKd|2c2h:5|-5:a|b:" + "x" * 50


@pytest.mark.parametrize(("line", "message"), [
    ("STATE:0:rc/crc/cc/rc:AsKd|2c2h/3c8c9h/Jd/Qs/Ks:-50|50:a|b",
     "'AsKd|2c2h/3c8c9h/Jd/Qs/Ks': a board has three rounds of cards (flop/turn/river)"),
    ("STATE:0:f:AsKdQh|2c2h:5|-5:a|b", "'AsKdQh': expected 2 cards (got 3)"),
    ("STATE:0:rc/crc/cc/rc:AsKd|2c2h/3c8c/9hJd/Qs:-50|50:a|b", "'3c8c': expected 3 cards "
                                                                "(got 2)"),
    ("STATE:0:f:AsKd|As2h:5|-5:a|b", "'As': this card appears twice"),
    ("STATE:0:rc/crc/cc/rc:AsKd|2c2h/3c8cAs/Jd/Qs:-50|50:a|b", "'As': this card appears twice"),
    ("STATE:0:f:AsKd|2c2h:5|-5", "'STATE:0:f:AsKd|2c2h:5|-5': not an ACPC log line "
                                 "(STATE:hand:betting:cards:chips:names)"),
    ("FOO:1:f:AsKd|2c2h:5|-5:a|b", "'FOO:1:f:AsKd|2c2h:5|-5:a|b': not an ACPC log line "
                                   "(STATE:hand:betting:cards:chips:names)"),
    (LONG, f"{LONG[:40]!r}: not an ACPC log line (STATE:hand:betting:cards:chips:names)"),
    ("STATE:0:f:AsKd|2c2h:5|-5|0:a|b", "'5|-5|0': the chips are two numbers, position 0's "
                                       "first, e.g. -20|20"),
    ("STATE:0:f:AsKd|2c2h:five|-5:a|b", "'five': chips are a number, e.g. -20"),
    ("STATE:0:f:AsKd|2c2h:5|inf:a|b", "'inf': chips are a finite number"),
    ("STATE:0:f:AsKd|2c2h:5|-5:a|", "'a|': the names are two, position 0's first, e.g. "
                                    "alice|bob"),
    ("STATE:-1:f:AsKd|2c2h:5|-5:a|b", "'-1': a hand number is a whole number >= 0"),
    ("STATE:0:rc/c:AsKd|2c2h/3c8c9h:0|0:a|b", "'rc/c': the hand is not finished: position 1 "
                                              "to act"),
    ("STATE:0:f:AsKd2c2h:5|-5:a|b", "'AsKd2c2h': the hole cards are two pairs, position 0's "
                                    "first, e.g. AsKd|2c2h"),
])
def test_each_bad_line_is_its_one_line_message(line: str, message: str) -> None:
    """The whole message, word for word: the token (a line cut at 40 characters) and why."""
    assert read_log([line], "x.log").errors == [f"x.log:1: {message}"]


def test_a_score_line_is_checked_against_the_hands_above_it() -> None:
    """Players with no hand above have 0 chips; a SCORE line has three fields."""
    assert read_log(["SCORE:0|0:a|b"], "x").errors == []
    assert read_log(["SCORE:1|-1:a|b"], "x").errors == ["x:1: '1|-1': the hands above give a 0"]
    for bad in ("SCORE:1|-1", "SCORE:0|0:a|b:c", "SCORE:0|0:a|b:" + "c" * 40):
        assert read_log([bad], "x").errors == [f"x:1: {bad[:40]!r}: a SCORE line is "
                                               "SCORE:chips:names"]
    assert log_name("   ") == "_" and log_name(" a b:c|d ") == "a_b_c_d"


def test_a_game_without_events_is_not_logged() -> None:
    from fuzzeval.games.holdem.acpc import record_line

    with pytest.raises(ValueError, match=r"^game 4 has no events to log$"):
        record_line({"index": 4, "events": []}, 0)
