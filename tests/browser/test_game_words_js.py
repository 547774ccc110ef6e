"""The games' own words on Japanese pages in Chromium: WielerSIM's shipped routes, pelotons
and stage races by their words (not their file names), Hairpin's rules title naming its
variant in words, and KEIRIN as 競輪 in a room's heading and tab title."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
JA = {"raceday.lang": "ja"}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(tmp_path_factory.mktemp("words") / "party.sqlite")
    with background_server(app, host="127.0.0.1") as url:
        yield url


def test_wielersim_choices_read_as_words(open_page: Any, base: str) -> None:
    page = open_page(PHONE, f"{base}wielersim", JA)
    page.wait_for_selector("#wv-route option", state="attached")
    routes = page.locator("#wv-route option").all_inner_texts()
    pelotons = page.locator("#wv-peloton option").all_inner_texts()
    tours = page.locator("#wv-tour option").all_inner_texts()
    assert "フランドル（石畳）" in routes and "山岳ステージ" in routes
    assert "クラシック（36人）" in pelotons and "ベルギー一周（6ステージ）" in tours
    files = {"flanders", "ardennes", "flat-stage", "mountain-stage", "classics", "small",
             "ronde-van-belgie"}
    assert files.isdisjoint(routes + pelotons + tours)
    assert page.locator("#wv-route").input_value() == "flanders"  # the value is the name
    assert page.js_errors == []
    page.context.close()


def test_hairpins_rules_title_names_the_variant_in_words(open_page: Any, base: str) -> None:
    page = open_page(PHONE, f"{base}hairpin", JA)
    titles = page.evaluate("""async () => {
      const board = await import('/games/hairpin/static/board.js');
      const i18n = await import('/static/js/i18n.js');
      const rules = {bumping: true, derby: true, target: 5, v1: true};
      const title = (variant) =>
        board.rulesNote({rules, variant}).querySelector('summary').textContent;
      const ja = [title('derby+v1'), title('short')];
      await i18n.setLanguage('en');
      return ja.concat([title('derby+v1')]);
    }""")
    assert titles == ["ルールの要点（デモリション・ダービー、バージョン1）",
                      "ルールの要点（ショート）", "Rules in short (Demolition Derby, version 1)"]
    page.context.close()


def test_keirin_is_keirin_in_kanji_on_a_japanese_room_page(open_page: Any, base: str) -> None:
    room = httpx.post(f"{base}api/rooms", json={"game": "keirin", "options": {}}).json()
    page = open_page(PHONE, f"{base}watch/{room['code']}", JA)
    page.wait_for_selector("header h1")
    assert page.locator("header h1").inner_text().startswith("競輪")
    assert page.title() == f"競輪 {room['code']} — raceday"
    page.click("button.lang")
    page.wait_for_function("document.title.startsWith('KEIRIN')")
    page.context.close()


def test_a_stage_race_names_its_stages_in_japanese(open_page: Any, base: str) -> None:
    made = httpx.post(f"{base}api/wielersim/campaigns",
                      json={"tour": "ronde-van-belgie", "peloton": "small", "name": "spring"})
    assert made.status_code == 201
    key = made.json()["key"]
    ridden = httpx.post(f"{base}api/wielersim/campaigns/spring/ride", json={"stage": 0},
                        headers={"X-Campaign-Key": key}, timeout=60)
    assert ridden.status_code == 200
    keys = {"raceday.wielersim.campaigns": json.dumps({"spring": key})}
    page = open_page(PHONE, f"{base}wielersim?campaign=spring", {**JA, **keys})
    stages = page.locator(".campaign-stages li")
    stages.first.wait_for()
    names = stages.all_inner_texts()
    assert names[0].startswith("プロローグ")
    assert names[1].startswith("第1ステージ：Brugge - Oostende（平坦）")
    assert "Stage" not in " ".join(names)
    page.goto(f"{base}replay")
    item = page.locator("a[href='/replay/wielersim/spring']")
    assert item.inner_text() == "WielerSIM — spring"  # a saved session has no game number
    page.goto(f"{base}replay/wielersim/spring")
    page.locator(".replay-title").wait_for()
    assert page.locator("h3").first.inner_text() == "プロローグ"
    assert page.js_errors == []
    page.context.close()
