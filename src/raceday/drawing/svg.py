"""A tiny SVG writer: elements as text, every length in millimetres.

Drawings use presentation attributes only (``fill="..."``, never ``style="..."``), so the
same text works inline in a page served under a strict Content-Security-Policy, in a
browser and through svglib (which turns it into PDF). Text is one run per ``<text>``
element (svglib places ``<tspan>`` runs poorly). Latin text uses only characters of the
Windows-1252 set, which the PDF's standard fonts can show; a Japanese page is set in a
Japanese font when made into a PDF (:mod:`raceday.printing.output`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr

FONT = "Helvetica, Arial, sans-serif"
Point = tuple[float, float]

# Colours shared by the drawings (print-friendly, distinguishable in greyscale by letter).
YELLOW = "#f4c430"
GREEN = "#3f9b3a"
BLUE = "#2b62c4"
RED = "#d1432b"
INK = "#1a1a1a"
GREY = "#8a8a8a"
LIGHT = "#e8e8e8"
WHITE = "#ffffff"


def num(value: float) -> str:
    """A length as short text: at most 3 decimals, no trailing zeros."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def attrs(**values: object) -> str:
    """``key="value"`` pairs; underscores become dashes, ``None`` values are left out,
    numbers are written with :func:`num`."""
    out = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = num(value)
        out.append(f"{name}={quoteattr(str(value))}")
    return (" " + " ".join(out)) if out else ""


def rect(x: float, y: float, w: float, h: float, **style: object) -> str:
    return f"<rect{attrs(x=float(x), y=float(y), width=float(w), height=float(h), **style)}/>"


def line(x1: float, y1: float, x2: float, y2: float, **style: object) -> str:
    style.setdefault("stroke", INK)
    return f"<line{attrs(x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **style)}/>"


def circle(cx: float, cy: float, r: float, **style: object) -> str:
    return f"<circle{attrs(cx=float(cx), cy=float(cy), r=float(r), **style)}/>"


def polygon(points: Sequence[Point], **style: object) -> str:
    pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return f"<polygon{attrs(points=pts, **style)}/>"


def polyline(points: Sequence[Point], **style: object) -> str:
    pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    style.setdefault("fill", "none")
    return f"<polyline{attrs(points=pts, **style)}/>"


def path(d: str, **style: object) -> str:
    return f"<path{attrs(d=d, **style)}/>"


def text(x: float, y: float, content: str, size: float = 3.5, *, anchor: str = "start",
         bold: bool = False, fill: str = INK, rotate: float | None = None,
         **extra: object) -> str:
    """One line of text with its baseline at ``y`` (``anchor``: start, middle or end);
    ``rotate`` turns it (degrees, clockwise) about its anchor point."""
    transform = (f"rotate({num(rotate)} {num(x)} {num(y)})"
                 if rotate is not None and rotate % 360 else None)
    found = attrs(x=float(x), y=float(y), font_family=FONT, font_size=float(size),
                  font_weight="bold" if bold else None, text_anchor=anchor, fill=fill,
                  transform=transform, **extra)
    return f"<text{found}>{_escape(content)}</text>"


def centred_text(x: float, y: float, content: str, size: float = 3.5, *,
                 rotate: float | None = None, bold: bool = False, fill: str = INK,
                 **extra: Any) -> str:
    """Text centred on the point (x, y) (the baseline a third of the size lower in the
    text's own frame), optionally turned by ``rotate`` degrees about that point."""
    if rotate is not None and rotate % 360:
        return group([text(0, size * 0.35, content, size, anchor="middle", bold=bold,
                           fill=fill, **extra)],
                     transform=f"translate({num(x)} {num(y)}) rotate({num(rotate)})")
    return text(x, y + size * 0.35, content, size, anchor="middle", bold=bold, fill=fill,
                **extra)


def group(children: Iterable[str], **extra: object) -> str:
    return f"<g{attrs(**extra)}>" + "".join(children) + "</g>"


def arrow(x1: float, y1: float, x2: float, y2: float, head: float = 2.0,
          **style: object) -> str:
    """A line from (x1, y1) to (x2, y2) with a filled head at the end (a drawn arrow,
    not a font glyph, so it prints the same everywhere)."""
    import math

    colour = str(style.pop("stroke", INK))
    width = style.pop("stroke_width", 0.4)
    angle = math.atan2(y2 - y1, x2 - x1)
    back = (x2 - head * math.cos(angle), y2 - head * math.sin(angle))
    side = (-math.sin(angle) * head * 0.45, math.cos(angle) * head * 0.45)
    tip = [(x2, y2), (back[0] + side[0], back[1] + side[1]),
           (back[0] - side[0], back[1] - side[1])]
    return (line(x1, y1, back[0], back[1], stroke=colour, stroke_width=width, **style)
            + polygon(tip, fill=colour))


def document(width: float, height: float, body: Iterable[str], *, title: str = "",
             **extra: object) -> str:
    """A whole SVG document ``width`` x ``height`` millimetres (user units = mm)."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1"'
            f'{attrs(width=f"{num(width)}mm", height=f"{num(height)}mm")}'
            f'{attrs(viewBox=f"0 0 {num(width)} {num(height)}", **extra)}>')
    heading = f"<title>{_escape(title)}</title>" if title else ""
    return head + heading + "".join(body) + "</svg>\n"
