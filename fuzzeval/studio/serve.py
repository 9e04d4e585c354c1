"""Serving the studio until Ctrl-C or SIGTERM: the socket bound first (a port in use is
one line, before anything starts), then uvicorn, whose graceful stop raises the signal
again so that the command line tells it in its one line (exit 130 or 143)."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from types import FrameType

from fuzzeval.errors import FuzzevalError, Terminated, UsageError

#: the signals that stop the studio: Ctrl-C and SIGTERM
STOPS = (signal.SIGINT, signal.SIGTERM)


def check_host(host: str) -> bool:
    """Whether ``host`` (an IP address, or ``localhost``) is this machine only; UsageError
    for anything else."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        raise UsageError(f"--host {host!r}: give an IP address such as 127.0.0.1 (this "
                         "machine only) or 0.0.0.0 (every interface)") from None


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError as exc:
        sock.close()
        raise FuzzevalError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def address(sock: socket.socket, token: str) -> str:
    """The studio's address, token included: what a person opens."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


def run(app: Callable[..., object], sock: socket.socket) -> None:
    """Serve ``app`` on ``sock`` until Ctrl-C (KeyboardInterrupt, once the server has
    stopped) or SIGTERM (Terminated), whatever the signals' handlers were before: a
    process started in the background ignores SIGINT until someone asks for it."""
    import uvicorn

    stops: list[int] = []

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():
                yield  # only the main thread may set handlers (a test's server thread)
                return
            before = {s: signal.signal(s, self.handle_exit) for s in STOPS}
            try:
                yield
            finally:
                for s, handler in before.items():
                    signal.signal(s, handler)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            stops.append(sig)
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, lifespan="off", log_level="warning", access_log=False,
                            timeout_graceful_shutdown=2)
    asyncio.run(Server(config).serve(sockets=[sock]))
    if stops:
        raise Terminated() if stops[0] == signal.SIGTERM else KeyboardInterrupt()
