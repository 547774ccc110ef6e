"""The landing page's Dice Derby card is built from the model the room is created from
(GET /api/games/derby/options?for=room): one input per field with the model's defaults and
bounds, labels from the message tables (English and Japanese), and what it sends is what
the model reads; the room is created with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from raceday.games.derby.room import HostOptions
from raceday.web.app import create_app
from raceday.web.server import background_server


def test_the_card_has_every_field_of_the_room_model_and_sends_what_was_chosen(
        chromium: Any, tmp_path: Path) -> None:
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = chromium.new_context(locale="en-GB").new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base)
        form = page.locator("#derby-setup form#create")
        form.wait_for()
        names = form.locator("[name]").evaluate_all("xs => xs.map((x) => x.name)")
        assert names == list(HostOptions.model_fields)
        races = form.locator("select[name=races]")
        assert races.evaluate("s => [...s.options].map((o) => o.value)") == ["4", "5", "6"]
        assert races.input_value() == "5"
        falls = page.locator("#derby-fall-rate")
        assert falls.evaluate("s => [...s.options].map((o) => o.textContent)") == \
            ["No falls", "1 roll in 20 falls"]
        assert form.locator("input[name=start_money]").input_value() == "10000"
        assert form.locator("label[for=derby-quinella_limit]").inner_text() == \
            "Quinella tickets per player per race"
        assert "Allow borrowing" in form.locator("label.check", has=page.locator(
            "input[name=borrowing]")).inner_text()

        races.select_option("4")
        falls.select_option("1/20")
        form.locator("input[name=borrowing]").check()
        form.locator("select[name=owner_award]").select_option("net")
        form.locator("input[name=start_money]").fill("20000")
        with page.expect_request("**/api/rooms") as sent:
            form.get_by_role("button", name="Create room").click()
        chosen = sent.value.post_data_json["options"]
        page.wait_for_url("**/host/*")
        assert chosen["races"] == 4 and chosen["fall_rate"] == "1/20"
        assert chosen["borrowing"] is True and chosen["owner_award"] == "net"
        evening = HostOptions.parse(chosen).evening(seed=1)
        assert (evening.races, evening.start_money, evening.borrowing) == (4, 20_000, True)
        assert errors == []


def test_the_cards_labels_follow_the_language(chromium: Any, tmp_path: Path) -> None:
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = chromium.new_context(locale="ja-JP").new_page()
        page.goto(base)
        form = page.locator("#derby-setup form#create")
        form.wait_for()
        assert form.locator("label[for=derby-start_money]").inner_text() == "各プレイヤーの持ち金"
        assert form.locator("select[name=owner_award]").evaluate(
            "s => [...s.options].map((o) => o.textContent)") == ["賞金", "賞金から購入額を引いた額"]
