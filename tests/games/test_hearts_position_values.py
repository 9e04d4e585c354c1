"""The learned values of a position inside the search to the end of the trick: the sum of
the Q♠'s and the hearts' values, kept to what is still out, and the card the player
chooses with them in a hand-worked position (toy bases written here, so every value is
worked by hand)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from fuzzeval.games.hearts.advice import advise, position
from fuzzeval.games.hearts.monte_carlo import maxn_player
from fuzzeval.games.hearts.position_values import position_values
from fuzzeval.games.hearts.positions import POSITION_NAMES

BASE = """name: {name}
defuzzifier: weighted_sum
default: 0
inputs:
  queen_here:
    range: [0, 1]
    terms:
      'no': [0, 0, 1]
      'yes': [0, 1, 1]
  hearts:
    range: [0, 13]
    terms:
      low: [0, 0, 6.5]
      mid: [0, 6.5, 13]
      high: [6.5, 13, 13]
output:
  name: value
  range: [-100, 100]
  terms:
    r1: {first}
    r2: {second}
rules:
- if queen_here is yes then value is r1
- if hearts is high then value is r2
"""


def _bases(tmp_path: Path, queen: tuple[float, float], hearts: tuple[float, float]
           ) -> dict[str, str]:
    out = {}
    for name, (first, second) in (("queen", queen), ("hearts", hearts)):
        path = tmp_path / f"{name}.yaml"
        path.write_text(BASE.format(name=name, first=first, second=second))
        out[name] = str(path)
    return out


def _features(**given: float) -> np.ndarray:
    row = np.zeros((1, 4, len(POSITION_NAMES)))
    for name, value in given.items():
        row[0, :, POSITION_NAMES.index(name)] = value
    return row


def test_the_two_values_add_each_kept_to_what_is_still_out(tmp_path: Path) -> None:
    values = position_values(**_bases(tmp_path, (13.0, 0.0), (0.5, 8.0)))
    # the QS in hand: 13 from the queen's base, 0.5 from the hearts' base; 13 hearts in
    # hand, all high: 8 more; 13 hearts still out: 21.5
    row = _features(queen_here=1, hearts=13, hearts_left=13)
    assert values.to_come(row).tolist() == [[21.5, 21.5, 21.5, 21.5]]
    # 9.75 hearts, half high (0.5 x 8 = 4), but only 3 hearts still out; the QS laid (in
    # nobody's hand): nothing to come from it
    row = _features(queen_here=0, queen_other=0, hearts=9.75, hearts_left=3)
    assert values.to_come(row).tolist() == [[3.0, 3.0, 3.0, 3.0]]
    row = _features(queen_here=0, queen_other=1, hearts=9.75, hearts_left=13)
    assert values.to_come(row).tolist() == [[4.0, 4.0, 4.0, 4.0]]


def test_a_value_below_nothing_counts_as_nothing(tmp_path: Path) -> None:
    values = position_values(**_bases(tmp_path, (-5.0, 0.0), (0.0, -2.0)))
    row = _features(queen_here=1, queen_other=0, hearts=13, hearts_left=13)
    assert values.to_come(row).tolist() == [[0.0, 0.0, 0.0, 0.0]]


def test_void_in_the_suit_led_it_sheds_the_queen_where_points_taken_do_not(
        tmp_path: Path) -> None:
    """Void in clubs on a club trick (9C led, KC on it, one seat to come): whatever it
    discards, the trick is someone else's, so by the points taken every card is worth 0
    and the first legal card, the 2D, is laid. With the queen's value 13 while it is held,
    every card but the QS keeps it: 13 in every deal; the QS is worth 0."""
    hand = "QS KS 4S 2D 3D 7D JD 5H 8H AH 6D 9D"
    state = position(hand, trick="9C,KC", earlier="2C,AC,5C,TC")
    taken = advise(state, maxn_player(deals=3), "maxn")
    assert taken["play"] == "2D"
    assert {row["points"] for row in taken["table"]} == {0.0}
    player = maxn_player(deals=3, values="learned",
                         **_bases(tmp_path, (13.0, 0.0), (0.0, 0.0)))
    learned = advise(state, player, "maxn")
    assert learned["play"] == "QS"
    table = {row["card"]: (row["points"], row["sd"]) for row in learned["table"]}
    assert table.pop("QS") == (0.0, 0.0)
    assert set(table.values()) == {(13.0, 0.0)} and len(table) == 11
    assert learned["how"].endswith("(every seat by the points it takes plus the learned "
                                   "points still to come)")


def test_with_the_shipped_bases_a_decision_repeats_from_its_seed() -> None:
    state = position("QS KS 4S 2D 3D 7D JD 5H 8H AH 6D 9D", trick="9C,KC",
                     earlier="2C,AC,5C,TC")
    player = maxn_player(deals=2, values="learned")
    first = advise(state, player, "maxn", seed=3)
    assert first == advise(state, player, "maxn", seed=3)
    assert first["play"] == "QS"


@pytest.mark.parametrize(("options", "message"), [
    ({"values": "best"}, "values must be one of taken, learned (got 'best')"),
    ({"queen": "x"}, "queen: learned bases need values=learned"),
    ({"values": "learned", "queen": "hearts"},
     "rule base 'hearts' is weighted_average, not a learned weighted_sum base"),
])
def test_bad_options_are_refused_in_one_line(options: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        maxn_player(**options)


@pytest.mark.mutation_pin
def test_what_is_out_bounds_each_value_and_only_whole_tricks_are_valued(
        tmp_path: Path) -> None:
    """By hand, on toy bases: a Q♠ value above 13 is 13; the queen is out when another
    seat holds it (its base's 6.5 for 13 high hearts); one heart left bounds the hearts'
    value to 1; no rows, no values. A leaf in the middle of a trick is worth the points
    taken so far only, and one between tricks adds what is to come. A base that reads what
    is not a position feature is refused, naming the game."""
    from fuzzeval.games.hearts.game import GAME
    from fuzzeval.games.hearts.trick import points_taken

    big = position_values(**_bases(tmp_path, (20.0, 0.0), (0.0, 8.0)))
    row = _features(queen_here=1, hearts=13, hearts_left=1)
    assert big.to_come(row).tolist() == [[14.0] * 4]  # 13 + min(8, 1)
    assert big.to_come_rows(np.zeros((0, len(POSITION_NAMES)))).shape == (0,)
    other = position_values(**_bases(tmp_path, (0.0, 6.5), (0.0, 0.0)))
    row = _features(queen_here=0, queen_other=1, hearts=13, hearts_left=0)
    assert other.to_come(row).tolist() == [[6.5] * 4]
    rng = np.random.default_rng(3)
    state = GAME.new_game(rng, 0)
    seen = {}
    while len(seen) < 2:
        state = GAME.apply(state, 0, rng)
        hand = state.hand
        if hand.phase == "play" and hand.laid:
            seen.setdefault(bool(hand.trick), state)
    middle, between = seen[True], seen[False]
    assert big([middle]).tolist() == points_taken([middle]).tolist()
    assert big([between]).sum() >= points_taken([between]).sum() + 13  # the Q♠ to come
    (tmp_path / "odd.yaml").write_text(BASE.format(name="odd", first=1, second=2).replace(
        "queen_here", "pips"))
    with pytest.raises(ValueError, match="are not hearts_positions features"):
        position_values(str(tmp_path / "odd.yaml"), str(tmp_path / "odd.yaml"))
