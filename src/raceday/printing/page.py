"""Printed pages: paper sizes, the header every page carries, and the page as SVG.

Every page shows the game's name, the designer's credit, the part and the options used
(header), and the page number and the command that makes it again (footer). A page's
content is SVG elements placed in its *body*, a box in millimetres from the top-left of
the sheet (:attr:`Page.body`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from raceday.core.errors import OptionsError
from raceday.drawing import svg
from raceday.present.messages import FALLBACK, render, table


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm
    height: float  # mm
    css: str  # the CSS @page size keyword


PAPERS: dict[str, Paper] = {
    "a4": Paper("A4", 210.0, 297.0, "A4"),
    "letter": Paper("Letter", 215.9, 279.4, "letter"),
}
MARGIN = 10.0  # mm: inside what every home printer can print
HEADER = 25.0  # mm below the top margin taken by the header (options may add lines)
FOOTER = 9.0  # mm above the bottom margin taken by the footer


def paper(name: str) -> Paper:
    key = name.strip().lower()
    if key not in PAPERS:
        raise OptionsError(f"--paper must be one of {', '.join(PAPERS)}, got {name!r}")
    return PAPERS[key]


@dataclass(frozen=True)
class Credit:
    """What a game's pages say about it."""

    game: str  # raceday's name, e.g. "pistard"
    title: str  # "PISTARD"
    designer: str  # "Anki Toner"
    year: str  # "2009, v2.12 2010"

    def titled(self, lang: str) -> str:
        """The game's name in ``lang`` (its table's ``title``; KEIRIN is 競輪 in Japanese)."""
        return worded(self.game, "title", lang, self.title)

    def dated(self, lang: str) -> str:
        """The credit's years in ``lang`` (its table's ``print.year``, else as declared)."""
        return worded(self.game, "print.year", lang, self.year)


def worded(game: str, key: str, lang: str, english: str, **params: Any) -> str:
    """``key`` of ``game``'s table (or the shared one) in ``lang``; ``english`` where no
    table has the key (a game that declares its words in code only)."""
    found = any(table(t).template(key, game) is not None for t in (lang, FALLBACK))
    return render(key, lang, game, params) if found else english


def text_width(text: str, size: float) -> float:
    """Estimated width in mm of ``text`` at font ``size``: Helvetica's average letter for
    Latin text, a full em for a wide (Japanese) character."""
    return sum(size if unicodedata.east_asian_width(c) in "WF" else size * 0.52
               for c in text)


def wrap(text: str, width: float, size: float) -> list[str]:
    """Lines of ``text`` that fit ``width`` mm at font ``size``: broken at spaces, and
    between wide characters (Japanese has no spaces between words)."""
    lines: list[str] = []
    line = ""
    for token in _tokens(text):
        if line and text_width((line + token).rstrip(), size) > width:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return lines


def _tokens(text: str) -> list[str]:
    """``text`` cut where a line may break: after a space, and around each wide character
    (a closing mark such as 。 or ） stays with the character before it)."""
    tokens: list[str] = []
    for c in text:
        wide = unicodedata.east_asian_width(c) in "WF"
        closing = c in "、。，）」』：・ー"
        if tokens and (closing or not (wide or tokens[-1].endswith(" ")
                                       or _is_wide(tokens[-1][-1]))):
            tokens[-1] += c
        else:
            tokens.append(c)
    return tokens


def _is_wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in "WF"


@dataclass
class Page:
    """One sheet: header facts, body elements, and an optional note above the footer."""

    paper: Paper
    credit: Credit
    part: str  # e.g. "Velodrome, tile 3 of 12"
    options: str  # e.g. "track default; paper A4"
    elements: list[str] = field(default_factory=list)
    note: str = ""  # printed in a box above the footer on this page (e.g. a rights note)
    part_key: str = ""
    lang: str = FALLBACK  # the language of the header's and footer's words

    def _option_lines(self) -> list[str]:
        return wrap(render("pr_options_line", self.lang, params={"options": self.options}),
                    self.paper.width - 2 * MARGIN, 2.9)

    def _note_lines(self) -> list[str]:
        return wrap(self.note, self.paper.width - 2 * MARGIN - 6, 2.7) if self.note else []

    @property
    def body(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) of the area left for the content, mm."""
        top = MARGIN + HEADER + 3.6 * max(0, len(self._option_lines()) - 1)
        note = (3.4 * len(self._note_lines()) + 5) if self.note else 0.0
        bottom = self.paper.height - MARGIN - FOOTER - note
        return MARGIN, top, self.paper.width - 2 * MARGIN, bottom - top

    def add(self, *elements: str) -> None:
        self.elements.extend(elements)

    def to_svg(self, number: int, total: int, command: str) -> str:
        p, c, lang = self.paper, self.credit, self.lang
        w, h = p.width, p.height
        right = w - MARGIN
        title = c.titled(lang)
        credit = render("pr_designed", lang, params={"designer": c.designer,
                                                      "year": c.dated(lang)})
        head = [
            svg.rect(0, 0, w, h, fill=svg.WHITE),
            svg.text(MARGIN, MARGIN + 6, title, 7.0, bold=True, class_="game"),
            svg.text(MARGIN, MARGIN + 11.5, credit, 3.2, class_="credit"),
            svg.text(right, MARGIN + 6, self.part, 4.6, anchor="end", bold=True,
                     class_="part"),
        ]
        y = MARGIN + 17.5
        for text_line in self._option_lines():
            head.append(svg.text(MARGIN, y, text_line, 2.9, class_="options"))
            y += 3.6
        head.append(svg.line(MARGIN, y - 1.6, right, y - 1.6, stroke_width=0.3))
        foot_y = h - MARGIN - 2
        foot = [
            svg.line(MARGIN, foot_y - 4.5, right, foot_y - 4.5, stroke=svg.GREY,
                     stroke_width=0.2),
            svg.text(MARGIN, foot_y, render("pr_page_of", lang, params={"n": number,
                                                                        "total": total}),
                     2.7, class_="page-number"),
            svg.text(right, foot_y, command, 2.5, anchor="end", fill=svg.GREY,
                     class_="command"),
        ]
        lines = self._note_lines()
        if lines:
            box_h = 3.4 * len(lines) + 2.4
            top = foot_y - 6 - box_h
            foot.append(svg.rect(MARGIN, top, w - 2 * MARGIN, box_h, fill="#f6f6f6",
                                 stroke=svg.INK, stroke_width=0.3))
            for i, text_line in enumerate(lines):
                foot.append(svg.text(MARGIN + 3, top + 3.9 + 3.4 * i, text_line, 2.7,
                                     class_="note"))
        body = svg.group(self.elements, class_="body")
        return svg.document(w, h, [*head, body, *foot],
                            title=render("pr_sheet_title", lang, params={
                                "game": title, "part": self.part, "n": number,
                                "total": total}),
                            data_game=c.game, data_part=self.part_key, data_page=number)
