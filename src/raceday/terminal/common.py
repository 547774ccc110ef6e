"""Pieces shared by every game's commands: options, input, consoles, progress, pacing.

Every option a user can get wrong is checked here before a command does any work, so a
bad value never leaves half a save behind. Checks raise :class:`typer.BadParameter`, which
the entry point prints as one line naming the option, and exits with code 2.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from raceday.core.errors import OptionsError
from raceday.store.names import MAX_SESSION_NAME, check_session_name
from raceday.terminal.consoles import ASCII_ERRORS as ASCII_ERRORS
from raceday.terminal.consoles import ASCII_STAND_INS as ASCII_STAND_INS
from raceday.terminal.consoles import ascii_stand_in as ascii_stand_in
from raceday.terminal.consoles import can_encode_boards as can_encode_boards
from raceday.terminal.consoles import console as console
from raceday.terminal.consoles import err_console as err_console
from raceday.terminal.consoles import use_ascii_stand_ins as use_ascii_stand_ins

PROGRESS_THRESHOLD = 2_000  # runs shorter than this finish before a bar is worth drawing

MAX_SEED = 2**63 - 1
MAX_DELAY = 60.0


# ---------------------------------------------------------------------------------------
# Option checks (typer callbacks) and the shared option types
# ---------------------------------------------------------------------------------------


def check_seed(value: int | None) -> int | None:
    """A seed is a whole number from 0 to 2**63 - 1 (or absent: a fresh random seed)."""
    if value is not None and not 0 <= value <= MAX_SEED:
        raise typer.BadParameter(f"must be a whole number from 0 to {MAX_SEED}, got {value}")
    return value


def check_delay(value: float | None) -> float | None:
    """A delay is a finite number of seconds from 0 to 60."""
    if value is not None and not (math.isfinite(value) and 0 <= value <= MAX_DELAY):
        raise typer.BadParameter(
            f"must be a number of seconds from 0 to {MAX_DELAY:g}, got {value}"
        )
    return value


def check_db(value: Path | None) -> Path | None:
    """The database path must not be a directory; its folder must not be a regular file."""
    if value is None:
        return None
    if str(value).strip() == "":
        raise typer.BadParameter("must be a file path, got an empty text")
    if value.is_dir():
        raise typer.BadParameter(f"{value} is a directory; give a database file inside it")
    for parent in value.parents:
        if parent.exists():
            if not parent.is_dir():
                raise typer.BadParameter(f"{parent} is a file, so {value} cannot be created")
            break
    return value


def check_out_folder(path: Path, option: str) -> Path:
    """A file a command will write after its work (a chart, a route): its folder must exist
    and be writable now, so a long simulation is not thrown away at the end."""
    import os

    folder = path.parent
    if not folder.exists():
        raise OptionsError(f"{option}: the folder {folder} does not exist; create it first")
    if not folder.is_dir():
        raise OptionsError(f"{option}: {folder} is a file, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OptionsError(f"{option}: the folder {folder} is not writable")
    return path


MAX_PLAYER_NAME = 24  # characters: fits the standings tables and the prompts


def check_session_name_option(value: str | None) -> str | None:
    """A typer callback: a new session's name (see :func:`check_session_name`)."""
    if value is None:
        return None
    try:
        return check_session_name(value)
    except OptionsError as exc:
        raise typer.BadParameter(str(exc)) from None


def player_names(values: Sequence[str] | None) -> list[str] | None:
    """The player names of ``-p Ann -p Bob``, ``-p "Ann,Bob"`` or both mixed, in order
    (None when none were given). Each name is 1 to :data:`MAX_PLAYER_NAME` printable
    characters: an empty name (``-p ""``, ``-p "Ann,,Bob"``, a trailing comma) is refused,
    in every game alike; :class:`OptionsError` names the first that is not a name."""
    if values is None:
        return None
    names = [n.strip() for value in values for n in value.split(",")]
    if any(not name for name in names):
        from raceday.present import refusal

        raise refusal(OptionsError, "terminal.cli.players_empty", given=repr(",".join(values)))
    for name in names:
        if len(name) > MAX_PLAYER_NAME:
            raise OptionsError(f"a player's name has at most {MAX_PLAYER_NAME} characters; "
                               f"{name[:MAX_PLAYER_NAME]!r}… has {len(name):,}")
        if not name.isprintable():
            raise OptionsError(f"a player's name must be printable characters, got {name!r}")
    return names


def in_range(low: int, high: int, what: str = "") -> Callable[[int | None], int | None]:
    """A typer callback accepting whole numbers from ``low`` to ``high`` (or absent)."""

    def check(value: int | None) -> int | None:
        if value is not None and not low <= value <= high:
            unit = f" {what}" if what else ""
            raise typer.BadParameter(f"must be from {low:,} to {high:,}{unit}, got {value:,}")
        return value

    return check


def fresh_seed(seed: int | None) -> int:
    """``seed`` itself, or a new random seed from the OS when none was given."""
    if seed is not None:
        return seed
    import secrets

    return secrets.randbelow(2**63)


# --seed means one thing everywhere (the random seed, 0 to 2**63-1); its help says what
# the same seed gives back in each kind of command.
SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        "-s",
        callback=check_seed,
        help="Random seed (0 to 2**63-1); the same seed replays the same race.",
    ),
]
NumbersSeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        "-s",
        callback=check_seed,
        help="Random seed (0 to 2**63-1); the same seed gives the same numbers.",
    ),
]
GamesSeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        "-s",
        callback=check_seed,
        help="Random seed (0 to 2**63-1); the same seed plays the same games.",
    ),
]
DelayOpt = Annotated[
    float | None,
    typer.Option(
        "--delay",
        callback=check_delay,
        help="Seconds between turns, 0–60; 0 prints at once. Default: a short pause in a "
        "terminal, none when piped.",
    ),
]
StepDelayOpt = Annotated[
    float | None,
    typer.Option(
        "--delay",
        callback=check_delay,
        help="Seconds between steps, 0–60; 0 prints at once. Default: a short pause in a "
        "terminal, none when piped.",
    ),
]
DbOpt = Annotated[
    Path | None,
    typer.Option(
        "--db",
        callback=check_db,
        help="Session database file (default: raceday.sqlite in the user data directory).",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


def check_session_reference(value: str | None) -> str | None:
    """A typer callback for ``--resume NAME``: a saved session's name, which cannot look
    like an option (``--resume --db x`` would otherwise take '--db' as the name)."""
    if value is None:
        return None
    if value.startswith("-"):
        raise typer.BadParameter(f"needs a session's name, got the option {value!r}; "
                                 "write --resume NAME (see --list)")
    return value


def resolve_lang(value: str | None) -> str:
    """The language of the terminal's words: ``--lang`` if given, else Japanese when the
    locale (LC_ALL, LC_MESSAGES, LANG) says ja, else English."""
    import os

    if value:
        return value
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        setting = os.environ.get(variable, "")
        if setting:
            return "ja" if setting.lower().startswith("ja") else "en"
    return "en"


def check_lang(value: str | None) -> str | None:
    """A typer callback: ``--lang`` is en or ja."""
    if value is not None and value not in ("en", "ja"):
        raise typer.BadParameter(f"must be en or ja, got {value!r}")
    return value


def players_option(help: str) -> Any:
    """The ``--players``/``-p NAMES`` option with a command's own ``help`` (who may play)."""
    return typer.Option("--players", "-p", metavar="NAMES", help=help)


def save_option(noun: str, fresh: str | None = None) -> Any:
    """The ``--save NAME`` option of a command that starts a new ``noun`` (game, race): a
    checked name; by default ``fresh``, ``fresh-2``, ... with a name already saved refused,
    or a dated name when ``fresh`` is None."""
    default = (f"{fresh}, then {fresh}-2, ...). A NAME already saved is refused."
               if fresh else "dated).")
    return typer.Option(
        "--save", metavar="NAME", callback=check_session_name_option,
        help=f"Save the new {noun} under NAME (at most {MAX_SESSION_NAME} characters; "
             f"default: {default}",
    )


# The one vocabulary of the terminal, so that what a player learns in one game works in the
# others: these names and forms mean the same thing in every game and tool.
PlayersOpt = Annotated[
    list[str] | None, players_option("Players: names separated by commas, or -p repeated."),
]
SaveOpt = Annotated[str | None, save_option("game")]
def resume_option(help: str, metavar: str = "NAME") -> Any:
    """The ``--resume`` option with a command's own ``help`` (a saved game's name, or the
    path of a record file)."""
    return typer.Option("--resume", metavar=metavar, callback=check_session_reference,
                        help=help)


ResumeOpt = Annotated[str | None, resume_option(
    "Go on with the saved game NAME (see --list), or from a record FILE "
    "(raceday record export; docs/record-format.md).")]
ListOpt = Annotated[bool, typer.Option("--list", help="List the saved games and stop.")]
LangOpt = Annotated[
    str | None,
    typer.Option(
        "--lang", metavar="en|ja", callback=check_lang,
        help="Language of the words: en or ja (default: from the locale).",
    ),
]
PlainOpt = Annotated[
    bool,
    typer.Option(
        "--plain",
        help="Line-by-line output even at a terminal (no full-screen view).",
    ),
]



@dataclass(frozen=True)
class Face:
    """How a command that runs on a surface shows itself: ``--lang`` and ``--plain``, given
    to the command as one parameter ``face: Face = FACE`` by
    :func:`raceday.terminal.groups.option_group`."""

    lang: LangOpt = None
    plain: PlainOpt = False

    def language(self) -> str:
        """The language of the words: ``--lang``, else the locale's (:func:`resolve_lang`)."""
        return resolve_lang(self.lang)


FACE: Any = None
"""The default to write for a command's :class:`Face` parameter (``option_group`` fills it)."""
# ---------------------------------------------------------------------------------------
# Input
# ---------------------------------------------------------------------------------------

Reader = Callable[[str], str]

YES = ("y", "yes")
NO = ("n", "no")


def read_line(prompt: str, *, words: Sequence[str] = (), history: str = "") -> str:
    """One line after ``prompt`` (Rich markup) through the shared input layer
    (:mod:`raceday.terminal.lineinput`): edited at a terminal, with Tab completing ``words``
    and Up recalling earlier answers kept under ``history`` (default: the prompt's kind);
    a plain line from a pipe. EOFError at the end of input."""
    from raceday.terminal import lineinput
    from raceday.terminal.prompts import Prompt

    return lineinput.ask(Prompt(prompt, completions=words, history=history), console=console)


def read_secret(prompt: str) -> str:
    """A line typed without echo when a person is at a terminal (sealed bids, tickets), and
    never kept in a history; a plain line from a pipe."""
    from raceday.terminal import lineinput
    from raceday.terminal.prompts import Prompt

    return lineinput.ask(Prompt(prompt, secret=True), console=console)


DIGITS_ONLY = "type numbers with the digits 0-9"


def foreign_digits(text: str) -> bool:
    """True if ``text`` holds a numeral that is not an ASCII digit (a superscript ³, an
    Arabic-Indic ١, a mathematical 𝟓, a circled ①…): the prompt refuses it and says to type
    0-9, since :func:`raceday.core.digits.ascii_int` reads only ASCII digits."""
    return any(ch.isnumeric() and not ch.isascii() for ch in text)


def ask_yes_no(question: str, *, default: bool, read: Reader = read_line) -> bool:
    """Ask until the answer is y, yes, n, no or empty (the default); end of input = default."""
    marks = "(Y/n)" if default else "(y/N)"  # not [..]: rich would read that as markup
    while True:
        try:
            message = f"{question} {marks} "
            text = (read_line(message, words=YES + NO, history="yes-no") if read is read_line
                    else read(message)).strip().lower()
        except EOFError:
            return default
        if text == "":
            return default
        if text in YES:
            return True
        if text in NO:
            return False
        console.print("Please answer y (yes) or n (no).")


class _InterruptState:
    reported = False  # set once a command has said what Ctrl-C kept


@contextmanager
def on_interrupt(kept: str, resume: str | None = None) -> Iterator[None]:
    """Turn Ctrl-C into one line saying what was kept and the exact command to resume."""
    try:
        yield
    except KeyboardInterrupt:
        from raceday.terminal.lineinput import say_after_view

        line = f"interrupted: {kept}"
        if resume:
            line += f"; resume with: {resume}"
        if not say_after_view(line):  # a full-screen view prints it once it has closed
            err_console.print(escape(line), soft_wrap=True)
        _InterruptState.reported = True
        raise typer.Exit(130) from None


def interrupt_reported() -> bool:
    """Whether a command already told the user what an interruption kept (and reset)."""
    reported, _InterruptState.reported = _InterruptState.reported, False
    return reported


def shell_quote(*parts: object) -> str:
    """A command line a user can paste back (arguments quoted only where needed)."""
    import shlex

    return " ".join(shlex.quote(str(p)) for p in parts)


def refuse_taken_save(store: Any, kind: str, name: str, game: str, resume: str) -> None:
    """``--save NAME`` names a new game, in every game alike: a NAME already saved (under
    the store's ``kind``) is refused with one line (exit 2) before any work is done, saying
    how to go on with the saved one (``resume``, the command). A name the command chose
    itself (no --save) is never refused: each game picks a free one (NAME-2, party-2...)."""
    if store.exists(kind, name):
        from raceday.present import refusal

        raise refusal(OptionsError, "terminal.cli.save_taken", game=game, name=name,
                      command=resume)


def given_on_command_line(parameter: str) -> bool:
    """Whether the running command's ``parameter`` (its Python name) was written on the
    command line rather than left at its default (True outside a command, where every
    value is given)."""
    from typer._click.core import ParameterSource
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    if ctx is None:
        return True
    return ctx.get_parameter_source(parameter) is ParameterSource.COMMANDLINE


def saved_resume_line(name: str, resume: str, lang: str, *, input_ended: bool = False) -> str:
    """The one line every game prints when it stops with its game saved (quit, ctrl-q, the
    input ended): the name it is saved under and the exact command that goes on with it;
    after the end of the input it says so first."""
    from raceday.present import render

    line = render("terminal.cli.saved_resume", lang, params={"name": name, "command": resume})
    if input_ended:
        line = render("terminal.cli.saved_after_input", lang, params={"line": line})
    return line


def resume_command(game: str, command: str, name: str, db: object | None) -> str:
    """The exact command that continues the saved session ``name`` of ``raceday <game>
    <command>`` (with ``--db`` when one was given), quoted to paste back."""
    extra = ("--db", db) if db is not None else ()
    return shell_quote("raceday", game, command, "--resume", name, *extra)


# ---------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------


def print_json(data: Any) -> None:
    """Print one JSON object on stdout (plain, for piping into other programs)."""
    sys.stdout.write(json.dumps(data, sort_keys=False) + "\n")
    sys.stdout.flush()


@contextmanager
def progress_bar(description: str, total: int, *, enabled: bool = True) -> Iterator[Progress]:
    """A progress bar on stderr; hidden when ``enabled`` is false."""
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        disable=not enabled,
        transient=True,
    )
    with progress:
        progress.add_task(description, total=total)
        yield progress


def seed_line(seed: int, what: str = "race", lang: str = "en") -> str:
    """How to get the same race (or numbers) again: the seed and its option."""
    from raceday.core.events import Message
    from raceday.present import render

    return render("seed_again", lang, params={"seed": seed, "what": Message(f"noun.{what}")})


def default_delay(requested: float | None, interactive_default: float = 0.6) -> float:
    """The pause between turns: as requested, else a short pause only on a terminal."""
    if requested is not None:
        check_delay(requested)
        return requested
    return interactive_default if console.is_terminal else 0.0


def pause(seconds: float) -> None:
    if seconds > 0:
        time.sleep(seconds)
