"""The host removes a seat from the lobby on the big screen (#44), with the keyboard: the
removed phone is told in words and its key no longer opens the room."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}



def test_the_host_removes_a_seat_with_the_keyboard(open_page: Callable[..., Any],
                                                    base: str) -> None:
    request = urllib.request.Request(f"{base}api/rooms", data=b'{"game": "keirin"}',
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        room = json.load(answer)
    code = room["code"]
    phones = []
    for name in ("Aki", "Bo"):
        phone = open_page(PHONE, f"{base}play/{code}")
        phone.locator("#name").fill(name)
        phone.get_by_role("button", name="Join").click()
        phone.get_by_text(f"You are {name}").wait_for()
        phones.append(phone)
    tv = open_page(TV, f"{base}host/{code}", {f"raceday.host.{code}": room["host_token"]})
    tv.locator(".seats li").nth(1).wait_for()
    remove = tv.get_by_role("button", name="Remove Aki")
    remove.focus()
    tv.keyboard.press("Enter")
    tv.locator(".seats li").nth(1).wait_for(state="detached")
    assert tv.locator(".seats li").all_inner_texts()[0].startswith("Bo")
    phones[0].get_by_text("the host removed this seat").wait_for()
    assert phones[1].get_by_text("You are Bo").is_visible()
    # the removed phone's key is gone: reloading it offers the join form again
    phones[0].goto(f"{base}play/{code}")
    phones[0].locator("#name").wait_for()
    assert tv.js_errors == [] and all(p.js_errors == [] for p in phones)
