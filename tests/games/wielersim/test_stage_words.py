"""WielerSIM's names in the reader's language: a stage race's stages (Prologue, "Stage 2:
Luik - Hoei (hilly)") as messages on the stage race's page, in its replay and on a watch
room's screens; the shipped routes, pelotons and stage races by their words; the rider
types on the numbers page by their keys."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from raceday.core.events import Message
from raceday.games.wielersim.choices import PELOTONS
from raceday.games.wielersim.commentary import named_stage_message, stage_message, stage_name
from raceday.games.wielersim.replay import steps
from raceday.games.wielersim.route import SHIPPED_ROUTES
from raceday.games.wielersim.stage import SHIPPED_TOURS, resolve_tour, stage_count
from raceday.games.wielersim.watch import campaign_view
from raceday.present import LANGUAGES, render, table
from tests.games.wielersim.test_saves import saved_store

GAME = "wielersim"
ENGLISH = re.compile(r"\b(Stage|Prologue|flat|hilly|cobbles|mountain|inline|summit)\b")


def test_every_stage_of_the_shipped_stage_race_reads_in_both_languages() -> None:
    tour = resolve_tour("ronde-van-belgie")
    for i in range(stage_count(tour)):
        message = stage_message(tour, i)
        assert render(message, "en", GAME) == stage_name(tour, i)  # as the file writes it
        ja = render(message, "ja", GAME)
        assert ja == stage_name(tour, i, "ja") and not ENGLISH.search(ja), ja
    assert render(stage_message(tour, 4), "ja", GAME) == "第4ステージ：Ardennesの山頂ゴール（山岳）"


def test_a_name_not_written_as_a_numbered_stage_is_shown_as_written() -> None:
    assert named_stage_message("Koppenbergrit") == Message("stage.named",
                                                           {"name": "Koppenbergrit"})
    assert render(named_stage_message("Koppenbergrit"), "ja", GAME) == "Koppenbergrit"


def test_the_page_and_the_replay_get_the_stage_names_as_messages(tmp_path: Path) -> None:
    store = saved_store(tmp_path)
    view = campaign_view(store, "half way")
    ja = [render(stage["words"], "ja", GAME) for stage in view["stages"]]
    assert ja[0] == "プロローグ" and all(not ENGLISH.search(name) for name in ja)
    titles = [step.title for step in steps(store, "half way")]
    assert len(titles) == view["done"]
    assert [render(t, "ja", GAME) for t in titles] == ja[:view["done"]]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_shipped_choice_has_its_words(lang: str) -> None:
    entries = table(lang).entries
    wanted = [*(f"wv_route_{r}" for r in SHIPPED_ROUTES),
              *(f"wv_peloton_{p}" for p in PELOTONS), *(f"wv_tour_{t}" for t in SHIPPED_TOURS)]
    assert [key for key in wanted if f"{GAME}.{key}" not in entries] == []


def test_a_watch_rooms_stage_title_comes_with_its_words() -> None:
    from raceday.games.wielersim.room import WatchRoom

    room = WatchRoom.create({"route": "flat-stage", "peloton": "small", "seed": 3, "stage": 1,
                             "campaign": "spring",
                             "title": "Stage 1: Brugge - Oostende (flat)"}, 3)
    film = room.film_view()
    assert render(film["title_words"], "ja", GAME) == "第1ステージ：Brugge - Oostende（平坦）"
