"""The history view: what a stored run did, read from its database by the readers the
command line draws from: a calibration's drift of every adjusted point by round
(``load_calibration``, ``fuzzeval.plots.drift_paths``, as ``fuzzeval plot drift``) and its
win rate a round (as ``fuzzeval plot curve``), a tuning's generations (``load_tuning``), a
learn's curve (``load_learn``, as ``fuzzeval learn --plot``)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from fuzzeval.errors import UsageError
from fuzzeval.formats.loading import parse_rulebase
from fuzzeval.learn.calibration_rounds import CALIBRATIONS, load_calibration
from fuzzeval.learn.td_runs import LEARNS, load_learn
from fuzzeval.learn.tune import TUNINGS, load_tuning
from fuzzeval.play.store import open_history
from fuzzeval.plots import drift_paths
from fuzzeval.studio.views.axes import ticks


def _number(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) else x  # JSON has no NaN


def _counted(xs: list[int]) -> list[float]:
    """Whole tick values along a curve's axis of counts ``xs`` (none for no point)."""
    return ticks(min(xs), max(xs), whole=True) if xs else []


def _made_by(source: str) -> str:
    """The start rule base's ``made_by`` note ("" when it has none or does not load)."""
    rb, _ = parse_rulebase(source, "<start>")
    return rb.made_by if rb is not None else ""


def drift(path: Path, calibration: int | None) -> dict[str, Any]:
    """Each variable's point paths (positions before any round and after each, the winning
    mean each round pulled them to) and each round's games, wins, win rate and its 95 %
    Wilson interval; the win rate's axis ticks, whole rounds counted from 1."""
    with open_history(path, readonly=True) as history:
        cal = load_calibration(history, calibration)
    return {"kind": "calibration", "calibration": cal.id, "rulebase": cal.rulebase_name,
            "game": cal.settings.game, "opponent": cal.settings.opponent,
            "made_by": cal.results[0].rulebase().made_by if cal.results else "",
            "rounds": [{"round": r.round, "games": r.games, "wins": r.wins,
                        "win_rate": _number(r.win_rate), "low": r.interval[0],
                        "high": r.interval[1]} for r in cal.finished_rounds],
            "ticks": _counted([r.round + 1 for r in cal.finished_rounds]),
            "variables": [{"name": var, "paths": [
                {"label": p.label, "positions": list(p.positions),
                 "targets": [_number(t) for t in p.targets]} for p in paths]}
                for var, paths in drift_paths(cal).items()]}


def run(path: Path) -> dict[str, Any]:
    """The latest run the database holds, whichever kind: a calibration (as ``drift``), a
    tuning (each generation's evaluations, best and mean value) or a learn (each block's
    games, its mean payoff, and where measured the learned player's with its 95 % half
    width); the ticks of the curve's axis of evaluations or games, whole numbers."""
    with open_history(path, readonly=True) as history:
        found = [k for k in (CALIBRATIONS, TUNINGS, LEARNS)
                 if k.ready(history) and k.ids(history)]
        if not found:
            raise UsageError(f"{path.name}: no calibration, tuning or learn stored in it")
        kind = found[0]
        if kind is TUNINGS:
            tuning = load_tuning(history)
            return {"kind": "tuning", "tuning": tuning.id, "rulebase": tuning.rulebase_name,
                    "game": tuning.settings.game, "made_by": _made_by(tuning.source),
                    "generations": [{"index": g.index, "evaluations": g.evaluations,
                                     "best": g.best, "mean": g.mean}
                                    for g in tuning.generations],
                    "ticks": _counted([g.evaluations for g in tuning.generations])}
        if kind is LEARNS:
            learn = load_learn(history)
            return {"kind": "learn", "learn": learn.id, "game": learn.settings.game,
                    "made_by": _made_by(learn.source),
                    "blocks": [{"index": b.index, "games": b.games, "mean": b.mean,
                                "measure": b.measure, "measure_half": b.measure_half}
                               for b in learn.blocks],
                    "ticks": _counted([b.games for b in learn.blocks])}
    return drift(path, None)
