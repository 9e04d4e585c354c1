"""TD(λ) learning of a conjunction base on Hearts: the same conclusions
with any number of workers, a stopped learn resumes to the uninterrupted result, one learn
to a database, and the learned player takes the best value the payoff's way."""

from __future__ import annotations

import dataclasses
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from fuzzeval.engine.evaluator import compile_rulebase
from fuzzeval.errors import FuzzevalError, UsageError
from fuzzeval.formats.loading import load_rulebase_text
from fuzzeval.formats.yaml_write import rulebase_to_yaml
from fuzzeval.games.hearts.features import FEATURES
from fuzzeval.games.hearts.game import GAME
from fuzzeval.learn.conjunctions import conjunction_rulebase
from fuzzeval.learn.td_player import ValuePlayer, with_conclusions
from fuzzeval.learn.td_runs import (
    LearnSettings,
    check_length,
    last_weights,
    learn_games,
    run_learning,
)
from fuzzeval.play.game import Candidates, Payoff
from fuzzeval.play.history import HistoryError
from fuzzeval.play.runs import settings_from_json
from fuzzeval.play.store import History


@pytest.fixture(scope="module")
def source() -> str:
    """A small base of single atoms over decisions of a few random hands."""
    rng = np.random.default_rng(5)
    rows = []
    for i in range(6):
        state = GAME.new_game(rng, i % 4)
        while GAME.to_move(state) is not None:
            cands = GAME.candidates(state)
            rows.append(cands.feature_rows(range(len(cands))))
            state = GAME.apply(state, int(rng.integers(len(cands))), rng)
    rb = conjunction_rulebase("hearts_tiny", FEATURES, np.concatenate(rows), "points",
                              "points per hand", 26, max_order=1)
    return rulebase_to_yaml(rb)


SETTINGS = LearnSettings("hearts", block=8, update=4, measure_every=2, measure_games=8,
                         measure_opponent="random")


def _weights(db: Path, source: str) -> bytes:
    with History(db) as h:
        from fuzzeval.learn.td_runs import load_learn
        learn = load_learn(h)
        return last_weights(h, learn, load_rulebase_text(source)).tobytes()


def test_the_same_conclusions_with_any_number_of_workers(tmp_path: Path, source: str) -> None:
    with History(tmp_path / "a.sqlite") as h:
        alone = run_learning(h, GAME, SETTINGS, source, 16)
    with ProcessPoolExecutor(2) as pool, History(tmp_path / "b.sqlite") as h:
        shared = run_learning(h, GAME, SETTINGS, source, 16, executor=pool)
    assert alone.blocks == shared.blocks and len(alone.blocks) == 2
    assert alone.blocks[1].measure is not None and alone.blocks[0].measure is None
    a, b = _weights(tmp_path / "a.sqlite", source), _weights(tmp_path / "b.sqlite", source)
    assert a == b
    assert np.abs(np.frombuffer(a)).max() > 0  # something was learned


def test_a_stopped_learn_resumes_to_the_uninterrupted_result(tmp_path: Path,
                                                              source: str) -> None:
    with History(tmp_path / "whole.sqlite") as h:
        run_learning(h, GAME, SETTINGS, source, 24)
    with History(tmp_path / "parts.sqlite") as h:
        first = run_learning(h, GAME, SETTINGS, source, 8)
        assert first.games == 8
    with History(tmp_path / "parts.sqlite") as h:
        again = run_learning(h, GAME, SETTINGS, source, 24, resume=True)
        assert again.games == 24
        assert run_learning(h, GAME, SETTINGS, source, 24).blocks == again.blocks  # nothing
    assert _weights(tmp_path / "parts.sqlite", source) == _weights(tmp_path / "whole.sqlite",
                                                                    source)


def test_a_database_holds_one_learn(tmp_path: Path, source: str) -> None:
    db = tmp_path / "one.sqlite"
    with History(db) as h:
        run_learning(h, GAME, SETTINGS, source, 8)
        other = LearnSettings("hearts", lam=0.5, block=8, update=4, measure_every=0)
        with pytest.raises(HistoryError, match=r"holds learn 1, with other settings"):
            run_learning(h, GAME, other, source, 8)
    with History(tmp_path / "none.sqlite") as h, pytest.raises(HistoryError,
                                                                 match="no learn to resume"):
        run_learning(h, GAME, SETTINGS, source, 8, resume=True)
    average = source.replace("weighted_sum", "weighted_average")
    with History(tmp_path / "avg.sqlite") as h, pytest.raises(FuzzevalError,
                                                                match="weighted_sum base"):
        run_learning(h, GAME, SETTINGS, average, 8)


def test_the_step_size_schedule_and_the_identity_of_older_learns() -> None:
    """alpha / (1 + games / halving): halved after ``halving`` games; a setting added later
    is left out of the stored identity at its default, so older learns still match."""
    steady = LearnSettings("hearts", alpha=0.3)
    assert [steady.step_size(i) for i in (0, 5000)] == [0.3, 0.3]
    falling = LearnSettings("hearts", alpha=0.3, halving=1000)
    assert [falling.step_size(i) for i in (0, 500, 1000, 3000)] == pytest.approx(
        [0.3, 0.2, 0.15, 0.075])  # 0.3 / 1.5 halfway: the step falls game by game
    assert "halving" not in json.loads(steady.to_json())
    assert json.loads(falling.to_json())["halving"] == 1000
    assert settings_from_json(LearnSettings, falling.to_json()) == falling
    assert settings_from_json(LearnSettings, steady.to_json()) == steady
    searched = LearnSettings("hearts", target="lookahead")
    assert "target" not in json.loads(steady.to_json())
    assert json.loads(searched.to_json())["target"] == "lookahead"
    assert settings_from_json(LearnSettings, searched.to_json()) == searched


def test_a_quadruples_share_stays_out_of_older_learns_identities() -> None:
    """--quad-share came later: at its default (0.25) it is not in the stored identity, so
    a learn stored before it is still found by the same command; set, it is."""
    old = ('{"alpha": 0.1, "block": 500, "game": "hearts_positions", "lam": 0.75, '
           '"measure_every": 0, "measure_games": 200, "measure_opponent": "", '
           '"min_share": 0.005, "opponent": "self", "options": [["points", "queen"]], '
           '"order": 2, "sample_games": 200, "sample_player": "", "scale": 100.0, "seed": 1, '
           '"start": "", "triple_share": 0.15, "update": 1}')
    settings = LearnSettings("hearts_positions", block=500, measure_every=0, order=2,
                             options=(("points", "queen"),))
    assert settings.to_json() == old
    assert settings_from_json(LearnSettings, old) == settings
    assert settings.quad_share == 0.25
    other = dataclasses.replace(settings, order=4, quad_share=0.3)
    assert json.loads(other.to_json())["quad_share"] == 0.3
    assert settings_from_json(LearnSettings, other.to_json()) == other


def test_bad_settings_are_refused() -> None:
    """A library caller is refused what the command refuses, in the same words."""
    for bad, message in (({"lam": 1.5}, r"^--lambda must be in \[0, 1\] \(got 1.5\)$"),
                         ({"lam": -0.5}, r"^--lambda must be in \[0, 1\] \(got -0.5\)$"),
                         ({"alpha": 0.0}, r"^--alpha must be in \(0, 1\]: a step of 1 moves "
                                          r"a value all the way to its target, more "
                                          r"overshoots it \(got 0\)$"),
                         ({"alpha": 1.01}, r"--alpha must be in \(0, 1\]: a step of 1 "),
                         ({"alpha": float("nan")}, r"--alpha must be in \(0, 1\].*got nan"),
                         ({"scale": float("inf")}, "^--scale must be from 1e-06 to 1e"),
                         ({"scale": 1e20}, r"^--scale must be from 1e-06 to 1e\+12 \(got "
                                           r"1e\+20\)$"),
                         ({"block": 0}, r"^--block must be at least 1 \(got 0\)$"),
                         ({"halving": -5}, r"^--halving must be at least 0 \(got -5\)$"),
                         ({"measure_games": 10**11}, r"^--measure-games must be at most "
                                                     r"100,000,000 \(got 100,000,000,000\)$"),
                         ({"min_share": 1.0}, r"^--min-share must be in \(0, 1\) \(got 1\)$"),
                         ({"order": 5}, r"^--order must be 1, 2, 3 or 4 \(got 5\)$"),
                         ({"order": 0}, r"^--order must be 1, 2, 3 or 4 \(got 0\)$"),
                         ({"quad_share": 0.0}, r"^--quad-share must be in \(0, 1\) \(got "
                                               r"0\)$"),
                         ({"quad_share": float("nan")}, r"^--quad-share must be in \(0, 1\) "
                                                        r"\(got nan\)$"),
                         ({"target": "deeper"}, r"^--target must be one of next, "
                                                r"lookahead \(got 'deeper'\)$"),
                         ({"block": 7, "update": 2}, r"^--block 7 is not a whole number of "
                                                     r"updates of --update 2$")):
        with pytest.raises(UsageError, match=message):
            LearnSettings("hearts", **bad)  # type: ignore[arg-type]


def test_a_learns_length_is_refused_as_the_command_refuses_it(tmp_path: Path) -> None:
    """--games a whole number of blocks, --average no more than the blocks: the library's
    refusals are the command's."""
    settings = LearnSettings("hearts", block=100)
    for games, average, message in (
            (250, 1, r"^--games 250 is not a whole number of blocks of --block 100$"),
            (200, 5, r"^--average 5 is more than the 2 blocks of --games 200$"),
            (0, 1, r"^--games must be at least 1 \(got 0\)$")):
        with pytest.raises(UsageError, match=message):
            check_length(settings, games, average)
        if average == 1:  # run_learning refuses the length before reading its start
            with History(tmp_path / "l.sqlite") as h, pytest.raises(UsageError, match=message):
                run_learning(h, GAME, settings, "unused", games)


def test_the_value_player_takes_the_best_value_the_payoffs_way(source: str) -> None:
    rb = load_rulebase_text(source)
    names = rb.input_names
    ev = compile_rulebase(rb)
    weights = np.zeros(len(rb.rules))
    weights[0] = 5.0  # the first rule alone concludes: grades are 5 x its strength
    ev = with_conclusions(ev, weights)
    first = rb.rules[0].condition
    column = names.index(first.variable)  # type: ignore[union-attr]
    rows = np.tile(np.array([[0.5 * (v.lo + v.hi) for v in rb.inputs]]), (3, 1))
    lo, hi = rb.inputs[column].lo, rb.inputs[column].hi
    rows[:, column] = [lo, hi, 0.5 * (lo + hi)]
    cands = Candidates("play", ("a", "b", "c"), rows, names)
    grades = ev.grade(rows)
    trace: list[np.ndarray] = []
    more = ValuePlayer(ev, Payoff("points", higher_is_better=True), trace)
    fewer = ValuePlayer(ev, Payoff("points", higher_is_better=False))
    rng = np.random.default_rng(0)
    assert more.choose(cands, rng) == int(np.argmax(grades))
    assert fewer.choose(cands, rng) == int(np.argmin(grades))
    assert grades.max() > grades.min()
    assert trace[0][0] == grades.max() / 5.0  # the chosen candidate's strengths are kept
    # its estimate of the decision is its chosen candidate's value
    assert more.estimate(cands) == grades.max() and fewer.estimate(cands) == grades.min()


def test_rewards_arrive_as_points_are_taken(source: str) -> None:
    """One hand of self-play with every conclusion 0: every grade is 0, so each seat plays
    its first legal card, and with λ = 1 the error of each choice is the points its seat
    still takes from there (its final payoff less what it had taken). Normalised, each
    choice's step adds up to alpha times its error over the rules; so the whole step adds
    up to the sum of those, counted here by replaying the hand with first-card players."""
    from fuzzeval.play.match import play_game

    rb = load_rulebase_text(source)
    settings = LearnSettings("hearts", lam=1.0, alpha=0.5, block=1, update=1, measure_every=0)
    total, paid, episodes = learn_games(GAME, source, np.zeros(len(rb.rules)),
                                        settings, [3])

    class First:
        def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
            return 0
    taken: list[tuple[int, float]] = []
    record = play_game(GAME, [First()] * 4, settings.seed, 3,
                       on_move=lambda st, seat, c, a: taken.append(
                           (seat, float(st.hand.taken[seat]))))
    final = record.outcome.payoffs
    want = 0.5 * sum(final[seat] - so_far for seat, so_far in taken)
    assert episodes == 4 and paid == sum(final)
    assert len(taken) == 52 + 12  # this deal passes (a one-hand game draws the direction)
    got = float(np.ldexp(total.astype(float), -32).sum())
    assert got == pytest.approx(want, abs=64 * 2.0 ** -32)
    assert want > 0
    halved = dataclasses.replace(settings, halving=3)  # game 3: alpha / (1 + 3 / 3)
    total_half = learn_games(GAME, source, np.zeros(len(rb.rules)), halved, [3])[0]
    assert float(np.ldexp(total_half.astype(float), -32).sum()) == pytest.approx(
        want / 2, abs=64 * 2.0 ** -32)


def test_the_td_player_plays_a_learned_base_and_refuses_others(tmp_path: Path,
                                                                source: str) -> None:
    from fuzzeval.learn.td_runs import learned_yaml, load_learn
    from fuzzeval.play.match import MatchSpec, make_player, play_indexed
    from fuzzeval.play.spec import PlayerSpec

    with History(tmp_path / "l.sqlite") as h:
        run_learning(h, GAME, SETTINGS, source, 8)
        (tmp_path / "td.yaml").write_text(learned_yaml(h, load_learn(h), "a test"))
    player = make_player(GAME, "td", rulebase=str(tmp_path / "td.yaml"))  # any game's
    assert isinstance(player, ValuePlayer) and not player.payoff.higher_is_better
    spec = MatchSpec("hearts", PlayerSpec("td", (("rulebase", str(tmp_path / "td.yaml")),)),
                     PlayerSpec("random"), 1, 3, seats=())
    record = play_indexed(GAME, spec, 0)
    assert sum(record.outcome.payoffs) in (26, 78)
    from fuzzeval.games.holdem.game import GAME as HOLDEM

    with pytest.raises(ValueError, match="needs a learned rule base: td:rulebase=FILE "
                       r"[(]fuzzeval learn holdem makes one; none is shipped for holdem[)]"):
        make_player(HOLDEM, "td")
    with pytest.raises(ValueError, match="is weighted_average, not a learned weighted_sum"):
        make_player(GAME, "td", rulebase="hearts")
    with pytest.raises(ValueError, match=r"does not take options \['depth'\]"):
        make_player(GAME, "td", depth=1)


def test_td_plays_its_game_s_shipped_base_and_sampling_plays_it_out() -> None:
    """Without a rule base, ``td`` plays the one shipped for the game (GAME_td), so
    ``sampling:rollout=td`` needs no file."""
    from fuzzeval.games.backgammon.game import GAME as BACKGAMMON
    from fuzzeval.play.match import make_player
    from fuzzeval.search.sampling import SamplingPlayer

    for game in (GAME, BACKGAMMON):
        player = make_player(game, "td")
        assert isinstance(player, ValuePlayer)
        assert player.evaluator.rulebase.name == f"{game.name}_td"
        assert player.evaluator.rulebase.made_by.startswith(
            f"learned by `fuzzeval learn {game.name} ")
    sampling = make_player(GAME, "sampling", rollout="td", trials=4)
    assert isinstance(sampling, SamplingPlayer)
    assert all(isinstance(p, ValuePlayer) for p in sampling.rollout)
    assert sampling.horizon == 0 and sampling.leaf is None


def test_sampling_with_td_to_the_end_of_the_trick() -> None:
    """``sampling:rollout=td,horizon=1`` (Sturtevant & White's player): a playout stops at the
    deciding seat's next decision, worth minus (its points so far + td's fewest expected
    points there); the playouts themselves are checked on the toy table
    (tests/test_sampling.py)."""
    from fuzzeval.play.match import make_player
    from fuzzeval.search.sampling import leaf_value

    player = make_player(GAME, "sampling", rollout="td", trials=6, horizon=1, stop="none")
    td = player.rollout[0]  # type: ignore[attr-defined]
    leaf = leaf_value(GAME, td)
    # the learned value of a decision is td's fewest expected points there
    state = GAME.new_game(np.random.default_rng(5), 0, target=0)
    while (seat := GAME.to_move(state)) is not None and not (
            state.hand.taken[seat] and len(GAME.candidates(state)) > 1):
        state = GAME.apply(state, 0, np.random.default_rng(0))  # the first legal card
    assert seat is not None
    grades = td.evaluator.grade(td.rows(GAME.candidates(state)))
    assert leaf(state, seat) == -(state.hand.taken[seat] + grades.min())
    assert grades.min() < grades.max()
    with pytest.raises(ValueError, match=r"horizon: rollout 'heuristic' does not estimate"):
        make_player(GAME, "sampling", rollout="heuristic", horizon=1)
    assert make_player(GAME, "sampling", rollout="td", horizon=100).horizon == 100  # type: ignore[attr-defined]
    for bad in (-1, 101, True, "1"):
        with pytest.raises(ValueError, match="horizon must be a whole number from 0 to 100"):
            make_player(GAME, "sampling", rollout="td", horizon=bad)
    decision = GAME.candidates(state)
    chosen, note = player.decide(decision, np.random.default_rng(1))
    assert note["trials"] == 6 and 0 <= chosen < len(decision)


def test_the_learner_plays_every_seat_moving_first_and_later() -> None:
    """Against other players the learner's seat turns every round of first movers (seat
    index % seats moves first): every (seat, first mover) pair once in seats^2 games."""
    from fuzzeval.games.holdem.game import GAME as HOLDEM
    from fuzzeval.learn.td_runs import learner_seat

    for game in (GAME, HOLDEM):
        n = game.seats
        pairs = {(learner_seat(game, i), i % n) for i in range(n * n)}
        assert pairs == {(s, f) for s in range(n) for f in range(n)}, game.name
    assert [learner_seat(HOLDEM, i) for i in range(6)] == [0, 0, 1, 1, 0, 0]


def test_a_start_td_cannot_learn_is_refused(source: str) -> None:
    from fuzzeval.errors import UsageError
    from fuzzeval.learn.td_runs import check_start

    rb = load_rulebase_text(source)
    check_start(GAME, rb)  # the generated one is fine
    shared = source.replace("then points is r2\n", "then points is r1\n")
    with pytest.raises(UsageError, match="rules share the output terms r1; each rule"):
        check_start(GAME, load_rulebase_text(shared))
    with pytest.raises(UsageError, match="its default is 3; a learned base's is 0"):
        check_start(GAME, load_rulebase_text(source.replace("default: 0", "default: 3")))
    with pytest.raises(UsageError, match=r"inputs quality, service are not hearts features"):
        check_start(GAME, load_rulebase_text(TIPPING_SUM))


TIPPING_SUM = """\
name: tip_sum
defuzzifier: weighted_sum
default: 0
inputs:
  quality: {range: [0, 10], terms: {poor: [0, 0, 10]}}
  service: {range: [0, 10], terms: {poor: [0, 0, 10]}}
output: {name: tip, range: [0, 25], terms: {a: 1, b: 2}}
rules:
  - if quality is poor then tip is a
  - if service is poor then tip is b
"""


def test_the_curve_s_half_width_and_the_compiled_base_per_rule_base(source: str) -> None:
    """A point of the learning curve is the mean of its games' payoffs with 1.96 standard
    deviations over the root of their number; a process compiles each base once, and a
    different base compiles anew."""
    from fuzzeval.learn.td_runs import _compiled, measure, measure_all

    rb = load_rulebase_text(source)
    weights = np.linspace(-1, 1, len(rb.rules))
    paid = measure(GAME, source, weights, SETTINGS, "random", range(8))
    mean, half = measure_all(GAME, source, weights, SETTINGS, None)
    assert mean == pytest.approx(float(np.mean(paid)), abs=1e-12)
    assert half == pytest.approx(1.96 * float(np.std(paid, ddof=1)) / np.sqrt(8), abs=1e-12)
    first = _compiled(source)
    assert _compiled(source) is first
    assert _compiled("".join(list(source))) is first  # equal text, another object
    other = rulebase_to_yaml(dataclasses.replace(rb, rules=rb.rules[:-1]))
    assert _compiled(other).rule_rows.size == len(rb.rules) - 1
    assert _compiled(source) is not first  # one base a process: compiled anew


def test_the_learned_base_may_conclude_the_mean_of_the_last_blocks(tmp_path: Path,
                                                                    source: str) -> None:
    """Polyak averaging: the mean of the conclusions stored after the last N blocks."""
    from fuzzeval.learn.td_player import conclusions
    from fuzzeval.learn.td_runs import averaged_weights, learned_yaml, load_learn

    rb = load_rulebase_text(source)
    with History(tmp_path / "l.sqlite") as h:
        learn = run_learning(h, GAME, SETTINGS, source, 24)
        stored = [np.frombuffer(r[0], dtype="<f8") for r in h.conn.execute(
            "SELECT weights FROM learn_blocks ORDER BY block")]
        assert len(stored) == 3 and not np.array_equal(stored[1], stored[2])
        np.testing.assert_array_equal(averaged_weights(h, learn, rb, 1), stored[2])
        np.testing.assert_allclose(averaged_weights(h, learn, rb, 2),
                                   [(a + b) / 2 for a, b in zip(stored[1], stored[2],
                                                                strict=True)])
        with pytest.raises(ValueError, match="has 3 blocks, fewer than the 4 to average"):
            averaged_weights(h, learn, rb, 4)
        text = learned_yaml(h, load_learn(h), "a test", average=3)
    np.testing.assert_allclose(conclusions(load_rulebase_text(text)),
                               (stored[0] + stored[1] + stored[2]) / 3, atol=1e-9)


class _TakeTurns:
    """Two seats, two turns each from seat ``first``: the seat to move takes turn + 1
    points (option ``a``) or 100 (``b``), fewer is better, and is paid what it took. Both
    options look alike (feature ``seat0``: 1 for seat 0's decisions), so a value player
    takes ``a``: from seat 0 first, seat 0 takes 1 and 3, seat 1 takes 2 and 4."""

    name = "taketurns"
    seats = 2
    payoff = Payoff("points", higher_is_better=False)
    logged_kinds = frozenset({"take"})
    unit_name = ""
    player_names = ("first",)

    def prepare(self) -> None:
        pass

    def new_game(self, rng: np.random.Generator, first: int, **options: object
                 ) -> tuple[int, int, tuple[int, int]]:
        return 0, first, (0, 0)

    def to_move(self, state: tuple[int, int, tuple[int, int]]) -> int | None:
        turn, first, _ = state
        return None if turn == 4 else (first + turn) % 2

    def candidates(self, state: tuple[int, int, tuple[int, int]]) -> Candidates:
        row = [1.0 if self.to_move(state) == 0 else 0.0]
        return Candidates("take", ("a", "b"), np.array([row, row]), ("seat0",))

    def apply(self, state: tuple[int, int, tuple[int, int]], choice: int,
              rng: np.random.Generator) -> tuple[int, int, tuple[int, int]]:
        turn, first, taken = state
        seat = (first + turn) % 2
        took = [*taken]
        took[seat] += turn + 1 if choice == 0 else 100
        return turn + 1, first, (took[0], took[1])

    def unit(self, state: object) -> int:
        return 0

    def outcome(self, state: tuple[int, int, tuple[int, int]]) -> object:
        from fuzzeval.play.game import Outcome

        taken = state[2]
        return Outcome(None, taken, "", 0, (taken,), {}, (float(taken[0]), float(taken[1])))

    def payoff_so_far(self, state: tuple[int, int, tuple[int, int]], seat: int) -> float:
        return float(state[2][seat])

    def make_player(self, name: str, **options: object) -> object:
        class First:
            def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
                return 0
        return First()


SEATS_BASE = """\
name: seats
defuzzifier: weighted_sum
default: 0
inputs:
  seat0: {range: [0, 1], terms: {other: [0, 0, 1], mine: [0, 1, 1]}}
output: {name: points, range: [-26, 26], terms: {r1: 0, r2: 0}}
rules:
  - if seat0 is mine then points is r1
  - if seat0 is other then points is r2
"""


def test_each_seat_learns_from_its_own_rewards_and_payoff_by_hand() -> None:
    """Game 0 of the two-seat toy: seat 0 had taken 0 then 1 before its choices and ends
    with 4, seat 1 0 then 2, and ends with 6; rule r1 fires on seat 0's choices alone, r2
    on seat 1's. λ = 1, conclusions 0: the errors are what is still to take, seat 0 4 and
    3, seat 1 6 and 4; alpha 0.5: steps 3.5 and 5. λ = 0.5 with conclusions 1 and 2 (each
    seat's values): seat 0's returns G1 = 3, G0 = 1 + 0.5 x 1 + 0.5 x 3 = 3, errors 2 and
    2, step 2; seat 1's G1 = 4, G0 = 2 + 0.5 x 2 + 0.5 x 4 = 5, errors 3 and 2, step 2.5."""
    game = _TakeTurns()
    settings = LearnSettings("taketurns", lam=1.0, alpha=0.5, block=1, update=1,
                             measure_every=0)
    total, paid, episodes = learn_games(game, SEATS_BASE, np.zeros(2), settings,  # type: ignore[arg-type]
                                        [0])
    assert np.ldexp(total.astype(float), -32).tolist() == [3.5, 5.0]
    assert (paid, episodes) == (10.0, 2)
    half = dataclasses.replace(settings, lam=0.5)
    total = learn_games(game, SEATS_BASE, np.array([1.0, 2.0]), half, [0])[0]  # type: ignore[arg-type]
    assert np.ldexp(total.astype(float), -32).tolist() == [2.0, 2.5]
    # against another player only the learner's seat learns: in game 2, seat 1 (takes 2, 4)
    alone = dataclasses.replace(settings, opponent="first")
    total, paid, episodes = learn_games(game, SEATS_BASE, np.zeros(2), alone, [2])  # type: ignore[arg-type]
    assert np.ldexp(total.astype(float), -32).tolist() == [0.0, 5.0]
    assert (paid, episodes) == (6.0, 1)


def test_the_learned_player_is_measured_by_its_own_seats_payoff() -> None:
    """Games 0-3 against ``first``: the learner sits at seat 0, 0, 1, 1 while seat 0, 1,
    0, 1 moves first, and takes 1 + 3 moving first, 2 + 4 moving second."""
    from fuzzeval.learn.td_runs import measure

    settings = LearnSettings("taketurns", block=1, update=1, measure_every=0)
    assert measure(_TakeTurns(), SEATS_BASE, np.zeros(2), settings, "first",  # type: ignore[arg-type]
                   range(4)) == [4.0, 6.0, 6.0, 4.0]


def test_an_update_keeps_each_conclusion_inside_the_output_range() -> None:
    from fuzzeval.learn.td import to_fixed
    from fuzzeval.learn.td_runs import update_weights

    moved = update_weights(np.array([0.5, 0.5, 0.5]), to_fixed(np.array([5.0, -5.0, 0.25])),
                           -1.0, 2.0)
    assert moved.tolist() == [2.0, -1.0, 0.75]


@pytest.mark.pinned
def test_a_generated_start_concludes_a_value() -> None:
    from fuzzeval.formats.loading import load_rulebase_text
    from fuzzeval.games.hearts.game import GAME
    from fuzzeval.learn.td_runs import LearnSettings, start_source

    rb = load_rulebase_text(start_source(GAME, LearnSettings("hearts", order=1,
                                                             sample_games=2), "a test"))
    assert (rb.output.name, rb.name, rb.made_by) == ("value", "hearts_td", "a test")
