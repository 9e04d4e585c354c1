"""The JSON lines of ``cribbage discard --batch``, pinned, and the fuzzy tables that
``GradeTable.json`` writes straight from the arrays: the bytes ``json.dumps`` writes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.cribbage.advice import advice_lines, advice_many
from fuzzeval.games.cribbage.cards import parse_cards
from fuzzeval.games.cribbage.discard import CribOwner
from fuzzeval.games.cribbage.grade_table import GradeTable
from fuzzeval.games.cribbage.players import player_from_spec
from fuzzeval.play.spec import PlayerSpec

runner = CliRunner()
HANDS = "7C KD AC 4D 5S JC\n8H AH KC 5C KH 5S\n"

# What the batch wrote before its fuzzy tables were written from the arrays (and before
# the exhaustive table kept its points in int8): each line's length and the first 16 hex
# digits of its SHA-256, and in full its first row. The second hand's exhaustive table
# has ties (8H 5C and 8H 5S; KC 5S, 5C KH and KH 5S), which keep THROWS order.
PINNED = {
    ("fuzzy", "mine"): [
        (5349, "e2c2cbcbc57f2994",
         '{"discard": "5S 7C", "keep": "AC 4D JC KD", "grade": 0.636663, "kept_points": 4.0, '
         '"fifteen_potential": 7.0, "run_potential": 1.0, "flush_potential": 0.0, '
         '"nobs_chance": 0.217391, "crib_ownership": 1.0, "fives_thrown": 1.0, '
         '"pair_thrown": 0.0, "fifteen_thrown": 0.0, "touching_thrown": 0.0, '
         '"thrown_gap": 2.0, "ten_cards_thrown": 0.0}'),
        (5300, "158fc8409a1f30f6",
         '{"discard": "AH 8H", "keep": "5C 5S KC KH", "grade": 1.099723, "kept_points": 12.0, '
         '"fifteen_potential": 5.0, "run_potential": 0.0, "flush_potential": 0.0, '
         '"nobs_chance": 0.0, "crib_ownership": 1.0, "fives_thrown": 0.0, '
         '"pair_thrown": 0.0, "fifteen_thrown": 0.0, "touching_thrown": 0.0, '
         '"thrown_gap": 7.0, "ten_cards_thrown": 0.0}'),
    ],
    ("fuzzy", "theirs"): [
        (5356, "f225b3ec5b9e767a",
         '{"discard": "7C KD", "keep": "AC 4D 5S JC", "grade": 0.458434, "kept_points": 4.0, '
         '"fifteen_potential": 9.0, "run_potential": 2.0, "flush_potential": 0.0, '
         '"nobs_chance": 0.217391, "crib_ownership": 0.0, "fives_thrown": 0.0, '
         '"pair_thrown": 0.0, "fifteen_thrown": 0.0, "touching_thrown": 0.0, '
         '"thrown_gap": 6.0, "ten_cards_thrown": 1.0}'),
        (5303, "0fcf0ef32109fc39",
         '{"discard": "AH 8H", "keep": "5C 5S KC KH", "grade": 1.108761, "kept_points": 12.0, '
         '"fifteen_potential": 5.0, "run_potential": 0.0, "flush_potential": 0.0, '
         '"nobs_chance": 0.0, "crib_ownership": 0.0, "fives_thrown": 0.0, '
         '"pair_thrown": 0.0, "fifteen_thrown": 0.0, "touching_thrown": 0.0, '
         '"thrown_gap": 7.0, "ten_cards_thrown": 0.0}'),
    ],
    ("exhaustive", "mine"): [
        (3086, "a6c17bebe07337d6",
         '{"discard": "7C 5S", "keep": "KD AC 4D JC", "hand_mean": 6.391304, '
         '"crib_mean": 6.591173, "ev": 12.982477, "hand_min": 4, "hand_max": 11, '
         '"crib_min": 2, "crib_max": 20, "net_min": 6, "net_max": 29}'),
        (3096, "cbc96ef40b508fd0",
         '{"discard": "8H AH", "keep": "KC 5C KH 5S", "hand_mean": 13.826087, '
         '"crib_mean": 4.272727, "ev": 18.098814, "hand_min": 12, "hand_max": 22, '
         '"crib_min": 0, "crib_max": 18, "net_min": 12, "net_max": 35}'),
    ],
}


@pytest.mark.parametrize(("player", "crib"), list(PINNED))
def test_the_batch_writes_the_pinned_lines(tmp_path: Path, player: str, crib: str) -> None:
    path = tmp_path / "hands.txt"
    path.write_text(HANDS)
    res = runner.invoke(app, ["cribbage", "discard", "--batch", str(path), "--json",
                              "--crib", crib, "-p", player])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == 2
    for line, (length, digest, first) in zip(lines, PINNED[player, crib], strict=True):
        assert '"table": [' + first + ", " in line
        assert (len(line), hashlib.sha256(line.encode()).hexdigest()[:16]) == (length, digest)


def _table(values: list[list[float]], grades: list[float]) -> GradeTable:
    """One hand, len(grades) throws, one input named ``x``."""
    return GradeTable.of(np.array([grades]), np.array([values]), ("x",))


LABELS = [[("AC 2C", "3C 4C 5C 6C"), ("AC 3C", "2C 4C 5C 6C"), ("2C 3C", "AC 4C 5C 6C")]]


def test_json_spells_each_number_as_json_dumps_does() -> None:
    # -0.0 and 0.0 apart, a millionth in exponent form, ties in THROWS order
    table = _table([[-0.0], [0.0000014], [1e16]], [0.5, 0.25, 0.5])
    assert table.choices == [0]
    assert table.json(LABELS) == [
        '{"discard": "AC 2C", "keep": "3C 4C 5C 6C", "grade": 0.5, "x": -0.0}, '
        '{"discard": "2C 3C", "keep": "AC 4C 5C 6C", "grade": 0.5, "x": 1e+16}, '
        '{"discard": "AC 3C", "keep": "2C 4C 5C 6C", "grade": 0.25, "x": 1e-06}']
    rows = table.rows(LABELS)
    assert table.json(LABELS) == [json.dumps(r)[1:-1] for r in rows]


def test_json_leaves_a_table_with_a_number_json_has_not_to_json_dumps() -> None:
    assert _table([[np.inf], [0.0], [1.0]], [0.5, 0.25, 0.5]).json(LABELS) is None
    assert _table([[1.0], [0.0], [1.0]], [np.nan, 0.25, 0.5]).json(LABELS) is None


@pytest.mark.parametrize("crib", ["mine", "theirs"])
def test_advice_lines_are_json_dumps_of_advice_many(crib: CribOwner) -> None:
    hands = [tuple(sorted(parse_cards(line.split(), 6))) for line in HANDS.splitlines()]
    hands += [tuple(range(0, 24, 4)), (40, 41, 42, 43, 0, 1)]  # a run; four jacks
    spec = PlayerSpec.parse("fuzzy")
    player = player_from_spec("fuzzy")
    lines = advice_lines(player, spec, hands, crib)
    want = advice_many(player, spec, hands, crib)
    assert lines == [json.dumps(out, allow_nan=False) for out in want]


def test_advice_lines_are_for_the_fuzzy_player_only() -> None:
    hand = [tuple(sorted(parse_cards("5H 5S JD QC 4S 9C", 6)))]
    for name in ("es", "greedy", "exhaustive"):
        assert advice_lines(player_from_spec(name), PlayerSpec.parse(name), hand, "mine") is None
