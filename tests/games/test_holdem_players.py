"""The simple hold'em opponents: random, a calling station, a maniac, and the ACPC example
player's 0.06 / 0.47 / 0.47 renormalised over the legal actions."""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval.games.holdem.game import GAME
from fuzzeval.games.holdem.players import (
    PLAYERS,
    Decision,
    example_player,
    example_probabilities,
)
from fuzzeval.games.holdem.rules import legal, parse_betting


def spot(betting: str) -> Decision:
    b = parse_betting(betting)
    assert b.to_move is not None
    return Decision(b.to_move, (51, 50), (), b, legal(b))


def test_the_example_probabilities_renormalise_over_the_legal_actions() -> None:
    assert example_probabilities("fcr") == pytest.approx([0.06, 0.47, 0.47])
    assert example_probabilities("cr") == pytest.approx([0.5, 0.5])  # nothing to call
    assert example_probabilities("fc") == pytest.approx([0.06 / 0.53, 0.47 / 0.53])  # cap


@pytest.mark.parametrize(("betting", "expected"), [
    ("", {"f": 0.06, "c": 0.47, "r": 0.47}),
    ("c", {"c": 0.5, "r": 0.5}),
    ("rrr", {"f": 0.06 / 0.53, "c": 0.47 / 0.53}),
])
def test_the_example_player_draws_those_frequencies(betting: str,
                                                    expected: dict[str, float]) -> None:
    d = spot(betting)
    rng = np.random.default_rng(9)
    n = 20_000
    counts = np.bincount([example_player(d, rng) for _ in range(n)], minlength=len(d.actions))
    for action, p in expected.items():
        share = counts[d.actions.index(action)] / n
        assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / n), (action, share)


def test_call_and_raise_players() -> None:
    rng = np.random.default_rng(0)
    for betting in ("", "c", "rrr", "cc/", "cc/rrrr"):
        d = spot(betting)
        assert d.actions[PLAYERS["call"](d, rng)] == "c"
        assert d.actions[PLAYERS["raise"](d, rng)] == ("c" if "r" not in d.actions else "r")


def test_the_random_player_is_uniform() -> None:
    d = spot("")
    rng = np.random.default_rng(2)
    counts = np.bincount([PLAYERS["random"](d, rng) for _ in range(9_000)], minlength=3)
    assert all(abs(c - 3_000) < 200 for c in counts)


def test_players_by_name() -> None:
    assert GAME.player_names == ("random", "call", "raise", "acpc-example", "fuzzy")
    state = GAME.new_game(np.random.default_rng(0), 0)
    cands = GAME.candidates(state)
    assert GAME.make_player("raise").choose(cands, np.random.default_rng(0)) == 2
    with pytest.raises(ValueError, match="unknown holdem player 'sampler'"):
        GAME.make_player("sampler")
