"""The host gives a seat whose phone left to a computer on the big screen, with the
keyboard, and hands it back once the phone is back: in every party game that has computers
to give a seat to (Dice Derby, KEIRIN, Hairpin Racers, PISTARD), on a TV and on a phone
used as the host's screen, in English and Japanese; the seat's name carries the computer's
mark meanwhile where the page lists the players."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import assert_accessible
from shots import keep_shot
from tv_text import TV_TEXT_MIN_PX

from raceday.present import render
from raceday.web.app import create_app
from raceday.web.hub import Hub
from raceday.web.server import background_server

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setattr(Hub, "presence_grace", 0.2)  # a phone counts as gone at once
    with background_server(create_app(tmp_path / "party.sqlite")) as url:
        yield url


def post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


# each game: its options for two phones (Aki, Bo), how its host starts it, the level the
# box offers first, and where its page lists the players by name (the mark goes there too)
GAMES: dict[str, tuple[dict[str, Any], str, str, str | None]] = {
    "derby": ({}, "start", "cautious", ".dd-standings"),
    "keirin": ({"races": 2}, "keirin.kr_start_night", "cautious", ".kr-standings"),
    "hairpin": ({"variant": "short", "red": "human", "black": "human"}, "#start", "easy",
                ".hp-counters"),
    "pistard": ({"variant": "scratch", "riders_per_player": 1, "track": "short",
                 "players": ["human", "human"]}, "#start", "easy", ".pi-standings"),
}


def words(key: str, lang: str, **params: Any) -> str:
    return render(key, lang, params=params)


@pytest.mark.parametrize(("game", "viewport", "lang"), [
    ("derby", TV, "en"), ("derby", PHONE, "ja"), ("keirin", TV, "ja"), ("keirin", PHONE, "en"),
    ("hairpin", TV, "en"), ("hairpin", PHONE, "ja"), ("pistard", TV, "ja"),
    ("pistard", PHONE, "en")])
def test_the_host_gives_a_left_seat_to_a_computer_and_hands_it_back(
        open_page: Callable[..., Any], base: str, game: str, viewport: dict[str, int],
        lang: str) -> None:
    options, start, level, listing = GAMES[game]
    room = post(f"{base}api/rooms", {"game": game, "options": options})
    code = room["code"]
    tokens = [post(f"{base}api/rooms/{code}/join", {"name": n})["token"] for n in ("Aki", "Bo")]
    phones = [open_page(PHONE, f"{base}play/{code}", {f"raceday.seat.{code}": t})
              for t in tokens]
    tv = open_page(viewport, f"{base}host/{code}",
                   {f"raceday.host.{code}": room["host_token"], "raceday.lang": lang})
    if game == "derby":
        tv.locator("#computers").fill("0")
    if start.startswith("#"):
        tv.locator(start).click()
    else:
        tv.get_by_role("button", name=words(start, lang)).click()
    phones[1].context.close()  # Bo's phone leaves
    panel = tv.get_by_role("group", name=words("stand_in_title", lang))
    panel.get_by_text(words("stand_in_away", lang, name="Bo")).wait_for()
    level_words = words(f"level_{level}", lang)
    picked = panel.get_by_label(words("stand_in_level", lang, name="Bo"))
    assert picked.evaluate("s => s.selectedOptions[0].textContent") == level_words
    assert_accessible(tv, f"the {game} host with a player who left ({lang}, {viewport['width']})")
    if viewport == TV and game in ("derby", "keirin"):  # the party games' TVs
        # the box reads from the sofa like the rest of the TV
        sizes = tv.evaluate("""() => [...document.querySelectorAll('.stand-ins, .stand-ins *')]
          .map((e) => parseFloat(getComputedStyle(e).fontSize))""")
        assert min(sizes) >= TV_TEXT_MIN_PX, sizes
    fits = tv.evaluate("""() => [...document.querySelectorAll('.stand-ins *')]
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 1).map((e) => e.outerHTML)""")
    assert fits == [] and tv.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    give = panel.get_by_role("button", name=words("stand_in_give", lang))
    give.focus()
    tv.keyboard.press("Enter")
    mark = words("stand_in_mark", lang, level=level_words)
    panel.get_by_text(f"Bo {mark}").wait_for()
    assert panel.get_by_role("button", name=words("stand_in_hand_back", lang)).count() == 0
    if listing:  # the players' list marks the seat a computer plays, and still fits
        tv.locator(listing, has_text=mark).first.wait_for()
        wide = tv.evaluate("""(s) => [...document.querySelectorAll(`${s} *`)]
          .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
          .map((e) => e.textContent.slice(0, 30))""", listing)
        assert wide == [], wide
    keep_shot(tv, f"stand-in/{game}-{lang}-{viewport['width']}.png", full_page=True)
    back = open_page(PHONE, f"{base}play/{code}", {f"raceday.seat.{code}": tokens[1]})
    hand_back = panel.get_by_role("button", name=words("stand_in_hand_back", lang))
    hand_back.focus()
    tv.keyboard.press("Enter")
    panel.wait_for(state="detached")  # nobody is away any more
    if game == "derby":
        box = tv.locator(".dd-tv").bounding_box()
        assert box is not None and box["height"] <= TV["height"]
    assert tv.js_errors == [] and back.js_errors == [] and phones[0].js_errors == []
