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

Every page and sheet is worded in the language of the query's ``lang`` (en when it has
none): the reader's language lives in the browser (``print.js`` asks for it, as the rest
of the site keeps it, and its language button asks again), and the server words the pages
and the sheets, so a sheet printed or downloaded in Japanese is Japanese.

The pages are the ones ``raceday print`` writes (:func:`raceday.printing.catalog.build`).
Everything is served from this package under the app's Content-Security-Policy: no
inline styles or scripts (the SVG uses presentation attributes only).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import QueryParams

from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.present.messages import FALLBACK, LANGUAGES, render
from raceday.web.heavy import Answer, Heavy

if TYPE_CHECKING:
    from raceday.printing.catalog import GameInfo, PrintOptions

router = APIRouter()
EMPTY_VALUE = ' value=""'  # a choice that leaves the option at its default

def _words(key: str, **params: Any) -> str:
    """Attributes that let print.js word an element again from the tables."""
    text = f' data-i18n="{escape(key)}"'
    if params:
        text += f' data-i18n-params="{escape(json.dumps(params))}"'
    return text


def _tag(tag: str, key: str, lang: str, attrs: str = "", **params: Any) -> str:
    """``<tag attrs data-i18n=key>`` with the words of ``key`` in ``lang``."""
    said = render(key, lang, params=params)
    return f"<{tag}{attrs}{_words(key, **params)}>{escape(said)}</{tag}>"


def _head(title: str, lang: str, paper_css: str = "a4") -> str:
    return (f"<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title>"
            "<link rel=\"stylesheet\" href=\"/static/css/print.css\">"
            f"<link rel=\"stylesheet\" href=\"/static/css/print-{paper_css}.css\">"
            "<script type=\"module\" src=\"/static/js/print.js\"></script></head>"
            f"<body data-lang=\"{lang}\">")


def _page(body: str, title: str, lang: str, status: int = 200,
          paper_css: str = "a4") -> HTMLResponse:
    return HTMLResponse(_head(title, lang, paper_css) + body + "</body></html>",
                        status_code=status, headers={"Cache-Control": "no-cache"})


def _lang(query: QueryParams) -> str:
    """The language the query asks for (``lang``), English when it names none."""
    lang = (query.get("lang") or FALLBACK).strip()
    if lang not in LANGUAGES:
        error = RacedayError(f"unknown language {lang[:20]!r}; choose one of "
                             f"{', '.join(LANGUAGES)}")
        error.message = Message("refusal.print_lang", {"asked": lang[:20],
                                                        "languages": list(LANGUAGES)})
        raise error
    return lang


def _field(info: GameInfo, name: str, lang: str) -> str:
    """One option's form field, made from its JSON Schema: a choice among the shipped
    values where it has them (the one used when none is chosen shown once, as the
    default), a number field with its range, or text; named in ``lang`` and explained
    below it (a hint a phone can read, not a placeholder cut to the field's width)."""
    from raceday.printing.catalog import DEFAULT_CHOICE

    schema = info.schema()[name]
    ident = f"{info.game}-{name}"
    hint = info.hint(name, lang)
    described = f' aria-describedby="{ident}-hint"' if hint else ""
    attrs = f'id="{ident}" name="{name}"{described}'
    if schema.get("enum"):
        used = schema.get(DEFAULT_CHOICE)
        default = (render("pr_default", lang) if used in (None, "default")
                   else render("pr_default_named", lang,
                             params={"name": info.choice(name, str(used), lang)}))
        choices = "".join(f"<option value=\"{escape(str(v))}\">"
                          f"{escape(info.choice(name, str(v), lang))}</option>"
                          for v in schema["enum"] if v != used)
        control = (f"<select {attrs}><option{EMPTY_VALUE}>{escape(default)}</option>"
                   f"{choices}</select>")
    elif schema.get("type") == "integer":
        bounds = "".join(f" {html}=\"{schema[key]}\"" for key, html in
                         (("minimum", "min"), ("maximum", "max")) if key in schema)
        control = f"<input {attrs} type=\"number\" inputmode=\"numeric\"{bounds}>"
    else:
        control = f"<input {attrs}>"
    said = f"<small id=\"{ident}-hint\">{escape(hint)}</small>" if hint else ""
    return (f"<div class=\"option\"><label for=\"{ident}\">{escape(info.label(name, lang))}"
            f"</label> {control}{said}</div>")


@router.get("/print", include_in_schema=False)
def print_index(request: Request) -> HTMLResponse:
    try:
        lang = _lang(request.query_params)
    except RacedayError as exc:
        return _refused(exc, FALLBACK)
    return _page(_index_body(lang), render("pr_page_title", lang), lang)


@functools.cache
def _index_body(lang: str) -> str:
    """The index's forms in ``lang`` (the same for every request: made once a language)."""
    from raceday.printing.catalog import games

    cards = []
    for name, info in games().items():
        parts = "".join(
            f"<option value=\"{p.name}\">" + escape(render("pr_part_choice", lang, params={
                "title": p.titled(name, lang), "summary": p.summed_up(name, lang)}))
            + "</option>" for p in info.parts)
        fields = "".join(_field(info, option, lang) for option in info.schema())
        credit = info.credit
        cards.append(
            f"<form class=\"card\" method=\"get\" action=\"/print/{name}\">"
            f"<input type=\"hidden\" name=\"lang\" value=\"{lang}\">"
            f"<h2>{escape(credit.titled(lang))}</h2>"
            + _tag("p", "pr_credit", lang, ' class="credit"', designer=credit.designer,
                   year=credit.dated(lang))
            + f"<label>{_tag('span', 'pr_part', lang)} <select name=\"part\">"
            f"{_tag('option', 'pr_every_part', lang, EMPTY_VALUE)}{parts}"
            "</select></label>"
            f"<label>{_tag('span', 'pr_paper', lang)} <select name=\"paper\">"
            "<option value=\"a4\">A4</option><option value=\"letter\">"
            f"{escape(render('pr_paper_letter', lang))}</option>"
            f"</select></label>{fields}"
            + _tag("button", "pr_show", lang, ' type="submit"') + "</form>")
    body = ("<header class=\"toolbar\">" + _tag("h1", "pr_title", lang)
            + _tag("a", "pr_party", lang, ' href="/"') + "</header>"
            "<main class=\"index\">"
            + _tag("p", "pr_intro", lang) + "".join(cards) + "</main>")
    return body


@dataclass(frozen=True)
class _Printed:
    """A print request's pages: SVG documents, the game's title and the options read."""

    game: str
    query: str  # the request's query, for the PDF link
    documents: list[str]
    title: str  # in the pages' language
    options: PrintOptions


def _build(game: str, text: str) -> _Printed:
    """The pages of the print request for ``game`` with the query ``text``."""
    from raceday.printing.catalog import build, command_line, game_info, read_options, render

    info = game_info(game)
    query = QueryParams(text)
    lang = _lang(query)
    unknown = set(query) - {"part", "paper", "lang", *info.options}
    if unknown:
        names = ", ".join(sorted(unknown))
        error = RacedayError(f"unknown option(s): {names}")
        error.message = Message("refusal.print_unknown", {"names": names})
        raise error
    texts = {key: given for key in info.options
             if (given := (query.get(key) or "").strip())}
    options = read_options(info, texts, query.get("paper") or "a4", flag=str,
                           shipped_only=True, lang=lang)
    part = (query.get("part") or "").strip()
    chosen = info.part(part.lower()).name if part else None
    pages = build(info.game, chosen, options)
    documents = render(pages, command_line(info.game, chosen, options))
    return _Printed(game, text, documents, info.credit.titled(lang), options)


def _answer(game: str, query: str, answer: Callable[[_Printed], Response]) -> Response:
    """A print request: its pages handed to ``answer``, or the page naming what was refused
    (400) if the game, a part or an option is not one it has."""
    try:
        printed = _build(game, query)
    except RacedayError as exc:
        lang = QueryParams(query).get("lang")
        return _refused(exc, lang if lang in LANGUAGES else FALLBACK)
    return answer(printed)


def _refused(exc: RacedayError, lang: str) -> HTMLResponse:
    """The page naming what was refused (400), in ``lang`` where the refusal has words."""
    said = (f"<p class=\"error\" role=\"alert\">{escape(str(exc))}</p>"
            if exc.message is None else _tag("p", exc.message.key, lang,
                                             ' class="error" role="alert"',
                                             **exc.message.to_json()["params"]))
    return _page("<header class=\"toolbar\">" + _tag("h1", "pr_title", lang)
                 + _tag("a", "pr_back", lang, ' href="/print"') + "</header><main>"
                 + said + "</main>", render("pr_refused_title", lang), lang, 400)


def _pdf(printed: _Printed) -> Response:
    """The pages as one PDF."""
    from raceday.printing.output import pdf_bytes

    return Response(pdf_bytes(printed.documents), media_type="application/pdf", headers={
        "Content-Disposition": f"inline; filename=\"{printed.game}.pdf\""})


def _sheets(printed: _Printed) -> Response:
    """The pages inline, one sheet each, with the toolbar the print CSS hides."""
    title, sheet, lang = printed.title, printed.options.sheet.name, printed.options.lang
    sheets = "".join(f"<section class=\"sheet\">{d}</section>" for d in printed.documents)
    count = len(printed.documents)
    body = ("<header class=\"toolbar\">"
            + _tag("h1", "pr_pages_one" if count == 1 else "pr_pages", lang, title=title,
                   n=count)
            + _tag("button", "pr_print", lang, ' type="button" id="print-button"')
            + _tag("a", "pr_pdf", lang,
                   f' href="/print/{escape(printed.game.lower())}.pdf?{escape(printed.query)}"')
            + _tag("a", "pr_other", lang, f' href="/print?lang={lang}"')
            + _tag("span", "pr_hint", lang, ' class="hint"', paper=sheet)
            + _tag("span", "pr_scaled", lang, ' class="hint scaled"')
            + f"</header><main class=\"sheets\">{sheets}</main>")
    return _page(body, render("pr_sheets_title", lang, params={"title": title}), lang,
                 paper_css=sheet.lower())


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
