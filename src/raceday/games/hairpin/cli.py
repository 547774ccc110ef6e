"""`raceday hairpin ...`: play against the computer, run AI matches, count perft."""

from __future__ import annotations

import math
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
import typer
from rich.markup import escape
from rich.table import Table

from raceday.core.agents import Agent, RandomAgent
from raceday.core.digits import ascii_int
from raceday.core.errors import IllegalActionError, OptionsError, RacedayError
from raceday.core.protocol import CHANCE, Action
from raceday.core.record import (
    Record,
    Recorder,
    RecordError,
    apply_move,
    generator_from,
    parse_record,
    replay,
    start_state,
)
from raceday.games.hairpin import saves
from raceday.games.hairpin.agents import (
    DEFAULT_THINK,
    LEVELS,
    MAX_THINK,
    OLD_EXPERT,
    GreedyAgent,
    make_agent,
)
from raceday.games.hairpin.game import GAME as HAIRPIN
from raceday.games.hairpin.game import HairpinOptions
from raceday.games.hairpin.match import DEFAULT_OPENING_PLIES, MatchResult, play_match
from raceday.games.hairpin.picture import side_name, words
from raceday.games.hairpin.render import board_view, state_markup
from raceday.games.hairpin.rules import (
    ENTER,
    PLAYER_NAMES,
    HairpinState,
    Move,
    move_name,
    perft,
    perft_divide,
    position_from_text,
    symmetric_position,
)
from raceday.present import describe_outcome, render
from raceday.store.names import check_session_name
from raceday.store.sessions import ReadOnlyStore, SessionStore, writable_store
from raceday.terminal import common
from raceday.terminal.groups import option_group
from raceday.terminal.options import GIVEN, GivenOptions, field_option, game_options
from raceday.terminal.session import GameSession
from raceday.terminal.surface import (
    UNDO,
    Choice,
    LineSurface,
    Prompt,
    Quit,
    Surface,
    refusal_line,
)
from raceday.terminal.tui import run_command

if TYPE_CHECKING:
    from raceday.games.hairpin.agents import SearchReport

HELP = "Hairpin Racers (Phil Leduc): a diceless two-player race round a double hairpin."
SAVE_KIND = saves.SAVE_KIND  # sessions of this game in the store

app = typer.Typer(help=HELP, no_args_is_help=True, pretty_exceptions_enable=False,
                  add_completion=False)

MAX_DEPTH = 8
MAX_GAMES = 100_000
MAX_OPENING_PLIES = 40

PLAYER_HELP = (
    "human, easy, medium, hard, expert (thinks --think seconds a move), or an agent: "
    "expert:SECONDSs, expert-old (the former expert), random, greedy, mcts[:SIMS], "
    "mcts-guided[:SIMS], alphabeta[:NODES] or alphabeta:SECONDSs (e.g. alphabeta:1.5s)."
)
MAX_LINES = 64


def _check_name(value: str) -> str:
    checked = common.check_session_name_option(value)  # the one rule of every game's session names
    assert checked is not None
    return checked


def _check_think(value: float | None) -> float | None:
    """Seconds per move: a finite number above 0, at most MAX_THINK."""
    if value is not None and not (math.isfinite(value) and 0 < value <= MAX_THINK):
        raise typer.BadParameter(f"must be a number of seconds above 0 and at most "
                                 f"{MAX_THINK:g}, got {value}")
    return value


# --variant, --setup, --position: the fields of HairpinOptions, checked by the model
GameOpts = GivenOptions[HairpinOptions]
ThinkOpt = Annotated[
    float,
    typer.Option("--think", callback=_check_think,
                 help=f"Seconds the expert thinks per move (above 0, at most {MAX_THINK:g}).")
]


# --- perft ---------------------------------------------------------------------------
@app.command("perft")
@game_options(HairpinOptions)
def perft_command(
    depth: Annotated[int, typer.Option(
        "--depth", "-d", callback=common.in_range(1, MAX_DEPTH, "plies"),
        help=f"Plies to search (1 to {MAX_DEPTH}).")],
    game: GameOpts = GIVEN,
    divide: Annotated[bool, typer.Option(
        "--divide", help="Also print the count under each first action.")] = False,
    json_out: common.JsonOpt = False,
    lang: common.LangOpt = None,
) -> None:
    """Count the leaf nodes of the game tree DEPTH plies deep (pins the move generator)."""
    options = game.parse()
    rules, position = options.rules(), options.position
    if rules.setup == "random" and position is None:
        raise OptionsError("perft of a random setup needs --position (the setup is chance)")
    pos = position_from_text(position, rules) if position else symmetric_position()
    start = time.perf_counter()
    parts = perft_divide(pos, rules, depth) if divide else []
    total = sum(n for _, n in parts) if divide else perft(pos, rules, depth)
    seconds = time.perf_counter() - start
    if json_out:
        doc: dict[str, Any] = {"depth": depth, "variant": rules.variant_name(), "nodes": total,
                               "seconds": round(seconds, 4)}
        if divide:
            doc["divide"] = dict(parts)
        common.print_json(doc)
        return
    lang = common.resolve_lang(lang)
    for name, n in parts:
        common.console.print(f"{name}: {n}")
    count = escape(words("term.perft", lang, depth=depth, nodes=total))
    took = escape(words("term.seconds", lang, seconds=f"{seconds:.3f}"))
    common.console.print(f"{count}   [dim]{took}[/]")


# --- play and watch ------------------------------------------------------------------
# The loop talks only to a Surface (raceday.terminal.surface): full screen at a terminal,
# lines when piped or with --plain. Every prompt understands help/?, quit and undo.
HUMAN = "human"
PlayersOpt = Annotated[
    list[str] | None,
    common.players_option(
        "Red then Black, separated by a comma (e.g. human,easy): human, easy, medium, hard, "
        "expert or another agent name (see `raceday hairpin levels`)."),
]


def _check_player(value: str | None) -> str | None:
    if value is not None and value.strip().lower() != HUMAN:
        make_agent(value)  # raises the OptionsError naming the agents
    return value


def _sides(players: list[str] | None, red: str | None, black: str | None,
           default: tuple[str, str]) -> tuple[str, str]:
    """Red's and Black's player from ``--players`` or ``--red``/``--black`` (checked)."""
    if players is not None:
        if red is not None or black is not None:
            raise OptionsError("give the players either with --players RED,BLACK or with "
                               "--red/--black, not both")
        if any("/" in value for value in players):
            raise OptionsError("--players: -p now means --players (Red then Black, e.g. "
                               "-p human,easy); give a position with --position")
        names = common.player_names(players) or []
        if len(names) != 2:
            raise OptionsError(f"--players takes two players, Red then Black (e.g. "
                               f"human,easy); got {len(names)}")
        red, black = names
    red = red if red is not None else default[0]
    black = black if black is not None else default[1]
    for option, name in (("--players" if players else "--red", red),
                         ("--players" if players else "--black", black)):
        try:
            _check_player(name)
        except OptionsError as exc:
            raise OptionsError(f"{option}: {exc}") from None
    return red, black


def _agent_for(name: str, think: float = DEFAULT_THINK) -> Agent | None:
    return None if name.strip().lower() == HUMAN else make_agent(name, think=think)


def bump_warning(state: HairpinState, move: Move, lang: str = "en") -> str | None:
    """What a bump decides when it is the player's last one allowed (None otherwise), in
    words: the state's own warning rendered from the message tables."""
    warning = state.bump_warning(move)
    return None if warning is None else render(warning, lang, "hairpin")


def _action_lines(state: HairpinState, lang: str = "en") -> str:
    """The legal actions numbered from 1, each decisive bump marked (markup)."""
    lines = []
    for i, a in enumerate(state.legal_actions(), 1):
        warning = bump_warning(state, state.move_of(a), lang)
        note = f"  [bold red]⚠ {escape(warning)}[/]" if warning else ""
        lines.append(f"  [bold]{i:2d}[/]  {escape(state.action_to_string(a))}{note}")
    return "\n".join(lines)


def _forced_note(state: HairpinState, action: Action, lang: str = "en") -> str | None:
    """Why a human's only legal action is played without asking (None: ask as usual)."""
    actions = state.legal_actions()
    if len(actions) != 1 or actions[0] != action:
        return None
    move = state.move_of(action)
    if move.kind == ENTER:
        return words("term.forced_pit", lang)
    return words("hp_forced", lang)


def _dice(faces: list[int]) -> str:
    """A setup roll's faces as read: "5", or "6, 6, 4" (a six is rolled again)."""
    return ", ".join(str(face) for face in faces)


def who_word(name: str, lang: str = "en") -> str:
    """A player's name as the terminal shows it: a person, or a computer's level (easy,
    medium, hard, expert), in the reader's language; another agent by its own name."""
    kind = name.strip().lower()
    if kind == HUMAN:
        return words("term.human", lang)
    if kind in LEVELS:
        return render(f"level_{kind}", lang)
    return name


def result_line(state: HairpinState, labels: dict[int, str], lang: str = "en") -> str:
    """Who won and why, in one sentence (markup)."""
    out = state.outcome()
    why = escape(describe_outcome("hairpin", out, lang))
    stop = "。" if lang == "ja" else "."
    if out.winner is None:  # the result's words say it is a draw ("draw: 100 plies ...")
        return f"[bold]{why[:1].upper()}{why[1:]}[/]{stop}"
    pos = state.position
    counts = words("term.counts", lang, lr=pos.laps[0], lb=pos.laps[1], br=pos.bumps[0],
                   bb=pos.bumps[1])
    return (f"[bold]{escape(words('term.wins', lang, player=labels[out.winner]))}[/] — "
            f"{why} {escape(counts)}{stop}")


def say_line(surface: Surface, markup: str) -> None:
    """One log line. In line mode it is printed unwrapped (a terminal wraps it itself),
    so a command in it is copied whole; a full-screen log wraps it to its width."""
    if isinstance(surface, LineSurface):
        surface.console.print(markup, soft_wrap=True)
    else:
        surface.say(markup)


class HairpinPlay:
    """One game in the terminal: the loop that ``run_game`` starts with a surface (full
    screen or lines), played on the terminal's session kit
    (:class:`~raceday.terminal.session.GameSession`: the state, its record, the seeded
    generator, undo and the save). Saved after every move when it has a store (play), not
    when it has none (watch)."""

    def __init__(self, state: HairpinState, red: str, black: str, rng: np.random.Generator,
                 *, think: float = DEFAULT_THINK, wait: float = 0.0,
                 store: SessionStore | None = None, save: str | None = None,
                 db: Path | None = None, notes: list[tuple[str, dict[str, Any]]] | None = None,
                 session: GameSession | None = None,
                 log: list[dict[str, Any]] | None = None) -> None:
        if session is None:
            session = GameSession(state, saves.recorder_for(state, red, black, name=save),
                                  rng, store=store, name=save)
        self.session = session
        self.red, self.black = red, black
        self.think, self.wait = think, wait
        self.save, self.db = save, db
        self.log: list[dict[str, Any]] = list(log or [])
        self.notes = list(notes or [])
        self.agents = {0: _agent_for(self.red, self.think), 1: _agent_for(self.black, self.think)}
        self.humans = [p for p in (0, 1) if self.agents[p] is None]

    @property
    def state(self) -> HairpinState:
        """The position being played (the session's)."""
        return self.session.state_as(HairpinState)

    @property
    def rng(self) -> np.random.Generator:
        return self.session.rng

    @classmethod
    def resumed(cls, record: Record, *, store: SessionStore | None, name: str | None,
                revision: int | None = None, think: float = DEFAULT_THINK, wait: float = 0.0,
                db: Path | None = None, notes: list[tuple[str, dict[str, Any]]] | None = None
                ) -> HairpinPlay:
        """The game of ``record`` ready to go on: its moves played again through the rules
        (the first one they refuse is a :class:`RecordError` naming its line), each move a
        person chose kept for undo, the generator where the record left it."""
        red, black = saves.sides(record)
        _, start = start_state(record)
        recorder = Recorder.resuming(Record(dict(record.tags), [], record.line))
        if name is not None:
            recorder.tags["Name"] = name
        session = GameSession(start, recorder, generator_from(record), store=store,
                              name=name, revision=revision)
        humans = {p for p, who in enumerate((red, black)) if who.strip().lower() == HUMAN}
        log: list[dict[str, Any]] = []
        for move in record.moves:
            state = session.state
            assert isinstance(state, HairpinState)
            ply = state.position.ply
            asked = (move.player in humans and not state.is_chance_node()
                     and not state.is_terminal() and len(state.legal_actions()) > 1)
            if asked:
                session.mark()
            apply_move(state, move)
            if move.player != CHANCE:
                log.append({"ply": ply, "side": move.player,
                            "move": session.recorder.moves[-1].name})
        state = session.state
        assert isinstance(state, HairpinState)
        return cls(state, red, black, session.rng, think=think, wait=wait, store=store,
save=name, db=db, notes=notes, session=session, log=log)

    # --- saving ---
    def resume_command(self) -> str:
        return common.resume_command("hairpin", "play", str(self.save), self.db)

    def save_now(self) -> None:
        """Save the game's record (through the session: nothing without a store)."""
        self.session.save()

    # --- what the surface shows ---
    def labels(self, lang: str) -> dict[int, str]:
        return {p: words("term.player", lang, side=side_name(p, lang),
                         who=who_word(name, lang))
                for p, name in ((0, self.red), (1, self.black))}

    def move_lines(self, lang: str) -> list[str]:
        """The move list: "3. R c1 charge e1" (narrow enough for its panel at 80x24);
        before the first move a line saying so, so the panel is there from the start and
        the log beside it keeps its width."""
        short = {0: words("term.red_short", lang), 1: words("term.black_short", lang)}
        lines = [words("term.move_line", lang, ply=entry["ply"] + 1,
                       side=short[entry["side"]], move=entry["move"])
                 for entry in self.log]
        return lines or [words("term.no_moves", lang)]

    def show(self, surface: Surface, status: str | None = None) -> None:
        """The board, and in full screen the status bar of the same position with it (one
        refresh: the bar never names the side that moved while the board shows the next)."""
        if surface.full_screen:
            surface.board(board_view(self.state, surface.lang), status)
        else:
            surface.say("")
            surface.board(state_markup(self.state, surface.lang))
        surface.moves(self.move_lines(surface.lang))

    # --- the loop ---
    def __call__(self, surface: Surface) -> int:
        lang = surface.lang
        for key, params in self.notes:
            say_line(surface, escape(words(key, lang, **params)))
        labels = self.labels(lang)
        vs_computer = len(self.humans) == 1
        # before the computer's first move: say so if its engine must be compiled first
        announce = vs_computer and not any(isinstance(a, GreedyAgent | RandomAgent)
                                           for a in self.agents.values())
        if announce:  # and load it while the person thinks, if it is cached
            from raceday.terminal.warm import preload

            preload("hairpin")
        if not self.humans and surface.full_screen:
            surface.status(words("term.status_watch", lang, red=labels[0], black=labels[1]))
        self.save_now()
        try:
            while not self.state.is_terminal():
                state = self.state
                if state.is_chance_node():
                    for event in self.session.draw():
                        surface.say(escape(words("term.setup_roll", lang, dice=_dice(event["dice"]),
                                                 red=event["red"], black=event["black"])))
                    self.save_now()
                    continue
                player = state.current_player()
                agent = self.agents[player]
                self.show(surface, words("term.status_turn" if agent is None
                                         else "term.status_thinking", lang,
                                         player=labels[player]))
                forced = ""
                undoable = False
                if agent is None:
                    only = state.legal_actions()
                    note = _forced_note(state, only[0], lang) if len(only) == 1 else None
                    if note is not None:
                        action = only[0]
                        forced = (f" [dim]({escape(words('term.played_for_you', lang, why=note))})"
                                  "[/]")
                    else:
                        choice = self.human_turn(surface, state, self.session.can_undo())
                        if choice == UNDO:
                            self.take_back(surface, vs_computer)
                            continue
                        assert isinstance(choice, int)
                        action = choice
                        undoable = True
                else:
                    if announce:
                        announce = False
                        from raceday.terminal.warm import announce_if_cold

                        announce_if_cold("hairpin", surface.say)
                    # chosen here, not on the session kit's thinking thread: ctrl-c stops a
                    # search at once (a search left running on a thread holds the exit)
                    action = agent.choose(state, self.session.rng)
                    if surface.full_screen:
                        surface.pause(self.wait)
                name = state.action_to_string(action)
                self.log.append({"ply": state.position.ply, "side": player, "move": name})
                self.session.move(player, action, undoable=undoable)
                say_line(surface, words("term.plays", lang, player=escape(labels[player]),
                                        move=f"[bold]{escape(name)}[/]") + forced)
                self.save_now()
                if agent is not None and not surface.full_screen:
                    surface.pause(self.wait)
        except (EOFError, Quit):
            self.save_now()
            if self.save is not None:
                command = self.resume_command()
                line = escape(common.saved_resume_line(str(self.save), command, lang))
                say_line(surface, line)
            return 0
        line = result_line(self.state, labels, lang)
        from rich.text import Text

        self.show(surface, words("term.status_over", lang,
                                 result=Text.from_markup(line).plain))
        say_line(surface, line)
        self.save_now()
        return 0

    def take_back(self, surface: Surface, vs_computer: bool) -> None:
        """Back to the position before the last move a person chose (against the computer:
        the computer's reply goes too)."""
        lang = surface.lang
        self.session.undo()
        restored = self.state
        ply = restored.position.ply
        taken = [entry for entry in self.log if entry["ply"] >= ply]
        self.log = [entry for entry in self.log if entry["ply"] < ply]
        if vs_computer or not taken:
            surface.say(escape(words("term.undone_pair", lang)))
        else:
            surface.say(escape(words("term.undone_one", lang, move=taken[0]["move"],
                                     side=side_name(restored.position.side, lang))))
        self.save_now()

    def human_turn(self, surface: Surface, state: HairpinState, can_undo: bool
                   ) -> Action | str:
        """Ask for a move until a legal one (an action) or :data:`UNDO` (when there is a
        move to take back)."""
        lang = surface.lang
        actions = state.legal_actions()
        if not surface.full_screen:
            surface.say(_action_lines(state, lang))
        # the game takes moves back: ctrl+z is offered (refused while there is none)
        prompt = replace(move_prompt(state, lang, surface.full_screen), undo=True)

        def refuse(why: str) -> None:
            refused(surface, why)

        while True:
            text = surface.ask(prompt)
            if text == UNDO:
                if can_undo:
                    return UNDO
                refuse(words("term.nothing_to_undo", lang))
                continue
            low = text.lower()
            choice: Action | None = None
            k = ascii_int(low)
            if k is None and common.foreign_digits(low):
                refuse(words("term.digits_only", lang, n=len(actions)))
                continue
            if k is not None:
                if not 1 <= k <= len(actions):
                    refuse(words("term.choose_number", lang, n=len(actions)))
                    continue
                choice = actions[k - 1]
            else:
                try:
                    choice = state.string_to_action(text)
                except IllegalActionError as exc:
                    refuse(_illegal_words(state, text, exc, lang))
                    continue
            move = state.move_of(choice)
            warning = state.bump_warning(move)
            if warning is not None and warning.params.get("decides") == "loses":
                answer = confirm(surface, state, move, can_undo)
                if answer == UNDO:
                    return UNDO
                if not answer:
                    continue
            return choice


def _illegal_words(state: HairpinState, text: str, exc: IllegalActionError, lang: str) -> str:
    """Why a typed move is not legal, in the reader's language."""
    if lang == "en":
        return exc.reason
    first = text.split()[0].lower() if text.split() else ""
    names = [state.action_to_string(a) for a in state.legal_actions()]
    same = [n for n in names if n.split()[0] == first]
    if same:
        return words("term.illegal_from", lang, square=first, names=", ".join(same))
    return words("refusal.illegal_move", lang, names=", ".join(names))


def move_prompt(state: HairpinState, lang: str = "en", full_screen: bool = False) -> Prompt:
    """The prompt for a person's move: the legal moves as choices (a move's name is what
    typing selects; its number works too), each with the board showing it."""
    choices = []
    for i, action in enumerate(state.legal_actions(), 1):
        move = state.move_of(action)
        name = move_name(move)
        warning = bump_warning(state, move, lang)
        label = f"{i} {name}" + (" ⚠" if warning else "")
        preview = board_view(state, lang, move, f"{i}  {name}", warning or "")
        choices.append(Choice(name, label, preview))
    example = choices[0].text if choices else ""
    text = words("term.your_move_full" if full_screen else "term.your_move", lang)
    return Prompt(text, choices=choices,
                  help=words("term.move_help", lang, n=len(choices), example=example))


def refused(surface: Surface, why: str) -> None:
    """Say why an answer is refused ("Refused: why.", as every game says it)."""
    lang = surface.lang
    surface.say(refusal_line(why if lang == "ja" else f"{why}.", lang))


def confirm(surface: Surface, state: HairpinState, move: Move, can_undo: bool = False
            ) -> bool | str:
    """Ask before a bump that loses the game: True plays it, False does not; :data:`UNDO`
    when asked to take back and there is a move to take back (else refused, asked again).
    The end of the input answers no, as Enter does."""
    lang = surface.lang
    warning = bump_warning(state, move, lang) or ""
    preview = board_view(state, lang, move, move_name(move), warning)
    prompt = Prompt(words("term.careful", lang, warning=warning),
                    choices=[Choice("y", words("term.yes", lang), preview),
                             Choice("n", words("term.no", lang), board_view(state, lang))],
                    help=words("term.careful_help", lang), undo=True)
    while True:
        try:
            text = surface.ask(prompt).strip().lower()
        except EOFError:
            return False
        if text == UNDO:
            if can_undo:
                return UNDO
            refused(surface, words("term.nothing_to_undo", lang))
            continue
        if text in ("", *common.NO):
            return False
        if text in common.YES:
            return True
        refused(surface, words("term.yes_no", lang).rstrip("."))


def _list_saved(db: Path | None, lang: str) -> None:
    store = ReadOnlyStore(db)  # only read: a missing file stays missing
    names = store.names(SAVE_KIND)
    if not names:
        common.console.print(escape(words("term.list_none", lang)))
        return
    for name in names:
        try:
            saved = saves.load(store, name)
            state = saves.final_state(saved)
            red, black = saves.sides(saved.record)
        except RacedayError:
            continue  # a save this version cannot read is not listed
        row = words("term.list_row", lang, name=name, ply=state.position.ply,
                    red=words("term.player", lang, side=side_name(0, lang),
                              who=who_word(red, lang)),
                    black=words("term.player", lang, side=side_name(1, lang),
                                who=who_word(black, lang)),
                    over=words("term.list_over", lang) if state.is_terminal() else "")
        common.console.print(escape(row), soft_wrap=True)
    common.console.print(escape(words("term.list_hint", lang)))


ResumeOpt = Annotated[str | None, common.resume_option(
    "Go on with the saved game NAME (see --list), or from a record FILE (a "
    "Hairpin game's record, e.g. from raceday record export).")]


def _names_a_file(resume: str, db: Path | None) -> bool:
    """Whether ``--resume`` names a record file rather than a saved game: a name saved in
    the database is the saved game; else a path that is there, or looks like one."""
    store = ReadOnlyStore(db)
    if not store.missing and store.exists(SAVE_KIND, resume):
        return False
    return Path(resume).exists() or any(c in resume for c in "/\\.")


def _record_file(path: str) -> Record:
    """The Hairpin record of the file ``path``, played through the rules
    (:class:`RecordError` names the line of a bad one, or the game of a record of
    another game)."""
    from raceday.core.files import read_user_text

    record = parse_record(read_user_text(path, kind="record"))
    if record.game != SAVE_KIND:
        raise RecordError(f"{path} is a record of {record.game}, not of hairpin: go on with "
                          f"it with raceday {record.game.split('_')[0]} play --resume",
                          record.line)
    saves.sides(record)
    replay(record)  # checked through the rules before anything is written
    return record


def _record_name(record: Record | None) -> str | None:
    """The name a record was saved under, if it is one a new save may take."""
    name = None if record is None else record.tags.get("Name")
    if not isinstance(name, str):
        return None
    try:
        return check_session_name(name)
    except OptionsError:
        return None


@app.command("play")
@game_options(HairpinOptions)
@option_group(common.Face)
def play_command(
    players: PlayersOpt = None,
    red: Annotated[str | None, typer.Option(
        "--red", metavar="WHO", help="Who plays Red (default human); same names as "
        "--players.")] = None,
    black: Annotated[str | None, typer.Option(
        "--black", metavar="WHO", help="Who plays Black (default expert).")] = None,
    game: GameOpts = GIVEN,
    save: Annotated[str | None, common.save_option("game", SAVE_KIND)] = None,
    resume: ResumeOpt = None,
    list_games: common.ListOpt = False,
    db: common.DbOpt = None,
    seed: common.SeedOpt = None,
    delay: common.DelayOpt = None,
    think: ThinkOpt = DEFAULT_THINK,
    face: common.Face = common.FACE,
) -> None:
    """Play a game in the terminal: pick a move from the list or type its number or name;
    help, undo and quit work at every prompt. Saved after every move."""
    # Every check happens before the store is opened, so a bad option writes nothing.
    lang = face.language()
    if list_games:
        _list_saved(db, lang)
        return
    if resume is not None:
        given = [spec.name for spec in game.specs  # the options given, not their defaults
                 if game.given.get(spec.field, spec.default) != spec.default]
        given += [flag for flag, value in (("--players", players), ("--red", red),
                                           ("--black", black)) if value is not None]
        if given:
            raise OptionsError(f"--resume goes on with the saved game's own players and "
                               f"variant; leave out {', '.join(given)}")
    notes: list[tuple[str, dict[str, Any]]] = []
    wait = common.default_delay(delay, 0.3)
    if resume is None:
        options = game.parse()
        state = HAIRPIN.new_state(options)
        red, black = _sides(players, red, black, (HUMAN, "expert"))
        chosen = options.model_dump(mode="json", exclude_none=True)
        seed = common.fresh_seed(seed)
        recorded: Record | None = None
    else:
        recorded = _record_file(resume) if _names_a_file(resume, db) else None
        if recorded is None and save is not None and save != resume:
            raise OptionsError("give --resume NAME to go on with a saved game, or --save "
                               "NAME for a new one, not both")
    store = writable_store(db)  # a read-only database is refused before the first move
    if resume is not None and recorded is None:  # a saved game: it goes on under its name
        name = resume
        saved = saves.load(store, name)
        loop = HairpinPlay.resumed(saved.record, store=store, name=name,
                                   revision=saved.revision, think=think, wait=wait, db=db,
                                   notes=notes)
    else:
        if save is not None:  # a name given is used as given, or refused
            common.refuse_taken_save(store, SAVE_KIND, save, "Hairpin",
                                     common.resume_command("hairpin", "play", save, db))
        wanted = save or _record_name(recorded) or SAVE_KIND
        name = store.fresh_name(SAVE_KIND, wanted)
        if name != wanted:
            notes.append(("term.name_taken", {"wanted": repr(wanted), "name": repr(name),
                                              "old": wanted}))
        if recorded is not None:  # a record file: it goes on as a new saved game
            loop = HairpinPlay.resumed(recorded, store=store, name=name, think=think,
                                       wait=wait, db=db, notes=notes)
        else:
            assert red is not None and black is not None
            recorder = saves.recorder_for(state, red, black, options=chosen, seed=seed,
                                          name=name)
            session = GameSession(state, recorder, np.random.default_rng(seed), store=store,
                                  name=name)
            loop = HairpinPlay(state, red, black, session.rng, think=think, wait=wait,
                               store=store, save=name, db=db, notes=notes, session=session)
    if resume is not None:
        resumed = name if recorded is None else resume
        loop.notes.insert(0, ("term.resuming", {"name": repr(resumed),
                                                "ply": loop.state.position.ply}))
    kept = words("term.kept", lang, name=repr(name))
    with common.on_interrupt(kept, loop.resume_command()):
        run_command(loop, title=words("title", lang), lang=lang, plain=face.plain)


@app.command("watch")
@game_options(HairpinOptions)
@option_group(common.Face)
def watch_command(
    players: Annotated[list[str] | None, common.players_option(
        "Two computer players, Red then Black (default medium,hard): easy, medium, hard, "
        "expert or another agent name (see `raceday hairpin levels`).")] = None,
    game: GameOpts = GIVEN,
    seed: common.SeedOpt = None,
    delay: common.DelayOpt = None,
    think: ThinkOpt = DEFAULT_THINK,
    face: common.Face = common.FACE,
) -> None:
    """Watch two computer players race (nothing is saved; space pauses, q quits)."""
    lang = face.language()
    state = HAIRPIN.new_state(game.parse())
    red, black = _sides(players, None, None, ("medium", "hard"))
    if HUMAN in (red.strip().lower(), black.strip().lower()):
        raise OptionsError("--players: watch is between two computer players; use "
                           "`raceday hairpin play` to play yourself")
    rng = np.random.default_rng(common.fresh_seed(seed))
    loop = HairpinPlay(state, red, black, rng, think=think,
                       wait=common.default_delay(delay, 0.6))
    with common.on_interrupt("nothing (a watched game is not saved)"):
        run_command(loop, title=words("title", lang), lang=lang, plain=face.plain)


# --- match ---------------------------------------------------------------------------
def _results_table(result: MatchResult, lang: str = "en") -> Table:
    table = Table(title=escape(words("term.match.title", lang, a=result.a, b=result.b,
                                     games=result.games)))
    for col in ("agent", "wins", "losses", "draws", "score", "plies"):
        table.add_column(words(f"term.match.{col}", lang),
                         justify="left" if col == "agent" else "right")
    for name, wins, losses in ((result.a, result.a_wins, result.b_wins),
                               (result.b, result.b_wins, result.a_wins)):
        score = (wins + 0.5 * result.draws) / result.games
        table.add_row(escape(name), str(wins), str(losses), str(result.draws), f"{score:.3f}",
                      f"{result.average_length:.1f}")
    return table


@app.command("match")
def match_command(
    players: Annotated[list[str] | None, common.players_option(
        "The two computer players, A (Red in the first game) then B: "
        f"{PLAYER_HELP.replace('human, ', '')}")] = None,
    red: Annotated[str | None, typer.Option(
        "--red", metavar="WHO", help="Agent A (Red in the first game), instead of "
        "--players.")] = None,
    black: Annotated[str | None, typer.Option(
        "--black", metavar="WHO", help="Agent B (Black in the first game).")] = None,
    games: Annotated[int, typer.Option("-n", "--games", metavar="N",
                                       callback=common.in_range(1, MAX_GAMES, "games"),
                                       help=f"Number of games (1 to {MAX_GAMES:,}).")] = 10,
    variant: str = field_option(HairpinOptions, "variant"),
    seed: common.GamesSeedOpt = None,
    swap: Annotated[bool, typer.Option(
        "--swap/--no-swap",
        help="Swap sides every game (each opening is played once from each side).")] = True,
    opening: Annotated[int, typer.Option(
        "--opening-plies", metavar="N", callback=common.in_range(0, MAX_OPENING_PLIES, "plies"),
        help="Random plies played before the agents take over, so games differ "
        f"(0 to {MAX_OPENING_PLIES}).")] = DEFAULT_OPENING_PLIES,
    think: ThinkOpt = DEFAULT_THINK,
    json_out: common.JsonOpt = False,
    lang: common.LangOpt = None,
) -> None:
    """AI-versus-AI matches with a results table (wins, losses, draws, average length)."""
    if players is None and (red is None or black is None):
        raise OptionsError("a match needs two computer players: --players A,B (or --red A "
                           "--black B)")
    red, black = _sides(players, red, black, ("", ""))
    if HUMAN in (red.strip().lower(), black.strip().lower()):
        raise OptionsError("a match is between computer players; use `play` for humans")
    make_agent(red, think=think), make_agent(black, think=think)  # check the names first
    lang = common.resolve_lang(lang)
    seed = common.fresh_seed(seed)
    with common.progress_bar(words("term.match.progress", lang), games,
                             enabled=not json_out) as bar:
        task = bar.task_ids[0]
        result = play_match(
            lambda: make_agent(red, think=think), lambda: make_agent(black, think=think),
            games, variant=variant,
            seed=seed, opening_plies=opening, names=(red, black), alternate=swap,
            on_game=lambda _g, _r: bar.advance(task),
        )
    if json_out:
        common.print_json({**result.to_json(), "seed": seed})
        return
    common.console.print(_results_table(result, lang))
    again = common.seed_line(seed, "games", lang)
    common.console.print(f"[dim]{escape(again)}[/]")


@app.command("show")
@game_options(HairpinOptions)
def show_command(game: GameOpts = GIVEN, lang: common.LangOpt = None) -> None:
    """Draw a position and list its legal actions."""
    lang = common.resolve_lang(lang)
    state = HAIRPIN.new_state(game.parse(setup=game.get("setup") or "symmetric"))
    common.console.print(state_markup(state, lang))
    common.console.print(_action_lines(state, lang))


@app.command("levels")
def levels_command(lang: common.LangOpt = None) -> None:
    """List the difficulty levels and the agents behind them."""
    language = common.resolve_lang(lang)
    levels = [*LEVELS.values(), OLD_EXPERT]
    width = max(len(level.name) for level in levels)
    for level in levels:  # the descriptions in one column (the words of Level.description)
        said = escape(words(f"term.level.{level.name}", language))
        common.console.print(f"[bold]{level.name:{width}s}[/]  {said}")
    agents = words("term.levels_agents", language)  # PLAYER_HELP, in the reader's language
    common.console.print(escape(words("term.levels_also", language, agents=agents)))


# --- analyse -------------------------------------------------------------------------
def value_text(value: float, lang: str = "en") -> str:
    """A search value for the side to move: a lead in spaces, or a forced result (its
    words in ``lang``; the JSON's ``text`` is always the English)."""
    from raceday.games.hairpin.search import MATE, WIN

    if value >= MATE:
        return words("term.analyse.wins_in", lang, n=round(WIN - value))
    if value <= -MATE:
        return words("term.analyse.loses_in", lang, n=round(WIN + value))
    return f"{value:+.2f}"


def _report_json(state: HairpinState, report: SearchReport, lines: int) -> dict[str, Any]:
    return {
        "position": state.position_text(), "variant": state.rules.variant_name(),
        "side": PLAYER_NAMES[state.position.side], "depth": report.depth,
        "seldepth": report.seldepth, "nodes": report.nodes,
        "seconds": round(report.seconds, 3),
        "moves": [
            {"move": state.action_to_string(a), "value": round(v, 3), "text": value_text(v),
             "line": _line_names(state, line)}
            for a, v, line in zip(report.actions[:lines], report.values[:lines],
                                  report.lines, strict=False)
        ],
    }


def _line_names(state: HairpinState, line: list[int]) -> list[str]:
    names = []
    walker = state.clone()
    for action in line:
        names.append(walker.action_to_string(action))
        walker.apply_action(action)
    return names


@app.command("analyse")
@game_options(HairpinOptions)
def analyse_command(
    game: GameOpts = GIVEN,
    save: Annotated[str | None, typer.Option(
        "--from", metavar="NAME", callback=lambda v: None if v is None else _check_name(v),
        help="Analyse the position of the saved game NAME instead (read only).")] = None,
    think: ThinkOpt = DEFAULT_THINK,
    lines: Annotated[int, typer.Option(
        "--lines", callback=common.in_range(1, MAX_LINES, "moves"),
        help=f"How many of the best moves to show (1 to {MAX_LINES}).")] = 5,
    db: common.DbOpt = None,
    json_out: common.JsonOpt = False,
    lang: common.LangOpt = None,
) -> None:
    """The best moves of a position with their values and principal variations, and how
    deep the search went (the expert's search, --think seconds)."""
    from raceday.games.hairpin.agents import think as search_for

    lang = common.resolve_lang(lang)
    if game.get("position") is not None and save is not None:
        raise OptionsError("give either --position or --from, not both")
    if save is not None:
        state = saves.final_state(saves.load(ReadOnlyStore(db), save))  # only read
    else:
        state = HAIRPIN.new_state(game.parse(setup=game.get("setup") or "symmetric"))
    if state.is_chance_node():
        raise OptionsError("the saved game is still in its random setup; analyse it after "
                           "the setup rolls")
    if state.is_terminal():
        if json_out:
            common.print_json({"position": state.position_text(), "over": True,
                               "result": describe_outcome("hairpin", state.outcome()), "moves": []})
            return
        common.console.print(state_markup(state, lang))
        common.console.print(escape(words("term.analyse.over", lang)))
        return
    report = search_for(state, think, exact_all=True, pv_moves=lines)
    if json_out:
        common.print_json(_report_json(state, report, lines))
        return
    common.console.print(state_markup(state, lang))
    rate = report.nodes / max(report.seconds, 1e-9)
    side = words(f"term.analyse.side_{PLAYER_NAMES[state.position.side]}", lang)
    searched = words("term.analyse.searched", lang, depth=report.depth,
                     seldepth=report.seldepth, nodes=f"{report.nodes:,}",
                     seconds=f"{report.seconds:.2f}", rate=f"{rate:,.0f}", side=side)
    common.console.print(escape(searched), soft_wrap=True)
    table = Table()
    for col in ("rank", "move", "value", "line"):
        table.add_column(words(f"term.analyse.{col}", lang),
                         justify="right" if col in ("rank", "value") else "left")
    for rank, (action, value, line) in enumerate(
            zip(report.actions[:lines], report.values[:lines], report.lines, strict=False), 1):
        table.add_row(str(rank), escape(state.action_to_string(action)), value_text(value, lang),
                      escape(", ".join(_line_names(state, line))))
    common.console.print(table)
