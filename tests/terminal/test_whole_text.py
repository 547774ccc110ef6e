"""Every screen of every game at 80×24, in English and Japanese, shows its words whole (#43):
the title bar (the game's title and the keys), the status bar (whose turn, and the prompt's
words where they fit, else on the answer line), the board and the log cut nothing at the
region's edge and end no text in "…". One pilot run per game, language and view (play or
watch) steps through every phase the game has (bids, tickets, moves, the end screen) with
scripted answers, and looks at the screen each time a new kind of prompt opens, and at the
end. The first answer of each play is a bad one: its refusal starts as every refusal does."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.strip import Strip

from raceday.present.messages import render
from raceday.terminal.surface import Prompt
from raceday.terminal.tui import GameApp
from raceday.terminal.tui.app import prompt_line
from raceday.terminal.tui.testing import answer, wait_for_prompt, wait_until_finished

SIZE = (80, 24)
LANGS = ("en", "ja")
# English words that must not be left in a Japanese screen (the title, the names of riders,
# players and places are the game's own and may stay).
ENGLISH = re.compile(r"\b(?:cell|squares|gap|rider|riders|our completion|missing board|Next|"
                     r"Stage|Prologue|Computer|medium|easy|hard|expert|Refused|answer|"
                     r"turn|move|moves|bid|ticket|race|the|scratch|sprint|lead|level|bib|"
                     r"pts|mtn|bonus|yellow|wins|won|players|result|standings|auction|"
                     r"thinking|paused)\b")


def _screen_rows(app: GameApp) -> list[Strip]:
    return app.screen._compositor.render_strips()


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _rows_of(app: GameApp, selector: str, rows: list[Strip]) -> str:
    """The text in a widget's region of the screen (cut by cells: a wide character is
    two)."""
    region = app.query_one(selector).region
    return "".join(strip.crop(region.x, region.right).text
                   for strip in rows[region.y:region.y + region.height])


@dataclass
class Seen:
    """What the run found: each problem once, with the screen it was on."""

    problems: list[str] = field(default_factory=list)
    screens: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)

    def look(self, app: GameApp, lang: str) -> None:
        strips = _screen_rows(app)
        rows = [strip.text for strip in strips]
        screen = "\n".join(rows)
        self.screens.append(screen)
        found: list[str] = []
        title = _squeezed(_rows_of(app, "#title", strips))
        keys = _squeezed(_rows_of(app, "#keys", strips))
        for part, shown in ((app.game_title, title), (app.keys_text(), keys)):
            if _squeezed(part) not in shown:
                found.append(f"title bar cut: {part!r}")
        status = app.status_text()
        if _squeezed(status) not in _squeezed(_rows_of(app, "#status", strips)):
            found.append(f"status bar cut: {status!r}")
        prompt = app.waiting
        if prompt is not None:
            asked = prompt_line(prompt)
            if asked.endswith((">", "›", ":")):
                found.append(f"answer line keeps the plain prompt's end: {asked!r}")
            shown = _squeezed(_rows_of(app, "#status", strips) + _rows_of(app, "#answer", strips))
            if _squeezed(asked) not in shown:
                found.append(f"prompt cut: {asked!r}")
        if app.board_view.max_scroll_x > 0:
            found.append("board wider than its region")
        for row in rows:
            if "…" in row:
                found.append(f"cut text: {row.strip()!r}")
        if lang == "ja":
            for row in rows[2:]:  # the title bar names the game as it is called
                hit = ENGLISH.search(row)
                if hit:
                    found.append(f"English in Japanese: {hit.group(0)!r} in {row.strip()!r}")
        for problem in found:
            if problem not in self.problems:
                self.problems.append(problem)
                self.screens.append(f"^^^ {problem}")


Answer = Callable[[Prompt, int], str]


async def _step_through(pilot: Pilot[int], app: GameApp, seen: Seen, lang: str,
                        reply: Answer, bad: str | None, limit: int = 400) -> None:
    """Answer every prompt with ``reply`` (the first with ``bad``, which must be refused),
    looking at the screen at each new kind of prompt and at the end."""
    prompt = await wait_for_prompt(pilot, app)
    if bad is not None:
        assert prompt is not None
        seen.look(app, lang)
        log = len(app.log_text().splitlines())
        await answer(pilot, app, bad)
        said = "\n".join(app.log_text().splitlines()[log:])
        head = render("terminal.refused", lang)
        refusals = [line for line in said.splitlines() if head in line]
        assert refusals and all(line.startswith(head) for line in refusals), said
    for n in range(limit):
        prompt = await wait_for_prompt(pilot, app)
        if prompt is None:
            break
        kind = prompt.history or re.sub(r"\d[\d,.]*", "#", Text.from_markup(prompt.text).plain)
        if kind not in seen.kinds:
            seen.kinds.add(kind)
            seen.look(app, lang)
        await answer(pilot, app, reply(prompt, n))
    await wait_until_finished(pilot, app)
    seen.look(app, lang)


def _run(app: GameApp, lang: str, reply: Answer | None = None, bad: str | None = None) -> Seen:
    seen = Seen()

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            if reply is None:
                await wait_until_finished(pilot, app)
                seen.look(app, lang)
            else:
                await _step_through(pilot, app, seen, lang, reply, bad)

    asyncio.run(go())
    return seen


def _first(prompt: Prompt, n: int) -> str:
    return prompt.choices[0].text if prompt.choices else ""


# --- the games ---------------------------------------------------------------------------------

def _hairpin_play(tmp_path: Path, lang: str) -> Seen:
    from raceday.games.hairpin.cli import HairpinPlay
    from raceday.games.hairpin.render import words
    from raceday.games.hairpin.rules import HairpinState
    from raceday.store.sessions import SessionStore

    near_the_end = HairpinState.from_text("bbbbr./....b./r.rrr. r 4-4 0-0 0-0")
    loop = HairpinPlay(near_the_end, "human", "easy", np.random.default_rng(7),
                       store=SessionStore(tmp_path / "h.sqlite"), save="g", wait=0.0)
    return _run(GameApp(loop, title=words("title", lang), lang=lang), lang, _first, bad="zz")


def _hairpin_watch(tmp_path: Path, lang: str) -> Seen:
    from raceday.games.hairpin.cli import HairpinPlay
    from raceday.games.hairpin.render import words
    from raceday.games.hairpin.rules import HairpinState

    # from a late position: the same screens (a computer thinking, its moves, the end)
    # without the many moves of a whole game
    late = HairpinState.from_text("bbbbr./....b./r.rrr. r 4-4 0-0 0-0")
    loop = HairpinPlay(late, "easy", "easy", np.random.default_rng(7), wait=0.0)
    return _run(GameApp(loop, title=words("title", lang), lang=lang), lang)


def _keirin_play(tmp_path: Path, lang: str) -> Seen:
    from raceday.games.keirin.interactive import play_night, prepare_night

    night = prepare_night(players=["Ann", "Bob"], bankroll="10000", margin=0.1, pool=False,
                          allow_debt=False, save="w", resume=None, db=tmp_path / "k.sqlite",
                          seed=31, riders=9, length=50, derny=None, top=8, delay=0.0,
                          lang=lang)

    def reply(prompt: Prompt, n: int) -> str:
        return "win 3 100" if n == 0 else ("n" if "n" in prompt.words else "")

    app = GameApp(lambda surface: play_night(surface, night),
                  title=f"KEIRIN — {night.session.name}", lang=lang)
    return _run(app, lang, reply, bad="win 12 5")


def _keirin_watch(tmp_path: Path, lang: str) -> Seen:
    from raceday.games.keirin.interactive import watch_race, watch_title
    from raceday.games.keirin.rules import KeirinOptions

    options = KeirinOptions()
    app = GameApp(watch_race(options, 5, 0.0), title=watch_title(options, lang), lang=lang)
    return _run(app, lang)


def _derby_play(tmp_path: Path, lang: str) -> Seen:
    from raceday.games.derby.render import words
    from tests.games.derby.terminal_party import party_main, party_state

    app = GameApp(party_main(tmp_path / "d.sqlite", party_state(races=4, lang=lang)),
                  title=words("title", lang), lang=lang)

    def reply(prompt: Prompt, n: int) -> str:
        return "0" if prompt.secret else ("done" if "done" in prompt.words else "")

    return _run(app, lang, reply, bad="lots")


def _derby_watch(tmp_path: Path, lang: str) -> Seen:
    from raceday.games.derby.cli import watch_loop
    from raceday.games.derby.render import words
    from raceday.games.derby.rules import DerbyOptions

    app = GameApp(watch_loop(DerbyOptions(), 5, 0.0, lang), title=words("watch.title", lang),
                  lang=lang)
    return _run(app, lang)


def _pistard_play(tmp_path: Path, lang: str) -> Seen:
    from raceday.games.pistard.cli import new_race
    from raceday.games.pistard.options import PistardOptions

    race = new_race(PistardOptions(players=2, riders_per_player=1), ["human", "medium"],
                    seed=9, db=tmp_path / "p.sqlite", save="w", lang=lang)

    def reply(prompt: Prompt, n: int) -> str:
        return prompt.choices[0].text if prompt.choices else "1 1"

    return _run(GameApp(race.main, title=race.title(), lang=lang), lang, reply, bad="zz")


def _pistard_watch(tmp_path: Path, lang: str) -> Seen:
    from raceday.games.pistard.cli import new_race
    from raceday.games.pistard.options import PistardOptions

    race = new_race(PistardOptions(players=2, riders_per_player=1), ["easy", "medium"],
                    seed=9, db=tmp_path / "p.sqlite", save="w", lang=lang, command="watch")
    return _run(GameApp(race.main, title=race.title(), lang=lang), lang)


def _tour_play(tmp_path: Path, lang: str) -> Seen:
    from raceday.games.wielersim import cli
    from raceday.games.wielersim.campaign import new_campaign, open_store
    from raceday.games.wielersim.rules import peloton_spec
    from raceday.games.wielersim.stage import resolve_tour

    campaign = new_campaign(open_store(tmp_path / "t.sqlite"), "rvb",
                            resolve_tour("ronde-van-belgie"), peloton_spec("small"), 5)
    main = cli.tour_main(campaign, "Ronde van Belgie", auto=False, delay=0.0,
                         resume_command="raceday wielersim tour --resume rvb")

    def reply(prompt: Prompt, n: int) -> str:
        return "c" if n < 1 else "s"

    return _run(GameApp(main, title=f"WielerSIM: {campaign.tour['name']}", lang=lang), lang,
                reply, bad="zz")


def _wielersim_watch(tmp_path: Path, lang: str) -> Seen:
    from raceday.games.wielersim import cli
    from raceday.games.wielersim.game import new_race

    state = new_race({"route": "flanders", "peloton": "classics"})
    main = cli.race_main(state, 7, delay=0.0)
    return _run(GameApp(main, title=f"WielerSIM: {state.route.name}", lang=lang), lang)


RUNS: dict[str, Callable[[Path, str], Seen]] = {
    "hairpin-play": _hairpin_play, "hairpin-watch": _hairpin_watch,
    "keirin-play": _keirin_play, "keirin-watch": _keirin_watch,
    "derby-play": _derby_play, "derby-watch": _derby_watch,
    "pistard-play": _pistard_play, "pistard-watch": _pistard_watch,
    "wielersim-tour": _tour_play, "wielersim-watch": _wielersim_watch,
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("run", sorted(RUNS))
def test_every_screen_shows_its_words_whole(run: str, lang: str, tmp_path: Path) -> None:
    seen = RUNS[run](tmp_path, lang)
    assert not seen.problems, "\n".join(seen.problems) + "\n\n" + "\n\n".join(seen.screens)
