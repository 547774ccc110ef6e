"""Playwright against Debian's Chromium (/usr/bin/chromium): Playwright's own browser
download is not reachable. With CI=true a missing Chromium fails loudly; locally the
browser tests skip only when /usr/bin/chromium does not exist."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _need_chromium() -> None:
    if CHROMIUM.exists():
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (make browser)")
    pytest.skip(f"{CHROMIUM} is missing")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()
