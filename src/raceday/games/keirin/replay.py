"""Replaying a saved KEIRIN betting night: one step per settled race (order, derny,
tickets and returns, purses after it), from the session log."""

from __future__ import annotations

from typing import Any

from raceday.core.events import Message
from raceday.present.replay import ReplayStep
from raceday.store.sessions import SessionStore


def money(cents: int) -> str:
    """A purse in cents as the pages print it (1,234.50)."""
    return f"{cents / 100:,.2f}"


def finished(store: SessionStore, name: str) -> bool:
    return bool(store.log("keirin", name))


def _race(entry: dict[str, Any]) -> ReplayStep:
    order = "-".join(str(r) for r in entry.get("ranking", []))
    derny = entry.get("derny")
    lines = [Message("replay.order", {"order": order}) if derny is None else
             Message("replay.order_derny", {"order": order, "derny": derny})]
    for ticket in entry.get("tickets", []):
        lines.append(Message("replay.ticket", {
            "player": ticket.get("player", "?"), "kind": ticket.get("kind", "?"),
            "riders": "-".join(str(r) for r in ticket.get("riders", ticket.get("selection", []))),
            "stake": money(int(ticket.get("stake", 0))),
            "returned": money(int(ticket.get("returned", 0)))}))
    purses = [Message("replay.purse", {"who": who, "amount": money(int(cents))})
              for who, cents in entry.get("bankrolls", {}).items()]
    if purses:
        lines.append(Message("replay.purses", {"purses": [p.to_json() for p in purses]}))
    return ReplayStep(Message("replay.race", {"race": entry.get("race", "?")}), lines)


def steps(store: SessionStore, name: str) -> list[ReplayStep]:
    return [_race(entry) for entry in store.log("keirin", name)]


def _riders(riders: list[int]) -> list[dict[str, Any]]:
    return [Message("kr_r", {"n": r}).to_json() for r in riders]


def room_event(event: dict[str, Any], names: list[str]) -> Message | None:
    """A logged event of the betting-night room as the big screen words it (``kr_ev_*``),
    or None for the room's own events (created, joined)."""
    e = event
    kind = e.get("type")

    def name(i: Any) -> str:
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else f"#{i}"

    if kind == "started":
        return Message("kr_ev_started", {"n": len(e.get("players", []))})
    if kind in ("ticket_sold", "ticket_withdrawn"):
        return Message(f"kr_ev_{kind}", {"kind": Message(f"kr_{e['kind']}").to_json()})
    if kind == "done_betting":
        return Message("kr_ev_done", {"name": name(e.get("player"))})
    if kind == "betting_closed":
        return Message("kr_ev_closed", {"race": e["race"], "n": e["tickets"],
                                        "pool": money(int(e["pool"]))})
    if kind == "derny":
        return Message("kr_ev_derny", {"roll": e["roll"],
                                       "dice": " + ".join(str(d) for d in e.get("dice") or [])
                                       or "—"})
    if kind == "lineup":
        return Message("kr_ev_lineup", {"to_go": e["finish"] - e["positions"][0]})
    if kind == "turn":
        leaders = e.get("leaders", [])
        return (Message("kr_ev_turn", {"turn": e["turn"], "rider": leaders[0]})
                if len(leaders) == 1 else
                Message("kr_ev_turn_level", {"turn": e["turn"], "riders": _riders(leaders)}))
    if kind == "cross":
        return Message("kr_ev_cross", {"turn": e["turn"], "riders": [
            Message("replay.crossed", {"rider": Message("kr_r", {"n": r}).to_json(),
                                       "past": past}).to_json()
            for r, past in zip(e["riders"], e["past"], strict=False)]})
    if kind == "photo_finish":
        return Message("kr_ev_photo", {"place": e.get("for_place"),
                                       "riders": _riders(e.get("riders", []))})
    if kind == "throw":
        return Message("replay.throw", {"turn": e["turn"], "rider": e["rider"],
                                        "dice": e.get("dice", []), "from": e["from"],
                                        "to": e["to"]})
    if kind == "result":
        return Message("kr_ev_result", {"order": _riders(e.get("ranking", [])[:3])})
    facts = {"slipstream": ("from", "to"), "overtake": ("rider", "passed"),
             "photo_throw": ("rider", "advance"), "place": ("place", "rider"),
             "betting_open": ("race", "races"), "settled": ("race",), "finished": ()}
    if kind in facts:
        params = {k: e.get(k) for k in facts[kind]}
        if kind == "overtake":
            params["passed"] = _riders(e.get("passed", []))
        return Message(f"kr_ev_{kind}", params)
    return None
