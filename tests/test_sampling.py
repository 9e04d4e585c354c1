"""The game-agnostic selective-sampling framework: stop rules on hand-made trial values,
the trial loop (the stop rule judges every trial so far, and a simulation's means are the
playouts' exact expectations, worked out by enumeration), playouts with common random
numbers on the toy game, and the sampling player's defaults."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from itertools import product
from typing import Any

import numpy as np
import pytest

from fuzzeval.play.game import Candidates
from fuzzeval.play.match import make_player
from fuzzeval.search.sampling import (
    SamplingPlayer,
    SamplingSettings,
    Simulator,
    StopRule,
    obvious,
    playout_simulator,
    require_hooks,
    simulate,
    softmax_choice,
)
from tests.toy import (
    MaxPlayer,
    RandomPlayer,
    TableState,
    ToyGame,
    ToyHooks,
    ToyState,
    ToyTable,
)


def test_the_seeds_rule_needs_the_gap_to_exceed_both_deviations() -> None:
    # Candidate 0: 4, 6 (mean 5, sd 1.414); candidate 1: 0, 2 (mean 1, sd 1.414):
    # the gap 4 exceeds 2.83, so Billings et al. call it obvious.
    wide = np.array([[4.0, 0.0], [6.0, 2.0]])
    assert obvious(wide, "obvious")
    # Means 5 and 3 with the same deviations: a gap of 2 is not more than 2.83.
    close = np.array([[4.0, 2.0], [6.0, 4.0]])
    assert not obvious(close, "obvious")
    assert not obvious(wide, "none")


def test_the_paired_rule_sees_a_steady_difference_the_seeds_rule_does_not() -> None:
    # Values swing by 10 from trial to trial, but candidate 0 is always 1 point better:
    # the paired differences have no spread at all.
    swing = np.array([0.0, 10.0, 0.0, 10.0, 5.0, 5.0])
    values = np.stack([swing + 1, swing], axis=1)
    assert not obvious(values, "obvious")
    assert obvious(values, "paired")
    # Better on average but not on every trial: differences 3, -1, 3, -1 (mean 1, sd 2.31,
    # standard error 1.15): 1 is not 2.5 standard errors.
    noisy = np.array([[3.0, 0.0], [0.0, 1.0], [3.0, 0.0], [0.0, 1.0]])
    assert not obvious(noisy, "paired")
    # Every other candidate must be beaten, not only the second best.
    three = np.stack([swing + 1, swing, swing + 1 - np.array([0, 0, 0, 0, 0, 0.5])], axis=1)
    assert not obvious(three, "paired")


def constant(means: list[float], calls: list[int]) -> Any:
    def run(n: int, rng: np.random.Generator) -> np.ndarray:
        calls.append(n)
        return np.tile(means, (n, 1)) + rng.normal(0, 0.01, (n, len(means)))[:, :1]
    return run


def test_trials_run_in_batches_until_the_stop_rule_fires() -> None:
    calls: list[int] = []
    settings = SamplingSettings(trials=500, stop="paired", batch=40, min_trials=100)
    result = simulate(constant([1.0, 3.0, 2.0], calls), 3, settings, np.random.default_rng(0))
    # No stop before 100 trials: batches of 40 reach 120, where the steady gap of 1 stops it.
    assert calls == [40, 40, 40]
    assert result.trials == 120 and result.stopped
    assert result.best == 1
    assert result.means == pytest.approx([1.0, 3.0, 2.0], abs=0.05)
    record = result.record()
    assert record["trials"] == 120 and record["stopped"] == 1
    assert len(record["means"].split()) == 3  # type: ignore[union-attr]


def test_without_a_stop_every_trial_runs_and_the_last_batch_is_cut() -> None:
    calls: list[int] = []
    settings = SamplingSettings(trials=130, stop="none", batch=50)
    result = simulate(constant([1.0, 3.0], calls), 2, settings, np.random.default_rng(0))
    assert calls == [50, 50, 30]
    assert result.trials == 130 and not result.stopped


def test_a_single_candidate_needs_no_trial() -> None:
    calls: list[int] = []
    result = simulate(constant([1.0], calls), 1, SamplingSettings(), np.random.default_rng(0))
    assert calls == [] and result.trials == 0 and result.best == 0
    assert result.record() == {}  # nothing for the history to keep


def test_a_simulator_of_the_wrong_shape_is_refused() -> None:
    def wrong(n: int, rng: np.random.Generator) -> np.ndarray:
        return np.zeros((n, 2))
    with pytest.raises(ValueError, match=r"shape \(50, 2\), not \(50, 3\)"):
        simulate(wrong, 3, SamplingSettings(), np.random.default_rng(0))


@pytest.mark.parametrize(("field", "value", "message"), [
    ("trials", 0, "trials must be a whole number >= 1"),
    ("trials", -5, "trials must be a whole number >= 1"),
    ("batch", 2.5, "batch must be a whole number >= 1"),
    ("trials", 100_001, "trials must be a whole number from 1 to 100,000 [(]got 100001[)]"),
    ("stop", "sometimes", "stop must be one of obvious, paired, none"),
])
def test_bad_settings_are_refused(field: str, value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SamplingSettings(**{field: value})


def test_softmax_draws_in_proportion_and_temperature_zero_is_the_argmax() -> None:
    grades = np.array([0.0, np.log(3.0)])  # exp: 1 and 3, so the second 3 times in 4
    rng = np.random.default_rng(1)
    picks = [softmax_choice(grades, 1.0, rng) for _ in range(4000)]
    assert np.mean(picks) == pytest.approx(0.75, abs=0.03)
    assert softmax_choice(np.array([0.2, 0.9, 0.5]), 0.0, rng) == 1


def test_playouts_share_their_chance_across_candidates() -> None:
    game = ToyGame()
    root = ToyState(turn=2, first=0, offers=(3, 9, 5), sums=(4, 7))
    sim = playout_simulator(game, ToyHooks(root), game.candidates(root),
                            (MaxPlayer(), MaxPlayer()))
    values = sim(200, np.random.default_rng(3))
    assert values.shape == (200, 3)
    # Same later offers and the same choices after the first: every trial's values differ
    # by exactly the first pick's difference, although the games themselves vary.
    assert np.all(values[:, 1] - values[:, 0] == 6)
    assert np.all(values[:, 2] - values[:, 0] == 2)
    assert values[:, 0].std() > 1
    # Random players draw from the same stream too: their choices match across candidates.
    noisy = playout_simulator(game, ToyHooks(root), game.candidates(root),
                              (RandomPlayer(), RandomPlayer()))(100, np.random.default_rng(4))
    assert np.all(noisy[:, 1] - noisy[:, 0] == 6)
    result = simulate(sim, 3, SamplingSettings(stop="paired"), np.random.default_rng(5))
    assert result.best == 1 and result.stopped and result.trials == 50


class PaidTable(ToyTable):
    """The toy table, saying what each seat has taken so far."""

    def payoff_so_far(self, state: TableState, seat: int) -> float:
        return float(sum(r[seat] for r in state.rounds))


class TableHooks:
    """Plays out to the table's end, worth minus what the seat took (less is better)."""

    def __init__(self, state: TableState) -> None:
        self.state = state

    def determinize(self, view: object, rng: np.random.Generator) -> TableState:
        return self.state

    def finished(self, root: TableState, state: TableState) -> bool:
        return state.turn == 6

    def value(self, root: TableState, state: TableState, seat: int) -> float:
        return -float(sum(r[seat] for r in state.rounds))


class Guess(MaxPlayer):
    """Takes the largest number, and expects to take 100 more from any decision."""

    def estimate(self, candidates: Candidates) -> float:
        return 100.0


def test_a_value_that_is_no_finite_number_names_its_candidate_and_trial() -> None:
    calls: list[int] = []

    def late_inf(n: int, rng: np.random.Generator) -> np.ndarray:
        calls.append(n)
        block = np.zeros((n, 3))
        if len(calls) == 2:
            block[2, 1] = np.inf  # the second batch's third: trial 53 of the simulation
        return block
    with pytest.raises(ValueError, match="^" + re.escape(
            "the simulator: a playout of candidate 1 was worth inf (trial 53); every "
            "playout must be worth a finite number") + "$"):
        simulate(late_inf, 3, SamplingSettings(stop="none"), np.random.default_rng(0))
    assert calls == [50, 50]  # refused at once, not after every trial


class ViewTable(PaidTable):
    """The paid table with the hooks (reading the view: it hides nothing) and two rollouts
    whose estimates are no number, ``nan``, and infinity, ``inf``."""

    player_names = (*PaidTable.player_names, "nan", "inf")
    hidden_information = None  # set below

    def candidates(self, state: TableState) -> Candidates:
        c = super().candidates(state)
        return Candidates(c.kind, c.labels, c.features, c.feature_names, record=c.record,
                          view=state)

    def make_player(self, name: str, **options: Any) -> Any:
        return Hopeless(float(name)) if name in ("nan", "inf") else \
            super().make_player(name, **options)


class TableViewHooks(TableHooks):
    def __init__(self) -> None:
        pass

    def determinize(self, view: object, rng: np.random.Generator) -> TableState:
        assert isinstance(view, TableState)
        return view


ViewTable.hidden_information = TableViewHooks()  # type: ignore[assignment]


class Hopeless(MaxPlayer):
    """Takes the largest number, and expects ``value`` more from any decision."""

    def __init__(self, value: float) -> None:
        self.value = value

    def estimate(self, candidates: Candidates) -> float:
        return self.value


@pytest.mark.parametrize(("rollout", "worth"), [("nan", "nan"), ("inf", "-inf")])
def test_a_rollout_worth_no_finite_number_is_refused_not_chosen_from(rollout: str,
                                                                      worth: str) -> None:
    # Without the check every mean was NaN (or -inf) and the player took candidate 0.
    from fuzzeval.play.match import make_player

    game = ViewTable()
    player = make_player(game, "sampling", rollout=rollout, horizon=1, trials=5,
                         stop="none")
    root = TableState(turn=0, first=0, offers=(3, 9, 5), rounds=((0, 0, 0),))
    # Less is better at the table: a playout is worth minus (3 taken + the estimate).
    message = (f"sampling (rollout {rollout!r}): a playout of candidate 0 ('3') was worth "
               f"{worth} (trial 1); every playout must be worth a finite number")
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        player.decide(game.candidates(root), np.random.default_rng(2))  # type: ignore[attr-defined]


def test_a_playout_stops_short_at_the_seats_next_decision() -> None:
    from fuzzeval.search.sampling import leaf_value

    game = PaidTable()
    leaf = leaf_value(game, Guess())
    root = TableState(turn=0, first=0, offers=(3, 9, 5), rounds=((0, 0, 0),))
    policies = (Guess(), Guess(), Guess())
    short = playout_simulator(game, TableHooks(root), game.candidates(root),
                              policies, horizon=1, leaf=leaf)(20, np.random.default_rng(2))
    # Seats 1 and 2 move, then seat 0 decides again: it has its pick, and 100 to come.
    assert short.tolist() == [[-103.0, -109.0, -105.0]] * 20
    # and the player simulates with them: it takes the 3, the fewest points
    player = SamplingPlayer(game, TableHooks(root), policies,  # type: ignore[arg-type]
                            SamplingSettings(trials=5, stop="none"), horizon=1, leaf=leaf)
    choice, note = player.decide(game.candidates(root), np.random.default_rng(2))
    assert choice == 0 and note["means"] == "-103.000 -109.000 -105.000"

    class Compiled(TableHooks):  # a compiled simulator plays to the end: not used short
        def simulator(self, candidates: Candidates, policies: Any) -> Any:
            return lambda n, rng: np.tile([0.0, 1.0, 0.0], (n, 1))
    compiled = SamplingPlayer(game, Compiled(root), policies,  # type: ignore[arg-type]
                              SamplingSettings(trials=5, stop="none"), horizon=1, leaf=leaf)
    assert compiled.decide(game.candidates(root), np.random.default_rng(2))[0] == 0
    assert dataclasses.replace(compiled, horizon=0).simulator(game.candidates(root))(
        2, np.random.default_rng(0)).tolist() == [[0.0, 1.0, 0.0]] * 2
    # Two decisions on, the table ends first (three seats, six turns): played out, worth
    # minus both picks, the second the largest of numbers 0 to 10 drawn alike for all.
    full = playout_simulator(game, TableHooks(root), game.candidates(root),
                             policies, horizon=2, leaf=leaf)(20, np.random.default_rng(2))
    second = -full - np.array([3, 9, 5])
    assert np.all(second == second[:, :1]) and second.min() >= 0 and second.max() <= 10
    assert second.std() > 0
    # Seat 1's last decision of the table: no later one, so it plays to the end.
    late = TableState(turn=4, first=0, offers=(1, 2, 7), rounds=((4, 6, 8), (1, 0, 0)))
    last = playout_simulator(game, TableHooks(late), game.candidates(late),
                             policies, horizon=1, leaf=leaf)(3, np.random.default_rng(2))
    assert last.tolist() == [[-7.0, -8.0, -13.0]] * 3
    with pytest.raises(ValueError, match="a playout with a horizon needs a leaf value"):
        playout_simulator(game, TableHooks(root), game.candidates(root), policies,
                          horizon=1)
    with pytest.raises(ValueError, match="horizon: toy does not say what a seat has been "
                       r"paid so far [(]payoff_so_far[)]"):
        leaf_value(ToyGame(), Guess())


class Counted(MaxPlayer):
    """Takes the largest number, counting its decisions by the seat that made them."""

    def __init__(self) -> None:
        self.seats: list[int] = []

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        self.seats.append(int(candidates.record["turn"]) % 3)  # first = 0: turn k is seat k % 3
        return super().choose(candidates, rng)


def test_each_seat_plays_out_by_its_own_player_and_a_short_one_counts_the_deciders() -> None:
    """Seat 1 decides at turn 1 (seat 0 took 4). Without ``others``, each seat's moves in
    a playout ask that seat's player: seats 2, 0, 1, 2 move after seat 1's pick, in each of
    2 trials x 3 candidates. Stopped at seat 1's next decision (turn 4), a playout is worth
    minus seat 1's points so far, only its pick, and the 100 its player expects there."""
    game = PaidTable()
    late = TableState(turn=1, first=0, offers=(3, 9, 5), rounds=((4, 0, 0),))
    players = (Counted(), Counted(), Counted())
    playout_simulator(game, TableHooks(late), game.candidates(late), players)(
        2, np.random.default_rng(7))
    assert [p.seats for p in players] == [[0] * 6, [1] * 6, [2] * 12]
    from fuzzeval.search.sampling import leaf_value

    short = playout_simulator(game, TableHooks(late), game.candidates(late),
                              (Guess(), Guess(), Guess()), horizon=1,
                              leaf=leaf_value(game, Guess()))(3, np.random.default_rng(7))
    assert short.tolist() == [[-103.0, -109.0, -105.0]] * 3


class Least(Counted):
    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        super().choose(candidates, rng)
        return int(np.argmin(candidates.feature_rows(range(len(candidates)))[:, 0]))


class Theirs(TableHooks):
    """Worth what the other seats took: only their players decide it."""

    def value(self, root: TableState, state: TableState, seat: int) -> float:
        return float(sum(sum(r) - r[seat] for r in state.rounds))


def test_the_other_seats_play_out_by_others() -> None:
    """From turn 0, seat 0 picks, seats 1 and 2 pick, seat 0 again (turn 3), then 1 and 2:
    a playout asks the deciding seat's policy once and ``others`` four times. Seat 0 takes
    its pick and then the largest of turn 3's offers; what the others take is theirs."""
    game = ToyTable()
    root = TableState(turn=0, first=0, offers=(3, 9, 5), rounds=((0, 0, 0),))
    own, others = Counted(), Least()
    values = playout_simulator(game, TableHooks(root), game.candidates(root),
                               (own, own, own), others=others)(2, np.random.default_rng(7))
    assert own.seats == [0] * 6 and others.seats == [1, 2, 1, 2] * 6
    assert np.all(values - values[:, :1] == [0, -6, -2])
    # Seat 1 deciding at turn 1: then seats 2 and 0 (others), itself (own), seat 2 (others)
    late = TableState(turn=1, first=0, offers=(3, 9, 5), rounds=((4, 0, 0),))
    own, others = Counted(), Least()
    least = playout_simulator(game, Theirs(late), game.candidates(late), (own, own, own),
                              others=others)(20, np.random.default_rng(7))
    assert own.seats == [1] * 60 and others.seats == [2, 0, 2] * 60
    # the others take the least on offer, not the most: what they took is never more
    most = playout_simulator(game, Theirs(late), game.candidates(late),
                             (own, own, own))(20, np.random.default_rng(7))
    assert np.all(least <= most) and np.any(least < most)
    assert np.all(least == least[:, :1])  # the others' picks do not depend on seat 1's

    class Compiled(Theirs):  # the player with others never takes a compiled simulator
        def simulator(self, candidates: Candidates, policies: Any) -> Any:
            return lambda n, rng: np.tile([0.0, 1.0, 0.0], (n, 1))
    own, others = Counted(), Least()
    player = SamplingPlayer(game, Compiled(late), (own, own, own),  # type: ignore[arg-type]
                            SamplingSettings(trials=5, stop="none"), others=others)
    player.decide(game.candidates(late), np.random.default_rng(2))
    assert set(own.seats) == {1} and set(others.seats) == {0, 2}
    assert dataclasses.replace(player, others=None).decide(
        game.candidates(late), np.random.default_rng(2))[0] == 1


def test_a_game_without_hooks_is_named() -> None:
    with pytest.raises(ValueError, match="toy has no hidden-information hooks"):
        require_hooks(ToyGame())


class VisibleToy(ToyGame):
    """The toy game with the hooks: its view is the state (it hides nothing)."""

    hidden_information = None  # set below: the hooks read the view

    def candidates(self, state: ToyState) -> Candidates:
        c = super().candidates(state)
        return Candidates(c.kind, c.labels, c.features, c.feature_names, view=state)


class ViewHooks(ToyHooks):
    def __init__(self) -> None:
        pass

    def determinize(self, view: object, rng: np.random.Generator) -> ToyState:
        assert isinstance(view, ToyState)
        return view


VisibleToy.hidden_information = ViewHooks()  # type: ignore[assignment]


def test_the_game_agnostic_player_simulates_any_game_with_hooks() -> None:
    from fuzzeval.play.match import make_player, play_game

    game = VisibleToy()
    player = make_player(game, "sampling", rollout="random", trials=60, stop="none")  # type: ignore[arg-type]
    record = play_game(game, (player, game.make_player("random")), seed=3, index=0)  # type: ignore[arg-type]
    mine = [d for d in record.decisions if d.seat == 0]
    assert len(mine) == 3 and all(d.record["trials"] == 60 for d in mine)
    assert all(len(str(d.record["means"]).split()) == 3 for d in mine)
    # Common random numbers make each offer's lead exact: means differ as the offers do.
    root = ToyState(turn=0, first=0, offers=(2, 8, 5), sums=(0, 0))
    choice, note = player.decide(game.candidates(root), np.random.default_rng(0))  # type: ignore[attr-defined]
    means = [float(x) for x in str(note["means"]).split()]
    assert choice == 1
    assert means[1] - means[0] == pytest.approx(6) and means[2] - means[0] == pytest.approx(3)
    wins = sum(play_game(game, (player, game.make_player("random")), seed=4, index=i)  # type: ignore[arg-type]
               .outcome.winner == 0 for i in range(20))
    assert wins >= 17


class MaxToy(VisibleToy):
    """The toy game with hooks and one more player, ``max``."""

    player_names = (*VisibleToy.player_names, "max")

    def make_player(self, name: str, **options: Any) -> Any:
        return MaxPlayer() if name == "max" else super().make_player(name, **options)


def test_the_game_agnostic_player_takes_the_other_seats_player_by_name() -> None:
    from fuzzeval.play.match import make_player

    player = make_player(MaxToy(), "sampling", rollout="random", others="max", trials=5)
    assert isinstance(player.others, MaxPlayer)
    assert all(isinstance(p, RandomPlayer) for p in player.rollout)
    assert make_player(MaxToy(), "sampling", rollout="max").others is None
    assert make_player(MaxToy(), "sampling", rollout="max", others="max").others is None


@pytest.mark.parametrize(("options", "message"), [
    ({"trials": 0}, "trials must be a whole number from 1 to 100,000"),
    ({"trials": 10**12}, "trials must be a whole number from 1 to 100,000 [(]got 10{12}[)]"),
    ({"stop": "soon"}, "stop must be one of"),
    ({"rollout": "sampling"}, r"rollout must be one of random, rulebase, td [(]got .sampling.[)]"),
    ({"depth": 2}, r"does not take options \['depth'\] \(options: horizon, others, rollout, "
                   r"stop, trials\)"),
    ({"others": "nobody"}, r"others must be one of random, rulebase, td [(]got .nobody.[)]"),
])
def test_the_game_agnostic_player_refuses_bad_options(options: dict[str, Any],
                                                      message: str) -> None:
    from fuzzeval.play.match import make_player

    with pytest.raises(ValueError, match=message):
        make_player(VisibleToy(), "sampling", **options)  # type: ignore[arg-type]


class FlakyToy(VisibleToy):
    """The toy game with a player whose every 400th choice raises, as a broken rollout
    policy would in the middle of a simulation."""

    player_names = ("random", "rulebase", "flaky")

    def make_player(self, name: str, **options: Any) -> Any:
        if name == "flaky":
            return Flaky()
        return super().make_player(name, **options)


class Flaky:
    def __init__(self) -> None:
        self.calls = 0

    def choose(self, candidates: Candidates, rng: np.random.Generator) -> int:
        self.calls += 1
        if self.calls % 400 == 0:
            raise RuntimeError("the rollout policy broke")
        return 0


def test_a_rollout_policy_that_raises_leaves_only_whole_games_stored(tmp_path: Any) -> None:
    from fuzzeval.play.match import MatchSpec
    from fuzzeval.play.match_runs import run_match
    from fuzzeval.play.spec import PlayerSpec
    from fuzzeval.play.store import History, read_decisions, read_games

    game = FlakyToy()
    spec = MatchSpec("toy", PlayerSpec.parse("sampling:rollout=flaky,trials=4,stop=none"),
                     PlayerSpec("random"), 10, 1)
    db = tmp_path / "h.sqlite"
    with History(db) as h, pytest.raises(RuntimeError, match="the rollout policy broke"):
        run_match(h, game, spec)  # type: ignore[arg-type]
    games = read_games(db)
    decisions = read_decisions(db)
    # The games finished before the failure are stored whole (three decisions of seat 0
    # each, with their notes); the game it broke left nothing behind.
    assert 0 < len(games) < 10
    per_game = decisions[decisions.seat == 0].groupby("game").size()
    assert set(per_game.index) == set(games["game"]) and (per_game == 3).all()
    assert decisions[decisions.seat == 0]["trials"].notna().all()  # the random seat: none


def test_a_twin_of_the_best_is_no_rival() -> None:
    # Candidates 0 and 1 are two cards of one rank: equal in every trial. Candidate 2 is
    # 3 worse in every trial: both rules may stop, the twins being one choice.
    swing = np.array([0.0, 10.0, 2.0, 7.0, 5.0, 1.0])
    values = np.stack([swing, swing, swing - 3], axis=1)
    assert obvious(values, "paired")
    assert not obvious(values, "obvious")  # 3 is not more than the two deviations
    assert obvious(np.stack([swing, swing], axis=1), "obvious")  # all alike: any will do
    assert not obvious(np.stack([swing, swing], axis=1), "none")


# --- the stop rule over every trial so far; a simulation's exact means ----------------


def scripted(blocks: Sequence[Sequence[Sequence[float]]], calls: list[int]) -> Simulator:
    """A simulator that gives these batches of trial values, one per call, in order."""

    def run(n: int, rng: np.random.Generator) -> np.ndarray:
        block = np.array(blocks[len(calls)], dtype=np.float64)
        calls.append(n)
        assert block.shape[0] == n
        return block

    return run


@pytest.mark.pinned
def test_the_stop_rule_judges_every_trial_so_far_not_the_last_batch() -> None:
    # Batch 1: candidate 1 is 10 better in both trials; batch 2: candidate 0 is. Each batch
    # alone is "obvious" (a gap of 10, no spread), the four trials together are a tie
    # (means 5 and 5): no stop after trial 4, so the third batch runs too.
    blocks = [[[0, 10], [0, 10]], [[10, 0], [10, 0]], [[10, 0], [10, 0]]]
    rules: tuple[StopRule, ...] = ("obvious", "paired")
    for rule in rules:
        calls: list[int] = []
        settings = SamplingSettings(trials=6, stop=rule, batch=2, min_trials=4)
        result = simulate(scripted(blocks, calls), 2, settings, np.random.default_rng(0))
        assert calls == [2, 2, 2], rule
        assert result.trials == 6 and not result.stopped
        # By hand: candidate 0 scored 0, 0, 10, 10, 10, 10 (mean 20/3), candidate 1 the
        # mirror (mean 10/3); both deviate by 20/3 twice and 10/3 four times: the sample
        # deviation is sqrt((2 * 400/9 + 4 * 100/9) / 5).
        assert result.means.tolist() == pytest.approx([20 / 3, 10 / 3], abs=1e-12)
        sd = np.sqrt((2 * 400 / 9 + 4 * 100 / 9) / 5)
        assert result.sds.tolist() == pytest.approx([sd, sd], abs=1e-12)
        assert result.best == 0
        assert result.record() == {"trials": 6, "stopped": 0, "means": "6.667 3.333",
                                   "sds": f"{sd:.3f} {sd:.3f}"}


@pytest.mark.pinned
def test_a_stop_takes_the_earlier_batches_into_account() -> None:
    # The other way round: the last batch alone is a tie (1, -1 against -1, 1), but with
    # the three batches before it the second candidate leads by 7.5 (means -0 and 7.5; the
    # deviations 0.53 and 4.63, the paired differences' standard error 1.67): obvious by
    # both rules after 8 trials.
    ahead = [[0, 10], [0, 10]]
    blocks = [ahead, ahead, ahead, [[1, -1], [-1, 1]], [[0, 0], [0, 0]]]
    values = np.array([row for block in blocks[:4] for row in block], dtype=np.float64)
    sds = values.std(axis=0, ddof=1)
    assert sds.sum() + 2 < 7.5  # Billings et al.'s rule fires, with room
    diffs = values[:, 1] - values[:, 0]
    assert diffs.mean() > 2.5 * diffs.std(ddof=1) / np.sqrt(8) + 2  # and the paired one
    rules: tuple[StopRule, ...] = ("obvious", "paired")
    for rule in rules:
        calls: list[int] = []
        settings = SamplingSettings(trials=10, stop=rule, batch=2, min_trials=8)
        result = simulate(scripted(blocks, calls), 2, settings, np.random.default_rng(0))
        assert calls == [2, 2, 2, 2] and result.trials == 8 and result.stopped, rule
        assert result.means.tolist() == [0.0, 7.5]  # (0 * 6 + 1 - 1) / 8, (60 - 1 + 1) / 8
        assert result.best == 1


@pytest.mark.pinned
def test_a_toy_simulations_means_are_the_exact_expectations() -> None:
    # Seat 0 (sum 4) takes 3, 9 or 5 on the fifth turn; seat 1 (sum 7) then takes the
    # largest of three fresh numbers 0..10. The worth of taking o is 4 + o - 7 - M, M the
    # largest of three: its distribution by enumerating all 11^3 draws.
    largest = np.array([max(t) for t in product(range(11), repeat=3)], dtype=np.float64)
    mean_m, sd_m = largest.mean(), largest.std()
    assert mean_m == pytest.approx(85 / 11)  # sum_k P(M > k) = 11 - (1^3 + ... + 11^3) / 11^3
    exact = [4 + o - 7 - mean_m for o in (3, 9, 5)]
    game = ToyGame()
    root = ToyState(turn=4, first=0, offers=(3, 9, 5), sums=(4, 7))
    sim = playout_simulator(game, ToyHooks(root), game.candidates(root),
                            (MaxPlayer(), MaxPlayer()))
    n = 3000
    result = simulate(sim, 3, SamplingSettings(trials=n, stop="none", batch=500),
                      np.random.default_rng(11))
    assert result.trials == n and not result.stopped
    # Each mean is an average of n independent draws of -M (shifted): within 5 standard
    # errors of the expectation (a wrong one, e.g. the seat's own offer left out, is >= 3
    # points off); the common random numbers make the differences exact.
    se = sd_m / np.sqrt(n)
    assert np.abs(result.means - exact).max() < 5 * se
    assert result.means[1] - result.means[0] == pytest.approx(6, abs=1e-12)
    assert result.means[2] - result.means[0] == pytest.approx(2, abs=1e-12)
    # The deviation of every candidate is M's (the same draws): within 10 %.
    assert result.sds == pytest.approx([sd_m] * 3, rel=0.1)
    assert result.best == 1


# --- the sampling player's defaults and choice; softmax of large grades ---------------


@pytest.mark.mutation_pin
def test_the_sampling_player_defaults_to_the_seeds_rule_and_stops_no_earlier_than_50() -> None:
    player = make_player(VisibleToy(), "sampling", rollout="random")
    settings = player.settings  # type: ignore[attr-defined]
    assert (settings.trials, settings.stop, settings.min_trials) == (500, "obvious", 50)


@pytest.mark.mutation_pin
def test_one_trial_is_a_valid_budget() -> None:
    player = make_player(VisibleToy(), "sampling", rollout="random",
                         trials=1)
    assert (player.settings.trials, player.settings.min_trials) == (1, 1)  # type: ignore[attr-defined]


@pytest.mark.mutation_pin
def test_choose_is_the_choice_decide_makes() -> None:
    game = VisibleToy()
    player = make_player(game, "sampling", rollout="random", trials=60,
                         stop="none")
    cands = game.candidates(ToyState(turn=0, first=0, offers=(2, 8, 5), sums=(0, 0)))
    # offers 2, 8, 5: taking the 8 leads by the most in every trial (common random numbers)
    assert player.choose(cands, np.random.default_rng(0)) == 1


@pytest.mark.mutation_pin
def test_softmax_draws_from_grades_too_large_to_exponentiate() -> None:
    """exp(1000) overflows: without the shift by the largest grade the probabilities were
    inf/inf (NaN) and the draw failed. Grades 1000 and 1001 at temperature 1 are drawn as
    1 and e, so the second with chance e / (1 + e) = 0.731."""
    from fuzzeval.search.sampling import softmax_choice

    rng = np.random.default_rng(3)
    with np.errstate(over="raise", invalid="raise"):
        picks = [softmax_choice(np.array([1000.0, 1001.0]), 1.0, rng) for _ in range(4000)]
    # 4,000 draws: the share's standard deviation is 0.007, so 0.731 ± 0.03 is 4 of them
    assert abs(np.mean(picks) - np.e / (1 + np.e)) < 0.03
