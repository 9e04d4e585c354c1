"""``--dask ADDRESS`` checks the service with a bounded handshake: anything but a Dask
scheduler (an HTTP server, a closed port, a service answering garbage) is one error line,
exit 1, within Dask's connect timeout, before any file is made.

The commands run in this process (a Python and its imports started for each took 1 to 2 s
of the 3 each test took); one runs as its own process, its timeout from the environment
variable the documentation names."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from fuzzeval.cli import app

# skipped without the extra, found without importing it (0.3 s of every collection)
if importlib.util.find_spec("distributed") is None:
    pytest.skip("could not import 'distributed'", allow_module_level=True)

TIMEOUT_S = 0.5  # the test's own connect timeout (the documented default is 30 s)
COMMANDS = {
    "match": ["match", "backgammon", "-p", "random", "--opponent", "random", "-n", "4"],
    "tune": ["tune", "cribbage", "--training-deals", "100", "--held-out-deals", "20",
             "--budget", "60"],
    "learn": ["learn", "hearts", "--games", "100", "--sample-games", "5", "--measure-every",
              "0"],
    "calibrate": ["calibrate", "cribbage", "--opponent", "greedy", "--rounds", "1",
                  "--games-per-round", "2"],
    "tournament": ["tournament", "backgammon", "-p", "random", "-p", "pubeval", "-n", "2"],
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_listening(port: int) -> None:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on {port}")


@pytest.fixture
def http_server() -> Iterator[str]:
    """A plain HTTP server: it waits for a request line and never sends a handshake."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                             "127.0.0.1"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        _wait_listening(port)
        yield f"tcp://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture
def garbage_server() -> Iterator[str]:
    """A service that answers with text at once: read as Dask frames, its first eight bytes
    ask for 3 EiB (the issue's numpy traceback)."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            with conn:
                conn.sendall(b"HTTP/1.0 400 Bad Request\r\nServer: x\r\n\r\n" * 4)
                time.sleep(0.5)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        server.close()


@pytest.fixture
def closed_port() -> str:
    return f"tcp://127.0.0.1:{_free_port()}"


def _run(command: str, address: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
         ) -> tuple[Result, float]:
    """The command run here, from ``tmp_path``, with the test's connect timeout."""
    import dask.config
    import distributed.config  # noqa: F401  its defaults first: set() undoes what it added

    args = [*COMMANDS[command], "--db", str(tmp_path / "runs" / "h.sqlite"), "--dask", address]
    if command == "tune":
        args += ["-o", str(tmp_path / "out.yaml")]
    monkeypatch.chdir(tmp_path)
    start = time.monotonic()
    with dask.config.set({"distributed.comm.timeouts.connect": f"{TIMEOUT_S}s"}):
        done = CliRunner().invoke(app, args)
    return done, time.monotonic() - start


def _assert_one_line_and_no_file(done: Result, address: str, tmp_path: Path, *why: str
                                 ) -> None:
    """One error line naming the address and one of the reasons ``why``; nothing made."""
    lines = done.stderr.strip().splitlines()
    # exit 1 by the command's own exit, not an exception escaping it (also exit 1 here)
    assert done.exit_code == 1 and isinstance(done.exception, SystemExit), done.output
    assert len(lines) == 1 and lines[0].startswith(f"error: --dask {address}: "), done.stderr
    assert any(w in lines[0] for w in why), lines[0]
    assert "Traceback" not in done.output and done.stdout == ""
    assert list(tmp_path.iterdir()) == []  # no database, no runs/, no output


@pytest.mark.parametrize("command", ["match", "tune"])
def test_a_plain_http_server_is_refused_within_the_timeout(
        command: str, http_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    done, took = _run(command, http_server, tmp_path, monkeypatch)
    _assert_one_line_and_no_file(done, http_server, tmp_path,
                                 f"no Dask scheduler answered within {TIMEOUT_S:g} s")
    assert took < TIMEOUT_S + 15  # the handshake's limit, plus starting Python


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_closed_port_is_refused_within_the_timeout(
        command: str, closed_port: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    done, took = _run(command, closed_port, tmp_path, monkeypatch)
    # the refusal, or on a loaded machine distributed's retries running out first
    _assert_one_line_and_no_file(done, closed_port, tmp_path, "Connection refused",
                                 "Timed out trying to connect")
    assert took < TIMEOUT_S + 15


@pytest.mark.usefixtures("drift_not_drawn")
def test_evaluate_calibration_refuses_a_closed_port_before_writing_its_database(
        closed_port: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = tmp_path / "made"
    made.mkdir()
    monkeypatch.chdir(made)
    calibrated = CliRunner().invoke(app, [*COMMANDS["calibrate"], "--held-out-deals", "0",
                                          "-w", "1", "--db", "c.sqlite"])
    assert calibrated.exit_code == 0, calibrated.output
    before = (made / "c.sqlite").read_bytes()
    files = sorted(made.rglob("*"))
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": f"{TIMEOUT_S}s"}
    done = subprocess.run([sys.executable, "-m", "fuzzeval", "evaluate-calibration", "-n", "2",
                           "c.sqlite", "--dask", closed_port], cwd=made, env=env,
                          capture_output=True, text=True, timeout=60)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1, done.stderr
    assert len(lines) == 1 and lines[0].startswith(f"error: --dask {closed_port}: "), lines
    assert f"within {TIMEOUT_S:g} s" in lines[0]  # the environment's timeout, not 30 s
    assert (made / "c.sqlite").read_bytes() == before and sorted(made.rglob("*")) == files


def test_a_service_answering_garbage_is_one_line_not_a_numpy_traceback(
        garbage_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    done, _ = _run("match", garbage_server, tmp_path, monkeypatch)
    _assert_one_line_and_no_file(done, garbage_server, tmp_path, "not a Dask scheduler")


def test_a_dask_address_of_another_scheme_is_refused_naming_the_valid_form(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    done, _ = _run("match", "http://127.0.0.1:1", tmp_path, monkeypatch)
    _assert_one_line_and_no_file(done, "http://127.0.0.1:1", tmp_path, "tcp://host:8786")


def _frozen_in_worker() -> int:
    import gc

    return gc.get_freeze_count()


def test_workers_fork_from_a_frozen_heap_and_the_parent_thaws_after() -> None:
    """executor_for freezes the parent's objects before its workers fork (their collections
    then leave the shared pages unwritten: a quarter of the page faults), and unfreezes
    them when the pool is shut, so the parent's garbage is collected again."""
    import gc

    from fuzzeval.play.executors import executor_for

    before = gc.get_freeze_count()  # 0, unless the test runner froze its own
    with executor_for(2) as pool:
        assert pool is not None
        assert pool.submit(_frozen_in_worker).result(timeout=60) > max(before, 1000)
    assert gc.get_freeze_count() == 0 if before == 0 else gc.get_freeze_count() > before


def test_a_callers_own_freeze_is_left_frozen() -> None:
    """A process that froze its heap itself (mutmut does, before forking) keeps it frozen:
    executor_for thaws only what it froze."""
    import gc

    from fuzzeval.play.executors import executor_for

    was = gc.get_freeze_count()
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with executor_for(2) as pool:
            assert pool is not None
        assert gc.get_freeze_count() >= before > 0
    finally:
        if was == 0:
            gc.unfreeze()


def test_a_pool_left_by_an_exception_ends_its_workers_without_waiting() -> None:
    """A stopped command keeps no game in flight: its workers end at once (waiting for
    them could hang when the same SIGTERM killed them, CPython 3.11), where a normal end
    waits for the work."""
    import time

    from fuzzeval.play.executors import executor_for

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="stopped"), executor_for(2) as pool:
        assert pool is not None
        pool.submit(time.sleep, 60)
        workers = list(pool._processes.values())  # type: ignore[attr-defined]
        raise RuntimeError("stopped")
    assert time.monotonic() - start < 20
    for process in workers:
        process.join(5)
        # ended: reaped, or a zombie not yet reaped (the pool's own thread may hold it)
        stat = Path(f"/proc/{process.pid}/stat")
        state = stat.read_text().rsplit(")", 1)[1].split()[0] if stat.exists() else "gone"
        assert not process.is_alive() or state in ("Z", "X", "gone"), state
