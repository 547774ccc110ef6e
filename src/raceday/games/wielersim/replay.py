"""Replaying WielerSIM: a saved stage race (its records, one per ridden stage) as one step
per ridden stage (its first three and the leader of the general classification, the
stage's moves played again through the rules for the terminal's table), each linking to
that stage's film; a watch
room (:mod:`raceday.games.wielersim.room`) with the film at every step of its log.

A watch room's film is ridden again for its replay (:func:`room_frames`) by a fresh room
made from the saved room's options: the same room code rides the same turns with the race's
own generator (``WatchOptions.generator``), so each step's frame is what the live screens
were sent (``film``, ``frame``, ``ticker``, ``shown``, ``standings``), with no rule
repeated here."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import numpy as np

from raceday.core.errors import RacedayError
from raceday.core.events import Message
from raceday.present.replay import ReplayStep
from raceday.store.sessions import SessionStore

if TYPE_CHECKING:
    from raceday.games.wielersim.campaign import Campaign
    from raceday.games.wielersim.room import WatchRoom

PODIUM = 3


def finished(store: SessionStore, name: str) -> bool:
    from raceday.games.wielersim.campaign import load_campaign

    return load_campaign(store, name).next_stage > 0


def steps(store: SessionStore, name: str) -> list[ReplayStep]:
    from raceday.games.wielersim.campaign import load_campaign

    return campaign_steps(load_campaign(store, name))


def campaign_steps(c: Campaign) -> list[ReplayStep]:
    """A stage race's records (:mod:`raceday.games.wielersim.campaign`) as one step per
    ridden stage: its first three and the leader of the general classification."""
    from raceday.games.wielersim.commentary import stage_message

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
            Message("replay.stage", {"name": stage_message(c.tour, i)}),
            [Message("replay.podium", {"riders": podium}),
             Message("replay.gc_leader", {"name": rider(leader), "number": leader})],
            url=f"/replay/wielersim/{quote(c.name, safe='')}/{i}"))
    return out


def part(store: SessionStore, name: str, stage: str) -> dict[str, Any]:
    """The film of stage ``stage`` (0 for the first), ridden again from the saved seed."""
    from raceday.games.wielersim.watch import WatchError, stage_film

    if not stage.isdigit() or len(stage) > 4:
        raise WatchError(f"stage must be the number of a ridden stage (0 for the first), "
                         f"not {stage[:20]!r}")
    return stage_film(store, name, int(stage))


# --- a watch room's replay ----------------------------------------------------------------
FILM_FACTS = ("turn", "shown", "finished")  # what a logged ``film_frame`` says of its frame


def _ridden_again(options: Mapping[str, Any]) -> WatchRoom:
    """A fresh watch room with the saved room's options, started: its race is the saved
    race (the options hold the race's seed, or its stage's), ready for its first turn."""
    from raceday.games.wielersim.room import WatchRoom
    from raceday.rooms import Actor

    room = WatchRoom.create(options, 0)
    room.handle(Actor.host(), {"type": "start"}, np.random.default_rng(0))
    return room


def _screens(room: WatchRoom) -> dict[str, Any]:
    """What every screen of the room is sent of its film now (the view's film parts)."""
    public = room.extra_public(room.state)
    return {key: public[key] for key in ("film", "frame", "ticker", "shown", "standings")}


def _race_of(started: Mapping[str, Any], options: Mapping[str, Any], saved: bool
             ) -> WatchRoom | None:
    """The race a ``started`` event began, ridden again: with the seed the event names,
    else with the saved options where they are that race's (``saved``); None when neither
    is known or the options are refused."""
    seed = started.get("seed")
    if seed is not None:
        options = {**options, "seed": seed}
    elif not saved:
        return None
    try:
        return _ridden_again(options)
    except RacedayError:
        return None


def room_frames(snapshot: Mapping[str, Any],
                rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]]
                ) -> list[dict[str, Any] | None]:
    """The film after each logged row of a watch room, as its screens were sent it: from
    a ``started`` event, a fresh room with the saved options (:func:`_ridden_again`) rides
    one turn for each logged ``film_frame`` (a tick, or each turn a skip played), checked
    against the logged turn. None before the start, and for a race the saved options no
    longer hold: one the host played again (a new seed each time; a stage of a stage race
    is ridden again as it was, so every one of its races replays), or one whose logged
    turns the race does not ride (the words stay). A ``started`` event that names its
    race's ``seed`` is ridden with that seed, so a race played again replays too."""
    return [None if room is None else _screens(room) for room in _rooms(snapshot, rows)]


def _rooms(snapshot: Mapping[str, Any],
           rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]]
           ) -> Iterator[WatchRoom | None]:
    """The race ridden again after each logged row (one room, moved on in place; None
    where there is none), as :func:`room_frames` describes."""
    from raceday.games.wielersim.room import WatchRoom
    from raceday.rooms import Actor

    final = WatchRoom.from_json(snapshot)
    options = dict(final.lobby_options)
    starts = [i for i, (_, events) in enumerate(rows)
              if any(e.get("type") == "started" for e in events)]
    replayable = set(starts) if final.watch.stage is not None else set(starts[-1:])
    tick_rng = np.random.default_rng(0)  # the race rides its own generator, not this one
    room: WatchRoom | None = None
    for i, (_, events) in enumerate(rows):
        for event in events:
            kind = event.get("type")
            if kind == "started":
                room = _race_of(event, options, i in replayable)
            elif kind == "film_frame" and room is not None:
                try:
                    made = [e for e in room.handle(Actor.timeline(), {"type": "tick"},
                                                   tick_rng) if e.get("type") == "film_frame"]
                except RacedayError:  # the race ended before the log did
                    made = []
                if [{k: e.get(k) for k in FILM_FACTS} for e in made] != [
                        {k: event.get(k) for k in FILM_FACTS}]:
                    room = None  # not the logged race: no board from here to its end
        yield room



# --- the terminal's replay (``raceday replay``) --------------------------------------------
def _road_width(width: int) -> int:
    """Squares of road in a board ``width`` columns wide (three columns a square, after
    the lanes' labels)."""
    return max(10, min(60, (width - 12) // 3))


def road_board(state: Any, lang: str = "en") -> Any:
    """The road as the terminal's watch draws it (:func:`draw_road`, then one line per
    group); a finished race: its result's top ten."""
    from rich.console import Group
    from rich.text import Text

    from raceday.games.wielersim.render import draw_road, group_summary, result_table

    def make(width: int, height: int) -> Any:
        if state.is_terminal():
            return result_table(state, limit=10, lang=lang)
        lines = [Text("  " + line, style="dim") for line in group_summary(state, lang=lang)]
        return Group(draw_road(state, _road_width(width), lang), *lines)
    return make


def _stage_again(c: Campaign, index: int) -> Any | None:
    """Stage ``index`` of a saved stage race at its finish: its record's moves played
    through the rules (a stage converted from a save made before records, which has none:
    ridden again from the stage race's seed, as
    :func:`raceday.games.wielersim.watch.stage_film` rides it); None for a prologue (no
    road) or a ride that does not give the saved result."""
    from raceday.core.play import play_game
    from raceday.core.record import replay
    from raceday.games.wielersim.campaign import stage_result
    from raceday.games.wielersim.rules import WielersimState
    from raceday.games.wielersim.stage import stage_rng

    record = c.stages[index]
    if record.moves:
        state = replay(record).state
    else:
        state, _ = c.start_stage(index)
        if isinstance(state, WielersimState):
            play_game(state, [], stage_rng(c.seed, index))
    if not isinstance(state, WielersimState) or not state.is_terminal():
        return None
    return state if stage_result(c.tour, index, state) == c.records[index] else None


def terminal_steps(store: SessionStore, name: str, lang: str = "en") -> list[Any]:
    """A saved stage race in the terminal (:func:`campaign_terminal_steps`)."""
    from raceday.games.wielersim.campaign import load_campaign

    return campaign_terminal_steps(load_campaign(store, name), lang)


def campaign_terminal_steps(c: Campaign, lang: str = "en") -> list[Any]:
    """A stage race's records in the terminal: each ridden stage (:func:`campaign_steps`)
    with its result as the terminal prints it after a stage (the stage's moves played
    again through the rules: places, gaps, sprint and mountain points; a prologue's, which
    has no road, from its result) and the general classification after it."""
    from rich.console import Group

    from raceday.games.wielersim.commentary import stage_name
    from raceday.games.wielersim.render import (
        result_table,
        stage_result_table,
        standings_tables,
    )
    from raceday.present.terminal_replay import LazyBoard, TerminalStep

    out = []
    for i, step in enumerate(campaign_steps(c)):
        def make(width: int, height: int, i: int = i) -> Any:
            state = _stage_again(c, i)
            top = (result_table(state, limit=10, lang=lang) if state is not None else
                   stage_result_table(c.peloton, c.records[i], limit=10, lang=lang,
                                      name=stage_name(c.tour, i, lang)))
            return Group(top, standings_tables(c.peloton, c.standings(i + 1), limit=5,
                                               lang=lang)[0])
        results = c.records[i]["results"]
        out.append(TerminalStep(step.to_json(), LazyBoard(make),
                                {"stage": i, "winner": results[0][0] if results else None,
                                 "leader": c.standings(i + 1).gc[0][0]}))
    return out


def record_terminal_steps(text: str, lang: str = "en") -> list[Any]:
    """An exported stage race (a record text of its stages) in the terminal, every stage
    checked through the rules first (:class:`~raceday.core.record.RecordError` names the
    first bad line)."""
    from raceday.games.wielersim.campaign import campaign_from_text

    return campaign_terminal_steps(campaign_from_text(text), lang)


def room_boards(snapshot: Mapping[str, Any],
                rows: Sequence[tuple[Mapping[str, Any], Sequence[Mapping[str, Any]]]],
                lang: str = "en") -> list[Any]:
    """The road after each logged row of a watch room as the terminal's watch draws it:
    the race ridden again as :func:`room_frames` rides it (a copy of its state at each
    row); None before the start or where the log is not the race ridden again."""
    return [None if room is None or room.state is None else road_board(room.state.clone(),
                                                                        lang)
            for room in _rooms(snapshot, rows)]
