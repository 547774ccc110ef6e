"""The replay page opens a game's record: chosen with its button (reached by the keyboard)
the record is sent to the server, played through the rules, and drawn step by step with
the game's board; a corrupted record is refused with its line's number, in English and in
Japanese; nothing scrolls sideways on a phone, and axe finds no serious violation."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[2]))  # the repository: tests.web
from a11y import assert_accessible, turn_to, wait_for_style_sheets
from shots import keep_shot
from tests.web.test_room_records import played_to_the_end, terminal_game

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


def finished_record(tmp_path: Path) -> tuple[Path, int]:
    """A whole short Hairpin game as the terminal saves it; its file and its moves."""
    session = played_to_the_end(terminal_game(plies=4))
    path = tmp_path / "aki-vs-computer.record"
    record = session.record()
    path.write_text(record.text(), encoding="utf-8")
    return path, len(record.moves)


def _choose(page: Any, path: Path) -> None:
    """Open the file chooser from the keyboard (the file input, named by its label, takes
    the focus; Space opens it) and pick ``path``."""
    chooser_input = page.get_by_label(re.compile("Choose a record file|記録ファイルを選ぶ"))
    chooser_input.focus()
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Space")
    chooser.value.set_files(str(path))


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_a_record_file_opens_on_the_replay_page(open_page: Any, base: str,
                                                tmp_path: Path) -> None:
    from playwright.sync_api import expect

    path, moves = finished_record(tmp_path)
    page = open_page(PHONE, f"{base}replay")
    wait_for_style_sheets(page)
    card = page.locator("section.record-open")
    expect(card.get_by_role("heading", name="Open a record")).to_be_visible()
    expect(card).to_contain_text("Drop a record file here")
    _no_sideways_scroll(page)
    assert_accessible(page, "the replay list with its record card, phone")
    keep_shot(page, "replay-record/open-phone.png", full_page=True)
    turn_to(page, TV)
    keep_shot(page, "replay-record/open-tv.png")
    _choose(page, path)
    status = page.locator(".replay-controls p.status")
    expect(status).to_have_text(f"Step 1 of {moves + 1}")
    expect(page.locator(".replay-board svg.hp-board")).to_be_visible()
    expect(page.locator(".replay-words")).to_contain_text("The start")
    expect(page.locator(".replay-up")).to_contain_text("aki-vs-computer.record")
    page.locator(".replay-words").focus()
    page.keyboard.press("ArrowRight")
    expect(status).to_have_text(f"Step 2 of {moves + 1}")
    expect(page.locator(".replay-words h3")).to_contain_text(re.compile(r"Move 1: Aki — \S"))
    page.keyboard.press("End")
    expect(status).to_have_text(f"Step {moves + 1} of {moves + 1}")
    keep_shot(page, "replay-record/opened-tv.png")
    assert_accessible(page, "a record opened, TV")
    turn_to(page, PHONE)
    _no_sideways_scroll(page)
    keep_shot(page, "replay-record/opened-phone.png", full_page=True)
    assert page.js_errors == []


def test_a_corrupted_record_is_refused_with_its_line(open_page: Any, base: str,
                                                     tmp_path: Path) -> None:
    from playwright.sync_api import expect

    path, _ = finished_record(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    bad = next(i for i, line in enumerate(lines, 1) if line.startswith("p2:"))
    lines[bad - 1] = "p2: teleport"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page = open_page(PHONE, f"{base}replay")
    _choose(page, path)
    alert = page.locator("section.record-open [role=alert]")
    expect(alert).to_contain_text(f"line {bad}")
    expect(alert).to_contain_text("aki-vs-computer.record cannot be opened")
    keep_shot(page, "replay-record/refused-phone.png", full_page=True)
    page.locator("button.lang").click()  # the same refusal in Japanese
    expect(alert).to_contain_text(f"{bad}行目")
    expect(alert).to_contain_text("開けません")
    keep_shot(page, "replay-record/refused-phone-ja.png", full_page=True)
    assert page.locator(".replay-controls").count() == 0  # no player for a bad record
    assert page.js_errors == []


def test_the_host_link_serve_record_prints_opens_the_room_as_its_host(
        open_page: Any, base: str, tmp_path: Path) -> None:
    """The big screen's link (``/host/CODE#host=KEY``) keeps the key in the browser, takes
    it out of the address bar, and the screen runs the room: its start goes on from the
    record."""
    import json
    import urllib.request

    from playwright.sync_api import expect

    text = terminal_game(plies=4).record().text()
    request = urllib.request.Request(f"{base}api/rooms/from-record", data=text.encode(),
                                     headers={"Content-Type": "text/plain",
                                              "Origin": base.rstrip("/")}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as answer:
        room = json.loads(answer.read())
    page = open_page(TV, f"{base}host/{room['code']}#host={room['host_token']}")
    expect(page.locator("header .role")).to_have_text("Host")
    assert "#host=" not in page.url
    page.get_by_role("button", name=re.compile("^Start")).click()
    expect(page.locator("header .role")).to_have_text("Host")
    keep_shot(page, "replay-record/room-from-record-tv.png")
    assert page.js_errors == []
