"""Values behind the views and checks that mutation testing found unpinned: whose crib a
pegging seat sees, the pair backup feature while a count runs, the sampling advisor's
table, a range's bounds and a held-out measure of one deal."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

pytestmark = pytest.mark.pinned

runner = CliRunner()


def test_a_pegging_seat_sees_whether_the_crib_is_its_own() -> None:
    from fuzzeval.games.cribbage.game import GAME
    from fuzzeval.games.cribbage.pegging.policies import PegView

    rng = np.random.default_rng(8)
    state = GAME.new_game(rng, 0)
    seen: set[bool] = set()
    while GAME.to_move(state) is not None and len(seen) < 2:
        cands = GAME.candidates(state)
        if isinstance(cands.view, PegView):
            assert cands.view.my_crib == (state.to_move == state.dealer)
            seen.add(cands.view.my_crib)
        state = GAME.apply(state, 0, rng)
    assert seen == {True, False}  # both seats, the dealer and the pone


def test_the_pair_backup_counts_only_when_leading() -> None:
    from fuzzeval.games.cribbage.cards import parse_cards
    from fuzzeval.games.cribbage.pegging.features import PEG_FEATURE_NAMES, peg_features
    from fuzzeval.games.cribbage.pegging.policies import PegView

    hand = parse_cards("5C 5D 5H 9S")
    col = PEG_FEATURE_NAMES.index("pair_backup")
    leading = PegView(hand, hand, hand, (), (), parse_cards("KS")[0], False)
    assert peg_features(leading)[:, col].tolist() == [2, 2, 2, 0]
    seven = parse_cards("7D")
    following = PegView(hand, hand, hand, seven, seven, parse_cards("KS")[0], False)
    assert peg_features(following)[:, col].tolist() == [0, 0, 0, 0]


def test_the_sampling_advisor_s_table_keeps_each_throw_with_its_keep() -> None:
    done = runner.invoke(app, ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C",
                               "--crib", "mine", "-p", "sampling:trials=2", "--json"])
    assert done.exit_code == 0, done.output
    table = json.loads(done.stdout)["table"]
    assert len(table) == 15
    hand = {"5H", "5S", "JD", "QC", "4S", "9C"}
    for row in table:
        assert set(row["discard"].split()) | set(row["keep"].split()) == hand, row
    assert len({row["discard"] for row in table}) == 15


@pytest.mark.parametrize("weight", [1.5, -0.1, float("nan")])
def test_a_range_weight_outside_0_to_1_is_refused(weight: float) -> None:
    from fuzzeval.games.holdem.range import N_HOLDINGS, Range

    weights = np.full(N_HOLDINGS, 0.5)
    weights[7] = weight
    with pytest.raises(ValueError, match=r"range weights lie in \[0, 1\]"):
        Range(weights)


def test_a_go_is_said_only_when_the_other_seat_still_holds_cards() -> None:
    """'one for the go': the other seat said go only if it still held cards; when it has
    laid all four, the point is the go's without its word (and the last card is named)."""
    from fuzzeval.games.cribbage.game import GAME
    from fuzzeval.games.cribbage.play import CribbagePlay

    play, names = CribbagePlay(), ("north", "south")
    seen: set[tuple[bool, bool]] = set()
    for seed in range(40):
        rng = np.random.default_rng(seed)
        state = GAME.new_game(rng, 0)
        while GAME.to_move(state) is not None:
            after = GAME.apply(state, 0, rng)
            if state.phase != "discard":
                other = 1 - state.to_move
                for line in play.narrate(state, 0, after, names, None):
                    if "one for the go to" in line:
                        said = line.startswith(f"{names[other]}: go; ")
                        holds = bool(state.in_hand[other])
                        assert said == holds, line
                        seen.add((said, holds))
            state = after
    assert seen == {(True, True), (False, False)}
