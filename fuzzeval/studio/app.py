"""The studio's web application: one page, its two static files, and JSON endpoints that
call the views (docs/studio.md lists them). Every request passes ``security.Guard``."""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from fuzzeval.errors import FuzzevalError, RuleBaseError
from fuzzeval.studio.security import Guard, Refused
from fuzzeval.studio.views import (
    base,
    compare,
    decision,
    history,
    surface,
    template,
    variables,
    viewer,
)
from fuzzeval.studio.workspace import DATABASES, Conflict, Workspace

STATIC = {"studio.js": "text/javascript", "studio.css": "text/css"}
Handler = Callable[[Request], Awaitable[Response]]


class BadRequest(FuzzevalError):
    """A request the page would not send: a missing or mistyped field."""


def _static(name: str) -> str:
    return files("fuzzeval.studio").joinpath("static", name).read_text(encoding="utf-8")


def _field(body: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = body.get(name)
    if isinstance(value, bool) or not isinstance(value, kind):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        raise BadRequest(f"field {name!r}: expected {' or '.join(k.__name__ for k in kinds)}")
    return value


def _number(body: dict[str, Any], name: str) -> float:
    value = float(_field(body, name, (int, float)))
    if not math.isfinite(value):
        raise BadRequest(f"field {name!r}: expected a finite number")
    return value


def _numbers(body: dict[str, Any], name: str) -> dict[str, float]:
    given = _field(body, name, dict)
    out = {}
    for key in given:
        out[str(key)] = _number(given, key)
    return out


def _texts(body: dict[str, Any], name: str) -> dict[str, str]:
    given = _field(body, name, dict)
    return {str(key): _field(given, key, str) for key in given}


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadRequest(f"the body must be JSON ({exc})") from None
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return body


def _answer(work: Callable[[], dict[str, Any]]) -> JSONResponse:
    """A view's dict as JSON, or its refusal in one line with the status that says why."""
    try:
        return JSONResponse(work())
    except base.Unusable as exc:
        return JSONResponse({"error": str(exc), "problems": [base.problem_dict(p)
                                                            for p in exc.problems]}, 422)
    except Conflict as exc:
        return JSONResponse({"error": str(exc)} | ({} if exc.diff is None
                                                   else {"diff": exc.diff}), 409)
    except Refused as exc:
        return JSONResponse({"error": str(exc)}, 403)
    except RuleBaseError as exc:
        return JSONResponse({"error": str(exc)}, 400)
    except (FuzzevalError, ValueError, KeyError, OSError) as exc:
        text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        return JSONResponse({"error": str(text)}, 400)


def build_app(workspace: Workspace, token: str) -> Guard:
    """The studio's ASGI application over ``workspace``, guarded by ``token``."""
    page = _static("studio.html").replace("{{TOKEN}}", token)

    async def index(request: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8",
                        headers={"cache-control": "no-store", "referrer-policy": "no-referrer"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return PlainTextResponse("not found\n", 404)
        return Response(_static(name), media_type=STATIC[name])

    async def listing(request: Request) -> Response:
        return _answer(lambda: {"files": workspace.listing(),
                                "folders": workspace.writable_folders()})

    async def histories(request: Request) -> Response:
        return _answer(lambda: {"databases": workspace.listing(DATABASES)})

    def calibration(request: Request) -> int | None:
        given = request.query_params.get("calibration", "")
        if given and not given.isdigit():
            raise BadRequest(f"calibration {given!r}: a calibration's number")
        return int(given) if given else None

    async def drift(request: Request) -> Response:
        return _answer(lambda: history.drift(
            workspace.database(request.query_params.get("id", "")), calibration(request)))

    async def run(request: Request) -> Response:
        return _answer(lambda: history.run(
            workspace.database(request.query_params.get("id", ""))))

    def opened(file_id: str) -> tuple[str, str]:
        got = workspace.open(file_id)
        return str(got["text"]), str(got["path"])

    async def games(request: Request) -> Response:
        return _answer(lambda: {"games": decision.games()})

    async def open_file(request: Request) -> Response:
        return _answer(lambda: workspace.open(request.query_params.get("id", "")))

    def post(work: Callable[[dict[str, Any]], dict[str, Any]]) -> Handler:
        async def endpoint(request: Request) -> Response:
            try:
                body = await _body(request)
            except BadRequest as exc:
                return JSONResponse({"error": str(exc)}, 400)
            return _answer(lambda: work(body))
        return endpoint

    def pick(b: dict[str, Any]) -> str | None:
        return None if b.get("pick") is None else str(_field(b, "pick", str))

    def text(b: dict[str, Any]) -> tuple[str, str]:
        return _field(b, "text", str), _field(b, "path", str)

    routes = [
        Route("/", index),
        Route("/static/{name}", static),
        Route("/api/files", listing),
        Route("/api/file", open_file),
        Route("/api/histories", histories),
        Route("/api/games", games),
        Route("/api/drift", drift),
        Route("/api/run", run),
        Route("/api/compare", post(lambda b: compare.compare(
            opened(_field(b, "a", str)), opened(_field(b, "b", str)))), methods=["POST"]),
        Route("/api/check", post(lambda b: base.check(*text(b))), methods=["POST"]),
        Route("/api/explain", post(lambda b: viewer.explain(*text(b), _numbers(b, "inputs"))),
              methods=["POST"]),
        Route("/api/move", post(lambda b: variables.move(
            *text(b), _field(b, "variable", str), _field(b, "term", str),
            _field(b, "point", str), _number(b, "value"))), methods=["POST"]),
        Route("/api/surface", post(lambda b: surface.surface(
            *text(b), _field(b, "x", str), _field(b, "y", str), _numbers(b, "held"),
            int(b.get("n", 100)) if isinstance(b.get("n", 100), int) else -1)),
              methods=["POST"]),
        Route("/api/decision", post(lambda b: decision.decision(
            *text(b), _field(b, "game", str), spot=_texts(b, "spot"), pick=pick(b))
            if "spot" in b else decision.decision(
                *text(b), _field(b, "game", str), _field(b, "seed", int),
                _field(b, "index", int), pick=pick(b))), methods=["POST"]),
        Route("/api/save", post(lambda b: workspace.save(
            _field(b, "id", str), _field(b, "text", str), _field(b, "stamp", str),
            _field(b, "opened", str) if "opened" in b else None)),
              methods=["POST"]),
        Route("/api/save-as", post(lambda b: workspace.save_as(
            _field(b, "folder", int), _field(b, "name", str), _field(b, "text", str))),
              methods=["POST"]),
        Route("/api/new", post(lambda b: workspace.save_as(
            _field(b, "folder", int), _field(b, "name", str),
            template.template(_field(b, "name", str)))), methods=["POST"]),
    ]
    return Guard(Starlette(routes=routes), token)
