"""The history view: how a calibration moved the adjustable points, round by round, read
from its database by the readers ``fuzzeval plot drift`` draws from
(``load_calibration``, ``fuzzeval.plots.drift_paths``)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from fuzzeval.learn.calibration_rounds import load_calibration
from fuzzeval.play.store import open_history
from fuzzeval.plots import drift_paths


def _number(x: float) -> float | None:
    return None if math.isnan(x) else x  # JSON has no NaN: a round without a target


def drift(path: Path, calibration: int | None) -> dict[str, Any]:
    """Each variable's point paths (positions before any round and after each, the winning
    mean each round pulled them to) and each round's games and wins."""
    with open_history(path, readonly=True) as history:
        cal = load_calibration(history, calibration)
    return {"calibration": cal.id, "rulebase": cal.rulebase_name, "game": cal.settings.game,
            "opponent": cal.settings.opponent,
            "rounds": [{"round": r.round, "games": r.games, "wins": r.wins}
                       for r in cal.finished_rounds],
            "variables": [{"name": var, "paths": [
                {"label": p.label, "positions": list(p.positions),
                 "targets": [_number(t) for t in p.targets]} for p in paths]}
                for var, paths in drift_paths(cal).items()]}
