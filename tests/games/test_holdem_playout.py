"""The compiled playouts of the hold'em sampling player: the betting twin
follows rules.act and rules.chips, the strength estimate reads the live feature preflop
(the estimator itself: test_holdem_strength.py), the compiled code draws what its Python
source draws, and its values agree with the game-agnostic playouts in Python."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from fuzzeval.games.holdem import playout as P
from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.cards import parse_cards
from fuzzeval.games.holdem.features import hand_strength
from fuzzeval.games.holdem.fuzzy import fuzzy_player
from fuzzeval.games.holdem.game import GAME
from fuzzeval.games.holdem.sampling import HIDDEN, _range
from fuzzeval.games.holdem.spot import read_spot
from fuzzeval.play.game import Candidates
from fuzzeval.play.match import make_player
from fuzzeval.search.sampling import playout_simulator

ACTIONS = "fcr"


def _random_hands(n: int, seed: int) -> list[tuple[rules.Betting, list[rules.Betting]]]:
    rng = np.random.default_rng(seed)
    hands = []
    for _ in range(n):
        b, seen = rules.START, [rules.START]
        while not b.over:
            legal = rules.legal(b)
            b = rules.act(b, legal[int(rng.integers(len(legal)))])
            seen.append(b)
        hands.append((b, seen))
    return hands


def test_the_betting_twin_follows_the_rules_action_by_action() -> None:
    acted = 0
    for _, seen in _random_hands(400, 1):
        for before, after in itertools.pairwise(seen):
            state = P.root_betting(before)
            action = str(after)[-1] if not str(after).endswith("/") else str(after)[-2]
            P._kernel("_act")(state, ACTIONS.index(action))
            if after.over:  # the twin keeps the last round; the rules' string has no "/"
                assert state[P.MOVER] == -1
                assert (state[P.SPENT0], state[P.SPENT1]) == after.spent
                assert state[P.FOLDED] == (-1 if after.folded is None else after.folded)
            else:
                assert state.tolist() == P.root_betting(after).tolist(), str(after)
            acted += 1
    assert acted > 1500


def test_the_chips_of_a_finished_hand_are_the_rules_chips() -> None:
    rng = np.random.default_rng(2)
    for b, _ in _random_hands(300, 3):
        cards = rng.permutation(52)[:9].tolist()
        deal = rules.deal_of(cards)
        holes = np.array(deal.holes, dtype=np.int64)
        board = np.array(deal.board, dtype=np.int64)
        won = rules.chips(deal, b)
        for position in (0, 1):
            assert P._kernel("_chips")(P.root_betting(b), holes, board, position) \
                == won[position] / 10


def test_a_playouts_strength_is_the_live_feature_preflop() -> None:
    pre = P.preflop_table()
    for text in ("AsAh", "7d2c", "2c7d", "KsQs", "9h9c"):
        hole = tuple(parse_cards(text))
        d = read_spot(text, "", "")
        assert pre[hole[0], hole[1]] == hand_strength(d)
    assert pre[51, 50] == pre[50, 51] == pre[49, 48]  # one class, either order


@pytest.mark.parametrize(("hole", "published"), [
    ("AsAh", 0.852), ("KcKd", 0.824), ("QhQs", 0.799), ("AsKs", 0.670), ("AdKc", 0.654),
    ("2c2d", 0.503), ("7c2d", 0.346), ("3h2s", 0.323)])
def test_the_preflop_table_holds_the_published_equities(hole: str, published: float) -> None:
    """Against any two cards, from the usual preflop equity tables (to 0.1 %)."""
    assert abs(P.preflop_table()[tuple(parse_cards(hole))] - published) < 0.0025


def _simulator_args(spot: tuple[str, str, str]) -> tuple[object, ...]:
    d = read_spot(*spot)
    fuzzy = fuzzy_player()
    e = fuzzy.evaluator
    col = np.array([P.FEATURE_NAMES.index(e.input_names[c]) for c in e.term_col],
                   dtype=np.intp)
    _, par, prog, n_reg, first, weights = e._program()
    p = _range(str(d.betting), 1 - d.position, tuple(d.board), d.hole)
    return (P.root_betting(d.betting), np.array([ACTIONS.index(a) for a in d.actions]),
            d.position, np.array(d.hole, dtype=np.int64), np.array(d.board, dtype=np.int64),
            np.cumsum(p), P.HOLDINGS, np.arange(1, 13, dtype=np.int64) * 977,
            P.preflop_table(), P.PLAYOUT_PAIRS, fuzzy.temperature), \
        (col, par, prog, n_reg, first, weights, e.values, 0.5, True), len(d.actions)


@pytest.mark.parametrize("spot", [("AsKd", "", "c"), ("Th9h", "8h2c3d", "rc/r"),
                                  ("QcQd", "2c7d9hKs", "cc/cc/")])
def test_the_compiled_playouts_draw_what_their_python_source_draws(
        spot: tuple[str, str, str]) -> None:
    head, tail, k = _simulator_args(spot)
    outs = []
    for run in (P._simulate, P._kernel("_simulate")):
        out = np.empty((12, k))
        run(*head, out, *tail)
        outs.append(out)
    assert np.array_equal(outs[0], outs[1])
    assert np.all(np.abs(outs[0]) <= 24)  # at most 4 bets of 2 small bets a round, a side
    assert outs[0].std() > 0


@pytest.mark.parametrize("spot", [("AsKd", "", "c"), ("QcQd", "2c7d9h", "cc/"),
                                  ("Jc9c", "2c7d9hKs5s", "cc/rc/cc/r")])
def test_the_compiled_playouts_agree_with_the_python_playouts(
        spot: tuple[str, str, str]) -> None:
    """The same simulation run by ``playout_simulator`` (the game-agnostic one, rules.py,
    the live features): each candidate's mean within 4 standard errors of the difference.
    Only the playouts' strength estimate differs (48 pairs, not the live feature)."""
    d = read_spot(*spot)
    fuzzy = fuzzy_player()
    cands = Candidates("bet", tuple(d.actions), lambda _: np.empty((0, 0)), (), d, {})
    slow = playout_simulator(GAME, HIDDEN, cands, (fuzzy, fuzzy))(300,
                                                                   np.random.default_rng(1))
    fast = HIDDEN.simulator(cands, (fuzzy, fuzzy))
    assert fast is not None
    quick = fast(6000, np.random.default_rng(2))
    se = np.sqrt(slow.var(axis=0, ddof=1) / 300 + quick.var(axis=0, ddof=1) / 6000)
    assert np.all(np.abs(slow.mean(axis=0) - quick.mean(axis=0)) <= 4 * se + 1e-9)


def test_the_sampling_player_uses_the_compiled_playouts_of_its_fuzzy_rollout() -> None:
    player = make_player(GAME, "sampling", trials=60)
    d = read_spot("AsAh", "", "r")
    cands = GAME.candidates(HIDDEN.determinize(d, np.random.default_rng(0)))
    rollout = player.rollout  # type: ignore[attr-defined]
    compiled = HIDDEN.simulator(cands, rollout)
    assert compiled is not None  # the fuzzy rollout compiles
    used = player.simulator(cands)(40, np.random.default_rng(9))  # type: ignore[attr-defined]
    assert np.array_equal(used, compiled(40, np.random.default_rng(9)))
    other = make_player(GAME, "sampling", rollout="call", trials=60)
    assert HIDDEN.simulator(cands, other.rollout) is None  # type: ignore[attr-defined]
    choice, note = player.decide(cands, np.random.default_rng(3))  # type: ignore[attr-defined]
    assert d.actions == "fcr" and choice == 2  # aces re-raise
    assert note["trials"] == 60


def test_the_preflop_table_is_what_its_script_estimates() -> None:
    """Its 169 classes are the classes of every pair of hole cards, each holding named by
    preflop_class as the script names it, and a fresh estimate (100,000 pairs, another
    seed) agrees with each of a few within four standard errors."""
    from fuzzeval.games.holdem.features import _preflop_equity, preflop_class
    from fuzzeval.games.holdem.scripts.preflop_table import classes
    from fuzzeval.games.holdem.strength import equity_estimate

    named = classes()
    assert len({n for n, _ in named}) == 169 == len(_preflop_equity())
    assert all(preflop_class(hole) == name for name, hole in named)
    assert {preflop_class((a, b)) for a in range(52) for b in range(52) if a != b} \
        == set(_preflop_equity())
    for name, hole in named[::40]:
        fresh = equity_estimate(hole, (), 100_000, 77)
        assert abs(fresh - _preflop_equity()[name]) < 4 * 0.5 / np.sqrt(100_000)


def test_the_kernel_writes_the_features_in_the_games_order() -> None:
    """``_playout`` fills its feature row by position: the game's feature list must be
    that order, or nothing compiles (the playouts fall back to Python)."""
    assert P.FEATURE_NAMES == P.COLUMNS
    assert P.can_compile(fuzzy_player().evaluator)
