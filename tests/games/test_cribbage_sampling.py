"""Cribbage's selective sampling: what a seat may infer, samples consistent with it, and
the compiled playouts against the game's own rules on the same samples."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from fuzzeval.games.cribbage import rules
from fuzzeval.games.cribbage import sampling as S
from fuzzeval.games.cribbage.cards import parse_cards, value
from fuzzeval.games.cribbage.discard import THROWS
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.pegging.policies import PegView, greedy
from fuzzeval.games.cribbage.players import DiscardView, make_player
from fuzzeval.games.cribbage.rules import State
from fuzzeval.games.cribbage.weights import opponent_weights


def peg_view(kept: str, played: str, count: str, hand: str, thrown: str = "2C 2D",
             starter: str = "AS", my_crib: bool = False,
             scores: tuple[int, int] = (0, 0)) -> PegView:
    k = parse_cards(kept)
    h = parse_cards(hand)
    c = parse_cards(count) if count else ()
    return PegView(options=tuple(x for x in h if sum(value(y) for y in c) + value(x) <= 31),
                   hand=h, kept=k, count_cards=c, played=parse_cards(played) if played else (),
                   starter=parse_cards([starter])[0], my_crib=my_crib,
                   thrown=parse_cards(thrown), scores=scores)


def test_the_opponents_gos_are_read_from_the_play() -> None:
    # I lead a king, they lay a 9 (19), I lay a 5 (24) and it is my turn again: they
    # could not lay at 24, so every card they hold is worth more than 7.
    v = peg_view("KS 5C 6C 3H", "KS 9H 5C", "KS 9H 5C", "6C 3H")
    assert S.opponent_go_room(v) == 7
    # No go yet: they answered every card.
    assert S.opponent_go_room(peg_view("KS 5C 6C 3H", "KS 9H", "KS 9H", "5C 6C 3H")) == -1
    # Two of my cards running earlier in the count: at 24 they said go (room 7); later,
    # after my 31, they lead a fresh count and nothing more is known.
    v = peg_view("KS 5C 7C 3H", "KS 9H 5C 7C 4H", "4H", "3H", thrown="4C 4D")
    assert S.opponent_go_room(v) == 7
    # After my 31 it is my turn again: they lead the next count unless they hold nothing.
    v = peg_view("KS 5C 7C 3H", "KS 9H 5C 7C", "", "3H", thrown="4C 4D")
    assert S.opponent_go_room(v) == 31
    # K Q J = 30, then their 5 starts a new count: neither could lay at 30 (room 1).
    v = peg_view("KS JS 6C 3H", "KS QH JS 5D", "5D", "6C 3H")
    assert S.opponent_go_room(v) == 1


@cache
def game_views() -> tuple[list[tuple[PegView, State]], list[tuple[DiscardView, State]]]:
    """Decisions of real games between greedy players, with the states behind them."""
    rng = np.random.default_rng(7)
    pegs: list[tuple[PegView, State]] = []
    discards: list[tuple[DiscardView, State]] = []
    player = make_player("greedy")
    for g in range(12):
        state = GAME.new_game(rng, g % 2)
        while GAME.to_move(state) is not None:
            cands = GAME.candidates(state)
            if cands.kind == "play":
                pegs.append((cands.view, state))
            else:
                discards.append((cands.view, state))
            state = GAME.apply(state, player.choose(cands, rng), rng)
    return pegs, discards


def test_samples_are_consistent_with_what_the_seat_has_seen() -> None:
    rng = np.random.default_rng(0)
    pegs, _ = game_views()
    for view, state in pegs[::3]:
        seat = state.to_move
        truth = state.in_hand[1 - seat]
        room = S.opponent_go_room(view)
        assert all(value(c) > room for c in truth)  # what the gos say holds for the truth
        setup = S.peg_setup(view)
        seen = {*view.kept, *view.thrown, view.starter, *view.played}
        for u in rng.random((5, S.UNIFORMS)):
            rest, pair = S.sample_hidden(setup, u)
            assert len(rest) == len(truth) and len(set(rest) | set(pair)) == len(rest) + 2
            assert not seen & {*rest, *pair}
            assert all(value(c) > room for c in rest)


def test_the_selective_bias_follows_the_expert_throw_shares() -> None:
    # Dealing: the opponent throws into my crib as pone, and experts seldom give away a 5.
    view = peg_view("KS QS JS TS", "", "", "KS QS JS TS", thrown="9C 9D", starter="AS",
                    my_crib=True)
    rng = np.random.default_rng(1)
    fives = {}
    for weights in ("uniform", "expert"):
        setup = S.peg_setup(view, weights)
        pairs = [S.sample_hidden(setup, u)[1] for u in rng.random((4000, S.UNIFORMS))]
        fives[weights] = np.mean([any(c // 4 == 4 for c in p) for p in pairs])
    # Uniformly, a pair holds one of the four fives out of 46 cards: 1 - C(42,2)/C(46,2).
    assert fives["uniform"] == pytest.approx(1 - (42 * 41) / (46 * 45), abs=0.02)
    w = opponent_weights("expert", True)
    assert w[4, 4, 0] < 1 and w[4, 9, 0] < 1  # the shares themselves: fives are kept
    assert fives["expert"] < fives["uniform"] - 0.05


def rules_playout(root: State, choice: int) -> float:
    """Seat 0 takes option ``choice`` at ``root``, then both peg greedily by the rules."""
    chance = np.random.default_rng(0)
    state = GAME.apply(root, choice, chance)
    while not S.HIDDEN.finished(root, state):
        cands = GAME.candidates(state)
        state = GAME.apply(state, greedy(cands.view, chance), chance)
    return S.HIDDEN.value(root, state, 0)


def test_compiled_pegging_playouts_follow_the_rules() -> None:
    rng = np.random.default_rng(2)
    pegs, _ = game_views()
    checked = 0
    for view, _state in pegs[::2]:
        setup = S.peg_setup(view)
        u = rng.random((3, S.UNIFORMS))
        values = S.pegging_values(setup, u)
        for t in range(3):
            root = S.determinized(view, setup, u[t])
            for c in range(len(view.options)):
                assert values[t, c] == rules_playout(root, c)
                checked += 1
    assert checked > 300


def discard_root(view: DiscardView, u: np.ndarray, weights: str = "expert") -> State:
    """The discard trial of uniforms ``u`` written out by hand: the opponent's thrown pair
    among all pairs of unseen cards in proportion to the weights, then its four and the
    starter by a partial shuffle of the rest; seat 0 decides, the opponent has thrown when
    it is the pone."""
    pool = [c for c in range(52) if c not in view.hand]
    w = opponent_weights(weights, view.my_crib)  # type: ignore[arg-type]
    pairs = [(i, j) for i in range(len(pool)) for j in range(i + 1, len(pool))]
    ws = np.cumsum([w[pool[i] // 4, pool[j] // 4, int(pool[i] % 4 == pool[j] % 4)]
                    for i, j in pairs])
    i, j = pairs[min(int(np.searchsorted(ws, u[0] * ws[-1], side="right")), len(pairs) - 1)]
    pair = (pool[i], pool[j])
    order = [c for c in pool if c not in pair]
    for k in range(5):
        m = min(k + int(u[1 + k] * (len(order) - k)), len(order) - 1)
        order[k], order[m] = order[m], order[k]
    six, starter = tuple(sorted((*order[:4], *pair))), order[4]
    throw = THROWS.index(tuple(sorted((six.index(pair[0]), six.index(pair[1])))))
    dealer = 0 if view.my_crib else 1
    state = State(scores=view.scores, dealer=dealer, phase="discard", hands=(view.hand, six),
                  crib=(), starter=starter, to_move=1 - dealer, in_hand=((), ()),
                  count_cards=(), count=0, played=(), last=-1, deal_points=((0, 0),),
                  tally=((0,) * 4, (0,) * 4))
    if dealer == 0:  # the opponent, pone, has thrown already
        state = rules.discard(state, throw, np.random.default_rng(0))
    return state.but(to_move=0), throw  # type: ignore[return-value]


def test_compiled_discard_playouts_follow_the_rules() -> None:
    rng = np.random.default_rng(3)
    _, discards = game_views()
    for view, _state in discards[::4]:
        u = rng.random((2, S.DISCARD_UNIFORMS))
        whole = S.discard_values(S.discard_setup(  # near 121: the whole deal is simulated
            DiscardView(view.hand, view.my_crib, (100, 100)), "expert"), u)
        for t in range(2):
            root, opp_throw = discard_root(DiscardView(view.hand, view.my_crib, (100, 100)),
                                           u[t])
            for c in range(15):
                chance = np.random.default_rng(0)
                state = rules.discard(root, c, chance)
                if state.phase == "discard":  # I was pone: now the dealer throws
                    state = rules.discard(state, opp_throw, chance)
                while not S.HIDDEN.finished(root, state):
                    cands = GAME.candidates(state)
                    state = GAME.apply(state, greedy(cands.view, chance), chance)
                assert whole[t, c] == S.HIDDEN.value(root, state, 0)


def test_a_card_that_wins_the_game_is_worth_a_win_in_every_trial() -> None:
    # Both at 119: the 5 on their king makes fifteen-two and the game at once; after any
    # other card they may peg the two points first.
    view = peg_view("5C 9D KS QH", "KH", "KH", "5C 9D KS QH", scores=(119, 119),
                    my_crib=True)
    values = S.pegging_simulator(view)(40, np.random.default_rng(0))
    # Near 121 a deal is worth the chance of winning: 1 won, 0 lost.
    assert np.all(values[:, 0] == 1.0)
    assert np.all((values == 0) | (values == 1))  # nobody gets to the show
    assert np.any(values[:, 1] == 0.0)
    # Far from 121, the same cards are worth points.
    far = peg_view("5C 9D KS QH", "KH", "KH", "5C 9D KS QH", scores=(10, 10), my_crib=True)
    points = S.pegging_simulator(far)(40, np.random.default_rng(0))
    assert np.all(points[:, 0] >= 2) and points.max() > 1
    assert make_player("sampling").policy(view, np.random.default_rng(0)) == 0  # type: ignore[misc]


def test_a_view_no_deal_could_give_is_refused() -> None:
    # I laid a king and it is my turn again: they said go at 10 with four cards in hand,
    # which no cards allow.
    view = peg_view("5C 9D KS QH", "KS", "KS", "5C 9D QH")
    with pytest.raises(ValueError, match="no cards the opponent could hold"):
        S.peg_setup(view)


@pytest.mark.parametrize(("options", "message"), [
    ({"trials": 0}, "trials must be a whole number from 1 to 100,000"),
    ({"trials": "many"}, "trials must be a whole number from 1 to 100,000"),
    ({"trials": 100_001}, "trials must be a whole number from 1 to 100,000 [(]got 100001[)]"),
    ({"stop": "early"}, "stop must be"),
    ({"rollout": "clever"}, "rollout must be"),
    ({"discard": "fuzzy"}, "discard must be"),
    ({"pegging": "random"}, "pegging must be"),
    ({"weights": "heavy"}, "weights must be"),
    ({"depth": 3}, "does not take options"),
])
def test_bad_sampling_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_player("sampling", **options)


def test_the_discard_command_shows_each_throws_simulated_mean() -> None:
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    runner = CliRunner()
    args = ["cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C", "--crib", "theirs",
            "-p", "sampling:trials=100,stop=none"]
    shown = runner.invoke(app, [*args, "--explain"])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.stdout.split())
    assert "the highest mean over 100 simulated deals" in text
    assert "ran every trial (stop rule: none)" in text
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert data["sampling"] == {"trials": 100, "stopped": False, "stop": "none"}
    means = [row["mean"] for row in data["table"]]
    assert len(means) == 15 and means == sorted(means, reverse=True)
    assert data["discard"] == data["table"][0]["discard"].split()
    # Keeping both fives with the jack: the best expectation, and the pegging agrees.
    assert data["keep"] == ["5H", "5S", "JD", "QC"]
    for bad in ("sampling:trials=0", "sampling:stop=early", "sampling:rollout=clever"):
        refused = runner.invoke(app, [*args[:-1], bad])
        assert refused.exit_code == 2
        assert refused.output.count("\n") == 1 and bad in refused.output


def test_the_pegging_command_compares_two_players_on_the_same_deals() -> None:
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    runner = CliRunner()
    same = runner.invoke(app, ["cribbage", "pegging", "-p", "exhaustive", "--opponent",
                               "greedy", "--deals", "30", "--json"])
    assert same.exit_code == 0, same.output
    data = json.loads(same.stdout)
    # Greedy pegging against greedy pegging on the same discards: the same play, no gap.
    assert data["difference"] == 0 and data["interval95"] == [0, 0]
    assert data["players"][0]["pegging_per_deal"] == data["players"][1]["pegging_per_deal"]
    basic = json.loads(runner.invoke(app, [
        "cribbage", "pegging", "-p", "exhaustive:pegging=basic", "--opponent", "exhaustive",
        "--deals", "60", "--json"]).stdout)
    assert basic["interval95"][1] < 0  # the basic policy gives points away
    sim = json.loads(runner.invoke(app, [
        "cribbage", "pegging", "-p", "sampling:trials=40,stop=paired", "--deals", "5",
        "--json"]).stdout)
    row = sim["players"][0]
    assert row["decisions"] > 0 and 0 < row["mean_trials"] <= 40
    assert sim["players"][1]["mean_trials"] is None
    refused = runner.invoke(app, ["cribbage", "pegging", "--opponent", "sampling:trials=-1"])
    assert refused.exit_code == 2 and "--opponent sampling:trials=-1" in refused.output


def test_the_win_table_agrees_with_the_games_it_was_measured_from() -> None:
    from fuzzeval.games.cribbage.win_table import deal_points, win_table
    from fuzzeval.stats import wilson

    w = win_table()
    data = deal_points()
    # The table is built from single deals; the games' results are not used: the first
    # dealer's measured win rate is an outside check of the whole programme.
    low, high = wilson(int(data["first_dealer_wins"]), int(data["games"]))  # type: ignore[call-overload]
    assert low <= w[0, 0, 1] <= high
    assert w[0, 0, 1] > 0.5  # the first crib is an edge
    # Seat-swapping symmetry, and more points never hurt.
    assert np.allclose(w[:, :, 1], 1 - w[:, :, 0].T, atol=1e-12)
    assert np.all(np.diff(w, axis=0) >= -1e-12) and np.all(np.diff(w, axis=1) <= 1e-12)
    # At 120 each, whoever is pone next passes first (the model's rule).
    assert w[120, 120, 0] > 0.99 and w[120, 120, 1] < 0.01


def test_the_win_table_solver_matches_a_plain_recursion() -> None:
    from fuzzeval.games.cribbage.win_table import WIN, solve

    # Deals that bring (pone, dealer) = (50, 10), (5, 40) or (30, 30), with chances 1/2,
    # 1/4, 1/4: few reachable scores, so a memoised recursion can walk them all.
    joint = np.zeros((51, 51))
    joint[50, 10], joint[5, 40], joint[30, 30] = 0.5, 0.25, 0.25
    out = np.zeros((WIN, WIN, 2))
    solve(joint, out)

    @cache
    def win(a: int, b: int, deals: int) -> float:
        total = 0.0
        for (x, y), p in {(50, 10): 0.5, (5, 40): 0.25, (30, 30): 0.25}.items():
            mine, theirs = (y, x) if deals else (x, y)
            ra, rb = a + mine, b + theirs
            if ra >= WIN and rb >= WIN:
                total += p * (0.0 if deals else 1.0)
            elif ra >= WIN:
                total += p
            elif rb < WIN:
                total += p * win(ra, rb, 1 - deals)
        return total

    for a, b, d in ((0, 0, 1), (0, 0, 0), (60, 95, 1), (100, 70, 0), (115, 116, 1)):
        assert out[a, b, d] == pytest.approx(win(a, b, d), abs=1e-12)


def test_fuzzy_rollouts_play_the_rule_bases_softmax_through_the_rules() -> None:
    from fuzzeval.games.cribbage.sampling import SoftmaxPegging

    player = make_player("sampling", rollout="fuzzy", trials=30, stop="none")
    roll = player.policy.rollout  # type: ignore[union-attr]
    assert isinstance(roll, SoftmaxPegging) and roll.temperature == 0.1
    # Both at 119, the 5 on their king wins at once, whatever the rollouts do after it.
    view = peg_view("5C 9D KS QH", "KH", "KH", "5C 9D KS QH", scores=(119, 119),
                    my_crib=True)
    choice, result = player.policy.weigh(view, np.random.default_rng(0))  # type: ignore[union-attr]
    assert choice == 0 and result.means[0] == 1.0 and result.trials == 30
    # The softmax is a distribution over the cards, exp(grade / 0.1) normalised.
    cands = GAME.candidates(S.determinized(
        view := peg_view("KC 3D AH 2H", "6C 5C", "6C 5C", "KC 3D", thrown="7C 7D"),
        S.peg_setup(view), np.full(S.UNIFORMS, 0.5)))
    grades = roll.policy.judge(cands.view)[0]  # type: ignore[arg-type]
    p3 = 1 / (1 + np.exp((grades[0] - grades[1]) / 0.1))
    assert 0.05 < p3 < 0.95  # close grades: both cards get laid
    picks = [roll.choose(cands, np.random.default_rng(i)) for i in range(1000)]
    assert np.mean(picks) == pytest.approx(p3, abs=0.05)


@pytest.mark.parametrize(("args", "message"), [
    (["backgammon", "-p", "sampling"], "backgammon has no hidden-information hooks"),
    (["cribbage", "-p", "sampling:trials=0"], "trials must be a whole number from 1 to 100,000"),
    (["cribbage", "-p", "sampling:trials=1000000000000"],
     "trials must be a whole number from 1 to 100,000 (got 1000000000000)"),
    (["cribbage", "-p", "sampling:rollout=clever"], "rollout must be"),
    (["cribbage", "--opponent", "sampling:stop=sometimes"], "stop must be"),
])
def test_match_refuses_a_sampling_player_it_cannot_build(tmp_path: Path, args: list[str],
                                                         message: str) -> None:
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    db = tmp_path / "m.sqlite"
    result = CliRunner().invoke(app, ["match", *args, "-n", "2", "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert message in result.output and result.output.count("\n") == 1
    assert not db.exists()  # refused before any file is made


def test_a_go_that_has_just_ended_the_count_is_read() -> None:
    # They led a king, I laid a king (20, a pair), they laid a 9 (29); neither could lay
    # at 29 and now I lead a fresh count: every card they hold is worth more than 2.
    v = peg_view("KD 5C 6C 3H", "KC KD 9C", "", "5C 6C 3H", my_crib=True)
    assert S.opponent_go_room(v) == 2


def test_sampling_player_options_are_what_they_say() -> None:
    greedy_pegs = make_player("sampling", pegging="greedy")
    assert greedy_pegs.pegging == "greedy" and greedy_pegs.policy is None
    assert isinstance(make_player("sampling").policy, S.SamplingPegging)
    with pytest.raises(ValueError, match="rollout=fuzzy is for pegging=sampling"):
        make_player("sampling", pegging="greedy", rollout="fuzzy")


def test_a_view_with_more_than_four_opponent_cards_is_refused() -> None:
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    # Five cards laid, none of them mine: it once wrote past an array in the kernel.
    result = CliRunner().invoke(app, [
        "cribbage", "peg", "2C", "3D", "4S", "6H", "--earlier", "KC KD KH QS QH",
        "--starter", "9C", "--thrown", "AC AD", "-p", "sampling:trials=100"])
    assert result.exit_code == 2, result.output
    assert "lays at most four" in result.output


def test_a_play_that_ends_the_game_is_the_whole_deal_s_worth() -> None:
    """At 120 all, the first point of the play (or the last card's go) wins: no trial
    reaches the show, so each throw's whole-deal value is its play's, a win (1) or a loss
    (0) in the win table's terms, whoever deals."""
    from fuzzeval.games.cribbage.pegging import kernels as peg_kernels
    from fuzzeval.games.cribbage.scoring import rank_table

    u = np.random.default_rng(4).random((40, S.DISCARD_UNIFORMS))
    hand = tuple(sorted(parse_cards("5H 5S JD QC 4S 9C")))
    for my_crib in (True, False):
        setup = S.discard_setup(DiscardView(hand, my_crib, (120, 120)), "expert")
        vals = peg_kernels.discard_trials(u, setup.six, S.THROW_POSITIONS, setup.pool,
                                          setup.pair_a, setup.pair_b, setup.pair_cum,
                                          setup.dealer, setup.scores, rank_table(),
                                          setup.table)
        assert vals.shape == (40, 15, 2)
        assert np.array_equal(vals[:, :, 0], vals[:, :, 1])
        assert set(np.unique(vals).tolist()) == {0.0, 1.0}


def test_the_kernels_get_one_type_of_table_in_and_out_of_the_endgame() -> None:
    """No table (far from 121) and the win table (near it) are both read-only arrays: the
    playout kernels are compiled once for both (a writable empty table compiled the whole
    pegging and discard kernels a second time, about 10 s of CPU)."""
    from fuzzeval.games.cribbage.win_table import win_table

    far, near = S.value_table((0, 0)), S.value_table((110, 100))
    assert far is S.NO_TABLE and far.shape == (0, 0, 0)
    assert near is win_table()
    assert not far.flags.writeable and not near.flags.writeable
