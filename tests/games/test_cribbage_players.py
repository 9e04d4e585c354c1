"""Pegging policies and discard strategies, checked on hands worked by hand; and two claims
about the discard players: the fuzzy player in a game throws what it throws on its own,
over deals that differ, and the report's efficiencies are the players' own throws measured
against exact EVs computed here."""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval.games.cribbage.cards import card_str, parse_cards
from fuzzeval.games.cribbage.discard import THROWS, discard_table, evaluate_discards
from fuzzeval.games.cribbage.features import FEATURE_NAMES, discard_features
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.pegging.policies import PegView, basic, greedy
from fuzzeval.games.cribbage.players import make_player
from fuzzeval.games.cribbage.report import random_hands, run_report
from fuzzeval.games.cribbage.scoring import score_pegging
from fuzzeval.games.cribbage.weights import opponent_weights

RNG = np.random.default_rng(0)


def view(options: str, count: str = "", hand: str | None = None, starter: str = "KH",
         played: str = "") -> PegView:
    opts = parse_cards(options)
    held = parse_cards(hand) if hand is not None else opts
    count_cards = parse_cards(count)
    return PegView(options=opts, hand=held, kept=held, count_cards=count_cards,
                   played=(*parse_cards(played), *count_cards), starter=parse_cards([starter])[0],
                   my_crib=False)


def test_basic_makes_fifteen_then_leads_from_a_pair_else_the_first_card() -> None:
    assert basic(view("2C 7D 8S", count="7H"), RNG) == 2  # 7 + 8 = 15
    assert basic(view("2C 9D 9S TH"), RNG) == 1  # lead from the pair of nines
    assert basic(view("2C 9D TH", count="4S"), RNG) == 0  # nothing special: the first


def test_greedy_takes_points_and_avoids_handing_them_over() -> None:
    assert greedy(view("2C 8S", count="7H"), RNG) == 1  # fifteen-two
    # Pairing a 7 and making fifteen with an 8 both score 2; the 8 also opens a run
    # (a 6 or a 9 back scores 3), so the pair is the better two.
    assert greedy(view("7D 8S", count="7H"), RNG) == 0
    # On 5-6 (count 11) only the 4 scores: the run 4-5-6 and fifteen-two (5 points); the
    # 3 (count 14, 5-6-3 no run) and the king (21) score nothing.
    assert score_pegging("5H 6S 4D") == 5
    assert score_pegging("5H 6S 3C") == 0 == score_pegging("5H 6S KS")
    assert greedy(view("3C 4D KS", count="5H 6S"), RNG) == 1
    assert greedy(view("4D 3C KS", count="5H 6S"), RNG) == 0  # the same card, wherever it is
    # Leading: a five lets any of the sixteen ten-cards make fifteen; a nine only a six.
    assert greedy(view("5C 9D"), RNG) == 1
    # Leaving 21 lets a ten-card make 31: from count 12, lay 3 (15 for 2) not 9 (21).
    assert greedy(view("3C 9D", count="QS 2H"), RNG) == 0
    # A king on 6-5 leaves 21, where any of the 15 unseen ten-cards makes 31 (J, Q and K
    # count too: room 10 once let only the tens reply); the 3 leaves 14, where 15 unseen
    # cards score (an ace for fifteen, a 3 for the pair, a 2 or 4 for a run).
    assert greedy(view("KC 3D", count="6C 5C"), RNG) == 1


def test_greedy_weighs_what_is_still_unseen() -> None:
    # Opponent led a 4 (count 4). Laying a 4 pairs (2) but risks a pair royal; laying
    # an ace makes 5 and risks fifteen from any ten-card. With all other fours seen,
    # the pair is safe.
    safe = view("4D AC", count="4H", hand="4D AC", played="", starter="4S")
    assert greedy(safe, RNG) == 0


def test_discard_players_follow_their_definitions() -> None:
    hand = "5H 5S JD QC 2D 9C"
    exhaustive = make_player("exhaustive")
    best = discard_table(hand, "mine").iloc[0]["discard"]
    assert " ".join(exhaustive.discard(hand, "mine")) == best
    greedy_pick = make_player("greedy").discard(hand, "theirs")
    table = discard_table(hand, "theirs")
    best_hand = table.sort_values("hand_mean", ascending=False, kind="stable").iloc[0]
    assert " ".join(greedy_pick) == best_hand["discard"]
    picks = {make_player("random").discard(hand, "mine", np.random.default_rng(s))
             for s in range(60)}
    assert len(picks) > 10  # all sorts of throws


def test_make_player_rejects_unknown_names_and_options() -> None:
    with pytest.raises(ValueError, match="unknown cribbage player 'wizard'"):
        make_player("wizard")
    with pytest.raises(ValueError, match="unknown pegging policy"):
        make_player("random", pegging="clever")
    with pytest.raises(ValueError, match="does not take options"):
        make_player("random", depth=3)
    with pytest.raises(ValueError, match="weights must be"):
        make_player("exhaustive", weights="psychic")


def test_the_greedy_players_advice_table_names_each_throw_and_its_expected_hand() -> None:
    """Greedy keeps the four with the best expected hand. Kept 5H 5S JD QC scores 10 (four
    fifteens, a pair); over the 46 starters a 5 adds 10 (2 of them), a ten or king 7 (a run:
    8 of them), a jack or queen 6 (a pair: 6), a diamond 1 for nobs (12): 10 + 124 / 46."""
    from fuzzeval.games.cribbage.advice import player_advice

    hand = ["5H", "5S", "JD", "QC", "4S", "9C"]
    advice = player_advice(hand, "mine", "greedy")
    top = advice["table"][0]
    assert (advice["discard"], top["discard"], top["keep"]) == (
        ["4S", "9C"], "4S 9C", "5H 5S JD QC")
    assert top["hand_value"] == round(10 + 124 / 46, 6)
    for row in advice["table"]:  # each row's throw and keep are the hand, split
        thrown, kept = row["discard"].split(), row["keep"].split()
        assert (len(thrown), len(kept)) == (2, 4) and sorted(thrown + kept) == sorted(hand)
    assert len(advice["table"]) == 15


# --- the fuzzy player's own throws, and the report's efficiencies against exact EVs ---


@pytest.mark.audit
def test_in_a_game_the_fuzzy_player_throws_what_it_throws_on_its_own() -> None:
    """The game hands the player every feature (FEATURE_NAMES order); the rule base reads a
    few of them, by name. In both throws of 20 first deals (both crib owners), the throw
    chosen from the game's features is the argmax of the player's own grades of the hand,
    and those throws differ from deal to deal (a player that always threw the same pair,
    or a count of deals seen, would not pass)."""
    player = make_player("fuzzy", rulebase="cribbage_linguistic")
    fuzzy = player.discarder
    inputs = fuzzy.rulebase.input_names  # type: ignore[attr-defined]
    assert list(inputs) != list(FEATURE_NAMES[:len(inputs)])  # the columns must be picked
    rng = np.random.default_rng(4)
    chosen, owners = [], set()
    cols = [FEATURE_NAMES.index(n) for n in inputs]
    for k in range(20):
        chance = np.random.default_rng(k)
        state = GAME.new_game(chance, k % 2)
        for _ in range(2):  # pone throws to the dealer's crib, then the dealer
            cands = GAME.candidates(state)
            view = cands.view
            assert cands.kind == "discard" and cands.feature_names == FEATURE_NAMES
            hand, mine = view.hand, view.my_crib  # type: ignore[attr-defined]
            own = fuzzy.grades([hand], [mine])[0]
            np.testing.assert_array_equal(cands.feature_rows(range(15))[:, cols],
                                          discard_features([hand], [mine], inputs)[0])
            choice = player.choose(cands, rng)
            assert choice == int(np.argmax(own)), (k, mine)
            assert cands.labels[choice] == " ".join(card_str(hand[i]) for i in THROWS[choice])
            chosen.append(choice)
            owners.add(mine)
            state = GAME.apply(state, choice, chance)
    assert owners == {True, False}
    assert len(set(chosen)) >= 5, chosen


@pytest.mark.audit
def test_report_efficiencies_are_the_players_own_throws_against_exact_evs() -> None:
    """Efficiency (EV - random) / (optimal - random), recomputed here from exact EVs of every
    throw (evaluate_discards) and each player's own one-hand ``discard``: the report must
    agree. The exhaustive player itself (not the report's argmax of its table) reaches the
    optimum; greedy does not, and is measured all the same."""
    deals, seed = 30, 5
    players = ("greedy", "fuzzy", "exhaustive")
    report = run_report(deals, seed, players=players, timing_sample=3)
    hands = random_hands(deals, seed)
    by = {p.player: p for p in report.players}
    effs: dict[str, dict[str, float]] = {p: {} for p in players}
    for owner in ("mine", "theirs"):
        w = opponent_weights("uniform", owner == "mine")
        ev = np.array([evaluate_discards(tuple(int(c) for c in h), owner, w).ev  # type: ignore[arg-type]
                       for h in hands])
        rand, best = ev.mean(), ev.max(axis=1).mean()
        assert report.random[owner] == pytest.approx(rand, abs=1e-12)
        assert report.optimal[owner] == pytest.approx(best, abs=1e-12)
        for name in players:
            p = make_player(name)
            throws = []
            for h in hands:
                cards = [card_str(int(c)) for c in h]
                thrown = set(p.discard(" ".join(cards), owner))  # type: ignore[arg-type]
                throws.append(next(t for t, (a, b) in enumerate(THROWS)
                                   if {cards[a], cards[b]} == thrown))
            got = ev[np.arange(deals), throws]
            eff = (got.mean() - rand) / (best - rand)
            effs[name][owner] = eff
            score = getattr(by[name], owner)
            assert score.ev == pytest.approx(got.mean(), abs=1e-12), (name, owner)
            assert score.efficiency == pytest.approx(eff, abs=1e-12), (name, owner)
            assert score.optimal_share == pytest.approx(
                np.mean(got >= ev.max(axis=1) - 1e-9)), (name, owner)
    assert effs["exhaustive"] == pytest.approx({"mine": 1.0, "theirs": 1.0}, abs=1e-12)
    assert effs["greedy"]["mine"] < 1.0 and effs["greedy"]["theirs"] < 1.0
