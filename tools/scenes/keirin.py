"""A KEIRIN night for the screenshots: the TV and phones, one phone in Japanese, at every
phase: lobby, betting, the race, the finish, the results, the finale; then a race whose
room has seed 5 (as tests/browser/test_stage_announcer.py plays it), caught at the derny
pulling off, the bell, the sprint and the photo-finish. The host pauses the race and steps
it with "Next step" so each phase is caught."""

from __future__ import annotations

import json
import urllib.request
from typing import Any
from unittest import mock


def _path(shot: Any, path: str) -> str:
    """``path`` (``host/ABCD``) after the server's address, whether it ends in / or not."""
    return path if shot.base.endswith("/") else f"/{path}"


def _join(shot: Any, code: str, name: str, lang: str = "en") -> Any:
    phone = shot.page("phone", _path(shot, f"play/{code}"), lang=lang, role="player")
    phone.locator("#name").fill(name)
    phone.locator("form button[type=submit]").click()
    phone.locator("body[data-phase=lobby]").wait_for(state="attached")
    phone.get_by_text(name).first.wait_for()
    return phone


def _buy(phone: Any, kind: str, riders: list[int], stake: str) -> None:
    before = phone.locator(".kr-tickets li").count()
    phone.locator("#kr-kind").select_option(kind)
    for i, r in enumerate(riders):
        phone.locator(f"#kr-rider-{i}").select_option(str(r))
    phone.locator("#kr-stake").fill(stake)
    phone.locator("form.ticket-form button[type=submit]").click()
    phone.locator(".kr-tickets li").nth(before).wait_for()


def _phase(page: Any, phase: str) -> None:
    page.locator(f"body[data-phase={phase}]").wait_for(state="attached")


def _room(shot: Any, **options: Any) -> tuple[str, str]:
    """A KEIRIN room created through the API, as the landing page does: (code, host token)."""
    body = json.dumps({"game": "keirin", "options": options}).encode()
    request = urllib.request.Request(shot.base.rstrip("/") + "/api/rooms", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        room = json.load(answer)
    return str(room["code"]), str(room["host_token"])


def scenes(shot: Any) -> None:
    code, token = _room(shot, races=2, riders=7)
    tv = shot.page("tv", _path(shot, f"host/{code}"), storage={f"raceday.host.{code}": token})
    tv.locator(".big-code").wait_for()
    aki = _join(shot, code, "Aki")
    ben = _join(shot, code, "Ben")
    chie = _join(shot, code, "Chie", lang="ja")
    tv.locator(".seats li").nth(2).wait_for()
    shot.snap(tv, "lobby")
    shot.snap(aki, "lobby")
    tv.locator(".controls button.primary").click()
    for p in (aki, ben, chie):
        _phase(p, "betting")
    _buy(aki, "win", [3], "100")
    _buy(aki, "exacta", [3, 1], "50")
    _buy(ben, "trifecta", [1, 2, 3], "10")
    _buy(chie, "quinella", [2, 4], "30")
    shot.snap(tv, "betting")
    shot.snap(aki, "betting")
    for p in (aki, ben, chie):
        p.locator("button.done").click()
    _phase(tv, "racing")
    tv.locator("button[aria-pressed]:not(.announcer-voice)").click()  # pause
    tv.locator("button[aria-pressed=true]:not(.announcer-voice)").wait_for()
    step = tv.locator("button.kr-next")
    for _ in range(4):
        step.click()
        tv.wait_for_timeout(300)
    shot.snap(tv, "race", settle_ms=1500)
    shot.snap(aki, "race")
    for _ in range(300):  # to the finish: the riders on the line, nothing paid yet
        if tv.locator("body[data-finish]").count():
            break
        step.click()
        tv.wait_for_timeout(250)
    shot.snap(tv, "finish", settle_ms=1500)
    shot.snap(aki, "finish")
    step.click()  # the payout
    _phase(tv, "betting")
    tv.locator(".kr-result").wait_for()
    aki.locator(".kr-mine").wait_for()
    shot.snap(tv, "results")
    shot.snap(aki, "results")
    tv.locator("button.kr-close").click()
    _phase(tv, "racing")
    tv.locator("button.kr-skip").click()
    _phase(tv, "finished")
    for p in (aki, chie):
        _phase(p, "finished")
    tv.locator(".finale .podium").wait_for()
    shot.snap(tv, "finale", settle_ms=2500)
    shot.snap(aki, "finale", settle_ms=2500)
    for page in (tv, aki, ben, chie):
        page.context.close()
    _moments(shot)


def _moments(shot: Any) -> None:
    """Seed 5's race of 9 riders with Aki betting nothing: the derny pulls off, the bell,
    the sprint, and riders 2 and 4 cross level (a photo-finish)."""
    import raceday.web.rooms as rooms

    with mock.patch.object(rooms.secrets, "randbits", return_value=5):
        code, token = _room(shot, races=1, riders=9)
    tv = shot.page("tv", _path(shot, f"host/{code}"), storage={f"raceday.host.{code}": token})
    tv.locator(".big-code").wait_for()
    aki = _join(shot, code, "Aki")
    tv.locator(".controls button.primary").click()
    _phase(aki, "betting")
    aki.locator("button.done").click()
    _phase(tv, "racing")
    tv.locator("button[aria-pressed]:not(.announcer-voice)").click()  # pause
    tv.locator("button[aria-pressed=true]:not(.announcer-voice)").wait_for()
    step = tv.locator("button.kr-next")
    moments = [("derny", ".derny.pulling-off"), ("bell", ".velodrome.is-bell"),
               ("sprint", ".velodrome.is-sprint"), ("photo-finish", ".kr-photo")]
    for _ in range(300):
        if not moments or tv.locator("body[data-phase=betting], body[data-phase=finished]"
                                     ).count():
            break
        phase, selector = moments[0]
        if tv.locator(selector).count():
            moments.pop(0)
            shot.snap(tv, phase, settle_ms=800)
            shot.snap(aki, phase)
            continue
        step.click()
        tv.wait_for_timeout(250)
    if moments:
        shot.errors.append(f"keirin: never caught {', '.join(m for m, _ in moments)}")
    for page in (tv, aki):
        page.context.close()
