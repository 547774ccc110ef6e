"""Fixtures shared by every test directory.

``chromium``: Playwright against Debian's Chromium (/usr/bin/chromium), one browser for a
test process (each test opens contexts of its own); Playwright's own browser download is
not reachable. With CI=true a missing Chromium fails loudly; locally the browser tests
skip only when /usr/bin/chromium does not exist.
"""

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


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One Chromium for a test process (each test opens its own contexts)."""
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()
