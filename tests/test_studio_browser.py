"""The studio in a real headless Chromium (Selenium, Debian's chromium and chromium-driver):
a slider moved gives ``fuzzeval evaluate``'s grade, a broken line shows its located problem,
a dragged point rewrites the YAML with its comments, a save reloads as saved, the surface
draws. One studio and one browser serve the whole module.

Without Chromium the tests skip, in one line; CI sets FUZZEVAL_BROWSER_TESTS=required
(``.ci/run``), which turns that skip into a failure. With FUZZEVAL_STUDIO_FIGURES=FOLDER each
test saves a screenshot of its view there (docs/studio.md)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app as cli
from tests.conftest import RULEBASES

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
REQUIRED = os.environ.get("FUZZEVAL_BROWSER_TESTS") == "required"
FIGURES = os.environ.get("FUZZEVAL_STUDIO_FIGURES")
runner = CliRunner()

if not (CHROMIUM and DRIVER):
    why = "no chromium and chromedriver on PATH (apt-get install chromium chromium-driver)"
    if REQUIRED:
        pytest.fail(f"FUZZEVAL_BROWSER_TESTS=required, but {why}", pytrace=False)
    pytest.skip(why, allow_module_level=True)
try:
    import uvicorn  # noqa: F401 - the studio extra
    from selenium import webdriver
except ImportError as exc:
    if REQUIRED:
        pytest.fail(f"FUZZEVAL_BROWSER_TESTS=required, but {exc}", pytrace=False)
    pytest.skip(f"the studio extra or selenium is not installed ({exc})",
                allow_module_level=True)
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

TIPPING = "0/tipping.yaml"


@pytest.fixture(scope="module")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``fuzzeval studio FOLDER`` on any free port, over a copy of tipping and a short
    calibration's database, and its address."""
    from fuzzeval.games.cribbage.game import GAME
    from fuzzeval.learn.calibration_rounds import CalibrationSettings, run_calibration
    from fuzzeval.play.store import History

    folder = tmp_path_factory.mktemp("studio")
    shutil.copy(RULEBASES / "tipping.yaml", folder / "tipping.yaml")
    with History(folder / "calibration.sqlite") as h:
        run_calibration(h, GAME, CalibrationSettings("cribbage", "greedy", 6, 3),
                        (RULEBASES / "cribbage_expected_points.yaml").read_text(), 2)
    proc = subprocess.Popen([sys.executable, "-m", "fuzzeval", "studio", str(folder),
                             "--no-open", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("fuzzeval studio at "), line + proc.stderr.read()  # type: ignore[union-attr]
    yield line.split()[3], folder
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 143


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,860", "--hide-scrollbars"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the page's console
    driver = webdriver.Chrome(options=options,
                              service=webdriver.ChromeService(executable_path=DRIVER))
    yield driver
    driver.quit()


@pytest.fixture
def page(studio: tuple[str, Path], browser: Any) -> Callable[[str], Any]:
    """Open the studio on tipping, in view ``view``."""
    url, _ = studio

    def go(view: str) -> Any:
        if browser.current_url.startswith("http"):
            browser.execute_script("state.dirty = false")  # no 'leave page?' question
        browser.get(f"{url}&open={TIPPING}")
        wait(browser, lambda d: "ok: 2 inputs" in d.find_element(*tid("summary")).text)
        browser.find_element(*tid(f"tab-{view}")).click()
        return browser
    return go


def tid(name: str) -> tuple[str, str]:
    return By.CSS_SELECTOR, f'[data-testid="{name}"]'


def wait(browser: Any, until: Callable[[Any], Any], seconds: float = 10) -> Any:
    # an element redrawn between its lookup and its reading is looked up again
    return WebDriverWait(browser, seconds, poll_frequency=0.05,
                         ignored_exceptions=[StaleElementReferenceException]).until(until)


def shot(browser: Any, name: str) -> None:
    if FIGURES:
        Path(FIGURES).mkdir(parents=True, exist_ok=True)
        time.sleep(0.2)  # the last drawing's frame
        browser.save_screenshot(str(Path(FIGURES) / f"{name}.png"))


def evaluate(quality: str, service: str) -> float:
    said = runner.invoke(cli, ["evaluate", "tipping", "-i", f"quality={quality}",
                               "-i", f"service={service}", "--json"])
    assert said.exit_code == 0, said.output
    grade: float = json.loads(said.stdout)["grade"]
    return grade


def test_a_moved_slider_gives_evaluate_s_grade(page: Callable[[str], Any]) -> None:
    d = page("rules")
    quality = d.find_element(*tid("slider-quality"))
    ActionChains(d).click_and_hold(quality).move_by_offset(60, 0).release().perform()
    service = d.find_element(*tid("slider-service"))
    service.send_keys(Keys.END, Keys.LEFT, Keys.LEFT)  # 10, then two steps of 0.01
    q, s = quality.get_attribute("value"), service.get_attribute("value")
    assert s == "9.98" and q != "5"
    assert d.find_element(*tid("number-quality")).get_attribute("value") == q
    want = evaluate(q, s)
    grade = d.find_element(*tid("grade"))
    wait(d, lambda _: grade.get_attribute("data-value") == repr(want))
    assert grade.text == f"{want:.4f}"
    strengths = [float(d.find_element(*tid(f"strength-{i}")).get_attribute("data-value"))
                 for i in range(1, 5)]
    assert strengths[0] == 0.0 and strengths[2] > 0.9  # service is good, quality not poor
    shot(d, "rules")


def test_a_broken_line_shows_its_located_problem(page: Callable[[str], Any],
                                                 studio: tuple[str, Path],
                                                 tmp_path: Path) -> None:
    d = page("editor")
    editor = d.find_element(*tid("editor"))
    editor.send_keys(Keys.CONTROL, Keys.END)
    editor.send_keys("  - if quality is superb then tip is high\n")
    broken = tmp_path / "tipping.yaml"
    broken.write_text(editor.get_attribute("value"))
    said = runner.invoke(cli, ["rulebase", "check", str(broken)])
    want = said.stderr.strip().replace(str(broken), str(studio[1] / "tipping.yaml"))
    # a slow machine may check a half-typed line first: wait for the whole line's answer
    wait(d, lambda _: [p.text for p in d.find_elements(*tid("problem"))] == [want])
    problem = d.find_elements(*tid("problem"))
    assert problem[0].get_attribute("data-line") == "33"
    assert ":33: rules[4]: " in want and "superb" in want
    assert "1 error(s)" in d.find_element(*tid("summary")).text
    marks = d.find_elements(*tid("gutter-mark"))  # the problem at its line, in the gutter
    assert [(m.get_attribute("data-line"), m.text, m.get_attribute("title")) for m in marks] \
        == [("33", "33", want)]
    assert "error" in marks[0].get_attribute("class").split()
    drawn = d.find_element(*tid("highlight")).get_attribute("innerHTML").split("\n")
    key, num = '<span class="hl-key">{}</span>:', '<span class="hl-number">{}</span>'
    assert drawn[9] == (key.format("default") + " " + num.format("12.5") + " " * 10
                        + '<span class="hl-comment"> # the grade when no rule fires</span>')
    assert drawn[13] == f'    {key.format("range")} [{num.format(0)}, {num.format(10)}]'
    shot(d, "editor")


def test_a_dragged_point_rewrites_the_yaml_keeping_comments(page: Callable[[str], Any]) -> None:
    d = page("variables")
    peak = d.find_element(*tid("point-quality-average-peak"))
    assert "adjust" in peak.get_attribute("class")  # marked: the calibrator moves it
    before = d.find_element(*tid("editor")).get_attribute("value")
    ActionChains(d).click_and_hold(peak).move_by_offset(-80, 0).release().perform()
    editor = d.find_element(*tid("editor"))
    wait(d, lambda _: editor.get_attribute("value") != before)
    after = editor.get_attribute("value")
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines(), strict=True)
               if a != b]
    assert len(changed) == 1 and changed[0][0].strip().startswith("average: {points: [0, 5, 10]")
    line = changed[0][1]
    assert line.endswith("adjust: [peak]}   # the calibrator may move the peak")
    peak_now = float(line.split("[0, ")[1].split(",")[0])
    assert 1 < peak_now < 5
    moved = repr(peak_now).removesuffix(".0")  # redrawn once the new text is checked
    wait(d, lambda _: d.find_element(*tid("point-quality-average-peak")).get_attribute(
        "data-value") == moved)
    shot(d, "variables")


def test_a_save_reloads_as_saved(page: Callable[[str], Any], studio: tuple[str, Path]) -> None:
    d = page("editor")
    editor = d.find_element(*tid("editor"))
    editor.send_keys(Keys.CONTROL, Keys.HOME)
    editor.send_keys("# saved from the studio\n")
    wait(d, lambda _: "ok: 2 inputs" in d.find_element(*tid("summary")).text)
    d.find_element(*tid("save")).click()
    wait(d, lambda _: d.find_element(*tid("status")).text.startswith("saved "))
    on_disk = (studio[1] / "tipping.yaml").read_text()
    assert on_disk.startswith("# saved from the studio\n# How much to tip")
    assert on_disk == editor.get_attribute("value")
    d = page("editor")
    assert d.find_element(*tid("editor")).get_attribute("value") == on_disk
    # someone else appends a line; a save is refused, shows what changed, reloads it
    theirs = on_disk + "# theirs\n"
    (studio[1] / "tipping.yaml").write_text(theirs)
    editor = d.find_element(*tid("editor"))
    editor.send_keys(Keys.CONTROL, Keys.HOME)
    editor.send_keys("# mine\n")
    d.find_element(*tid("save")).click()
    wait(d, lambda _: d.find_element(*tid("conflict")).is_displayed())
    n = on_disk.count("\n")
    assert d.find_element(*tid("conflict-diff")).text.split("\n") == [
        "--- as opened", "+++ on disk", f"@@ -{n} +{n},2 @@",
        " " + on_disk.splitlines()[-1], "+# theirs"]
    shot(d, "conflict")
    d.find_element(*tid("conflict-reload")).click()
    wait(d, lambda _: d.find_element(*tid("editor")).get_attribute("value") == theirs)
    assert not d.find_element(*tid("conflict")).is_displayed()
    (studio[1] / "tipping.yaml").write_text(on_disk)


def test_the_surface_draws(page: Callable[[str], Any]) -> None:
    d = page("surface")
    canvas = d.find_element(*tid("surface"))
    wait(d, lambda _: canvas.get_attribute("data-drawn") == "1")
    corners = d.execute_script(
        "const g = arguments[0].getContext('2d');"
        "return [[52, 370], [408, 14]].map(([x, y]) => Array.from(g.getImageData(x, y, 1, 1)"
        ".data));", canvas)
    low, high = corners  # quality and service both poor, then both good
    assert low != high and low[3] == high[3] == 255
    assert sum(high[:3]) > sum(low[:3])  # a high grade is drawn light
    assert d.find_element(*tid("surface-scale")).text.startswith("tip: ")
    levels = {p.get_attribute("data-level") for p in
              d.find_elements(By.CSS_SELECTOR, '[data-testid="surface-contours"] path')}
    assert levels and all(5 < float(v) < 25 for v in levels)  # the tip's inner iso-levels
    shot(d, "surface")


def test_the_history_draws_a_calibration_s_drift(page: Callable[[str], Any]) -> None:
    d = page("history")
    summary = d.find_element(*tid("history-summary"))
    wait(d, lambda _: summary.text.startswith("calibration 1 of cribbage_expected_points "
                                              "(cribbage against greedy): 2 round(s), won "))
    drawn = d.find_elements(By.CSS_SELECTOR, '[data-testid^="drift-"]')
    assert [e.get_attribute("data-testid") for e in drawn] == ["drift-crib_value",
                                                               "drift-hand_value"]
    lines = drawn[0].find_elements(By.TAG_NAME, "polyline")
    assert len(lines) == 2  # a point's path and its targets
    assert len(lines[0].get_attribute("points").split()) == 3  # before, after 1, after 2
    curve = d.find_element(*tid("history-curve")).find_elements(By.TAG_NAME, "polyline")
    assert len(curve) == 1 and len(curve[0].get_attribute("points").split()) == 2  # 2 rounds
    ticks = d.find_element(*tid("history-curve")).find_elements(*tid("curve-tick"))
    assert [t.text for t in ticks] == ["1", "2"]  # whole rounds (there was a 1.5 between)
    assert d.find_element(*tid("history-made-by")).text.startswith(
        "the start rule base made by: ")
    shot(d, "history")
    # the first round's base against the second's: the terms drawn over each other, and
    # the points the second round moved listed
    Select(d.find_element(*tid("compare-a"))).select_by_value(
        "0/calibration_rulebases/calibration1_round000.yaml")
    Select(d.find_element(*tid("compare-b"))).select_by_value(
        "0/calibration_rulebases/calibration1_round001.yaml")
    wait(d, lambda _: any(" -> " in c.text for c in d.find_elements(*tid("change"))))
    assert d.find_elements(*tid("compare-crib_value"))
    d.execute_script("document.querySelector('[data-testid=\"compare-title\"]')"
                     ".scrollIntoView()")
    shot(d, "compare")


def test_the_page_logs_no_error(page: Callable[[str], Any], browser: Any) -> None:
    """The page and its views draw without an error in the console (a browser's request
    for /favicon.ico was refused, 403, before the page named its icon inline)."""
    browser.get_log("browser")  # what the tests before logged
    d = page("history")
    wait(d, lambda _: d.find_element(*tid("history-summary")).text.startswith("calibration"))
    for view, drawn, mark in (("rules", "grade", "data-value"),
                              ("variables", "point-quality-average-peak", "data-value"),
                              ("surface", "surface", "data-drawn")):
        d.find_element(*tid(f"tab-{view}")).click()
        wait(d, lambda _, name=drawn, mark=mark: d.find_element(*tid(name)).get_attribute(mark))
    time.sleep(0.5)  # a late request's failure, had there been one
    assert [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_decision_view_grades_a_typed_hand_as_the_command_line(
        page: Callable[[str], Any], studio: tuple[str, Path]) -> None:
    url, folder = studio
    shutil.copy(RULEBASES / "cribbage_linguistic.yaml", folder / "cribbage_linguistic.yaml")
    browser = page("editor")
    browser.execute_script("state.dirty = false")
    browser.get(f"{url}&open=0/cribbage_linguistic.yaml")
    wait(browser, lambda d: "ok: " in d.find_element(*tid("summary")).text)
    browser.find_element(*tid("tab-decision")).click()
    wait(browser, lambda d: d.find_element(*tid("decision-game")).get_attribute("value") ==
         "cribbage")
    Select(browser.find_element(*tid("decision-mode"))).select_by_value("dealt")
    seed = browser.find_element(*tid("decision-seed"))
    seed.clear()
    seed.send_keys("5", Keys.TAB)  # a change event: deal 5
    wait(browser, lambda d: d.find_element(*tid("situation")).text.endswith(
        "your hand: 5D 5H 8C 8S 9H KC"))
    Select(browser.find_element(*tid("decision-mode"))).select_by_value("typed")
    hand = browser.find_element(*tid("spot-hand"))
    hand.clear()
    hand.send_keys("5D 5H 8C 8S 9H KC")
    crib = browser.find_element(*tid("spot-crib"))
    crib.clear()
    crib.send_keys("theirs", Keys.TAB)
    wait(browser, lambda d: d.find_element(*tid("situation")).text ==
         "scores: you 0, opponent 0; the crib is opponent's\nyour hand: 5D 5H 8C 8S 9H KC")
    said = runner.invoke(cli, ["cribbage", "discard", "5D", "5H", "8C", "8S", "9H", "KC",
                               "--crib", "theirs", "-p", "fuzzy:rulebase=cribbage_linguistic",
                               "--json"])
    want = json.loads(said.stdout)["table"]
    wait(browser, lambda d: d.find_element(*tid("choice")).text == "9H KC")
    rows = [r.text.split() for r in browser.find_elements(*tid("advice-row"))]
    assert rows == [[*w["discard"].split(), *w["keep"].split(), f"{w['grade']:.3f}"]
                    for w in want]
    assert len(rows) == 15 and rows[0] == ["9H", "KC", "5D", "5H", "8C", "8S", "0.468"]
    assert browser.find_elements(*tid("why-rule"))  # the rules behind the choice
    assert browser.find_element(*tid("why-title")).text == \
        "rules behind 9H KC, the choice: grade 0.467532"
    browser.find_elements(*tid("advice-row"))[3].click()  # another throw's rules
    wait(browser, lambda d: d.find_element(*tid("why-title")).text.startswith(
        "rules behind 8C 8S (not the choice): grade 0.361472"))
    shot(browser, "decision")
