"""The fuzzy hold'em player: an action's features on hand-worked spots,
the probability triple of the grades, and the player's options."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fuzzeval.games.holdem.features import FEATURE_NAMES, decision_features
from fuzzeval.games.holdem.fuzzy import FuzzyPlayer, fuzzy_player, triple
from fuzzeval.games.holdem.game import GAME
from fuzzeval.games.holdem.spot import read_spot
from fuzzeval.play.game import Candidates


def test_the_triple_is_a_softmax_of_the_legal_actions_grades() -> None:
    e = [math.exp(-5.0), math.exp(-2.5), 1.0]  # grades 0.5, 0.75, 1 at temperature 0.1
    got = triple(np.array([0.5, 0.75, 1.0]), "fcr", 0.1)
    assert got == pytest.approx([x / sum(e) for x in e], rel=1e-12)
    # nothing to call: no fold; the order of the triple stays fold, call, raise
    assert triple(np.array([0.5, 0.5]), "cr", 0.1) == (0.0, 0.5, 0.5)
    assert triple(np.array([0.2, 0.9]), "fc", 1e-6) == pytest.approx((0.0, 1.0, 0.0))


def test_the_features_of_the_buttons_first_action_with_aces() -> None:
    d = read_spot("AsAh", "", "")
    rows = decision_features(d)
    assert d.actions == "fcr" and rows.shape == (3, len(FEATURE_NAMES))
    col = {n: rows[:, FEATURE_NAMES.index(n)] for n in FEATURE_NAMES}
    # the button owes 5 to the big blind's 10: 5 / (15 + 5) of the pot, half a bet
    assert col["pot_odds"].tolist() == [0.25] * 3 and col["to_call"].tolist() == [0.5] * 3
    assert col["bets"].tolist() == [1.0] * 3  # the big blind
    assert col["position"].tolist() == [1.0] * 3 and col["round"].tolist() == [0.0] * 3
    assert col["aggression"].tolist() == [0.5] * 3  # no action yet: (0 + 1) / (0 + 2)
    assert col["action"].tolist() == [0.0, 1.0, 2.0]
    assert abs(col["strength"][0] - 0.852) < 0.1  # aces' published preflop equity
    assert np.array_equal(decision_features(d), rows)  # the same spot, the same estimate


def test_after_the_flop_bet_the_big_blind_faces_a_full_bet() -> None:
    d = read_spot("7c2d", "AsKsQs", "rc/cr")  # flop: the big blind checked, the button bet
    col = dict(zip(FEATURE_NAMES, decision_features(d)[0], strict=True))
    # the big blind acts, owes 10 into a pot of 40 + 10
    assert (col["position"], col["round"], col["bets"], col["to_call"]) == (0, 1, 1, 1)
    assert col["pot_odds"] == 10 / 60
    # the button raised preflop and bet the flop: (2 + 1) / (0 + 2 + 2)
    assert col["aggression"] == 0.75
    assert col["strength"] < 0.3  # seven high on three spades


def _candidates(hole: str, board: str, betting: str) -> Candidates:
    d = read_spot(hole, board, betting)
    return Candidates("bet", tuple(d.actions), lambda idx: decision_features(d)[list(idx)],
                      FEATURE_NAMES, d)


def test_the_shipped_base_raises_aces_and_folds_trash_to_a_bet() -> None:
    player = fuzzy_player()
    assert isinstance(player, FuzzyPlayer) and player.temperature == 0.1
    f, c, r = player.probabilities(_candidates("AsAh", "", ""))
    assert r > 0.8 and f < 0.01 and f + c + r == pytest.approx(1)
    f, c, r = player.probabilities(_candidates("7c2d", "AsKsQs", "rc/cr"))
    assert f > 0.5 and r < 0.1 and c < 0.5
    rng = np.random.default_rng(0)
    picks = [player.choose(_candidates("AsAh", "", ""), rng) for _ in range(200)]
    assert picks.count(2) > 150  # raise, drawn from the triple


def test_the_players_options() -> None:
    assert GAME.make_player("fuzzy", temperature="0.5").temperature == 0.5  # type: ignore[attr-defined]
    with pytest.raises(ValueError,
                       match=r"temperature must be a finite number above 0 \(got '0'\)"):
        GAME.make_player("fuzzy", temperature="0")
    with pytest.raises(ValueError, match=r"player 'fuzzy' does not take options \['depth'\]"):
        GAME.make_player("fuzzy", depth=2)
    with pytest.raises(ValueError, match="are not holdem features"):
        GAME.make_player("fuzzy", rulebase="tipping")


def test_holdem_act_grades_every_action_and_explains_one() -> None:
    import json

    from typer.testing import CliRunner

    from fuzzeval.cli import app

    runner = CliRunner()
    args = ["holdem", "act", "--hole", "AsKd", "--board", "2c3d4h", "--betting", "crc/"]
    result = runner.invoke(app, [*args, "--json", "--explain", "--action", "r"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    assert (got["round"], got["position"], got["rulebase"]) == ("flop", "big blind", "holdem")
    # the button limped and called the raise: 0 raises of 2 actions, (0 + 1) / (2 + 2)
    assert got["features"]["aggression"] == 0.25 and got["features"]["to_call"] == 0
    assert [a["action"] for a in got["actions"]] == ["call", "raise"]
    assert got["triple"][0] == 0 and sum(got["triple"]) == pytest.approx(1)
    worth = [a["grade"] for a in got["actions"]]
    assert got["triple"][2] == pytest.approx(1 / (1 + math.exp((worth[0] - worth[1]) / 0.1)))
    assert got["explanation"]["inputs"]["action"] == 2  # the raise asked for
    table = runner.invoke(app, args)
    assert table.exit_code == 0 and "rule base holdem: written by hand" in table.stdout
    for bad, message in ((["--action", "f"], "'f': not legal after 'crc/' (legal: c, r)"),
                         (["--board", "2c3d"], "has 3 board cards, not 2"),
                         (["--hole", "AsAs"], "'As': this card appears twice")):
        result = runner.invoke(app, [*args, *bad])
        assert result.exit_code == 2 and message in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_the_tuning_measure_is_what_a_duplicate_match_pays() -> None:
    """Deal k's contribution against each opponent of the panel is the fuzzy player's
    mean over games 2k and 2k + 1 of the duplicate match with the measure's seed."""
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.games.holdem.measure import holdem_measure
    from fuzzeval.play.match import MatchSpec, play_indexed
    from fuzzeval.play.spec import PlayerSpec
    from fuzzeval.resources import find_rulebase

    rb = load_rulebase(find_rulebase("holdem"))
    assert GAME.rulebase_measure(rb.input_names, 6, 7) == holdem_measure(GAME, ("fuzzy",), 6, 7)
    panel = ("fuzzy", "acpc-example", "call", "raise")
    measure = holdem_measure(GAME, panel, 6, 7)
    got = measure.contributions(rb)
    for row, opponent in enumerate(panel):
        spec = MatchSpec("holdem", PlayerSpec("fuzzy"), PlayerSpec(opponent), 12, 7,
                         duplicate=True)
        paid = [play_indexed(GAME, spec, i).outcome.payoffs[0] for i in range(12)]
        want = [(paid[2 * k] + paid[2 * k + 1]) / 2 for k in range(6)]
        assert got[row].tolist() == want, opponent
    assert measure.names == tuple(f"small bets per hand against {o}" for o in panel)
    assert GAME.rulebase_measure(("quality",), 6, 7) is None
