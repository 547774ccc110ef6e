"""Dice Derby rooms saved by the party server before the evening became one protocol state
(tests/fixtures/saves/derby/rooms_before_evening.*: a lobby, an auction with a sealed bid,
betting with secret tickets and a loan, a race rolled on phones, a race with real dice, a
finished evening) load again: every screen sees what it saw, and play goes on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Client, serving

FIXTURES = Path(__file__).parents[1] / "fixtures" / "saves" / "derby"
RECORDED: dict[str, Any] = json.loads(
    (FIXTURES / "rooms_before_evening.json").read_text(encoding="utf-8"))


def as_recorded(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what the screens were given since those rooms were saved: the
    timeline, the finale, the players who left, the finish and photo-finish of the track,
    the die's win chance at the auction, the players' racing colours; nor what they no
    longer are (whose phone rolls next: the server rolls)."""
    out = {k: v for k, v in view.items()
           if k not in ("timeline", "finale", "away", "stand_ins", "levels")}
    if out.get("live") is not None:
        out["live"] = {k: v for k, v in out["live"].items()
                       if k not in ("finished", "photo", "next_by_phone")}
    if out.get("me") is not None:
        out["me"] = {k: v for k, v in out["me"].items() if k != "my_turn"}
    if out.get("auction") is not None:
        out["auction"] = {k: v for k, v in out["auction"].items() if k != "chance"}
    if out.get("players") is not None:
        out["players"] = [{k: v for k, v in p.items() if k != "colour"} for p in out["players"]]
    return out


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_an_old_room_loads_with_the_same_views(key: str, tmp_path: Path) -> None:
    recorded = RECORDED[key]
    db = tmp_path / "rooms.sqlite"
    shutil.copy(FIXTURES / "rooms_before_evening.sqlite", db)
    with serving(db) as tc:
        host = Client(tc, recorded["code"], recorded["host"])
        assert host.seq == recorded["revision"]
        assert as_recorded(host.view) == as_recorded(recorded["host_view"])
        for token, view in zip(recorded["seats"], recorded["seat_views"], strict=True):
            seat = Client(tc, recorded["code"], token)
            assert as_recorded(seat.view) == as_recorded(view)
            seat.close()
        host.close()


def test_an_old_auction_goes_on_from_the_sealed_bid(tmp_path: Path) -> None:
    recorded = RECORDED["auction"]
    db = tmp_path / "rooms.sqlite"
    shutil.copy(FIXTURES / "rooms_before_evening.sqlite", db)
    with serving(db) as tc:
        host = Client(tc, recorded["code"], recorded["host"])
        seats = [Client(tc, recorded["code"], t) for t in recorded["seats"]]
        lots = len(host.view["lots"])
        for seat in seats:
            me = seat.view["me"]
            if me["may_bid"] and me["sealed_bid"] is None:
                assert seat.send({"type": "bid", "amount": 0})["type"] == "ack"
        last = max(s.seq for s in seats)
        for c in [host, *seats]:
            c.until(last)
        assert len(host.view["lots"]) == lots + 1
        sold = host.view["lots"][-1]
        assert sold["horse"] == "d6" and sold["buyer_name"] == "Ben" and sold["price"] == 2500
        assert seats[1].view["me"]["horse"] == "d6"
        for c in [host, *seats]:
            c.close()
