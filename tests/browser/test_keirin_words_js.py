"""The KEIRIN pages word every event of the race and the night as Python does: track.js
eventText (present.js describeEvent on the room's {type, ...facts}) gives, in Chromium, the
text of raceday.present.describe_event for each event and each variant, in English and
Japanese."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.games.keirin.test_event_words import every_event

from raceday.present import describe_event
from raceday.web.app import create_app
from raceday.web.server import background_server

SCRIPT = """async (events) => {
  const i18n = await import("/static/js/i18n.js");
  const track = await import("/games/keirin/static/track.js");
  const out = [];
  for (const lang of ["en", "ja"]) {
    await i18n.setLanguage(lang);
    for (const e of events) out.push(track.eventText(e));
  }
  return out;
}"""


def test_the_pages_word_every_keirin_event_as_python(chromium: Any, tmp_path: Path) -> None:
    events = every_event()
    logged = [json.loads(json.dumps({"type": e.kind, **e.data})) for e in events]
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = chromium.new_page()
        page.goto(f"{base}replay")
        got = page.evaluate(SCRIPT, logged)
        page.close()
    expected = [("" if e.kind == "throw" else describe_event("keirin", e, lang))
                for lang in ("en", "ja") for e in events]
    assert len(got) == len(expected) and got == expected
    assert "車券が1枚売れました。" in got and "A ticket is sold." in got
