"""Ruled tables to fill in by hand (score sheets, tallies, schedules)."""

from __future__ import annotations

from collections.abc import Sequence

from raceday.drawing import svg


def table(x: float, y: float, widths: Sequence[float], header: Sequence[str],
          rows: Sequence[Sequence[str]], *, row_height: float = 8.0, size: float = 3.2,
          header_height: float | None = None, header_size: float | None = None,
          fills: Sequence[str | None] | None = None, cls: str = "table") -> str:
    """A grid with a bold header row; ``rows`` may hold empty strings (boxes to fill).
    ``fills`` colours the first cell of each row (e.g. a rider type's colour)."""
    hh = header_height or row_height
    hs = header_size or size
    total = sum(widths)
    parts = [svg.rect(x, y, total, hh, fill=svg.LIGHT)]
    cx = x
    for w, title in zip(widths, header, strict=True):
        lines = title.split("\n")
        for i, text_line in enumerate(lines):
            ty = y + hh / 2 + (i - (len(lines) - 1) / 2) * hs * 1.1
            parts.append(svg.centred_text(cx + w / 2, ty, text_line, hs, bold=True))
        cx += w
    for r, row in enumerate(rows):
        ry = y + hh + r * row_height
        fill = fills[r] if fills else None
        if fill:
            parts.append(svg.rect(x, ry, widths[0], row_height, fill=fill))
        cx = x
        for w, value in zip(widths, row, strict=True):
            if value:
                parts.append(svg.text(cx + 1.5, ry + row_height / 2 + size * 0.35, value, size,
                                      class_="cell"))
            cx += w
    height = hh + row_height * len(rows)
    cx = x
    for w in [0.0, *widths]:
        cx += w
        parts.append(svg.line(cx, y, cx, y + height, stroke_width=0.3))
    for r in range(len(rows) + 1):
        ry = y + hh + r * row_height
        parts.append(svg.line(x, ry, x + total, ry, stroke_width=0.3))
    parts.append(svg.rect(x, y, total, height, fill="none", stroke=svg.INK, stroke_width=0.5))
    return svg.group(parts, class_=cls)


def fit(widths: Sequence[float], total: float) -> list[float]:
    """``widths`` scaled to add up to ``total``."""
    scale = total / sum(widths)
    return [w * scale for w in widths]
