"""Updates under load (raceday.web.hub.Hub.publish): intents applied to one room before
its update goes out share that update (their events in order, the view as of the last,
``seq`` the last revision); on a quiet server each intent has an update of its own. Every
client still ends at the view of the room's revision, patched or whole."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from raceday.rooms import Actor
from raceday.web.delta import apply_patch
from raceday.web.hub import Conn, Hub
from raceday.web.rooms import Rooms


def _frames(conn: Conn) -> list[dict[str, Any]]:
    out = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


def _view(rooms_room: Any, actor: Actor) -> Any:
    return json.loads(json.dumps(rooms_room.logic.view(actor)))


def test_intents_applied_together_share_one_update(tmp_path: Path) -> None:
    async def scenario() -> None:
        rooms, hub = Rooms(tmp_path / "party.sqlite"), Hub()
        try:
            room, _ = rooms.create("derby", {"races": 4})
            rooms.join(room.code, "Aki")
            screen = Conn(ws=None, actor=Actor.host(), delta=True)  # type: ignore[arg-type]
            phone = Conn(ws=None, actor=Actor.player(0), delta=True)  # type: ignore[arg-type]
            old_tv = Conn(ws=None, actor=Actor.spectator())  # type: ignore[arg-type]
            views: dict[int, Any] = {}
            for conn in (screen, phone, old_tv):
                hub.add(room.code, conn)
                views[id(conn)] = json.loads(hub.welcome(room, conn))
            start = room.revision

            # two joins applied before the event loop runs the room's update
            _, _, _, ben = rooms.join(room.code, "Ben")
            hub.publish(room, [ben])
            _, _, _, chie = rooms.join(room.code, "Chie")
            hub.publish(room, [chie])
            assert all(_frames(c) == [] for c in (screen, phone, old_tv))  # not yet
            await asyncio.gather(*hub.tasks)
            for conn in (screen, phone, old_tv):
                (update,) = _frames(conn)
                assert update["seq"] == room.revision == start + 2
                assert update["events"] == [ben, chie]
                if conn.delta:
                    assert update["base"] == start
                    views[id(conn)] = apply_patch(views[id(conn)], update["patch"])
                else:
                    views[id(conn)] = update["view"]
                assert views[id(conn)] == _view(room, conn.actor)

            # on its own, an intent has its own update
            _, _, _, dan = rooms.join(room.code, "Dan")
            hub.publish(room, [dan])
            await asyncio.gather(*hub.tasks)
            for conn in (screen, phone, old_tv):
                (update,) = _frames(conn)
                assert (update["seq"], update["events"]) == (start + 3, [dan])

            # a screen welcomed after an intent was applied has its revision already
            _, _, _, eve = rooms.join(room.code, "Eve")
            hub.publish(room, [eve])
            late = Conn(ws=None, actor=Actor.spectator(), delta=True)  # type: ignore[arg-type]
            hub.add(room.code, late)
            assert json.loads(hub.welcome(room, late)) == _view(room, late.actor)
            await asyncio.gather(*hub.tasks)
            assert _frames(late) == []
            assert [u["seq"] for u in _frames(screen)] == [start + 4]
        finally:
            rooms.store.close()

    asyncio.run(scenario())
