"""The turn rooms' TVs read from the sofa, in English and Japanese: every text node of
Hairpin's, PISTARD's (a scratch race and a points race) and WielerSIM's host screen at
1920x1080 is drawn at 28 px or more (tv_text.small_tv_text: the header, the track's lane
numbers and riders' numbers, the podium's details) in the lobby, during the race and at the
finish, and the page stays on the screen. WielerSIM's pictures keep their words clear: a
climb's label is never under a group's disc, the lobby's axis labels stay inside their box,
the podium's names are one line each. One server and one browser for the module."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from a11y import settle_animations, wait_for_style_sheets
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from turn_show import TV, host_page, host_says, new_room
from tv_text import small_tv_text

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
LANGS = ("en", "ja")
ROOMS = {
    "hairpin": ("hairpin", {"variant": "short", "red": "human", "black": "easy"}),
    "pistard-scratch": ("pistard", {"variant": "scratch", "players": ["human", "easy"],
                                    "riders_per_player": 2, "track": "short"}),
    # a crowded field (10 riders): its ranking ran under the TV's edge at the finish
    "pistard-points": ("pistard", {"variant": "points",
                                   "players": ["human", "easy", "easy", "easy", "easy"],
                                   "riders_per_player": 2, "laps": 1}),
}
CHOICE = {"hairpin": "button.hp-move, button.hp-pit",
          "pistard": ".pi-choices button, .pi-place-grid button"}
RESULT = {"hairpin": ".hp-result", "pistard": ".pi-result"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    app = create_app(tmp_path_factory.mktemp("turn-tv") / "party.sqlite", burst=1000, rate=1000)
    with background_server(app, host="127.0.0.1") as url:
        yield url


def read_from_the_sofa(tv: Any, where: str) -> None:
    """Every text on the TV at 28 px or more, and the whole page on its 1920x1080."""
    wait_for_style_sheets(tv)
    settle_animations(tv)
    small = small_tv_text(tv)
    assert not small, (where, small[:6])
    size = tv.evaluate("[document.documentElement.scrollWidth,"
                       " document.documentElement.scrollHeight]")
    assert size[0] <= TV["width"] and size[1] <= TV["height"], (where, size)


def tv_and_aki(open_page: Any, server: str, room: dict[str, Any], lang: str) -> tuple[Any, Any]:
    """``room``'s big screen (1920×1080) and a phone that joined it as Aki, once the big
    screen lists Aki; both in ``lang``."""
    tv = host_page(open_page, TV, server, room, lang=lang)
    phone = open_page(PHONE, f"{server}play/{room['code']}", {"raceday.lang": lang})
    phone.fill("#name", "Aki")
    phone.keyboard.press("Enter")
    tv.get_by_text("Aki").first.wait_for()
    return tv, phone


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(ROOMS))
def test_a_turn_rooms_tv_reads_from_the_sofa_in_every_phase(
        open_page: Any, server: str, name: str, lang: str) -> None:
    game, options = ROOMS[name]
    room = new_room(server, game, **options)
    # the computers' moves at the quickest pace the room allows: the race is walked, not watched
    host_says(server, room["code"], room["host_token"], {"type": "pace", "seconds": 0.2})
    tv, phone = tv_and_aki(open_page, server, room, lang)
    tv.locator("#start").wait_for()
    read_from_the_sofa(tv, f"{name} {lang} lobby")
    tv.click("#start")
    # the phone plays (its last choice each time: the furthest move); the TV watches
    for turn in range(400):
        phone.wait_for_selector(f"{CHOICE[game]}, {RESULT[game]}")
        if phone.locator(RESULT[game]).count():
            break
        if turn == 3:  # the race under way: riders on the track, the throw, the standings
            tv.locator(".pi-rider, .hp-board").first.wait_for()
            read_from_the_sofa(tv, f"{name} {lang} race")
        try:
            phone.locator(CHOICE[game]).last.click(timeout=5_000)
        except Exception:  # redrawn under the click: choose again
            continue
    tv.locator(".finale .podium").wait_for()
    read_from_the_sofa(tv, f"{name} {lang} finish")
    # the phone's ranking: each place ("1st", "1着") on one line, no sideways scroll
    lines = phone.locator(".pi-ranking td:first-child").evaluate_all("""(cells) =>
        cells.map((c) => { const range = document.createRange(); range.selectNodeContents(c);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; })""")
    assert all(n == 1 for n in lines), lines
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert tv.js_errors == [] and phone.js_errors == []


# Every drawing of the profile, as it happens: after each frame's discs are placed, the
# climbs' labels that a disc covers (boxes on the screen, a pixel's grace).
OVERLAPS = """() => {
  window.__covered = [];
  window.__frames = 0;
  const profile = document.querySelector("svg.profile");
  const check = () => {
    window.__frames += 1;
    const discs = [...profile.querySelectorAll('.grp circle')]
      .map((c) => c.getBoundingClientRect());
    for (const label of profile.querySelectorAll('.climb-label')) {
      const b = label.getBoundingClientRect();
      for (const d of discs) {
        if (d.left < b.right - 1 && b.left + 1 < d.right
            && d.top < b.bottom - 1 && b.top + 1 < d.bottom)
          window.__covered.push(`${label.textContent} under a disc at turn ${
            document.querySelector('.film-where').textContent}`);
      }
    }
  };
  new MutationObserver(check)
    .observe(profile, { subtree: true, attributes: true, childList: true });
}"""

ONE_LINE = """(names) => names.map((n) => { const range = document.createRange();
  range.selectNodeContents(n.firstChild);
  return [n.firstChild.textContent, new Set([...range.getClientRects()]
    .map((r) => Math.round(r.top))).size]; })"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_wielersim_tv_reads_from_the_sofa_and_keeps_its_words_clear(
        open_page: Any, server: str, lang: str) -> None:
    tv = open_page(TV, f"{server}wielersim?route=flanders&peloton=classics&seed=11",
                   {"raceday.lang": lang})
    tv.locator("#race-form button[type=submit]").click()
    tv.wait_for_url("**/host/*")
    tv.locator(".wv-lobby svg.profile").wait_for()
    read_from_the_sofa(tv, f"wielersim {lang} lobby")
    # the lobby's profile: its squares-to-go labels inside the profile's box
    box = tv.locator(".wv-lobby .profile-box").bounding_box()
    labels = [b for b in (a.bounding_box() for a in tv.locator(".axis-label").all()) if b]
    assert len(labels) >= 5
    for label in labels:
        assert box["x"] < label["x"] and label["x"] + label["width"] < box["x"] + box["width"], \
            (label, box)
    phone = open_page(PHONE, tv.url.replace("/host/", "/play/"), {"raceday.lang": lang})
    phone.fill("#name", "Aki")
    phone.locator("form.join button[type=submit]").click()
    phone.locator(".wv-lobby svg.profile").wait_for()
    assert phone_profile_text(phone) >= 10, "phone lobby"
    tv.locator("#wv-start").click()
    tv.locator(".grp").first.wait_for()
    tv.evaluate(OVERLAPS)
    tv.wait_for_function("() => window.__frames >= 3")  # a few turns ridden
    read_from_the_sofa(tv, f"wielersim {lang} race")
    phone.locator(".grp").first.wait_for()
    assert phone_profile_text(phone) >= 10, "phone race"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    tv.select_option("#wv-pace", "0.2")
    tv.wait_for_selector(".wv-finished", timeout=120_000)
    frames, covered = tv.evaluate("[window.__frames, window.__covered]")
    assert frames >= 20, frames  # the whole race was watched (a hang guard's far side)
    assert covered == [], covered[:5]
    tv.locator(".finale .podium").wait_for()
    read_from_the_sofa(tv, f"wielersim {lang} finish")
    names = tv.locator(".podium .step-name").evaluate_all(ONE_LINE)
    assert len(names) == 3 and all(lines == 1 for _name, lines in names), names
    assert tv.js_errors == [] and phone.js_errors == []


SMALLEST_PROFILE_TEXT = """() => Math.min(...[...document.querySelectorAll(
    'svg.profile text')].filter((t) => t.getBBox().width).map((t) => {
      const m = t.getScreenCTM();
      return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b); }))"""


def phone_profile_text(page: Any) -> float:
    """The smallest word or disc number on a phone's profile, in pixels on the screen (the
    drawing's words were 5 px there), once the page's styles have come and the profile has
    taken its phone width (a busy machine measured the drawing before its layout)."""
    wait_for_style_sheets(page)
    # a hang guard: a profile that never reads 10 px is measured and refused by the caller
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"() => ({SMALLEST_PROFILE_TEXT})() >= 10", timeout=15_000)
    least: float = page.evaluate(SMALLEST_PROFILE_TEXT)
    return least


LANDING_SIZES = ({"width": 390, "height": 844}, {"width": 1440, "height": 900},
                 {"width": 1920, "height": 1080})

# Each select of the landing page's cards against the longest of its choices (the text
# drawn in the select's font), and each text input against its value: the room inside the
# box (its width less its padding, and a select's arrow).
CUT = """() => { const pen = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll(
      'main select, main input[type=text], main input[type=number], main input:not([type])')]
    .filter((e) => e.offsetParent !== null).map((e) => {
      const s = getComputedStyle(e);
      pen.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      const texts = e.tagName === 'SELECT' ? [...e.options].map((o) => o.textContent) : [e.value];
      const widest = Math.max(0, ...texts.map((x) => pen.measureText(x).width));
      const room = e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)
        - (e.tagName === 'SELECT' ? 24 : 0);
      return [e.id || e.name, texts.find((x) => pen.measureText(x).width === widest), widest, room];
    }); }"""


@pytest.mark.parametrize("lang", LANGS)
def test_every_landing_cards_select_shows_its_choices_whole(open_page: Any, server: str,
                                                            lang: str) -> None:
    page = open_page(LANDING_SIZES[0], server, {"raceday.lang": lang})
    page.locator("#kr-mode").wait_for()
    page.locator("#pi-trackname").wait_for()
    for viewport in LANDING_SIZES:
        page.set_viewport_size(viewport)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() =>"
                      " requestAnimationFrame(done)))")
        fields = page.evaluate(CUT)
        assert len(fields) >= 20, fields  # every card's fields were measured
        cut = [f for f in fields if f[2] > f[3]]
        assert not cut, (viewport["width"], cut)
    # a choice's meaning under its select follows the choice
    page.select_option("#kr-mode", "pool")
    about = page.inner_text("#kr-mode-about")
    chosen = page.evaluate("document.querySelector('#kr-mode').selectedOptions[0].text")
    assert about and about != chosen, (about, chosen)
    assert page.get_attribute("#kr-mode", "aria-describedby") == "kr-mode-about"
    assert page.js_errors == []


def test_the_podiums_names_wrap_nowhere_at_1440_either(open_page: Any, server: str) -> None:
    """The WielerSIM finish at a laptop's 1440x900 (the TV's layout, scaled): the podium
    across the screen, every name on one line, nothing below the window."""
    tv = open_page({"width": 1440, "height": 900},
                   f"{server}wielersim?route=flanders&peloton=classics&seed=5")
    tv.locator("#race-form button[type=submit]").click()
    tv.wait_for_url("**/host/*")
    tv.locator("#wv-start").click()
    tv.locator("#wv-skip").click()
    tv.locator(".finale .podium").wait_for(timeout=120_000)
    settle_animations(tv)
    names = tv.locator(".podium .step-name").evaluate_all(ONE_LINE)
    assert len(names) == 3 and all(lines == 1 for _name, lines in names), names
    height = tv.evaluate("document.documentElement.scrollHeight")
    assert height <= 900, height
    assert tv.js_errors == []



APART = """(svg) => { const boxes = [...svg.querySelectorAll('text')].map((t) =>
    [t.textContent, t.getBoundingClientRect()]);
  const clash = [];
  boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom)
      clash.push(`${a} / ${b}`); }));
  return clash; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_stage_races_gc_chart_labels_stay_apart(open_page: Any, server: str,
                                                     lang: str) -> None:
    """The GC chart on a TV after the prologue and a stage: no two of its words on one
    another (the prologue's name ran into the lowest gap's label)."""
    tv = open_page(TV, f"{server}wielersim", {"raceday.lang": lang})
    tv.locator("#tour-form input[name=name]").fill(f"chart-{lang}")
    tv.locator("#tour-form button[type=submit]").click()
    tv.wait_for_url("**/wielersim?campaign=*")
    tv.locator("#ride").click()  # the prologue: its tables at once
    tv.locator("button[data-stage='0']").wait_for()
    tv.locator("#ride").click()  # stage 1, ridden and watched in a room, skipped through
    tv.wait_for_url("**/host/*")
    tv.locator("#wv-start").click()
    tv.locator("#wv-skip").click()
    tv.locator("#wv-tables").click()
    chart = tv.locator(".gc-chart")
    chart.wait_for()
    assert tv.locator(".gc-chart .gc-stage").count() == 2
    assert chart.evaluate(APART) == []
    assert tv.js_errors == []


# Red to move, one lap from winning Hairpin's short game: the end comes in a few moves
HAIRPIN_LATE = "..bbbb/r...b./r..rrr r 2-0 0-0 0-0 0 40"


@pytest.mark.parametrize("lang", LANGS)
def test_hairpins_podium_keeps_each_name_on_one_line_on_a_tv_and_a_laptop(
        open_page: Any, server: str, lang: str) -> None:
    """Hairpin's finish on the TV (1920x1080), then the same page at a laptop's 1440x900:
    the computer's "Computer (medium)" (「コンピューター（ふつう）」) beside a person's name in
    the side column, each name on one line (it wrapped onto two on an even split)."""
    room = new_room(server, "hairpin", variant="short", red="human", black="medium",
                    position=HAIRPIN_LATE)
    tv, phone = tv_and_aki(open_page, server, room, lang)
    tv.locator("#start").click()
    for _turn in range(100):  # a hang guard: the game ends in a few moves
        phone.wait_for_selector(f"{CHOICE['hairpin']}, {RESULT['hairpin']}")
        if phone.locator(RESULT["hairpin"]).count():
            break
        try:
            phone.locator(CHOICE["hairpin"]).first.click(timeout=5_000)
        except Exception:  # redrawn under the click: choose again
            continue
    tv.locator(".finale .podium").wait_for()
    for viewport in (TV, {"width": 1440, "height": 900}):
        tv.set_viewport_size(viewport)
        wait_for_style_sheets(tv)
        settle_animations(tv)
        names = tv.locator(".podium .step-name").evaluate_all(ONE_LINE)
        assert len(names) == 2, names
        assert any(name.startswith(("Computer", "コンピューター")) for name, _ in names), names
        assert all(lines == 1 for _name, lines in names), (viewport["width"], names)
        size = tv.evaluate("[document.documentElement.scrollWidth,"
                           " document.documentElement.scrollHeight]")
        assert size[0] <= viewport["width"] and size[1] <= viewport["height"], size
    assert tv.js_errors == [] and phone.js_errors == []
