"""Tuning beyond the paper: CMA-ES searches a rule base's adjustable points for a game's own
measure (``fuzzeval.learn.measure``), generation after generation, resumable from the history.

What is searched (``Space``): every point marked ``adjust:``, where the points of one
variable that stand at the same place move as one (so terms that add up to 1 keep doing
so), and optionally every single-valued output term that declares ``bounds:`` (the values
its meaning allows, e.g. a worth to the opponent never above 0), within them. Output
terms without bounds stay as written: they fix the unit, which a best-choice measure
cannot see (scaling all conclusions alike changes no choice), so the tuned conclusions
still read in the base's own unit. Each number is searched in units of its variable's
range (an output's in units of its bounds), so one step size suits all. A point keeps its
place among the other points of its variable: it stays between the fixed points around it
and in order with the other moving ones, so every triangle stays a triangle whatever
CMA-ES proposes.

The loop (``run_tuning``) is the calibration's: seeded (CMA-ES draws its normals from its
own generator, saved with its state), each generation's state committed to the history
database with the best point so far, evaluations sent to the match executors. A tuning
stopped at any moment resumes from its last committed generation to exactly the result of
an uninterrupted run. Nothing here knows a game.
"""

from __future__ import annotations

import dataclasses
import json
import math
import pickle
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from fuzzeval.engine.rulebase import PointRef, RuleBase
from fuzzeval.errors import FuzzevalError, UsageError
from fuzzeval.learn.measure import Comparison, RulebaseMeasure, objective
from fuzzeval.play.game import Game, GameHooks, hook
from fuzzeval.play.runs import RunKind, made_by_line, settings_from_json, settings_json
from fuzzeval.play.spec import DEALS_MAX, check_held_out, check_seed
from fuzzeval.play.store import History

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Param:
    """One searched number: input points of one variable standing together, or an output
    singleton (``refs`` empty, ``variable`` the output's name, ``term`` set)."""

    variable: str
    refs: tuple[PointRef, ...]
    term: str
    start: float
    lo: float  # the variable's range (an output singleton's: its bounds)
    hi: float
    floor: float  # where the fixed points of its triangles (and those after) let it go
    ceiling: float

    @property
    def label(self) -> str:
        if not self.refs:
            return f"{self.variable}.{self.term}"
        return "=".join(str(r) for r in self.refs)


def _check_scale_pinned(rb: RuleBase) -> None:
    """Refuse to search conclusions when fewer than two distinct ones stay pinned.

    The grade's best choice is unchanged when every conclusion is scaled and shifted alike,
    so a search of them all would wander off the base's unit (points, say) and keep only
    the order: two pinned conclusions of different values fix the unit and the origin, and
    each bounded one is then read in that unit.
    """
    bounded = set(rb.bounded_outputs())
    if not bounded:
        return
    pinned = {t.triangle.peak for t in rb.output.terms if t.name not in bounded}
    if len(pinned) < 2:
        raise FuzzevalError(
            f"rule base {rb.name!r}: the output terms without 'bounds:' have "
            f"{'one value' if pinned else 'no value'} among them, so nothing fixes the scale of "
            "the conclusions; leave at least two terms of different values without 'bounds:' "
            "(they stay as written)")


@dataclass(frozen=True)
class Space:
    """The searched numbers of a rule base, and the rule base at any point of [0, 1]^d.

    ``before`` lists the pairs (i, j) of moving points that share a triangle with i left of
    j; floors and ceilings already include what those pairs pass on, so filling the
    numbers in start order always gives valid triangles.
    """

    rulebase: RuleBase
    params: tuple[Param, ...]
    before: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, rb: RuleBase, outputs: bool = False) -> Space:
        adjustable = set(rb.adjustable_points())
        index: dict[PointRef, int] = {}
        groups: list[tuple[str, float, list[PointRef]]] = []
        for var in rb.inputs:
            starts: dict[float, int] = {}
            for term in var.terms:
                for which, x in zip(("left", "peak", "right"), term.triangle.points,
                                    strict=True):
                    ref = PointRef(var.name, term.name, which)  # type: ignore[arg-type]
                    if ref in adjustable:
                        if x not in starts:
                            starts[x] = len(groups)
                            groups.append((var.name, x, []))
                        groups[starts[x]][2].append(ref)
                        index[ref] = starts[x]
        lower = [rb.input(v).lo for v, _, _ in groups]
        upper = [rb.input(v).hi for v, _, _ in groups]
        pairs: set[tuple[int, int]] = set()
        for var in rb.inputs:
            for term in var.terms:
                pts = [(index.get(PointRef(var.name, term.name, w)), x)  # type: ignore[arg-type]
                       for w, x in zip(("left", "peak", "right"), term.triangle.points,
                                       strict=True)]
                for a in range(3):
                    for b in range(a + 1, 3):
                        (ga, xa), (gb, xb) = pts[a], pts[b]
                        if ga is not None and gb is not None and ga != gb:
                            pairs.add((ga, gb))
                        elif ga is not None and gb is None:
                            upper[ga] = min(upper[ga], xb)
                        elif ga is None and gb is not None:
                            lower[gb] = max(lower[gb], xa)
        order = sorted(range(len(groups)), key=lambda g: groups[g][1])
        for g in reversed(order):  # a point left of another may go no further right
            for a, b in pairs:
                if b == g:
                    upper[a] = min(upper[a], upper[b])
        for g in order:
            for a, b in pairs:
                if a == g:
                    lower[b] = max(lower[b], lower[a])
        params = [Param(v, tuple(refs), "", x, rb.input(v).lo, rb.input(v).hi, lower[g],
                        upper[g]) for g, (v, x, refs) in enumerate(groups)]
        if outputs:
            out = rb.output
            _check_scale_pinned(rb)
            for name in rb.bounded_outputs():
                term = out.term(name)
                lo, hi = term.bounds or (out.lo, out.hi)
                if lo < hi:  # bounds [v, v] pin the term as surely as no bounds
                    params.append(Param(out.name, (), name, term.triangle.peak, lo, hi, lo, hi))
        return cls(rb, tuple(params), tuple(sorted(pairs)))

    @property
    def dimension(self) -> int:
        return len(self.params)

    def x0(self) -> FloatArray:
        return np.array([(p.start - p.lo) / (p.hi - p.lo) for p in self.params])

    def values(self, x: Sequence[float] | FloatArray) -> FloatArray:
        """The numbers at x, each within its floor and ceiling and right of the moving points
        it must follow, to four decimals (what the tuned YAML says was measured)."""
        x = np.asarray(x, dtype=np.float64)
        x0 = self.x0()
        starts = np.array([p.start for p in self.params])
        spans = np.array([p.hi - p.lo for p in self.params])
        out = np.where(x == x0, starts, np.round(starts + (x - x0) * spans, 4))
        for g in sorted(range(len(self.params)), key=lambda i: self.params[i].start):
            p = self.params[g]
            floor = max([p.floor, *(out[a] for a, b in self.before if b == g)])
            out[g] = min(max(out[g], floor), p.ceiling)
        return out

    def at(self, x: Sequence[float] | FloatArray) -> RuleBase:
        moves: dict[PointRef, float] = {}
        outputs: dict[str, float] = {}
        for p, v in zip(self.params, self.values(x), strict=True):
            if p.refs:
                moves.update(dict.fromkeys(p.refs, float(v)))
            else:
                outputs[p.term] = float(v)
        rb = self.rulebase.with_points(moves)
        return rb.with_outputs(outputs) if outputs else rb


#: the smallest start step, as a share of each point's range: at 0.001 a cribbage tuning
#: on 200 deals found its measure flat and CMA-ES stopped after 7 generations; far below
#: it, CMA-ES stops at once (its steps under its 1e-11 tolerance)
SIGMA_MIN = 0.001


@dataclass(frozen=True)
class TuneSettings:
    """Everything that decides the result (the budget only decides where it stops)."""

    game: str
    deals: int
    seed: int
    outputs: bool = False
    sigma0: float = 0.1
    popsize: int = 0  # 0: CMA-ES's default, 4 + 3 ln(d)

    def __post_init__(self) -> None:
        """Refuse what CMA-ES cannot run, in the words of the command's options."""
        check_seed(self.seed)
        for name, value in (("--training-deals", self.deals), ("--popsize", self.popsize)):
            low = 1 if name == "--training-deals" else 0
            if value < low:
                raise UsageError(f"{name} must be at least {low} (got {value})")
        if self.deals > DEALS_MAX:
            raise UsageError(f"--training-deals must be at most {DEALS_MAX:,} (got "
                             f"{self.deals:,})")
        if not SIGMA_MIN <= self.sigma0 <= 1:
            raise UsageError(f"--sigma must be in [{SIGMA_MIN:g}, 1], a share of each point's "
                             f"range (got {self.sigma0:g})")
        if self.popsize == 1:
            raise UsageError("--popsize must be 0 (CMA-ES's default) or at least 2 (got 1)")

    def to_json(self) -> str:
        return settings_json(self)


@dataclass
class _Normal:
    """CMA-ES's source of normal numbers: a seeded generator, pickled with its state."""

    rng: np.random.Generator

    def __call__(self, *shape: int) -> FloatArray:
        return self.rng.standard_normal(shape)


@dataclass(frozen=True)
class Generation:
    index: int  # counting from 0
    evaluations: int  # in all, so far
    best: float  # the best value so far
    best_x: tuple[float, ...]
    mean: float  # this generation's mean value


@dataclass(frozen=True)
class Tuning:
    id: int
    settings: TuneSettings
    rulebase_name: str
    source: str  # the start rule base's YAML text
    generations: tuple[Generation, ...] = field(default=())

    @property
    def evaluations(self) -> int:
        return self.generations[-1].evaluations if self.generations else 0

    def best_x(self, space: Space) -> FloatArray:
        return np.array(self.generations[-1].best_x) if self.generations else space.x0()




#: its tables: the head row of each run, and what each run stores as it goes
TABLES = """
CREATE TABLE IF NOT EXISTS tunings (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    rulebase_name TEXT NOT NULL,
    rulebase_source TEXT NOT NULL,
    rulebase_yaml TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS tuning_generations (
    tuning_id INTEGER NOT NULL REFERENCES tunings(id),
    generation INTEGER NOT NULL,
    evaluations INTEGER NOT NULL,
    best REAL NOT NULL,
    best_x TEXT NOT NULL,
    mean REAL NOT NULL,
    state BLOB NOT NULL,
    PRIMARY KEY (tuning_id, generation)
);
"""

#: a tuning stored: its settings, its start's digest and text, its generations
TUNINGS = RunKind("tuning", "tunings", "rulebase_source", "this tuning is being run", TABLES,
                  file="tune", unit="evaluation", doing="running",
                  saved=lambda history, i: f"{len(load_tuning(history, i).generations)} "
                  "generations")


def load_tuning(history: History, tuning_id: int | None = None) -> Tuning:
    """A stored tuning (the latest when no id is given)."""
    tuning_id, head = TUNINGS.head(history, tuning_id,
                               "settings, rulebase_name, rulebase_yaml")
    rows = history.conn.execute(
        "SELECT generation, evaluations, best, best_x, mean FROM tuning_generations "
        "WHERE tuning_id = ? ORDER BY generation", (tuning_id,)).fetchall()
    gens = tuple(Generation(g, e, b, tuple(json.loads(x)), m) for g, e, b, x, m in rows)
    return Tuning(tuning_id, settings_from_json(TuneSettings, head[0]), head[1], head[2], gens)


def _last_state(history: History, tuning_id: int) -> Any:
    row = history.conn.execute(
        "SELECT state FROM tuning_generations WHERE tuning_id = ? ORDER BY generation DESC "
        "LIMIT 1", (tuning_id,)).fetchone()
    return None if row is None else pickle.loads(row[0])  # our own database's bytes


#: CMA-ES's own stopping conditions (cma's names), in words
_STOPS = {
    "tolx": "its steps fell below 1e-11 of a point's range",
    "tolfun": "the measure changed by less than 1e-11 over its last generations",
    "tolflatfitness": "every rule base of its last generations measured the same (a step "
                      "too small to change a decision?)",
    "tolfunhist": "the best measure changed by less than 1e-12 over its last generations",
    "tolstagnation": "the measure stopped improving",
    "noeffectaxis": "its steps no longer moved the points",
    "noeffectcoord": "its steps no longer moved some points",
    "tolupsigma": "its step grew far beyond its start",
    "tolconditioncov": "its search directions became degenerate",
}


def stopped_by(history: History, tuning_id: int) -> tuple[str, ...]:
    """Why CMA-ES stopped by itself before the budget, in words; () where it has not."""
    es = _last_state(history, tuning_id)
    return () if es is None else stop_words(es)


def stop_words(es: Any) -> tuple[str, ...]:
    """A CMA-ES strategy's stopping conditions that hold, in words (cma's name where we
    have none)."""
    return tuple(_STOPS.get(k, k) for k in es.stop())


def _score(measure: RulebaseMeasure, rulebases: list[RuleBase]) -> list[float]:
    return [objective(measure, rb) for rb in rulebases]


def evaluate_all(measure: RulebaseMeasure, rulebases: list[RuleBase],
                 executor: Executor | None) -> list[float]:
    """The objective of each rule base, here or split evenly over the executor's workers."""
    if executor is None:
        return _score(measure, rulebases)
    # a local pool: one task per worker; a cluster (no _max_workers): up to 8 tasks, each
    # carrying the measure's data once
    parts = max(1, min(len(rulebases), getattr(executor, "_max_workers", 8)))
    chunks = [rulebases[i::parts] for i in range(parts)]
    results = list(executor.map(_score, [measure] * parts, chunks))
    out = [0.0] * len(rulebases)
    for i, values in enumerate(results):
        out[i::parts] = values
    return out


def _new_strategy(space: Space, settings: TuneSettings) -> Any:
    import cma

    opts: dict[str, Any] = {"bounds": [0, 1], "seed": math.nan, "verbose": -9,
                            "verb_log": 0, "verb_disp": 0,
                            "randn": _Normal(np.random.default_rng(settings.seed))}
    if settings.popsize:
        opts["popsize"] = settings.popsize
    return cma.CMAEvolutionStrategy(space.x0().tolist(), settings.sigma0, opts)


def _seeded(step: Callable[[], Any], seed: int, generation: int) -> Any:
    """Run a CMA-ES step with numpy's global generator seeded per generation (in case the
    library draws from it), restoring the caller's state after."""
    saved = np.random.get_state()  # noqa: NPY002 - the legacy global is what cma may use
    np.random.seed(np.random.SeedSequence([seed, generation]).generate_state(1)[0])  # noqa: NPY002
    try:
        return step()
    finally:
        np.random.set_state(saved)  # noqa: NPY002


def tuned_name(name: str) -> str:
    """The tuned rule base's name: ``NAME_tuned`` (a tuned base tuned again keeps it)."""
    return name if name.endswith("_tuned") else f"{name}_tuned"


def made_by(settings: TuneSettings, rulebase: str, budget: int, evaluations: int) -> str:
    """The tuned base's ``made_by:`` line: the command that makes it again, bit for bit
    (every option that decides the result, the rule base as the user named it)."""
    s = settings
    words = ["fuzzeval", "tune", s.game, "--rulebase", rulebase, "--training-deals",
             str(s.deals), "--budget", str(budget), "--seed", str(s.seed),
             # every digit of sigma: the same search again
             *(["--sigma", repr(s.sigma0)] if s.sigma0 != TuneSettings.sigma0 else []),
             *(["--popsize", str(s.popsize)] if s.popsize else []),
             *([] if s.outputs else ["--points-only"])]
    return made_by_line("tuned", words, f"(CMA-ES, {evaluations:,} evaluations)")


def popsize_of(space: Space, settings: TuneSettings) -> int:
    return settings.popsize or 4 + int(3 * math.log(max(space.dimension, 1)))


def run_tuning(history: History, space: Space, measure: RulebaseMeasure,
               settings: TuneSettings, source: str, budget: int,
               executor: Executor | None = None, resume: bool = False,
               on_generation: Callable[[Generation], None] | None = None) -> Tuning:
    """Run (or finish) a tuning until ``budget`` evaluations; returns the stored tuning.

    As a match, a tuning is stored once: one with the same settings and rule base continues
    (nothing runs when it is complete); with ``resume``, finding none is an error. One
    process at a time runs it (a running mark; a second is refused with the first's pid)."""
    if space.dimension == 0:
        raise FuzzevalError(f"rule base {space.rulebase.name!r} has nothing to tune: mark "
                            "points 'adjust:' (or give output terms 'bounds:' and tune them)")
    with TUNINGS.hold(history, settings, source, resume, lambda: TUNINGS.start(
            history, settings, source, rulebase_name=space.rulebase.name,
            rulebase_yaml=source)) as tuning_id:
        return _search(history, space, measure, settings, budget, tuning_id, executor,
                       on_generation)


def _search(history: History, space: Space, measure: RulebaseMeasure,
            settings: TuneSettings, budget: int, tuning_id: int, executor: Executor | None,
            on_generation: Callable[[Generation], None] | None) -> Tuning:
    done = load_tuning(history, tuning_id)
    es = _last_state(history, tuning_id) or _new_strategy(space, settings)
    gens = list(done.generations)
    if gens:
        best, best_x, evaluations = gens[-1].best, list(gens[-1].best_x), done.evaluations
    else:  # the start is a candidate too: the result is never worse on the training units
        best_x = space.x0().tolist()
        best, evaluations = evaluate_all(measure, [space.at(best_x)], None)[0], 1
    lam = popsize_of(space, settings)
    while evaluations + lam <= budget and not es.stop():
        k = len(gens)
        xs = [np.asarray(x, dtype=np.float64) for x in _seeded(es.ask, settings.seed, k)]
        values = evaluate_all(measure, [space.at(x) for x in xs], executor)
        _seeded(partial(es.tell, xs, [-v for v in values]), settings.seed, k)
        i = int(np.argmax(values))
        if values[i] > best:
            best, best_x = values[i], [float(v) for v in xs[i]]
        evaluations += len(xs)
        gen = Generation(k, evaluations, best, tuple(best_x), float(np.mean(values)))
        with history.conn:
            history.conn.execute(
                "INSERT OR REPLACE INTO tuning_generations (tuning_id, generation, "
                "evaluations, best, best_x, mean, state) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (tuning_id, k, evaluations, best, json.dumps(best_x), gen.mean,
                 pickle.dumps(es)))
        gens.append(gen)
        if on_generation is not None:
            on_generation(gen)
    return load_tuning(history, tuning_id)


@dataclass(frozen=True)
class TuneJob:
    """A tuning as asked for, checked before any file is made: the game and its measure's
    builder, the settings, the start rule base (its path as found, its text, its base and
    the numbers searched), the budget and the rule bases of a generation."""

    game: Game
    build: Callable[..., RulebaseMeasure | None]
    settings: TuneSettings
    path: Path
    source: str
    start: RuleBase
    space: Space
    budget: int
    lam: int


def tune_job(settings: TuneSettings, rulebase: str | None, budget: int) -> TuneJob:
    """Check a tuning before any work (``settings.game`` the game's name): a game with a
    measure of a rule base, a start with something to search and points writable back, a
    budget of the start and a generation at least; a UsageError names what is wrong."""
    from fuzzeval.formats.loading import load_rulebase_text, read_rulebase_text
    from fuzzeval.formats.yaml_edit import rewrite_points
    from fuzzeval.play.match import check_rulebase_player
    from fuzzeval.play.registry import load_game
    from fuzzeval.resources import find_rulebase

    if budget < 1:
        raise UsageError(f"--budget must be at least 1 (got {budget})")
    game = load_game(settings.game)
    build = hook(game, GameHooks.rulebase_measure)
    if build is None:
        raise UsageError(f"{game.name} offers no measure of a rule base to tune for")
    path = find_rulebase(rulebase or game.default_rulebase)
    source = read_rulebase_text(path)
    start = load_rulebase_text(source, str(path))
    if game.rulebase_player:
        check_rulebase_player(game, path)  # before any file is made
    rewrite_points(source, start)  # its points can be written back (no YAML aliases)
    try:
        space = Space.of(start, settings.outputs)
    except FuzzevalError as exc:  # the conclusions' scale would be free
        raise FuzzevalError(f"{path}: {exc}") from None
    if space.dimension == 0:
        raise UsageError(f"{path}: rule base {start.name!r} has nothing to tune: mark points "
                         "'adjust:'" + (" or give output terms 'bounds:'" if settings.outputs
                                        else " or use --outputs"))
    settings = dataclasses.replace(settings, game=game.name)
    lam = popsize_of(space, settings)
    if budget < lam + 1:
        raise UsageError(f"--budget {budget} is less than the start and one generation "
                         f"({1 + lam} rule bases)")
    return TuneJob(game, build, settings, path, source, start, space, budget, lam)


@dataclass(frozen=True)
class Tuned:
    """A tuning's result: the stored tuning, why CMA-ES stopped before the budget (() if it
    did not), the tuned rule base, and its held-out measures before and after."""

    tuning: Tuning
    stopped_by: tuple[str, ...]
    rulebase: RuleBase
    held_out: tuple[Comparison, ...]


def tune_into(path: Path, job: TuneJob, rulebase: str, held_out: int,
              executor: Executor | None = None, resume: bool = False,
              on_phase: Callable[[str, int], None] = lambda _d, _t: None,
              on_advance: Callable[[int], None] = lambda _k: None,
              on_generation: Callable[[Generation], None] | None = None) -> Tuned:
    """Measure the training deals, tune ``job`` into the history at ``path`` (``rulebase``:
    the start as the user named it, for ``made_by``) and measure ``held_out`` deals before
    and after. ``on_phase`` says each phase and its total: the training deals' exact values
    (``on_advance`` counts them), tuning (``on_generation``), the held-out deals."""
    from fuzzeval.learn.held_out import held_out_seed
    from fuzzeval.learn.measure import compare

    check_held_out(held_out)
    s, start = job.settings, job.start
    cache = path.resolve().parent / "cache"
    on_phase("training deals: exact values", 2 * s.deals)
    measure = job.build(start.input_names, s.deals, s.seed, executor, cache, on_advance)
    if measure is None:
        raise UsageError(f"{job.path}: {job.game.name} has no measure of rule base "
                         f"{start.name!r} (inputs {', '.join(start.input_names)}) to tune "
                         "for; tune a rule base of what the game measures")
    on_phase("tuning", job.budget)
    with History(path) as history:
        tuning = run_tuning(history, job.space, measure, s, job.source, job.budget, executor,
                            resume, on_generation)
        why = stopped_by(history, tuning.id)
    tuned = dataclasses.replace(job.space.at(tuning.best_x(job.space)),
                                name=tuned_name(start.name),
                                made_by=made_by(s, rulebase, job.budget, tuning.evaluations))
    on_phase("held-out deals: exact values", 2 * held_out)
    held = job.build(start.input_names, held_out, held_out_seed(s.seed), executor, cache,
                     on_advance) if held_out else None
    return Tuned(tuning, why, tuned, compare(held, start, tuned) if held is not None else ())
