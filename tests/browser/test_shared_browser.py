"""The one Chromium a test process shares (tests/conftest.py): Playwright's sync API marks
its event loop running in its thread, so between browser tests the loop is marked idle
and the process's other tests can run their own event loops; the browser still works
afterwards."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.conftest import _PLAYWRIGHT_LOOP, _playwright_loop


async def _answer() -> int:
    await asyncio.sleep(0)
    return 42


def _page_says_hello(chromium: Any) -> str:
    context = chromium.new_context()
    page = context.new_page()
    page.set_content("<p id=hi>hello</p>")
    text = str(page.inner_text("#hi"))
    context.close()
    return text


def test_between_browser_tests_an_event_loop_runs_and_the_browser_still_works(
        chromium: Any) -> None:
    assert _PLAYWRIGHT_LOOP and asyncio.get_running_loop() is _PLAYWRIGHT_LOOP[0]
    _playwright_loop(False)  # as between two tests
    try:
        assert asyncio.run(_answer()) == 42  # what a Textual pilot or a bench client does
    finally:
        _playwright_loop(True)  # as when the next browser test is set up
    assert _page_says_hello(chromium) == "hello"
