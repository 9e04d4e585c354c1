"""fuzzeval players as OpenSpiel bots (``fuzzeval.interop.openspiel``): whole games in OpenSpiel's
own loop (``pyspiel.evaluate_bots``) against its bots with every action checked legal
there, the bridges' translations checked against fuzzeval's own rules and OpenSpiel's own
action names, the refusals, and ``fuzzeval openspiel play``.

The long runs (1,000 games per game and opponent) are in docs/openspiel.md, with the
commands that make them.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.errors import UsageError
from fuzzeval.games.backgammon.board import START
from fuzzeval.games.backgammon.moves import legal_moves
from fuzzeval.games.backgammon.openspiel import actions_to, dice, position
from fuzzeval.games.cribbage import rules
from fuzzeval.games.cribbage.cards import card_str, parse_cards
from fuzzeval.games.cribbage.discard import THROWS
from fuzzeval.games.cribbage.game import GAME as CRIBBAGE
from fuzzeval.games.cribbage.openspiel import (
    PASS,
    CribbageBridge,
    discard_action,
    from_openspiel,
    seat_state,
    to_openspiel,
)
from fuzzeval.games.hearts.openspiel import HeartsBridge, options_of
from fuzzeval.games.hearts.rules import STANDARD, STURTEVANT_WHITE
from fuzzeval.interop.openspiel import (
    IllegalAction,
    UnsupportedGame,
    _row,
    bridge,
    bridged_games,
    make_bot,
    opponent_bot,
    play_game,
)
from fuzzeval.play.testing import check_bridge

runner = CliRunner()


class Checked(pyspiel.Bot):  # type: ignore[misc]
    """A bot that asks another and records whether each action was legal where asked."""

    def __init__(self, inner: Any) -> None:
        pyspiel.Bot.__init__(self)
        self.inner = inner
        self.actions: list[bool] = []

    def restart_at(self, state: Any) -> None:
        self.inner.restart_at(state)

    def inform_action(self, state: Any, player: int, action: int) -> None:
        self.inner.inform_action(state, player, action)

    def step(self, state: Any) -> int:
        action = int(self.inner.step(state))
        self.actions.append(action in state.legal_actions())
        return action


@pytest.mark.parametrize(("game", "player"), [("cribbage", "fuzzy"), ("backgammon", "fuzzy"),
                                              ("hearts", "fuzzy"), ("backgammon", "pubeval"),
                                              ("cribbage", "greedy"), ("hearts", "heuristic")])
def test_whole_games_in_evaluate_bots_against_uniform_random(game: str, player: str) -> None:
    g = pyspiel.load_game(game)
    seats = g.num_players()
    for seat in range(seats):
        bot = Checked(make_bot(g, player, seat, seed=seat))
        bots = [bot if s == seat else pyspiel.make_uniform_random_bot(s, 10 + s)
                for s in range(seats)]
        returns = pyspiel.evaluate_bots(g.new_initial_state(), bots, 100 + seat)
        assert len(returns) == seats
        assert len(bot.actions) >= 10 and all(bot.actions)
        if game == "cribbage":  # a whole game to 121: the winner's bonus is in the returns
            assert max(returns) > 1000 > -900 > min(returns)


def test_hearts_against_openspiel_s_cpp_ismcts_bot_in_evaluate_bots() -> None:
    """Every seat: the pass (OpenSpiel's resampler needs the bot turned to pass first for
    seats 1 to 3, see hearts.ismcts) and the play, both with the fuzzy bot at the table."""
    g = pyspiel.load_game("hearts")
    for seat in range(4):
        bot = Checked(make_bot(g, "fuzzy", seat, seed=seat))
        others = [Checked(opponent_bot(g, "ismcts", s, 5 + s, simulations=10))
                  for s in range(4) if s != seat]
        bots = [*others[:seat], bot, *others[seat:]]
        returns = pyspiel.evaluate_bots(g.new_initial_state(), bots, 7 + seat)
        assert sum(26 - r for r in returns) in (26, 78)  # 26 points taken, or a moon shot
        assert len(bot.actions) in (13, 16) and all(bot.actions)
        assert all(all(o.actions) and len(o.actions) in (13, 16) for o in others)


def test_cribbage_against_openspiel_s_python_ismcts_bot_and_the_resampler() -> None:
    """OpenSpiel's cribbage cannot resample itself; its Python ISMCTSBot takes the
    bridge's resampler, which it checks keeps the seat's information state."""
    g = pyspiel.load_game("cribbage")
    bot = Checked(make_bot(g, "fuzzy", 0, seed=1))
    search = Checked(opponent_bot(g, "ismcts", 1, 2, simulations=3))
    returns = pyspiel.evaluate_bots(g.new_initial_state(), [bot, search], 3)
    assert max(returns) > 1000 and all(bot.actions) and all(search.actions)
    # In a deal in play: the seat's information is kept, the other's cards redealt.
    state = g.new_initial_state()
    rng = np.random.default_rng(8)
    while len(state.history()) < 12 + 2 + 1 + 3:  # a deal, both throws, the cut, 3 cards
        if state.is_chance_node():
            state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    other = 1 - seat
    bridge = CribbageBridge()
    hands = set()
    for _ in range(20):
        again = bridge.resample(state, seat, rng)
        assert again.information_state_string() == state.information_state_string()
        assert again.returns() == state.returns() and again.current_player() == seat
        hands.add(str(again).split(f"P{other} Hand:")[1].splitlines()[0])
    assert len(hands) > 10


def test_backgammon_against_openspiel_s_cpp_mcts_bot() -> None:
    g = pyspiel.load_game("backgammon")
    bot = Checked(make_bot(g, "fuzzy", 1, seed=3))
    mcts = Checked(opponent_bot(g, "mcts", 0, 4, simulations=3))
    returns = pyspiel.evaluate_bots(g.new_initial_state(), [mcts, bot], 5)
    assert sorted(returns) == [-1.0, 1.0]  # winloss_scoring, OpenSpiel's default
    assert all(bot.actions) and all(mcts.actions) and len(bot.actions) > 10


def test_play_game_checks_every_action_and_counts_the_decisions() -> None:
    g = pyspiel.load_game("hearts(pass_cards=false)")
    bots = [make_bot(g, "heuristic", s, s) for s in range(4)]
    returns, decisions = play_game(g, bots, 1)
    assert decisions in (52, 64) and sum(26 - r for r in returns) in (26, 78)

    class Cheat(pyspiel.Bot):  # type: ignore[misc]
        def restart_at(self, state: Any) -> None:
            pass

        def inform_action(self, state: Any, player: int, action: int) -> None:
            pass

        def step(self, state: Any) -> int:
            return next(c for c in range(52) if c not in state.legal_actions())

    cheat = Cheat()
    pyspiel.Bot.__init__(cheat)
    with pytest.raises(IllegalAction, match="not legal in hearts"):
        play_game(g, [*bots[:3], cheat], 1)


# --- the bridges' translations -------------------------------------------------------------

def test_card_ids_and_discard_actions_are_openspiel_s_by_its_own_names() -> None:
    assert [from_openspiel(to_openspiel(c)) for c in range(52)] == list(range(52))
    rng = np.random.default_rng(4)
    for _ in range(20):
        state = pyspiel.load_game("cribbage").new_initial_state()
        for card in rng.permutation(52)[:12].tolist():
            state.apply_action(card)
        six = sorted(from_openspiel(a) for a in state.history()[:6])
        names = {state.action_to_string(0, discard_action(six[a], six[b])): (a, b)
                 for a, b in THROWS}
        assert sorted(names) == sorted(state.action_to_string(0, a)
                                       for a in state.legal_actions())
        for name, (a, b) in names.items():
            assert name == f"Choose {card_str(six[a])} {card_str(six[b])}"
    # Pinned by hand: OpenSpiel's ids are suit * 13 + rank, so AD is 13 and 2C is 1, and
    # throwing them is 52 + 52 * 13 + 1 (the lower rank first).
    assert discard_action(*parse_cards("2C AD")) == 729
    assert to_openspiel(parse_cards(["KS"])[0]) == 51


def test_the_seat_s_view_is_fuzzeval_s_own_in_deals_replayed_in_openspiel() -> None:
    """Our engine plays a first deal at random; OpenSpiel replays it; at every decision the
    bridge's view of OpenSpiel's state (its hand, throw, starter, count, cards laid,
    scores, whose crib) is the view our engine gives the same seat."""
    compared = 0
    for seed in range(40):
        chance, chooser = np.random.default_rng([seed, 0]), np.random.default_rng([seed, 1])
        ours = CRIBBAGE.new_game(chance, 0)  # seat 0 deals first, as in OpenSpiel
        theirs = pyspiel.load_game("cribbage").new_initial_state()
        for card in ours.hands[0] + ours.hands[1]:
            theirs.apply_action(to_openspiel(card))
        throws = {}
        for seat in (0, 1):  # OpenSpiel's order; the view is the same either way
            assert theirs.current_player() == seat
            view = CRIBBAGE.candidates(seat_state(theirs, seat)).view
            assert view == CRIBBAGE.candidates(ours.but(to_move=seat)).view
            throws[seat] = int(chooser.integers(15))
            six = ours.hands[seat]
            a, b = THROWS[throws[seat]]
            theirs.apply_action(discard_action(six[a], six[b]))
            compared += 1
        for seat in (ours.pone, ours.dealer):
            ours = CRIBBAGE.apply(ours, throws[seat], chance)
        theirs.apply_action(to_openspiel(ours.starter))
        while CRIBBAGE.to_move(ours) is not None and rules.deal_of(ours) == 0:
            while theirs.legal_actions() == [PASS]:
                theirs.apply_action(PASS)
            seat = ours.to_move
            assert theirs.current_player() == seat
            mine = CRIBBAGE.candidates(seat_state(theirs, seat))
            assert mine.view == CRIBBAGE.candidates(ours).view
            assert tuple(mine.labels) == tuple(CRIBBAGE.candidates(ours).labels)
            choice = int(chooser.integers(len(mine)))
            theirs.apply_action(to_openspiel(rules.playable(ours, seat)[choice]))
            ours = CRIBBAGE.apply(ours, choice, chance)
            compared += 1
    assert compared > 350  # 80 discards, the rest cards laid


def test_backgammon_positions_dice_and_the_actions_of_every_play() -> None:
    state = pyspiel.load_game("backgammon").new_initial_state()
    state.apply_action(0)  # OpenSpiel's first opening roll: 1-2, x (player 0) to move
    assert dice(state) in ((1, 2), (2, 1)) and state.current_player() == 0
    assert position(state, 0) == START == position(state, 1)
    rng = np.random.default_rng(2)
    checked = doubles = 0
    while checked < 30:
        if state.is_terminal():
            state = pyspiel.load_game("backgammon").new_initial_state()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        player = state.current_player()
        roll = dice(state)
        here = position(state, player)
        plays = legal_moves(here, roll)
        for i in rng.permutation(len(plays))[:6]:  # plays fuzzeval lists, reached
            target = plays[i][1]
            child = state.clone()
            for action in actions_to(state, target):
                assert child.current_player() == player
                child.apply_action(action)
            assert position(child, player) == target
            assert child.is_terminal() or child.is_chance_node()
        checked += 1
        doubles += roll[0] == roll[1]
        while (not state.is_terminal() and not state.is_chance_node()
               and state.current_player() == player):
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert doubles > 0


def test_a_backgammon_bot_finishes_a_double_it_did_not_begin() -> None:
    """A bot restarted between the two actions of a double decides from the turn's start
    (the first action undone) and finishes the play its player chooses there."""
    g = pyspiel.load_game("backgammon")
    rng = np.random.default_rng(5)
    finished = 0
    while finished < 3:
        state = g.new_initial_state()
        while not state.is_terminal() and finished < 3:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            player = state.current_player()
            roll = dice(state)
            first = make_bot(g, "pubeval", player, 1)
            state.apply_action(first.step(state))
            if roll[0] == roll[1] and not state.is_chance_node() and \
                    not state.is_terminal() and state.current_player() == player:
                fresh = make_bot(g, "pubeval", player, 1)
                fresh.restart_at(state)
                assert fresh.step(state) == first.step(state)  # the same play's second half
                finished += 1
            while (not state.is_terminal() and not state.is_chance_node()
                   and state.current_player() == player):
                state.apply_action(int(rng.choice(state.legal_actions())))


def test_a_bot_moves_only_for_its_seat() -> None:
    state = pyspiel.load_game("backgammon").new_initial_state()
    state.apply_action(0)  # player 0 to move
    with pytest.raises(ValueError, match="asked to move for seat 0"):
        make_bot("backgammon", "pubeval", 1, 0).step(state)


def test_each_shipped_bridge_offers_these_hooks_in_their_shape() -> None:
    """docs/plugins.md's table of the bridges' hooks says the same."""
    got = {name: check_bridge(bridge(HOLDEM if name == "universal_poker" else name), name)
           for name in bridged_games()}
    assert got == {"backgammon": (), "cribbage": ("resample",), "hearts": ("search_state",),
                   "universal_poker": ()}


def test_the_hearts_bridge_reads_openspiel_s_parameters_and_turns_the_pass() -> None:
    assert options_of(pyspiel.load_game("hearts").get_parameters()) == STANDARD
    variant = pyspiel.load_game("hearts(pass_cards=false,must_break_hearts=false,"
                                "no_pts_on_first_trick=false,can_lead_any_club=true)")
    assert options_of(variant.get_parameters()) == STURTEVANT_WHITE
    g = pyspiel.load_game("hearts")
    state = g.new_initial_state()
    state.apply_action(1)  # pass left
    for card in range(52):
        state.apply_action(card)  # card c to seat c % 4
    for _ in range(3 + 3 + 1):  # seat 0 and seat 1 have passed; seat 2 has passed one
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 2
    bridge = HeartsBridge(STANDARD)
    turned = bridge.search_state(state)
    assert turned.current_player() == 0  # seat 2's decision, as the first to pass
    assert sorted(turned.legal_actions()) == sorted(state.legal_actions())
    assert turned.legal_actions() == [c for c in range(52) if c % 4 == 2 and c != 2]
    # the whole deal is turned: the next to pass there is seat 1, holding seat 3's cards
    for _ in range(2):
        turned.apply_action(turned.legal_actions()[0])
    assert turned.current_player() == 1
    assert turned.legal_actions() == [c for c in range(52) if c % 4 == 3]


def test_openspiel_passes_with_pass_cards_false_and_the_bridge_follows() -> None:
    """OpenSpiel's hearts(pass_cards=false) still draws a pass direction (1/4 each) and
    passes when it is not 0 (found by this bridge's check of the legal cards)."""
    g = pyspiel.load_game("hearts(pass_cards=false)")
    state = g.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    state.apply_action(2)  # across
    for card in range(52):
        state.apply_action(card)
    assert state.current_player() == 0 and len(state.legal_actions()) == 13  # a pass
    hand = HeartsBridge(options_of(g.get_parameters())).hand(state)
    assert (hand.phase, hand.direction, hand.to_move) == ("pass", 2, 0)
    bot = make_bot(g, "fuzzy", 0, 1)
    assert bot.step(state) in state.legal_actions()


# --- refusals ------------------------------------------------------------------------------

@pytest.mark.parametrize(("game", "message"), [
    ("tic_tac_toe", "OpenSpiel game tic_tac_toe(): no fuzzeval game plays it (OpenSpiel "
                    "games with a fuzzeval player: backgammon, cribbage, hearts"),
    ("cribbage(players=3)", "OpenSpiel game cribbage(players=3, winner_bonus_reward=1000.0):"
                            " fuzzeval's cribbage is for two players (players=2), not "
                            "players=3"),
    ("backgammon(hyper_backgammon=true)", "hyper_backgammon=true, max_player_turns=500, "
                                          "scoring_type=winloss_scoring): fuzzeval's "
                                          "backgammon has fifteen checkers each"),
    ("hearts(jd_bonus=true)", "fuzzeval's hearts plays jd_bonus=false, not jd_bonus=true"),
])
def test_an_unsupported_game_or_variant_is_named_with_its_parameters(game: str,
                                                                     message: str) -> None:
    with pytest.raises(UnsupportedGame) as info:
        make_bot(game, "fuzzy", 0, 0)
    assert message in str(info.value)


def test_bad_players_seats_and_opponents_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="cribbage player 'nosuch': unknown cribbage player"):
        make_bot("cribbage", "nosuch", 0, 0)
    with pytest.raises(UsageError, match=r"seat 2: .* has seats 0 to 1"):
        make_bot("backgammon", "pubeval", 2, 0)
    with pytest.raises(UsageError, match="backgammon is of perfect information"):
        opponent_bot("backgammon", "ismcts", 1, 0)
    for game in ("hearts", "cribbage"):
        with pytest.raises(UsageError, match=f"{game} is of imperfect information"):
            opponent_bot(game, "mcts", 1, 0)
    with pytest.raises(UsageError, match="simulations must be a whole number >= 1"):
        opponent_bot("hearts", "ismcts", 1, 0, simulations=0)


def test_a_seat_s_row_counts_its_mean_and_its_wins() -> None:
    row = _row(0, "fuzzy", [(3.0, -3.0), (-1.0, 1.0), (2.0, -2.0)], [0, 0, 0])
    assert row.games == 3 and abs(row.mean - 4 / 3) < 1e-12 and abs(row.won - 2 / 3) < 1e-12
    tie = _row(1, "x", [(20.0, 20.0, 3.0, 13.0)], [1])
    assert tie.won == 0.0  # a shared best is not a win
    # Wilson's interval of 2 wins in 3, by hand: centre (2/3 + z²/6) / (1 + z²/3), half
    # z √(2/27 + z²/36) / (1 + z²/3), z = 1.96: 0.2077 to 0.9385.
    assert abs(row.won_low - 0.2077) < 1e-3 and abs(row.won_high - 0.9385) < 1e-3


def test_a_series_seats_the_bot_in_turn_and_reads_each_row_from_its_seat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``play_series``'s rows, worked by hand on six made-up games of a three-seat game:
    the bot sits at seat i % 3 in game i, and is paid 100 more there than the table's
    base returns. Seat 0's bot row reads seat 0 of games 0 and 3 (106, 102), its opponent
    row seat 0 of games 1, 2, 4, 5 (0, 5, 1, 0); the last row the bot's seat in each game.
    """
    import fuzzeval.interop.openspiel as bridge

    base = [(6, 1, -3), (0, 4, 2), (5, -1, 1), (2, 3, 3), (1, -2, 7), (0, 0, 9)]
    played: list[int] = []

    class Three:
        def num_players(self) -> int:
            return 3

    def game_of(bots: list[tuple[str, int]], seed: int) -> tuple[tuple[float, ...], int]:
        at = [who for who, _ in bots].index("bot")
        returns = [float(v) for v in base[len(played)]]
        returns[at] += 100
        played.append(at)
        return tuple(returns), 10

    monkeypatch.setattr(bridge, "check_series", lambda game, *args: Three())
    monkeypatch.setattr(bridge, "describe", lambda game: "three()")
    monkeypatch.setattr(bridge, "make_bot", lambda game, spec, seat, seed: ("bot", seat))
    monkeypatch.setattr(bridge, "opponent_bot", lambda game, name, seat, seed, sims:
                        ("them", seat))
    monkeypatch.setattr(bridge, "play_game", lambda game, bots, seed: game_of(bots, seed))
    series = bridge.play_series("three", "fuzzy", "random", 6, 1)
    assert played == [0, 1, 2, 0, 1, 2] and series.decisions == 60
    rows = [(r.seat, r.player, r.games, r.mean, r.won) for r in series.rows]
    assert rows == [(0, "fuzzy", 2, 104.0, 1.0), (0, "random", 4, 1.5, 0.0),
                    (1, "fuzzy", 2, 101.0, 1.0), (1, "random", 4, 0.75, 0.0),
                    (2, "fuzzy", 2, 105.0, 1.0), (2, "random", 4, 2.25, 0.0),
                    (None, "fuzzy", 6, 620 / 6, 1.0)]
    # 106 and 102: mean 104, standard deviation 2√2, t(0.975, 1) x 2√2 / √2 either side
    first = series.rows[0]
    assert (first.low, first.high) == pytest.approx((104 - 2 * 12.706204736174694,
                                                     104 + 2 * 12.706204736174694), abs=1e-9)


# --- the command ---------------------------------------------------------------------------

def test_openspiel_play_prints_json_with_every_seat() -> None:
    res = runner.invoke(app, ["openspiel", "play", "cribbage", "-n", "4", "--seed", "3",
                              "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["game"] == "cribbage(players=2, winner_bonus_reward=1000.0)"
    assert (out["bot"], out["against"], out["games"], out["illegal_actions"]) == (
        "fuzzy", "random", 4, 0)
    rows = [(r["seat"], r["player"], r["games"]) for r in out["seats"]]
    assert rows == [(0, "fuzzy", 2), (0, "random", 2), (1, "fuzzy", 2), (1, "random", 2),
                    (None, "fuzzy", 4)]
    assert out["decisions_checked"] > 4 * 40
    for r in out["seats"]:
        assert r["low"] <= r["mean_return"] <= r["high"]
        assert 0 <= r["won_low"] <= r["won"] <= r["won_high"] <= 1


def test_openspiel_play_s_table_fits_80_columns() -> None:
    res = runner.invoke(app, ["openspiel", "play", "hearts", "-n", "4", "--opponent",
                              "ismcts", "--simulations", "5"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any("ismcts:simulations=5" in line for line in lines)
    assert "every action legal in OpenSpiel" in lines[-1]


@pytest.mark.parametrize(("args", "message"), [
    (["-n", "0"], "Invalid value for '--games' / '-n'"),
    (["--simulations", "0"], "Invalid value for '--simulations'"),
    (["--seed", "-1"], "Invalid value for '--seed'"),
    (["-p", "nosuch"], "error: cribbage player 'nosuch': unknown cribbage player"),
    (["--opponent", "mcts"], "error: OpenSpiel's MCTSBot searches the true state, hidden "
                             "cards included; cribbage is of imperfect information"),
])
def test_openspiel_play_refuses_bad_options_in_one_line(args: list[str], message: str) -> None:
    res = runner.invoke(app, ["openspiel", "play", "cribbage", *args])
    assert res.exit_code == 2
    assert len(res.stderr.splitlines()) == 1 and message in res.stderr, res.stderr


def test_the_openspiel_group_alone_prints_its_help() -> None:
    res = runner.invoke(app, ["openspiel"])
    assert res.exit_code == 0 and "Usage: fuzzeval openspiel" in res.stdout
    assert "play" in res.stdout


def test_openspiel_play_refuses_an_unsupported_game_in_one_line() -> None:
    res = runner.invoke(app, ["openspiel", "play", "tic_tac_toe"])
    assert res.exit_code == 2
    assert res.stderr == ("error: OpenSpiel game tic_tac_toe(): no fuzzeval game plays it "
                          "(OpenSpiel games with a fuzzeval player: backgammon, cribbage, "
                          "hearts, universal_poker)\n")
    for game, message in [
            ("nosuchgame", "OpenSpiel has no game 'nosuchgame' (OpenSpiel games with a "
                           "fuzzeval player: backgammon, cribbage, hearts, "
                           "universal_poker)"),
            ("", "OpenSpiel has no game '' (OpenSpiel games with a fuzzeval player: "
                 "backgammon, cribbage, hearts, universal_poker)"),  # was 'error: name'
            ("hearts(foo=1)", "OpenSpiel game 'hearts' has no parameter 'foo' (parameters: "
                              "avoid_all_tricks_bonus, can_lead_any_club, "),
            ("hearts(jd_bonus=3)", "OpenSpiel game 'hearts': parameter jd_bonus=3 is not a "
                                   "bool (default false)")]:
        res = runner.invoke(app, ["openspiel", "play", game])
        assert res.exit_code == 2
        assert res.stderr.startswith(f"error: {message}"), res.stderr
        assert len(res.stderr.splitlines()) == 1, res.stderr


def test_openspiel_errors_print_nothing_of_their_own(capfd: pytest.CaptureFixture[str]
                                                     ) -> None:
    """OpenSpiel writes its errors on the process's stderr before raising them: the game
    name and its parameters are checked first, so a mistake is one line, ours."""
    for game in ("nosuchgame", "hearts(foo=1)", "cribbage(players=x)", "hearts("):
        with pytest.raises(UsageError):
            make_bot(game, "fuzzy", 0, 0)
    assert capfd.readouterr().err == ""
    with pytest.raises(UsageError, match=r"^OpenSpiel game 'hearts\(': Missing closing "):
        make_bot("hearts(", "fuzzy", 0, 0)


HOLDEM = ("universal_poker(betting=limit,numPlayers=2,numRounds=4,blind=10 5,raiseSize=10 "
          "10 20 20,firstPlayer=2 1 1 1,maxRaises=3 4 4 4,numSuits=4,numRanks=13,"
          "numHoleCards=2,numBoardCards=0 3 1 1)")


def test_holdem_in_universal_poker_against_uniform_random_and_ismcts() -> None:
    g = pyspiel.load_game(HOLDEM)
    for seat in (0, 1):
        for other in ("random", "ismcts"):
            bot = Checked(make_bot(g, "fuzzy", seat, seed=seat))
            rival = (pyspiel.make_uniform_random_bot(1 - seat, 3) if other == "random"
                     else opponent_bot(g, "ismcts", 1 - seat, 5, simulations=10))
            bots = [bot, rival] if seat == 0 else [rival, bot]
            hands = 15 if other == "random" else 5  # OpenSpiel's ISMCTS: 1 s a hand
            for hand in range(hands):
                returns = pyspiel.evaluate_bots(g.new_initial_state(), bots, 40 * seat + hand)
                assert returns[0] == -returns[1] and abs(returns[0]) <= 240
            assert len(bot.actions) >= hands and all(bot.actions)


def test_the_holdem_bridge_replays_openspiel_s_history_by_our_rules() -> None:
    """A hand played in OpenSpiel from our cards and actions: the bridge's replay gives
    the same holes, board and betting, and a seated ``call`` player checks or calls."""
    from fuzzeval.games.holdem import rules as H
    from fuzzeval.games.holdem.openspiel import replay

    g = pyspiel.load_game(HOLDEM)
    state = g.new_initial_state()
    cards = [51, 50, 0, 5, 12, 20, 33, 40, 44]  # AsAh | 2c3d, board 5c7c Td Qc Kc
    for card in cards[:4]:
        state.apply_action(card)
    dealt = 4
    for letter in "rc" "cr" "c" "c":  # preflop raise, call; flop check, bet, call; turn
        state.apply_action({"f": 0, "c": 1, "r": 2}[letter])
        while state.is_chance_node():
            state.apply_action(cards[dealt])
            dealt += 1
    holes, board, betting = replay([int(a) for a in state.history()])
    assert holes == (51, 50, 0, 5) and board == (12, 20, 33, 40)
    assert str(betting) == "rc/crc/c" and betting.to_move == H.BUTTON
    bot = make_bot(g, "call", 1, seed=0)
    assert bot.step(state) == 1  # check behind
    # the player on the button sees its own cards, 2c3d, and the board out so far
    from fuzzeval.games.holdem.openspiel import HoldemBridge

    seen = []
    assert HoldemBridge().decide(state, lambda c: seen.append(c.view) or 1) == 2  # bet
    assert [(v.position, v.hole, v.board, v.actions) for v in seen] == [
        (1, (0, 5), (12, 20, 33, 40), "cr")]


def test_another_poker_structure_is_refused_naming_what_holdem_plays() -> None:
    with pytest.raises(UnsupportedGame) as info:
        make_bot("universal_poker", "fuzzy", 0, 0)
    text = str(info.value)
    assert "fuzzeval's holdem plays betting=limit, blind=10 5" in text
    assert "raiseSize=10 10 20 20" in text and "numRounds=4" in text


def test_a_parameter_only_the_game_type_lists_is_accepted_by_name() -> None:
    """universal_poker's ``raiseSize`` is not among the default game's parameters (it is a
    no-limit game) but is in the game type's specification: the string loads."""
    bot = make_bot(HOLDEM, "call", 0, seed=0)
    assert bot.player_id() == 0
    res = runner.invoke(app, ["openspiel", "play", HOLDEM.replace("raiseSize", "raiseSise")])
    assert res.exit_code == 2 and "has no parameter 'raiseSise'" in res.stderr
