"""Real checks for two claims about cribbage discard players: the fuzzy player in a game
throws what it throws on its own, over deals that differ; and the report's efficiencies
are the players' own throws measured against exact EVs computed here."""

from __future__ import annotations

import numpy as np
import pytest

from fuzzeval.games.cribbage.cards import card_str
from fuzzeval.games.cribbage.discard import THROWS, evaluate_discards
from fuzzeval.games.cribbage.features import FEATURE_NAMES, discard_features
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.players import make_player
from fuzzeval.games.cribbage.report import random_hands, run_report
from fuzzeval.games.cribbage.weights import opponent_weights

pytestmark = pytest.mark.audit


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
