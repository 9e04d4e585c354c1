"""Hold'em as a game plug-in: two seats paid small bets per hand, the button going round
the table, duplicate blocks that swap the cards between the seats, chance events, and a
match run end to end from the command line and exported as ACPC hand logs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.holdem import rules
from fuzzeval.games.holdem.game import GAME, State
from fuzzeval.games.holdem.players import Decision
from fuzzeval.games.holdem.rules import parse_betting
from fuzzeval.play.replay import initial_state
from fuzzeval.play.testing import check_game
from tests.games.test_holdem_rules import deal

runner = CliRunner()


def test_holdem_passes_the_conformance_check() -> None:
    report = check_game(GAME, games=20)
    assert report.kinds == {"bet"} and report.decisions > 40


def test_the_first_seat_has_the_button_and_acts_first() -> None:
    for first in (0, 1):
        state = GAME.new_game(np.random.default_rng(3), first)
        assert state.button == first and GAME.to_move(state) == first
        assert state.position(first) == rules.BUTTON and state.seat(rules.BIG) == 1 - first
        cands = GAME.candidates(state)
        assert list(cands.labels) == ["fold", "call", "raise"]
        assert isinstance(cands.view, Decision)
        assert cands.view.position == 1 and cands.view.board == ()
        assert cands.record["round"] == "preflop"


def test_the_labels_say_check_bet_call_and_raise() -> None:
    state = GAME.new_game(np.random.default_rng(3), 0)
    state = GAME.apply(state, 1, np.random.default_rng(0))  # the button calls
    assert list(GAME.candidates(state).labels) == ["check", "raise"]  # the big blind
    state = GAME.apply(state, 0, np.random.default_rng(0))  # checks: the flop
    cands = GAME.candidates(state)
    assert isinstance(cands.view, Decision)
    assert list(cands.labels) == ["check", "bet"] and len(cands.view.board) == 3
    assert GAME.to_move(state) == 1  # seat 1, the big blind, opens the flop
    state = GAME.apply(state, 1, np.random.default_rng(0))
    assert list(GAME.candidates(state).labels) == ["fold", "call", "raise"]


def test_a_duplicate_block_swaps_the_cards_between_the_seats() -> None:
    a = initial_state(GAME, 5, 0, 0, duplicate=True)
    b = initial_state(GAME, 5, 1, 1, duplicate=True)
    assert a.deal == b.deal  # the same cards by position...
    assert a.deal.holes[a.position(0)] == b.deal.holes[b.position(1)]  # ...so seats swap
    assert a.deal.holes[a.position(1)] == b.deal.holes[b.position(0)]
    assert initial_state(GAME, 5, 2, 0, duplicate=True).deal != a.deal


def test_a_hand_deals_the_first_nine_cards_of_its_shuffle_by_position() -> None:
    """The chance stream's shuffle of the 52 cards: its first two to position 0 (the big
    blind), the next two to position 1 (the button), then the board; whoever sits where."""
    cards = np.random.default_rng(1).permutation(52)[:9].tolist()
    for first in (0, 1):
        state = GAME.new_game(np.random.default_rng(1), first)
        assert state.deal.holes == ((cards[0], cards[1]), (cards[2], cards[3]))
        assert state.deal.board == tuple(cards[4:])
        assert state.deal.holes[state.position(first)] == (cards[2], cards[3])


def test_the_outcome_is_chips_in_small_bets_by_seat() -> None:
    d = deal("AsAh|QcJd/9h9d2s/Ks/4c")
    # seat 1 has the button, so seat 0 is position 0 with the aces
    done = State(d, parse_betting("rc/rc/rc/rc"), 1)
    o = GAME.outcome(done)
    assert o.scores == (70, -70) and o.payoffs == (7.0, -7.0) and o.winner is None
    folded = State(d, parse_betting("f"), 0)  # seat 0 on the button folds its blind
    assert GAME.outcome(folded).payoffs == (-0.5, 0.5)
    split = State(deal("2c3d|4h5c/AsKsQs/Js/Ts"), parse_betting("cc/cc/cc/cc"), 0)
    assert GAME.outcome(split).payoffs == (0.0, 0.0)


def test_chance_events_deal_then_the_board_as_it_comes() -> None:
    rng = np.random.default_rng(1)
    state = GAME.new_game(rng, 1)
    events = GAME.chance_events(None, state)
    assert [(e["seat"], e["position"]) for e in events] == [(0, 0), (1, 1)]
    assert events[0]["cards"] == [f"{c}" for c in _names(state.deal.holes[0])]
    called = GAME.apply(state, 1, rng)
    assert GAME.chance_events(state, called) == []
    flop = GAME.apply(called, 0, rng)
    assert GAME.chance_events(called, flop) == [
        {"chance": "flop", "cards": _names(state.deal.board[:3])}]


def _names(cards: tuple[int, ...]) -> list[str]:
    from fuzzeval.games.holdem.cards import card_str

    return [card_str(c) for c in cards]


def _match(db: Path, *args: str) -> dict[str, object]:
    result = runner.invoke(app, ["match", "holdem", "--json", "--db", str(db), "-w", "1",
                                 *args])
    assert result.exit_code == 0, result.output
    out: dict[str, object] = json.loads(result.stdout)
    return out


def test_a_duplicate_match_of_two_calling_stations_is_exactly_even(tmp_path: Path) -> None:
    """Both call down every hand: each pair of games pays the same chips both ways."""
    summary = _match(tmp_path / "c.sqlite", "-p", "call", "--opponent", "call",
                     "--duplicate", "-n", "40")
    assert summary["mean"] == 0.0 and summary["ci95"] == [0.0, 0.0]
    games = [json.loads(line) for line in runner.invoke(
        app, ["history", "export", str(tmp_path / "c.sqlite")]).stdout.splitlines()]
    assert any(g["payoffs"][0] != 0 for g in games)  # hands are won and lost...
    for a, b in zip(games[::2], games[1::2], strict=True):
        assert a["payoffs"][0] == -b["payoffs"][0]  # ...and given back in the pair


def test_call_against_random_end_to_end_and_its_acpc_log(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    summary = _match(db, "-p", "call", "--opponent", "random", "--duplicate", "-n", "200")
    assert summary["unit"] == "small bets per hand" and summary["games"] == 200
    assert "win_rate" not in summary
    games = [json.loads(line) for line in runner.invoke(
        app, ["history", "export", str(db)]).stdout.splitlines()]
    assert summary["mean"] == pytest.approx(sum(g["payoffs"][0] for g in games) / 200)
    log = tmp_path / "h.log"
    exported = runner.invoke(app, ["history", "export", str(db), "--format", "acpc",
                                   "-o", str(log)])
    assert exported.exit_code == 0, exported.output
    lines = log.read_text().splitlines()
    assert len(lines) == 200 and all(line.startswith(f"STATE:{i}:")
                                     for i, line in enumerate(lines))
    for line, g in zip(lines, games, strict=True):
        names = line.rsplit(":", 1)[1].split("|")
        chips = [int(c) for c in line.split(":")[4].split("|")]
        button = g["first"]  # the seat on the button sits at position 1
        assert names == [g["seats"][1 - button], g["seats"][button]]
        assert chips == [g["scores"][1 - button], g["scores"][button]]
    replayed = runner.invoke(app, ["holdem", "replay", str(log), "--json"])
    assert replayed.exit_code == 0, replayed.output
    players = {p["player"]: p for p in json.loads(replayed.stdout)["players"]}
    assert players["call"]["small_bets_per_hand"] == pytest.approx(summary["mean"])
    assert players["random"]["hands"] == 200


def test_an_acpc_log_of_several_matches_numbers_its_hands_on_and_says_so(
        tmp_path: Path) -> None:
    """Each match's hands were numbered from 0: a log of two matches repeated its hand
    numbers, and nothing in it said it held two. Now the second match's hands follow the
    first's, and comment lines at the top name the matches."""
    db = tmp_path / "two.sqlite"
    _match(db, "-p", "call", "--opponent", "random", "--duplicate", "-n", "4")
    _match(db, "-p", "call", "--opponent", "random", "--duplicate", "-n", "2", "--seed", "2")
    log = tmp_path / "two.log"
    exported = runner.invoke(app, ["history", "export", str(db), "--format", "acpc",
                                   "-o", str(log)])
    assert exported.exit_code == 0, exported.output
    lines = log.read_text().splitlines()
    assert lines[:3] == [
        f"# 2 matches of {db}, numbered on through the file:",
        "# match 1 (holdem, call against random, seed 1): 0 to 3, its games 0 to 3",
        "# match 2 (holdem, call against random, seed 2): 4 to 5, its games 0 to 1"]
    assert [line.split(":")[1] for line in lines[3:]] == ["0", "1", "2", "3", "4", "5"]
    alone = runner.invoke(app, ["history", "export", str(db), "--format", "acpc",
                                "--match", "2"]).stdout.splitlines()  # no comment: one match
    assert [line.split(":", 2)[2] for line in alone] == \
        [line.split(":", 2)[2] for line in lines[7:]]
    assert [line.split(":")[1] for line in alone] == ["0", "1"]
    replayed = runner.invoke(app, ["holdem", "replay", str(log), "--json"])
    assert replayed.exit_code == 0, replayed.output
    assert {p["player"]: p["hands"] for p in json.loads(replayed.stdout)["players"]} == \
        {"call": 6, "random": 6}
    games = [json.loads(line) for line in runner.invoke(
        app, ["history", "export", str(db)]).stdout.splitlines()]  # each names its match
    assert [(g["match"], g["index"], g["seed"]) for g in games] == [
        (1, 0, 1), (1, 1, 1), (1, 2, 1), (1, 3, 1), (2, 0, 2), (2, 1, 2)]


def test_an_unknown_export_format_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "h.sqlite"
    _match(db, "-p", "call", "--opponent", "random", "-n", "2")
    result = runner.invoke(app, ["history", "export", str(db), "--format", "xml"])
    assert result.exit_code == 2
    assert "--format 'xml': jsonl or json, or a game's log format (acpc)" in result.output
    runner.invoke(app, ["match", "hearts", "-p", "random", "--opponent", "random", "-n",
                        "1", "--db", str(db), "-w", "1"])
    result = runner.invoke(app, ["history", "export", str(db), "--format", "acpc"])
    assert result.exit_code == 2
    assert "hearts games are written as jsonl or json" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--option", "stack=100"], "unknown holdem options ['stack']"),
    (["--opponent", "call:depth=2"], "does not take options ['depth']"),
    (["--opponent", "loki"], "unknown holdem player 'loki'"),
    (["--duplicate", "-n", "3"], "-n 3 is not a multiple of 2"),
])
def test_bad_holdem_match_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str],
                                                       message: str) -> None:
    result = runner.invoke(app, ["match", "holdem", "-p", "call", "-n", "4", "--db",
                                 str(tmp_path / "x.sqlite"), *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_a_holdem_round_robin_reports_small_bets_per_hand(tmp_path: Path) -> None:
    """A two-seat game without winners stopped the round robin with a traceback (cells
    were win rates only); its cells are the row player's mean payoff."""
    from fuzzeval.play.store import History
    from fuzzeval.play.tournament import run_tournament

    with History(tmp_path / "t.sqlite") as history:
        t = run_tournament(history, GAME, ["call", "random"], 10, 3)
    s = t.results[(0, 1)]
    assert s.win_rate is None and t.cell(0, 1) == (s.mean, s.ci95)
    mean, (lo, hi) = s.mean, s.ci95
    assert mean != 0 and t.cell(1, 0) == (-mean, (-hi, -lo))  # hold'em is zero-sum
    result = runner.invoke(app, ["tournament", "holdem", "-p", "call", "-p", "random", "-n",
                                 "10", "--seed", "3", "-w", "1", "--db",
                                 str(tmp_path / "t.sqlite"), "--plot",
                                 str(tmp_path / "t.png")])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # the title wraps at 80 columns
    assert "small bets per hand" in text and f"{-mean:.2f}" in text
