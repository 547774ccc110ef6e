"""Flowing rows of a long table down columns and across pages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from raceday.drawing import svg
from raceday.printing.page import Page


@dataclass(frozen=True)
class Cell:
    """One text of a row: ``dx`` mm from the column's left edge."""

    dx: float
    text: str
    anchor: str = "start"
    bold: bool = False
    cls: str = ""


class Flow:
    """Rows laid out top to bottom in ``columns`` columns, a new page when one is full.

    ``new_page`` makes an empty page (header included); headings start a block and are
    never left alone at the bottom of a column.
    """

    def __init__(self, new_page: Callable[[], Page], columns: int, row_height: float = 4.4,
                 size: float = 3.0, gap: float = 6.0) -> None:
        self.new_page = new_page
        self.columns = columns
        self.row_height = row_height
        self.size = size
        self.gap = gap
        self.pages: list[Page] = []
        self._column = columns  # forces a page on the first row
        self._y = 0.0
        self._bottom = 0.0

    @property
    def column_width(self) -> float:
        page = self.pages[-1] if self.pages else self.new_page()
        _, _, width, _ = page.body
        return (width - self.gap * (self.columns - 1)) / self.columns

    def _origin(self) -> tuple[float, float]:
        x, _, width, _ = self.pages[-1].body
        col_w = (width - self.gap * (self.columns - 1)) / self.columns
        return x + self._column * (col_w + self.gap), self._y

    def _next_column(self) -> None:
        self._column += 1
        if self._column >= self.columns:
            self.pages.append(self.new_page())
            self._column = 0
        _, top, _, height = self.pages[-1].body
        self._y = top + self.row_height
        self._bottom = top + height

    def _room(self, rows: float) -> None:
        if self._column >= self.columns or self._y + self.row_height * (rows - 1) > self._bottom:
            self._next_column()

    def heading(self, text: str, note: str = "") -> None:
        """A block heading (kept with at least two rows after it)."""
        self._room(3.5)
        x, _ = self._origin()
        self._y += 1.0
        self.pages[-1].add(svg.text(x, self._y, text, self.size * 1.3, bold=True,
                                    class_="heading"))
        if note:
            self._y += self.row_height
            self.pages[-1].add(svg.text(x, self._y - 0.6, note, self.size * 0.8,
                                        fill=svg.GREY))
        self._y += self.row_height * 1.2

    def row(self, cells: list[Cell], *, shade: bool = False, **attrs: object) -> None:
        self._room(1)
        x, y = self._origin()
        parts = []
        if shade:
            parts.append(svg.rect(x - 1, y - self.row_height * 0.78, self.column_width + 2,
                                  self.row_height, fill="#efefef"))
        for c in cells:
            parts.append(svg.text(x + c.dx, y, c.text, self.size, anchor=c.anchor, bold=c.bold,
                                  class_=c.cls or None))
        self.pages[-1].add(svg.group(parts, **attrs))
        self._y += self.row_height

    def space(self, rows: float = 0.6) -> None:
        self._y += self.row_height * rows
