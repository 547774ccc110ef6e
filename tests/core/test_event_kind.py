"""An event's log line ``{"kind": ..., **facts}`` keeps both its kind and every fact: no
game names a fact ``kind`` (Hairpin's move says ``how``, Derby's round ``ending``,
WielerSIM's throw ``die``), the
harness refuses one, and were one to slip through, the event's kind wins; rooms keep
logging those facts by their old names, so a room logged before reads as it did."""

from __future__ import annotations

import json
from typing import Any

import pytest

from raceday.core.events import Event, event_log_text
from raceday.core.registry import all_games
from raceday.games.derby.room import DerbyRoom
from raceday.games.hairpin.room import HairpinRoom
from raceday.games.wielersim.room import WatchRoom
from raceday.testing import InvariantError, play_checked_game

GAMES = all_games()
CONFIGS = [(game, index) for game in GAMES for index in range(len(game.harness_configs))]


@pytest.mark.parametrize(("game", "config"), CONFIGS,
                         ids=[f"{g.name}-{i}" for g, i in CONFIGS])
def test_no_event_of_any_game_hides_its_kind(game: object, config: int) -> None:
    """Two random games of each option set: every log line names the event's own kind
    and every fact (the harness itself refuses a fact named ``kind``)."""
    for seed in (11, 12):
        options = game.harness_configs[config]  # type: ignore[attr-defined]
        record = play_checked_game(game, options, seed, full=False)  # type: ignore[arg-type]
        lines = [json.loads(line) for line in record.log_text().splitlines()]
        assert [line["kind"] for line in lines] == [e.kind for e in record.events]
        assert all(len(line) == len(e.data) + 1 for line, e in zip(lines, record.events,
                                                                    strict=True))


def test_the_events_kind_wins_over_a_fact_of_that_name() -> None:
    hiding = Event("move", {"kind": "charge", "ply": 3})
    assert hiding.to_dict() == {"kind": "move", "ply": 3}
    assert json.loads(event_log_text([hiding]))["kind"] == "move"


def test_the_harness_refuses_a_fact_named_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    hairpin = next(g for g in GAMES if g.name == "hairpin")
    from raceday.games.hairpin import rules

    original = rules.HairpinState.apply_action

    def hiding(self: rules.HairpinState, action: int, *more: object) -> list[Event]:
        return [Event(e.kind, {**e.data, "kind": "x"}) for e in original(self, action, *more)]

    monkeypatch.setattr(rules.HairpinState, "apply_action", hiding)
    with pytest.raises(InvariantError, match="fact named 'kind'"):
        play_checked_game(hairpin, hairpin.harness_configs[0], 1, full=False)


def _bare(room: type[Any]) -> Any:
    """A room without its game (event_json needs only the class's wire names)."""
    return room.__new__(room)


def test_rooms_log_the_renamed_facts_by_their_old_names() -> None:
    """A room's event keeps ``type`` for the kind: Hairpin's move and Derby's round still
    carry ``kind`` there, as every room logged before this did."""
    move = Event("move", {"ply": 1, "how": "enter", "to": "a1"})
    assert _bare(HairpinRoom).event_json(move) == {
        "type": "move", "ply": 1, "kind": "enter", "to": "a1"}
    rnd = Event("round", {"round": 2, "ending": "falls", "out": ["d4"]})
    assert _bare(DerbyRoom).event_json(rnd) == {
        "type": "round", "round": 2, "kind": "falls", "out": ["d4"]}
    throw = Event("throw", {"rider": 11, "die": "d6", "value": 4})
    assert _bare(WatchRoom).event_json(throw) == {
        "type": "throw", "rider": 11, "kind": "d6", "value": 4}
    other = Event("roll", {"horse": "d4", "value": 3})
    assert _bare(DerbyRoom).event_json(other) == {
        "type": "roll", "horse": "d4", "value": 3}
