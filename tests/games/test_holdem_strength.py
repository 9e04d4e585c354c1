"""Loki's measures (games/holdem/strength.py, range.py) against brute force: plain loops
over every holding and board completion, ranked by phevaluator's public function (itself
checked against a plain 5-card evaluator written here), sharing no code with the compiled
tables; hand-worked spots; the betting features against OpenSpiel's universal_poker."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards  # type: ignore[import-untyped, unused-ignore]

from fuzzeval.errors import NotationError
from fuzzeval.games.holdem import strength as S
from fuzzeval.games.holdem.cards import parse_cards
from fuzzeval.games.holdem.range import (
    HOLDING_INDEX,
    HOLDINGS,
    REACTIONS,
    Range,
    Reaction,
    blocked,
    percentiles,
)
from fuzzeval.games.holdem.rules import MAX_BETS

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def cards(text: str) -> list[int]:
    """'AsKd' -> [51, 45]: ids rank * 4 + suit, written here independently."""
    return [RANKS.index(text[i]) * 4 + SUITS.index(text[i + 1])
            for i in range(0, len(text), 2)]


# -- an independent 5-card evaluator: a tuple that sorts like the hand's value -------------

def five_card_key(hand: Sequence[int]) -> tuple[int, ...]:
    ranks = sorted((c // 4 for c in hand), reverse=True)
    suits = {c % 4 for c in hand}
    groups = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    distinct = sorted(set(ranks), reverse=True)
    straight_high = -1
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        straight_high = distinct[0]
    elif distinct == [12, 3, 2, 1, 0]:  # the wheel, A-2-3-4-5
        straight_high = 3
    flush = len(suits) == 1
    shape = [g[0] for g in groups]
    order = [g[1] for g in groups]
    if straight_high >= 0 and flush:
        return (8, straight_high)
    if shape == [4, 1]:
        return (7, *order)
    if shape == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *ranks)
    if straight_high >= 0:
        return (4, straight_high)
    if shape == [3, 1, 1]:
        return (3, *order)
    if shape == [2, 2, 1]:
        return (2, *order)
    if shape == [2, 1, 1, 1]:
        return (1, *order)
    return (0, *ranks)


def best_key(hand: Sequence[int]) -> tuple[int, ...]:
    return max(five_card_key(five) for five in itertools.combinations(hand, 5))


def test_card_ids_match_phevaluator() -> None:
    assert cards("2c2d2h2sAs") == [0, 1, 2, 3, 51]
    assert evaluate_cards("As", "Ks", "Qs", "Js", "Ts") == evaluate_cards(*cards("AsKsQsJsTs"))
    assert evaluate_cards(*cards("AsKsQsJsTs")) == 1  # the royal flush is rank 1
    assert evaluate_cards(*cards("2c3d4h5s7c")) == 7462  # the worst hand


def test_phevaluator_orders_hands_like_a_plain_evaluator() -> None:
    rng = random.Random(5)
    hands = [rng.sample(range(52), 7) for _ in range(1500)]
    keys = [best_key(h) for h in hands]
    ranks = [evaluate_cards(*h) for h in hands]
    for i in range(len(hands) - 1):
        a, b = keys[i], keys[i + 1]
        expected = (a > b) - (a < b)
        got = (ranks[i] < ranks[i + 1]) - (ranks[i] > ranks[i + 1])
        assert got == expected, (hands[i], hands[i + 1])


# -- brute force ---------------------------------------------------------------------------

def brute(hole: list[int], board: list[int], weights: dict[tuple[int, int], float],
          ahead: int) -> tuple[float, float, float, float]:
    """(HS, PPOT, NPOT, equity) by plain enumeration; ``weights`` on holdings (a, b), a < b,
    missing = 0; ``ahead`` cards of potential (0: HS only)."""
    dead = set(hole) | set(board)
    hp = [[0.0] * 3 for _ in range(3)]
    now_total = [0.0] * 3
    strength = total = win = 0.0
    for (a, b), w in weights.items():
        if w == 0 or a in dead or b in dead:
            continue
        total += w
        now = 0
        if board:
            ours, theirs = evaluate_cards(*hole, *board), evaluate_cards(a, b, *board)
            now = 0 if ours < theirs else 1 if ours == theirs else 2
            strength += w * (1.0 if now == 0 else 0.5 if now == 1 else 0.0)
            now_total[now] += w
        if ahead == 0:
            continue
        rest = [c for c in range(52) if c not in dead and c not in (a, b)]
        runs = list(itertools.combinations(rest, ahead))
        for run in runs:
            final = [*board, *run]
            ours, theirs = evaluate_cards(*hole, *final), evaluate_cards(a, b, *final)
            later = 0 if ours < theirs else 1 if ours == theirs else 2
            hp[now][later] += w / len(runs)
            win += w / len(runs) * (1.0 if later == 0 else 0.5 if later == 1 else 0.0)
    hs = strength / total
    b_den = now_total[2] + now_total[1] / 2
    a_den = now_total[0] + now_total[1] / 2
    ppot = (hp[2][0] + hp[2][1] / 2 + hp[1][0] / 2) / b_den if b_den else 0.0
    npot = (hp[0][2] + hp[1][2] / 2 + hp[0][1] / 2) / a_den if a_den else 0.0
    return hs, ppot, npot, win / total


def uniform() -> dict[tuple[int, int], float]:
    return {(a, b): 1.0 for a in range(52) for b in range(a + 1, 52)}


def skewed(seed: int, share: float = 1.0) -> dict[tuple[int, int], float]:
    """Random weights in [0, 1] on a ``share`` of the holdings (others 0)."""
    rng = random.Random(seed)
    return {(a, b): (rng.random() if rng.random() < share else 0.0)
            for a in range(52) for b in range(a + 1, 52)}


def as_range(weights: dict[tuple[int, int], float]) -> Range:
    w = np.zeros(1326)
    for (a, b), x in weights.items():
        w[HOLDING_INDEX[a, b]] = x
    return Range(w)


def mid_ranks(strengths: np.ndarray, possible: np.ndarray) -> np.ndarray:
    """Percentiles by scipy's ranks: (rank - 1/2) / n among the possible holdings."""
    from scipy.stats import rankdata  # type: ignore[import-untyped, unused-ignore]

    out = np.zeros(1326)
    out[possible] = (rankdata(strengths[possible]) - 0.5) / possible.sum()
    return out


def single(hand: str) -> Range:
    w = np.zeros(1326)
    a, b = cards(hand)
    w[HOLDING_INDEX[a, b]] = 1.0
    return Range(w)


SPOTS = [("AsKs", "2s7s9hQdJc"), ("7c7d", "7h2s9dKcKd"), ("Tc9c", "8c7hAd2c"),
         ("AhQd", "Qs8s3dJc"), ("5h4h", "6h7dKs")]


@pytest.mark.parametrize(("hole", "board"), SPOTS)
@pytest.mark.parametrize("which", ["uniform", "skewed"])
def test_hand_strength_matches_brute_force(hole: str, board: str, which: str) -> None:
    weights = uniform() if which == "uniform" else skewed(len(board) + len(hole))
    rng = None if which == "uniform" else as_range(weights)
    expected = brute(cards(hole), cards(board), weights, 0)[0]
    assert S.hand_strength(cards(hole), cards(board), rng) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(("hole", "board"), [s for s in SPOTS if len(s[1]) == 8])
@pytest.mark.parametrize("which", ["uniform", "skewed"])
def test_turn_potentials_match_brute_force(hole: str, board: str, which: str) -> None:
    weights = uniform() if which == "uniform" else skewed(3)
    rng = None if which == "uniform" else as_range(weights)
    hs, ppot, npot, win = brute(cards(hole), cards(board), weights, 1)
    got = S.potentials(cards(hole), cards(board), rng)
    assert got == pytest.approx((ppot, npot), abs=1e-12)
    assert S.equity(cards(hole), cards(board), rng) == pytest.approx(win, abs=1e-12)
    assert S.effective_strength(hs, *got) == pytest.approx(win, abs=1e-12)


@pytest.mark.parametrize("which", ["uniform", "skewed"])
def test_flop_one_card_potentials_match_brute_force(which: str) -> None:
    hole, board = cards("5h4h"), cards("6h7dKs")
    weights = uniform() if which == "uniform" else skewed(11)
    rng = None if which == "uniform" else as_range(weights)
    _, ppot, npot, _ = brute(hole, board, weights, 1)
    assert S.potentials(hole, board, rng, ahead=1) == pytest.approx((ppot, npot), abs=1e-12)
    assert ppot > 0.2 > npot  # a straight and flush draw, K-high


def test_flop_river_potentials_match_brute_force_on_a_narrow_range() -> None:
    """Two cards ahead, every turn and river, on a range of about 60 holdings."""
    hole, board = cards("AsKs"), cards("2s7s9h")
    weights = skewed(2, share=0.045)
    assert 40 < sum(1 for w in weights.values() if w) < 80
    hs, ppot, npot, win = brute(hole, board, weights, 2)
    rng = as_range(weights)
    assert S.hand_strength(hole, board, rng) == pytest.approx(hs, abs=1e-12)
    assert S.potentials(hole, board, rng) == pytest.approx((ppot, npot), abs=1e-12)
    assert S.equity(hole, board, rng) == pytest.approx(win, abs=1e-12)


def test_sampled_pairs_estimate_the_exact_measures() -> None:
    """200,000 (holding, runout) pairs: within 4 standard errors of the exact values (each
    checked against brute force above) on a flop, for a uniform and a skewed range."""
    hole, board = cards("AsKs"), cards("2s7s9h")
    for rng in (None, as_range(skewed(4))):
        est = S.sampled(hole, board, rng, pairs=200_000)
        assert est.pairs == 200_000
        assert est.hs == pytest.approx(S.hand_strength(hole, board, rng), abs=1e-12)
        assert est.equity == pytest.approx(S.equity(hole, board, rng), abs=0.005)
        assert (est.ppot, est.npot) == pytest.approx(S.potentials(hole, board, rng), abs=0.007)
    assert S.sampled(hole, board, pairs=500) == S.sampled(hole, board, pairs=500)
    assert S.sampled(hole, board, pairs=500, seed=1) != S.sampled(hole, board, pairs=500)


def test_sampled_turn_against_one_holding() -> None:
    """Th7d on Qs8s3dJc against QcQh: HS is exact (0: behind the set), NPOT 0, and PPOT
    the share of rivers that make our straight, a nine (4 of 44; nothing else helps),
    within 4 standard errors."""
    hole, board = cards("Th7d"), cards("Qs8s3dJc")
    assert S.potentials(hole, board, single("QcQh")) == pytest.approx((4 / 44, 0.0))
    est = S.sampled(hole, board, single("QcQh"), pairs=3000)
    assert est.hs == 0.0 and est.npot == 0.0
    assert est.ppot == pytest.approx(4 / 44, abs=4 * (4 / 44 * 40 / 44 / 3000) ** 0.5)


# -- hand-worked ---------------------------------------------------------------------------

def test_the_nuts_on_the_river_have_strength_one() -> None:
    assert S.hand_strength(cards("AsKs"), cards("QsJsTs2c3d")) == 1.0
    # a royal flush on the board: every holding ties
    assert S.hand_strength(cards("2c3d"), cards("AsKsQsJsTs")) == 0.5
    # four kings on the board, our ace kicker: the 129 of the 990 holdings with one of the
    # 3 other aces tie, the 861 others lose
    assert S.hand_strength(cards("AsQd"), cards("KcKdKhKs2c")) == pytest.approx(
        (861 + 129 / 2) / 990, abs=1e-15)


def test_aces_preflop_are_about_85_percent_against_a_random_hand() -> None:
    """Published all-in equities: AA 85.2 % against a random hand, 72o 34.6 %, AA about
    82 % against KK (81 to 83 % by suits). Preflop HS is the sampled equity: 500 pairs
    by default, 200,000 here for a closer figure (standard error 0.001)."""
    assert S.hand_strength(cards("AsAh"), []) == pytest.approx(0.852, abs=0.03)
    assert S.sampled(cards("AsAh"), [], pairs=200_000).equity == pytest.approx(0.852,
                                                                              abs=0.004)
    assert S.sampled(cards("7c2d"), [], pairs=200_000).equity == pytest.approx(0.346,
                                                                              abs=0.004)
    assert S.sampled(cards("AsAh"), [], single("KdKc"), pairs=200_000).equity == \
        pytest.approx(0.82, abs=0.01)
    assert S.potentials(cards("AsAh"), []) == (0.0, 0.0)


def test_flush_draw_potentials_against_a_set() -> None:
    """2h3h on AhKh7c against AsAd: behind now. One card ahead, 8 of the 45 cards win (9
    hearts left, less 7h, which gives aces full); on the turn Jd, 7 of 44 (7h and Jh pair
    the board). The set's NPOT is the same count, seen from the other side."""
    draw, aces = cards("2h3h"), "AsAd"
    flop, turn = cards("AhKh7c"), cards("AhKh7cJd")
    assert S.hand_strength(draw, flop, single(aces)) == 0.0
    assert S.potentials(draw, flop, single(aces), ahead=1) == pytest.approx((8 / 45, 0.0))
    assert S.potentials(draw, turn, single(aces)) == pytest.approx((7 / 44, 0.0))
    assert S.potentials(cards(aces), turn, single("2h3h")) == pytest.approx((0.0, 7 / 44))
    assert S.effective_strength(0.0, 7 / 44, 0.0) == pytest.approx(7 / 44)


def test_effective_strength_to_the_river_is_the_equity() -> None:
    hole, board = cards("AsKs"), cards("2s7s9h")
    rng = as_range(skewed(4))
    hs = S.hand_strength(hole, board, rng)
    ppot, npot = S.potentials(hole, board, rng)
    assert S.effective_strength(hs, ppot, npot) == pytest.approx(S.equity(hole, board, rng),
                                                                 abs=1e-12)
    assert (round(hs, 4), round(ppot, 4), round(npot, 4)) != (0.0, 0.0, 0.0)


def test_bad_cards_name_the_token() -> None:
    with pytest.raises(NotationError, match="twice"):
        S.hand_strength(cards("AsKs"), cards("As7s9h"))
    with pytest.raises(NotationError, match="0, 3, 4 or 5"):
        S.hand_strength(cards("AsKs"), cards("7s9h"))
    with pytest.raises(NotationError, match=r"0 \(2c\) to 51"):
        S.hand_strength([52, 1], cards("7s9h2c"))
    with pytest.raises(ValueError, match="weight 0"):
        S.hand_strength(cards("AsKs"), cards("7s9h2c"), single("AsKd"))


# -- the range and its update --------------------------------------------------------------

def test_holdings_enumerate_every_pair_once() -> None:
    assert HOLDINGS.shape == (1326, 2)
    assert len({tuple(p) for p in HOLDINGS.tolist()}) == 1326
    assert all(HOLDING_INDEX[a, b] == i == HOLDING_INDEX[b, a]
               for i, (a, b) in enumerate(HOLDINGS.tolist()))
    assert int(blocked(cards("AsKs")).sum()) == 1326 - 1225
    assert Range.uniform(cards("AsKs2c")).total == 1176  # C(49, 2)


def test_holding_strengths_match_brute_force_on_the_flop() -> None:
    board = cards("Td6d2c")
    got = S.holding_strengths(board)
    for a, b in [(cards("TcTs")), cards("AdKd"), cards("7h3s"), cards("6c6h")]:
        beaten = n = 0.0
        for c, d in itertools.combinations(range(52), 2):
            if {a, b, c, d} & set(board) or len({a, b, c, d}) < 4:
                continue
            ours, theirs = evaluate_cards(a, b, *board), evaluate_cards(c, d, *board)
            beaten += 1.0 if ours < theirs else 0.5 if ours == theirs else 0.0
            n += 1
        assert got[HOLDING_INDEX[a, b]] == pytest.approx(beaten / n, abs=1e-12)
    assert got[HOLDING_INDEX[tuple(cards("Td2h"))]] == 0.0  # holds a board card


def test_preflop_holding_strengths_rank_the_classics() -> None:
    pre = S.holding_strengths()
    aces, kings, ak_suited, seven_deuce = (pre[HOLDING_INDEX[a, b]] for a, b in
                                           (cards("AsAh"), cards("KdKc"), cards("AhKh"),
                                            cards("7c2d")))
    assert aces == pytest.approx(0.852, abs=0.01)
    assert kings == pytest.approx(0.824, abs=0.01)
    assert ak_suited == pytest.approx(0.670, abs=0.01)
    assert seven_deuce == pytest.approx(0.346, abs=0.01)
    assert pre[HOLDING_INDEX[tuple(cards("AcAd"))]] == aces  # pooled within the class


def test_reactions_are_the_documented_ramps() -> None:
    raise_ = REACTIONS["raise"]
    assert raise_.likelihood(np.array([0.0, 0.45, 0.65, 0.85, 1.0])) == pytest.approx(
        [0.05, 0.05, 0.525, 1.0, 1.0])
    call = Reaction(up_at=0.4, down_at=0.8, spread=0.1, floor=0.0, top=0.5)
    assert call.likelihood(np.array([0.3, 0.5, 0.8, 0.95])) == pytest.approx(
        [0.0, 1.0, 0.75, 0.5])


def test_percentiles_are_mid_ranks() -> None:
    board = cards("Td6d2c")
    strengths = S.holding_strengths(board)
    possible = ~blocked(board)
    np.testing.assert_allclose(percentiles(strengths, possible), mid_ranks(strengths, possible),
                               rtol=0, atol=1e-12)
    assert percentiles(np.array([0.1, 0.5, 0.5, 0.9]), np.array([True] * 4)).tolist() == [
        0.125, 0.5, 0.5, 0.875]


def test_a_raise_moves_weight_to_strong_holdings() -> None:
    board = cards("Td6d2c")
    strengths = S.holding_strengths(board)
    start = Range.uniform(board)
    after = start.updated("r", facing_bet=False, strengths=strengths)
    mean = float(after.probabilities() @ strengths)
    assert mean > float(start.probabilities() @ strengths) + 0.15
    called = start.updated("c", facing_bet=True, strengths=strengths)
    checked = start.updated("c", facing_bet=False, strengths=strengths)
    top = strengths >= 0.999  # the sets of tens
    assert int(top.sum()) == 3
    assert after.weights[top].min() == 1.0 and checked.weights[top].max() == pytest.approx(0.4)
    assert called.weights[top].max() == pytest.approx(0.5, abs=0.005)  # percentile 0.9987
    assert start.updated("f", facing_bet=True, strengths=strengths) is start
    with pytest.raises(NotationError, match="an action is f, c or r"):
        start.updated("x", facing_bet=True, strengths=strengths)


# -- betting -------------------------------------------------------------------------------

def test_betting_features_of_hand_worked_spots() -> None:
    first = S.parse_betting("")
    assert (first.round, first.to_move, first.spent, first.bets) == (0, 1, (10, 5), 1)
    assert (S.to_call(first), S.bets_to_call(first), S.pot_odds(first)) == (5, 0.5, 0.25)
    assert S.position(first) == 1.0
    flop = S.parse_betting("crc/r")  # limp, raise, call; the big blind bets the flop
    assert (flop.round, flop.to_move, flop.spent, flop.bets) == (1, 1, (30, 20), 1)
    assert (S.bets_to_call(flop), S.pot_odds(flop)) == (1.0, 10 / 60)
    assert (S.actions(flop, 0), S.actions(flop, 1)) == (S.Counts(0, 0, 2), S.Counts(0, 2, 0))
    assert S.aggression(flop, 0) == 0.75 and S.aggression(flop, 1) == 0.25
    turn = S.parse_betting("rc/cc/")
    assert (turn.round, turn.to_move, turn.to_call, turn.bets, S.position(turn)) == (
        2, 0, 0, 0, 0.0)
    assert S.parse_betting("rc/cc") == turn
    assert S.bets_this_round(S.parse_betting("rc/crrr")) == 3
    assert S.bets_this_round(S.parse_betting("rrr")) == 4
    over = S.parse_betting("rc/cc/cc/crf")
    assert over.folded == 0 and over.to_move is None and S.to_call(over) == 0  # big blind
    assert S.actions(over, 0) == S.Counts(1, 4, 0)  # c preflop, c flop, c turn, c f river
    assert S.observed_aggression([("rc/cc", 1), ("rrc", 0)]) == (2 + 1) / (3 + 2)


def test_betting_agrees_with_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game(
        "universal_poker(betting=limit,numPlayers=2,numRounds=4,blind=10 5,"
        "raiseSize=10 10 20 20,firstPlayer=2 1 1 1,maxRaises=3 4 4 4,numSuits=4,"
        "numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1)")
    rng = random.Random(3)
    letters = "fcr"
    for _ in range(150):
        state = game.new_initial_state()
        betting = ""
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            ours = S.parse_betting(betting)
            assert ours.to_move == state.current_player()
            spent = [int(x) for x in str(state).split("Spent: [P0: ")[1].split("]")[0]
                     .replace("P1:", "").split()]
            assert list(ours.spent) == spent
            legal = state.legal_actions()
            assert (0 in legal) == (S.to_call(ours) > 0)
            assert (2 in legal) == (S.bets_this_round(ours) < MAX_BETS)
            action = rng.choice(legal)
            state.apply_action(action)
            betting = str(state).split("ACPC State: STATE:0:")[1].split(":")[0]
            assert betting.replace("/", "").endswith(letters[action])
        if betting.endswith("f"):
            assert S.parse_betting(betting).folded is not None
        else:
            assert S.parse_betting(betting).to_move is None


def test_opponent_range_replays_the_opponents_actions() -> None:
    """Button (position 1) raises preflop, checks the flop behind: two updates, the
    preflop one against preflop strengths, the flop one (a check) against the flop's."""
    hole, board = cards("2c3d"), cards("Td6d2hKs")
    got = S.opponent_range("rc/cc/", 1, board, hole)
    pre, flop = S.holding_strengths(), S.holding_strengths(board[:3])
    possible = Range.uniform([*hole, *board]).weights > 0
    expected = possible * REACTIONS["raise"].likelihood(mid_ranks(pre, possible)) \
        * REACTIONS["check"].likelihood(mid_ranks(flop, possible))
    np.testing.assert_allclose(got.weights, expected, rtol=1e-12)
    assert S.opponent_range("", 1, [], hole).total == 1225  # nothing done yet
    # the big blind called the raise: a weaker preflop range than the raiser's
    assert S.opponent_range("rc/cc/", 0, board, hole).probabilities() @ pre < \
        got.probabilities() @ pre
    with pytest.raises(NotationError, match="round 1 needs 3"):
        S.opponent_range("cc/r", 0, [], hole)
    with pytest.raises(NotationError, match="actions are f, c and r"):
        S.opponent_range("cc/x", 0, board, hole)


def test_the_kernels_run_as_plain_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernels' Python source (what mutation testing runs) gives the compiled values:
    phevaluator's Python functions stand in for its C symbols."""
    hole, board = cards("AhQd"), cards("Qs8s3dJc5h")
    compiled_hs = S.hand_strength(hole, board, as_range(skewed(6)))
    compiled_strengths = S.holding_strengths(board)
    S._outcomes.cache_clear()
    S._holding_strengths.cache_clear()
    monkeypatch.setattr(S, "_kernel", lambda name: getattr(S, name))
    try:
        assert S.hand_strength(hole, board, as_range(skewed(6))) == compiled_hs
        np.testing.assert_array_equal(S.holding_strengths(board), compiled_strengths)
        est = S.sampled(hole, board[:4], pairs=50)
        assert 0.0 <= est.ppot <= 1.0
        assert est.hs == pytest.approx(S.hand_strength(hole, board[:4]), abs=1e-12)
    finally:
        S._outcomes.cache_clear()
        S._holding_strengths.cache_clear()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True), st.integers(0, 99))
def test_measures_agree_with_each_other_on_the_turn(picks: list[int], seed: int) -> None:
    """Invariants on any turn: HS against a uniform range is the holding's strength that
    the histogram method computes; every measure lies in [0, 1]; EHS is the equity."""
    hole, board = picks[:2], picks[2:]
    hs = S.hand_strength(hole, board)
    assert S.holding_strengths(board)[HOLDING_INDEX[hole[0], hole[1]]] == pytest.approx(
        hs, abs=1e-12)
    rng = as_range(skewed(seed))
    hs, (ppot, npot) = S.hand_strength(hole, board, rng), S.potentials(hole, board, rng)
    assert min(hs, ppot, npot) >= 0.0 and max(hs, ppot, npot) <= 1.0
    assert S.effective_strength(hs, ppot, npot) == pytest.approx(
        S.equity(hole, board, rng), abs=1e-12)


def test_the_equity_estimate_by_hand() -> None:
    """``equity_estimate``, the live ``strength`` feature's estimator: the nuts win every
    runout, a board that plays ties every one, a pair of aces on a dry flop holds about
    87 % against any two cards, and the source draws what the compiled code draws."""
    assert S.equity_estimate(parse_cards("AsKs"), parse_cards("QsJsTs2c3d"), 48, 7) == 1.0
    assert S.equity_estimate(parse_cards("2c3d"), parse_cards("AsKsQsJsTs"), 48, 7) == 0.5
    aces = [S.equity_estimate(parse_cards("AsAh"), parse_cards("2c7d9h"), 48, s)
            for s in range(40)]
    assert 0.83 < float(np.mean(aces)) < 0.92 and len(set(aces)) > 5
    exact = S.equity(parse_cards("AsAh"), parse_cards("2c7d9h"))
    assert abs(S.equity_estimate(parse_cards("AsAh"), parse_cards("2c7d9h"), 20000, 3)
               - exact) < 4 * 0.5 / np.sqrt(20000)
    preflop = S.equity_estimate(parse_cards("AsAh"), (), 20000, 5)
    assert abs(preflop - 0.852) < 0.015  # the published 85.2 %
    board = np.array(parse_cards("2c7d9hKs"), dtype=np.int64)
    scratch = np.empty((4, 7), dtype=np.int64)
    args = (*parse_cards("QcQd"), board, 4, 200, 11)
    assert S._equity(*args, scratch[0], scratch[1]) \
        == S._kernel("_equity")(*args, scratch[2], scratch[3])
    with pytest.raises(ValueError, match="pairs"):
        S.equity_estimate(parse_cards("AsAh"), (), 0, 1)
