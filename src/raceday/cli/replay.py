"""``raceday replay``: play back a saved game, party, stage race or room in the terminal,
step by step, with the board (see docs/usage/replay.md).

The steps are the browser replay's (:mod:`raceday.present.replay`): a saved session's steps
from its game's ``replay`` face, a room's one step per logged row of its event log, each
worded from the message tables in the chosen language. Each step shows the game's board as
its terminal draws it, on the state rebuilt at that step by the game's own rules (the
game's ``terminal_steps``, ``terminal_final`` and ``room_boards``, see
:mod:`raceday.present.terminal_replay`).

The database is opened read-only: a replay never writes to it (nor creates it).
"""

from __future__ import annotations

import difflib
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar

import typer
from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from raceday.core.discovery import face, game_packages
from raceday.core.errors import RacedayError, SaveFormatError
from raceday.core.events import Message
from raceday.core.protocol import CHANCE, HOST
from raceday.core.record import Move, RecordError, apply_move, parse_records, start_state
from raceday.present.messages import render
from raceday.present.pictures import text_picture
from raceday.present.replay import (
    ReplayStep,
    final_step,
    player_names,
    room_event_message,
    step_text,
)
from raceday.present.terminal_replay import (
    BOARD_WIDTH,
    Board,
    LazyBoard,
    TerminalStep,
    board_text,
)
from raceday.rooms import RoomError
from raceday.rooms.log import stored_state
from raceday.store.sessions import ReadOnlyStore, SessionStore, default_db_path
from raceday.terminal import common

HELP = ("Play back a saved game, party, stage race or room, step by step, with the board."
        "\n\n"
        "NAME is a saved session of any game (GAME/NAME where two games saved the same "
        "name), a record file (raceday record export, arena --save: every move from the "
        "first position), or a room's code with --room (read from the database the server uses). "
        "Each step shows the game's board, rebuilt by its rules, and that step's words. At "
        "a terminal: a full-screen view (→ next, ← back, Home/End, space plays, q quits); piped or "
        "--plain: every step in order, --delay apart, nothing asked; or only --step N. The "
        "database is only read.")

app = typer.Typer(help=HELP, add_completion=False)

MAX_STEPS = 20_000  # steps of one room replay at most (the first ones), as the browser's
CLOSE = 5  # close names listed for an unknown name


class ReplayError(RacedayError):
    """A replay that cannot be given (unknown name, no such room, step out of range, a
    file that is not a raceday database): one line, exit code 2."""


def words(key: str, lang: str, **params: Any) -> str:
    return render(f"terminal.replay.{key}", lang, params=params)


# --- the database, read-only -----------------------------------------------------------------
def open_db(db: Path | None) -> ReadOnlyStore:
    """The database to replay from, opened read-only (:class:`ReadOnlyStore`): a missing
    one is refused (nothing is made), as is anything but raceday's own file."""
    try:
        store = ReadOnlyStore(db if db is not None else default_db_path())
    except SaveFormatError as exc:
        refused = ReplayError(str(exc))
        refused.message = exc.message  # worded in the reader's language where it can be
        raise refused from None
    if store.missing:
        raise ReplayError(f"there is no database at {store.path} (give the file with --db)")
    return store


# --- what there is to replay -----------------------------------------------------------------
@dataclass
class Replay:
    """One replay: its game, name, whether from a saved session or a room, and its steps."""

    source: str  # "session" or "room"
    game: str
    name: str
    steps: list[TerminalStep] = field(default_factory=list)


def _final_state(store: SessionStore, game: str, name: str) -> Any:
    """The position a game saves (``doc["state"]``: the state's JSON or the text of
    :func:`raceday.core.serialize.dumps_state`)."""
    from raceday.core.registry import get_game
    from raceday.core.serialize import loads_state

    doc, _ = store.load(game, name)
    if isinstance(doc.get("record"), str):  # a game saved as its record
        from raceday.store.records import opened

        return opened(doc, None, None, name).state()
    saved = doc.get("state")
    if saved is None:
        raise SaveFormatError(f"saved {game} session {name!r} holds no position to replay")
    if isinstance(saved, str):
        return loads_state(saved)
    return get_game(game).state_from_json(saved)


def _steps_count(store: SessionStore, game: str, name: str) -> int:
    """How many steps a saved session replays in (boards are drawn only when shown)."""
    own = face(game, "replay")
    counted = getattr(own, "steps", None) or getattr(own, "terminal_steps", None)
    return len(counted(store, name)) if counted is not None else 1


def _is_finished(store: SessionStore, game: str, name: str) -> bool:
    finished = getattr(face(game, "replay"), "finished", None)
    if finished is not None:
        return bool(finished(store, name))
    return bool(_final_state(store, game, name).is_terminal())


def listing(store: ReadOnlyStore) -> list[dict[str, Any]]:
    """Every replayable thing in the database: saved sessions of every game, then rooms."""
    out: list[dict[str, Any]] = []
    if store.has_sessions:
        rows = store.query("SELECT game, name, updated FROM sessions ORDER BY game, name")
        games = game_packages()
        for game, name, updated in rows:
            if game not in games:
                continue
            try:
                steps, finished = (_steps_count(store, game, name),
                                   _is_finished(store, game, name))
            except (RacedayError, KeyError, TypeError, ValueError, IndexError):
                continue  # a save this version cannot read has nothing to replay
            out.append({"source": "session", "game": str(game), "name": str(name),
                        "when": str(updated), "finished": finished, "steps": steps})
    if store.has_rooms:
        rows = store.query("SELECT r.code, r.game, r.finished, r.updated, "
                           "(SELECT COUNT(*) FROM room_events e WHERE e.code = r.code) "
                           "FROM rooms r ORDER BY r.updated DESC, r.code")
        out += [{"source": "room", "game": str(g), "name": str(c), "when": str(u),
                 "finished": bool(f), "steps": min(int(n), MAX_STEPS)}
                for c, g, f, u, n in rows]
    return out


def _session_names(store: ReadOnlyStore) -> list[tuple[str, str]]:
    if not store.has_sessions:
        return []
    games = game_packages()
    return [(str(g), str(n)) for g, n in store.query(
        "SELECT game, name FROM sessions ORDER BY game, name") if g in games]


def find_session(store: ReadOnlyStore, name: str) -> tuple[str, str]:
    """The game and name of the saved session ``name`` (or ``GAME/NAME``)."""
    saved = _session_names(store)
    matches = [(g, n) for g, n in saved if n == name]
    if not matches and "/" in name:
        game, _, rest = name.partition("/")
        matches = [(g, n) for g, n in saved if g == game and n == rest]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        both = ", ".join(f"{g}/{n}" for g, n in matches)
        raise ReplayError(f"more than one game saved {name!r}: name one of {both}")
    close = difflib.get_close_matches(name, sorted({n for _, n in saved}), n=CLOSE,
                                      cutoff=0.5)
    hint = (f"; close names: {', '.join(close)}" if close else
            "; see raceday replay --list" if saved else "; nothing is saved there")
    raise ReplayError(f"no saved game, party or stage race named {name!r} in "
                      f"{store.path}{hint}")


def session_replay(store: ReadOnlyStore, game: str, name: str, lang: str) -> Replay:
    """A saved session's steps with their boards: the game's ``terminal_steps``, else its
    ``steps`` without a board, else its saved position as one step."""
    own = face(game, "replay")
    try:
        terminal = getattr(own, "terminal_steps", None)
        if terminal is not None:
            return Replay("session", game, name, list(terminal(store, name, lang)))
        steps = getattr(own, "steps", None)
        if steps is not None:
            return Replay("session", game, name,
                          [TerminalStep(s.to_json()) for s in steps(store, name)])
        state = _final_state(store, game, name)
        step = (final_step(state) if state.is_terminal() else
                ReplayStep(Message("terminal.replay.saved_position")))
        board_of = getattr(own, "terminal_final", None)
        board: Board = (board_of(state, lang) if board_of is not None
                        else Text(text_picture(state)))
        return Replay("session", game, name, [TerminalStep(step.to_json(), board)])
    except RacedayError:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise ReplayError(f"saved {game} session {name!r} cannot be read: {exc}") from None


def _public_intent(text: str) -> dict[str, Any]:
    """What the rebuilding may read of a logged intent: the action a move asked for (never
    a bid or a ticket, which stay sealed)."""
    intent = json.loads(text)
    action = intent.get("action") if isinstance(intent, dict) else None
    return {"action": action} if isinstance(action, int) else {}


def _who(actor: Mapping[str, Any], seats: Mapping[int, str]) -> str | None:
    kind = actor.get("kind")
    if kind == "seat":
        return str(seats.get(int(actor.get("seat", -1)), "?"))
    return {"host": "host", "timeline": "timeline", "spectator": "spectator"}.get(str(kind))


def room_replay(store: ReadOnlyStore, code: str, lang: str) -> Replay:
    """A room's steps: one per logged row of its event log, its events worded, the board
    after it from the game's ``room_boards``."""
    code = code.strip().upper()
    if not store.has_rooms:
        raise ReplayError(f"there are no rooms in {store.path}: the server's database keeps "
                          "them (give it with --db)")
    found = store.query("SELECT game FROM rooms WHERE code = ?", (code,))
    if not found:
        codes = [str(c) for (c,) in store.query("SELECT code FROM rooms ORDER BY code")]
        close = difflib.get_close_matches(code, codes, n=CLOSE, cutoff=0.5)
        hint = f"; close codes: {', '.join(close)}" if close else ""
        raise ReplayError(f"there is no room {code!r} in {store.path}{hint}")
    game = str(found[0][0])
    if game not in game_packages():
        raise ReplayError(f"room {code} is a {game!r} room, a game this raceday does not have")
    seats = {int(s): str(n) for s, n in store.query(
        "SELECT seat, name FROM room_seats WHERE code = ?", (code,))}
    rows = store.query("SELECT seq, actor, events, intent FROM room_events WHERE code = ? "
                       "ORDER BY seq LIMIT ?", (code, MAX_STEPS))
    try:
        logged = [(_public_intent(intent), [e for e in json.loads(events)
                                            if isinstance(e, dict)])
                  for _, _, events, intent in rows]
        snapshot = stored_state(store.query, code)
    except (json.JSONDecodeError, TypeError, SaveFormatError, RoomError) as exc:
        raise ReplayError(f"room {code} cannot be read: {exc}") from None
    if snapshot is None:
        raise ReplayError(f"there is no room {code!r} in {store.path}")
    own = face(game, "replay")
    boards: list[Any] = [None] * len(logged)
    boards_of = getattr(own, "room_boards", None)
    if boards_of is not None:
        try:
            boards = list(boards_of(snapshot, logged, lang))
        except (RacedayError, KeyError, TypeError, ValueError, IndexError, AttributeError,
                AssertionError):
            boards = [None] * len(logged)  # a log the rules cannot follow: words only
    word_of = getattr(own, "room_event", None)
    players: list[Any] = []
    steps = []
    for (seq, actor_text, _, _), (_, events), board in zip(rows, logged, boards, strict=True):
        players = player_names(events) or players
        messages = []
        for event in events:
            message = None
            try:
                message = word_of(event, players) if word_of is not None else None
            except (KeyError, IndexError, TypeError, ValueError):
                message = None
            if not isinstance(message, Message):
                message = room_event_message(event, players, game)
            messages.append(message.to_json())
        who = _who(json.loads(actor_text), seats)
        step = {"kind": "events", "seq": int(seq), "who": who, "events": messages}
        steps.append(TerminalStep(step, board, {"seq": int(seq)}))
    return Replay("room", game, code, steps)


# --- a record file ---------------------------------------------------------------------------
def is_record_file(name: str) -> bool:
    """Whether ``name`` names a file (a record file to replay) rather than a saved session."""
    try:
        return Path(name).is_file()
    except OSError:
        return False


def _record_board(package: str, state: Any, lang: str) -> Board:
    """``state`` drawn as the game's terminal draws a replayed position: its replay face's
    ``terminal_final``, else its picture face's ``text_picture``, else the state's text."""
    drawers = [getattr(face(package, "replay"), "terminal_final", None)]
    picture = getattr(face(package, "picture"), "text_picture", None)
    for draw in drawers:
        if draw is not None:
            try:
                board: Board = draw(state, lang)
                return board
            except (RacedayError, AttributeError, KeyError, IndexError, TypeError,
                    ValueError):
                pass
    if picture is not None:
        try:
            return Text(str(picture(state)))
        except (RacedayError, AttributeError, KeyError, IndexError, TypeError, ValueError):
            pass
    return Text(str(state))


def _mover(move: Move, seats: Sequence[Mapping[str, Any]]) -> Any:
    """Who made ``move``, as a step names them: the seat's name, else ``p1``..., or the
    host or chance in the reader's words."""
    if move.player == CHANCE:
        return Message("terminal.replay.chance").to_json()
    if move.player == HOST:
        return Message("terminal.replay.host").to_json()
    if 0 <= move.player < len(seats) and seats[move.player].get("name"):
        return f"{seats[move.player]['name']} ({move.who})"
    return move.who


def record_replay(path: Path, lang: str = "en", frames: bool = False) -> Replay:
    """The steps of a record file: for each of its games, its first position, then the
    position after every move, each with the game's board and the move's events (the
    result at the end); ``frames`` adds each step's ``frame`` (:meth:`State.frame`). A
    record the rules refuse is a :class:`ReplayError` naming its file and line."""
    from raceday.core.files import read_user_text
    from raceday.present.lessons import worded_events
    from raceday.present.messages import event_key, outcome_message

    text = read_user_text(path, kind="record")
    try:
        records = parse_records(text)
    except RecordError as exc:
        raise ReplayError(_record_problem(path, exc)) from None
    games = len(records)
    steps: list[TerminalStep] = []
    first = records[0].game.split("_", 1)[0]
    for number, record in enumerate(records, start=1):
        package = record.game.split("_", 1)[0]
        try:
            _, state = start_state(record)
        except RecordError as exc:
            raise ReplayError(_record_problem(path, exc)) from None
        seats = record.seats
        where = {"game": number} if games > 1 else {}

        def step(title: Message, lines: list[Message], snapshot: Any,
                 facts: dict[str, Any], package: str = package) -> TerminalStep:
            if frames:
                facts = {**facts, "frame": snapshot.frame()}
            def make(width: int, height: int) -> RenderableType:
                board = _record_board(package, snapshot, lang)
                return board(width, height) if callable(board) else board

            board = LazyBoard(make)
            return TerminalStep(ReplayStep(title, lines).to_json(), board, facts)

        steps.append(step(Message("terminal.replay.record_start", {"game": record.game}), [],
                          state.clone(), {**where, "line": record.line}))
        for k, move in enumerate(record.moves):
            try:
                events = apply_move(state, move)
            except RecordError as exc:
                raise ReplayError(_record_problem(path, exc)) from None
            lines = [Message(event_key(package, e.key, e.params), e.params)
                     for e in worded_events(package, events)]  # codes as the tables' words
            if k == len(record.moves) - 1:
                lines.append(outcome_message(state.outcome()) if state.is_terminal()
                             else Message("terminal.replay.record_unfinished"))
            title = Message("terminal.replay.record_move",
                            {"who": _mover(move, seats), "move": move.name})
            steps.append(step(title, lines, state.clone(),
                              {**where, "line": move.line, "move": move.text()}))
    return Replay("record", first, path.name, steps)


def _record_problem(path: Path, exc: RecordError) -> str:
    return (f"{path}:{exc.line}: {exc.problem}" if exc.line is not None
            else f"{path}: {exc.problem}")


# --- showing a step ---------------------------------------------------------------------------
def step_words(replay: Replay, index: int, lang: str) -> list[str]:
    """The words of step ``index`` (0 for the first): its title and lines, or a room
    step's events after who acted."""
    step = replay.steps[index].step
    lines = step_text(step, replay.game, lang)
    who = step.get("who")
    if step.get("kind") == "events" and who:
        name = (words(who, lang) if who in ("host", "timeline", "spectator") else who)
        lines = [words("who", lang, who=name), *("  " + line for line in lines)]
    return lines


def step_board(replay: Replay, index: int) -> Board | None:
    """The board of step ``index``, or None where the step has none."""
    step = replay.steps[index]
    return step.board if step.has_board() else None


def step_json(replay: Replay, index: int, lang: str) -> dict[str, Any]:
    step = replay.steps[index]
    return {"step": index + 1, "words": step_words(replay, index, lang),
            "board": board_text(step_board(replay, index), BOARD_WIDTH), **step.facts}


def replay_json(replay: Replay, lang: str, only: int | None) -> dict[str, Any]:
    chosen = range(len(replay.steps)) if only is None else [only]
    return {"source": replay.source, "game": replay.game, "name": replay.name, "lang": lang,
            "total": len(replay.steps), "steps": [step_json(replay, i, lang) for i in chosen]}


def show_step(surface: Any, replay: Replay, index: int) -> None:
    """Step ``index`` on ``surface``: its board (fixed in full screen), then its words."""
    lang = surface.lang
    total = len(replay.steps)
    board = step_board(replay, index)
    heading = words("step", lang, n=index + 1, total=total)
    if not surface.full_screen:
        surface.say(Rule(f"{replay.game} {replay.name} · {heading}", style="dim"))
    else:  # the log keeps which step each line is
        surface.say(Text(heading, style="dim"))
    if board is not None:
        surface.board(board)
    elif surface.full_screen:
        surface.board(Text(words("no_board", lang), style="dim"))
    for line in step_words(replay, index, lang):
        surface.say(Text(line))
    if surface.full_screen:  # line mode: the rule above says it
        surface.status(words("status", lang, game=replay.game, name=replay.name,
                             n=index + 1, total=total))


# --- the stepping loop (the full-screen view's) -----------------------------------------------
NEXT, BACK, PLAY, START, END = "next", "back", "play", "start", "end"
ANSWERS = {"": NEXT, "n": NEXT, "next": NEXT, "→": NEXT, "b": BACK, "p": BACK, "back": BACK,
           "←": BACK, "play": PLAY, " ": PLAY, "start": START, "home": START, "first": START,
           "end": END, "last": END}


@dataclass(frozen=True)
class NoSuchStep:
    """A step's number typed that the replay does not have (``number``, 1-based)."""

    number: int


def answer_of(text: str, total: int) -> str | int | NoSuchStep | None:
    """What a typed answer asks: NEXT, BACK, PLAY, START, END, a step's index, a step the
    replay does not have, or None (not an answer: the help is shown)."""
    word = text.strip().lower()
    if word.isdigit() and word.isascii():
        n = int(word)
        return n - 1 if 1 <= n <= total else NoSuchStep(n)
    return ANSWERS.get(word)


def stepping(replay: Replay, start: int, delay: float) -> Callable[[Any], int]:
    """The loop that steps through ``replay`` on a surface (the full-screen view's; the
    command prints every step elsewhere): it shows a step, then asks with
    the choices next/back/play/start/end (or a step's number); ``quit`` (or the end of
    input) ends it."""
    from raceday.terminal.surface import Choice, Prompt, Quit

    def main(surface: Any) -> int:
        lang = surface.lang
        total = len(replay.steps)
        index, shown = start, -1
        choices = [Choice(NEXT, words("next", lang)), Choice(BACK, words("back", lang)),
                   Choice(PLAY, words("play", lang)), Choice(START, words("start", lang)),
                   Choice(END, words("end", lang))]
        prompt = Prompt(words("prompt", lang) + " > ", choices=choices,
                        completions=[str(n) for n in range(1, min(total, 500) + 1)],
                        help=words("help", lang))
        try:
            while True:
                if index != shown:
                    show_step(surface, replay, index)
                    shown = index
                try:
                    answer = answer_of(surface.ask(prompt), total)
                except EOFError:
                    return 0
                if answer == NEXT:
                    if index + 1 < total:
                        index += 1
                    else:
                        surface.say(Text(words("at_end", lang), style="dim"))
                elif answer == BACK:
                    if index > 0:
                        index -= 1
                    else:
                        surface.say(Text(words("at_start", lang), style="dim"))
                elif answer == START:
                    index = 0
                elif answer == END:
                    index = total - 1
                elif answer == PLAY:
                    while index + 1 < total:
                        surface.pause(delay)
                        index += 1
                        show_step(surface, replay, index)
                    shown = index
                elif isinstance(answer, int):
                    index = answer
                elif isinstance(answer, NoSuchStep):
                    surface.say(Text(words("no_step", lang, number=answer.number,
                                           total=total), style="dim"))
                else:
                    surface.say(Text(words("help", lang), style="dim"))
        except Quit:
            return 0
    return main


def print_steps(console: Console, replay: Replay, lang: str, indexes: Sequence[int],
                delay: float) -> None:
    """Line mode without questions: the steps ``indexes`` in order, ``delay`` apart."""
    from raceday.terminal.surface import LineSurface

    surface = LineSurface(console, lang)
    for k, index in enumerate(indexes):
        if k and delay > 0:
            common.pause(delay)
        show_step(surface, replay, index)


def list_table(items: Sequence[Mapping[str, Any]], db: Path, lang: str) -> RenderableType:
    if not items:
        return Text(words("list_empty", lang, db=str(db)))
    table = Table(title=words("list_title", lang, db=str(db)), title_justify="left")
    for column, justify in (("game", "left"), ("name", "left"), ("kind", "left"),
                            ("when", "left"), ("finished", "left"), ("steps", "right")):
        table.add_column(words(f"col_{column}", lang), justify=justify,  # type: ignore[arg-type]
                         overflow="fold")
    for item in items:
        table.add_row(item["game"], item["name"], words(f"kind_{item['source']}", lang),
                      item["when"], words("yes" if item["finished"] else "no", lang),
                      str(item["steps"]))
    return Group(table)


# --- the command ------------------------------------------------------------------------------
NameArg = Annotated[str | None, typer.Argument(
    metavar="NAME", help="A saved session's name (GAME/NAME if two games saved it), or a "
    "room's code with --room.", show_default=False)]
RoomOpt = Annotated[bool, typer.Option("--room", help="NAME is a room's code (a room the "
                                       "party server kept in the same database).")]
StepOpt = Annotated[int | None, typer.Option(
    "--step", metavar="N", help="Show only step N (1 is the first).")]
AllOpt = Annotated[bool, typer.Option(
    "--all", help="Print every step in order, even at a terminal (no full-screen view).")]
ListReplaysOpt = Annotated[bool, typer.Option(
    "--list", help="List everything that can be replayed (game, name, when, finished, "
    "steps) and stop.")]


@app.command()
def replay(
    name: NameArg = None,
    db: common.DbOpt = None,
    room: RoomOpt = False,
    step: StepOpt = None,
    delay: common.StepDelayOpt = None,
    lang: common.LangOpt = None,
    plain: common.PlainOpt = False,
    all_: AllOpt = False,
    list_: ListReplaysOpt = False,
    as_json: common.JsonOpt = False,
) -> None:
    """Play back a saved game, party, stage race or room, step by step, with the board."""
    language = common.resolve_lang(lang)
    if not list_ and name is None:
        raise ReplayError("give the NAME of a saved game (or a room's code with --room); "
                          "raceday replay --list shows them")
    if not list_ and not room and name is not None and is_record_file(name):
        found = record_replay(Path(name), language, frames=as_json)
        show(found, language, step, delay, plain or all_, as_json)
        return
    store = open_db(db)
    if list_:
        items = listing(store)
        if as_json:
            common.print_json({"db": str(store.path), "replays": items})
        else:
            common.console.print(list_table(items, store.path, language))
        return
    assert name is not None
    if room:
        found = room_replay(store, name, language)
    else:
        game, saved = find_session(store, name)
        found = session_replay(store, game, saved, language)
    show(found, language, step, delay, plain or all_, as_json)


def show(found: Replay, language: str, step: int | None, delay: float | None, plain: bool,
         as_json: bool) -> None:
    """Show the replay ``found``: as JSON, one step, every step in order, or the
    full-screen view at a terminal."""
    total = len(found.steps)
    if total == 0:
        raise ReplayError(f"{found.game} {found.name!r} has no step to replay yet")
    if step is not None and not 1 <= step <= total:
        raise ReplayError(f"--step must be from 1 to {total} ({found.game} {found.name!r} has "
                          f"{total} step{'s' if total != 1 else ''}), got {step}")
    if as_json:
        common.print_json(replay_json(found, language, None if step is None else step - 1))
        return
    console = common.console
    if step is not None:
        print_steps(console, found, language, [step - 1], 0)
        return
    pause_s = common.default_delay(delay, 0.6)
    # Stepping (next, back, a step's number) is the full-screen view's; everywhere else
    # (piped, --plain, a terminal too small for the view) every step is printed in order,
    # --delay apart, and nothing is asked: what --help and docs/usage/replay.md say.
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    app = None
    if interactive and not plain:
        from raceday.terminal.tui import opens_full_screen

        if opens_full_screen(plain, language, console):
            app = replay_app(stepping(found, 0, pause_s),
                             f"raceday replay · {found.game} {found.name}", language)
    if app is None:
        print_steps(console, found, language, range(total), pause_s)
        return
    from raceday.terminal.tui import run_app

    raise typer.Exit(run_app(app, console))  # what the view showed stays after it


# The full screen's keys: each answers the open prompt with a word of the loop, while the
# answer line is empty (with text in it, the key edits the text as usual).
KEYS = {"right": NEXT, "left": BACK, "home": START, "end": END}


def replay_app(main: Callable[[Any], int], title: str, lang: str) -> Any:
    """The full-screen kit's view (:class:`raceday.terminal.tui.GameApp`) running the
    stepping loop, with the replay's keys: → next, ← back, Home / End the first / last
    step, space play (and, while playing, pause); None where this install has no kit."""
    try:
        from textual.binding import Binding

        from raceday.terminal.tui.app import GameApp
    except ImportError:
        return None

    class ReplayApp(GameApp):
        BINDINGS: ClassVar[list[Any]] = [
            Binding(key, f"replay_key('{word}')", show=False, priority=True)
            for key, word in KEYS.items()]

        def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
            if action == "replay_key":
                return self.waiting is not None and not self.answer_input.value
            return super().check_action(action, parameters)

        def action_replay_key(self, word: str) -> None:
            if self.waiting is not None:
                self.submit(word)

        def prompt_keys(self, prompt: Any) -> str:
            return words("keys", self.lang)

        def shortcut(self, char: str, *, typing: bool) -> bool:
            """Space plays on at a prompt (the view's own: pauses while playing)."""
            if char == " " and self.waiting is not None and not self.finished:
                self.submit(PLAY)
                return True
            result: bool = super().shortcut(char, typing=typing)
            return result

    return ReplayApp(main, title=title, lang=lang)


__all__ = ["HELP", "ReadOnlyStore", "Replay", "ReplayError", "app", "listing", "replay_json",
           "stepping"]

