"""``fuzzeval match --dask ADDRESS`` plays its games on that cluster's workers (not on a
local pool that would give the same outcomes)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.play.match import play_block
from fuzzeval.play.store import read_games

pytestmark = pytest.mark.audit

runner = CliRunner()


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
