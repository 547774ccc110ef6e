"""Refusals in words from the tables: a refusal's text is its English, it carries the
message for a page to word in its reader's language, every refusal key has English and
Japanese with the same slots, and the server sends the words with its 4xx answers and its
WebSocket errors (nested messages as JSON)."""

from __future__ import annotations

import re
from pathlib import Path

from raceday.core.events import Message
from raceday.present import refusal, render, table
from raceday.rooms import RoomError
from tests.web.conftest import Client, join, serving

SLOT = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def test_a_refusal_is_english_text_carrying_its_message() -> None:
    error = refusal(RoomError, "refusal.room_full", max=8)
    assert isinstance(error, RoomError)
    assert str(error) == "the room is full (8 players); watch with the spectator link"
    assert error.message == Message("refusal.room_full", {"max": 8})
    assert render(error.message, "ja") == "ルームは満員です（8人）。観戦用リンクからご覧ください"
    started = refusal(RoomError, "refusal.already_started", noun=Message("noun.race"))
    assert str(started) == "the race has already started"
    assert render(started.message.to_json(), "ja") == "レースはもう始まっています"


def test_every_refusal_has_both_languages_with_the_same_slots() -> None:
    english, japanese = table("en").entries, table("ja").entries
    keys = [k for k in english if k.split(".")[-2:-1] == ["refusal"] or k.startswith(
        ("refusal.", "noun."))]
    assert len(keys) > 30
    for key in keys:
        assert key in japanese, key
        assert set(SLOT.findall(english[key])) == set(SLOT.findall(japanese[key])), key
        assert japanese[key] != english[key] or key.startswith("noun."), key


def test_the_server_sends_the_words_of_its_refusals(tmp_path: Path) -> None:
    with serving(tmp_path / "party.sqlite") as tc:
        r = tc.post("/api/rooms", json={"game": "pistard", "options": {
            "variant": "scratch", "riders_per_player": 1, "track": "short",
            "players": ["human", "human"]}})
        room = r.json()
        code = room["code"]
        aki = join(tc, code, "Aki")
        join(tc, code, "Ben")
        full = tc.post(f"/api/rooms/{code}/join", json={"name": "Chie"})
        assert full.status_code == 409
        assert full.json()["words"] == {"key": "refusal.places_taken", "params": {}}
        missing = tc.post("/api/rooms/ZZZZ/join", json={"name": "Chie"})
        assert missing.status_code == 404
        assert render(missing.json()["words"], "ja") == \
            "ルーム'ZZZZ'はありません。コードをお確かめください"
        phone = Client(tc, code, aki["token"])
        answer = phone.send({"type": "undo"})
        assert answer["type"] == "error"
        assert answer["message"] == "a player cannot send 'undo' in PISTARD"
        assert answer["words"]["params"]["who"] == {"key": "refusal.who_player", "params": {}}
        assert render(answer["words"], "ja") == "プレイヤーはPISTARDで'undo'を送れません"


def test_a_game_options_refusal_carries_its_words_in_both_languages() -> None:
    from raceday.core.errors import OptionsError
    from raceday.games.keirin.night import NightOptions

    cases = [({"riders": 4}, "refusal.option_range"), ({"nonsense": 1}, "refusal.option_unknown"),
             ({"riders": "x"}, "refusal.option_value")]
    for raw, key in cases:
        try:
            NightOptions.parse(raw)
        except OptionsError as exc:
            assert exc.message is not None and exc.message.key == key
            assert render(exc.message, "en") == str(exc)  # the English is the text itself
            japanese = render(exc.message, "ja")
            assert japanese != str(exc) and "設定" in japanese
        else:
            raise AssertionError(f"{raw} was taken")


def test_a_check_across_options_gives_its_reason_in_the_reader_s_language() -> None:
    """A game's own check that raises a worded refusal (PISTARD's variant against the
    players) is Japanese inside the options' Japanese words, on the command line too
    (#43: 'PISTARD options: ttt needs exactly 1 player' in a --lang ja run)."""
    from raceday.core.errors import OptionsError
    from raceday.games.pistard.options import PistardOptions
    from raceday.terminal.options import GivenOptions

    try:
        PistardOptions.parse({"variant": "ttt", "players": 2})
    except OptionsError as exc:
        assert str(exc) == "PISTARD options: ttt needs exactly 1 player, got 2"
        assert exc.message is not None and exc.message.key == "refusal.options"
        assert render(exc.message, "en") == str(exc)
        assert render(exc.message, "ja") == ("PISTARDの設定が合いません："
                                             "チームタイムトライアルは1人で遊びます（指定：2人）")
    else:
        raise AssertionError("ttt with two players was taken")
    given = GivenOptions(PistardOptions, [], {})
    try:
        given.parse(variant="ttt", players=2)
    except OptionsError as exc:
        assert exc.message is not None
        assert "1人で遊びます" in render(exc.message, "ja")
    else:
        raise AssertionError("ttt with two players was taken")


def test_the_server_words_a_room_options_refusal(tmp_path: Path) -> None:
    with serving(tmp_path / "rooms.sqlite") as tc:
        answer = tc.post("/api/rooms", json={"game": "keirin", "options": {"riders": 4}})
        assert answer.status_code == 400
        body = answer.json()
        assert body["error"] == "KEIRIN option riders: must be from 6 to 9, got 4"
        assert render(body["words"], "ja") == \
            "競輪の設定 riders は 6〜9 の範囲で指定してください（入力：4）"  # 競輪 in Japanese


def test_a_horse_that_is_not_there_is_refused_in_words() -> None:
    from raceday.core.errors import OptionsError
    from raceday.games.derby.rules import parse_horse

    try:
        parse_horse("d99")
    except OptionsError as exc:
        assert str(exc) == ("there is no horse 'd99'; name one of posts 1-6 or dice "
                            "d4, d6, d8, d10, d12, d20")
        assert exc.message is not None
        assert render(exc.message, "ja") == ("'d99' という馬はいません。枠番 1〜6 か、サイコロ "
                                             "d4、d6、d8、d10、d12、d20 で指定してください")
    else:
        raise AssertionError("d99 was taken")


def test_a_value_of_the_wrong_kind_is_refused_in_the_reader_s_words() -> None:
    """An option pydantic refuses for its kind (text for a whole number) gives its reason in
    Japanese too, not the English reason inside the Japanese sentence."""
    from raceday.core.errors import OptionsError
    from raceday.games.keirin.night import NightOptions

    try:
        NightOptions.parse({"riders": "x"})
    except OptionsError as exc:
        assert exc.message is not None
        assert render(exc.message, "en") == str(exc)
        assert render(exc.message, "ja").endswith("6〜9の整数で指定してください（入力：'x'）")
    else:
        raise AssertionError("riders 'x' was taken")
