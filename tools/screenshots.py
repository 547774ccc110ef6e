"""Regenerate the screenshots in docs/usage/img: every phase of every game, at 390×844 (a
phone) and 1920×1080 (a TV), from a real server on loopback driven by Debian's Chromium.

    make screenshots                      # every game
    .venv/bin/python tools/screenshots.py keirin derby   # some games

Each game's phases are played by ``tools/scenes/<game>.py``, whose ``scenes(shot)`` opens
pages with :meth:`Shooter.page`, plays to each phase and calls :meth:`Shooter.snap`. The
files are named ``<game>-<phase>-<width>.png``; a scene module names its own phases."""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "usage" / "img"
CHROMIUM = "/usr/bin/chromium"
SIZES = {"phone": {"width": 390, "height": 844}, "tv": {"width": 1920, "height": 1080}}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


class Shooter:
    """What a scene module gets: a server's ``base`` URL, pages at the two sizes, and
    :meth:`snap` to save what a page shows now."""

    def __init__(self, browser: Any, base: str, out: Path, game: str) -> None:
        self.browser = browser
        self.base = base
        self.out = out
        self.game = game
        self.saved: list[Path] = []
        self.errors: list[str] = []

    def page(self, size: str, path: str, lang: str = "en",
             storage: dict[str, str] | None = None) -> Any:
        """A new page (its own storage) at ``size`` ("phone" or "tv") showing ``path``,
        with ``lang`` as its language and ``storage`` put in its localStorage first."""
        context = self.browser.new_context(viewport=SIZES[size], locale=lang,
                                           device_scale_factor=1)
        items = {"raceday.lang": lang, **(storage or {})}
        script = "".join(f"localStorage.setItem({k!r}, {v!r});" for k, v in items.items())
        context.add_init_script(script)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda exc: self.errors.append(f"{path}: {exc}"))
        page.goto(self.url(path))
        return page

    def url(self, path: str) -> str:
        """The server's address of ``path`` ("/replay" and "replay" alike)."""
        return self.base.rstrip("/") + "/" + path.lstrip("/")

    def room(self, game: str, **options: Any) -> dict[str, Any]:
        """A new room of ``game`` made through the API (its code and host token)."""
        import httpx

        made = httpx.post(self.url("api/rooms"), json={"game": game, "options": options},
                          timeout=30)
        made.raise_for_status()
        return dict(made.json())

    def host(self, size: str, room: dict[str, Any], lang: str = "en") -> Any:
        """The room's host screen at ``size``, holding the host's token."""
        code = room["code"]
        return self.page(size, f"host/{code}", lang,
                         {f"raceday.host.{code}": room["host_token"]})

    def join(self, code: str, name: str, ready: str, lang: str = "en") -> Any:
        """A phone that joined room ``code`` as ``name``, once ``ready`` (a selector) shows."""
        phone = self.page("phone", f"play/{code}", lang)
        phone.fill("#name", name)
        phone.keyboard.press("Enter")
        phone.locator(ready).first.wait_for()
        return phone

    def pair(self, path: str, lang: str = "en") -> tuple[Any, Any]:
        """The same ``path`` on a phone and on a TV."""
        return self.page("phone", path, lang), self.page("tv", path, lang)

    def snap(self, page: Any, phase: str, settle_ms: int = 400) -> Path:
        """Save what ``page`` shows now as ``<game>-<phase>-<width>.png`` (the viewport,
        not the whole page: a screen that needs scrolling shows it)."""
        page.wait_for_timeout(settle_ms)  # let a transition end
        width = page.viewport_size["width"]
        path = self.out / f"{self.game}-{phase}-{width}.png"
        page.screenshot(path=str(path))
        self.saved.append(path)
        return path


@contextmanager
def _server() -> Iterator[str]:
    from raceday.web.app import create_app
    from raceday.web.server import background_server

    with tempfile.TemporaryDirectory(prefix="raceday-shots-") as folder, \
            background_server(create_app(Path(folder) / "shots.sqlite")) as url:
        yield url


def scene_games() -> list[str]:
    """The games with a scene module, in file order."""
    return sorted(p.stem for p in (ROOT / "tools" / "scenes").glob("*.py")
                  if not p.stem.startswith("_"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="the games to shoot (default: all)")
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNGs go")
    args = parser.parse_args(argv)
    games = args.games or scene_games()
    unknown = sorted(set(games) - set(scene_games()))
    if unknown:
        print(f"no scenes for {', '.join(unknown)}; known: {', '.join(scene_games())}",
              file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT / "tools"))
    from playwright.sync_api import sync_playwright

    failures = 0
    with sync_playwright() as pw, _server() as base:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for game in games:
            started = time.monotonic()
            shot = Shooter(browser, base, args.out, game)
            importlib.import_module(f"scenes.{game}").scenes(shot)
            print(f"{game}: {len(shot.saved)} screenshots in "
                  f"{time.monotonic() - started:.0f} s")
            for error in shot.errors:
                failures += 1
                print(f"  script error: {error}", file=sys.stderr)
        browser.close()
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
