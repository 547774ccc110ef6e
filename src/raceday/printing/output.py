"""Writing pages: one SVG file a page, or one multi-page PDF (svglib + reportlab).

The PDF is made in pure Python: svglib reads each page's SVG into a reportlab drawing and
reportlab writes the pages, so no browser is needed (``make demo`` on a fresh machine has
none). Both libraries are imported only when a PDF is written.

A page with Japanese text is set in reportlab's built-in Japanese font (a CID font: the
PDF names it and the reader's viewer supplies the glyphs, so nothing is embedded or
installed); the standard PDF fonts have no Japanese glyphs.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from raceday.core.errors import OptionsError
from raceday.drawing.svg import FONT

KINDS = (".pdf", ".svg")
JAPANESE_FONT = "HeiseiKakuGo-W5"  # reportlab's Japanese gothic (sans-serif) CID font


def plan_output(out: Path, stem: str) -> tuple[str, Path]:
    """Check ``--out`` before anything is drawn: (kind, path). A folder gets SVG pages
    named after ``stem``; a ``.svg`` path is the stem of the numbered pages."""
    text = str(out)
    if not text.strip():
        raise OptionsError("--out must be a file name ending in .pdf or .svg, or a folder")
    if out.is_dir():
        return "svg", out / f"{stem}.svg"
    suffix = out.suffix.lower()
    if suffix not in KINDS:
        raise OptionsError(f"--out must end in .pdf or .svg (or be a folder), got {text!r}")
    for parent in out.parents:
        if parent.exists():
            if not parent.is_dir():
                raise OptionsError(f"--out: {parent} is a file, so {out} cannot be written")
            break
    if not out.parent.exists():
        raise OptionsError(f"--out: the folder {out.parent} does not exist")
    return suffix[1:], out


def svg_names(path: Path, count: int) -> list[Path]:
    """``name.svg`` -> ``name-01.svg``, ``name-02.svg``, ..."""
    digits = max(2, len(str(count)))
    return [path.with_name(f"{path.stem}-{i:0{digits}d}.svg") for i in range(1, count + 1)]


def write_svgs(pages: Sequence[str], path: Path) -> list[Path]:
    names = svg_names(path, len(pages))
    for name, page in zip(names, pages, strict=True):
        _write(name, page.encode("utf-8"))
    return names


def pdf_bytes(pages: Sequence[str]) -> bytes:
    """One PDF with a page per SVG document (each page sized as its SVG)."""
    from reportlab.graphics import renderPDF  # type: ignore[import-untyped]
    from reportlab.pdfgen import canvas  # type: ignore[import-untyped]
    from svglib.svglib import svg2rlg

    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer)
    pdf.setTitle("raceday print")
    pdf.setCreator("raceday")
    fonts = _font_map()
    for page in pages:
        if not _latin(page):
            page = page.replace(f'font-family="{FONT}"', f'font-family="{JAPANESE_FONT}"')
        drawing = svg2rlg(io.BytesIO(page.encode("utf-8")), font_map=fonts)
        if drawing is None:  # pragma: no cover - our own SVG always parses
            raise RuntimeError("svglib could not read a page")
        pdf.setPageSize((drawing.width, drawing.height))
        renderPDF.draw(drawing, pdf, 0, 0)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _latin(text: str) -> bool:
    """Whether the standard PDF fonts can show every character of ``text``."""
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True


def _font_map() -> Any:
    """svglib's font map that also knows :data:`JAPANESE_FONT` (registered with reportlab
    on first use)."""
    from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont  # type: ignore[import-untyped]
    from svglib.fonts import FontMap

    if JAPANESE_FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont(JAPANESE_FONT))

    class Fonts(FontMap):
        def find_font(self, font_name: str, weight: str = "normal",
                      style: str = "normal") -> tuple[str, bool]:
            if font_name == JAPANESE_FONT:  # one weight: bold is set in the same face
                return JAPANESE_FONT, True
            return super().find_font(font_name, weight, style)

    return Fonts()


def write_pdf(pages: Sequence[str], path: Path) -> Path:
    _write(path, pdf_bytes(pages))
    return path


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise OptionsError(f"cannot write {path}: {exc.strerror or exc}") from None
