"""Replaying a saved WielerSIM stage race: one step per ridden stage (its first three and
the leader of the general classification), each linking to that stage's film."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from raceday.core.events import Message
from raceday.present.replay import ReplayStep
from raceday.store.sessions import SessionStore

PODIUM = 3


def finished(store: SessionStore, name: str) -> bool:
    from raceday.games.wielersim.campaign import load_campaign

    return load_campaign(store, name).next_stage > 0


def steps(store: SessionStore, name: str) -> list[ReplayStep]:
    from raceday.games.wielersim.campaign import load_campaign
    from raceday.games.wielersim.stage import stage_name

    c = load_campaign(store, name)
    peloton = c.peloton

    def rider(number: int) -> str:
        return peloton.riders[peloton.index_of(number)].name

    out = []
    for i in range(c.next_stage):
        podium = [Message("replay.rider_place", {"place": place, "name": rider(n),
                                                 "number": n}).to_json()
                  for place, (n, _) in enumerate(c.records[i]["results"][:PODIUM], start=1)]
        leader = c.standings(i + 1).gc[0][0]
        out.append(ReplayStep(
            Message("replay.stage", {"name": stage_name(c.tour, i)}),
            [Message("replay.podium", {"riders": podium}),
             Message("replay.gc_leader", {"name": rider(leader), "number": leader})],
            url=f"/replay/wielersim/{quote(name, safe='')}/{i}"))
    return out


def part(store: SessionStore, name: str, stage: str) -> dict[str, Any]:
    """The film of stage ``stage`` (0 for the first), ridden again from the saved seed."""
    from raceday.games.wielersim.watch import WatchError, stage_film

    if not stage.isdigit() or len(stage) > 4:
        raise WatchError(f"stage must be the number of a ridden stage (0 for the first), "
                         f"not {stage[:20]!r}")
    return stage_film(store, name, int(stage))
