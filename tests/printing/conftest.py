"""Helpers: build a part's pages and read them back as XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from raceday.printing.catalog import build, command_line, game_info, read_options, render

NS = "{http://www.w3.org/2000/svg}"


def pages_of(game: str, part: str | None = None, **options: object) -> list[str]:
    """The SVG documents of one part, as the command writes them (options given as the
    command line's text; ``paper`` and ``lang`` as the command's own)."""
    size = str(options.pop("paper", "a4"))
    lang = str(options.pop("lang", "en"))
    opts = read_options(game_info(game), {k: str(v) for k, v in options.items() if v is not None},
                        size, lang=lang)
    return render(build(game, part, opts), command_line(game, part, opts))


def parse(document: str) -> ET.Element:
    return ET.fromstring(document)


def texts(element: ET.Element) -> list[str]:
    """Every text element's content under ``element``, in document order."""
    return [t.text or "" for t in element.iter(f"{NS}text")]


def with_class(root: ET.Element, cls: str, tag: str = "g") -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}{tag}") if cls in (e.get("class") or "").split()]


def odd_track(tmp_path: Path, length: int = 18) -> Path:
    """A user track file of ``length`` columns (not a multiple of 4: unequal bends),
    every column a rotation of YGBR."""
    rows = ["".join("YGBR"[(lane + c) % 4] for c in range(length)) for lane in range(4)]
    text = 'name = "Garage track"\nline = 3\nlanes = 4\nrows = [\n'
    text += "".join(f'  "{r}",\n' for r in rows) + "]\n"
    path = tmp_path / "garage.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def user_track(tmp_path: Path) -> Path:
    return odd_track(tmp_path)
