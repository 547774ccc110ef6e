"""Japanese everywhere: every page a guest or a host meets, opened in Japanese, shows no
English word beyond an allow-list (the names the test gave players and the names of the
horses and riders, room codes, units, "PDF", "A4", the brand), in its visible text and in
what a screen reader says (aria-label, title, placeholder, alt, an SVG's title). One
server and one browser for all; each test walks one game through its phases and reports
every leak of every page it opened, not only the first."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from raceday.printing.catalog import games as printed_games
from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
JA = {"raceday.lang": "ja"}
PLAYERS = ("Aki", "Ben")
CREDITS = [info.credit for info in printed_games().values()]

# Words a Japanese page may show in Latin letters: the brand, the games' own names (KEIRIN
# is 競輪 in Japanese), units and formats, "QR" and "CPU" (as Japanese writes them), the
# keys Home and End (named as on the keycap), the language button's "English" (a language
# named in itself); and names: the players' the test
# gave (PLAYERS) and the riders, teams and places of a room's view (NAMED), the horses' (their
# dice, d4 to d20), seats and racers (P1, R2, B2), room codes and Hairpin's squares. Also
# the terminal commands a page quotes (raceday print, raceday wielersim tour), the formats a
# route is imported from (gpx, csv), WielerSIM's route codes on its profile (climbs HC, C1 to
# C3, sprints Sp, as cycling writes them in any language) and the designers the pages credit.
ALLOWED = {"raceday", "pistard", "wielersim", "pdf", "a4", "qr", "cpu", "home", "end", "english",
           "px", "km", "m", "s", "h", "min", "cm", "mm", "kg", "print", "tour", "gpx", "csv",
           "hc", "sp"} | {word.lower() for credit in CREDITS for word in credit.designer.split()}
ALLOWED_WORD = re.compile(r"^(d\d+|[PRB]\d+|[A-Z]{4}|[a-f][1-3]|C[1-4])$")
NAMED = ("riders", "teams", "sections", "route", "players")
URL = re.compile(r"https?://\S+")  # an address is not words (the QR code's alt has one)
WORD = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*\d*")

COLLECT = """() => {
  const texts = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll("[aria-label],[title],[placeholder],[alt]")) {
    for (const a of ["aria-label", "title", "placeholder", "alt"]) {
      const v = el.getAttribute(a);
      if (v) texts.push(v);
    }
  }
  for (const el of document.querySelectorAll("svg title")) texts.push(el.textContent);
  return texts;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # the test's own sockets (one an intent) and pages all come from one address
    app = create_app(tmp_path_factory.mktemp("ja") / "party.sqlite", burst=1000, rate=1000,
                     seats_per_address=100, handshake_burst=1000, handshake_rate=1000,
                     lookup_burst=1000, lookup_rate=1000, create_burst=100, create_rate=100,
                     rooms_per_address=100)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def names_in(view: Any, within: bool = False) -> set[str]:
    """The words of the names in a room's view: a ``name`` of something under one of
    :data:`NAMED` (a rider, a team, a place of the route, a player)."""
    found: set[str] = set()
    if isinstance(view, dict):
        for key, value in view.items():
            if key == "name" and within and isinstance(value, str):
                found |= {w.lower() for w in WORD.findall(value)}
            else:
                found |= names_in(value, within or key in NAMED)
    elif isinstance(view, list):
        for item in view:
            found |= names_in(item, within)
    return found


class Leaks:
    """English words found per page, for one report at the end of a test."""

    def __init__(self) -> None:
        self.found: dict[str, list[str]] = {}
        self.names = {n.lower() for n in PLAYERS}

    def check(self, page: Any, where: str) -> None:
        """Note the English words ``page`` shows or says now as ``where``'s leaks."""
        page.wait_for_load_state("networkidle")
        texts: list[str] = page.evaluate(COLLECT)
        words: list[str] = []
        for text in texts:
            for word in WORD.findall(URL.sub(" ", text)):
                if word.lower() in ALLOWED or word.lower() in self.names or \
                        ALLOWED_WORD.match(word) or len(word) == 1:
                    continue
                if word not in words:
                    words.append(word)
        if words:
            self.found[where] = words
        assert page.js_errors == [], (where, page.js_errors)

    def assert_none(self) -> None:
        report = "\n".join(f"{where}: {' '.join(words)}" for where, words in self.found.items())
        assert not self.found, f"English words on Japanese pages:\n{report}"


def new_room(server: str, game: str, **options: Any) -> dict[str, Any]:
    r = httpx.post(f"{server}api/rooms", json={"game": game, "options": options}, timeout=10)
    assert r.status_code == 201, r.text
    return dict(r.json())


def join(server: str, code: str, name: str) -> str:
    r = httpx.post(f"{server}api/rooms/{code}/join", json={"name": name}, timeout=10)
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def say(server: str, code: str, token: str | None, intent: dict[str, Any]) -> int:
    """Send ``intent`` as the holder of ``token`` and return the revision that holds it."""
    url = server.replace("http://", "ws://").rstrip("/") + f"/ws/{code}"
    with connect(url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
        ws.send(json.dumps({**intent, "ref": 1}))
        for _ in range(1000):
            msg = json.loads(ws.recv(timeout=30))
            if msg.get("ref") == 1:
                assert msg["type"] == "ack", (intent, msg)
                return int(msg["seq"])
    raise AssertionError("no answer")


def drawn(page: Any) -> None:
    """Wait until ``page`` was welcomed into its room and drew what it was sent."""
    for _ in range(300):
        if any('"type":"welcome"' in frame for frame in page.frames_received):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"{page.url} was never welcomed: {page.frames_received[-3:]} "
                             f"{page.inner_text('body')[:300]}")
    page.wait_for_load_state("networkidle")
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def room_view(server: str, code: str, token: str | None) -> dict[str, Any]:
    url = server.replace("http://", "ws://").rstrip("/") + f"/ws/{code}"
    with connect(url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        welcome = json.loads(ws.recv(timeout=30))
    return dict(welcome["view"])


class Party:
    """A room driven over its WebSocket by the host and the players, whose TV (the host's
    page) and first phone are opened in Japanese at each phase to be read (and closed
    before the next intent: one device a seat, and the test's intents are one)."""

    def __init__(self, open_page: Any, server: str, game: str, names: tuple[str, ...],
                 **options: Any) -> None:
        self.open_page, self.server, self.game = open_page, server, game
        self.room = new_room(server, game, **options)
        self.code = self.room["code"]
        self.host_token = self.room["host_token"]
        self.join_page = open_page(PHONE, f"{server}play/{self.code}", JA)
        self.join_page.locator("#name").wait_for()
        self.tokens = [join(server, self.code, name) for name in names]

    def host(self, intent: dict[str, Any]) -> None:
        say(self.server, self.code, self.host_token, intent)

    def seat(self, n: int, intent: dict[str, Any]) -> None:
        say(self.server, self.code, self.tokens[n], intent)

    def view(self, n: int | None = None) -> dict[str, Any]:
        return room_view(self.server, self.code,
                         self.host_token if n is None else self.tokens[n])

    def check_replays(self, leaks: Leaks) -> None:
        """The replay list (which has this finished room) and this room's replay."""
        rooms = httpx.get(f"{self.server}api/replays", timeout=10).json()["rooms"]
        leaks.names |= {w.lower() for room in rooms for winner in room["winners"]
                        for w in WORD.findall(str(winner["name"] or ""))}  # every room's
        listed = self.open_page(TV, f"{self.server}replay", JA)
        listed.locator(f"a[href*='{self.code}']").first.wait_for()
        leaks.check(listed, f"replay list with a {self.game} room")
        for viewport, screen in ((TV, "TV"), (PHONE, "phone")):
            replay = self.open_page(viewport, f"{self.server}replay/room/{self.code}", JA)
            replay.locator(".replay-words").first.wait_for()
            leaks.check(replay, f"{self.game} replay ({screen})")

    def check(self, leaks: Leaks, phase: str) -> None:
        """Open the TV and the first phone now, note their leaks as ``phase``'s, close them."""
        leaks.names |= names_in(self.view(0))
        tv = self.open_page(TV, f"{self.server}host/{self.code}",
                            {**JA, f"raceday.host.{self.code}": self.host_token})
        phone = self.open_page(PHONE, f"{self.server}play/{self.code}",
                               {**JA, f"raceday.seat.{self.code}": self.tokens[0]})
        for page, screen in ((tv, "TV"), (phone, "phone")):
            drawn(page)
            leaks.check(page, f"{self.game} {screen} {phase}")
        for page in (tv, phone):
            page.context.close()


def wait_for_phase(party: Party, phase: str) -> None:
    """Wait (on the server's pace) until the room is in ``phase``."""
    for _ in range(600):
        if party.view(0)["phase"] == phase:
            return
        time.sleep(0.2)
    raise AssertionError(f"the room never came to {phase}")


def ride_to_the_finale(party: Party, leaks: Leaks) -> None:
    """A betting game's first race run and checked, the night ended, its finale and
    replays checked, and no leak found."""
    party.check(leaks, "racing")
    wait_for_phase(party, "betting")
    party.check(leaks, "after the first race")
    party.host({"type": "finish"})
    party.check(leaks, "finale")
    party.check_replays(leaks)
    leaks.assert_none()


def test_common_pages_are_japanese(open_page: Any, server: str) -> None:
    leaks = Leaks()
    for path in ("", "numbers", "replay", "print", "host/ZZZZ", "watch/ZZZZ", "play/ZZZZ",
                 "replay/room/ZZZZ", "nothing/here", "wielersim"):
        for viewport, screen in ((PHONE, "phone"), (TV, "TV")):
            page = open_page(viewport, f"{server}{path}", JA)
            page.locator("main, #app, body").first.wait_for()
            leaks.check(page, f"/{path} ({screen})")
    leaks.assert_none()


def test_a_language_switch_rewords_what_a_screen_reader_says(open_page: Any,
                                                              server: str) -> None:
    """A page opened in English and switched with its language button says the same in
    Japanese as it shows (aria-label, title, placeholder, alt), without a reload."""
    leaks = Leaks()
    room = new_room(server, "derby", races=4)
    code = room["code"]
    join(server, code, "Aki")
    pages = {
        "/": open_page(TV, server),
        "/numbers": open_page(TV, f"{server}numbers"),
        f"/host/{code}": open_page(TV, f"{server}host/{code}",
                                   {f"raceday.host.{code}": room["host_token"]}),
        f"/play/{code}": open_page(PHONE, f"{server}play/{code}"),
        "/wielersim": open_page(TV, f"{server}wielersim"),
    }
    started = {"keirin": {}, "hairpin": {"red": "human", "black": "easy"},
               "pistard": {"variant": "points", "riders_per_player": 1, "track": "short",
                           "players": ["human", "easy"]}, "wielersim": {}}
    for game, options in started.items():
        party = Party(open_page, server, game, PLAYERS[:1], **options)
        party.host({"type": "start"})
        leaks.names |= names_in(party.view(0))
        pages[f"/host/{party.code} ({game}, started)"] = open_page(
            TV, f"{server}host/{party.code}", {f"raceday.host.{party.code}": party.host_token})
        pages[f"/play/{party.code} ({game}, started)"] = open_page(
            PHONE, f"{server}play/{party.code}", {f"raceday.seat.{party.code}": party.tokens[0]})
    for where, page in pages.items():
        page.wait_for_load_state("networkidle")
        page.locator("button.lang").first.click()
        for _ in range(100):  # (a polled wait_for_function would be an eval the CSP refuses)
            if page.evaluate("document.documentElement.lang") == "ja":
                break
            page.wait_for_timeout(50)
        leaks.check(page, f"{where} switched to Japanese")
    leaks.assert_none()


def test_a_derby_evening_is_japanese(open_page: Any, server: str) -> None:
    leaks = Leaks()
    party = Party(open_page, server, "derby", PLAYERS, races=4)
    leaks.check(party.join_page, "derby join page")
    party.check(leaks, "lobby")
    party.host({"type": "start", "computers": 1})
    party.check(leaks, "auction")
    for _ in range(40):
        view = party.view(0)
        if view["phase"] != "auction":
            break
        for n in range(len(PLAYERS)):
            me = party.view(n).get("me", {})
            if me.get("may_bid") and me.get("sealed_bid") is None:
                party.seat(n, {"type": "bid", "amount": 0})
    assert party.view()["phase"] == "betting"
    party.check(leaks, "betting")
    party.seat(0, {"type": "ticket", "kind": "win", "horses": ["d20"], "stake": 500})
    party.host({"type": "pace", "seconds": 0.2})
    for n in range(len(PLAYERS)):
        party.seat(n, {"type": "done"})
    ride_to_the_finale(party, leaks)


def test_a_keirin_night_is_japanese(open_page: Any, server: str) -> None:
    leaks = Leaks()
    party = Party(open_page, server, "keirin", PLAYERS)
    leaks.check(party.join_page, "keirin join page")
    party.check(leaks, "lobby")
    party.host({"type": "start"})
    party.check(leaks, "betting")
    party.seat(0, {"type": "ticket", "kind": "win", "riders": [1], "stake": "100"})
    party.check(leaks, "a ticket bought")
    party.host({"type": "pace", "seconds": 0.2})
    party.host({"type": "close_betting"})
    ride_to_the_finale(party, leaks)


def test_a_hairpin_game_is_japanese(open_page: Any, server: str) -> None:
    leaks = Leaks()
    party = Party(open_page, server, "hairpin", PLAYERS[:1], red="human", black="easy")
    leaks.check(party.join_page, "hairpin join page")
    party.check(leaks, "lobby")
    party.host({"type": "start"})
    party.check(leaks, "Red to move")
    moves = party.view(0)["moves"]
    party.seat(0, {"type": "move", "action": moves[0]["action"]
                   if isinstance(moves[0], dict) else moves[0]})
    party.check(leaks, "after a move")
    party.host({"type": "finish"})
    party.check(leaks, "finale")
    party.check_replays(leaks)
    leaks.assert_none()


def test_a_pistard_race_is_japanese(open_page: Any, server: str) -> None:
    leaks = Leaks()
    party = Party(open_page, server, "pistard", PLAYERS[:1], variant="points",
                  riders_per_player=1, track="short", players=["human", "easy"])
    leaks.check(party.join_page, "pistard join page")
    party.check(leaks, "lobby")
    party.host({"type": "start"})
    party.check(leaks, "placing the riders")
    party.host({"type": "finish"})
    party.check(leaks, "finale")
    party.check_replays(leaks)
    leaks.assert_none()


def test_a_wielersim_race_is_japanese(open_page: Any, server: str) -> None:
    leaks = Leaks()
    party = Party(open_page, server, "wielersim", PLAYERS[:1])
    leaks.check(party.join_page, "wielersim join page")
    party.check(leaks, "lobby")
    party.host({"type": "start"})
    party.check(leaks, "racing")
    watch = open_page(PHONE, f"{server}watch/{party.code}", JA)
    drawn(watch)
    leaks.check(watch, "wielersim /watch on a phone")
    party.host({"type": "finish"})
    party.check(leaks, "finale")
    party.check_replays(leaks)
    leaks.assert_none()


def test_refusals_a_guest_meets_are_japanese(open_page: Any, server: str) -> None:
    """A setup number out of range, a name already taken and a bid beyond one's money are
    refused in Japanese (a wrong room code's page is one of the common pages), and a
    refusal the server gave no words for is a Japanese sentence, not the server's English."""
    leaks = Leaks()
    landing = open_page(PHONE, server, JA)
    landing.fill("#pistard-setup input[name=tokens]", "99")
    landing.locator("#pistard-setup button[type=submit]").click()
    landing.locator("#pistard-setup .field-error").wait_for()
    leaks.check(landing, "landing: a setup number out of range")
    party = Party(open_page, server, "derby", PLAYERS, races=4)
    party.join_page.fill("#name", "Aki")
    party.join_page.keyboard.press("Enter")
    party.join_page.locator(".error:not(:empty)").first.wait_for()
    leaks.check(party.join_page, "join page: a name already taken")
    party.host({"type": "start", "computers": 1})
    phone = open_page(PHONE, f"{server}play/{party.code}",
                      {**JA, f"raceday.seat.{party.code}": party.tokens[0]})
    drawn(phone)
    bid = phone.locator("input[type=number], input[inputmode=numeric]").first
    bid.fill("999900")
    bid.press("Enter")
    phone.locator(".error:not(:empty)").first.wait_for()
    leaks.check(phone, "derby phone: a bid beyond one's money")
    unworded = phone.evaluate("""() => import("/static/js/i18n.js").then((m) =>
        [m.refusal({}, "some English reason"), m.refusal({ words: { key: "refusal.room_full",
         params: { max: 8 } } }, "the room is full")])""")
    assert unworded[0] == "理由は日本語では示されていません"
    assert unworded[1].startswith("ルームは満員です")
    leaks.assert_none()
