"""Printed pages: paper sizes, the header every page carries, and the page as SVG.

Every page shows the game's name, the designer's credit, the part and the options used
(header), and the page number and the command that makes it again (footer). A page's
content is SVG elements placed in its *body*, a box in millimetres from the top-left of
the sheet (:attr:`Page.body`).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from raceday.core.errors import OptionsError
from raceday.drawing import svg


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

    @property
    def line(self) -> str:
        return f"{self.title} by {self.designer} ({self.year}) - printed by raceday"


def wrap(text: str, width: float, size: float) -> list[str]:
    """Lines of ``text`` that fit ``width`` mm at font ``size`` (a Helvetica estimate)."""
    chars = max(10, int(width / (size * 0.52)))
    return textwrap.wrap(text, chars) or [""]


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

    def _option_lines(self) -> list[str]:
        return wrap("Options: " + self.options, self.paper.width - 2 * MARGIN, 2.9)

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
        p, c = self.paper, self.credit
        w, h = p.width, p.height
        right = w - MARGIN
        head = [
            svg.rect(0, 0, w, h, fill=svg.WHITE),
            svg.text(MARGIN, MARGIN + 6, c.title, 7.0, bold=True, class_="game"),
            svg.text(MARGIN, MARGIN + 11.5, f"Designed by {c.designer} ({c.year}). "
                     "Printed with raceday.", 3.2, class_="credit"),
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
            svg.text(MARGIN, foot_y, f"page {number} of {total}", 2.7, class_="page-number"),
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
                            title=f"{c.title}: {self.part} (page {number} of {total})",
                            data_game=c.game, data_part=self.part_key, data_page=number)
