"""A big screen or a phone opened for a room the server does not know says so in a whole
page (an alert naming the refusal, in the language the reader picks) instead of drawing a
room, with the way back to the landing page."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize("kind", ["host", "watch", "play"])
def test_unknown_room_is_refused_in_the_page(chromium: Any, base: str, kind: str) -> None:
    page = chromium.new_page()
    try:
        page.goto(f"{base}{kind}/QQQQ")
        alert = page.locator("#app p.error[role=alert]")
        alert.wait_for(timeout=15_000)
        assert alert.inner_text().strip() != ""
        assert page.locator(".room-code").count() == 0  # no room drawn
        assert page.locator('#app a[href="/"]').count() == 1
        english = alert.inner_text()
        page.click("#app header.bar button.lang")
        page.wait_for_function(f"() => document.querySelector('#app p.error').textContent "
                               f"!== {english!r}")
        assert "受け付けられません" in alert.inner_text()
        assert page.locator('#app a[href="/"]').inner_text() == "トップページへ戻る"
    finally:
        page.close()
