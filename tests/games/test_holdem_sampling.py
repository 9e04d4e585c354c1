"""Hold'em's hidden-information hooks: a determinized hand keeps what the
seat knows, draws the opponent's cards from its modelled range, and a playout is worth
the chips the seat wins."""

from __future__ import annotations

import numpy as np

from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.game import GAME
from fuzzeval.games.holdem.range import HOLDINGS
from fuzzeval.games.holdem.sampling import HIDDEN, determinized
from fuzzeval.games.holdem.spot import read_spot
from fuzzeval.games.holdem.strength import opponent_range
from fuzzeval.play.match import make_player


def test_a_determinized_hand_keeps_what_the_seat_knows() -> None:
    d = read_spot("AsKd", "2c3d4h", "crc/")  # the big blind to act on the flop
    rng = np.random.default_rng(4)
    for _ in range(200):
        state = determinized(d, rng)
        assert state.deal.holes[rules.BIG] == d.hole
        assert state.deal.board[:3] == d.board and len(state.deal.board) == 5
        cards = [*state.deal.holes[0], *state.deal.holes[1], *state.deal.board]
        assert len(set(cards)) == 9
        assert state.betting == d.betting and GAME.to_move(state) == rules.BIG


def test_the_opponents_cards_follow_its_modelled_range() -> None:
    """The button raised preflop: its holdings are drawn with the range's weights (the
    frequency of the strongest tenth of them, against the range's share)."""
    d = read_spot("2c7d", "", "r")  # the big blind faces the button's raise
    weights = opponent_range("r", rules.BUTTON, (), d.hole).probabilities()
    top = weights >= np.quantile(weights[weights > 0], 0.9)
    share = float(weights[top].sum())
    rng = np.random.default_rng(1)
    index = {tuple(sorted(map(int, h))): i for i, h in enumerate(HOLDINGS)}
    hits = sum(top[index[tuple(sorted(determinized(d, rng).deal.holes[rules.BUTTON]))]]
               for _ in range(2000))
    assert abs(hits / 2000 - share) < 3 * np.sqrt(share * (1 - share) / 2000)
    assert share > 0.1  # a tenth of the holdings, more of the weight: the raise moved it


def test_a_playout_is_worth_the_chips_won_and_the_sampling_player_decides() -> None:
    d = read_spot("AsAh", "", "")
    state = determinized(d, np.random.default_rng(0))
    folded = GAME.apply(state, 0, np.random.default_rng(0))  # the button folds
    assert HIDDEN.finished(state, folded)
    assert HIDDEN.value(state, folded, 1) == -0.5 and HIDDEN.value(state, folded, 0) == 0.5
    player = make_player(GAME, "sampling", rollout="call", trials=20)
    cands = GAME.candidates(state)
    choice, note = player.decide(cands, np.random.default_rng(2))  # type: ignore[attr-defined]
    means = [float(m) for m in str(note["means"]).split()]
    assert means[0] == -0.5  # folding the small blind loses it, in every trial
    assert choice == int(np.argmax(means)) and choice != 0
