"""Replaying a saved Dice Derby party: one step per sold horse and per settled race
(places, first out, payouts), from the session log."""

from __future__ import annotations

from typing import Any

from raceday.core.events import Message
from raceday.games.derby.evening import lot_facts, quinella_paid_facts
from raceday.games.derby.rules import horse_name, parse_horse, result_facts
from raceday.present.replay import ReplayStep, room_event_message
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


def _old_facts(kind: Any, e: dict[str, Any]) -> dict[str, Any]:
    """The facts an event of this kind has today, from one a room logged before they
    did: the horse of a sealed bid or of the closed bids, which way a lot and a round went,
    who collected on the quinella, the quinella's name, and the rest of a race's result."""
    if kind in ("bid_sealed", "bids_closed") and "post" in e:
        return {"horse": horse_name(int(e["post"])), **e}
    if kind == "lot":
        return {**lot_facts(int(e["post"]), e["bids"], e["buyer"], e["buyer_name"],
                            int(e["price"]), e["tied"]), **e}
    if kind == "round" and "alone" not in e:  # alone and fell word it before rolloff
        return {"round": e.get("round"), "alone": e.get("kind") == "rolloff",
                "fell": e.get("kind") == "falls", **e}
    if kind == "quinella_paid":
        return {**quinella_paid_facts(e["pair"], e["payouts"]), **e}
    if kind == "quinella" and "quinella" not in e:
        return {**e, "quinella": "-".join(str(h) for h in e["pair"])}
    if kind == "result" and "winner" not in e:
        places = {parse_horse(str(h)): int(n) for h, n in e["places"].items()}
        return {**result_facts([parse_horse(str(h)) for h in e["order"]], places,
                               [parse_horse(str(h)) for h in e.get("first_out", [])]), **e}
    return e


def room_event(event: dict[str, Any], names: list[str]) -> Message:
    """A logged event of the party room as its message ``event.<kind>`` (or the variant
    a true fact picks): events logged before today's facts get them first (the words they
    carried then, ``message``, are not kept)."""
    facts = {k: v for k, v in event.items() if k != "message"}
    return room_event_message(_old_facts(event.get("type"), facts), names, "derby")
