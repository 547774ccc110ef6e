"""Replaying a saved Dice Derby party: one step per sold horse and per settled race
(places, first out, payouts), from the session log."""

from __future__ import annotations

from typing import Any

from raceday.core.events import Message
from raceday.games.derby.rules import horse_name
from raceday.present.replay import ReplayStep
from raceday.store.sessions import SessionStore


def finished(store: SessionStore, name: str) -> bool:
    return bool(store.log("derby", name))


def steps(store: SessionStore, name: str) -> list[ReplayStep]:
    doc, _ = store.load("derby", name)
    books = doc.get("ledger", doc)  # an evening keeps its sheets in its ledger
    players = [str(p.get("name", "?")) for p in books.get("players", [])]

    def who(p: Any) -> Any:
        if isinstance(p, int) and 0 <= p < len(players):
            return players[p]
        return Message("replay.house").to_json()

    out = []
    for entry in store.log("derby", name):
        if "auction" in entry:
            lot = entry["auction"]
            facts = {"post": lot["post"], "horse": horse_name(int(lot["post"]))}
            line = (Message("replay.no_bid", facts) if lot.get("buyer") is None else
                    Message("replay.bought", {**facts, "buyer": who(lot["buyer"]),
                                              "price": f"{lot['price']:,}"}))
            out.append(ReplayStep(Message("replay.auction", facts), [line]))
        elif "race" in entry:
            race = entry["race"]
            lines = [Message("replay.first_second", {
                "first": horse_name(int(race["first"])),
                "second": horse_name(int(race["second"]))})]
            if race.get("first_out"):
                lines.append(Message("replay.first_out", {
                    "horses": [horse_name(int(h)) for h in race["first_out"]]}))
            lines += [Message("replay.payout", {"who": who(pay["player"]), "what": pay["what"],
                                                "amount": f"{pay['amount']:,}"})
                      for pay in race.get("payouts", [])]
            out.append(ReplayStep(Message("replay.race", {"race": race.get("race", "?")}),
                                  lines))
    return out


def _place(n: int) -> dict[str, Any]:
    return Message(f"place_{n}" if n in (1, 2, 3) else "place_n", {"n": n}).to_json()


def _money(amount: Any) -> str:
    return f"{int(amount):,}"


def room_event(event: dict[str, Any], names: list[str]) -> Message | None:
    """A logged event of the party room as the host's screen words it (``ev_*``), or None
    for the room's own events (created, joined)."""
    kind = event.get("type")
    e = event

    def name(i: Any) -> str:
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else f"#{i}"

    if kind == "started":
        return Message("ev_started", {"n": len(e.get("players", []))})
    if kind == "bid_sealed":
        return Message("ev_bid_sealed", {"name": name(e.get("player"))})
    if kind == "lot":
        bids = [f"{b['name']} {_money(b['amount'])}" for b in e.get("bids", []) if b["amount"] > 0]
        facts = {"bids": Message("ev_lot_bids", {"horse": e["horse"],
                                                 "bids": ", ".join(bids) or "—"}).to_json(),
                 "result": (Message("ev_lot_none", {"horse": e["horse"]}) if e.get("buyer") is None
                            else Message("ev_lot", {"horse": e["horse"], "name": e["buyer_name"],
                                                    "price": _money(e["price"])})).to_json()}
        if e.get("tied"):
            facts["tie"] = Message("ev_tie", {"names": " / ".join(e["tied"]),
                                              "name": e["buyer_name"]}).to_json()
            return Message("replay.lot_tie", facts)
        return Message("replay.lot", facts)
    if kind == "roll":
        return (Message("ev_fall", {"horse": e["horse"]}) if e.get("fall") else
                Message("ev_roll", {"horse": e["horse"], "value": e["value"]}))
    if kind == "round":
        out = ", ".join(e.get("out", []))
        if e.get("kind") == "rolloff":
            return Message("ev_rolloff", {"leader": e.get("leader")})
        if e.get("rolloff"):
            return Message("ev_rolloff_round", {"out": out})
        return Message("ev_round_falls" if e.get("kind") == "falls" else "ev_round",
                       {"round": e.get("round"), "out": out})
    if kind == "place":
        return Message("ev_place", {"horses": ", ".join(e["horses"]), "place": _place(e["place"])})
    if kind == "quinella":
        return Message("ev_quinella", {"pair": "–".join(e["pair"])})
    if kind == "quinella_paid":
        paid = [Message("ev_quinella_paid", {"name": p["name"], "amount": _money(p["amount"])})
                for p in e.get("payouts", [])]
        if not paid:
            return Message("ev_quinella", {"pair": "–".join(e["pair"])})
        return Message("replay.payouts", {"payouts": [m.to_json() for m in paid]})
    if kind == "result":
        return Message("ev_result", {"horse": e["order"][0]})
    simple = {"bids_closed": "ev_bids_closed", "betting_open": "ev_betting_open",
              "race_start": "ev_race_start", "reroll": "ev_reroll", "settled": "ev_settled",
              "finished": "ev_finished"}
    if kind in simple:
        return Message(simple[kind], {k: v for k, v in e.items() if k in ("race", "races")})
    if kind in ("borrowed", "done_betting"):
        return Message(f"ev_{kind}", {"name": name(e.get("player")),
                                      "amount": _money(e.get("amount", 0))})
    return None
