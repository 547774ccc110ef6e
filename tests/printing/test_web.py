"""The browser's Print page: routes, print CSS, and Chromium's view of it at A4."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from raceday.printing.catalog import games  # noqa: E402
from raceday.web.app import create_app  # noqa: E402
from tests.browser.shots import keep_shot  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
A4_PIXELS = (794, 1123)  # 210 x 297 mm at 96 px to the inch


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "party.sqlite")) as tc:
        yield tc


def test_index_offers_every_game(client: TestClient) -> None:
    r = client.get("/print")
    assert r.status_code == 200
    printing = games()  # every game that carries a printing face
    assert {"pistard", "keirin", "derby", "hairpin", "wielersim"} <= set(printing)
    for name, info in printing.items():
        assert info.credit.title in r.text and f'action="/print/{name}"' in r.text
    assert "Content-Security-Policy" in r.headers


def test_pages_inline_with_print_css(client: TestClient) -> None:
    r = client.get("/print/hairpin", params={"paper": "letter"})
    assert r.status_code == 200
    assert r.text.count("<section class=\"sheet\">") == 2
    assert "/static/css/print-letter.css" in r.text and 'width="215.9mm"' in r.text
    assert "permission or a licence" in r.text
    css = client.get("/static/css/print-letter.css").text
    assert "size: letter" in css
    r = client.get("/print/keirin", params={"part": "odds", "riders": "6", "margin": "0.1"})
    assert r.status_code == 200 and "margin 0.1" in r.text


def test_pdf_download(client: TestClient) -> None:
    r = client.get("/print/derby.pdf", params={"part": "odds"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.content.startswith(b"%PDF-")


@pytest.mark.parametrize(("url", "params", "message"), [
    ("/print/chess", {}, "unknown game"),
    ("/print/derby", {"part": "odds", "margin": "2"}, "margin must be between 0 and 0.5"),
    ("/print/keirin", {"riders": "x"}, "riders must be a whole number"),
    ("/print/pistard", {"track": "/etc/passwd"}, "shipped tracks only"),
    ("/print/hairpin", {"evil": "1"}, "unknown option"),
    ("/print/hairpin.pdf", {"paper": "a0"}, "--paper must be one of"),
])
def test_bad_requests_are_400_with_the_message(client: TestClient, url: str,
                                               params: dict[str, str], message: str) -> None:
    r = client.get(url, params=params)
    assert r.status_code == 400 and message in r.text


@pytest.mark.skipif(not Path(CHROMIUM).exists() and os.environ.get("CI", "").lower() != "true",
                    reason="Debian Chromium is not installed (under CI this fails instead)")
def test_chromium_prints_one_sheet_per_a4_page(tmp_path: Path, chromium: Any) -> None:
    from raceday.web.server import background_server

    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        context = chromium.new_context(viewport={"width": A4_PIXELS[0],
                                                 "height": A4_PIXELS[1]})
        try:
            page = context.new_page()
            page.goto(f"{base}print/pistard?part=counters")
            page.emulate_media(media="print")
            assert not page.locator(".toolbar").is_visible()
            box = page.locator(".sheet svg").first.bounding_box()
            assert box is not None
            assert abs(box["width"] - A4_PIXELS[0]) < 2 and abs(box["height"] - A4_PIXELS[1]) < 2
            image = page.screenshot()
            assert image.startswith(b"\x89PNG") and len(image) > 20_000  # drawn, not blank
            keep_shot(page, "print-pistard-counters.png")
            pdf = page.pdf(format="A4", print_background=True)
            assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 1
            page.goto(f"{base}print/keirin?part=track")
            page.emulate_media(media="print")
            pdf = page.pdf(format="A4", print_background=True)
            assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 2
            keep_shot(page, "print-keirin-track.png")
            page.goto(f"{base}print/derby?part=odds")
            page.emulate_media(media="screen")
            page.set_viewport_size({"width": 900, "height": 1000})
            keep_shot(page, "print-page-screen.png")
            assert page.locator(".toolbar").is_visible()
        finally:
            context.close()
