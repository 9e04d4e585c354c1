"""The pegging rule base: its features worked by hand, its grades, the player that reads
it, and its calibration from logged pegging decisions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fuzzeval.games.cribbage.fuzzy import PEG_RULEBASE, FuzzyPegging, resolve_rulebase
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.games.cribbage.pegging.features import PEG_FEATURE_NAMES, peg_features
from fuzzeval.games.cribbage.pegging.policies import greedy
from fuzzeval.games.cribbage.players import make_player
from fuzzeval.learn.calibration_rounds import CalibrationSettings, run_calibration
from fuzzeval.play.match import play_game
from fuzzeval.play.store import History
from fuzzeval.resources import find_rulebase
from tests.games.test_cribbage_players import view

RNG = np.random.default_rng(0)


def test_features_of_laying_each_card_worked_by_hand() -> None:
    # Count 6-5 (11), holding K and 3, the starter a king: 47 cards unseen (52 less the
    # two held, the two laid and the starter), kings 2 of them.
    v = view("KC 3D", count="6C 5C")
    f = dict(zip(PEG_FEATURE_NAMES, peg_features(v).T, strict=True))
    # The king makes 21: any ten-card back makes 31 for 2 (tens, jacks, queens: 12 cards;
    # kings: 2, each also a pair, 4): (12 * 2 + 2 * 4) / 47.
    # The 3 makes 14: an ace makes fifteen (4 * 2), a 4 a run of four (4 * 4), a 3 a pair
    # (3 * 2): 30 / 47.
    assert f["points_now"].tolist() == [0, 0]
    assert f["reply_risk"] == pytest.approx([32 / 47, 30 / 47])
    assert f["net_points"] == pytest.approx([-32 / 47, -30 / 47])
    assert f["count_after"].tolist() == [21, 14] and f["card_value"].tolist() == [10, 3]
    assert f["pair_backup"].tolist() == [0, 0]  # not a lead
    assert f["low_cards_left"].tolist() == [1, 0]  # laying the king keeps the 3
    lead = dict(zip(PEG_FEATURE_NAMES, peg_features(view("4D 4S 9C")).T, strict=True))
    assert lead["pair_backup"].tolist() == [1, 1, 0]  # a four led with a four behind it
    assert lead["points_now"].tolist() == [0, 0, 0]


def test_the_grade_is_the_mean_of_the_three_contributions() -> None:
    policy = FuzzyPegging(resolve_rulebase(PEG_RULEBASE))
    grades, _ = policy.judge(view("KC 3D", count="6C 5C"))
    # net_points reads back as itself (terms peak at -6, -2, 0, 2, 6, 12 and conclude the
    # same); one low card left is half "none" (0), half "some" (0.15).
    assert grades == pytest.approx([(-32 / 47 + 0 + 0.075) / 3, (-30 / 47 + 0 + 0) / 3])
    # So the rule base keeps the 3 back where greedy lays it.
    assert policy(view("KC 3D", count="6C 5C"), RNG) == 0
    assert greedy(view("KC 3D", count="6C 5C"), RNG) == 1
    fired = {r.output_term: r.strength
             for r in policy.explain(view("KC 3D", count="6C 5C"), 0).rules if r.strength > 0}
    # Explained rule by rule: net -0.68 is 0.66 "even" and 0.34 "behind".
    assert fired["lose_two"] == pytest.approx(16 / 47)
    assert fired["low_card_kept"] == pytest.approx(0.5)


def test_players_peg_with_the_rule_base() -> None:
    plain = make_player("exhaustive", pegging="fuzzy")
    assert isinstance(plain.policy, FuzzyPegging)
    assert plain.policy.rulebase.name == "cribbage_pegging"
    named = make_player("fuzzy", rulebase="cribbage_pegging")  # the calibrator's spelling
    assert isinstance(named.policy, FuzzyPegging) and named.logged_kinds == {"play"}
    with pytest.raises(ValueError, match="peg_rulebase is read only with pegging=fuzzy"):
        make_player("exhaustive", peg_rulebase="cribbage_pegging")
    with pytest.raises(ValueError, match="not cribbage pegging features"):
        make_player("exhaustive", pegging="fuzzy", peg_rulebase="cribbage_linguistic")


def test_its_pegging_decisions_are_logged_with_their_features() -> None:
    player = make_player("fuzzy", rulebase="cribbage_pegging")
    record = play_game(GAME, (player, make_player("greedy")), seed=5, index=0)
    plays = [d for d in record.decisions if d.kind == "play"]
    assert plays and {d.seat for d in plays} == {0}  # the greedy seat logs no plays
    assert all(set(d.features) == set(PEG_FEATURE_NAMES) for d in plays)
    assert all("count" in d.record for d in plays)


def test_calibration_moves_the_pegging_points(tmp_path: Path) -> None:
    source = find_rulebase("cribbage_pegging").read_text()
    settings = CalibrationSettings("cribbage", "greedy", 8, 11)
    with History(tmp_path / "c.sqlite") as h:
        cal = run_calibration(h, GAME, settings, source, rounds=1)
    moves = cal.results[0].moves
    moved = {f"{m.variable}.{m.term}.{m.point}" for m in moves if m.shift != 0}
    # Eq. 1 moves each adjustable point toward the mean input in won games: both
    # variables' points have won decisions to move toward.
    assert any(name.startswith("net_points.") for name in moved)
    assert any(name.startswith("low_cards_left.") for name in moved)


def test_the_calibrate_command_takes_the_pegging_base(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    db = tmp_path / "peg.sqlite"
    result = CliRunner().invoke(app, [
        "calibrate", "cribbage", "--rulebase", "cribbage_pegging", "--rounds", "1",
        "--games-per-round", "4", "--held-out-deals", "5", "-w", "1", "--db", str(db),
        "--plot", str(tmp_path / "drift.png")])
    # The held-out measure is the discard efficiency: there is none for a pegging base,
    # which used to end the command with an error after its rounds.
    assert result.exit_code == 0, result.output
    assert "calibrated rule base" in result.output
    assert (tmp_path / "peg.calibrated.yaml").is_file()


def test_a_match_of_the_pegging_base_records_the_default_it_reads(tmp_path: Path) -> None:
    """pegging=fuzzy reads the shipped pegging base when none is named: its content is in
    the match's fingerprint, as if named, so a changed base is never resumed into."""
    import json

    from fuzzeval.play.match import MatchSpec, fingerprint
    from fuzzeval.play.spec import PlayerSpec

    def prints(player: str) -> dict[str, dict[str, str]]:
        spec = MatchSpec("cribbage", PlayerSpec.parse(player), PlayerSpec("exhaustive"), 2, 1)
        return json.loads(fingerprint(spec, GAME))  # type: ignore[no-any-return]

    named = prints("exhaustive:pegging=fuzzy,peg_rulebase=cribbage_pegging")
    assert "peg_rulebase" in named["player"]
    assert prints("exhaustive:pegging=fuzzy") == named
    assert prints("sampling:rollout=fuzzy") == named
    assert "player" not in prints("exhaustive")  # greedy pegging reads no file
    # Named as a fuzzy player's rule base, the pegging base pegs, and the default discard
    # base throws: both are recorded.
    assert set(prints("fuzzy:rulebase=cribbage_pegging")["player"]) == {
        "rulebase", "discard_rulebase"}
    edited = tmp_path / "peg.yaml"
    edited.write_text(find_rulebase("cribbage_pegging").read_text()
                      .replace("low_cards_kept: 0.3", "low_cards_kept: 0.4"))
    assert prints(f"exhaustive:pegging=fuzzy,peg_rulebase={edited}") != named
