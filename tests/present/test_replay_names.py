"""A replay names every player of a logged ``started`` event: a person's name, the host
screen's seat as the big screen, a computer by its level — never "?" or "None"."""

from __future__ import annotations

from raceday.present.messages import render
from raceday.present.replay import player_names, room_event_message

STARTED = {"type": "started", "players": [
    {"place": 0, "kind": "human", "name": "Aki"},
    {"place": 1, "kind": "human", "name": None},
    {"place": 2, "kind": "medium", "name": None},
]}


def test_every_place_is_named_in_both_languages() -> None:
    names = player_names([{"type": "other"}, STARTED])
    assert names is not None
    shown = {lang: [render(n, lang) if not isinstance(n, str) else n for n in names]
             for lang in ("en", "ja")}
    assert shown["en"] == ["Aki", "the big screen", "Computer (medium)"]
    assert shown["ja"] == ["Aki", "大画面", "コンピューター（ふつう）"]
    for words in shown.values():
        assert not any(w in ("?", "None", "") for w in words)


def test_an_event_of_a_computer_place_reads_its_level() -> None:
    names = player_names([STARTED])
    assert names is not None
    message = room_event_message({"type": "joined", "player": 2}, names)
    assert render(message, "en") == "Computer (medium) joins"
    assert room_event_message({"type": "joined", "player": 2}, names).to_json()["params"][
        "name"] == {"key": "finale_computer", "params": {"level": {
            "key": "level_medium", "params": {}}}}


def test_a_plain_list_of_names_is_kept_and_no_started_event_gives_none() -> None:
    assert player_names([{"type": "started", "players": ["Aki", "Ben"]}]) == ["Aki", "Ben"]
    assert player_names([{"type": "moved"}]) is None
