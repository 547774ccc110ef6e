"""Names the Japanese pages word in Japanese: KEIRIN is 競輪 wherever the page is Japanese
(its name, headings, the numbers page, the terminal's titles)."""

from __future__ import annotations

from raceday.present import render, table


def test_keirin_is_keirin_in_kanji_in_japanese() -> None:
    latin = {key: text for key, text in table("ja").entries.items() if "KEIRIN" in text}
    assert latin == {}
    assert render("keirin.title", "ja") == render("keirin.keirin", "ja") == "競輪"
    assert render("keirin.title", "en") == "KEIRIN"
