"""Which games print which parts, with which options; :func:`build` makes the pages.

Every option is checked here, before anything is drawn or written: an option the chosen
game does not use, an unknown part, a value out of range or a bad track/route/peloton file
each give one :class:`~raceday.core.errors.RacedayError` line.
"""

from __future__ import annotations

import importlib
import math
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from raceday.core.errors import OptionsError
from raceday.printing.page import Credit, Page, Paper, paper


@dataclass(frozen=True)
class PrintOptions:
    """Everything ``raceday print`` accepts (None: the game's default)."""

    paper: Paper = field(default_factory=lambda: paper("a4"))
    track: str | None = None  # PISTARD: shipped name or TOML file
    riders: int | None = None  # KEIRIN: field size
    length: int | None = None  # KEIRIN: squares from the derny's start to the line
    margin: str | None = None  # KEIRIN fixed odds (0 to below 1) / Dice Derby board (0-0.5)
    fall_rate: str | None = None  # Dice Derby
    races: int | None = None  # Dice Derby score sheet
    route: str | None = None  # WielerSIM: shipped route, route file, or .gpx/.csv track
    peloton: str | None = None  # WielerSIM: shipped peloton/start list or file


OPTION_FLAGS = {"track": "--track", "riders": "--riders", "length": "--length",
                "margin": "--margin", "fall_rate": "--fall-rate", "races": "--races",
                "route": "--route", "peloton": "--peloton"}

Builder = Callable[[PrintOptions], list[Page]]


@dataclass(frozen=True)
class PartInfo:
    name: str
    title: str
    summary: str
    options: tuple[str, ...]  # PrintOptions fields this part uses


@dataclass(frozen=True)
class GameInfo:
    credit: Credit
    module: str  # raceday.games.<module>.printing holds one ``part_<name>`` builder per part
    parts: tuple[PartInfo, ...]

    def part(self, name: str) -> PartInfo:
        for p in self.parts:
            if p.name == name:
                return p
        raise OptionsError(f"{self.credit.game} has no printed part {name!r}; parts: "
                           f"{', '.join(p.name for p in self.parts)}")

    @property
    def options(self) -> tuple[str, ...]:
        seen: list[str] = []
        for p in self.parts:
            seen += [o for o in p.options if o not in seen]
        return tuple(seen)


GAMES: dict[str, GameInfo] = {
    "pistard": GameInfo(
        Credit("pistard", "PISTARD", "Anki Toner", "2009, version 2.12 2010"), "pistard", (
            PartInfo("track", "Velodrome", "the track cut into tiles that fit the paper, with "
                     "an assembly map", ("track",)),
            PartInfo("counters", "Counters", "rider counters for 5 players and energy tokens",
                     ()),
        )),
    "keirin": GameInfo(
        Credit("keirin", "KEIRIN", "Anki Toner", "2006, revised 2012"), "keirin", (
            PartInfo("track", "Track", "the 100-square track in two halves", ("length",)),
            PartInfo("counters", "Riders", "riders 1-9 and the derny", ()),
            PartInfo("slip", "Betting slips", "betting slips for the five bet types",
                     ("riders",)),
            PartInfo("odds", "Odds sheet", "exact fixed-odds prices of every bet",
                     ("riders", "length", "margin")),
        )),
    "derby": GameInfo(
        Credit("derby", "Dice Derby", "domi", "2016"), "derby", (
            PartInfo("scores", "Score sheet", "money, tickets and loans race by race",
                     ("races",)),
            PartInfo("auction", "Owners' auction", "sealed bids, buyers and prize money",
                     ("races",)),
            PartInfo("odds", "Whiteboard odds", "exact win and quinella odds, the party "
                     "version and the x1.5 first-out bonus", ("margin", "fall_rate")),
        )),
    "hairpin": GameInfo(
        Credit("hairpin", "Hairpin Racers", "Phil Leduc", "designed 2004, published 2024"),
        "hairpin", (
            PartInfo("board", "Board", "the 3x6 double hairpin with its barriers", ()),
            PartInfo("tally", "Lap and bump tally", "laps and bumps of several games", ()),
        )),
    "wielersim": GameInfo(
        Credit("wielersim", "WielerSIM", "Ludo Nauws", "2012"), "wielersim", (
            PartInfo("schedule", "Route schedule", "the route schedule and its profile",
                     ("route",)),
            PartInfo("markers", "Track markers", "start, finish, climb, sprint, zone, "
                     "distance and steepness markers for the route", ("route",)),
            PartInfo("riders", "Rider sheet", "teams and riders of a peloton with columns "
                     "for the race", ("peloton",)),
        )),
}


def game_info(name: str) -> GameInfo:
    key = name.strip().lower()
    if key not in GAMES:
        raise OptionsError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    return GAMES[key]


def check_options(info: GameInfo, parts: tuple[PartInfo, ...], options: PrintOptions) -> None:
    """Refuse options the chosen parts do not use, and values out of range."""
    used = {o for p in parts for o in p.options}
    for name, flag in OPTION_FLAGS.items():
        if getattr(options, name) is not None and name not in used:
            wanted = ", ".join(OPTION_FLAGS[o] for o in info.options) or "none"
            which = parts[0].name if len(parts) == 1 else "any part"
            raise OptionsError(f"{flag} does not apply to {info.credit.game} {which} "
                               f"(its options: {wanted})")
    if options.riders is not None and not 6 <= options.riders <= 9:
        raise OptionsError(f"--riders must be 6 to 9, got {options.riders}")
    if options.length is not None and not 19 <= options.length <= 1000:
        raise OptionsError(f"--length must be 19 to 1000 squares, got {options.length}")
    if options.races is not None and not 4 <= options.races <= 6:
        raise OptionsError(f"--races must be 4 to 6, got {options.races}")
    if options.margin is not None and info.credit.game == "keirin":
        keirin_margin(options.margin)


def keirin_margin(text: str | None) -> float:
    """KEIRIN's fixed-odds margin: a number at least 0 and below 1 (default 0)."""
    if text is None:
        return 0.0
    try:
        value = float(text)
    except ValueError:
        raise OptionsError(f"--margin must be a number such as 0.1, got {text!r}") from None
    if not (math.isfinite(value) and 0 <= value < 1):
        raise OptionsError(f"--margin must be at least 0 and below 1 for KEIRIN, got {text}")
    return value


def build(game: str, part: str | None, options: PrintOptions) -> list[Page]:
    """Every page of one part (or of every part of the game when ``part`` is None)."""
    info = game_info(game)
    parts = info.parts if part is None else (info.part(part.strip().lower()),)
    check_options(info, parts, options)
    module = importlib.import_module(f"raceday.games.{info.module}.printing")
    pages: list[Page] = []
    for p in parts:
        builder: Builder = getattr(module, f"part_{p.name}")
        made = builder(options)
        for page in made:
            page.part_key = p.name
        pages += made
    return pages


def command_line(game: str, part: str | None, options: PrintOptions) -> str:
    """The ``raceday print`` command that makes these pages (shown in every footer)."""
    words = ["raceday", "print", game] + ([part] if part else [])
    for name, flag in OPTION_FLAGS.items():
        value = getattr(options, name)
        if value is not None:
            words += [flag, str(value)]
    words += ["--paper", options.paper.name.lower()]
    return " ".join(shlex.quote(w) for w in words)


def with_paper(options: PrintOptions, name: str) -> PrintOptions:
    return replace(options, paper=paper(name))


def new_page(game: str, options: PrintOptions, part: str, described: str) -> Page:
    """An empty page of ``game`` with the header facts (the paper is added to the
    options shown)."""
    return Page(options.paper, GAMES[game].credit, part,
                f"{described}; paper {options.paper.name}")


def render(pages: list[Page], command: str) -> list[str]:
    """The pages as SVG documents, numbered."""
    return [page.to_svg(i, len(pages), command) for i, page in enumerate(pages, start=1)]
