"""Screenshots of every phase of every game at 390×844 (a phone), 1440×900 (a laptop) and
1920×1080 (a TV), in English and Japanese, from a real server on loopback driven by
Debian's Chromium.

    make screenshots                                    # the full set into /tmp/raceday-shots
    .venv/bin/python tools/screenshots.py keirin derby  # some games
    .venv/bin/python tools/screenshots.py --sizes phone,tv --langs ja hairpin
    .venv/bin/python tools/screenshots.py --docs        # and refresh docs/usage/img

Each game's phases are played by ``tools/scenes/<game>.py``, whose ``scenes(shot)`` opens
pages with :meth:`Shooter.page`, plays to each phase and calls :meth:`Shooter.snap`, which
shows the page at every chosen size (the window resized, or with --reload the page loaded
anew at that size) in every chosen language (switched as the page's own button does) and
saves ``<game>-<phase>-<width>-<lang>.png``; a player's phone (:meth:`Shooter.join`) adds
``-player`` to its phase, the screen a room's host holds does not. The words in Latin
letters each Japanese screen shows are listed in latin-words-ja.txt (names, codes and units,
and whatever is left untranslated). The docs keep a few of the shots under their older names
(``<game>-<phase>[-ja]-<width>.png``): ``--docs`` copies the new shot over each such file
that the docs already hold."""

from __future__ import annotations

import argparse
import importlib
import re
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "usage" / "img"
OUT = Path(tempfile.gettempdir()) / "raceday-shots"
CHROMIUM = "/usr/bin/chromium"
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1440, "height": 900},
         "tv": {"width": 1920, "height": 1080}}
LANGS = ("en", "ja")
GAME_TIMEOUT = 900  # seconds a game's scenes may take before they are given up
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

# The language switch a page's own button makes, where the page has the i18n module loaded;
# a page without it (false) is reloaded with the language in its storage instead.
SWITCH = """async (lang) => {
  const loaded = performance.getEntriesByType("resource")
    .some((e) => e.name.endsWith("/static/js/i18n.js"));
  if (!loaded) return false;
  const i18n = await import("/static/js/i18n.js");
  await i18n.setLanguage(lang);
  return true;
}"""
# The page's animations that end (a podium rising in, a reveal) have ended, or 3 s passed.
STILL = """() => Promise.race([new Promise((done) => setTimeout(done, 3000)), Promise.all(
  document.getAnimations()
    .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
    .map((a) => a.finished.catch(() => null)))])"""
# The Latin-letter words a page shows (in Japanese: names, codes, units, and what is left
# untranslated), for the list the run writes beside the shots.
LATIN = """() => [...new Set(document.body.innerText.match(/[A-Za-z][A-Za-z'’-]{2,}/g) ?? [])]"""
# How far a page reaches past the viewport's right edge (a page that scrolls sideways).
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


class SceneTimeout(Exception):
    """A game's scenes took longer than their time."""


class Shooter:
    """What a scene module gets: a server's ``base`` URL, pages, and :meth:`snap` to save
    what a page shows now at every chosen size and language."""

    def __init__(self, browser: Any, base: str, out: Path, game: str,
                 sizes: tuple[str, ...] = tuple(SIZES), langs: tuple[str, ...] = LANGS,
                 reload: bool = False) -> None:
        self.browser = browser
        self.base = base
        self.out = out
        self.game = game
        self.sizes = sizes
        self.langs = langs
        self.reload = reload
        self.saved: list[Path] = []
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.latin: dict[str, list[str]] = {}

    def page(self, size: str, path: str, lang: str = "en",
             storage: dict[str, str] | None = None, role: str = "") -> Any:
        """A new page (its own storage) at ``size`` ("phone", "laptop" or "tv") showing
        ``path``, with ``lang`` as its language and ``storage`` put in its localStorage
        first; ``role`` ("player") is added to the phase of its shots."""
        context = self.browser.new_context(viewport=SIZES[size], locale=lang,
                                           device_scale_factor=1)
        script = "".join(f"localStorage.setItem({k!r}, {v!r});"
                         for k, v in (storage or {}).items())
        # the language only on the first load: a switch then lasts through a reload (the
        # Print pages go to their address in the other language)
        script += f"if (!localStorage.getItem('raceday.lang')) " \
                  f"localStorage.setItem('raceday.lang', {lang!r});"
        context.add_init_script(script)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.on("pageerror", lambda exc: self.errors.append(f"{path}: {exc}"))
        page.goto(self.url(path))
        page.raceday_role = role
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
        """A player's phone that joined room ``code`` as ``name``, once ``ready`` (a
        selector) shows."""
        phone = self.page("phone", f"play/{code}", lang, role="player")
        phone.fill("#name", name)
        phone.keyboard.press("Enter")
        phone.locator(ready).first.wait_for()
        return phone

    def snap(self, page: Any, phase: str, settle_ms: int = 400, scroll: str = "",
             now_only: bool = False) -> list[Path]:
        """Save what ``page`` shows now at each size in each language as
        ``<game>-<phase>-<width>-<lang>.png`` (the viewport, not the whole page: a screen
        that needs scrolling shows it), then put the page back as it was. ``scroll`` is
        "top" or a selector to bring into view after each resize; ``now_only`` takes just
        the page's own size and language (a moment too short for six shots)."""
        if page.raceday_role:
            phase = f"{phase}-{page.raceday_role}"
        home_size = dict(page.viewport_size)
        home_lang = page.evaluate("document.documentElement.lang") or "en"
        sizes = [home_size] if now_only else [SIZES[s] for s in self.sizes]
        langs = [home_lang] if now_only else list(self.langs)
        page.wait_for_timeout(settle_ms)  # let a transition end
        saved = []
        for lang in langs:
            self._language(page, lang, settle_ms)
            if lang == "ja":
                self.latin[f"{self.game}-{phase}"] = page.evaluate(LATIN)
            for size in sizes:
                if dict(page.viewport_size) != size:
                    page.set_viewport_size(size)
                    page.wait_for_timeout(250)
                    if self.reload:  # a page that picks its layout when it loads
                        page.reload()
                        page.wait_for_load_state("networkidle")
                if not now_only:
                    page.evaluate(STILL)
                self._scroll(page, scroll)
                path = self.out / f"{self.game}-{phase}-{size['width']}-{lang}.png"
                page.screenshot(path=str(path))
                sideways = page.evaluate(SIDEWAYS)
                if sideways > 0:
                    self.warnings.append(f"{path.name}: the page scrolls sideways by "
                                         f"{sideways} px")
                saved.append(path)
        self._language(page, home_lang, 0)
        if dict(page.viewport_size) != home_size:
            page.set_viewport_size(home_size)
            if self.reload:
                page.reload()
                page.wait_for_load_state("networkidle")
        self._scroll(page, scroll)
        self.saved.extend(saved)
        print(f"  {self.game} {phase}: {len(saved)} shots", flush=True)
        return saved

    @staticmethod
    def _language(page: Any, lang: str, settle_ms: int) -> None:
        if (page.evaluate("document.documentElement.lang") or "en") == lang:
            return
        if page.evaluate(SWITCH, lang):
            page.wait_for_timeout(max(300, settle_ms))  # redrawn in the new words
            Shooter._arrived(page, lang)  # a page worded by the server loads anew (Print)
            return
        page.evaluate("(l) => localStorage.setItem('raceday.lang', l)", lang)
        page.reload()
        page.wait_for_load_state("networkidle")

    @staticmethod
    def _arrived(page: Any, lang: str) -> None:
        """Wait (up to 15 s) until ``page`` is loaded and in ``lang``: a page whose words
        come from the server goes to its address in the other language."""
        for _ in range(60):
            try:
                page.wait_for_load_state("load")
                if (page.evaluate("document.documentElement.lang") or "en") == lang:
                    return
            except Exception:  # the page navigated while it was asked
                pass
            page.wait_for_timeout(250)

    @staticmethod
    def _scroll(page: Any, scroll: str) -> None:
        if scroll == "top":
            page.evaluate("window.scrollTo(0, 0)")
        elif scroll:
            page.evaluate("(s) => document.querySelector(s)?.scrollIntoView()", scroll)


@contextmanager
def _server() -> Iterator[str]:
    from raceday.web.app import create_app
    from raceday.web.server import background_server

    with tempfile.TemporaryDirectory(prefix="raceday-shots-") as folder, \
            background_server(create_app(Path(folder) / "shots.sqlite")) as url:
        yield url


@contextmanager
def _time_limit(seconds: int) -> Iterator[None]:
    """Raise :class:`SceneTimeout` in this thread after ``seconds``."""

    def expired(_signum: int, _frame: FrameType | None) -> None:
        raise SceneTimeout(f"gave up after {seconds} s")

    before = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


def scene_games() -> list[str]:
    """The games with a scene module, in file order."""
    return sorted(p.stem for p in (ROOT / "tools" / "scenes").glob("*.py")
                  if not p.stem.startswith("_"))


DOCS_NAME = re.compile(r"(?P<stem>.+?)(?P<ja>-ja)?-(?P<width>\d+)\.png")


def docs_source(name: str, out: Path) -> Path | None:
    """The shot in ``out`` that a docs picture ``name`` (``<game>-<phase>[-ja]-<width>.png``)
    shows: a phone's picture is the player's page where there is one, a wider one the
    host's screen where there is one."""
    match = DOCS_NAME.fullmatch(name)
    if not match:
        return None
    lang = "ja" if match["ja"] else "en"
    stem, width = match["stem"], match["width"]
    roles = ("-player", "") if width == "390" else ("", "-player")
    for role in roles:
        source = out / f"{stem}{role}-{width}-{lang}.png"
        if source.exists():
            return source
    return None


def refresh_docs(out: Path) -> list[str]:
    """Copy over each picture in docs/usage/img the shots in ``out`` show; the names of
    those none does (made by other tools, or by scenes not run this time)."""
    kept = []
    for picture in sorted(DOCS.glob("*.png")):
        source = docs_source(picture.name, out)
        if source is None:
            kept.append(picture.name)
        else:
            shutil.copyfile(source, picture)
    return kept


def _choice(allowed: tuple[str, ...]) -> Any:
    def parse(text: str) -> tuple[str, ...]:
        picked = tuple(p.strip() for p in text.split(",") if p.strip())
        wrong = [p for p in picked if p not in allowed]
        if wrong or not picked:
            raise argparse.ArgumentTypeError(
                f"{text!r}: choose from {', '.join(allowed)} (comma-separated)")
        return picked
    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("games", nargs="*", help="the games to shoot (default: all)")
    parser.add_argument("--out", type=Path, default=OUT,
                        help=f"where the PNGs go (default: {OUT})")
    parser.add_argument("--sizes", type=_choice(tuple(SIZES)), default=tuple(SIZES),
                        help="phone, laptop, tv (comma-separated; default: all three)")
    parser.add_argument("--langs", type=_choice(LANGS), default=LANGS,
                        help="en, ja (comma-separated; default: both)")
    parser.add_argument("--reload", action="store_true",
                        help="reload a page at each size (pages that pick their layout when "
                             "they load, such as WielerSIM's big screen; a moment on screen, "
                             "such as the announcer's line, is lost)")
    parser.add_argument("--docs", action="store_true",
                        help="then copy the shots docs/usage/img shows over its pictures")
    parser.add_argument("--timeout", type=int, default=GAME_TIMEOUT,
                        help=f"seconds a game's scenes may take (default: {GAME_TIMEOUT})")
    args = parser.parse_args(argv)
    games = args.games or scene_games()
    unknown = sorted(set(games) - set(scene_games()))
    if unknown:
        print(f"no scenes for {', '.join(unknown)}; known: {', '.join(scene_games())}",
              file=sys.stderr)
        return 2
    if args.docs and (set(args.sizes) != set(SIZES) or "en" not in args.langs):
        print("--docs needs every size and English", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT / "tools"))
    from playwright.sync_api import sync_playwright

    failures = 0
    (args.out / "latin-words-ja.txt").write_text("", encoding="utf-8")  # this run's list
    with sync_playwright() as pw, _server() as base:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for game in games:
            started = time.monotonic()
            print(f"{game}: playing its scenes", flush=True)
            shot = Shooter(browser, base, args.out, game, args.sizes, args.langs, args.reload)
            try:
                with _time_limit(args.timeout):
                    importlib.import_module(f"scenes.{game}").scenes(shot)
            except Exception as exc:  # one game's failure leaves the others to be shot
                failures += 1
                print(f"  {game} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
                for context in browser.contexts:
                    context.close()
            print(f"{game}: {len(shot.saved)} screenshots in "
                  f"{time.monotonic() - started:.0f} s", flush=True)
            for warning in shot.warnings:
                print(f"  layout: {warning}")
            with (args.out / "latin-words-ja.txt").open("a", encoding="utf-8") as words:
                for phase, found in shot.latin.items():
                    words.write(f"{phase}: {' '.join(found)}\n")
            for error in shot.errors:
                failures += 1
                print(f"  script error: {error}", file=sys.stderr)
        browser.close()
    print(f"the shots are in {args.out}")
    if args.docs:
        kept = refresh_docs(args.out)
        print(f"docs/usage/img refreshed; not made by these scenes: {', '.join(kept)}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
