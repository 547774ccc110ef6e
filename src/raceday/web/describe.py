"""The party server's description and its app-wide refusals: the OpenAPI document (with
the refusals each route answers, links between them and a pointer to the WebSocket wire's
schema), and the answers to a database error, a body that does not fit its model, and a
404 or 405 no route turned into a refusal."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from raceday.core.events import Message
from raceday.web.api_models import UNWRITABLE_RETRY, ErrorAnswer, error_answer, one_line
from raceday.web.pages import PAGES

log = logging.getLogger("raceday.web")
WIRE_SCHEMA = "/wire-schema.json"


def describe(app: FastAPI) -> None:
    """The OpenAPI description and the refusals of errors no route turned into one."""

    def openapi() -> dict[str, Any]:
        """FastAPI's description with this server's refusals: 400 ``{"error"}`` instead of
        422, and a JSON-object body on the routes that read theirs by hand."""
        if app.openapi_schema is None:
            spec = get_openapi(title=app.title, version=app.version,
                               description=app.description, routes=app.routes)
            error = {"description": "Refused", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/ErrorAnswer"}}}}
            for item in spec.get("paths", {}).values():
                for method, operation in item.items():
                    answers = operation.setdefault("responses", {})
                    if answers.pop("422", None) is not None:
                        answers.setdefault("400", error)
                    if method in ("post", "put", "patch") and "requestBody" not in operation:
                        operation["requestBody"] = {"required": True, "content": {
                            "application/json": {"schema": {"type": "object"}}}}
            _link(spec)
            schemas = spec.setdefault("components", {}).setdefault("schemas", {})
            for unused in ("HTTPValidationError", "ValidationError"):
                schemas.pop(unused, None)
            schemas["ErrorAnswer"] = ErrorAnswer.model_json_schema()
            spec["externalDocs"] = {"description": "the WebSocket wire (JSON Schema)",
                                    "url": WIRE_SCHEMA}
            app.openapi_schema = spec
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.exception_handler(sqlite3.Error)
    async def database_error(request: Request, exc: sqlite3.Error) -> JSONResponse:
        """A database error no route turned into a refusal: 503 in one line, not a 500
        with a traceback (the rooms' writes are refused as StoreUnavailable already)."""
        log.warning("%s %s: database error: %s", request.method, request.url.path, exc)
        return error_answer(503, Message("refusal.store_unwritable"),
                            {"Retry-After": str(UNWRITABLE_RETRY)})

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        text, words = one_line(exc.errors())
        return error_answer(400, text, words=words)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and _wants_page(request):  # a person's typo: a page
            return PAGES["notfound"].response(status_code=404)
        words = Message({404: "refusal.not_found", 405: "refusal.method"}.get(
            exc.status_code, "refusal.http"), {"status": exc.status_code})
        headers = dict(exc.headers) if exc.headers else None
        if exc.status_code == 405:  # every method of the path, not the first route's only
            headers = {**(headers or {}), **_allow(app.router.routes, request.scope)}
        return error_answer(exc.status_code, words, headers)


def _link(spec: dict[str, Any]) -> None:
    """OpenAPI links: a created room's code leads to its page data, QR and join, and a
    join's code to the room (so a client, or Schemathesis's stateful run, can follow them)."""
    paths = spec.get("paths", {})

    def operation(path: str, method: str) -> str | None:
        found = paths.get(path, {}).get(method, {}).get("operationId")
        return None if found is None else str(found)

    by_code = {"code": "$response.body#/code"}
    follow = {name: {"operationId": op, "parameters": by_code} for name, op in (
        ("GetRoom", operation("/api/rooms/{code}", "get")),
        ("RoomQR", operation("/api/rooms/{code}/qr.svg", "get")),
        ("JoinRoom", operation("/api/rooms/{code}/join", "post"))) if op is not None}
    for path, method, names in (("/api/rooms", "post", ("GetRoom", "RoomQR", "JoinRoom")),
                                ("/api/rooms/{code}/join", "post", ("GetRoom",))):
        answer = paths.get(path, {}).get(method, {}).get("responses", {}).get("201")
        if answer is not None:
            answer["links"] = {n: follow[n] for n in names if n in follow}



def _allow(routes: Iterable[Any], scope: Any) -> dict[str, str]:
    """A 405's ``Allow``: every method the route that matched this path has a sibling for
    (the same path parameters: ``/api/numbers/games`` is not a job's id); none found
    (files): nothing, the refusal's own stays."""
    from starlette.routing import Match, Mount

    def flat(items: Iterable[Any]) -> Iterable[Any]:  # an included router's own routes
        for item in items:
            inner = getattr(item, "original_router", None)
            yield from flat(inner.routes) if inner is not None else (item,)

    routes = [route for route in flat(routes) if not isinstance(route, Mount)]
    found = [child.get("path_params") for match, child in (r.matches(scope) for r in routes)
             if match is not Match.NONE]
    methods = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"):
        for route in routes:
            match, child = route.matches({**scope, "method": method})
            if match is Match.FULL:
                if found and child.get("path_params") == found[0]:
                    methods.append(method)
                break
    return {"Allow": ", ".join(methods)} if methods else {}


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, a file, or a program wanting JSON)."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/", "/static/", "/games/")) or \
            path in ("/openapi.json", WIRE_SCHEMA):
        return False
    return "text/html" in request.headers.get("accept", "")
