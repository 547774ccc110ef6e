"""What the KEIRIN browser tests share: a phone buying a ticket through its betting slip."""

from __future__ import annotations

from typing import Any


def buy(phone: Any, kind: str, riders: list[int], stake: str) -> None:
    """Buy a ``kind`` ticket on ``riders`` for ``stake`` and wait until it is listed."""
    before = phone.locator(".kr-tickets li").count()
    phone.locator("#kr-kind").select_option(kind)
    for i, r in enumerate(riders):
        phone.locator(f"#kr-rider-{i}").select_option(str(r))
    phone.locator("#kr-stake").fill(stake)
    phone.get_by_role("button", name="Buy ticket").click()
    phone.locator(".kr-tickets li").nth(before).wait_for()
