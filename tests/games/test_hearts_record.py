"""A hand's choices replayed from its deal to the same state (what the OpenSpiel agreement
and ISMCTS rely on); the export's events are checked in tests/test_export.py."""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval.games.hearts import rules
from fuzzeval.games.hearts.players import heuristic_player, play_out
from fuzzeval.games.hearts.record import choices, replay
from fuzzeval.games.hearts.rules import STANDARD, STURTEVANT_WHITE


@pytest.mark.parametrize("options", [STANDARD, STURTEVANT_WHITE],
                         ids=["standard", "sturtevant-white"])
def test_choices_replay_to_the_same_state(options: rules.Options) -> None:
    rng = np.random.default_rng(4)
    for number in range(8):
        end = play_out(rules.new_hand(rules.deal(rng), options, number), [heuristic_player] * 4,
                       rng)
        passes = 12 if options.passing and number % 4 != 3 else 0
        made = choices(end)
        assert len(made) == passes + 52 and len(set(made)) == 52
        assert made[passes:] == [card for _, card in end.laid]
        assert replay(end.dealt, made, options, number) == end
