"""``History.playing``: the mark that says a match is being played, refused when another
live process holds it -- a process of another machine always counts as live, since this
machine cannot look it up -- and taken over when it is a dead one's on this machine."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from fuzzeval.play.history import HistoryError
from fuzzeval.play.match import MatchSpec, PlayerSpec
from fuzzeval.play.store import History

pytestmark = pytest.mark.pinned

SPEC = MatchSpec("toy", PlayerSpec("random"), PlayerSpec("random"), 4, 1)


def dead_pid() -> int:
    """A process id that no process of this machine has now."""
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid += 1


def marks(h: History) -> list[tuple[int, int, str]]:
    return [(int(r[0]), int(r[1]), str(r[2])) for r in h.conn.execute(
        "SELECT match_id, pid, host FROM running ORDER BY match_id")]


def mark(h: History, match_id: int, pid: int, host: str) -> None:
    with h.conn:
        h.conn.execute("INSERT INTO running (match_id, pid, host) VALUES (?, ?, ?)",
                       (match_id, pid, host))


@pytest.mark.parametrize("pid", ["dead", "mine"])
def test_another_hosts_mark_is_refused_whatever_its_pid(tmp_path: Path, pid: str) -> None:
    # Another machine's pid says nothing here: neither a pid no process of this machine
    # has, nor one that happens to be this very process's number.
    other = socket.gethostname() + "-elsewhere"
    number = dead_pid() if pid == "dead" else os.getpid()
    with History(tmp_path / "h.sqlite") as h:
        match = h.create_match(SPEC, "")
        mark(h, match.id, number, other)
        with pytest.raises(HistoryError, match=rf"pid {number} on {other}\)"), \
                h.playing(match):
            pass
        assert marks(h) == [(match.id, number, other)]  # left as it was


def test_a_live_process_of_this_host_is_refused(tmp_path: Path) -> None:
    parent = os.getppid()  # alive: it runs the tests
    with History(tmp_path / "h.sqlite") as h:
        match = h.create_match(SPEC, "")
        mark(h, match.id, parent, socket.gethostname())
        with pytest.raises(HistoryError, match=rf"another process \(pid {parent}\);"), \
                h.playing(match):
            pass
        assert marks(h) == [(match.id, parent, socket.gethostname())]


def test_a_dead_processs_mark_on_this_host_is_taken_over_and_cleared(tmp_path: Path) -> None:
    host = socket.gethostname()
    with History(tmp_path / "h.sqlite") as h:
        match = h.create_match(SPEC, "")
        other = h.create_match(SPEC, "")
        mark(h, match.id, dead_pid(), host)  # left behind by a SIGKILL
        mark(h, other.id, os.getppid(), host)  # another match's mark is no concern
        with h.playing(match):
            assert marks(h) == [(match.id, os.getpid(), host),
                                (other.id, os.getppid(), host)]
        assert marks(h) == [(other.id, os.getppid(), host)]
