"""The fast start of ``raceday keirin odds``.

A player asking for the odds waits for the whole process, and the full command line (Typer,
Click and every game's commands) costs more to import than the odds cost to compute. So
:func:`raceday.launch.main` first offers the arguments to :func:`run`, which answers the
plain cases with the KEIRIN package, the odds module, numpy and (for the tables) Rich
alone, and prints exactly what the full command prints. Anything else (help, a bad or
unusual argument) returns ``None`` and goes to the full command line, which owns every
message and error.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from raceday.core.digits import ascii_int
from raceday.games.keirin.odds_view import MAX_TOP, TOP_DEFAULT
from raceday.games.keirin.track import DERNY, LENGTH, RIDERS

# option spelling -> (option name, lowest, highest)
_NUMBERS = {
    "--riders": ("riders", RIDERS.low, RIDERS.high),
    "-r": ("riders", RIDERS.low, RIDERS.high),
    "--length": ("length", LENGTH.low, LENGTH.high),
    "-l": ("length", LENGTH.low, LENGTH.high),
    "--derny": ("derny", DERNY.low, DERNY.high),
    "--top": ("top", 1, MAX_TOP),
}
FLAGS = {"--json": "json", "--all": "all"}
BETS = ("--bet", "-b")


def parse(args: Sequence[str]) -> dict[str, object] | None:
    """The options of ``keirin odds [--riders N] [--length N] [--derny N] [--bet KIND]...
    [--top N] [--all] [--json]`` (the arguments after ``keirin odds``) as a dict, or
    ``None`` if the arguments are anything else: other options or words, a value out of
    range or not a plain whole number, an unknown bet type, an option given twice."""
    from raceday.games.keirin.odds import BET_TYPES

    found: dict[str, object] = {}
    bets: list[str] = []
    rest = list(args)
    while rest:
        word = rest.pop(0)
        if word in FLAGS:
            if FLAGS[word] in found:
                return None
            found[FLAGS[word]] = True
            continue
        spelling, equals, value = word.partition("=")
        if spelling not in _NUMBERS and spelling not in BETS:
            return None
        if equals and not spelling.startswith("--"):
            return None  # '-r=7': left to the full command's own reading
        if not equals:
            if not rest:
                return None
            value = rest.pop(0)
        if spelling in BETS:
            if value not in BET_TYPES:
                return None
            bets.append(value)
            continue
        name, low, high = _NUMBERS[spelling]
        number = ascii_int(value)
        if name in found or number is None or value != value.strip():
            return None
        if not low <= number <= high:
            return None
        found[name] = number
    if bets:
        found["bets"] = bets
    return found


def _locale_is_japanese() -> bool:
    """The locale's language is Japanese (the rule of
    :func:`raceday.terminal.common.resolve_lang`, without importing it)."""
    import os

    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        setting = os.environ.get(variable, "")
        if setting:
            return setting.lower().startswith("ja")
    return False


def run(argv: Sequence[str]) -> int | None:
    """Answer ``argv`` (the words after the program name) if it is a plain ``keirin odds``
    request: print the odds and return the exit code; otherwise ``None``."""
    if len(argv) < 2 or argv[0] != "keirin" or argv[1] != "odds":
        return None
    if _locale_is_japanese():  # the full command speaks the locale's language
        return None
    try:  # an output that cannot encode the tables: the full command draws them in ASCII
        "—┃─→…".encode(getattr(sys.stdout, "encoding", None) or "utf-8")
    except (LookupError, UnicodeError):
        return None
    options = parse(argv[2:])
    if options is None:
        return None
    from raceday.games.keirin.odds import BET_TYPES, exact_odds

    def number(name: str, default: int | None) -> int | None:
        value = options.get(name, default)
        assert value is None or isinstance(value, int)
        return value

    riders, length = number("riders", RIDERS.default), number("length", LENGTH.default)
    assert riders is not None and length is not None
    odds = exact_odds(riders, length, number("derny", None))
    if options.get("json"):
        # the same bytes as raceday.terminal.common.print_json
        sys.stdout.write(json.dumps(odds.to_json(), sort_keys=False) + "\n")
        sys.stdout.flush()
        return 0
    from rich.console import Console

    from raceday.games.keirin.odds_view import print_odds

    bets = options.get("bets")
    kinds = list(bets) if isinstance(bets, list) else list(BET_TYPES)
    top = number("top", TOP_DEFAULT)
    assert top is not None
    # the same console as raceday.terminal.common.console
    print_odds(Console(highlight=False), odds, kinds, top, bool(options.get("all")))
    return 0
