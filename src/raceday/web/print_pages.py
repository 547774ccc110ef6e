"""The browser's Print page: every game's print-and-play pages, ready for the browser's
own Print (print CSS: one sheet a page, no toolbar), or as a PDF download.

* ``GET /print`` — choose a game, a part, the paper and the game's options (plain forms,
  their fields made from each option's JSON Schema);
* ``GET /print/{game}?part=&paper=&...`` — the pages inline as SVG, with print CSS;
* ``GET /print/{game}.pdf?...`` — the same pages as one PDF (svglib + reportlab).

Drawing the pages (up to 0.2 s) and making a PDF (up to 2 s) is heavy work: it is done in
the server's heavy-work pool (:mod:`raceday.web.heavy`: a process, a fair share and an
allowance per address), and an answer is cached by its game and query (the pages are a
function of them), so the same PDF asked for again, or by many at once, is made once.

The pages are the ones ``raceday print`` writes (:func:`raceday.printing.catalog.build`).
Everything is served from this package under the app's Content-Security-Policy: no
inline styles or scripts (the SVG uses presentation attributes only).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import QueryParams

from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.web.heavy import Answer, Heavy

if TYPE_CHECKING:
    from raceday.printing.catalog import PrintOptions

router = APIRouter()
EMPTY_VALUE = ' value=""'  # a choice that leaves the option at its default

def _words(key: str, english: str, **params: Any) -> str:
    """Attributes that word an element from the tables in the page's language (print.js);
    ``english`` is what it shows before (and without) the script."""
    text = f' data-i18n="{escape(key)}"'
    if params:
        text += f' data-i18n-params="{escape(json.dumps(params))}"'
    return text


def _tag(tag: str, key: str, english: str, attrs: str = "", **params: Any) -> str:
    """``<tag attrs data-i18n=key>english</tag>``."""
    return f"<{tag}{attrs}{_words(key, english, **params)}>{escape(english)}</{tag}>"


def _head(title: str, paper_css: str = "a4") -> str:
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title>"
            "<link rel=\"stylesheet\" href=\"/static/css/print.css\">"
            f"<link rel=\"stylesheet\" href=\"/static/css/print-{paper_css}.css\">"
            "<script type=\"module\" src=\"/static/js/print.js\"></script></head><body>")


def _page(body: str, title: str, status: int = 200, paper_css: str = "a4") -> HTMLResponse:
    return HTMLResponse(_head(title, paper_css) + body + "</body></html>", status_code=status,
                        headers={"Cache-Control": "no-cache"})


def _field(name: str, schema: Mapping[str, Any]) -> str:
    """One option's form field, made from its JSON Schema: a choice among the shipped
    values where it has them, a number field with its range, or text."""
    label = escape(str(schema.get("title", name)))
    hint = escape(str(schema.get("description", "")))
    if schema.get("enum"):
        choices = "".join(f"<option value=\"{escape(str(v))}\">{escape(str(v))}</option>"
                          for v in schema["enum"])
        return (f"<label>{label} <select name=\"{name}\" title=\"{hint}\">"
                f"{_tag('option', 'pr_default', 'default', EMPTY_VALUE)}{choices}"
                "</select></label>")
    if schema.get("type") == "integer":
        bounds = "".join(f" {html}=\"{schema[key]}\"" for key, html in
                         (("minimum", "min"), ("maximum", "max")) if key in schema)
        return (f"<label>{label} <input name=\"{name}\" type=\"number\"{bounds} "
                f"placeholder=\"{hint}\"></label>")
    return f"<label>{label} <input name=\"{name}\" placeholder=\"{hint}\"></label>"


@router.get("/print", include_in_schema=False)
def print_index() -> HTMLResponse:
    return _page(_index_body(), "raceday - print and play")


@functools.cache
def _index_body() -> str:
    """The index's forms (the same for every request: made once, 30 ms)."""
    from raceday.printing.catalog import games

    cards = []
    for name, info in games().items():
        parts = "".join(f"<option value=\"{p.name}\">{escape(p.title)} - {escape(p.summary)}"
                        "</option>" for p in info.parts)
        fields = "".join(_field(option, schema) for option, schema in info.schema().items())
        credit = info.credit
        cards.append(
            f"<form class=\"card\" method=\"get\" action=\"/print/{name}\">"
            f"<h2>{escape(credit.title)}</h2>"
            + _tag("p", "pr_credit", f"by {credit.designer} ({credit.year})", ' class="credit"',
                   designer=credit.designer, year=credit.year)
            + f"<label>{_tag('span', 'pr_part', 'Part')} <select name=\"part\">"
            f"{_tag('option', 'pr_every_part', 'every part', EMPTY_VALUE)}{parts}"
            "</select></label>"
            f"<label>{_tag('span', 'pr_paper', 'Paper')} <select name=\"paper\">"
            "<option value=\"a4\">A4</option><option value=\"letter\">Letter</option>"
            f"</select></label>{fields}"
            + _tag("button", "pr_show", "Show pages", ' type="submit"') + "</form>")
    body = ("<header class=\"toolbar\">" + _tag("h1", "pr_title", "Print and play")
            + _tag("a", "pr_party", "Party", ' href="/"') + "</header>"
            "<main class=\"index\">"
            + _tag("p", "pr_intro", 'Every board, sheet and odds table, true to the engine. '
                   'Print at 100% (no "fit to page").') + "".join(cards) + "</main>")
    return body


@dataclass(frozen=True)
class _Printed:
    """A print request's pages: SVG documents, the game's title and the options read."""

    game: str
    query: str  # the request's query, for the PDF link
    documents: list[str]
    title: str
    options: PrintOptions


def _build(game: str, text: str) -> _Printed:
    """The pages of the print request for ``game`` with the query ``text``."""
    from raceday.printing.catalog import build, command_line, game_info, read_options, render

    info = game_info(game)
    query = QueryParams(text)
    unknown = set(query) - {"part", "paper", *info.options}
    if unknown:
        names = ", ".join(sorted(unknown))
        error = RacedayError(f"unknown option(s): {names}")
        error.message = Message("refusal.print_unknown", {"names": names})
        raise error
    texts = {key: text for key in info.options if (text := (query.get(key) or "").strip())}
    options = read_options(info, texts, query.get("paper") or "a4", flag=str,
                           shipped_only=True)
    part = (query.get("part") or "").strip()
    chosen = info.part(part.lower()).name if part else None
    pages = build(info.game, chosen, options)
    documents = render(pages, command_line(info.game, chosen, options))
    return _Printed(game, text, documents, info.credit.title, options)


def _answer(game: str, query: str, answer: Callable[[_Printed], Response]) -> Response:
    """A print request: its pages handed to ``answer``, or the page naming what was refused
    (400) if the game, a part or an option is not one it has."""
    try:
        printed = _build(game, query)
    except RacedayError as exc:
        said = (f"<p class=\"error\" role=\"alert\">{escape(str(exc))}</p>"
                if exc.message is None else _tag("p", exc.message.key, str(exc),
                                                 ' class="error" role="alert"',
                                                 **exc.message.to_json()["params"]))
        return _page("<header class=\"toolbar\">" + _tag("h1", "pr_title", "Print and play")
                     + _tag("a", "pr_back", "Back", ' href="/print"') + "</header><main>"
                     + said + "</main>", "error", 400)
    return answer(printed)


def _pdf(printed: _Printed) -> Response:
    """The pages as one PDF."""
    from raceday.printing.output import pdf_bytes

    return Response(pdf_bytes(printed.documents), media_type="application/pdf", headers={
        "Content-Disposition": f"inline; filename=\"{printed.game}.pdf\""})


def _sheets(printed: _Printed) -> Response:
    """The pages inline, one sheet each, with the toolbar the print CSS hides."""
    title, sheet = printed.title, printed.options.sheet.name
    sheets = "".join(f"<section class=\"sheet\">{d}</section>" for d in printed.documents)
    count = len(printed.documents)
    body = ("<header class=\"toolbar\">"
            + _tag("h1", "pr_pages", f"{title}: {count} page(s)", title=title, n=count)
            + _tag("button", "pr_print", "Print", ' type="button" id="print-button"')
            + _tag("a", "pr_pdf", "PDF",
                   f' href="/print/{escape(printed.game.lower())}.pdf?{escape(printed.query)}"')
            + _tag("a", "pr_other", "Other pages", ' href="/print"')
            + _tag("span", "pr_hint", f"Print at 100% on {sheet} paper, margins none.",
                   ' class="hint"', paper=sheet)
            + _tag("span", "pr_scaled", "Shown smaller to fit this screen; printed at full "
                   "size.", ' class="hint scaled"')
            + f"</header><main class=\"sheets\">{sheets}</main>")
    return _page(body, f"{title} - print", paper_css=sheet.lower())


KINDS: dict[str, Callable[[_Printed], Response]] = {"pdf": _pdf, "sheets": _sheets}


def printed_answer(kind: str, game: str, query: str) -> Answer:
    """The answer to ``/print/{game}?{query}`` (``kind`` ``sheets``) or its ``.pdf``: the
    work the heavy-work pool does (module-level, picklable arguments)."""
    return Answer.of(_answer(game, query, KINDS[kind]))


async def _printed(request: Request, kind: str, game: str) -> Response:
    """A print request answered from the heavy-work pool, cached by game and query."""
    query = request.url.query
    heavy: Heavy | None = getattr(request.app.state, "heavy", None)
    if heavy is None:  # a router mounted on an app of its own: a worker thread
        done: Answer = await run_in_threadpool(printed_answer, kind, game, query)
        return done.response()
    return await heavy.answer(request, ("print", kind, game, query), printed_answer, kind,
                              game, query)


@router.get("/print/{game}.pdf", include_in_schema=False)
async def print_pdf(game: str, request: Request) -> Response:
    return await _printed(request, "pdf", game)


@router.get("/print/{game}", include_in_schema=False)
async def print_game(game: str, request: Request) -> Response:
    return await _printed(request, "sheets", game)
