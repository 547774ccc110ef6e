"""The party server refuses a fall rate or margin with an exponent at once (400, one line).

``Fraction("1e99999999")`` builds that number: minutes of work on the event loop, the
whole server blocked. A room's options, a numbers job and a print page all refuse it as it
is read. The answer is checked, never its timing.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import new_room, worded


@pytest.mark.parametrize(("options", "words"), [
    ({"fall_rate": "1e99999999"}, "a fall rate is a decimal or a fraction, such as 0.05 or 1/20"),
    ({"fall_rate": "1e6"}, "a fall rate is a decimal or a fraction"),
    ({"fall_rate": "inf"}, "a fall rate is a decimal or a fraction"),
    ({"fall_rate": "nan"}, "a fall rate is a decimal or a fraction"),
    ({"fall_rate": "¹/₆"}, "a fall rate is a decimal or a fraction"),
    ({"margin": "1e99999999"}, "a margin is a decimal or a fraction, such as 0.1 or 1/10"),
    ({"fall_rate": "1" * 500}, "fall-rate must be a short text"),
])
def test_a_room_with_an_exponent_is_refused(client: TestClient, options: dict[str, Any],
                                            words: str) -> None:
    r = client.post("/api/rooms", json={"game": "derby", "options": options})
    assert r.status_code == 400, r.text
    assert words in worded(r.json(), required=False), r.text
    assert "\n" not in r.json()["error"]


def test_a_room_with_the_documented_forms_is_created(client: TestClient) -> None:
    for options in ({"fall_rate": "1/6", "margin": "0.15"}, {"fall_rate": "0.15"},
                    {"margin": "1/10"}):
        assert new_room(client, **options)["code"]


@pytest.mark.parametrize("field", ["fall_rate", "margin"])
@pytest.mark.parametrize("text", ["1e99999999", "1e6", "inf", "nan", "¹/₆", "1/0", "1.5/3"])
def test_a_numbers_job_with_an_exponent_is_refused(client: TestClient, field: str,
                                                   text: str) -> None:
    r = client.post("/api/numbers", json={"game": "derby", "mode": "odds", field: text})
    assert r.status_code == 400, r.text
    assert f"{field} is text such as" in r.json()["error"], r.text


@pytest.mark.parametrize("field", ["fall_rate", "margin"])
def test_a_print_page_with_an_exponent_is_refused(client: TestClient, field: str) -> None:
    r = client.get("/print/derby", params={"part": "odds", field: "1e99999999"})
    assert r.status_code == 400, r.text[:300]
    assert "is a decimal or a fraction, such as" in r.text
