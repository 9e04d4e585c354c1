"""Long work says how long: the estimate's arithmetic, the stopwatch's timing of the first
games and a tournament's pairing-by-pairing estimate, all with a fake clock (no timed
test). Expected values are worked by hand in each test."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.estimate import Estimate, Part, Stopwatch, duration, estimate
from fuzzeval.play.match import GameRecord
from fuzzeval.play.store import History
from fuzzeval.play.tournament import run_tournament


def test_each_part_goes_at_its_own_rate() -> None:
    # 4 games in 2 s (0.5 s a game), 96 left: 48 s; 2 games in 10 s (5 s), 98 left: 490 s
    guess = estimate([Part(4, 2.0, 96), Part(2, 10.0, 98)])
    assert guess == Estimate(538.0, 194, 6)
    assert guess.line() == "estimate: about 9 min for the 194 games still to play (from 6 timed)"


def test_a_part_with_nothing_timed_goes_at_the_mean_rate() -> None:
    # rates 0.5 and 5 s a game: mean 2.75; 50 games untimed: 137.5 s more
    guess = estimate([Part(4, 2.0, 96), Part(2, 10.0, 98), Part(0, 0.0, 50)])
    assert guess == Estimate(675.5, 244, 6)
    assert estimate([Part(0, 0.0, 50)]) is None and estimate([]) is None


@pytest.mark.parametrize(("seconds", "said"), [
    (0.2, "1 s"), (45, "45 s"), (89.4, "89 s"), (95, "2 min"), (600, "10 min"),
    (5399, "90 min"), (12_240, "3.4 h")])
def test_durations_are_as_precise_as_an_estimate(seconds: float, said: str) -> None:
    assert duration(seconds) == said


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_stopwatch_skips_the_first_game_and_says_once() -> None:
    clock, said = FakeClock(), list[str]()
    watch = Stopwatch(100, said.append, clock=clock)
    clock.now = 10.0  # the first game also started the workers: not timed
    watch.tick()
    for _ in range(4):  # then 1 s a game
        clock.now += 1
        watch.tick()
    # 4 games in 4 s (past the 3 s to settle): 95 games left at 1 s = 95 s; 14 + 95 > 60
    assert said == ["estimate: about 2 min for the 95 games still to play (from 4 timed)"]
    for _ in range(10):
        clock.now += 1
        watch.tick()
    assert len(said) == 1


def test_the_stopwatch_is_quiet_for_a_run_of_under_a_minute() -> None:
    clock, said = FakeClock(), list[str]()
    watch = Stopwatch(50, said.append, clock=clock)
    for _ in range(50):  # decided at 5 s: 4 games timed, 45 left at 1 s; 5 + 45 < 60
        clock.now += 1
        watch.tick()
    assert said == []


def test_the_stopwatch_waits_for_batches_to_settle() -> None:
    """Quick games come back in batches: ten ending at once are not a rate of zero."""
    clock, said = FakeClock(), list[str]()
    watch = Stopwatch(1000, said.append, clock=clock)
    clock.now = 1.0
    for _ in range(11):  # the first, then ten at the same moment
        watch.tick()
    assert said == [] and not watch.decided
    clock.now = 5.0  # one more, 4 s after the first: 11 games in 4 s
    watch.tick()
    # 1000 - 1 - 11 = 988 games left at 4/11 s = 359.3 s: about 6 min
    assert said == ["estimate: about 6 min for the 988 games still to play (from 11 timed)"]


def test_a_tournament_estimates_each_pairing_at_its_own_rate(tmp_path: Path) -> None:
    """Pairings cost 1, 2 and 3 s a game on the fake clock: 10 games a pairing, 2 to warm
    up and 3 timed, so 5 games a pairing are left: (1 + 2 + 3) x 5 = 30 s. The warm-up's
    cost (10 s a pairing here) is not counted. And the games are those of a tournament
    played without an estimate."""
    clock = FakeClock()
    cost = {(0, 1): 1.0, (0, 2): 2.0, (1, 2): 3.0}
    counted: dict[tuple[int, int], int] = dict.fromkeys(cost, 0)
    guesses: list[Estimate | None] = []

    def ended(pair: tuple[int, int], _record: GameRecord) -> None:
        counted[pair] += 1
        clock.now += 10.0 if counted[pair] <= 2 else cost[pair]

    players = ("random", "greedy", "fuzzy")
    with History(tmp_path / "t.sqlite") as h:
        timed = run_tournament(h, GAME, players, 10, 4, on_game=ended,
                               on_estimate=guesses.append, warm_up=2, timed_games=3,
                               clock=clock)
    assert guesses == [Estimate(30.0, 15, 9)]
    assert counted == dict.fromkeys(cost, 10)  # every game once, the probe's included
    with History(tmp_path / "plain.sqlite") as h:
        plain = run_tournament(h, GAME, players, 10, 4)
    assert timed.results == plain.results


def test_tournament_says_its_total_and_its_estimate_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's lines on stderr (any run counts as long here), before the table."""
    from typer.testing import CliRunner

    from fuzzeval.cli import app

    monkeypatch.setattr("fuzzeval.play.estimate.LONG", -1.0)
    db = tmp_path / "t.sqlite"
    args = ["tournament", "cribbage", "-p", "random", "-p", "greedy", "-p", "es", "-n", "20",
            "-w", "1", "--db", str(db), "--plot", str(tmp_path / "t.png")]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    total, guess = [line for line in done.stderr.splitlines() if line]  # the bar leaves ""
    assert total == f"3 players, 3 pairings of 20 games: 60 games (0 stored in {db})"
    # 3 games a pairing warm up, 9 are timed: 8 a pairing are left
    assert guess.startswith("estimate: about ")
    assert guess.endswith(" for the 24 games still to play (from 27 timed)")
    again = CliRunner().invoke(app, args)  # all stored: nothing to estimate, nothing played
    assert again.exit_code == 0
    assert again.stderr.strip() == (
        f"3 players, 3 pairings of 20 games: 60 games (60 stored in {db})")
