"""What keeps a studio to the person who started it: a token made at each launch (every
request without it is refused, 403), writes only from the studio's own page (same origin,
the token in a header a cross-site form cannot send), request bodies of at most 1 MB, and
file names confined to the folders it was started on."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import parse_qs

from fuzzeval.errors import UsageError

#: the largest request body the studio reads (a rule base of 300 rules is ~30 kB)
MAX_BODY = 1_000_000
#: the header the page's requests carry the token in
TOKEN_HEADER = "x-studio-token"
#: methods that change nothing
SAFE = frozenset({"GET", "HEAD"})

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Refused(UsageError):
    """A file name the studio will not touch: outside its folders, or not a rule base."""


def new_token() -> str:
    """A fresh token for one launch: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def confine(folder: Path, name: str) -> Path:
    """The file ``name`` (relative, with ``/``) inside ``folder``, or Refused: an absolute
    name, a ``..`` part, or a symbolic link leading out of the folder is not followed."""
    pure = PurePosixPath(name)
    if (not name or "\\" in name or "\0" in name or pure.is_absolute()
            or ".." in pure.parts or name.startswith("~")):
        raise Refused(f"{name!r}: give a name inside the folder, without '..' or a leading '/'")
    path = folder / pure
    if not path.resolve().is_relative_to(folder.resolve()):
        raise Refused(f"{name!r}: leads outside {folder} (a symbolic link)")
    return path


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def refusal(scope: Scope, token: str) -> tuple[int, str] | None:
    """Why a request is refused (status and one line), or None: the token (header, or
    ``?token=`` for a page or file the browser loads), and for a write the header token,
    a same-origin ``Origin`` and a declared body of at most MAX_BODY bytes."""
    headers = _headers(scope)
    given = headers.get(TOKEN_HEADER)
    method = scope["method"]
    if given is None and method in SAFE:
        given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [""])[0]
    if not given or not hmac.compare_digest(given.encode(), token.encode()):
        return 403, ("forbidden: open the address fuzzeval studio printed (it carries this "
                     "launch's token)")
    if method in SAFE:
        return None
    origin = headers.get("origin")
    if origin is not None and origin != f"{scope.get('scheme', 'http')}://{headers.get('host')}":
        return 403, f"forbidden: a write from another origin ({origin})"
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return 403, "forbidden: a write from another site"
    length = headers.get("content-length")
    if length is None or not length.isdigit():
        return 411, "a write must say its length (Content-Length)"
    if int(length) > MAX_BODY:
        return 413, f"a request body may hold at most {MAX_BODY:,} bytes (got {int(length):,})"
    return None


class Guard:
    """ASGI middleware: ``refusal`` for every HTTP request, before the app sees it; a body
    longer than it declared is cut at MAX_BODY."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = refusal(scope, self.token)
        if refused is not None:
            status, line = refused
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
            await send({"type": "http.response.body", "body": (line + "\n").encode()})
            return
        seen = 0

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > MAX_BODY:
                raise ValueError(f"a request body may hold at most {MAX_BODY:,} bytes")
            return message

        await self.app(scope, capped, send)
