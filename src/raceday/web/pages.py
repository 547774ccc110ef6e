"""The HTML pages: one shell (``static/pages/shell.html``) filled from a short declaration
per page — its title, module, style sheets, body class and body.

The app's own pages are declared in :data:`PAGES`; a game's page of its own (at
``/<game>``) is declared by its package's ``static/page.json``, whose module and style
sheets are names relative to that folder (served at ``/games/<game>/static/``) unless they
start with ``/``. Every page loads the favicon, ``app.css`` and one JavaScript module, and
nothing inline, so the app's Content-Security-Policy holds for all of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from pathlib import Path

from fastapi.responses import HTMLResponse

from raceday.core.errors import RacedayError

FOLDER = Path(__file__).parent / "static" / "pages"
APP_CSS = "/static/css/app.css"
WATCH_CSS = "/static/css/watch.css"
REPLAY_CSS = "/static/css/replay.css"
WAITING = '<div id="app"><p class="status">…</p></div>'  # filled by the page's module


class PageDeclarationError(RacedayError):
    """A game's ``static/page.json`` is not a page declaration."""


@dataclass(frozen=True)
class Page:
    """What makes one page different from the others."""

    title: str
    module: str
    body_class: str
    styles: tuple[str, ...] = ()  # style sheets after app.css
    body: str = WAITING
    title_key: str | None = None  # the title's message key, worded in the reader's language

    def html(self) -> str:
        """The page: the shell with this page's parts."""
        links = "\n".join(f'<link rel="stylesheet" href="{escape(href)}">'
                          for href in (APP_CSS, *self.styles))
        return (FOLDER / "shell.html").read_text(encoding="utf-8").format(
            title=escape(self.title), styles=links, module=escape(self.module),
            title_key="" if self.title_key is None else f' data-i18n="{escape(self.title_key)}"',
            body_class=escape(self.body_class), body=self.body)

    def response(self, status_code: int = 200) -> HTMLResponse:
        """The page as the server answers it (revalidated on every visit)."""
        return HTMLResponse(self.html(), status_code=status_code,
                            headers={"Cache-Control": "no-cache"})


def _party(module: str, body_class: str) -> Page:
    return Page(title="raceday party", module=f"/static/js/{module}.js", body_class=body_class,
                title_key="title")


def _watching(module: str, *styles: str) -> Page:
    return Page(title="raceday", module=module, body_class="big watch-page",
                styles=(WATCH_CSS, *styles))


PAGES: dict[str, Page] = {
    "index": Page(title="raceday party", module="/static/js/index.js", body_class="landing",
                  title_key="title",
                  body=(FOLDER / "landing.html").read_text(encoding="utf-8").rstrip("\n")),
    "host": _party("host", "big"),
    "play": _party("play", "phone"),
    "notfound": Page(title="raceday", module="/static/js/notfound.js",
                     body_class="landing notfound",
                     body=(FOLDER / "notfound.html").read_text(encoding="utf-8").rstrip("\n")),
    "numbers": _watching("/static/js/numbers.js"),
    # its style sheet in the page, not added by the module: a sheet in the head is loaded
    # before the module runs, so the first drawing is already in the page's type sizes
    "replay": _watching("/static/js/replay.js", REPLAY_CSS),
    "learn": Page(title="raceday", module="/static/js/learn.js", body_class="landing learn",
                  title_key="learn_page_title", styles=("/static/css/learn.css",)),
}


def game_page(game: str, static: Path) -> Page | None:
    """A game's own page, declared by ``static/page.json`` (``title``, ``module``,
    ``styles``), drawn like the Numbers and Replays pages; None if it has none."""
    declared = static / "page.json"
    if not declared.is_file():
        return None
    try:
        spec = json.loads(declared.read_text(encoding="utf-8"))
        module, styles = str(spec["module"]), [str(s) for s in spec.get("styles", ())]
        title = str(spec.get("title", "raceday"))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise PageDeclarationError(f"{declared}: not a page declaration ({exc})") from exc
    base = f"/games/{game}/static/"
    module, *styles = (n if n.startswith("/") else base + n for n in (module, *styles))
    return Page(title=title, module=module, body_class="big watch-page",
                styles=(WATCH_CSS, *styles))
