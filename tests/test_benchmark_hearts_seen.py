"""benchmarks/hearts_seen.py plays the deals ``fuzzeval match hearts --duplicate`` plays,
so its figures pair with a stored match's; its player searches the real deal and nothing
else."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.hearts_seen import SeenGame, SeenMaxn  # noqa: E402
from fuzzeval.games.hearts.game import GAME  # noqa: E402
from fuzzeval.games.hearts.position_values import position_values  # noqa: E402
from fuzzeval.play.match import make_player, play_game  # noqa: E402


def test_the_wrapped_game_deals_what_the_match_deals() -> None:
    """The one-deal player through the wrapper takes, on the first two deals of seed 26,
    what ``fuzzeval match hearts -p maxn:deals=1,values=learned --opponent heuristic
    --duplicate --seed 26`` stored: 0, 5, 18, 3 and 4, 4, 17, 0 points."""
    game, heuristic = SeenGame(), make_player(GAME, "heuristic")
    player = make_player(GAME, "maxn", deals=1, values="learned")
    points = [play_game(game, [player, heuristic, heuristic, heuristic], 26, index,  # type: ignore[arg-type]
                        duplicate=True, log=False).outcome.payoffs[0] for index in range(8)]
    assert points == [0, 5, 18, 3, 4, 4, 17, 0]


def test_the_seeing_player_searches_the_real_deal_of_its_decision_only() -> None:
    """Once the passes are made, the first lead is searched on the real deal (one row, a
    value for each legal card); with no decision offered, or after another deal's, the
    player refuses rather than search a deal that is not its decision's."""
    rng = np.random.default_rng(5)
    game = SeenGame()
    seen = SeenMaxn(1, position_values(), "learned values", None, game)
    with pytest.raises(AssertionError, match=r"^no real deal to search$"):
        seen.searched(None, rng)
    state = GAME.new_game(np.random.default_rng(1), 0)
    while state.hand.phase == "pass":
        state = GAME.apply(state, 0, rng)
    decision = game.candidates(state).view
    assert seen.searched(decision, rng).shape == (1, len(decision.cards))
    other = GAME.new_game(np.random.default_rng(2), 0)
    while other.hand.phase == "pass":
        other = GAME.apply(other, 0, rng)
    game.candidates(other)
    with pytest.raises(AssertionError, match=r"^the real deal is not the decision's$"):
        seen.searched(decision, rng)
