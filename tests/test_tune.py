"""CMA-ES tuning: the searched space keeps every triangle valid, the loop finds a known
optimum through the game-agnostic measure protocol, is seeded, resumes exactly (also
after SIGKILL), its best so far is the largest objective of every rule base evaluated, the
start's included (never worse on the training units than the file it came from), and the
CLI refuses bad input without writing anything."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.engine.rulebase import PointRef, RuleBase
from fuzzeval.errors import FuzzevalError
from fuzzeval.formats.loading import load_rulebase, parse_rulebase
from fuzzeval.formats.yaml_edit import rewrite_points
from fuzzeval.learn.tune import (
    Generation,
    Space,
    TuneSettings,
    load_tuning,
    made_by,
    run_tuning,
    tuned_name,
)
from fuzzeval.play.store import History
from tests.killing import rows_in

ROOT = Path(__file__).resolve().parents[1]
LINGUISTIC = ROOT / "rulebases" / "cribbage_linguistic.yaml"
TIPPING = ROOT / "rulebases" / "tipping.yaml"
runner = CliRunner()


def test_points_standing_together_move_as_one_and_fixed_points_bound_them() -> None:
    rb = load_rulebase(LINGUISTIC)
    space = Space.of(rb)
    kept = [p for p in space.params if p.variable == "kept_points"]
    assert [p.start for p in kept] == [7, 10]
    assert {str(r) for r in kept[0].refs} == {"kept_points.four.right",
                                              "kept_points.fair.peak",
                                              "kept_points.good.left"}
    # fixed points of kept_points: 0, 2, 4, 12, 20 -> both live between 4 and 12
    assert (kept[0].floor, kept[0].ceiling) == (4, 12) == (kept[1].floor, kept[1].ceiling)
    # only the conclusions with bounds are searched: the kept hand's and nothing stay
    assert space.dimension == 5 and len(rb.bounded_outputs()) == 22
    assert Space.of(rb, outputs=True).dimension == 27
    searched = {p.term for p in Space.of(rb, outputs=True).params if not p.refs}
    assert searched.isdisjoint({"nothing", "two", "four", "six", "eight", "twelve", "twenty"})
    five = next(p for p in Space.of(rb, outputs=True).params if p.term == "five_to_them")
    assert (five.lo, five.hi, five.floor, five.ceiling) == (-6, 0, -6, 0)
    # a searched conclusion is named by the output and its term (the tuning's report)
    assert (five.variable, five.label, five.refs) == ("worth", "worth.five_to_them", ())


def test_the_start_is_the_rule_base_itself() -> None:
    rb = load_rulebase(LINGUISTIC)
    space = Space.of(rb, outputs=True)
    assert space.at(space.x0()) == rb


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=39, max_size=39))
def test_any_point_of_the_cube_is_a_valid_rule_base_with_partitions_kept(
        xs: list[float]) -> None:
    rb = load_rulebase(LINGUISTIC)
    space = Space.of(rb, outputs=True)
    tuned = space.at(xs[: space.dimension])  # with_points raises on a broken triangle
    kept = tuned.input("kept_points")
    # the terms still add up to 1 everywhere: shared feet moved with the peaks
    assert kept.term("four").triangle.right == kept.term("fair").triangle.peak \
        == kept.term("good").triangle.left
    assert kept.term("fair").triangle.peak <= kept.term("good").triangle.peak
    for t in tuned.output.terms:  # within its bounds, or as written
        if t.bounds is None:
            assert t == rb.output.term(t.name)
        else:
            assert t.bounds[0] <= t.triangle.peak <= t.bounds[1]


@dataclass(frozen=True)
class _Target:
    """A measure whose best is known: tipping's adjustable peak at 3.3 (per-unit values
    with noise that averages out exactly)."""

    names: tuple[str, ...] = ("closeness",)

    def contributions(self, rb: RuleBase) -> np.ndarray:
        peak = rb.point(PointRef("quality", "average", "peak"))
        noise = np.array([0.5, -0.5])
        return np.array([-(peak - 3.3) ** 2 + noise])


def _tune(db: Path, budget: int, executor: ProcessPoolExecutor | None = None,
          resume: bool = False) -> tuple[float, ...]:
    rb = load_rulebase(TIPPING)
    with History(db) as h:
        t = run_tuning(h, Space.of(rb), _Target(), TuneSettings("toy", 2, 7), TIPPING.read_text(),
                       budget, executor, resume)
    return t.generations[-1].best_x


def test_cma_es_finds_a_known_optimum_through_the_measure_protocol(tmp_path: Path) -> None:
    rb = load_rulebase(TIPPING)
    space = Space.of(rb)
    best = space.at(_tune(tmp_path / "a.sqlite", 150))
    assert best.point(PointRef("quality", "average", "peak")) == pytest.approx(3.3, abs=0.01)
    assert rb.point(PointRef("quality", "average", "peak")) == 5


def test_seeded_and_resumes_to_exactly_the_uninterrupted_run(tmp_path: Path) -> None:
    whole = _tune(tmp_path / "a.sqlite", 120)
    _tune(tmp_path / "b.sqlite", 50)
    assert _tune(tmp_path / "b.sqlite", 120, resume=True) == whole
    with ProcessPoolExecutor(2) as pool:
        assert _tune(tmp_path / "c.sqlite", 120, pool) == whole
    with History(tmp_path / "b.sqlite") as h:
        gens = load_tuning(h).generations
    with History(tmp_path / "a.sqlite") as h:
        assert load_tuning(h).generations == gens


def test_output_singletons_are_rewritten_in_place_keeping_comments() -> None:
    text = LINGUISTIC.read_text()
    rb = load_rulebase(LINGUISTIC)
    changed = rb.with_outputs({"five_to_them": -2.25, "flush": 4.75})
    out = rewrite_points(text, changed)
    back, _ = parse_rulebase(out)
    assert back == changed
    assert "    five_to_them: {points: -2.25, bounds: [-6, 0]}\n" in out
    assert "    flush: {points: 4.75, bounds: [0, 5]}\n" in out
    assert out.splitlines()[0] == text.splitlines()[0]
    assert out.count("\n") == text.count("\n")  # no comment stated those two numbers
    with pytest.raises(ValueError, match="outside the range"):
        rb.with_outputs({"nobs": 99})
    with pytest.raises(ValueError, match=r"'nobs': 1.5 is outside its bounds \[0, 1\]"):
        rb.with_outputs({"nobs": 1.5})


class _MoreIsBetter:
    """A measure that rewards every conclusion for being larger: unbounded, it would push
    every one to the top of the output range."""

    names = ("sum",)

    def contributions(self, rb: RuleBase) -> np.ndarray:
        return np.array([[sum(t.triangle.peak for t in rb.output.terms)] * 2])


def test_a_tuning_with_outputs_cannot_move_pinned_conclusions(tmp_path: Path) -> None:
    rb = load_rulebase(LINGUISTIC)
    space = Space.of(rb, outputs=True)
    with History(tmp_path / "t.sqlite") as h:
        t = run_tuning(h, space, _MoreIsBetter(), TuneSettings("toy", 2, 5, outputs=True,
                                                               sigma0=0.5),
                       LINGUISTIC.read_text(), 150)
    tuned = space.at(t.best_x(space))
    pinned = {"nothing": 0, "two": 2, "four": 4, "six": 6, "eight": 8, "twelve": 12,
              "twenty": 20}
    assert {n: tuned.output.term(n).triangle.peak for n in pinned} == pinned
    # the others went up, each within its own bounds, not the output range [-6, 20]
    bounded = [t for t in tuned.output.terms if t.bounds]
    assert sum(t.triangle.peak for t in bounded) > sum(
        rb.output.term(t.name).triangle.peak for t in bounded) + 5
    assert all(t.bounds[0] <= t.triangle.peak <= t.bounds[1] for t in bounded)


def test_searching_every_conclusion_is_refused_as_nothing_would_fix_the_scale(
        tmp_path: Path) -> None:
    text = re.sub(r"(?m)^    (two|four|six|eight|twelve|twenty): (\d+)$",
                  r"    \1: {points: \2, bounds: [0, 20]}", LINGUISTIC.read_text())
    rb = parse_rulebase(text)[0]
    assert rb is not None and len(rb.bounded_outputs()) == 28
    assert Space.of(rb).dimension == 5  # the points alone may still be tuned
    with pytest.raises(FuzzevalError, match="the output terms without 'bounds:' have one value "
                       "among them, so nothing fixes the scale"):
        Space.of(rb, outputs=True)
    path = tmp_path / "all.yaml"
    path.write_text(text)
    res = runner.invoke(app, ["tune", "cribbage", "--rulebase", str(path), "--db",
                              str(tmp_path / "runs" / "t.sqlite")])
    assert res.exit_code == 1 and len(res.output.strip().splitlines()) == 1
    assert res.output.startswith(f"error: {path}: rule base 'cribbage_linguistic': the "
                                 "output terms without 'bounds:' have one value"), res.output
    assert not (tmp_path / "runs").exists()


def test_the_tuned_base_is_named_and_says_how_to_make_it_again() -> None:
    settings = TuneSettings("cribbage", 3000, 1, outputs=True)
    assert made_by(settings, "cribbage_linguistic", 8000, 6315) == (
        "tuned by `fuzzeval tune cribbage --rulebase cribbage_linguistic "
        "--training-deals 3000 "
        "--budget 8000 --seed 1` (CMA-ES, 6,315 evaluations)")
    odd = TuneSettings("cribbage", 150, 3, outputs=False, sigma0=0.2, popsize=6)
    assert made_by(odd, "x.yaml", 700, 12) == (
        "tuned by `fuzzeval tune cribbage --rulebase x.yaml --training-deals 150 "
        "--budget 700 --seed 3 --sigma 0.2 --popsize 6 --points-only` (CMA-ES, 12 evaluations)")
    # pasted back into a shell it runs the same search: a path quoted, every digit kept
    # (written "--rulebase a: b #1.yaml" and "--sigma 0.123457" before)
    exact = TuneSettings("cribbage", 150, 3, outputs=True, sigma0=0.123456789)
    assert made_by(exact, "a: b #1.yaml", 700, 12) == (
        "tuned by `fuzzeval tune cribbage --rulebase 'a: b #1.yaml' --training-deals 150 "
        "--budget 700 --seed 3 --sigma 0.123456789` (CMA-ES, 12 evaluations)")
    assert tuned_name("cribbage_linguistic") == "cribbage_linguistic_tuned"
    assert tuned_name("cribbage_linguistic_tuned") == "cribbage_linguistic_tuned"


def _no_files(folder: Path) -> bool:
    return not any(folder.rglob("*.sqlite")) and not any(folder.rglob("*.yaml"))


def test_bad_input_is_one_line_and_exit_2_with_nothing_written(tmp_path: Path) -> None:
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(re.sub(r"\{points: (\[[^]]*\]), adjust: \[[^]]*\]\}", r"\1",
                            LINGUISTIC.read_text()))
    assert not load_rulebase(fixed).adjustable_points()
    db = ["--db", str(tmp_path / "runs" / "t.sqlite")]
    cases = [
        (["tune", "cribbage", "--budget", "0", *db], "--budget must be at least 1"),
        (["tune", "backgammon", *db], "offers no measure"),
        (["tune", "cribbage", "--rulebase", str(fixed), "--points-only", *db],
         "has nothing to tune"),
        (["tune", "cribbage", "--budget", "3", *db], "less than the start and one generation"),
        (["tune", "cribbage", "--sigma", "0", *db],
         "--sigma must be in [0.001, 1], a share of each point's range (got 0)"),
        (["tune", "cribbage", "--sigma", "1e-300", *db],
         "--sigma must be in [0.001, 1], a share of each point's range (got 1e-300)"),
    ]
    for args, message in cases:
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        assert message in res.output and len(res.output.strip().splitlines()) == 1, res.output
        assert "Traceback" not in res.output
    assert _no_files(tmp_path / "runs") and not (tmp_path / "runs").exists()


def test_a_killed_tune_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    # 20 generations: the kill after the fifth leaves 15 to resume (time to spare)
    common = ["tune", "cribbage", "--training-deals", "150", "--held-out-deals", "40",
              "--budget", "260", "--workers", "2", "--seed", "3"]
    whole = runner.invoke(app, [*common, "--db", str(tmp_path / "a.sqlite"), "--json"])
    assert whole.exit_code == 0, whole.output
    data = json.loads(whole.stdout)
    assert data["evaluations"] <= 260 and data["tuned"].endswith("a.tuned.yaml")
    written = load_rulebase(tmp_path / "a.tuned.yaml")
    assert written.name == "cribbage_linguistic_tuned"
    assert written.made_by == (
        "tuned by `fuzzeval tune cribbage --rulebase cribbage_linguistic --training-deals 150 "
        f"--budget 260 --seed 3` (CMA-ES, {data['evaluations']:,} evaluations)")
    db = tmp_path / "b.sqlite"
    cmd = [sys.executable, "-m", "fuzzeval", *common, "--db", str(db)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 120
    while rows_in(db, "tuning_generations") < 5 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 5 <= rows_in(db, "tuning_generations") < data["generations"]
    again = runner.invoke(app, [*common, "--db", str(db), "--resume", "--json"])
    assert again.exit_code == 0, again.output
    assert (tmp_path / "b.tuned.yaml").read_text() == (tmp_path / "a.tuned.yaml").read_text()
    assert json.loads(again.stdout)["held_out"] == data["held_out"]


def test_dask_tunes_on_the_cluster_to_the_local_result(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    common = ["tune", "cribbage", "--training-deals", "100", "--held-out-deals", "20",
              "--budget", "60", "--seed", "4", "--json"]
    local = runner.invoke(app, [*common, "--db", str(tmp_path / "a.sqlite")])
    assert local.exit_code == 0, local.output
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = runner.invoke(app, [*common, "--db", str(tmp_path / "b.sqlite"), "--dask",
                                     cluster.scheduler_address])
        ran_there = set(cluster.scheduler.task_prefixes)
    assert remote.exit_code == 0, remote.output
    assert "score" in ran_there  # the rule bases were evaluated by the cluster's workers
    assert (tmp_path / "b.tuned.yaml").read_text() == (tmp_path / "a.tuned.yaml").read_text()


def test_review_findings_fail_early_and_cleanly(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    db = ["--db", str(runs / "t.sqlite")]
    # a budget that only pays for the start runs nothing: refused, not a NaN "result"
    res = runner.invoke(app, ["tune", "cribbage", "--budget", "13", *db])
    assert res.exit_code == 2 and "the start and one generation" in res.output, res.output
    # --output naming a folder is refused before any work
    (tmp_path / "adir").mkdir()
    res = runner.invoke(app, ["tune", "cribbage", "--output", str(tmp_path / "adir"), *db])
    assert res.exit_code == 2 and "not a file name" in res.output
    # a rule base whose terms are YAML aliases cannot have its points written back
    aliased = tmp_path / "alias.yaml"
    aliased.write_text(LINGUISTIC.read_text().replace(
        "    terms: {\"no\": [0, 0, 1], \"yes\": [0, 1, 1]}",
        "    terms: &binary {\"no\": [0, 0, 1], \"yes\": [0, 1, 1]}", 1).replace(
        "    terms: {\"no\": [0, 0, 1], \"yes\": [0, 1, 1]}", "    terms: *binary"))
    assert load_rulebase(aliased)
    res = runner.invoke(app, ["tune", "cribbage", "--rulebase", str(aliased), *db])
    assert res.exit_code == 1 and "anchors and aliases" in res.output, res.output
    assert not runs.exists()


def test_a_start_with_more_decimals_is_still_the_start_exactly() -> None:
    rb = load_rulebase(LINGUISTIC)
    ref = PointRef("kept_points", "four", "right")
    odd = rb.with_points({ref: 7.123456, PointRef("kept_points", "fair", "peak"): 7.123456,
                          PointRef("kept_points", "good", "left"): 7.123456})
    space = Space.of(odd, outputs=True)
    assert space.at(space.x0()) == odd


def test_small_moved_numbers_are_written_as_yaml_floats() -> None:
    from fuzzeval.formats.yaml_edit import _number

    for x in (1e-05, -3e-09, 2.5e-07, 0.1, 1e20):
        assert yaml.safe_load(_number(x)) == x and isinstance(yaml.safe_load(_number(x)), float)


def test_each_generation_reported_is_the_generation_stored(tmp_path: Path) -> None:
    """What ``on_generation`` hands a caller (the progress of `fuzzeval tune`) is what the
    history keeps, best point included, and the best never falls below the start's."""
    rb = load_rulebase(TIPPING)
    told: list[object] = []
    with History(tmp_path / "a.sqlite") as h:
        t = run_tuning(h, Space.of(rb), _Target(), TuneSettings("toy", 2, 7),
                       TIPPING.read_text(), 30, on_generation=told.append)
    assert len(t.generations) >= 3 and tuple(told) == t.generations
    assert all(len(g.best_x) == 1 for g in t.generations)
    start = -(5 - 3.3) ** 2  # the peak as written, 5: the noise averages out
    assert [g.best for g in t.generations] == sorted(g.best for g in t.generations)
    assert t.generations[0].best >= start


def test_a_tuning_without_generations_is_at_its_start() -> None:
    """Tuning.best_x before any generation: the start (the rule base as written)."""
    from fuzzeval.learn.tune import Tuning

    space = Space.of(load_rulebase(TIPPING))
    empty = Tuning(1, TuneSettings("toy", 2, 7), "tipping", TIPPING.read_text())
    assert empty.best_x(space).tolist() == space.x0().tolist() == [0.5]


def test_a_cma_step_draws_from_numpys_global_generator_seeded_per_generation() -> None:
    """_seeded guards CMA-ES's steps against draws from numpy's global generator: the same
    (seed, generation) draws the same, another generation draws otherwise, and the
    caller's own global state comes back untouched."""
    from fuzzeval.learn.tune import _seeded

    np.random.seed(123)  # noqa: NPY002 - the legacy global is what is guarded
    before = np.random.random()  # noqa: NPY002
    np.random.seed(123)  # noqa: NPY002

    def draw() -> float:
        return float(np.random.random())  # noqa: NPY002

    first, again = _seeded(draw, 7, 3), _seeded(draw, 7, 3)
    assert first == again != _seeded(draw, 7, 4)
    assert np.random.random() == before  # noqa: NPY002


def test_the_discard_measure_refuses_inputs_that_are_no_discard_feature() -> None:
    """Before any exact value is worked out (the deals would take seconds)."""
    from fuzzeval.games.cribbage.features import FEATURE_NAMES
    from fuzzeval.games.cribbage.measure import discard_measure

    with pytest.raises(ValueError, match=r"^inputs \['pips', 'count'\] are not cribbage "
                       r"discard features \(hand_value, "):
        discard_measure(("kept_points", "pips", "count"), 3000, 1)
    assert FEATURE_NAMES[0] == "hand_value"


def test_the_cribbage_measure_keeps_its_exact_values_in_the_cache_folder(tmp_path: Path) -> None:
    from fuzzeval.games.cribbage.game import GAME

    measure = GAME.rulebase_measure(("kept_points",), 4, 1, None, tmp_path)
    assert measure is not None and len(list(tmp_path.iterdir())) >= 1


def test_a_search_that_stops_by_itself_says_why_in_words() -> None:
    import cma

    from fuzzeval.learn.tune import stop_words

    def one_generation(sigma: float) -> cma.CMAEvolutionStrategy:
        es = cma.CMAEvolutionStrategy([0.5, 0.5, 0.5], sigma, {"verbose": -9, "seed": 1,
                                                               "bounds": [0, 1]})
        xs = es.ask()
        es.tell(xs, [sum(x) for x in xs])
        return es

    words = stop_words(one_generation(1e-300))
    assert "its steps fell below 1e-11 of a point's range" in words
    assert "its steps no longer moved some points" in words
    assert stop_words(one_generation(0.1)) == ()


# --- the best so far: the running maximum of what was evaluated, the start included ---


PEAK = PointRef("quality", "average", "peak")  # tipping's one adjustable point, at 5


class Recorder:
    """A measure that remembers, in order, the objective of every rule base it is shown:
    -(peak - target)^2 on each of two units (+-0.5 noise that averages out)."""

    names: tuple[str, ...] = ("closeness",)

    def __init__(self, target: float, bumpy: bool = False) -> None:
        self.target = target
        self.bumpy = bumpy
        self.seen: list[float] = []

    def contributions(self, rb: RuleBase) -> np.ndarray:
        peak = rb.point(PEAK)
        value = -(peak - self.target) ** 2
        if self.bumpy:  # many local optima: later generations often score worse
            value += 3 * np.sin(7 * peak)
        self.seen.append(value)
        return np.array([[value + 0.5, value - 0.5]])


def tune(db: Path, measure: Recorder, budget: int, seed: int) -> list[Generation]:
    rb = load_rulebase(TIPPING)
    gens: list[Generation] = []
    with History(db) as h:
        run_tuning(h, Space.of(rb), measure, TuneSettings("toy", 2, seed),
                   TIPPING.read_text(), budget=budget, on_generation=gens.append)
    return gens


@pytest.mark.pinned
def test_a_start_that_is_already_best_stays_the_best(tmp_path: Path) -> None:
    # The peak starts at the optimum (5): the start scores 0, every other point less.
    measure = Recorder(target=5.0)
    gens = tune(tmp_path / "t.sqlite", measure, budget=40, seed=1)
    assert len(gens) >= 5
    assert measure.seen[0] == 0.0  # the start, evaluated first
    assert sum(v < 0 for v in measure.seen[1:]) > len(measure.seen) // 2  # worse ones
    for g in gens:
        assert g.best == 0.0
        assert g.mean < 0  # every generation's own mean is worse than the start


@pytest.mark.pinned
@pytest.mark.parametrize("seed", [2, 5])
def test_the_best_so_far_is_the_running_maximum_of_what_was_evaluated(
        tmp_path: Path, seed: int) -> None:
    measure = Recorder(target=3.3, bumpy=True)
    gens = tune(tmp_path / "t.sqlite", measure, budget=120, seed=seed)
    assert len(gens) >= 10
    start = measure.seen[0]
    for g in gens:
        assert g.best == pytest.approx(max(measure.seen[:g.evaluations]), abs=1e-12)
        assert g.best >= start
    bests = [g.best for g in gens]
    assert bests == sorted(bests)  # never down
    # ...and it moves: some generation improved on the start, and some generation's own
    # mean fell below the best found before it (so a "best" that was only the current
    # generation's would have gone down).
    assert bests[-1] > start
    assert any(g.mean < prev.best for prev, g in pairwise(gens))
