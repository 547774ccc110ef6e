"""WielerSIM for the docs' screenshots: the /wielersim page, a watch room on the TV
(1920×1080) and phones (390×844, one in Japanese) in its lobby, mid-race (paused by the
host, so every screen shows the same frame) and at the finish, and a stage race's tables
and GC chart."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any


def _url(shot: Any, path: str) -> str:
    return shot.base.rstrip("/") + path  # the server's base may or may not end with "/"


def _open(shot: Any, size: str, path: str, lang: str = "en", role: str = "") -> Any:
    """``shot.page`` at ``size``, showing ``path`` of the server."""
    page = shot.page(size, "", lang=lang, role=role)
    page.goto(_url(shot, path))
    return page




def _post(shot: Any, path: str, body: dict[str, Any], key: str = "") -> dict[str, Any]:
    """POST ``body`` to ``path``; ``key`` is a stage race's key (riding a stage needs it)."""
    headers = {"Content-Type": "application/json", **({"x-campaign-key": key} if key else {})}
    request = urllib.request.Request(_url(shot, path), data=json.dumps(body).encode(),
                                     headers=headers)
    with urllib.request.urlopen(request) as answer:  # the loopback test server
        return dict(json.loads(answer.read()))


def _join(shot: Any, code: str, name: str, lang: str = "en") -> Any:
    phone = _open(shot, "phone", f"/play/{code}", lang=lang, role="player")
    phone.locator("#name").fill(name)
    phone.locator("form.join button[type=submit]").click()
    phone.locator(".wv-lobby").wait_for()
    return phone


def _phase(page: Any, phase: str) -> None:
    page.locator(f"body[data-phase={phase}]").wait_for(state="attached")


def scenes(shot: Any) -> None:
    page = _open(shot, "tv", "/wielersim?route=flanders&peloton=classics&seed=2012")
    page.locator("#race-form").wait_for()
    shot.snap(page, "home", scroll="top")
    page.context.close()

    tv = _open(shot, "tv", "/wielersim?route=flanders&peloton=classics&seed=2012")
    tv.locator("#race-form button[type=submit]").click()
    tv.wait_for_url(re.compile(r"/host/[A-Z]{4}$"))
    code = tv.url.rsplit("/", 1)[1]
    aki = _join(shot, code, "Aki")
    chie = _join(shot, code, "Chie", lang="ja")
    tv.get_by_text("Chie").first.wait_for()
    watcher = _open(shot, "phone", f"/watch/{code}", role="watch")  # a guest watching
    shot.snap(tv, "lobby")
    shot.snap(aki, "lobby")
    shot.snap(watcher, "lobby")
    tv.locator("#wv-start").click()
    tv.select_option("#wv-pace", "0.8")
    tv.locator(".film-where", has_text="Turn 14").wait_for(timeout=120_000)
    tv.locator("#wv-pause").click()
    for page in (tv, aki, chie):
        page.locator(".wv-paused").wait_for()
    shot.snap(tv, "racing", settle_ms=1200)
    shot.snap(aki, "racing", settle_ms=1200)
    shot.snap(watcher, "racing")
    tv.locator("#wv-skip").click()
    for page in (tv, aki, chie, watcher):
        _phase(page, "finished")
    shot.snap(tv, "finish", settle_ms=1800)
    shot.snap(aki, "finish", settle_ms=1800)
    shot.snap(watcher, "finish")
    for page in (tv, aki, chie, watcher):
        page.context.close()

    key = _post(shot, "/api/wielersim/campaigns", {"tour": "ronde-van-belgie",
                                                   "peloton": "classics", "name": "spring",
                                                   "seed": 7})["key"]
    for stage in range(3):
        _post(shot, "/api/wielersim/campaigns/spring/ride", {"stage": stage}, key)
    page = _open(shot, "tv", "/wielersim?campaign=spring&stage=2")
    page.locator(".gc-chart").wait_for()
    shot.snap(page, "stage-race")
    page.context.close()
