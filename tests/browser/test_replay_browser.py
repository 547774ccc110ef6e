"""Chromium opens the replay of a room of each game (played to its end in-process), sees
the game's own board drawn at every step, scrubs, steps with the keys and the buttons,
plays and pauses, shares a link to a step and switches language; no step reads as a raw
dump; nothing scrolls sideways on a phone and the TV page fits its screen; axe finds no
serious violation on either. A WielerSIM stage film and a saved Hairpin game too."""

from __future__ import annotations

import re
import sqlite3
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*", category=DeprecationWarning)

from fastapi.testclient import TestClient  # noqa: E402

from raceday.web.app import create_app  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[2]))  # the repository: tests.web
from a11y import assert_accessible, turn_to, wait_for_style_sheets  # noqa: E402
from tests.web.test_replay_frames import play_room  # noqa: E402

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
TITLES = {"hairpin": "Hairpin Racers", "pistard": "PISTARD", "keirin": "KEIRIN",
          "derby": "Dice Derby", "wielersim": "WielerSIM"}
BOARDS = {"hairpin": "svg.hp-board", "pistard": "svg.pi-track", "keirin": "svg.velodrome",
          "derby": ".dd-track", "wielersim": "svg.profile"}  # WielerSIM: a watch room's film
# Dice Derby's horses (runners) that stand outside their own lane on the replay's course.
RUNNERS_OUT_OF_LANE = """() => [...document.querySelectorAll(".replay-board .dd-lane")]
  .filter((lane) => lane.querySelector(".dd-runner")).filter((lane) => {
    const l = lane.getBoundingClientRect();
    const r = lane.querySelector(".dd-runner").getBoundingClientRect();
    const mid = (r.top + r.bottom) / 2;
    return mid < l.top || mid > l.bottom || r.left < l.left - 1 || r.right > l.right + 1;
  }).map((lane) => lane.textContent.trim().slice(0, 20))"""
BARE_KEY = re.compile(r"\b[a-z]+(?:_[a-z]+)*\.[a-z_]+\b")  # a message key, not its words
DUMP = re.compile(r"[{}]|: null|\[\]|\w: [\[{(]|'\w+': |\"\w+\": ?")


def _status(page: Any) -> str:
    return str(page.inner_text(".replay-controls p.status"))


def _until(page: Any, check: Any, what: str, bound_ms: int = 20_000) -> None:
    """Wait until ``check()`` holds (polled from here: the page's CSP forbids the eval a
    page-side wait_for_function uses); ``bound_ms`` is only a hang guard."""
    for _ in range(bound_ms // 50):
        if check():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"never: {what}")


def _at(page: Any, n: int, total: int, words: str = "Step {n} of {total}") -> None:
    from playwright.sync_api import expect

    expect(page.locator(".replay-controls p.status")).to_have_text(
        words.format(n=n, total=total))


def _board(page: Any) -> str:
    return str(page.inner_html(".replay-board"))


def _changing_step(data: dict[str, Any]) -> int:
    """A step (1-based) in the middle whose next step draws another frame."""
    frames = [s.get("frame") for s in data["steps"]]
    middle = len(frames) // 2
    for i in [*range(middle, len(frames) - 1), *range(middle)]:
        if frames[i] is not None and frames[i + 1] is not None and frames[i] != frames[i + 1]:
            return i + 1
    raise AssertionError("no step changes the board")


def _fits(page: Any, tv: bool) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{width} px wide"
    if tv:
        wait_for_style_sheets(page)
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= page.viewport_size["height"], f"{height} px tall on the TV"
        size = page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                             "'.replay-main')).fontSize)")
        assert size >= 28, f"{size} px text on the TV"


def _fits_at(page: Any, viewport: dict[str, int], what: str) -> None:
    """The page, opened at ``viewport``, fits it and passes axe."""
    _fits(page, viewport is TV)
    assert_accessible(page, f"{what}, {viewport['width']} px")


def _no_dumps(page: Any) -> None:
    words = page.inner_text(".replay-words")
    assert words.strip() and not DUMP.search(words), words
    column = page.locator(".replay-board-col")
    board = column.inner_text() if column.count() else ""
    assert not DUMP.search(board) and not BARE_KEY.search(board), board  # the board's labels


@dataclass(frozen=True)
class Played:
    """One database with a finished room of every game (played once for the module: the
    tests only read it)."""

    db: Path
    codes: dict[str, str]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    db = tmp_path_factory.mktemp("replays") / "party.sqlite"
    return Played(db, {game: play_room(db, game, seed=11) for game in sorted(TITLES)})


@pytest.mark.parametrize("game", sorted(TITLES))
def test_a_room_replay_of_each_game_shows_its_board(
        game: str, open_page: Any, played: Played) -> None:
    from raceday.web.server import background_server

    db, code = played.db, played.codes[game]
    with TestClient(create_app(db)) as tc:
        data = tc.get(f"/api/replay/room/{code}").json()
    total = len(data["steps"])
    step = _changing_step(data)
    with background_server(create_app(db)) as base:
        for viewport in (PHONE, TV):  # a fresh page a size: a page turned from the
            # phone's size to the TV's kept a phone's layout on a busy machine
            page = open_page(viewport, f"{base}replay")
            link = page.get_by_role("link", name=f"{TITLES[game]} — {code}")
            link.wait_for()  # the list itself is checked once: see the test below
            link.click()
            page.wait_for_selector(f".replay-board {BOARDS[game]}")  # the game's own drawing
            assert page.url.endswith(f"/replay/room/{code}#step=1")  # an old link: the start
            assert _status(page) == f"Step 1 of {total}"
            _no_dumps(page)
            _fits_at(page, viewport, f"{game} replay at the start")
            # the scrubber, then the keys and the buttons
            scrub = page.get_by_label("Step", exact=True)
            scrub.fill(str(step))
            _at(page, step, total)
            assert page.url.endswith(f"#step={step}")
            before = _board(page)
            page.locator("h2.replay-title").click()  # the keys work wherever focus is
            page.keyboard.press("ArrowRight")
            _at(page, step + 1, total)
            _until(page, lambda p=page, b=before: _board(p) != b, "the board changes")
            if game == "hairpin":  # the step's move traced on the board, as live
                assert page.locator(".replay-board .hp-trail").count() == 1
            _no_dumps(page)
            page.keyboard.press("ArrowLeft")
            _at(page, step, total)
            page.keyboard.press("End")
            _at(page, total, total)
            page.keyboard.press("Home")
            _at(page, 1, total)
            page.get_by_role("button", name="To the end").focus()
            page.keyboard.press("Enter")
            _at(page, total, total)
            assert page.locator(".replay-words .podium li").count() >= 1  # the end's podium
            assert page.get_by_role("button", name="To the end").is_disabled()  # so focus
            # goes on to the scrubber (never to the page's body)
            assert page.evaluate("document.activeElement.id") == "replay-scrub"
            _no_dumps(page)
            _fits_at(page, viewport, f"{game} replay at the end")
            page.locator("h2.replay-title").click()
            page.keyboard.press("Home")
            _at(page, 1, total)
            page.get_by_role("button", name="Next").click()
            _at(page, 2, total)
            page.get_by_label("Speed").select_option("4")
            page.locator("h2.replay-title").click()
            page.keyboard.press("Space")  # plays ...
            play = page.locator("[data-act=play]")
            _until(page, lambda b=play: b.get_attribute("aria-pressed") == "true", "it plays")
            _until(page, lambda p=page: int(p.input_value("#replay-scrub")) >= 4, "steps go by")
            page.get_by_role("button", name="Pause").click()  # ... and pauses
            paused = _status(page)
            assert page.get_by_role("button", name="Play").is_visible()
            assert _status(page) == paused
            # a shared link opens at its step, in the reader's language after a switch
            page.goto(f"{base}replay/room/{code}#step={step}")
            _at(page, step, total)
            page.locator("button.lang").click()
            _at(page, step, total, "{total}手中{n}手目")
            assert page.get_by_label("手順").input_value() == str(step)
            _no_dumps(page)
            _fits_at(page, viewport, f"{game} replay in Japanese")
            assert page.js_errors == []
            page.context.close()


def test_the_list_of_replays_names_every_room_fits_and_is_accessible(
        open_page: Any, played: Played) -> None:
    from raceday.web.server import background_server

    with background_server(create_app(played.db)) as base:
        for viewport in (PHONE, TV):
            page = open_page(viewport, f"{base}replay")
            for game, code in played.codes.items():
                page.get_by_role("link", name=f"{TITLES[game]} — {code}").wait_for()
            _fits(page, viewport is TV)
            assert_accessible(page, f"the list of replays, {viewport['width']} px")
            assert page.js_errors == []
            page.context.close()


def test_a_stage_film_replays_on_the_same_player(open_page: Any, tmp_path: Path) -> None:
    from raceday.web.server import background_server

    db = tmp_path / "party.sqlite"
    with TestClient(create_app(db)) as tc:
        key = tc.post("/api/wielersim/campaigns", json={
            "tour": "ronde-van-belgie", "peloton": "classics", "seed": 4,
            "name": "rvb"}).json()["key"]
        for stage in range(2):
            tc.post("/api/wielersim/campaigns/rvb/ride", json={"stage": stage},
                    headers={"x-campaign-key": key})
        frames = len(tc.get("/api/replay/wielersim/rvb/1").json()["frames"])
    with background_server(create_app(db)) as base:
        for viewport in (PHONE, TV):
            page = open_page(viewport, f"{base}replay/wielersim/rvb")  # the shared link
            page.wait_for_selector(".replay-words")
            page.get_by_role("button", name="To the end").click()
            page.locator(".replay-words").get_by_role("link", name="Watch this stage").click()
            page.wait_for_selector(".replay-board .profile")
            assert "/replay/wielersim/rvb/1" in page.url
            assert _status(page) == f"Step 1 of {frames + 1}"
            page.get_by_label("Step", exact=True).fill(str(frames // 2))
            _at(page, frames // 2, frames + 1)
            assert page.locator(".replay-board .grp").count() > 0  # the groups on the road
            page.locator("h2.replay-title").click()
            page.keyboard.press("End")
            page.wait_for_selector(".film-result table")
            _fits(page, viewport is TV)
            assert_accessible(page, f"stage film at the end, {viewport['width']} px")
            assert page.js_errors == []
            page.context.close()


def test_a_finished_game_replays_its_board_and_result_in_both_languages(
        open_page: Any, tmp_path: Path) -> None:
    from raceday.core.agents import RandomAgent
    from raceday.games.hairpin import GAME as HAIRPIN
    from raceday.present import describe_result
    from raceday.store.sessions import SessionStore
    from raceday.web.server import background_server

    db = tmp_path / "party.sqlite"
    final = HAIRPIN.play(None, [RandomAgent(), RandomAgent()], rng=3).final_state
    with TestClient(create_app(db)):
        pass  # the server makes its tables
    SessionStore(db).save("hairpin", "done", {"state": final.to_json(), "red": "random",
                                              "black": "random", "undo": [], "rng": {}})
    with background_server(create_app(db)) as base:
        page = open_page(PHONE, f"{base}replay/hairpin/done")
        board = page.locator(".replay-board svg.hp-board")  # Hairpin's frame.js draws it
        board.wait_for()
        step = page.inner_text(".replay-words")
        assert "Final position" in step and describe_result(final, "en") in step
        assert board.get_attribute("data-ply") == str(final.frame()["ply"])
        assert page.locator(".replay-board [data-square]").count() == 18
        _fits(page, False)
        page.locator("button.lang").click()
        page.wait_for_selector(".replay-words h3:text-is('最終局面')")
        assert describe_result(final, "ja") in page.inner_text(".replay-words")
        assert page.js_errors == []


def test_a_room_without_a_board_still_replays_in_words(open_page: Any, tmp_path: Path) -> None:
    """A room still in its lobby when it ended: joins only, no board, words and the player."""
    from raceday.web.server import background_server

    db = tmp_path / "party.sqlite"
    with TestClient(create_app(db)) as tc:
        room = tc.post("/api/rooms", json={"game": "derby", "options": {"races": 4}}).json()
        for name in ("Aki", "Ben", "Chie"):
            assert tc.post(f"/api/rooms/{room['code']}/join", json={"name": name}).is_success
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rooms SET finished = 1")
    with background_server(create_app(db)) as base:
        page = open_page(PHONE, f"{base}replay/room/{room['code']}#step=2")
        _at(page, 2, 4)
        assert "Aki joins" in page.inner_text(".replay-words")
        assert page.locator(".replay-board").count() == 0
        page.keyboard.press("ArrowRight")
        assert "Ben joins" in page.inner_text(".replay-words")
        _fits(page, False)
        assert_accessible(page, "a replay in words")
        assert page.js_errors == []


def test_every_room_replay_fits_the_narrowest_and_widest_phones(
        open_page: Any, played: Played) -> None:
    from playwright.sync_api import expect

    from raceday.web.server import background_server

    codes = played.codes
    with background_server(create_app(played.db)) as base:
        for game, code in codes.items():
            page = open_page({"width": 360, "height": 800}, f"{base}replay/room/{code}")
            page.wait_for_selector(f".replay-board {BOARDS[game]}")
            for key, out in (("End", "To the end"), ("Home", "Back")):  # the last step
                page.locator("h2.replay-title").click()  # (its podium too), the first
                page.keyboard.press(key)
                expect(page.get_by_role("button", name=out, exact=True)).to_be_disabled()
                for width in (360, 430):  # the same page turned to each phone's width
                    turn_to(page, {"width": width, "height": 800})
                    _fits(page, False)
                    if game == "derby":
                        assert page.evaluate(RUNNERS_OUT_OF_LANE) == [], (width, key)
                page.set_viewport_size({"width": 360, "height": 800})
            assert page.js_errors == []
            page.context.close()


AMOUNT_KEYS = {"amount", "price", "money", "repay", "score", "stake", "pays", "net", "purse",
               "pool", "payout"}


def _big_amount(value: Any, key: str = "") -> int | None:
    """An amount of money of 1,000 or more in a message's params (nested ones too)."""
    if isinstance(value, int) and not isinstance(value, bool) and key in AMOUNT_KEYS \
            and value >= 1000:
        return value
    items = value.items() if isinstance(value, dict) else (
        (key, v) for v in value) if isinstance(value, list) else ()
    for k, v in items:
        found = _big_amount(v, k)
        if found is not None:
            return found
    return None


def test_amounts_in_a_replay_read_as_on_the_live_pages(open_page: Any, played: Played) -> None:
    """Dice Derby's money in a replay's words has thousands separators (1,400), as live."""
    from raceday.web.server import background_server

    game = "derby"  # KEIRIN's played night shows no amount of 1,000 or more
    code = played.codes[game]
    with TestClient(create_app(played.db)) as tc:
        data = tc.get(f"/api/replay/room/{code}").json()
    from raceday.core.events import Message
    from raceday.present.messages import render

    def shown(event: dict[str, Any]) -> int | None:  # an amount the event's words show
        amount = _big_amount(event)
        words = render(Message(event["key"], event["params"]), "en", game)
        return amount if amount is not None and str(amount) in words else None

    step, amount = next((n, a) for n, s in enumerate(data["steps"], start=1)
                        for e in s.get("events", []) for a in [shown(e)] if a is not None)
    with background_server(create_app(played.db)) as base:
        page = open_page(PHONE, f"{base}replay/room/{code}#step={step}")
        page.wait_for_selector(".replay-words li")
        _until(page, lambda: f"{amount:,}" in page.inner_text(".replay-words"),
               f"{amount:,} in the words of step {step}")
        assert page.js_errors == []


def test_the_list_of_replays_says_who_won_each_room(open_page: Any, played: Played) -> None:
    from raceday.web.server import background_server

    with TestClient(create_app(played.db)) as tc:
        listed = {r["name"]: r for r in tc.get("/api/replays").json()["rooms"]}
    with background_server(create_app(played.db)) as base:
        page = open_page(PHONE, f"{base}replay")
        for game, code in played.codes.items():
            winners = listed[code]["winners"]
            assert winners, f"{game}: no winner listed"
            item = page.locator("ul.replays li").filter(
                has=page.get_by_role("link", name=f"{TITLES[game]} — {code}"))
            words = item.locator(".winners").inner_text()
            assert "won by" in words
            first = winners[0]["name"] if winners[0]["who"] is None else None
            if first:  # a person's own name; a computer's is worded by its level
                assert first in words
        assert page.js_errors == []


def test_each_game_of_a_room_played_again_has_its_own_link(
        open_page: Any, tmp_path: Path) -> None:
    """A room whose first game "again" followed (its log's first two steps kept in
    room_games) lists both games; the first opens at its own link with its own steps."""
    from raceday.web.server import background_server

    db = tmp_path / "party.sqlite"
    with TestClient(create_app(db)) as tc:
        code = tc.post("/api/rooms", json={"game": "derby", "options": {"races": 4}}).json()[
            "code"]
        assert tc.post(f"/api/rooms/{code}/join", json={"name": "Aki"}).is_success
        with sqlite3.connect(db) as conn:
            conn.execute("INSERT INTO room_games (code, first_seq, last_seq, state) "
                         "SELECT code, 1, revision, state FROM rooms")
        assert tc.post(f"/api/rooms/{code}/join", json={"name": "Ben"}).is_success
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rooms SET finished = 1")
    with background_server(create_app(db)) as base:
        page = open_page(PHONE, f"{base}replay")
        latest = page.get_by_role("link", name=f"Dice Derby — {code} · 2")
        assert latest.get_attribute("href") == f"/replay/room/{code}"
        page.get_by_role("link", name=f"Dice Derby — {code} · 1").click()
        _at(page, 1, 2)
        assert f"/replay/room/{code}/1#" in page.url
        page.keyboard.press("ArrowRight")
        assert "Aki joins" in page.inner_text(".replay-words")
        assert page.js_errors == []
