"""Long work says how long: the estimate's arithmetic, the stopwatch's timing of the first
games, a tournament's pairing-by-pairing estimate and the lines tune and calibrate say, all
with a fake clock or none (no timed test). Expected values are worked by hand in each test."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.estimate import Estimate, Part, Stopwatch, duration, estimate
from fuzzeval.play.match import GameRecord
from fuzzeval.play.store import History
from fuzzeval.play.tournament import run_tournament

runner = CliRunner()  # the commands' estimate lines


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


@pytest.mark.mutation_pin
def test_durations_below_90_seconds_are_in_seconds_from_90_in_minutes() -> None:
    assert duration(89.4) == "89 s"
    assert duration(90) == "2 min"  # 1.5 min, rounded half to even


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
    for _ in range(8):  # then 1 s a game: at 18 s the later half of 8 games is 3 games
        clock.now += 1
        watch.tick()
    assert said == []
    clock.now += 1  # 19 s: 9 games; the later half, after the game of 15 s, is 4 games in
    watch.tick()  # 4 s, the later quarter (after 17 s) 2 in 2 s: steady at 1 s a game
    # 100 - 1 - 9 = 90 games left at 1 s: 90 s, shown in minutes from 90 s on
    assert said == ["estimate: about 2 min for the 90 games still to play (from 4 timed)"]
    for _ in range(10):
        clock.now += 1
        watch.tick()
    assert len(said) == 1


def test_the_stopwatch_is_quiet_for_a_run_of_under_a_minute() -> None:
    clock, said = FakeClock(), list[str]()
    watch = Stopwatch(50, said.append, clock=clock)
    for _ in range(50):  # decided at 14 s: 36 games left at 1 s; 14 + 36 < 60
        clock.now += 1
        watch.tick()
    assert said == [] and watch.decided


def test_the_stopwatch_waits_for_batches_to_settle() -> None:
    """Quick games come back in batches: ten ending at once are not a rate of zero."""
    clock, said = FakeClock(), list[str]()
    watch = Stopwatch(1000, said.append, clock=clock)
    watch.tick()  # the first, at 0 s
    for batch in range(1, 4):  # then ten every 2 s, at 2, 4 and 6 s
        clock.now = 2.0 * batch
        for _ in range(10):
            watch.tick()
    # at 6 s the later half of the games starts in the batch of 4 s: 2 s, under the 3 s
    # to settle
    assert said == [] and not watch.decided
    clock.now = 8.0
    watch.tick()
    # 31 games: the later half after game 15 (4 s), 15 games in 4 s; the later quarter
    # after game 23 (6 s), 7 in 2 s: 0.267 and 0.286 s a game, steady.
    # 1000 - 1 - 31 = 968 games left at 4/15 s = 258 s: about 4 min
    assert said == ["estimate: about 4 min for the 968 games still to play (from 15 timed)"]


def test_a_cold_start_is_not_the_runs_speed() -> None:
    """The first games of a cold start compile kernels in every worker: five games at 5 s,
    then 1 s a game. The estimate is made from the warm games, within a fifth of the true
    time left (made from the first games it said 82 min for about 16)."""
    clock, said = FakeClock(), list[str]()
    watch = Stopwatch(1000, said.append, clock=clock)
    clock.now = 10.0
    watch.tick()
    ends = [10.0 + 5 * k for k in range(1, 6)] + [35.0 + k for k in range(1, 995)]
    played = 0
    for end in ends:
        clock.now = end
        watch.tick()
        played += 1
        if said:
            break
    left = 1000 - 1 - played
    match = re.fullmatch(r"estimate: about (\d+) min for the ([\d,]+) games still to "
                         r"play \(from \d+ timed\)", said[0])
    assert match is not None, said
    assert int(match[2].replace(",", "")) == left
    assert 0.8 * left <= 60 * int(match[1]) <= 1.2 * left, (match[1], left)


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


def test_tune_says_how_long_its_generations_will_take(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """tune ran for minutes without a word; now it estimates from its first generations
    (any run counts as long here). 27 numbers: 13 rule bases a generation, so a budget of
    131 is the start and 10 generations: the first is not timed; after 5 more, the later
    half of them (after the second) are 2 timed, and 4 are left."""
    monkeypatch.chdir(tmp_path)  # the default pictures (plots/...) go there

    monkeypatch.setattr("fuzzeval.play.estimate.LONG", -1.0)
    monkeypatch.setattr("fuzzeval.play.estimate.STEADY", float("inf"))

    class Unsettled(Stopwatch):
        """No settling time and 1 game enough: the estimate comes as soon as the later half
        and quarter of the timed generations differ, however quick (a subclass, not new
        ``__defaults__``, which mutmut's trampolines do not have)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **{**kwargs, "settle": 0.0, "at_least": 1})

    monkeypatch.setattr("fuzzeval.play.estimate.Stopwatch", Unsettled)
    db = str(tmp_path / "t.sqlite")
    done = runner.invoke(app, ["tune", "cribbage", "--budget", "131", "--training-deals",
                               "20", "--held-out-deals", "0", "--workers", "1", "--db", db])
    assert done.exit_code == 0, done.output
    (line,) = [s for s in done.stderr.splitlines() if s.startswith("estimate:")]
    assert line.startswith("estimate: about ")
    assert line.endswith(" for the 4 generations still to play (from 2 timed)")


@pytest.mark.usefixtures("drift_not_drawn")
def test_calibrate_says_its_held_out_deals_follow_its_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """calibrate's estimate left out its held-out deals, a phase of its own: it now says
    they follow (they are timed by their own bar as they start)."""
    monkeypatch.chdir(tmp_path)  # the default pictures (plots/...) go there

    monkeypatch.setattr("fuzzeval.play.estimate.LONG", -1.0)
    monkeypatch.setattr("fuzzeval.play.estimate.STEADY", float("inf"))

    class Unsettled(Stopwatch):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **{**kwargs, "settle": 0.0, "at_least": 1})

    monkeypatch.setattr("fuzzeval.play.estimate.Stopwatch", Unsettled)
    done = runner.invoke(app, ["calibrate", "cribbage", "--rounds", "1", "--games-per-round",
                               "10", "--held-out-deals", "10", "--workers", "1", "--db",
                               str(tmp_path / "c.sqlite")])
    assert done.exit_code == 0, done.output
    (line,) = [s for s in done.stderr.splitlines() if s.startswith("estimate:")]
    # 10 games: the first untimed, 5 more, the later half of them 2: 4 left
    assert line.endswith(" for the 4 games still to play (from 2 timed), then 10 held-out "
                         "deals (timed as they start)"), line
