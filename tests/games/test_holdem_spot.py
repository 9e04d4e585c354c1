"""A hold'em decision written by hand (hole cards, board, betting), as ``holdem act`` will
read it: the player to act, the legal actions, and every inconsistency named."""

from __future__ import annotations

import pytest

from fuzzeval.errors import NotationError
from fuzzeval.games.holdem.spot import action_index, read_spot


def test_a_spot_on_the_flop() -> None:
    d = read_spot("AsKd", "2c3d4h", "crc/c")
    assert d.position == 1 and d.hole == (51, 45) and d.board == (0, 5, 10)
    assert d.actions == "cr" and d.betting.spent == (20, 20)  # checked to the button
    assert action_index(d, "r") == 1


def test_a_spot_preflop_facing_a_raise() -> None:
    d = read_spot("7c2d", "", "r")
    assert d.position == 0 and d.actions == "fcr" and d.betting.to_call == 10


def test_issue_28s_example_betting_is_not_legal() -> None:
    """``cr/c``: after the button calls and the big blind raises, the button must act
    before the flop."""
    with pytest.raises(NotationError, match="no round ends at character 3"):
        read_spot("AsKd", "2c3d4h", "cr/c")


@pytest.mark.parametrize(("hole", "board", "betting", "token", "why"), [
    ("AsAs", "", "", "As", "appears twice"),
    ("AsKd", "Kd2c3d", "cc/", "Kd", "appears twice"),
    ("AsKdQh", "", "", "AsKdQh", "expected 2 cards"),
    ("AsKd", "2c3d", "cc/", "2c3d", "the flop (betting 'cc/') has 3 board cards, not 2"),
    ("AsKd", "", "cc/cc/", "no board", "the turn (betting 'cc/cc/') has 4 board cards"),
    ("AsKd", "", "rrrr", "rrrr", "the cap"),
    ("AsKd", "", "rf", "rf", "the hand is over"),
    ("AsKd", "2c3d4h", "cc/rf", "cc/rf", "the hand is over"),
])
def test_bad_spots_name_the_token(hole: str, board: str, betting: str, token: str,
                                  why: str) -> None:
    with pytest.raises(NotationError) as caught:
        read_spot(hole, board, betting)
    assert caught.value.token == token and why in caught.value.why


def test_an_illegal_action_is_named_with_the_legal_ones() -> None:
    d = read_spot("AsKd", "", "c")  # the big blind's option: no fold
    with pytest.raises(NotationError, match=r"'f': not legal after 'c' \(legal: c, r\)"):
        action_index(d, "f")
    capped = read_spot("AsKd", "", "rrr")
    with pytest.raises(NotationError, match="legal: f, c"):
        action_index(capped, "r")
