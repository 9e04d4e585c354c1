"""The match runner: per-game seeds, results independent of workers, summaries."""

from __future__ import annotations

from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pytest

from fuzzeval.errors import FuzzevalError
from fuzzeval.games.cribbage.game import GAME
from fuzzeval.play.game import Outcome
from fuzzeval.play.match import GameRecord, MatchSpec, game_rngs, game_seed, run_games, summarize
from fuzzeval.play.spec import PlayerSpec, parse_options
from fuzzeval.stats import T95, mean_interval, wilson

SPEC = MatchSpec("cribbage", PlayerSpec("greedy", (("pegging", "basic"),)), PlayerSpec("random"),
                 games=16, seed=11)


def _key(r: GameRecord) -> tuple[object, ...]:
    return (r.index, r.first, r.outcome, r.decisions, r.moves)


def test_game_seeds_are_the_spawned_children() -> None:
    children = np.random.SeedSequence(42).spawn(50)
    for i in (0, 1, 17, 49):
        assert (game_seed(42, i).generate_state(4) == children[i].generate_state(4)).all()


def test_results_do_not_depend_on_workers_or_order() -> None:
    serial = sorted(map(_key, run_games(GAME, SPEC, range(16))))
    backwards = sorted(map(_key, run_games(GAME, SPEC, range(15, -1, -1))))
    with ProcessPoolExecutor(2) as pool:
        parallel = sorted(map(_key, run_games(GAME, SPEC, range(16), pool, window=3)))
    with ProcessPoolExecutor(3) as pool:  # "any number of workers": an odd one too
        three = sorted(map(_key, run_games(GAME, SPEC, range(16), pool)))
    assert serial == backwards == parallel == three
    assert len({r[2].scores for r in serial}) > 1  # type: ignore[attr-defined]


def test_seat_zero_deals_first_in_even_games_and_only_discards_are_logged() -> None:
    records = list(run_games(GAME, SPEC, range(4)))
    assert [r.first for r in records] == [0, 1, 0, 1]
    for r in records:
        assert {d.kind for d in r.decisions} == {"discard"}
        assert len(r.decisions) == 2 * r.outcome.units  # both throw in every deal
        first_deal = [d for d in r.decisions if d.unit == 0]
        # pone throws first; seat ``first`` deals the first deal
        assert [d.record["crib"] for d in first_deal] == ["theirs", "mine"]
        assert first_deal[1].seat == r.first


def test_player_specs_round_trip_and_reject_bad_text() -> None:
    spec = PlayerSpec.parse("exhaustive:weights=expert,pegging=basic")
    assert spec == PlayerSpec("exhaustive", (("pegging", "basic"), ("weights", "expert")))
    assert PlayerSpec.parse(str(spec)) == spec
    assert parse_options(["peg_counts=false", "n=3", "rate=0.5"], "game") == (
        ("n", 3), ("peg_counts", False), ("rate", 0.5))
    with pytest.raises(FuzzevalError, match="key=value"):
        PlayerSpec.parse("exhaustive:weights")
    with pytest.raises(FuzzevalError, match="a player is written"):
        PlayerSpec.parse(":x=1")


@pytest.mark.parametrize(("k", "n"), [(0, 1), (1, 1), (0, 10), (3, 10), (50, 100), (97, 100),
                                      (1000, 1000)])
def test_wilson_interval_matches_scipy(k: int, n: int) -> None:
    from scipy.stats import binomtest  # here, not at collection: 0.8 s

    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_a_wilson_interval_stays_inside_0_and_1_and_no_games_say_nothing() -> None:
    """All lost in 21, all won in 16: the formula's rounding gives -1.4e-17 and
    1.0000000000000002 at the certain end, which is 0 or 1 exactly; the other bound is
    z² / (n + z²) from that end. No games: the whole range."""
    z2 = 1.959963984540054 ** 2
    lo, hi = wilson(0, 21)
    assert lo == 0.0 and hi == pytest.approx(z2 / (21 + z2), abs=1e-12)
    lo, hi = wilson(16, 16)
    assert hi == 1.0 and lo == pytest.approx(1 - z2 / (16 + z2), abs=1e-12)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_mean_of_no_value_one_or_two() -> None:
    """No value: (0, 0); one: no spread to measure, the value itself; two, 1 and 3: mean 2,
    standard deviation √2, t(0.975, 1) x √2 / √2 either side."""
    assert mean_interval([]) == (0.0, 0.0)
    assert mean_interval([5.0]) == (5.0, 5.0)
    assert mean_interval([1.0, 3.0]) == pytest.approx((2 - 12.706204736174694,
                                                       2 + 12.706204736174694), abs=1e-12)


def test_the_t_quantiles_are_scipys_and_the_mean_interval_uses_them() -> None:
    from scipy.stats import t

    assert tuple(float(t.ppf(0.975, df)) for df in range(1, 29)) == T95
    assert T95[0] == pytest.approx(12.706, abs=5e-4)  # the printed tables
    assert T95[27] == pytest.approx(2.048, abs=5e-4)
    # three values 1, 2, 3: mean 2, sd 1, t(0.975, 2) / sqrt(3) either side
    lo, hi = mean_interval([1.0, 2.0, 3.0])
    assert (lo, hi) == pytest.approx((2 - 4.302652729749462 / 3 ** 0.5,
                                      2 + 4.302652729749462 / 3 ** 0.5), abs=1e-12)
    # 29 values still take t (28 degrees of freedom); 30 take the normal quantile
    assert mean_interval([0.0, 2.0] * 14 + [1.0]) == pytest.approx(
        (1 - 2.0484071417952454 * (28 / 28) ** 0.5 / 29 ** 0.5,
         1 + 2.0484071417952454 / 29 ** 0.5), abs=1e-12)
    assert mean_interval([0.0, 2.0] * 15) == pytest.approx(
        (1 - 1.959963984540054 * (30 / 29) ** 0.5 / 30 ** 0.5,
         1 + 1.959963984540054 * (30 / 29) ** 0.5 / 30 ** 0.5), abs=1e-12)


def test_summary_of_hand_made_outcomes() -> None:
    def outcome(winner: int, scores: tuple[int, int], result: str, points: int) -> Outcome:
        return Outcome(winner, scores, result, points, ((10, 5), (3, 9)),
                       {"pegging": (4, 2), "hand": (9, 12)})

    s = summarize([outcome(0, (121, 80), "skunk", 2), outcome(0, (121, 100), "single", 1),
                   outcome(1, (110, 121), "single", 1)])
    assert s.games == 3 and s.win_rate == pytest.approx(2 / 3)
    assert s.mean_margin == pytest.approx((41 + 21 - 11) / 3)
    assert s.sides[0].results == {"single": 1, "skunk": 1} and s.sides[0].game_points == 3
    assert s.sides[1].results == {"single": 1} and s.sides[1].game_points == 1
    assert s.units == 6
    assert s.sides[0].per_unit == {"pegging": 2.0, "hand": 4.5}
    assert s.sides[1].per_unit == {"pegging": 1.0, "hand": 6.0}  # seat 1's own totals
    assert list(s.sides[1].per_unit) == ["pegging", "hand"]  # the game's order


def test_a_summary_reads_each_seat_s_payoff_and_a_duplicate_match_by_its_blocks() -> None:
    """Seven games of three seats, blocks of three (a duplicate match): seat 0 was paid 1,
    2, 3, 7, 8, 9 and 100; its mean counts all seven (130 / 7), its interval the two
    whole blocks' means, 2 and 8 (the seventh game's block is not whole): mean 5,
    standard deviation 3√2, t(0.975, 1) x 3√2 / √2 = 3 t either side. Seats 1 and 2 have
    their own means."""
    from fuzzeval.play.game import Payoff

    paid = [(1, 0, 5), (2, 0, 5), (3, 0, 5), (7, 6, 5), (8, 6, 5), (9, 6, 5), (100, 3, -4)]
    outcomes = [Outcome(None, (0, 0, 0), "", 0, ((0, 0, 0),), {}, tuple(map(float, p)))
                for p in paid]
    s = summarize(outcomes, Payoff("points", higher_is_better=False), block=3)
    assert s.mean == pytest.approx(130 / 7, abs=1e-12) and s.unit == "points"
    assert s.ci95 == pytest.approx((5 - 3 * T95[0], 5 + 3 * T95[0]), abs=1e-9)
    assert [side.mean for side in s.sides] == pytest.approx([130 / 7, 3.0, 26 / 7], abs=1e-12)
    assert s.win_rate is None and s.mean_margin is None


def test_a_duplicate_block_shares_the_chance_of_an_ordinary_match_s_game() -> None:
    """Game i of a duplicate match of two seats draws its chance from the stream of game
    i // 2 of an ordinary match, ``SeedSequence(seed, spawn_key=(i // 2,))``'s first child;
    each seat's stream is still game i's own (its children 1 and 2)."""
    def draws(key: int, child: int) -> list[int]:
        stream = np.random.SeedSequence(7, spawn_key=(key,)).spawn(3)[child]
        return np.random.default_rng(stream).integers(2**62, size=3).tolist()

    for index in range(4):
        chance, seat0, seat1 = game_rngs(7, index, 2, duplicate=True)
        assert chance.integers(2**62, size=3).tolist() == draws(index // 2, 0)
        assert seat0.integers(2**62, size=3).tolist() == draws(index, 1)
        assert seat1.integers(2**62, size=3).tolist() == draws(index, 2)


class _Inline(Executor):
    """Runs each task at once; says it has five workers, as a process pool would."""

    _max_workers = 5

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        fut: Future[object] = Future()
        fut.set_result(fn(*args, **kwargs))
        return fut


def test_the_window_keeps_three_tasks_for_every_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A window of 8 tasks left 8 of 16 workers idle (677 games/s at 8 workers, 643 at 16
    on a 16-core machine); two tasks of 0.2 s a worker left 16 workers waiting between
    tasks 17.6 % of a match (78.3 % of 16 independent processes), three of 0.4 s 8.8 %
    (84.2 %): the default is three tasks of about 0.4 s for each worker."""
    import fuzzeval.play.match as match

    assert (match.TASKS_PER_WORKER, match.TASK_SECONDS) == (3, 0.4)

    pool = ProcessPoolExecutor(max_workers=16)  # no process starts before a submit
    assert match.capacity(pool) == 16 and match.capacity(_Inline()) == 5
    pool.shutdown()
    assert match.capacity(ThreadPoolExecutor(3)) == 3

    class Bare(_Inline):
        _max_workers = None  # type: ignore[assignment]
    assert match.capacity(Bare()) == 4
    seen: list[int] = []
    real = match.wait

    def counting(fs, **kw):  # type: ignore[no-untyped-def]
        seen.append(len(fs))
        return real(fs, **kw)
    monkeypatch.setattr(match, "wait", counting)
    records = list(run_games(GAME, SPEC, range(16), _Inline()))
    assert len(records) == 16 and max(seen) == 15


def test_the_next_task_goes_out_before_the_caller_gets_the_records() -> None:
    """The caller's time with a task's records (a history's inserts) must not leave a
    worker without its next task: the window is filled again first."""

    class Counting(_Inline):
        submitted = 0

        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
            self.submitted += 1
            return super().submit(fn, *args, **kwargs)

    pool = Counting()
    games = run_games(GAME, SPEC, range(4), pool, window=1, count=4)
    first = next(games)
    assert first.index == 0 and pool.submitted == 2  # games 1-3 already out
    assert [r.index for r in games] == [1, 2, 3] and pool.submitted == 2


def test_a_pool_s_result_pipe_is_widened() -> None:
    """A 110 KB result through the default 64 KiB pipe waits for the parent's reading
    thread while holding the pipe's one write lock: 16 workers ran at 74.6 % of 16
    independent processes with it, 82.2 % with the pipe at 1 MiB (docs/benchmarks.md)."""
    fcntl = pytest.importorskip("fcntl")
    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("no pipe sizes on this system")
    from fuzzeval.play.executors import RESULT_PIPE_BYTES, executor_for, widen_results

    with open("/proc/sys/fs/pipe-max-size") as limit:
        if int(limit.read()) < RESULT_PIPE_BYTES:
            pytest.skip("pipes this large are not allowed here")
    assert RESULT_PIPE_BYTES == 1 << 20
    with executor_for(2) as pool:
        reader = pool._result_queue._reader  # type: ignore[union-attr]
        assert fcntl.fcntl(reader.fileno(), fcntl.F_GETPIPE_SZ) == RESULT_PIPE_BYTES
    assert widen_results(_Inline()) is False  # type: ignore[arg-type]


def test_games_finished_before_a_pool_breaks_are_handed_over() -> None:
    """Filling the window first must not lose a finished task's games when the next
    submit fails (a broken pool): they are yielded, then the error."""

    class Breaking(_Inline):
        submitted = 0

        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
            self.submitted += 1
            if self.submitted > 1:
                raise RuntimeError("the pool broke")
            return super().submit(fn, *args, **kwargs)

    games = run_games(GAME, SPEC, range(4), Breaking(), window=1, count=4)
    assert next(games).index == 0
    with pytest.raises(RuntimeError, match="the pool broke"):
        next(games)
