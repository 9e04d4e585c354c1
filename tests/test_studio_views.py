"""The studio's views through its JSON endpoints, against the command line's and the
library's own numbers: the editor's problems are ``fuzzeval rulebase check``'s lines, the
viewer's grade and strengths ``fuzzeval evaluate --explain``'s, a dragged point is written
by the calibrator's point writer, saves are atomic and refuse a file changed on disk."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("starlette", reason="the studio extra is not installed")
from starlette.testclient import TestClient

from fuzzeval.cli import app as cli
from fuzzeval.studio.app import build_app
from fuzzeval.studio.workspace import workspace_of
from tests.conftest import RULEBASES

H = {"x-studio-token": "t"}
runner = CliRunner()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(RULEBASES / "tipping.yaml", work / "tipping.yaml")
    return work


@pytest.fixture
def client(folder: Path) -> TestClient:
    return TestClient(build_app(workspace_of([str(folder)], folder), "t"))


def _open(client: TestClient) -> dict[str, str]:
    got: dict[str, str] = client.get("/api/file", params={"id": "0/tipping.yaml"},
                                     headers=H).json()
    return got


def test_the_editor_shows_the_checker_s_lines(client: TestClient, folder: Path) -> None:
    opened = _open(client)
    ok = client.post("/api/check", headers=H, json={"text": opened["text"],
                                                    "path": opened["path"]}).json()
    assert ok["ok"] and ok["problems"] == []
    assert [v["name"] for v in ok["rulebase"]["inputs"]] == ["quality", "service"]
    assert ok["rulebase"]["inputs"][0]["terms"][1] == {"name": "average",
                                                       "points": [0, 5, 10], "adjust": ["peak"]}
    broken = opened["text"].replace("range: [0, 10]", "range: [0, x]", 1).replace(
        "then tip is low", "then tip is lowish")
    (folder / "broken.yaml").write_text(broken)
    said = runner.invoke(cli, ["rulebase", "check", str(folder / "broken.yaml")])
    assert said.exit_code == 1
    got = client.post("/api/check", headers=H, json={"text": broken,
                                                     "path": str(folder / "broken.yaml")}).json()
    assert not got["ok"] and got["rulebase"] is None
    assert [p["text"] for p in got["problems"]] == said.stderr.splitlines()
    assert [(p["line"], p["key"]) for p in got["problems"]] == [
        (14, "inputs.quality.range"), (28, "rules[0]")]


def test_the_viewer_explains_as_evaluate_explain(client: TestClient) -> None:
    opened = _open(client)
    got = client.post("/api/explain", headers=H, json={
        "text": opened["text"], "path": opened["path"],
        "inputs": {"quality": 6.5, "service": 9.8}}).json()
    said = runner.invoke(cli, ["evaluate", "tipping", "-i", "quality=6.5", "-i", "service=9.8",
                               "--explain", "--json"])
    want = json.loads(said.stdout)
    assert round(got["grade"], 4) == 14.7982  # the README's number
    assert got["defuzzifier"] == "centroid"
    for key in ("grade", "memberships", "activations", "rules", "clipped", "fired"):
        assert got[key] == want[key], key
    assert [round(r["strength"], 4) for r in got["rules"]] == [0.0, 0.7, 0.96, 0.15]
    # the page draws the output sets the library gives: medium clipped at 0.7, high at 0.96
    drawn = got["output"]
    assert len(drawn["grid"]) == 241 and drawn["grid"][0] == 0 and drawn["grid"][-1] == 25
    assert max(drawn["clipped"]["medium"]) == pytest.approx(0.7)
    assert max(drawn["aggregate"]) == pytest.approx(0.96)
    assert drawn["clipped"]["low"] == [0.0] * 241 and drawn["grade"] == got["grade"]
    outside = client.post("/api/explain", headers=H, json={
        "text": opened["text"], "path": opened["path"],
        "inputs": {"quality": 12, "service": 9.8}}).json()
    assert outside["clipped"] == ["quality"] and outside["used"]["quality"] == 10
    wrong = client.post("/api/explain", headers=H, json={
        "text": opened["text"], "path": opened["path"], "inputs": {"quality": 1}})
    assert wrong.status_code == 400
    assert wrong.json() == {"error": "inputs must be exactly quality, service; missing service"}
    bad = client.post("/api/explain", headers=H, json={
        "text": "name: [", "path": "x.yaml", "inputs": {}})
    assert bad.status_code == 422 and bad.json()["problems"][0]["line"] == 1


def test_a_moved_point_is_written_with_the_comments_kept(client: TestClient) -> None:
    opened = _open(client)
    moved = client.post("/api/move", headers=H, json={
        "text": opened["text"], "path": opened["path"], "variable": "quality",
        "term": "average", "point": "peak", "value": 4.25}).json()
    before, after = opened["text"].splitlines(), moved["text"].splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert changed == [
        ("      average: {points: [0, 5, 10], adjust: [peak]}   # the calibrator may move "
         "the peak",
         "      average: {points: [0, 4.25, 10], adjust: [peak]}   # the calibrator may move "
         "the peak")]
    assert moved["ok"] and moved["rulebase"]["inputs"][0]["terms"][1]["points"] == [0, 4.25, 10]
    broken = client.post("/api/move", headers=H, json={
        "text": opened["text"], "path": opened["path"], "variable": "quality",
        "term": "average", "point": "peak", "value": 11})
    assert broken.status_code == 400
    assert broken.json() == {"error": "quality.average: points must satisfy left <= peak <= "
                                      "right (got [0.0, 11.0, 10.0])"}
    nothing = client.post("/api/move", headers=H, json={
        "text": opened["text"], "path": opened["path"], "variable": "quality",
        "term": "superb", "point": "peak", "value": 1})
    assert nothing.status_code == 400
    assert nothing.json() == {"error": "no such points: quality.superb.peak"}


def test_the_surface_is_the_evaluator_s_grades_on_the_grid(client: TestClient) -> None:
    from fuzzeval import compile_rulebase, load_rulebase

    opened = _open(client)
    got = client.post("/api/surface", headers=H, json={
        "text": opened["text"], "path": opened["path"], "x": "service", "y": "quality",
        "held": {}, "n": 100}).json()
    assert len(got["x"]) == len(got["y"]) == 100 and got["x"][1] == pytest.approx(10 / 99)
    z = np.array(got["z"])
    assert z.shape == (100, 100)
    ev = compile_rulebase(load_rulebase("tipping"))
    for j, i in ((0, 0), (99, 99), (65, 98), (10, 80)):  # z[row j: quality][col i: service]
        assert z[j, i] == ev.grade([[got["y"][j], got["x"][i]]])[0]
    assert got["range"] == [0, 25] and got["min"] == z.min() and got["max"] == z.max()
    same = client.post("/api/surface", headers=H, json={
        "text": opened["text"], "path": opened["path"], "x": "quality", "y": "quality",
        "held": {}})
    assert same.json() == {"error": "the surface needs two different inputs "
                                    "(got 'quality' twice)"}


def test_the_surface_has_round_ticks_and_contours_on_their_level(client: TestClient) -> None:
    from fuzzeval import compile_rulebase, load_rulebase

    opened = _open(client)
    got = client.post("/api/surface", headers=H, json={
        "text": opened["text"], "path": opened["path"], "x": "service", "y": "quality",
        "held": {}, "n": 100}).json()
    # both inputs span 0..10: round steps of 2
    assert got["ticks"] == {"x": [0, 2, 4, 6, 8, 10], "y": [0, 2, 4, 6, 8, 10]}
    levels = [c["level"] for c in got["contours"]]
    assert levels == sorted(levels) and all(got["min"] < v < got["max"] for v in levels)
    assert levels and all(v == round(v) for v in levels)  # round iso-levels of the tip
    ev = compile_rulebase(load_rulebase("tipping"))
    for c in got["contours"]:
        points = np.array([p for line in c["lines"] for p in line])
        assert len(points) >= 2 and ((points >= 0) & (points <= 10)).all()
        # a point on the level's line grades (nearly) at the level: the lines
        # interpolate the grid linearly, a cell is 10/99 wide
        graded = ev.grade(points[:, ::-1])  # rows: (quality, service) = (y, x)
        assert np.abs(graded - c["level"]).max() < 0.6


def test_new_writes_the_template_into_a_folder_and_refuses_an_existing_name(
        client: TestClient, folder: Path) -> None:
    from fuzzeval import compile_rulebase, load_rulebase

    made = client.post("/api/new", headers=H, json={"folder": 0, "name": "yes.yaml"})
    assert made.status_code == 200
    assert made.json()["id"] == "0/yes.yaml" and made.json()["path"] == str(folder / "yes.yaml")
    said = runner.invoke(cli, ["rulebase", "check", str(folder / "yes.yaml")])
    assert said.exit_code == 0
    assert said.stdout == f"{folder / 'yes.yaml'}: ok (2 inputs, 3 rules, 0 warning(s))\n"
    rb = load_rulebase(folder / "yes.yaml")
    assert rb.name == "yes"  # quoted: not YAML's true
    # both inputs high: only "high and high" fires, fully; the centroid of the output's
    # triangle [5, 10, 10] is (5 + 10 + 10) / 3
    assert compile_rulebase(rb).grade([[10, 10]])[0] == pytest.approx(25 / 3, abs=1e-4)
    listed = [f["id"] for f in client.get("/api/files", headers=H).json()["files"]]
    assert listed == ["0/tipping.yaml", "0/yes.yaml"]
    before = (folder / "tipping.yaml").read_bytes()
    again = client.post("/api/new", headers=H, json={"folder": 0, "name": "tipping.yaml"})
    assert again.status_code == 409
    assert again.json() == {"error": f"{folder / 'tipping.yaml'}: exists already; "
                                     "choose another name"}
    assert (folder / "tipping.yaml").read_bytes() == before
    for body, status in (({"folder": 0, "name": "../out.yaml"}, 403),
                         ({"folder": 0, "name": "notes.txt"}, 403),
                         ({"folder": 5, "name": "a.yaml"}, 403),
                         ({"folder": "0", "name": "a.yaml"}, 400)):
        assert client.post("/api/new", headers=H, json=body).status_code == status
    assert sorted(p.name for p in folder.iterdir()) == ["tipping.yaml", "yes.yaml"]


def test_save_writes_atomically_and_refuses_a_file_changed_on_disk(client: TestClient,
                                                                    folder: Path) -> None:
    path = folder / "tipping.yaml"
    path.chmod(0o640)
    opened = _open(client)
    text = opened["text"].replace("tipping\n", "tipping\n# mine\n", 1)
    saved = client.post("/api/save", headers=H, json={"id": "0/tipping.yaml", "text": text,
                                                      "stamp": opened["stamp"]})
    assert saved.status_code == 200 and path.read_text() == text
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in folder.iterdir()) == ["tipping.yaml"]  # no temporary left
    # someone else writes the file: the next save with the old stamp is refused
    path.write_text(text + "# theirs\n")
    again = client.post("/api/save", headers=H, json={"id": "0/tipping.yaml", "text": text,
                                                      "stamp": saved.json()["stamp"]})
    assert again.status_code == 409
    assert again.json()["error"] == (f"{path}: changed on disk since it was opened; reopen "
                                     "it or save as a new file")
    assert path.read_text() == text + "# theirs\n"
    assert "diff" not in again.json()  # the text as opened not sent: no diff
    made = client.post("/api/save-as", headers=H, json={"folder": 0, "name": "sub.yaml",
                                                        "text": text})
    assert made.status_code == 200 and (folder / "sub.yaml").read_text() == text
    twice = client.post("/api/save-as", headers=H, json={"folder": 0, "name": "sub.yaml",
                                                         "text": "x"})
    assert twice.status_code == 409 and (folder / "sub.yaml").read_text() == text
    listed = [f["id"] for f in client.get("/api/files", headers=H).json()["files"]]
    assert listed == ["0/sub.yaml", "0/tipping.yaml"]


def test_a_refused_save_shows_what_changed_on_disk(client: TestClient, folder: Path) -> None:
    path = folder / "tipping.yaml"
    opened = _open(client)
    lines = opened["text"].split("\n")
    assert lines[9] == "default: 12.5           # the grade when no rule fires"
    # someone else changes line 10 and adds a last line
    theirs = "\n".join([*lines[:9], "default: 10", *lines[10:]]) + "# theirs\n"
    path.write_text(theirs)
    mine = opened["text"].replace("tipping\n", "tipping\n# mine\n", 1)
    got = client.post("/api/save", headers=H, json={
        "id": "0/tipping.yaml", "text": mine, "stamp": opened["stamp"],
        "opened": opened["text"]})
    assert got.status_code == 409
    last = len(lines) - 1  # the text ends in a newline: its last line is lines[-2]
    assert got.json()["diff"] == [
        "--- as opened", "+++ on disk",
        "@@ -9,3 +9,3 @@", " defuzzifier: centroid",
        "-default: 12.5           # the grade when no rule fires", "+default: 10",
        " inputs:",
        f"@@ -{last} +{last},2 @@", " " + lines[-2], "+# theirs"]
    assert path.read_text() == theirs  # nothing written
    again = client.post("/api/save", headers=H, json={
        "id": "0/tipping.yaml", "text": mine, "stamp": opened["stamp"], "opened": 3})
    assert again.status_code == 400 and again.json() == {
        "error": "field 'opened': expected str"}


def test_a_long_diff_is_cut_with_the_rest_counted() -> None:
    from fuzzeval.studio.workspace import diff

    before = "".join(f"{i}\n" for i in range(100))
    got = diff(before, before.replace("\n", " x\n"))
    # 2 header lines, one hunk line, 100 removed, 100 added: 203, shown 60
    assert len(got) == 61 and got[-1] == "... 143 more line(s)"
    assert got[:4] == ["--- as opened", "+++ on disk", "@@ -1,100 +1,100 @@", "-0"]


def test_a_failed_write_leaves_the_old_file(client: TestClient, folder: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    opened = _open(client)

    def full(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    got = client.post("/api/save", headers=H, json={"id": "0/tipping.yaml", "text": "x",
                                                    "stamp": opened["stamp"]})
    assert got.status_code == 400 and "No space left on device" in got.json()["error"]
    assert (folder / "tipping.yaml").read_text() == opened["text"]
    assert sorted(p.name for p in folder.iterdir()) == ["tipping.yaml"]


def _big(rules: int) -> str:
    """A rule base of ``rules`` rules, each over two of six inputs."""
    terms = "{low: [0, 0, 0.5], mid: [0, 0.5, 1], high: [0.5, 1, 1]}"
    lines = ["name: big", "defuzzifier: centroid", "default: 0.5", "inputs:"]
    for i in range(6):
        lines += [f"  x{i}:", "    range: [0, 1]", f"    terms: {terms}"]
    lines += ["output:", "  name: y", "  range: [0, 1]", f"  terms: {terms}", "rules:"]
    names = ("low", "mid", "high")
    lines += [f"  - if x{r % 6} is {names[r % 3]} and x{(r + 1) % 6} is {names[r // 3 % 3]} "
              f"then y is {names[r // 9 % 3]}" for r in range(rules)]
    return "\n".join(lines) + "\n"


def test_a_300_rule_base_is_checked_while_typing(client: TestClient) -> None:
    """Each keystroke is a new text, read afresh by the loader, its problem at its line
    (how fast: benchmarks/studio.py, not a timed test)."""
    text = _big(300)
    line = text.splitlines().index("  - if x1 is mid and x2 is low then y is low") + 1
    assert line == 29  # 22 lines of inputs, 4 of output, 'rules:', the first rule on 28
    for i in range(3):
        got = client.post("/api/check", headers=H, json={
            "text": text.replace("x2 is low then y is low", f"x2 is lo{i} then y is low", 1),
            "path": "big.yaml"}).json()
        assert [(p["line"], p["key"]) for p in got["problems"]] == [(line, "rules[1]")]
    whole = client.post("/api/check", headers=H, json={"text": text, "path": "big.yaml"})
    assert len(whole.json()["rulebase"]["rules"]) == 300


def test_the_history_view_reads_a_calibration_s_drift(tmp_path: Path) -> None:
    from fuzzeval.formats.loading import load_rulebase
    from fuzzeval.games.cribbage.game import GAME
    from fuzzeval.learn.calibration_rounds import (
        CalibrationSettings,
        load_calibration,
        run_calibration,
    )
    from fuzzeval.play.store import History
    from fuzzeval.stats import wilson

    db = tmp_path / "cal.sqlite"
    with History(db) as h:
        run_calibration(h, GAME, CalibrationSettings("cribbage", "greedy", 6, 3),
                        (RULEBASES / "cribbage_expected_points.yaml").read_text(), 2)
    (tmp_path / "broken.sqlite").write_text("not a database")
    client = TestClient(build_app(workspace_of([str(tmp_path)], tmp_path), "t"))
    listed = client.get("/api/histories", headers=H).json()["databases"]
    assert [f["id"] for f in listed] == ["0/broken.sqlite", "0/cal.sqlite"]
    got = client.get("/api/drift", params={"id": "0/cal.sqlite"}, headers=H).json()
    with History(db, readonly=True) as h:
        cal = load_calibration(h)
    assert (got["calibration"], got["rulebase"], got["game"], got["opponent"]) == (
        1, "cribbage_expected_points", "cribbage", "greedy")
    assert got["rounds"] == [{"round": r.round, "games": 6, "wins": r.wins,
                              "win_rate": r.wins / 6, "low": wilson(r.wins, 6)[0],
                              "high": wilson(r.wins, 6)[1]} for r in cal.finished_rounds]
    assert got["kind"] == "calibration" and got["made_by"] == \
        load_rulebase(RULEBASES / "cribbage_expected_points.yaml").made_by != ""
    assert got["ticks"] == [1, 2]  # the win rate's axis: whole rounds (it once showed 1.5)
    assert client.get("/api/run", params={"id": "0/cal.sqlite"}, headers=H).json() == got
    moved = {(m.variable, f"{m.term}.{m.point}"): m for r in cal.finished_rounds
             for m in r.moves}
    shown = {(v["name"], p["label"]): p for v in got["variables"] for p in v["paths"]}
    assert set(shown) == set(moved) and len(shown) >= 1
    for key, path in shown.items():
        moves = [m for r in cal.finished_rounds for m in r.moves
                 if (m.variable, f"{m.term}.{m.point}") == key]
        assert path["positions"] == [moves[0].before] + [m.after for m in moves]
        assert path["targets"] == [m.target for m in moves]
    bad = client.get("/api/drift", params={"id": "0/broken.sqlite"}, headers=H)
    assert bad.status_code == 400 and "\n" not in bad.json()["error"]
    for refused in ("0/../cal.sqlite", "0/cal.yaml"):
        assert client.get("/api/drift", params={"id": refused}, headers=H).status_code == 403
    assert client.get("/api/drift", params={"id": "0/cal.sqlite", "calibration": "x"},
                      headers=H).status_code == 400


def test_a_calibration_s_rounds_are_ticked_whole(tmp_path: Path) -> None:
    """The win rate's axis is labelled at whole rounds only, counted from 1, at most five
    of them: one round, 1; two, 1 and 2; twelve, every third round."""
    from fuzzeval.games.cribbage.game import GAME
    from fuzzeval.learn.calibration_rounds import CalibrationSettings, run_calibration
    from fuzzeval.play.store import History

    source = (RULEBASES / "cribbage_expected_points.yaml").read_text()
    with History(tmp_path / "cal.sqlite") as h:  # a game a round: quick
        for seed, rounds in ((1, 1), (2, 2), (3, 12)):
            run_calibration(h, GAME, CalibrationSettings("cribbage", "greedy", 1, seed),
                            source, rounds)
    client = TestClient(build_app(workspace_of([str(tmp_path)], tmp_path), "t"))
    for calibration, rounds, ticks in ((1, 1, [1]), (2, 2, [1, 2]), (3, 12, [3, 6, 9, 12])):
        got = client.get("/api/drift", params={"id": "0/cal.sqlite",
                                               "calibration": str(calibration)},
                         headers=H).json()
        assert (len(got["rounds"]), got["ticks"]) == (rounds, ticks)
    latest = client.get("/api/run", params={"id": "0/cal.sqlite"}, headers=H).json()
    assert (latest["calibration"], latest["ticks"]) == (3, [3, 6, 9, 12])


def test_axis_ticks_are_round_and_whole_for_counts() -> None:
    from fuzzeval.studio.views.axes import ticks

    assert ticks(1, 2) == [1, 1.2000000000000002, 1.4000000000000001, 1.6, 1.8, 2]
    assert ticks(1, 2, whole=True) == [1, 2]
    for one in (0, 1, 3, 7):  # one point: its value, once (the locator gives 3 ± 1e-13)
        assert ticks(one, one, whole=True) == [one]
    assert ticks(0.25, 0.25) == [0.25]
    assert ticks(1, 12) == [2.5, 5, 7.5, 10]
    assert ticks(1, 12, whole=True) == [3, 6, 9, 12]
    assert ticks(8, 16, whole=True) == [8, 10, 12, 14, 16]
    assert ticks(0, 10) == [0, 2, 4, 6, 8, 10]


def test_the_decision_view_gives_the_advice_the_command_line_gives(client: TestClient) -> None:
    """Deal 5's first decision in cribbage: the hand and crib the game deals, advised by
    its fuzzy player reading the text being edited, as ``fuzzeval cribbage discard``
    advises the same hand with the same rule base."""
    games = client.get("/api/games", headers=H).json()["games"]
    assert [g["name"] for g in games] == ["backgammon", "cribbage", "hearts", "holdem"]
    text = (RULEBASES / "cribbage_linguistic.yaml").read_text()
    got = client.post("/api/decision", headers=H, json={
        "text": text, "path": "/x/cribbage_linguistic.yaml", "game": "cribbage", "seed": 5,
        "index": 0}).json()
    assert got["situation"] == ["scores: you 0, opponent 0; the crib is opponent's",
                                "your hand: 5D 5H 8C 8S 9H KC"]
    said = runner.invoke(cli, ["cribbage", "discard", "5D", "5H", "8C", "8S", "9H", "KC",
                               "--crib", "theirs", "-p", "fuzzy:rulebase=cribbage_linguistic",
                               "--json"])
    want = json.loads(said.stdout)["table"]
    assert got["choice"] == want[0]["discard"] == "9H KC"
    assert got["columns"] == ["throw", "keep", "grade"]
    # every one of the 15 throws, as the command lists them (the page once showed the
    # terminal's first five only)
    assert len(got["rows"]) == len(want) == 15
    assert [r[:2] for r in got["rows"]] == [[w["discard"], w["keep"]] for w in want]
    assert [r[2] for r in got["rows"]] == [f"{w['grade']:.3f}" for w in want]
    assert round(got["explanation"]["grade"], 6) == want[0]["grade"]
    wrong = client.post("/api/decision", headers=H, json={
        "text": (RULEBASES / "tipping.yaml").read_text(), "path": "tipping.yaml",
        "game": "cribbage", "seed": 5, "index": 0})
    assert wrong.status_code == 400
    assert wrong.json()["error"].startswith("rule base 'tipping': inputs ['quality', "
                                            "'service'] are not cribbage discard features")
    for body, said_ in (({"game": "nosuch"}, "no game called 'nosuch'"),
                        ({"index": 201}, "decision 201: give 0 to 200"),
                        ({"seed": -1}, "deal -1: give 0 to 2**63 - 1")):
        bad = client.post("/api/decision", headers=H, json={
            "text": text, "path": "c.yaml", "game": "cribbage", "seed": 5, "index": 0,
            **body})
        assert bad.status_code == 400 and said_ in bad.json()["error"], bad.json()


def _cli_json(*args: str) -> dict:  # type: ignore[type-arg]
    said = runner.invoke(cli, [*args, "--json"])
    assert said.exit_code == 0, said.output
    got: dict = json.loads(said.stdout)  # type: ignore[type-arg]
    return got


def _typed(client: TestClient, game: str, rulebase: str, spot: dict[str, str]) -> dict:  # type: ignore[type-arg]
    reply = client.post("/api/decision", headers=H, json={
        "text": (RULEBASES / f"{rulebase}.yaml").read_text(), "path": f"{rulebase}.yaml",
        "game": game, "spot": spot})
    assert reply.status_code == 200, reply.json()
    got: dict = reply.json()  # type: ignore[type-arg]
    return got


def test_seats_are_named_from_the_seat_deciding() -> None:
    from fuzzeval.studio.views.decision import seat_names

    assert seat_names(4, 0) == ("you", "left", "across", "right")
    assert seat_names(4, 1) == ("right", "you", "left", "across")
    assert seat_names(4, 2) == ("across", "right", "you", "left")
    assert seat_names(2, 0) == ("you", "opponent")
    assert seat_names(2, 1) == ("opponent", "you")
    assert seat_names(3, 2) == ("seat 0", "seat 1", "you")


def test_a_dealt_hearts_decision_names_seats_from_the_one_deciding(client: TestClient
                                                                   ) -> None:
    """Deal 3's decision 29 (the passes counted) is seat 1's: seat 0, on its right, has
    taken 13 and leads the trick, seat 3 (across) has taken 1; the points are read from
    seat 1 on."""
    got = client.post("/api/decision", headers=H, json={
        "text": (RULEBASES / "hearts.yaml").read_text(), "path": "hearts.yaml",
        "game": "hearts", "seed": 3, "index": 29}).json()
    assert got["situation"] == ["points taken: you 0, left 0, across 1, right 13; "
                                "hearts broken", "trick 5: right 5D",
                                "your hand: 2S 3H 4H 5S 7H 8S JS KC AH"]


def test_a_typed_decision_is_graded_as_each_game_s_advice_command(client: TestClient
                                                                  ) -> None:
    """A decision typed as each game's advice command takes it: every option graded in
    the command's order, the same choice, and the choice's explanation."""
    fields = {g["name"]: [f["name"] for f in g["fields"]]
              for g in client.get("/api/games", headers=H).json()["games"]}
    assert fields == {"backgammon": ["position", "dice"], "cribbage": ["hand", "crib"],
                      "hearts": ["hand", "trick", "earlier", "voids", "taken", "pass",
                                 "rules"], "holdem": ["hole", "board", "betting"]}
    got = _typed(client, "cribbage", "cribbage_linguistic",
                 {"hand": "5H 5S JD QC 4S 9C", "crib": "mine"})
    want = _cli_json("cribbage", "discard", "5H", "5S", "JD", "QC", "4S", "9C", "--crib",
                     "mine", "-p", "fuzzy:rulebase=cribbage_linguistic")
    assert got["situation"] == ["scores: you 0, opponent 0; the crib is yours",
                                "your hand: 4S 5H 5S 9C JD QC"]
    assert got["choice"] == " ".join(want["discard"]) == "4S 9C"
    assert got["rows"] == [[w["discard"], w["keep"], f"{w['grade']:.3f}"]
                           for w in want["table"]]
    assert round(got["explanation"]["grade"], 6) == want["table"][0]["grade"]

    got = _typed(client, "backgammon", "backgammon_simple",
                 {"position": "4HPwATDgc/ABMA", "dice": "31"})
    want = _cli_json("backgammon", "moves", "4HPwATDgc/ABMA", "--dice", "31", "-p",
                     "fuzzy:rulebase=backgammon_simple")
    assert got["columns"] == ["play", "grade"] and len(got["rows"]) == 16
    assert got["rows"] == [[w["play"], f"{w['grade']:.4g}"] for w in want["plays"]]
    assert got["choice"] == want["plays"][0]["play"] == "8/5 6/5"
    assert got["situation"][-1] == "you rolled 31; position 4HPwATDgc/ABMA"

    hand = "QS KS 2H 6C 7D 3S 4S 8H 9H TD JD 3C"
    got = _typed(client, "hearts", "hearts",
                 {"hand": hand, "trick": "5S,AS", "earlier": "2C,AC,5C,9C"})
    want = _cli_json("hearts", "card", *hand.split(), "--trick", "5S,AS", "--earlier",
                     "2C,AC,5C,9C")
    assert got["rows"] == [[w["card"], f"{w['worth']:.4g}"] for w in want["table"]]
    assert [r[0] for r in got["rows"]] == ["QS", "KS", "4S", "3S"]
    assert got["choice"] == want["play"] == "QS"
    # the other seats as Hearts players name them (they were seats 1 to 3): two cards on
    # the trick before mine were laid by the seat across, then the one on my right
    assert got["situation"] == [
        "points taken: you 0, left 0, across 0, right 0; hearts not broken",
        "trick 2: across 5S, right AS",
        "your hand: 2H 3C 3S 4S 6C 7D 8H 9H TD JD QS KS (you may lay 3S 4S QS KS)"]
    passing = _typed(client, "hearts", "hearts", {"hand": hand + " 5C", "pass": "left"})
    assert passing["situation"] == ["your hand: 2H 3C 3S 4S 5C 6C 7D 8H 9H TD JD QS KS",
                                    "pass three cards left"]  # not "left to left"

    got = _typed(client, "holdem", "holdem", {"hole": "AsKd", "board": "", "betting": ""})
    want = _cli_json("holdem", "act", "--hole", "AsKd")
    assert got["columns"] == ["action", "worth", "probability"]
    by_action = {w["action"]: w for w in want["actions"]}
    assert [r[0] for r in got["rows"]] == ["call", "raise", "fold"]
    assert got["rows"] == [[a, f"{by_action[a]['grade']:.4g}",
                            f"{by_action[a]['probability']:.4g}"] for a in
                           ("call", "raise", "fold")]
    assert got["situation"][0] == "you (button) hold As Kd; board none (preflop)"

    # the explanation of any option, not only the choice: each row's grade explained
    for game, rulebase, spot in (
            ("cribbage", "cribbage_linguistic", {"hand": "5H 5S JD QC 4S 9C", "crib": "mine"}),
            ("backgammon", "backgammon_simple", {"position": "4HPwATDgc/ABMA", "dice": "31"}),
            ("hearts", "hearts", {"hand": hand, "trick": "5S,AS", "earlier": "2C,AC,5C,9C"}),
            ("holdem", "holdem", {"hole": "AsKd"})):
        chosen = _typed(client, game, rulebase, spot)
        grade = chosen["columns"].index("grade" if "grade" in chosen["columns"] else "worth")
        for row in chosen["rows"]:
            picked = client.post("/api/decision", headers=H, json={
                "text": (RULEBASES / f"{rulebase}.yaml").read_text(), "path": "x.yaml",
                "game": game, "spot": spot, "pick": row[0]}).json()
            assert picked["pick"] == row[0]
            shown = f"{picked['explanation']['grade']:.3f}" if game == "cribbage" else \
                f"{picked['explanation']['grade']:.4g}"
            assert shown == row[grade], (game, row)
            if row[0] == chosen["choice"]:
                assert picked["explanation"] == chosen["explanation"]
    text = (RULEBASES / "cribbage_linguistic.yaml").read_text()
    bad = client.post("/api/decision", headers=H, json={
        "text": text, "path": "c.yaml", "game": "cribbage", "pick": "5H 4S",
        "spot": {"hand": "5H 5S JD QC 4S 9C", "crib": "mine"}})
    assert bad.status_code == 400 and bad.json()["error"].startswith(
        "option '5H 4S': not one of 4S 5H, 4S 5S,")
    for spot, said in (({"hand": "5H 5S JD", "crib": "mine"}, "6"),
                       ({"hand": "5H 5S JD QC 4S 9C", "crib": "ours"},
                        "'ours': whose crib: mine or theirs"),
                       ({"hand": "5H 5S JD QC 4S 1X", "crib": "mine"}, "1X"),
                       ({"hand": "", "crib": "mine", "dice": "31"},
                        "field 'dice': cribbage takes crib, hand")):
        bad = client.post("/api/decision", headers=H, json={
            "text": text, "path": "c.yaml", "game": "cribbage", "spot": spot})
        assert bad.status_code == 400 and said in bad.json()["error"], bad.json()
    bad = client.post("/api/decision", headers=H, json={
        "text": text, "path": "c.yaml", "game": "cribbage", "spot": {"hand": 5}})
    assert bad.status_code == 400 and bad.json()["error"] == "field 'hand': expected str"


def test_the_history_view_reads_a_tuning_and_a_learn(tmp_path: Path) -> None:
    """A tuning's generations and a learn's blocks, as their readers load them, and the
    start base's made_by note."""
    from fuzzeval.learn.td_runs import load_learn
    from fuzzeval.learn.tune import load_tuning
    from fuzzeval.play.store import History

    made = runner.invoke(cli, ["tune", "cribbage", "--budget", "4", "--training-deals", "10",
                               "--held-out-deals", "10", "--popsize", "2", "-w", "1",
                               "--db", str(tmp_path / "t.sqlite"), "-o",
                               str(tmp_path / "t.yaml")])
    assert made.exit_code == 0, made.output
    made = runner.invoke(cli, ["learn", "hearts", "-n", "16", "--block", "8",
                               "--measure-every", "1", "--measure-games", "8",
                               "--sample-games", "4", "--order", "1", "-w", "1",
                               "--db", str(tmp_path / "l.sqlite"), "-o",
                               str(tmp_path / "l.yaml"), "--plot", str(tmp_path / "c.png")])
    assert made.exit_code == 0, made.output
    client = TestClient(build_app(workspace_of([str(tmp_path)], tmp_path), "t"))
    got = client.get("/api/run", params={"id": "0/t.sqlite"}, headers=H).json()
    with History(tmp_path / "t.sqlite", readonly=True) as h:
        tuning = load_tuning(h)
    assert (got["kind"], got["rulebase"], got["game"]) == ("tuning", "cribbage_linguistic",
                                                          "cribbage")
    assert got["made_by"] == "written by hand (the expert's first draft)"
    assert got["generations"] == [{"index": g.index, "evaluations": g.evaluations,
                                   "best": g.best, "mean": g.mean}
                                  for g in tuning.generations] and got["generations"]
    assert [g["evaluations"] for g in got["generations"]] == [3] and got["ticks"] == [3]
    got = client.get("/api/run", params={"id": "0/l.sqlite"}, headers=H).json()
    with History(tmp_path / "l.sqlite", readonly=True) as h:
        learn = load_learn(h)
    assert (got["kind"], got["game"]) == ("learn", "hearts")
    assert [b["games"] for b in got["blocks"]] == [8, 16]  # a block of 8 games, twice
    assert got["ticks"] == [8, 10, 12, 14, 16]
    assert got["blocks"] == [{"index": b.index, "games": b.games, "mean": b.mean,
                              "measure": b.measure, "measure_half": b.measure_half}
                             for b in learn.blocks]
    with History(tmp_path / "empty.sqlite"):
        pass  # a history with no run in it
    empty = client.get("/api/run", params={"id": "0/empty.sqlite"}, headers=H)
    assert empty.status_code == 400
    assert empty.json()["error"] == "empty.sqlite: no calibration, tuning or learn stored in it"


def test_two_rule_bases_are_compared_with_what_changed(client: TestClient,
                                                        folder: Path) -> None:
    text = (folder / "tipping.yaml").read_text()
    changed = text.replace("average: {points: [0, 5, 10], adjust: [peak]}",
                           "average: {points: [0, 5.5, 10], adjust: [peak]}").replace(
        "    weight: 0.5", "    weight: 0.25").replace(
        "made_by: written by hand", "made_by: moved by hand").replace(
        "  - if quality is poor or service is poor then tip is low\n", "")
    (folder / "tipping2.yaml").write_text(changed)
    got = client.post("/api/compare", headers=H, json={"a": "0/tipping.yaml",
                                                        "b": "0/tipping2.yaml"}).json()
    assert got["changes"] == [
        "made_by: 'written by hand' -> 'moved by hand'",
        "quality.average.peak: 5 -> 5.5",
        "rule removed: if quality is poor or service is poor then tip is low",
        "rule weight 0.5 -> 0.25: if quality is good then tip is high"]
    assert got["a"]["made_by"] == "written by hand"
    assert got["b"]["inputs"][0]["terms"][1]["points"] == [0, 5.5, 10]
    same = client.post("/api/compare", headers=H, json={"a": "0/tipping.yaml",
                                                         "b": "0/tipping.yaml"}).json()
    assert same["changes"] == []
    refused = client.post("/api/compare", headers=H, json={"a": "0/../x.yaml",
                                                            "b": "0/tipping.yaml"})
    assert refused.status_code == 403
