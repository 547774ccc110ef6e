"""The thinking indicator in Chromium: against Hairpin's expert (who thinks a second a move,
on the server, inside the person's move), the page that sent the move says the computer is
thinking, in English and Japanese, hides the moves meanwhile, and drops the line when the
computer's answer arrives."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from raceday.present import table
from raceday.web.app import create_app
from raceday.web.server import background_server

TIMEOUT = 180_000  # a hang guard: the expert's first move may wait for numba's compiler
TEXT = {"en": "The computer is thinking…", "ja": "コンピューターが考えています…"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    app = create_app(tmp_path / "party.sqlite", burst=1000, rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_page_says_the_computer_is_thinking_until_its_move_arrives(
        chromium: Any, server: str, lang: str) -> None:
    r = httpx.post(f"{server}api/rooms", json={"game": "hairpin", "options": {
        "variant": "short", "red": "human", "black": "expert"}}, timeout=10)
    room = r.json()
    code = room["code"]
    context = chromium.new_context(viewport={"width": 360, "height": 740}, locale="en-US")
    storage = {f"raceday.host.{code}": room["host_token"], "raceday.lang": lang}
    context.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(storage)})) "
                            "localStorage.setItem(k, v);")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}host/{code}")
    page.click("#start")
    page.locator(".hp-turn.yours").wait_for()
    assert not page.locator(".thinking").count()
    page.locator("button.hp-move").first.click()
    # one snapshot of the page while the line shows (it shows for less than a second)
    seen = page.wait_for_function("""() => {
      const line = document.querySelector(".hp-turn.thinking");
      return line && { text: line.textContent.trim(), role: line.getAttribute("role"),
                       moves: document.querySelectorAll("button.hp-move").length };
    }""").json_value()
    assert seen == {"text": TEXT[lang], "role": "status", "moves": 0}  # no second move
    page.wait_for_function("() => Number(document.querySelector('.hp-board').dataset.ply) == 2")
    page.locator(".hp-turn.yours").wait_for()
    assert not page.locator(".thinking").count()
    assert page.locator("button.hp-move").count()
    assert errors == []
    context.close()


def test_both_languages_have_the_words() -> None:
    games = Path(__file__).parents[2] / "src" / "raceday" / "games"
    for lang, text in TEXT.items():
        assert table(lang).entries["computer_thinking"] == text
    kit = games.parent / "web" / "static" / "js" / "rooms.js"
    assert 'from "./thinking.js"' in kit.read_text(encoding="utf-8")  # the kit's turnScreen
    for module in ("hairpin/static/board.js", "pistard/static/track.js"):
        assert "turnScreen(" in (games / module).read_text(encoding="utf-8")
