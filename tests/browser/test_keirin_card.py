"""The landing page's KEIRIN card is built from the model the room is created from (GET
/api/games/keirin/options?for=room): one input per field with the model's defaults and
bounds, labels from the message tables, and what it sends is what the model reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from raceday.games.keirin.room import RoomOptions
from raceday.web.app import create_app
from raceday.web.server import background_server


def test_the_card_has_every_field_of_the_room_model_and_sends_what_was_chosen(
        chromium: Any, tmp_path: Path) -> None:
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = chromium.new_context(locale="en-GB").new_page()
        page.goto(base)
        form = page.locator("#keirin-create")
        form.wait_for()
        names = form.locator("[name]").evaluate_all("xs => xs.map((x) => x.name)")
        assert names == list(RoomOptions.model_fields)
        assert [form.locator(f"#kr-{n}").input_value() for n in names] == \
            ["3", "9", "50", "fixed", "0", "10000"]
        assert form.locator("label[for=kr-bankroll]").inner_text() == "Each player's purse"
        length = form.locator("#kr-length")
        assert (length.get_attribute("min"), length.get_attribute("max")) == ("19", "1000")
        form.locator("#kr-races").select_option("7")
        form.locator("#kr-margin").select_option("15%")
        length.fill("100")
        with page.expect_request("**/api/rooms") as sent:
            form.get_by_role("button", name="Create KEIRIN room").click()
        page.wait_for_url("**/host/*")
        chosen = sent.value.post_data_json["options"]
        assert chosen == {"races": 7, "riders": 9, "length": 100, "mode": "fixed",
                          "margin": 0.15, "bankroll": 10_000}
        assert RoomOptions.parse(chosen).margin == 0.15
