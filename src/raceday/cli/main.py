"""Entry point of the `raceday` command.

Games are discovered from the packages under ``raceday.games``; a game's commands
(``raceday.games.<game>.cli``) are imported only when that game is invoked, so
``raceday --help`` starts without loading numpy, numba or any rules.

The one vocabulary (the same option names and forms everywhere, so what is learnt in one game
works in the others) is applied here, once, to every game and tool when its module is loaded:

- **Old spellings.** A game's or tool's module may declare ``OLD_SPELLINGS``: command name
  (``"play"``, ``"route import"`` for a nested one; ``""`` = every command of it) -> {old
  option: new option}. The argv of that command is rewritten before it is parsed
  (``--old value``, ``--old=value``, ``-o value``, ``-ovalue``), and one note per old
  spelling used goes to stderr (``terminal.old_spelling``). An option declared with two
  long names keeps only the first; the others become old spellings of it the same way.
  Old names are never options of the command, so they never show in its help. The key
  ``"--resume": "--save"`` stands for the old bare flag: ``--resume`` followed by nothing
  or by another option becomes ``--resume NAME``, NAME taken from ``--save NAME`` (or an
  old spelling of it such as ``--session``), which is then dropped: the game is resumed,
  not started. ``--resume NAME`` itself passes untouched.
- **Help without noise.** A flag shows no placeholder; a value option shows one
  UPPERCASE placeholder (its own ``metavar``, else one made from its type: N, X,
  SECONDS, PATH, NAME, NAMES, a|b|c for choices, or its name); an argument shows as
  ``ROUTE`` when required and ``[PELOTON]`` when not.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape
from typer._click.core import Command, Context
from typer._click.exceptions import BadParameter, ClickException, UsageError
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption
from typer.exceptions import Abort

from raceday import __version__
from raceday.cli._tools import discover_tools
from raceday.core.discovery import discover, game_packages
from raceday.core.errors import RacedayError

if TYPE_CHECKING:
    from rich.console import Console


# ---------------------------------------------------------------------------------------
# Old spellings: hidden aliases for one release
# ---------------------------------------------------------------------------------------

Spellings = dict[str, dict[str, str]]  # command name ("" = every command) -> {old: new}

RESUME, SAVE = "--resume", "--save"


def spellings_of(module: Any) -> Spellings:
    """A module's ``OLD_SPELLINGS`` (an empty table when it declares none). A table of the
    wrong shape is a programming error, reported at once."""
    table = getattr(module, "OLD_SPELLINGS", None) or {}
    if not (isinstance(table, dict) and all(
            isinstance(k, str) and isinstance(v, dict)
            and all(isinstance(a, str) and isinstance(b, str) and a.startswith("-")
                    and b.startswith("-") for a, b in v.items())
            for k, v in table.items())):
        raise TypeError(f"{module.__name__}.OLD_SPELLINGS must map command names to "
                        "{old option: new option}")
    return table


def spellings_for(table: Spellings, path: Sequence[str], also: str | None = None
                  ) -> dict[str, str]:
    """The old spellings of the command at ``path`` (its names under the game or tool,
    ``["route", "import"]``): those for every command (``""``), then its own, by its full
    path or its last name; ``also`` is the command a hidden old command name stands for."""
    names = ["", *([path[-1]] if path else []), " ".join(path)]
    if also:
        names += [also, " ".join([*path[:-1], also])]
    found: dict[str, str] = {}
    for name in dict.fromkeys(names):
        found.update(table.get(name, {}))
    return found


def _takes_value(param: Any) -> bool:
    return (param is not None and param.param_type_name == "option"
            and not getattr(param, "is_flag", False) and not getattr(param, "count", False))


def _is_option(word: str) -> bool:
    return word.startswith("-") and len(word) > 1


def rewrite_old_spellings(args: Sequence[str], command: Command, old: dict[str, str]
                          ) -> tuple[list[str], list[tuple[str, str]]]:
    """``args`` of ``command`` with its old spellings (``old``: {old: new}) replaced by the
    new ones, and the (old, new) pairs used, in order, each once.

    An old name that is still one of the command's options (a hidden one does not count),
    or whose new name is not, is left alone (the parser then says what it thinks of it).
    A value of an option is never rewritten, nor anything after ``--``.
    ``old[RESUME] == SAVE`` turns the old bare ``--resume`` (with the name in ``--save``)
    into ``--resume NAME``: see the module's docstring."""
    live: dict[str, Any] = {}
    for param in command.params:
        for name in (*param.opts, *param.secondary_opts):
            live[name] = param
    shown = {name for name, param in live.items() if not getattr(param, "hidden", False)}
    bare_resume = old.get(RESUME) == SAVE and RESUME in live
    table = {a: b for a, b in old.items()
             if b in live and a not in shown and not (a == RESUME and b == SAVE)}
    out: list[str] = []
    used: dict[tuple[str, str], None] = {}
    resume_at: int | None = None
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "--":
            out.extend(args[i - 1:])
            break
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            if bare_resume and word == RESUME and resume_at is None and (
                    i == len(args) or _is_option(args[i])):
                resume_at = len(out)
                out.append(RESUME)
                continue
            if name in table:
                used[(name, table[name])] = None
                name = table[name]
                word = name + eq + value
            out.append(word)
            if not eq and _takes_value(live.get(name)) and i < len(args):
                out.append(args[i])
                i += 1
            continue
        if not _is_option(word):
            out.append(word)
            continue
        short = word[:2]
        if short in table:  # -p8080 (its value attached), -p 8080, or -qx (flags)
            new = table[short]
            used[(short, new)] = None
            rest = word[2:]
            if _takes_value(live[new]):
                out.extend([new, rest] if rest else [new])
                if not rest and i < len(args):
                    out.append(args[i])
                    i += 1
            else:
                out.extend([new, f"-{rest}"] if rest else [new])
            continue
        out.append(word)
        for at, letter in enumerate(word[1:], start=1):  # a cluster: a value ends it
            if _takes_value(live.get(f"-{letter}")):
                if at == len(word) - 1 and i < len(args):
                    out.append(args[i])
                    i += 1
                break
    if resume_at is not None:
        out, named = _resume_by_name(out, resume_at, command,
                                     [a for a, b in old.items() if b == SAVE and a != RESUME])
        if named:
            used[(f"{RESUME} {SAVE}", RESUME)] = None
    return out, list(used)


def _resume_by_name(args: list[str], at: int, command: Command, saves: list[str]
                    ) -> tuple[list[str], bool]:
    """The old bare ``--resume`` at ``args[at]``: its name comes from ``--save NAME`` (or
    an old spelling of --save left in ``args``), else from --save's default; that option
    is dropped. Unchanged, and False, when there is no name to take."""
    names = {SAVE, *saves}
    for j, word in enumerate(args):
        if j == at:
            continue
        flag, eq, value = word.partition("=")
        if flag in names and eq:
            rest = [w for k, w in enumerate(args) if k != j]
            at_now = at if at < j else at - 1
            return [*rest[:at_now + 1], value, *rest[at_now + 1:]], True
        if word in names and j + 1 < len(args) and j + 1 != at:
            value = args[j + 1]
            rest = [w for k, w in enumerate(args) if k not in (j, j + 1)]
            at_now = at if at < j else at - 2
            return [*rest[:at_now + 1], value, *rest[at_now + 1:]], True
    default = next((p.default for p in command.params if SAVE in p.opts), None)
    if isinstance(default, str) and default:
        return [*args[:at + 1], default, *args[at + 1:]], True
    return args, False


def argv_lang(args: Sequence[str]) -> str:
    """The language a command line asks for: its ``--lang`` (en or ja), else the locale's."""
    from raceday.terminal.common import resolve_lang

    lang = None
    for j, word in enumerate(args):
        if word == "--lang" and j + 1 < len(args):
            lang = args[j + 1]
        elif word.startswith("--lang="):
            lang = word.partition("=")[2]
    return resolve_lang(lang if lang in ("en", "ja") else None)


def _words(key: str, args: Sequence[str], **params: object) -> str:
    """A line of the command itself (not of a game) in the command line's language."""
    from raceday.present import render

    return render(f"terminal.cli.{key}", argv_lang(args), params=params)


def _error_text(exc: RacedayError, args: Sequence[str]) -> str:
    """A refusal in the command line's language when it carries its message key (raised
    with :func:`raceday.present.refusal`), else its English text."""
    lang = argv_lang(args)
    if exc.message is not None and lang != "en":
        from raceday.present import render

        return render(exc.message, lang)
    return str(exc)


def _note_old_spellings(used: list[tuple[str, str]], args: Sequence[str]) -> None:
    """One note on stderr for each old spelling used, in the language of ``--lang`` (else
    the locale)."""
    from raceday.present import render
    from raceday.terminal.common import err_console

    lang = argv_lang(args)
    for old, new in used:
        if old == f"{RESUME} {SAVE}":
            line = render("terminal.old_resume", lang)
        else:
            line = render("terminal.old_spelling", lang, params={"old": old, "new": new})
        err_console.print(escape(line), soft_wrap=True)


# ---------------------------------------------------------------------------------------
# Help without noise: one placeholder style
# ---------------------------------------------------------------------------------------

NAMED = {"save": "NAME", "session": "NAME", "resume": "NAME", "name": "NAME",
         "players": "NAMES", "player": "NAMES"}
SECONDS = ("delay", "think", "timeout", "seconds")


class PlainArgument(TyperArgument):
    """An argument shown as ``ROUTE`` (required) or ``[PELOTON]`` (optional): no braces,
    no ``<str>`` type beside it."""

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        if not self.required:
            name = f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def display_type_rich(self, ctx: Context) -> str | None:
        return None


def placeholder(param: TyperOption | TyperArgument) -> str:
    """The one UPPERCASE placeholder of a value option or argument that names none: from
    its choices (a|b|c), its type (N, X, SECONDS, PATH) or its name (NAME, NAMES, else
    the name itself: ROUTE, VARIANT)."""
    desc = param.type_descriptor
    name = (param.name or "value").lower()
    if desc.choices is not None:
        return "|".join(str(getattr(c, "value", c)) for c in desc.choices)
    annotation = desc.annotation
    if desc.is_list:
        inner = getattr(annotation, "__args__", (str,))
        annotation = inner[0] if inner else str
    if desc.is_path or annotation is Path:
        return "PATH"
    if annotation is bool:
        return ""
    if annotation is int:
        return "N"
    if annotation is float:
        return "SECONDS" if any(w in name for w in SECONDS) else "X"
    return NAMED.get(name, name.upper())


def tidy_help(command: Command) -> None:
    """Give ``command`` and its subcommands the one placeholder style (see the module's
    docstring) and one long name per option; a dropped long name becomes an old spelling
    of the kept one (kept in the command's ``raceday_old_longs``)."""
    dropped: dict[str, str] = {}
    help_option = command.get_help_option(Context(command))
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        if isinstance(param, TyperArgument):
            if param.metavar is None:
                param.metavar = placeholder(param).upper()
            param.__class__ = PlainArgument
            continue
        if not isinstance(param, TyperOption):
            continue
        if param.is_flag or param.count:
            param.metavar = ""
        elif param.metavar is None:
            param.metavar = placeholder(param)
        longs = [o for o in param.opts if o.startswith("--")]
        for extra in longs[1:]:
            dropped[extra] = longs[0]
            param.opts.remove(extra)
    command.raceday_old_longs = dropped  # type: ignore[attr-defined]
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub)


# ---------------------------------------------------------------------------------------
# The root group
# ---------------------------------------------------------------------------------------


class GameGroup(TyperGroup):
    """The root group: lists every game, imports a game's commands only when it runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._games = discover(with_module="cli")
        self._tools = {k: v for k, v in discover_tools().items() if k not in self._games}
        self._loaded: dict[str, Command] = {}
        self._spellings: dict[str, Spellings] = {}
        tidy_help(self)

    def list_commands(self, ctx: Context) -> list[str]:
        return sorted(self._games) + sorted(self._tools)

    def _load(self, name: str) -> Command:
        if name not in self._loaded:
            where = (f"{game_packages()[name]}.cli" if name in self._games
                     else f"raceday.cli.{name.replace('-', '_')}")
            module = importlib.import_module(where)
            command = typer.main.get_command(module.app)
            command.name = name
            command.help = getattr(module, "HELP", command.help)
            self._spellings[name] = spellings_of(module)
            tidy_help(command)
            self._loaded[name] = command
        return self._loaded[name]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        known = self._games.get(cmd_name, self._tools.get(cmd_name))
        if known is None:
            return None
        if cmd_name in self._loaded:
            return self._loaded[cmd_name]
        # Listing for help: a light stand-in that carries the one-line help.
        return TyperCommand(cmd_name, help=known)

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        if args and (args[0] in self._games or args[0] in self._tools):
            args = [args[0], *self.new_spellings(args[0], args[1:])]
        return super().resolve_command(ctx, args)

    def new_spellings(self, name: str, args: list[str]) -> list[str]:
        """The arguments after the game or tool ``name`` with the old spellings of the
        command they run rewritten (one note on stderr for each)."""
        command = self._load(name)
        path: list[str] = []
        while isinstance(command, TyperGroup) and len(path) < len(args):
            sub = command.commands.get(args[len(path)])
            if sub is None:
                break
            path.append(args[len(path)])
            command = sub
        if isinstance(command, TyperGroup):
            return args
        also = getattr(command.callback, "raceday_alias_of", None)
        old = {**getattr(command, "raceday_old_longs", {}),
               **spellings_for(self._spellings[name], path, also)}
        if not old:
            return args
        rest, used = rewrite_old_spellings(args[len(path):], command, old)
        if used:
            _note_old_spellings(used, rest)
        return [*args[:len(path)], *rest]


app = typer.Typer(
    name="raceday",
    cls=GameGroup,
    help="Play, watch, simulate and price dice and racing tabletop games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"raceday {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", "-V", callback=_version, is_eager=True,
        help="Show the version and exit.",
    ),
) -> None:
    """Play, watch, simulate and price dice and racing tabletop games."""


def _plain_bad_value(exc: UsageError) -> str | None:
    """A value the command line's parser refused (a type it could not read: ``--laps x``)
    in the user's words, naming the option: ``--laps: it must be a whole number, got
    'x'`` instead of the validator's "Input should be a valid integer, unable to parse
    string as an integer". None for any other usage error."""
    cause = exc.__cause__
    param = getattr(exc, "param", None)
    if not isinstance(exc, BadParameter) or param is None or cause is None:
        return None
    from pydantic import ValidationError

    from raceday.core.game import plain_reason

    if not isinstance(cause, ValidationError) or not cause.errors():
        return None
    problem = cause.errors()[0]
    reason = plain_reason(problem)
    if reason is None:
        return None
    longs = [o for o in param.opts if o.startswith("--")] or list(param.opts)
    name = longs[0] if longs else (param.name or "value").upper()
    return f"{name}: {reason}, got {problem.get('input')!r}"


def _usage_line(exc: UsageError) -> str:
    """One line for a usage error, plus where to find help."""
    message = (_plain_bad_value(exc) or exc.format_message()).strip().replace("\n", " ")
    ctx = exc.ctx
    path = ctx.command_path if ctx is not None else "raceday"
    return f"error: {message} (try '{path} --help')"


def _err_console() -> Console:
    """The shared error console (imported with :mod:`raceday.terminal.common` when needed)."""
    from raceday.terminal.common import err_console

    return err_console


def _utf(stream: Any) -> bool:
    """Whether ``stream`` writes a Unicode encoding (every glyph raceday draws)."""
    import codecs

    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name.startswith(
            "utf")
    except LookupError:
        return False


def _prepare() -> None:
    """Before a run: only a command imports :mod:`raceday.terminal.common` (with Rich's
    progress bars), so the help starts without it; but an output that is not Unicode
    gets it at once (it lets such an output write ASCII stand-ins instead of failing).
    Forget an interruption reported by an earlier run in this process."""
    if not (_utf(sys.stdout) and _utf(sys.stderr)):
        import raceday.terminal.common  # noqa: F401
    common = sys.modules.get("raceday.terminal.common")
    if common is not None:
        common.interrupt_reported()


def run(argv: Sequence[str] | None = None, command: Command | None = None) -> int:
    """Run the CLI on ``argv`` and return the exit code (0, 1, 2 or 130); never raises
    for user errors. Bad input prints one line on stderr and gives exit code 2.
    ``command``: the CLI's click command when the caller keeps one (Typer builds it anew
    on every call: two thirds of a short command's time when a test runs thousands)."""
    command = command or typer.main.get_command(app)
    args = list(argv) if argv is not None else sys.argv[1:]
    _prepare()
    try:
        result = command.main(
            args=args,
            prog_name="raceday",
            standalone_mode=False,
        )
    except UsageError as exc:
        if not exc.format_message().strip():  # a group called bare: its help was shown
            return 0
        _err_console().print(escape(_usage_line(exc)), soft_wrap=True)
        return 2
    except ClickException as exc:
        _err_console().print(f"[bold red]error:[/] {escape(exc.format_message())}",
                             soft_wrap=True)
        return exc.exit_code
    except RacedayError as exc:
        _err_console().print(f"[bold red]{escape(_words('error', args))}[/] "
                             f"{escape(_error_text(exc, args))}", soft_wrap=True)
        return 2
    except Abort:  # input ended (EOF) where an answer was required
        _err_console().print(escape(f"{_words('error', args)} {_words('input_ended', args)}"),
                             soft_wrap=True)
        return 2
    except KeyboardInterrupt:
        result = 130
    except BrokenPipeError:
        return 1
    code = result if isinstance(result, int) else 0
    if code == 130:
        from raceday.terminal.common import interrupt_reported

        if not interrupt_reported():
            _err_console().print(escape(_words("interrupted", args)), soft_wrap=True)
    return code


def main() -> None:
    """The console script: run the CLI and exit with its code."""
    sys.exit(run())
