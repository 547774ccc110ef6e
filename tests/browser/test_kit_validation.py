"""The app's own validation in Chromium, instead of the browser's bubbles: sending a form
with a field the browser finds invalid (a setup card's number out of its range, the join
form's empty code) shows our message from the tables beside the field (in the page's
language), marks it invalid for a screen reader, focuses it and sends nothing; the
message goes once the field is right. A refusal shown in the error line goes with the
reader's next action."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import assert_accessible

from raceday.web.app import create_app
from raceday.web.server import background_server

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db: Path = tmp_path_factory.mktemp("validation") / "party.sqlite"
    with background_server(create_app(db)) as url:
        yield url


def no_bubble(page: Any, form: str) -> bool:
    """True if no control of the sent ``form`` would show the browser's own message (each
    invalid one had its "invalid" event cancelled: ours is shown instead)."""
    return bool(page.evaluate("""(form) => [...document.querySelector(form).elements]
        .filter((e) => e.willValidate && !e.validity.valid)
        .every((e) => e.getAttribute('aria-invalid') === 'true')""", form))


@pytest.mark.parametrize("viewport", [PHONE, TV], ids=["phone", "tv"])
def test_a_setup_number_out_of_range_is_ours_to_word(open_page: Any, base: str,
                                                     viewport: dict[str, int]) -> None:
    page = open_page(viewport, base)
    tokens = page.locator("#pistard-setup input[name=tokens]")
    tokens.wait_for()
    assert_accessible(page, "landing before a validation error")
    tokens.fill("99")
    page.locator("#pistard-setup button[type=submit]").click()
    note = page.locator("#pistard-setup .field-error")
    note.wait_for()
    assert note.inner_text() == "At most 20."
    assert tokens.get_attribute("aria-invalid") == "true"
    assert tokens.get_attribute("aria-describedby") == note.get_attribute("id")
    assert page.evaluate("document.activeElement.name") == "tokens"
    assert no_bubble(page, "#pistard-setup form")
    assert page.url == base  # nothing was sent: no room page opened
    assert_accessible(page, "landing after a validation error")
    page.locator("header.bar button.lang").click()  # the card is drawn anew in Japanese:
    note.filter(has_text="20以下").wait_for()  # the value and its problem are kept, re-worded
    assert tokens.input_value() == "99" and tokens.get_attribute("aria-invalid") == "true"
    page.locator("header.bar button.lang").click()
    note.filter(has_text="At most 20.").wait_for()
    tokens.fill("3")
    assert page.locator("#pistard-setup .field-error").count() == 0
    assert tokens.get_attribute("aria-invalid") is None
    assert page.js_errors == []


def test_the_join_form_asks_for_a_code_in_our_words(open_page: Any, base: str) -> None:
    page = open_page(PHONE, base)
    join = page.locator("#join button[type=submit]")
    join.wait_for()
    join.click()
    note = page.locator("#join .field-error")
    note.wait_for()
    assert note.inner_text() == "Fill in this field."
    assert page.evaluate("document.activeElement.name") == "code"
    assert no_bubble(page, "#join")
    page.locator("header.bar button.lang").click()  # the message follows the language
    page.locator("#join .field-error", has_text="入力してください。").wait_for()
    page.locator("#join input[name=code]").fill("ZZZZ")
    assert page.locator("#join .field-error").count() == 0


def test_a_refusal_goes_with_the_next_action(open_page: Any, base: str) -> None:
    page = open_page(PHONE, f"{base}play/QQQQ")  # no such room: the page says so
    page.locator("#app p.error[role=alert]").wait_for()
    made = page.evaluate("""async () => {
      const r = await fetch('/api/rooms', {method: 'POST', headers: {'Content-Type':
        'application/json'}, body: JSON.stringify({game: 'hairpin', options: {}})});
      return r.json();
    }""")
    page.goto(f"{base}play/{made['code']}")
    name = page.locator("#name")
    name.wait_for()
    name.fill("x" * 20)
    page.locator("form.join button[type=submit]").click()  # the first seat: accepted
    page.locator("header.bar .status[data-state=connected]").wait_for()
    other = open_page(PHONE, f"{base}play/{made['code']}")  # another phone
    other.locator("#name").fill("Y" * 20)  # the only human place is taken: refused
    other.locator("form.join button[type=submit]").click()
    line = other.locator("p.error[role=alert]").first
    line.filter(has_text="Not accepted").wait_for()
    other.locator("header.bar button.sound").click()  # the next action
    assert line.inner_text() == ""
