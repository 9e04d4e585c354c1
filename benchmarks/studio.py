"""The studio's response times, server side, on one core:

    python benchmarks/studio.py [--runs 21] [--rules 300] [--json]
    python benchmarks/studio.py --figures docs/figures/studio

- keystroke to problem: a 300-rule base (six inputs, three terms each) with one line
  changed, checked by ``POST /api/check`` (each run a new text, as a keystroke makes: the
  loader reads it afresh), and the same with a broken line (its located problem);
- slider to grade: ``POST /api/explain`` of one candidate, the base already read;
- the surface: ``POST /api/surface``, 100 x 100 grades;
- start: ``fuzzeval studio --no-open --port 0`` in a fresh process until its page answers
  (wall seconds, --runs // 4 + 1 times);
- in the browser (where chromium and chromedriver are installed, and selenium): from a
  keystroke that breaks a rule of the 300-rule base in the editor to its located problem
  on the page, the page's 60 ms wait included, --runs // 4 + 1 times.

Each figure is the median of --runs requests through Starlette's TestClient in this
process (the HTTP layer included, no socket); the page adds its 60 ms wait after the last
keystroke and the browser's drawing. Targets, printed as PASS or MISS: a keystroke's problems
and a slider's grade under 100 ms, the surface under 250 ms, start under 3 s, and in the
browser a keystroke's problem under 500 ms.

--figures FOLDER instead runs the studio's browser tests (tests/test_studio_browser.py),
which save a screenshot of each view into FOLDER: docs/studio.md's pictures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable

from starlette.testclient import TestClient

from benchmarks.children import run_main
from fuzzeval.studio.app import build_app
from fuzzeval.studio.workspace import Workspace

TERMS = ("low", "mid", "high")
#: the issue's numbers: a keystroke to its located problem on the page 200 ms (a 300-rule
#: base), a slider to its grade and rule bars 50 ms of server time, a 100 x 100 surface
#: 100 ms, the start 2 s; the server's part of a keystroke is held to half the page's
TARGETS = {"keystroke_ms": 100.0, "broken_keystroke_ms": 100.0, "slider_ms": 50.0,
           "surface_ms": 100.0, "start_s": 2.0, "browser_keystroke_ms": 200.0}


def big_rulebase(rules: int, inputs: int = 6) -> str:
    """A rule base of ``rules`` rules of two conditions each over ``inputs`` inputs."""
    lines = ["name: big", "defuzzifier: centroid", "default: 0.5", "inputs:"]
    for i in range(inputs):
        lines += [f"  x{i}:", "    range: [0, 1]",
                  "    terms: {low: [0, 0, 0.5], mid: [0, 0.5, 1], high: [0.5, 1, 1]}"]
    lines += ["output:", "  name: y", "  range: [0, 1]",
              "  terms: {low: [0, 0, 0.5], mid: [0, 0.5, 1], high: [0.5, 1, 1]}", "rules:"]
    for r in range(rules):
        a, b = r % inputs, (r // inputs) % (inputs - 1)
        lines.append(f"  - if x{a} is {TERMS[r % 3]} and x{(a + 1 + b) % inputs} is "
                     f"{TERMS[(r // 3) % 3]} then y is {TERMS[(r // 9) % 3]}")
    return "\n".join(lines) + "\n"


def median_ms(call: Callable[[int], object], runs: int) -> float:
    times = []
    for i in range(runs):
        start = time.perf_counter()
        call(i)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def start_seconds(runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "fuzzeval", "studio", "tipping",
                                 "--no-open", "--port", "0"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        url = proc.stdout.readline().split()[3]
        with urllib.request.urlopen(url, timeout=30) as page:
            page.read()
        times.append(time.perf_counter() - start)
        proc.terminate()
        proc.wait(timeout=30)
    return statistics.median(times)


def browser_keystroke_ms(text: str, runs: int) -> float | None:
    """In headless Chromium: a keystroke that breaks the base's first rule, to its problem
    on the page; None without chromium, chromedriver or selenium."""
    import shutil
    import tempfile
    from pathlib import Path

    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        return None
    if not (chromium and driver):
        return None
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "big.yaml").write_text(text)
        proc = subprocess.Popen([sys.executable, "-m", "fuzzeval", "studio", folder,
                                 "--no-open", "--port", "0"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        url = proc.stdout.readline().split()[3]
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage"):
            options.add_argument(arg)
        browser = webdriver.Chrome(options=options,
                                   service=webdriver.ChromeService(executable_path=driver))
        try:
            browser.get(f"{url}&open=0/big.yaml")
            wait = WebDriverWait(browser, 30, poll_frequency=0.005)
            summary = (By.CSS_SELECTOR, '[data-testid="summary"]')
            wait.until(lambda d: d.find_element(*summary).text.startswith("ok: "))
            editor = browser.find_element(By.CSS_SELECTOR, '[data-testid="editor"]')
            line = text.splitlines().index(next(x for x in text.splitlines()
                                                if x.startswith("  - if ")))
            times = []
            for _ in range(runs):
                browser.execute_script(  # the caret at the end of the first rule's line
                    "const e = arguments[0], n = arguments[1];"
                    "const at = e.value.split('\\n').slice(0, n + 1).join('\\n').length;"
                    "e.focus(); e.setSelectionRange(at, at);", editor, line)
                start = time.perf_counter()
                editor.send_keys("x")  # 'then y is lowx': an unknown term
                wait.until(lambda d: d.find_elements(By.CSS_SELECTOR,
                                                     '[data-testid="problem"]'))
                times.append(time.perf_counter() - start)
                editor.send_keys(Keys.BACKSPACE)
                wait.until(lambda d: d.find_element(*summary).text.startswith("ok: "))
        finally:
            browser.quit()
            proc.terminate()
            proc.wait(timeout=30)
    return 1000 * statistics.median(times)


def figures(folder: str) -> int:
    """The browser tests, each saving its view into ``folder``; their exit status."""
    import os
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "FUZZEVAL_STUDIO_FIGURES": str(Path(folder).resolve()),
           "FUZZEVAL_BROWSER_TESTS": "required"}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly",
                           "-p", "no:cacheprovider", "tests/test_studio_browser.py"],
                          cwd=root, env=env, check=False).returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--rules", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--figures", metavar="FOLDER",
                    help="save the browser tests' screenshots here, and time nothing")
    args = ap.parse_args()
    if args.figures:
        sys.exit(figures(args.figures))
    client = TestClient(build_app(Workspace(()), "t"))
    head = {"x-studio-token": "t"}
    text = big_rulebase(args.rules)
    names = [f"x{i}" for i in range(6)]

    def post(url: str, body: dict[str, object]) -> dict[str, object]:
        got = client.post(url, headers=head, json=body)
        assert got.status_code == 200, got.text
        answer: dict[str, object] = got.json()
        return answer

    def keystroke(i: int) -> None:
        assert post("/api/check", {"text": text + f"# {i}\n", "path": "big.yaml"})["ok"]

    def broken(i: int) -> None:
        bad = text.replace("then y is low", f"then y is lo{i}", 1)
        assert len(post("/api/check", {"text": bad, "path": "big.yaml"})["problems"]) == 1

    inputs = {n: 0.3 for n in names}

    def slider(i: int) -> None:
        post("/api/explain", {"text": text, "path": "big.yaml",
                              "inputs": {**inputs, "x0": i / args.runs}})

    def grid(i: int) -> None:
        post("/api/surface", {"text": text, "path": "big.yaml", "x": "x0", "y": "x1",
                              "held": {**inputs, "x2": i / args.runs}, "n": 100})

    for call in (keystroke, slider, grid):  # warm: the kernels compiled, the base read
        call(-1)
    found = {"rules": args.rules, "runs": args.runs,
             "keystroke_ms": median_ms(keystroke, args.runs),
             "broken_keystroke_ms": median_ms(broken, args.runs),
             "slider_ms": median_ms(slider, args.runs),
             "surface_ms": median_ms(grid, args.runs),
             "start_s": start_seconds(args.runs // 4 + 1),
             "browser_keystroke_ms": browser_keystroke_ms(text, args.runs // 4 + 1)}
    if args.json:
        print(json.dumps(found))
        return
    for key, target in TARGETS.items():
        unit = "s" if key.endswith("_s") else "ms"
        if found[key] is None:
            print(f"{key:22s} not measured: no chromium, chromedriver or selenium")
            continue
        verdict = "PASS" if found[key] <= target else "MISS"
        print(f"{key:22s} {found[key]:8.1f} {unit}  (target <= {target:g} {unit}) {verdict}")


if __name__ == "__main__":
    run_main(main)
