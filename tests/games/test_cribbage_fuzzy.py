"""The fuzzy discard player and the comparison report, against the exhaustive evaluator."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.cribbage.cards import parse_cards
from fuzzeval.games.cribbage.discard import THROWS, evaluate_discards
from fuzzeval.games.cribbage.features import EXPECTATIONS, crib_pair_table
from fuzzeval.games.cribbage.fuzzy import FuzzyDiscard, resolve_rulebase
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.players import make_player
from fuzzeval.games.cribbage.report import random_hands, run_report
from fuzzeval.games.cribbage.weights import opponent_weights
from fuzzeval.play.match import MatchSpec, play_indexed
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.testing import check_game

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
HANDS = random_hands(300, seed=11)


def _exact(mine: bool) -> np.ndarray:
    w = opponent_weights("uniform", mine)
    crib = "mine" if mine else "theirs"
    return np.array([evaluate_discards(tuple(int(c) for c in h), crib, w).ev for h in HANDS])


@pytest.fixture(scope="module")
def exact() -> dict[bool, np.ndarray]:
    return {m: _exact(m) for m in (True, False)}


def test_expected_points_base_reads_hand_and_crib_back_as_points(
        exact: dict[bool, np.ndarray]) -> None:
    """The rule base's claim: partitions of unity with the weighted average make the grade
    (expected hand +/- table crib) / 2. Checked with the exhaustive evaluator's exact hand
    means, which the fuzzy player never calls."""
    fz = FuzzyDiscard(resolve_rulebase("cribbage_expected_points"))
    for mine in (True, False):
        grades = fz.grades(HANDS, np.full(len(HANDS), mine))
        w = opponent_weights("uniform", mine)
        for h, g in zip(HANDS[:40], grades[:40], strict=True):
            stats = evaluate_discards(tuple(int(c) for c in h), "mine" if mine else "theirs", w)
            ranks = h // 4
            crib = np.array([crib_pair_table()[ranks[a], ranks[b]]
                             for a, b in ((a, b) for a in range(6) for b in range(a + 1, 6))])
            np.testing.assert_allclose(g, (stats.hand_mean + (crib if mine else -crib)) / 2,
                                       atol=1e-9)


def _efficiency(rulebase: str, exact: dict[bool, np.ndarray]) -> dict[bool, float]:
    fz = FuzzyDiscard(resolve_rulebase(rulebase))
    out = {}
    for mine, ev in exact.items():
        throws = np.argmax(fz.grades(HANDS, np.full(len(HANDS), mine)), axis=1)
        got = ev[np.arange(len(ev)), throws].mean()
        out[mine] = float((got - ev.mean()) / (ev.max(axis=1).mean() - ev.mean()))
    return out


def test_expected_points_efficiency_at_least_095_both_cribs(
        exact: dict[bool, np.ndarray]) -> None:
    assert min(_efficiency("cribbage_expected_points", exact).values()) >= 0.95


def test_linguistic_default_throws_well(
        exact: dict[bool, np.ndarray]) -> None:
    """The default reads only what a player sees, yet throws at >= 0.90 with either crib."""
    eff = _efficiency("cribbage_linguistic", exact)
    assert min(eff.values()) >= 0.90, eff


def test_linguistic_draft_reads_no_expectation() -> None:
    """The calibration's default (the fuzzy player plays the strongest base, below)."""
    rb = resolve_rulebase(GAME.default_rulebase)
    assert rb.name == "cribbage_linguistic"
    assert not set(rb.input_names) & set(EXPECTATIONS)
    assert rb.adjustable_points()


def test_linguistic_grade_worked_by_hand() -> None:
    """5H 5S JD QC 4S 9C, throw 4S 9C to their crib, counted from the rules: keep 5 5 J Q
    holds 10 points (four fifteens, a pair): "good", worth 8. Starter ranks making a new
    fifteen: the four ten-cards and the five (5 of 13): 1/6 few, 5/6 some (worth 1). Ranks
    adding a run: ten and king (2): 2/3 some (worth 1/2). Nobs: 12 of 46 starters are
    diamonds: 12/46 certain (worth 1). No flush; nothing in the throw but a gap of 5: 1/8
    wide (worth 1/2 to their crib). Eleven groups of rules, each summing to 1."""
    fz = FuzzyDiscard(resolve_rulebase("cribbage_linguistic"))
    hand = tuple(sorted(parse_cards("5H 5S JD QC 4S 9C", 6)))
    grades = fz.grades([hand], [False])[0]
    t = THROWS.index((0, 3))  # 4S and 9C are the first and fourth of the sorted six
    want = (8 + 5 / 6 * 1 + 2 / 3 * 0.5 + 12 / 46 * 1 + 1 / 8 * 0.5) / 11
    assert grades[t] == pytest.approx(want, abs=1e-12)
    assert int(np.argmax(grades)) == t


def test_report_on_the_same_deals(exact: dict[bool, np.ndarray]) -> None:
    report = run_report(60, seed=5, players=("random", "greedy", "fuzzy", "exhaustive"))
    by = {p.player: p for p in report.players}
    assert by["fuzzy"].mine.efficiency >= 0.85 and by["fuzzy"].theirs.efficiency >= 0.85
    assert by["greedy"].mine.efficiency < by["fuzzy"].mine.efficiency
    assert abs(by["random"].mine.efficiency) < 0.3
    assert report.optimal["mine"] > report.random["mine"]
    assert all(p.decisions_per_s > 0 and p.single_per_s > 0 for p in report.players)


def test_a_rule_base_with_unknown_inputs_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    shipped = ROOT / "rulebases" / "cribbage_expected_points.yaml"
    bad.write_text(shipped.read_text().replace("hand_value", "hand_valeu"))
    with pytest.raises(ValueError, match="hand_valeu"):
        make_player("fuzzy", rulebase=str(bad))


def test_the_game_logs_the_features_of_the_chosen_throw() -> None:
    check_game(GAME, games=4, seed=2)
    rec = play_indexed(GAME, MatchSpec("cribbage", PlayerSpec("fuzzy"), PlayerSpec("random"),
                                       1, 3), 0)
    first = rec.decisions[0]
    assert set(first.features) >= {"hand_value", "crib_value", "crib_ownership", "fives_kept",
                                   "run_potential", "thrown_gap", "fifteen_potential"}
    assert first.features["crib_ownership"] in (0.0, 1.0)


def test_discard_cli_fuzzy_explain_and_batch(tmp_path: Path) -> None:
    hand = ["5H", "5S", "JD", "QC", "4S", "9C"]
    out = runner.invoke(app, ["cribbage", "discard", *hand, "--crib", "theirs", "-p",
                              "fuzzy:rulebase=cribbage_linguistic", "--explain"])
    assert out.exit_code == 0, out.output
    words = " ".join(out.stdout.split())  # the first line folds at 80 columns
    assert "throw 4S 9C" in words and "memberships" in out.stdout
    assert "worth = 0.8627" in out.stdout  # worked by hand in test_linguistic_grade_...
    data = json.loads(runner.invoke(app, ["cribbage", "discard", *hand, "--crib", "theirs",
                                          "-p", "fuzzy", "--explain", "--json"]).stdout)
    assert data["discard"] == data["table"][0]["discard"].split()
    assert any(r["strength"] > 0 for r in data["explanation"]["rules"])
    batch = tmp_path / "hands.txt"
    batch.write_text("5H 5S JD QC 4S 9C\n7C 8C 9C TC JC 6D\n5H 5H JD QC 4S 9C\n")
    res = runner.invoke(app, ["cribbage", "discard", "--crib", "mine",
                              "--batch", str(batch), "-p", "fuzzy"])
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert res.exit_code == 2 and len(lines) == 3
    assert len(lines[0]["discard"]) == 2 and "appears twice" in lines[2]["error"]
    bad = runner.invoke(app, ["cribbage", "discard", "--crib", "mine", *hand, "-p", "fuzy"])
    assert bad.exit_code == 2 and "fuzy" in bad.output


def test_report_cli_json_and_chart(tmp_path: Path) -> None:
    chart = tmp_path / "r.png"
    res = runner.invoke(app, ["cribbage", "report", "--deals", "30", "-p", "random", "-p",
                              "fuzzy", "-p", "exhaustive", "--workers", "1", "--json",
                              "--plot", str(chart)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert [p["player"] for p in data["players"]] == ["random", "fuzzy", "exhaustive"]
    assert chart.stat().st_size > 10_000
    assert res.stderr == ""  # no progress bar where stderr is no terminal (nor its newline)


def test_in_a_game_the_fuzzy_player_grades_the_games_features_alike() -> None:
    """In a game the features come from the game (computed once for the history); the
    throw must be the one the player computes on its own from the hand."""
    player = make_player("fuzzy")
    rng = np.random.default_rng(4)
    chosen = set()
    for k in range(40):
        state = GAME.new_game(np.random.default_rng(k), k % 2)
        cands = GAME.candidates(state)
        assert cands.kind == "discard"
        choice = player.choose(cands, rng)
        assert choice == player.discarder(cands.view, rng)
        chosen.add(choice)
    assert len(chosen) > 3  # the throws differ from hand to hand: a real choice each time


def test_the_renamed_shipped_rule_bases_still_load_with_a_warning() -> None:
    with pytest.warns(FutureWarning, match="now called 'cribbage_expected_points'"):
        rb = resolve_rulebase("cribbage_discard")
    assert rb.name == "cribbage_expected_points"


def test_the_fuzzy_player_plays_the_strongest_shipped_rule_base(
        exact: dict[bool, np.ndarray]) -> None:
    """By the project's measure (discard efficiency with each crib owner, exact EVs from the
    exhaustive evaluator): the default fuzzy player reads the best shipped cribbage base of
    those that read only what a player sees (the expected-points base reads the exhaustive
    evaluator's numbers back: the upper reference), while calibration still starts from the
    linguistic draft."""
    from fuzzeval.games.cribbage.features import EXPECTATIONS, FEATURE_NAMES
    from fuzzeval.resources import rulebase_dir

    shipped = sorted(p.stem for p in rulebase_dir().glob("cribbage_*.yaml")  # discard bases
                     if set(resolve_rulebase(p.stem).input_names) <= set(FEATURE_NAMES))
    seeing = [name for name in shipped
              if not {v.name for v in resolve_rulebase(name).inputs} & set(EXPECTATIONS)]
    assert "cribbage_expected_points" not in seeing and len(seeing) >= 3
    worst_crib = {name: min(_efficiency(name, exact).values()) for name in seeing}
    best = max(worst_crib, key=lambda name: worst_crib[name])
    fuzzy = make_player("fuzzy").discarder
    assert isinstance(fuzzy, FuzzyDiscard) and fuzzy.rulebase.name == best
    assert GAME.default_rulebase == "cribbage_linguistic" != best
