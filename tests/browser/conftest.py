"""The browser tests' pages: Playwright against Debian's Chromium, one for the test process
(the ``chromium`` fixture of tests/conftest.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


def as_whole(text: str, view: list[Any]) -> str:
    """A frame as a client without deltas would have been sent it: an update carrying a
    patch is written out (as the server writes whole views) with the view the patch makes
    from ``view[0]``, the view of that socket so far (kept up to date here)."""
    from raceday.web.delta import PatchError, apply_patch

    try:
        msg = json.loads(text)
    except ValueError:
        return text
    if not isinstance(msg, dict) or msg.get("type") not in ("welcome", "update"):
        return text
    if "patch" not in msg:
        view[0] = msg.get("view")
        return text
    try:
        view[0] = apply_patch(view[0], msg["patch"])
    except PatchError:
        view[0] = None
        return text
    return json.dumps({"type": "update", "seq": msg["seq"], "events": msg["events"],
                       "view": view[0]})


@pytest.fixture
def open_page(chromium: Any) -> Callable[..., Any]:
    """``open_page(viewport, url, storage=None, motion=False)``: ``url`` in a context of its
    own (its own storage, English, reduced motion unless ``motion``: a page that slides and
    fades keeps Chromium drawing frames), with ``storage`` put in its localStorage first;
    the page records its script errors (``page.js_errors``) and every WebSocket frame it receives
    (``page.frames_received``, to check what a screen was sent: an update that came as a
    patch is written out with the whole view it makes, as a client without deltas is sent
    it, see :func:`as_whole`; ``page.raw_frames`` holds the frames as they came)."""

    def open_one(viewport: dict[str, int], url: str,
                 storage: dict[str, str] | None = None, timeout: float = 30_000,
                 motion: bool = False) -> Any:
        context = chromium.new_context(viewport=viewport, locale="en-US",
                                       reduced_motion="no-preference" if motion else "reduce")
        if storage:
            context.add_init_script(
                f"for (const [k, v] of Object.entries({json.dumps(storage)})) "
                "localStorage.setItem(k, v);")
        page = context.new_page()
        page.set_default_timeout(timeout)
        errors: list[str] = []
        frames: list[str] = []
        raw: list[str] = []

        def socket(ws: Any) -> None:
            view: list[Any] = [None]  # this socket's view, as the page's Live holds it

            def received(payload: Any) -> None:
                raw.append(str(payload))
                frames.append(as_whole(str(payload), view))

            ws.on("framereceived", received)

        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("dialog", lambda d: d.accept())
        page.on("websocket", socket)
        page.js_errors = errors
        page.frames_received = frames
        page.raw_frames = raw
        page.goto(url)
        return page

    return open_one


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    """A party server of its own on a fresh database, for a test that changes rooms in ways
    others must not see (a module that shares one server defines its own ``base``)."""
    from raceday.web.app import create_app
    from raceday.web.server import background_server

    with background_server(create_app(tmp_path / "party.sqlite")) as url:
        yield url
