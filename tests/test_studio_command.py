"""``fuzzeval studio`` as a command: its options checked, the address it prints, and a
clean stop on Ctrl-C or SIGTERM (one line, exit 130 or 143, no process left)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuzzeval.cli import app

runner = CliRunner()


def _start(*args: str, cwd: Path) -> tuple[subprocess.Popen[str], str]:
    """A studio in a fresh process (SIGINT not ignored, as at a terminal), and its address."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "fuzzeval", "studio", *args, "--no-open", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("fuzzeval studio at http://127.0.0.1:"), line
    return proc, line.split()[3]


@pytest.mark.parametrize(("sig", "code", "said"), [(signal.SIGINT, 130, "interrupted"),
                                                  (signal.SIGTERM, 143, "terminated")])
def test_a_signal_stops_it_in_one_line(tmp_path: Path, sig: int, code: int,
                                       said: str) -> None:
    pytest.importorskip("uvicorn", reason="the studio extra is not installed")
    proc, url = _start("tipping", cwd=tmp_path)
    with urllib.request.urlopen(url, timeout=10) as page:
        assert b"<title>fuzzeval studio</title>" in page.read()
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(url.split("?")[0], timeout=10)
    assert refused.value.code == 403
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=20)
    assert (proc.returncode, out, err) == (code, "", f"{said}\n")


def test_another_host_is_warned_about(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn", reason="the studio extra is not installed")
    proc = subprocess.Popen(
        [sys.executable, "-m", "fuzzeval", "studio", "--host", "0.0.0.0", "--no-open",
         "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=tmp_path)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith("fuzzeval studio at http://0.0.0.0:")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert err == ("warning: listening on 0.0.0.0: other machines can reach the studio, and "
                   "anyone with its address can change the files in it\nterminated\n")


@pytest.mark.parametrize(("args", "said"), [
    (["--host", "example"], "error: --host 'example': give an IP address such as 127.0.0.1 "
                            "(this machine only) or 0.0.0.0 (every interface)"),
    (["--port", "70000"], "error: Invalid value for '--port': 70000 is not in the range "
                          "0<=x<=65535. (see fuzzeval studio --help)"),
    (["no_such_base"], "error: no shipped rule base 'no_such_base' (shipped: "),
    (["notes.txt"], "error: notes.txt: not a .yaml rule-base file, a calibration database "
                  "(.sqlite) or a folder"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str], said: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("x")
    res = runner.invoke(app, ["studio", *args, "--no-open"])
    assert res.exit_code == 2
    assert res.stderr.startswith(said) and res.stderr.count("\n") == 1, res.stderr


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn", reason="the studio extra is not installed")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        res = runner.invoke(app, ["studio", "--no-open", "--port", str(port)])
    assert res.exit_code == 1
    assert res.stderr == f"error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


@pytest.mark.parametrize("module", ["starlette", "uvicorn"])
def test_without_the_extra_it_names_what_to_install(module: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    res = runner.invoke(app, ["studio", "--no-open"])
    assert res.exit_code == 2
    assert res.stderr == ("error: fuzzeval studio needs Starlette and uvicorn, an optional "
                          "extra: pip install 'fuzzeval[studio]'\n")
