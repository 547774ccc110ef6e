"""``GET /api/messages/{lang}``: the merged message table of one language (the shared keys
and every game's own, as ``"<game>.<key>"``) that the pages render with ``present.js``."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from raceday.present import LANGUAGES, table

router = APIRouter()

CACHE = "public, max-age=300"  # the tables change only with the installed code


@cache
def _body(lang: str) -> tuple[bytes, str]:
    """The table of ``lang`` as JSON bytes and their entity tag."""
    body = json.dumps(table(lang).to_json(), ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8")
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@router.get("/api/messages/{lang}", response_class=JSONResponse,
            responses={404: {"description": "Unknown language"}})
def messages(lang: str, request: Request) -> Response:
    """Every key of ``lang`` mapped to its template (``{name}`` slots)."""
    if lang not in LANGUAGES:
        return JSONResponse({"error": f"unknown language {lang[:20]!r}; choose one of "
                                      f"{', '.join(LANGUAGES)}"}, status_code=404)
    body, tag = _body(lang)
    headers = {"Cache-Control": CACHE, "ETag": tag}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
