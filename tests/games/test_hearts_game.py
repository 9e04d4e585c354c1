"""Hearts as a game plug-in: four seats paid points per hand (fewer is better), the deal
going round the table, duplicate blocks, longer games to a target, and its export."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.hearts import record, rules
from fuzzeval.games.hearts.cards import cards_of, parse_card
from fuzzeval.games.hearts.game import GAME
from fuzzeval.play.match import MatchSpec, play_indexed
from fuzzeval.play.replay import initial_state
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.testing import check_game


@pytest.mark.parametrize("options", [{}, {"rules": "sturtevant-white"}, {"target": 60}])
def test_hearts_passes_the_conformance_check(options: dict[str, object]) -> None:
    report = check_game(_With(options), games=4)
    kinds = {"play"} if options.get("rules") == "sturtevant-white" else {"pass", "play"}
    assert set(report.kinds) >= kinds


class _With:
    """GAME with fixed options (check_game plays new_game with none)."""

    def __init__(self, options: dict[str, object]) -> None:
        self.options = options
        # Sturtevant & White's variant never passes, so only its plays can come up
        self.logged_kinds = frozenset({"play"}) if options.get("rules") else \
            GAME.logged_kinds

    def __getattr__(self, name: str) -> object:
        return getattr(GAME, name)

    def new_game(self, rng: np.random.Generator, first: int) -> object:
        return GAME.new_game(rng, first, **self.options)

    def logged_kinds_for(self, **options: object) -> frozenset[str]:
        return GAME.logged_kinds_for(**{**self.options, **options})


def test_seat_first_receives_the_first_hand_of_the_deal() -> None:
    dealt = rules.deal(np.random.default_rng(5))
    for first in range(4):
        state = GAME.new_game(np.random.default_rng(5), first)
        assert state.hand.dealt == tuple(dealt[(s - first) % 4] for s in range(4))


def test_a_duplicate_block_plays_one_deal_from_every_seat_with_one_pass() -> None:
    starts = [initial_state(GAME, 3, i, i % 4, duplicate=True) for i in range(8)]
    hands = [s.hand for s in starts]
    for r in range(4):
        assert hands[r].dealt == tuple(hands[0].dealt[(k - r) % 4] for k in range(4))
        assert hands[r].direction == hands[0].direction
    assert hands[4].dealt != hands[0].dealt


def test_a_one_hand_game_draws_its_pass_direction_after_the_deal() -> None:
    """After shuffling the deck, the chance stream draws a hand number 0-3 (OpenSpiel's
    first chance node): 0 passes left, 1 right, 2 across, 3 keeps. Seeds 0, 1, 2 and 4 draw
    0, 3, 2 and 1 (numpy's own draws, below); a game to a target starts by passing left."""
    drawn = []
    for seed in (0, 1, 2, 4):
        rng = np.random.default_rng(seed)
        rng.permutation(52)  # the deal
        drawn.append(int(rng.integers(4)))
    assert drawn == [0, 3, 2, 1]
    directions = [GAME.new_game(np.random.default_rng(seed), 0).hand.direction
                  for seed in (0, 1, 2, 4)]
    assert [rules.DIRECTION_NAMES[d] for d in directions] == ["left", "none", "across",
                                                              "right"]
    assert GAME.new_game(np.random.default_rng(1), 0).hand.phase == "play"  # nothing passed
    longer = GAME.new_game(np.random.default_rng(1), 0, target=100).hand
    assert (rules.DIRECTION_NAMES[longer.direction], longer.hand_number) == ("left", 0)


def test_what_a_seat_has_taken_so_far_is_its_points_in_the_tricks_it_took() -> None:
    """``payoff_so_far`` (TD learning's rewards on the way): seat 0 holds every club and
    leads them all (Sturtevant & White's rules, the first card each time), so it takes every trick;
    seat 1, void, throws a heart on each, seat 3 a spade, the QS on the 11th trick. Seat 0
    has 1 point after a trick, 24 after 11 and 26 at the end: what it took, not the hand's
    score after its moon shot (0); the others took none. A game to a target pays at its
    end only."""
    from fuzzeval.games.hearts.cards import mask_of
    from fuzzeval.games.hearts.game import State

    clubs, hearts, diamonds, spades = (mask_of(4 * r + s for r in range(13)) for s in range(4))
    suited = (clubs, hearts, diamonds, spades)
    state = State(rules.new_hand(suited, rules.STURTEVANT_WHITE))
    rng = np.random.default_rng(0)
    seen = {}  # after each trick
    for move in range(1, 53):
        state = GAME.apply(state, 0, rng)
        if move % 4 == 0:
            seen[move // 4] = [GAME.payoff_so_far(state, s) for s in range(4)]
    assert seen[1] == [1.0, 0.0, 0.0, 0.0]
    assert seen[11] == [24.0, 0.0, 0.0, 0.0]
    assert seen[13] == [26.0, 0.0, 0.0, 0.0]
    assert GAME.outcome(state).payoffs == (0.0, 26.0, 26.0, 26.0)
    longer = State(rules.new_hand(suited, rules.Options(False, False, False, True, 100)))
    for _ in range(4):
        longer = GAME.apply(longer, 0, rng)
    assert longer.hand.taken[0] == 1 and GAME.payoff_so_far(longer, 0) == 0.0


def test_a_game_to_a_target_pays_its_total_over_the_hands_played() -> None:
    spec = MatchSpec("hearts", PlayerSpec("heuristic"), PlayerSpec("random"), 1, 2,
                     (("target", 100),))
    o = play_indexed(GAME, spec, 0).outcome
    assert max(o.scores) >= 100 and o.units >= 4 and o.winner is None
    assert tuple(sum(u[k] for u in o.unit_points) for k in range(4)) == o.scores
    assert o.payoffs == pytest.approx([s / o.units for s in o.scores])
    assert all(sum(u) in (26, 78) for u in o.unit_points)  # 78: a moon shot


def _match(tmp_path: Path, *extra: str) -> dict[str, object]:
    db = str(tmp_path / "h.sqlite")
    result = CliRunner().invoke(app, ["match", "hearts", "-p", "heuristic", "--opponent",
                                      "random", "-n", "8", "--json", "--db", db, "-w", "1",
                                      *extra])
    assert result.exit_code == 0, result.output
    out: dict[str, object] = json.loads(result.stdout)
    return out


def test_a_hearts_match_reports_points_per_hand_and_exports_every_card(
        tmp_path: Path) -> None:
    summary = _match(tmp_path, "--duplicate")
    assert summary["unit"] == "points per hand" and "win_rate" not in summary
    exported = CliRunner().invoke(app, ["history", "export", str(tmp_path / "h.sqlite")])
    games = [json.loads(line) for line in exported.stdout.splitlines()]
    assert len(games) == 8 and summary["seats"] == ["heuristic", "random", "random", "random"]
    paid = [g["payoffs"] for g in games]
    assert summary["mean"] == pytest.approx(sum(p[0] for p in paid) / 8)
    assert all(sum(p) in (26, 78) for p in paid)
    for g in games:
        events = g["events"]
        deals = [e for e in events if e.get("chance") == "deal"]
        assert sorted(c for e in deals for c in e["cards"]) == sorted(
            rules_card for rules_card in _deck())
        (direction,) = [e["direction"] for e in events if e.get("chance") == "pass"]
        passes = [e for e in events if e.get("kind") == "pass"]
        plays = [e for e in events if e.get("kind") == "play"]
        assert len(passes) == (0 if direction == "none" else 12) and len(plays) == 52
        # the same hand through the rules' own record of it
        dealt = tuple(sum(1 << parse_card(c) for c in d["cards"]) for d in deals)
        direction_number = rules.DIRECTION_NAMES.index(direction)
        number = rules.PASS_CYCLE.index(direction_number)
        state = rules.new_hand(dealt, rules.STANDARD, number)  # type: ignore[arg-type]
        for e in passes + plays:  # each decision the seat to move's, with its options
            assert (e["seat"], e["kind"]) == (state.to_move, state.kind)
            assert e["options"] == rules.legal_mask(state).bit_count()
            state = rules.apply(state, parse_card(e["choice"]))
        final = record.replay(dealt, [parse_card(e["choice"]) for e in passes + plays],
                              rules.STANDARD, number)
        assert final == state and list(rules.hand_points(final)) == g["payoffs"]


def _deck() -> list[str]:
    from fuzzeval.games.hearts.cards import card_str

    return [card_str(c) for c in cards_of((1 << 52) - 1)]


@pytest.mark.parametrize(("args", "message"), [
    (["--option", "rules=house"], "rules must be one of standard, sturtevant-white"),
    (["--option", "target=-5"], "target is a whole number of points >= 0"),
    (["--option", "jokers=2"], "unknown hearts options ['jokers']"),
    (["--opponent", "heuristic:depth=2"], "does not take options ['depth']"),
    (["--duplicate", "-n", "6"], "-n 6 is not a multiple of 4"),
    (["--seats", "heuristic,random"], "--seats names 2 players; hearts seats 4"),
])
def test_bad_hearts_match_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str],
                                                       message: str) -> None:
    result = CliRunner().invoke(app, ["match", "hearts", "-p", "heuristic", "-n", "4",
                                      "--db", str(tmp_path / "x.sqlite"), *args]
                                if "--seats" not in args else
                                ["match", "hearts", "-n", "4", "--db",
                                 str(tmp_path / "x.sqlite"), *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_a_stored_hearts_game_is_listed_and_shown_seat_by_seat(tmp_path: Path) -> None:
    """history show seated two players and failed on a third seat (IndexError)."""
    db = str(tmp_path / "h.sqlite")
    played = CliRunner().invoke(app, ["match", "hearts", "-p", "heuristic", "--opponent",
                                      "random", "-n", "4", "--db", db, "-w", "1"])
    assert played.exit_code == 0, played.output
    listed = CliRunner().invoke(app, ["history", "show", db])
    assert listed.exit_code == 0, listed.output
    assert ("heuristic (seat 0), random (seat 1), random (seat 2), random (seat 3)"
            in " ".join(listed.output.split()))  # wrapped at 80 columns
    rows = [line.split() for line in listed.output.splitlines()
            if line.strip()[:1].isdigit()]
    assert [r[0] for r in rows] == ["0", "1", "2", "3"]
    games = [json.loads(line) for line in CliRunner().invoke(
        app, ["history", "export", db]).stdout.splitlines()]
    for row, g in zip(rows, games, strict=True):
        assert "nobody" in row and "–".join(map(str, g["scores"])) in row
    shown = CliRunner().invoke(app, ["history", "show", db, "--game", "3"])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    plays = [x for x in lines if re.fullmatch(r" *\d+\. .+ laid [2-9TJQKA][CDHS]", x)]
    assert len(plays) == 52 and "random (seat 3)" in shown.output
    final = ", ".join(f"{n} {s}" for n, s in zip(
        ["heuristic", "random (seat 1)", "random (seat 2)", "random (seat 3)"],
        games[3]["scores"], strict=True))
    assert " ".join(shown.output.split()).endswith(f"final score {final}")


def test_a_hearts_calibration_is_evaluated_by_the_table_beaten_and_points_per_hand(
        tmp_path: Path) -> None:
    """evaluate-calibration formatted a win rate a game without winners does not have
    (TypeError on None)."""
    db = str(tmp_path / "c.sqlite")
    made = CliRunner().invoke(app, ["calibrate", "hearts", "--opponent", "heuristic",
                                    "--rounds", "1", "--games-per-round", "8",
                                    "--held-out-deals", "0", "--db", db, "-w", "1"])
    assert made.exit_code == 0, made.output
    shown = CliRunner().invoke(app, ["evaluate-calibration", db, "-n", "8", "-w", "1"])
    assert shown.exit_code == 0, shown.output
    assert "beat the table's mean" in shown.output and "points per hand" in shown.output
    out = json.loads(CliRunner().invoke(
        app, ["evaluate-calibration", db, "-n", "8", "-w", "1", "--json"]).stdout)
    before, after = out["initial"], out["calibrated"]
    assert "win_rate" not in before and before["unit"] == "points per hand"
    assert out["payoff_difference"] == pytest.approx(after["mean"] - before["mean"])
