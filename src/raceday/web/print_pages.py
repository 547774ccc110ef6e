"""The browser's Print page: every game's print-and-play pages, ready for the browser's
own Print (print CSS: one sheet a page, no toolbar), or as a PDF download.

* ``GET /print`` — choose a game, a part, the paper and the game's options (plain forms);
* ``GET /print/{game}?part=&paper=&...`` — the pages inline as SVG, with print CSS;
* ``GET /print/{game}.pdf?...`` — the same pages as one PDF (svglib + reportlab).

The pages are the ones ``raceday print`` writes (:func:`raceday.printing.catalog.build`).
Everything is served from this package under the app's Content-Security-Policy: no
inline styles or scripts (the SVG uses presentation attributes only).
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from raceday.core.errors import RacedayError

if TYPE_CHECKING:
    from raceday.printing.catalog import PrintOptions

router = APIRouter()

OPTION_FIELDS = {  # query parameter -> (label, input help)
    "track": ("Track", "default, short"),
    "riders": ("Riders", "6-9"),
    "length": ("Finish after (squares)", "19-1000"),
    "margin": ("Margin", "KEIRIN 0 to below 1, Dice Derby 0-0.5"),
    "fall_rate": ("Fall rate", "e.g. 0.05"),
    "races": ("Races", "4-6"),
    "route": ("Route", "flanders, ardennes, flat-stage, mountain-stage"),
    "peloton": ("Peloton", "classics, small, flanders, ardennes, ronde-van-belgie"),
}
SHIPPED_ONLY = {"track", "route", "peloton"}  # the browser prints shipped files only
INT_FIELDS = {"riders", "length", "races"}


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


@router.get("/print", include_in_schema=False)
def print_index() -> HTMLResponse:
    from raceday.printing.catalog import GAMES

    cards = []
    for name, info in GAMES.items():
        parts = "".join(f"<option value=\"{p.name}\">{escape(p.title)} - {escape(p.summary)}"
                        "</option>" for p in info.parts)
        fields = "".join(
            f"<label>{escape(OPTION_FIELDS[o][0])} <input name=\"{o}\" "
            f"placeholder=\"{escape(OPTION_FIELDS[o][1])}\"></label>" for o in info.options)
        cards.append(
            f"<form class=\"card\" method=\"get\" action=\"/print/{name}\">"
            f"<h2>{escape(info.credit.title)}</h2>"
            f"<p class=\"credit\">by {escape(info.credit.designer)} ({escape(info.credit.year)})"
            "</p>"
            f"<label>Part <select name=\"part\"><option value=\"\">every part</option>{parts}"
            "</select></label>"
            "<label>Paper <select name=\"paper\"><option value=\"a4\">A4</option>"
            "<option value=\"letter\">Letter</option></select></label>"
            f"{fields}<button type=\"submit\">Show pages</button></form>")
    body = ("<header class=\"toolbar\"><h1>Print and play</h1><a href=\"/\">Party</a></header>"
            "<main class=\"index\"><p>Every board, sheet and odds table, true to the engine. "
            "Print at 100% (no \"fit to page\").</p>" + "".join(cards) + "</main>")
    return _page(body, "raceday - print and play")


def _options(request: Request) -> tuple[str | None, PrintOptions]:
    from raceday.printing.catalog import PrintOptions
    from raceday.printing.page import paper

    query = request.query_params
    unknown = set(query) - {"part", "paper", *OPTION_FIELDS}
    if unknown:
        raise RacedayError(f"unknown option(s): {', '.join(sorted(unknown))}")
    values: dict[str, object] = {}
    for key in OPTION_FIELDS:
        text = (query.get(key) or "").strip()
        if not text:
            continue
        if key in INT_FIELDS:
            if not text.isascii() or not text.isdigit() or len(text) > 6:
                raise RacedayError(f"{key} must be a whole number, got {text!r}")
            values[key] = int(text)
        elif key in SHIPPED_ONLY and ("/" in text or "\\" in text or text.startswith(".")):
            raise RacedayError(f"{key}: the browser prints shipped {key}s only; use "
                               "'raceday print' for a file")
        else:
            values[key] = text
    part = (query.get("part") or "").strip() or None
    return part, PrintOptions(paper=paper(query.get("paper") or "a4"),
                              **values)  # type: ignore[arg-type]


def _build(game: str, request: Request) -> tuple[list[str], str, PrintOptions]:
    from raceday.printing.catalog import build, command_line, game_info, render

    info = game_info(game)
    part, options = _options(request)
    chosen = info.part(part.lower()).name if part else None
    pages = build(info.credit.game, chosen, options)
    return render(pages, command_line(info.credit.game, chosen, options)), info.credit.title, \
        options


@router.get("/print/{game}.pdf", include_in_schema=False)
def print_pdf(game: str, request: Request) -> Response:
    from raceday.printing.output import pdf_bytes

    try:
        documents, _title, _ = _build(game, request)
    except RacedayError as exc:
        return _page(f"<main><p class=\"error\">{escape(str(exc))}</p>"
                     "<a href=\"/print\">Back</a></main>", "error", 400)
    return Response(pdf_bytes(documents), media_type="application/pdf",
                    headers={"Content-Disposition": f"inline; filename=\"{game}.pdf\""})


@router.get("/print/{game}", include_in_schema=False)
def print_game(game: str, request: Request) -> HTMLResponse:
    try:
        documents, title, options = _build(game, request)
    except RacedayError as exc:
        return _page(f"<header class=\"toolbar\"><h1>Print and play</h1>"
                     f"<a href=\"/print\">Back</a></header><main><p class=\"error\">"
                     f"{escape(str(exc))}</p></main>", "error", 400)
    query = request.url.query
    sheets = "".join(f"<section class=\"sheet\">{d}</section>" for d in documents)
    body = (f"<header class=\"toolbar\"><h1>{escape(title)}: {len(documents)} page(s)</h1>"
            "<button type=\"button\" id=\"print-button\">Print</button>"
            f"<a href=\"/print/{escape(game.lower())}.pdf?{escape(query)}\">PDF</a>"
            "<a href=\"/print\">Other pages</a>"
            "<span class=\"hint\">Print at 100% on "
            f"{escape(options.paper.name)} paper, margins none.</span></header>"
            f"<main class=\"sheets\">{sheets}</main>")
    return _page(body, f"{title} - print", paper_css=options.paper.name.lower())
