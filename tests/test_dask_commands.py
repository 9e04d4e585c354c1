"""``match``, ``calibrate``, ``tournament``, ``evaluate-calibration`` and ``learn --dask
ADDRESS`` run their games on the cluster's workers (not on a local pool that would give
the same outcomes) and store what the local run stores with the same seed (as ``tune``
does: tests/test_tune.py)."""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.play.match import play_block
from fuzzeval.play.store import read_decisions, read_games

# skipped without the extra, found without importing it (0.3 s of every collection)
if importlib.util.find_spec("distributed") is None:
    pytest.skip("could not import 'distributed'", allow_module_level=True)
runner = CliRunner()
#: a calibration of a few games, with a held-out measure small enough to compute twice
CALIBRATE = ["calibrate", "cribbage", "--opponent", "greedy", "--rounds", "2",
             "--games-per-round", "4", "--seed", "5", "--json"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as running:
        yield running


def _ran(cluster: Any, prefix: str) -> int:
    """How many tasks of this function the cluster's workers have finished so far."""
    found = cluster.scheduler.task_prefixes.get(prefix)
    return 0 if found is None else int(found.state_counts["memory"])


def _invoke(args: list[str]) -> dict[str, Any]:
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    data: dict[str, Any] = json.loads(res.stdout)
    return data


def _stored(db: Path) -> list[list[Any]]:
    """Every game and decision a database holds, in the order of their matches (a
    calibration's player is named by its rule base's path: that is read from its folder)."""
    rows = read_games(db).values.tolist() + read_decisions(db).values.tolist()
    return [[v.replace(str(db.parent), "DB") if isinstance(v, str) else v for v in row]
            for row in rows]


def _calibrate(folder: Path, deals: int, *more: str) -> dict[str, Any]:
    # each run in its own folder: the held-out measure's cache sits beside the database
    return _invoke([*CALIBRATE, "--held-out-deals", str(deals), "--db",
                    str(folder / "c.sqlite"), "--plot", str(folder / "drift.png"), *more])


@pytest.mark.usefixtures("drift_not_drawn")
def test_calibrate_on_dask_stores_the_local_calibration(cluster: Any, tmp_path: Path) -> None:
    local = _calibrate(tmp_path / "local", 20)
    games, chunks = _ran(cluster, "play_block"), _ran(cluster, "exact_ev_chunk")
    remote = _calibrate(tmp_path / "dask", 20, "--dask", cluster.scheduler_address)
    assert _ran(cluster, "play_block") > games  # the rounds' games were played there
    assert _ran(cluster, "exact_ev_chunk") > chunks  # and the held-out measure computed
    assert remote["rounds"] == local["rounds"] and remote["held_out"] == local["held_out"]
    assert Path(remote["calibrated"]).read_text() == Path(local["calibrated"]).read_text()
    assert _stored(tmp_path / "dask" / "c.sqlite") == _stored(tmp_path / "local" / "c.sqlite")


def test_tournament_on_dask_stores_the_local_tournament(cluster: Any, tmp_path: Path) -> None:
    common = ["tournament", "backgammon", "-p", "random", "-p", "pubeval", "-n", "4",
              "--seed", "8", "--json"]
    local = _invoke([*common, "--db", str(tmp_path / "a.sqlite"), "--plot",
                     str(tmp_path / "a.png")])
    before = _ran(cluster, "play_block")
    remote = _invoke([*common, "--db", str(tmp_path / "b.sqlite"), "--plot",
                      str(tmp_path / "b.png"), "--dask", cluster.scheduler_address])
    assert _ran(cluster, "play_block") > before
    assert remote["matches"] == local["matches"]
    assert _stored(tmp_path / "b.sqlite") == _stored(tmp_path / "a.sqlite")


@pytest.mark.usefixtures("drift_not_drawn")
def test_evaluate_calibration_on_dask_stores_the_local_evaluation(
        cluster: Any, tmp_path: Path) -> None:
    _calibrate(tmp_path / "made", 0)
    for name in ("local", "dask"):  # the same calibration, evaluated twice
        (tmp_path / name).mkdir()
        shutil.copy(tmp_path / "made" / "c.sqlite", tmp_path / name / "c.sqlite")
    common = ["evaluate-calibration", "-n", "4", "--held-out-deals", "20", "--json"]
    local = _invoke([*common, str(tmp_path / "local" / "c.sqlite")])
    games, chunks = _ran(cluster, "play_block"), _ran(cluster, "exact_ev_chunk")
    remote = _invoke([*common, str(tmp_path / "dask" / "c.sqlite"), "--dask",
                      cluster.scheduler_address])
    assert _ran(cluster, "play_block") > games and _ran(cluster, "exact_ev_chunk") > chunks
    assert remote == local
    assert _stored(tmp_path / "dask" / "c.sqlite") == _stored(tmp_path / "local" / "c.sqlite")


def test_learn_on_dask_learns_the_local_conclusions(cluster: Any, tmp_path: Path) -> None:
    common = ["learn", "hearts", "--games", "20", "--block", "10", "--update", "5",
              "--sample-games", "10", "--measure-every", "0", "--order", "1", "--seed", "3",
              "--json"]
    local = _invoke([*common, "--db", str(tmp_path / "local" / "l.sqlite")])
    before = _ran(cluster, "learn_games")
    remote = _invoke([*common, "--db", str(tmp_path / "dask" / "l.sqlite"), "--dask",
                      cluster.scheduler_address])
    assert _ran(cluster, "learn_games") > before
    texts = [Path(run["learned"]).read_text().replace(str(Path(run["learned"]).parent), "DB")
             for run in (local, remote)]
    assert texts[0] == texts[1] and " then value is r" in texts[0]


# --- match: on a cluster of its own, whose scheduler has seen no game before ----------


@pytest.mark.audit
def test_match_with_dask_runs_the_games_on_the_clusters_workers(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    # Backgammon between random players: quick games, and no tables for workers to build.
    common = ["match", "backgammon", "--player", "random", "--opponent", "random", "--games",
              "6", "--seed", "21", "--json"]
    local = runner.invoke(app, [*common, "--db", str(tmp_path / "local.sqlite")])
    assert local.exit_code == 0, local.output
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert play_block.__name__ not in set(cluster.scheduler.task_prefixes)
        remote = runner.invoke(app, [*common, "--db", str(tmp_path / "dask.sqlite"), "--dask",
                                     cluster.scheduler_address])
        ran_there = set(cluster.scheduler.task_prefixes)
    assert remote.exit_code == 0, remote.output
    assert play_block.__name__ == "play_block" and "play_block" in ran_there
    assert json.loads(remote.stdout)["games"] == 6
    columns = ["game", "first", "winner", "score0", "score1", "result", "points", "units"]
    assert read_games(tmp_path / "dask.sqlite")[columns].equals(
        read_games(tmp_path / "local.sqlite")[columns])
