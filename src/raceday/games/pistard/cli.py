"""`raceday pistard …` commands: play a race, watch computers race, simulate computer races,
show a track.

``play`` and ``watch`` talk only to a :class:`raceday.terminal.surface.Surface`: full screen
at a terminal, lines when piped or with ``--plain``. Every prompt understands help, ?, quit
(the race is saved; the line says how to go on) and undo (a person's last decision is taken
back, with the same dice)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from raceday.core.digits import ascii_int
from raceday.core.errors import OptionsError, RacedayError, SaveFormatError
from raceday.core.events import Event
from raceday.core.protocol import Action
from raceday.games.pistard.agents import LEVELS, make_agent
from raceday.games.pistard.game import GAME
from raceday.games.pistard.moves import START_ZONE, choose_action, place_action, placement_of
from raceday.games.pistard.options import PistardOptions
from raceday.games.pistard.render import (
    board_view,
    commentary,
    dice_line,
    frame_view,
    lap_lines,
    move_short,
    result_lines,
    result_view,
    standings_line,
    track_name,
)
from raceday.games.pistard.saves import kinds_of, load_race, race_file, seats, start_tags
from raceday.games.pistard.simulate import simulate as run_simulation
from raceday.games.pistard.state import PHASE_PLACE, PistardState
from raceday.games.pistard.track import COLOURS, LANES, LETTERS, colour_index, load_track
from raceday.present import describe_outcome, render
from raceday.store.records import SavedGame
from raceday.store.sessions import ReadOnlyStore, SessionStore, writable_store
from raceday.terminal import common
from raceday.terminal.groups import option_group
from raceday.terminal.options import GIVEN, GivenOptions, game_options
from raceday.terminal.session import GameSession
from raceday.terminal.surface import UNDO, Choice, Prompt, Quit, Surface, refusal_line
from raceday.terminal.tui import run_command

HELP = ("PISTARD (Anki Toner): track cycling for 2–5 players on a coloured four-lane "
        "velodrome, in six race variants.")

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False)
KINDS = ("human", *LEVELS)
KIND_ALIASES = {"h": "human", "you": "human", "e": "easy", "m": "medium", "x": "hard",
                "xx": "expert"}
MAX_RACES = 100_000
MAX_PLAYOUTS = 10_000
MAX_PLAYERS = 5
DEFAULT_SAVE = "pistard"


# --variant, --riders-per-player, --tokens, --laps, --lap-points, --track, --max-rounds:
# the options model's fields (the player count comes from --players)
RaceOptions = GivenOptions[PistardOptions]


DEFAULT_PLAYERS = {"ttt": "human", "sprint": "human,medium", "pursuit": "human,medium"}
DEFAULT_COMPUTERS = {"ttt": "medium"}


def _spec(values: Sequence[str] | str | None) -> str | None:
    """``-p human,medium`` and ``-p human -p medium`` as one comma list."""
    if values is None or isinstance(values, str):
        return values
    return ",".join(values)


def parse_players(spec: Sequence[str] | str | None, variant: str) -> list[str]:
    """``human,medium,hard`` -> the kind of each player (h/e/m/x abbreviations allowed)."""
    spec = _spec(spec)
    if spec is None:
        spec = DEFAULT_PLAYERS.get(variant, "human,medium,medium")
    if not spec.strip():
        raise OptionsError("--players is empty; list the players, e.g. human,medium,hard")
    raw_kinds = common.player_names([spec]) or [""]  # an empty name is refused
    if len(raw_kinds) > MAX_PLAYERS:
        raise OptionsError(f"--players lists {len(raw_kinds)} players; a race has 2 to "
                           f"{MAX_PLAYERS} (the team time trial 1)")
    kinds = []
    for raw in raw_kinds:
        key = raw.strip().lower()
        kind = KIND_ALIASES.get(key, key)
        if kind not in KINDS:
            raise OptionsError(
                f"unknown player {raw.strip()!r} in --players; use human, easy, medium, hard "
                "or expert separated by commas, e.g. human,medium,hard"
            )
        kinds.append(kind)
    return kinds


def _word(key: str, lang: str, **params: object) -> str:
    """PISTARD's terminal words (``term.<key>`` of its message table) in ``lang``."""
    return render(f"term.{key}", lang, "pistard", params)


def _plural(key: str, n: int, lang: str) -> str:
    return _word(key, lang, n=n)


def _variant(variant: str, lang: str) -> str:
    return render(f"pi_variant_{variant}", lang, "pistard")


def _kind(kind: str, lang: str) -> str:
    return _word("kind_human", lang) if kind == "human" else render(f"level_{kind}", lang)


# --- play and watch -----------------------------------------------------------------------
PlayersOpt = Annotated[
    list[str] | None,
    common.players_option(
        "Players, comma-separated: human, easy, medium, hard, expert (2-5; the team time "
        "trial has one). Default: human against medium computers. Computers only: watch a "
        "race (as `watch` does)."),
]
ComputersOpt = Annotated[
    list[str] | None,
    common.players_option(
        "Computer players by level, comma-separated: easy, medium, hard, expert (2-5; the "
        "team time trial has one). Default: easy,medium (medium alone in the team time "
        "trial)."),
]
SaveOpt = Annotated[str | None, common.save_option("race", "pistard")]


def _race_command(command: str, players_option: Any,
                  kinds_of: Callable[[Sequence[str] | None, str], list[str]], doc: str) -> None:
    """Register ``raceday pistard <command>`` (play, watch): a race in the terminal with
    the players ``kinds_of`` reads from ``--players`` (its option ``players_option``)."""

    def run(
        race: RaceOptions = GIVEN,
        players: list[str] | None = None,
        save: SaveOpt = DEFAULT_SAVE,
        resume: common.ResumeOpt = None,
        list_saved: common.ListOpt = False,
        db: common.DbOpt = None,
        seed: common.SeedOpt = None,
        delay: common.DelayOpt = None,
        face: common.Face = common.FACE,
    ) -> None:
        language = face.language()
        if list_saved:
            _list_saved(ReadOnlyStore(db), language)  # only read: nothing is made
            return
        kinds = None if resume is not None else kinds_of(players, race.get("variant"))
        race_run = _open_race(command, kinds, race, seed, save, resume, db, delay, language,
                              named=common.given_on_command_line("save"))
        if race_run is None:
            return
        run_command(race_run.main, title=race_run.title(), lang=language, plain=face.plain)

    run.__annotations__["players"] = players_option
    run.__name__ = run.__qualname__ = command
    run.__doc__ = doc
    app.command(command)(game_options(PistardOptions)(option_group(common.Face)(run)))


def _computers(players: Sequence[str] | None, variant: str, command: str) -> list[str]:
    kinds = parse_players(DEFAULT_COMPUTERS.get(variant, "easy,medium") if players is None
                          else players, variant)
    if "human" in kinds:
        raise OptionsError(f"{command} plays computers only: use easy, medium, hard or expert "
                           "(humans ride with `raceday pistard play`)")
    return kinds


def _play_players(players: Sequence[str] | None, variant: str) -> list[str]:
    return parse_players(players, variant)


def _watch_players(players: Sequence[str] | None, variant: str) -> list[str]:
    return _computers(players, variant, "watch")


_race_command("play", PlayersOpt, _play_players,
              "Play a race in the terminal: humans choose moves from the listed ones, "
              "computers ride.")
_race_command("watch", ComputersOpt, _watch_players,
              "Watch computer riders race, round by round (saved each round; --resume NAME "
              "goes on).")


def _list_saved(store: SessionStore, lang: str) -> None:
    """One saved race a line: its name (typed back whole by --resume), then what it is."""
    out = common.console
    names = store.names(GAME.name)
    if not names:
        out.print(Text(_word("list_none", lang, path=str(store.path))), soft_wrap=True)
        return
    out.print(Text(_word("list_head", lang, path=str(store.path))), soft_wrap=True)
    for name in names:
        out.print(Text(f"  {name}", style="bold"), soft_wrap=True)
        try:
            state, kinds = _opened(load_race(store, name))
        except RacedayError as exc:
            out.print(Text("      " + _word("list_bad", lang, problem=str(exc))), soft_wrap=True)
            continue
        key = "list_over" if state.is_terminal() else "list_row"
        out.print(Text("      " + _word(key, lang, variant=_variant(state.options.variant, lang),
                                        round=state.round,
                                        kinds=", ".join(_kind(k, lang) for k in kinds))),
                  soft_wrap=True)


def _opened(saved: SavedGame) -> tuple[PistardState, list[str]]:
    """A saved race's position and its players' kinds (:class:`SaveFormatError` when the
    record is not of a PISTARD race)."""
    if saved.record.game != GAME.name:
        raise SaveFormatError(f"this save is a record of {saved.record.game}, not of PISTARD")
    state = saved.state()
    if not isinstance(state, PistardState):
        raise SaveFormatError("this save is not of a PISTARD race")
    return state, kinds_of(saved.record, state.num_players)


def _resumed_session(saved: SavedGame, store: SessionStore, session: str,
                     revision: int | None) -> tuple[GameSession, list[str]]:
    """The saved race ready to go on, saving as ``session`` in ``store``."""
    _opened(saved)  # refused before anything is made
    game = GameSession.from_saved(saved, store=store, name=session)
    game.revision = revision
    game.recorder.tags["Name"] = session  # a record file goes on under the name it saves as
    state = game.state
    assert isinstance(state, PistardState)
    return game, kinds_of(saved.record, state.num_players)


def _names_a_file(resume: str, db: Path | None) -> bool:
    """``--resume`` names a record file: a file there, unless the database already holds a
    race saved under that name (read only: nothing is made)."""
    return Path(resume).is_file() and not ReadOnlyStore(db).exists(GAME.name, resume)


def _open_race(command: str, new_kinds: list[str] | None, race: RaceOptions,
               seed: int | None, save: str | None, resume: str | None, db: Path | None,
               delay: float | None, lang: str, named: bool = False) -> _Race | None:
    """Check everything and open the race (a new one, the saved ``resume`` or the record
    file ``resume``) before a screen opens: a bad option, save or record writes nothing
    and asks nothing. None: the race is already over (its result was printed).
    ``named``: ``save`` was given with --save (a name taken is refused) rather than the
    default (a free one is picked)."""
    used_seed: int | None = None
    start: PistardState | None = None
    from_file: SavedGame | None = None
    if new_kinds is not None:
        start = GAME.new_state(race.parse(players=len(new_kinds)))  # a bad track: refused
    elif resume is not None and _names_a_file(resume, db):
        from_file = race_file(resume)  # another game's or a bad record: refused, its line named
        state, kinds = _opened(from_file)
        if state.is_terminal():
            _say_over(resume, state, lang)
            return None
    elif resume is not None and save not in (None, DEFAULT_SAVE, resume):
        raise OptionsError(f"--resume {resume} goes on with a saved race and --save "
                           f"{save} names a new one; give one of them")
    wait = common.default_delay(delay)
    store = writable_store(db)  # a read-only database is refused before the first round
    notes: list[str] = []
    game: GameSession
    if resume is not None and from_file is not None:
        saved = from_file
        if named and save is not None:
            common.refuse_taken_save(store, GAME.name, save, "PISTARD",
                                     common.resume_command("pistard", command, save, db))
        session = store.fresh_name(GAME.name, save if named and save else
                                   (Path(resume).stem or DEFAULT_SAVE))
        game, kinds = _resumed_session(saved, store, session, None)
        notes.append(_word("resuming", lang, name=repr(resume),
                           variant=_variant(state.options.variant, lang), round=state.round))
    elif resume is not None:
        session = resume
        saved = load_race(store, session)
        state, kinds = _opened(saved)
        if state.is_terminal():
            _say_over(session, state, lang)
            return None
        game, kinds = _resumed_session(saved, store, session, saved.revision)
        notes.append(_word("resuming", lang, name=repr(session),
                           variant=_variant(state.options.variant, lang), round=state.round))
    else:
        assert new_kinds is not None and start is not None
        used_seed = common.fresh_seed(seed)
        kinds = new_kinds
        if save is not None and named:  # a name given is used as given, or refused
            common.refuse_taken_save(store, GAME.name, save, "PISTARD",
                                     common.resume_command("pistard", command, save, db))
        wanted = save or DEFAULT_SAVE
        session = store.fresh_name(GAME.name, wanted)
        if session != wanted:
            again = common.shell_quote("raceday", "pistard", command, "--resume", wanted,
                                       *(["--db", str(db)] if db is not None else []))
            notes.append(_word("name_taken", lang, wanted=repr(wanted), name=repr(session),
                               command=again))
        game = _new_session(start, kinds, used_seed, store, session)
    race_run = _Race(command=command, game=game, kinds=kinds, db=db, lang=lang, wait=wait,
                     seed=used_seed, notes=notes)
    if game.revision is None:
        race_run.save()
    return race_run


def _say_over(name: str, state: PistardState, lang: str) -> None:
    out = common.console
    out.print(Text(_word("already_over", lang, name=repr(name))))
    out.print(Rule(_word("result", lang)))
    for line in result_lines(state, lang):
        out.print(line, soft_wrap=True)


def _new_session(state: PistardState, kinds: list[str], seed: int,
                 store: SessionStore, session: str) -> GameSession:
    """A new race's session: its record begins with the options, the seats and the seed."""
    return GameSession.new(GAME.name, state.options.to_json(), seed=seed, seats=seats(kinds),
                           store=store, name=session, tags=start_tags(state), state=state)


def new_race(options: PistardOptions, kinds: list[str], *, seed: int, db: Path,
             save: str = DEFAULT_SAVE, lang: str = "en", wait: float = 0.0,
             command: str = "play") -> _Race:
    """A new race saved in ``db`` as ``play`` and ``watch`` open it; its ``main`` plays it
    on a surface (the full-screen tests run it in a GameApp)."""
    store = SessionStore(db)
    game = _new_session(GAME.new_state(options), kinds, seed, store,
                        store.fresh_name(GAME.name, save))
    race_run = _Race(command=command, game=game, kinds=kinds, db=db, lang=lang, wait=wait,
                     seed=seed)
    race_run.save()
    return race_run


@dataclass
class _Snapshot:
    """A person's decision that undo takes back (the session marks the position before
    it); the generator then, so the race goes on with the same dice."""

    rng: dict[str, Any]
    what: str


@dataclass
class _Race:
    """A race being played or watched in the terminal, on a :class:`GameSession` (its
    record written as it is played, saved through the session)."""

    command: str
    game: GameSession
    kinds: list[str]
    db: Path | None
    lang: str
    wait: float
    seed: int | None = None
    notes: list[str] = field(default_factory=list)
    history: list[_Snapshot] = field(default_factory=list)
    moves_made: list[str] = field(default_factory=list)
    saved_round: int = 0

    @property
    def state(self) -> PistardState:
        return self.game.state_as(PistardState)

    @property
    def session(self) -> str:
        return str(self.game.name)

    def title(self) -> str:
        return _word("title", self.lang, variant=_variant(self.state.options.variant,
                                                          self.lang))

    def resume_command(self) -> str:
        return common.resume_command("pistard", self.command, self.session, self.db)

    def save(self, log_entry: dict[str, Any] | None = None) -> None:
        """Save the race's record (through the session: the one writer of saved games)."""
        self.game.save(log_entry=log_entry)
        self.saved_round = self.state.round

    # --- the loop -----------------------------------------------------------------------
    def main(self, surface: Surface) -> int:
        """Ride the race to its end on ``surface``; quit or the end of input saves it and
        says how to go on. Ctrl-C saves too, says so on one line, and gives 130."""
        try:
            self._ride(surface)
        except Quit:
            self.save()
            surface.say(Text(common.saved_resume_line(self.session, self.resume_command(),
                                                      self.lang), no_wrap=True))
            return 0
        except EOFError:
            self.save()
            surface.say(Text("\n" + common.saved_resume_line(
                self.session, self.resume_command(), self.lang, input_ended=True),
                no_wrap=True))
            return 0
        except KeyboardInterrupt:
            when = ("before the first round" if self.saved_round == 0
                    else f"in round {self.saved_round}")
            kept = f"the race is saved as {self.session!r} as it stood {when}"
            try:
                with common.on_interrupt(kept, self.resume_command()):
                    raise
            except typer.Exit as done:  # the line is said (and the entry point knows it)
                return done.exit_code
        return 0

    def _say_header(self, surface: Surface) -> None:
        state, lang = self.state, self.lang
        opts = state.options
        for note in self.notes:
            surface.say(Text(note))
        header = _word("header", lang, variant=_variant(opts.variant, lang),
                       players=_plural("players", opts.num_players, lang),
                       riders=_plural("riders", opts.total_riders, lang))
        # a rule across the lines; a narrow log panel would cut a rule's words
        surface.say(Text(header, style="bold") if surface.full_screen else Rule(header))
        surface.say(Text(_word("track", lang, track=track_name(state.track, lang),
                               length=state.track.length)))
        for p, kind in enumerate(self.kinds):
            idents = [str(r.ident) for r in state.riders if r.owner == p]
            key = "player_line_one" if len(idents) == 1 else "player_line"
            surface.say(Text(_word(key, lang, player=p + 1, kind=_kind(kind, lang),
                                   riders=", ".join(idents))))
        if self.seed is not None:
            surface.say(Text(_word("seed", lang, seed=self.seed), style="dim"))

    def _ride(self, surface: Surface) -> None:
        state, lang = self.state, self.lang
        self._say_header(surface)
        agents = {p: make_agent(kind) for p, kind in enumerate(self.kinds) if kind != "human"}
        # before a searching rider's first move with a person racing: say so if its
        # compiled engine must be compiled first, and load it while the person thinks
        announce = "human" in self.kinds and any(k in ("hard", "expert") for k in self.kinds)
        if announce:
            from raceday.terminal.warm import preload

            preload("pistard")
        watching = "human" not in self.kinds
        shown_round = -1
        while not self.state.is_terminal():
            state = self.state
            if watching and state.phase != PHASE_PLACE and state.round != shown_round:
                shown_round = state.round
                self.save()  # computers only: the race is kept round by round
                if not surface.full_screen:
                    surface.say(Rule(_word("round", lang, n=state.round)))
                surface.board(board_view(state, lang))
                _status(surface, _word("status_watch", lang, round=state.round))
            if state.is_chance_node():
                self._narrate(surface, self.game.draw())
                continue
            player = state.current_player()
            if player in agents:
                if announce:
                    announce = False
                    from raceday.terminal.warm import announce_if_cold

                    announce_if_cold("pistard", lambda text: surface.say(Text(str(text))))
                choice = self.game.think(agents[player]).result()
                self._narrate(surface, self.game.move(player, choice))
                if surface.full_screen:
                    surface.board(board_view(self.state, lang))
                surface.pause(self.wait)
                continue
            rng = dict(self.game.rng.bit_generator.state)
            answer = _human_turn(surface, state, player, lang)
            if answer is None:  # undo
                self._undo(surface)
                continue
            self.history.append(_Snapshot(rng, _undo_what(state, answer, lang)))
            self._narrate(surface, self.game.move(player, answer, undoable=True))
            self.save()
        state = self.state
        _status(surface, _word("status_over", lang))
        result = result_lines(state, lang)
        if surface.full_screen:  # the table under the track (the log is too narrow for it)
            surface.board(result_view(state, lang, Rule(_word("result", lang))))
            surface.say(result[0])
        else:
            surface.board(board_view(state, lang))
            surface.say(Rule(_word("result", lang)))
            for line in result:
                surface.say(line)
        outcome = state.outcome()
        self.save({"result": describe_outcome("pistard", outcome),
                   "ranking": list(outcome.ranking)})

    def _undo(self, surface: Surface) -> None:
        """Back to just before the last decision of a person, with the same dice."""
        if not self.history or not self.game.can_undo():
            surface.say(Text(_word("undo_nothing", self.lang)))
            return
        snapshot = self.history.pop()
        self.game.undo()  # the position before it; its moves leave the record
        self.game.rng.bit_generator.state = snapshot.rng
        if self.moves_made:
            self.moves_made = self.moves_made[:-1]
            surface.moves(self.moves_made)
        surface.say(Text(_word("undone", self.lang, what=snapshot.what)))
        self.save()

    def _narrate(self, surface: Surface, events: list[Event]) -> None:
        moved = False
        for event in events:
            line = commentary(event, self.lang)
            if line:
                surface.say(Text(line))
            if event.kind in ("place", "move", "stand_still", "no_move"):
                self.moves_made.append(_move_entry(event, self.lang))
                moved = True
        if moved:
            surface.moves(self.moves_made)


def _move_entry(event: Event, lang: str) -> str:
    """One line of the move list: short (its panel is narrow), the log has the long one."""
    facts = dict(event.data)
    if "colour" in facts:
        facts["letter"] = LETTERS[COLOURS.index(facts["colour"])]
    return _word(f"mv.{event.kind}", lang, **facts)


def _undo_what(state: PistardState, action: Action, lang: str) -> str:
    """What undo would take back: this decision, in words."""
    if state.phase == PHASE_PLACE:
        return _word("undo_place", lang, rider=state.riders[state.place_queue[0]].ident)
    if state.mover is None:
        return _word("undo_choose", lang, rider=action - choose_action(0))
    return _word("undo_move", lang, rider=state.riders[state.mover].ident)


def _status(surface: Surface, text: str) -> None:
    """Whose turn and what to type: the full screen's status bar (in lines, the prompt
    itself says it)."""
    if surface.full_screen:
        surface.status(text)


def _refuse(surface: Surface, lang: str, key: str, **params: object) -> None:
    surface.say(refusal_line(_word(f"why.{key}", lang, **params), lang))


def _human_turn(surface: Surface, state: PistardState, player: int,
                lang: str = "en") -> Action | None:
    """Show the position and ask the person until a legal choice is given (None: undo)."""
    if state.phase == PHASE_PLACE:
        return _ask_placement(surface, state, player, lang)
    if state.mover is None:
        return _ask_next_rider(surface, state, player, lang)
    return _ask_move(surface, state, player, lang)


def _ask_placement(surface: Surface, state: PistardState, player: int,
                   lang: str = "en") -> Action | None:
    rider = state.riders[state.place_queue[0]]
    frame = state.frame()
    legal = state.legal_actions()
    choices = []
    for action in legal:
        facts = state.action_message(action).params
        back, lane = placement_of(action)
        choices.append(Choice(f"{back} {lane}", _word("choice_place", lang, back=back, lane=lane),
                              frame_view(frame, lang, target=(facts["col"], lane))))
    surface.board(frame_view(frame, lang))
    _status(surface, "")  # the prompt says it all (status and prompt share one line)
    prompt = Prompt(_word("ask_place", lang, player=player + 1, rider=rider.ident,
                          zone=START_ZONE, lanes=LANES), choices=choices,
                    help=_word("help_place", lang, zone=START_ZONE, lanes=LANES), undo=True)
    while True:
        text = surface.ask(prompt)
        if text == UNDO:
            return None
        parts = text.replace(",", " ").split()
        numbers = [ascii_int(p) for p in parts]
        if len(parts) != 2 or None in numbers:
            why = _word("why.two_numbers", lang)
            if common.foreign_digits(text):
                why += f" ({_word('why.digits', lang)})"
            surface.say(refusal_line(why, lang))
            continue
        back, lane = (n for n in numbers if n is not None)
        if not 1 <= back <= START_ZONE:
            _refuse(surface, lang, "zone", zone=START_ZONE)
            continue
        if not 1 <= lane <= LANES:
            _refuse(surface, lang, "lanes", lanes=LANES)
            continue
        action = place_action(back, lane)
        if action not in legal:
            _refuse(surface, lang, "taken")
            continue
        return action


def _ask_next_rider(surface: Surface, state: PistardState, player: int,
                    lang: str = "en") -> Action | None:
    idents = [state.riders[i].ident for i in state.choosable()]
    frame = state.frame()
    extra = [standings_line(state, lang)]
    choices = [Choice(str(ident), render("pi_choose_choice", lang, "pistard", {"rider": ident}),
                      frame_view(frame, lang, highlight=ident, extra=extra))
               for ident in idents]
    listed = ", ".join(map(str, idents))
    surface.board(frame_view(frame, lang, extra=extra))
    _status(surface, "")  # the prompt says it all (status and prompt share one line)
    prompt = Prompt(_word("ask_choose", lang, player=player + 1, riders=listed),
                    choices=choices, help=_word("help_choose", lang, riders=listed,
                                                n=len(idents)), undo=True)
    while True:
        text = surface.ask(prompt)
        if text == UNDO:
            return None
        number = ascii_int(text)
        if number is not None and number in idents:
            return choose_action(number)
        if number is not None and 1 <= number <= len(idents):
            return choose_action(idents[number - 1])
        why = _word("why.choose_one", lang, riders=listed)
        if common.foreign_digits(text):
            why += f" ({_word('why.digits', lang)})"
        surface.say(refusal_line(why, lang))


def _move_list(labels: list[Text], width: int) -> list[Text]:
    """The listed moves, numbered, in two columns when they fit ``width`` (the track stays
    on the screen above them), else one a line."""
    numbered = [Text(f"{n:>2}. ").append_text(label) for n, label in enumerate(labels, 1)]
    column = max((t.cell_len for t in numbered), default=0) + 2
    if len(numbered) <= 4 or 2 * column > width:
        return numbered
    rows = (len(numbered) + 1) // 2
    out = []
    for k in range(rows):
        line = numbered[k].copy()
        if k + rows < len(numbered):
            line.pad_right(column - line.cell_len)
            line.append_text(numbered[k + rows])
        out.append(line)
    return out


def _choice_label(n: int, facts: Mapping[str, Any], lang: str) -> str:
    """A move as the choice list shows it: short, since the board previews where it ends."""
    if "colour" not in facts:
        return f"{n}. " + render(f"pi_stay_{facts['why']}", lang, "pistard")
    marks = [_word(f"mark_{k}", lang) for k in ("behind", "token") if facts[k]]
    shown = (" " + _word("marks", lang, marks=_word("mark_join", lang).join(marks))
             if marks else "")
    return _word("choice_move", lang, n=n, colour=render(f"pi_{facts['colour']}", lang,
                                                         "pistard"),
                 value=facts["value"], ahead=facts["ahead"], lane=facts["lane"], marks=shown)


def _ask_move(surface: Surface, state: PistardState, player: int,
              lang: str = "en") -> Action | None:
    assert state.mover is not None and state.dice is not None
    rider = state.riders[state.mover]
    frame = state.frame()
    actions = state.legal_actions()
    labels = [move_short(state, a, lang) for a in actions]
    tokens = state.tokens[player]
    dice = dice_line(state.dice, lang, _word("dice_of", lang, rider=rider.ident))
    extra = [dice, standings_line(state, lang)]
    choices = []
    for n, action in enumerate(actions, start=1):
        facts = state.action_message(action).params
        target = (facts["col"], facts["lane"]) if "colour" in facts else None
        choices.append(Choice(str(n), _choice_label(n, facts, lang),
                              frame_view(frame, lang, rider.ident, target, extra)))
    words = [f"{facts['colour']} {facts['value']}" for facts in
             (state.action_message(a).params for a in actions) if "colour" in facts]
    if state.stay_action() in actions:
        words.append("stay")
    view = frame_view(frame, lang, rider.ident, extra=extra)
    _status(surface, _word("status_move", lang, round=state.round, tokens=tokens))
    if surface.full_screen:
        surface.board(view)
    else:  # the track, then the moves under it, then the prompt: all on one screen
        console = getattr(surface, "console", None)
        listed = _move_list(labels, getattr(console, "width", 80))
        room = len(listed) + 1
        surface.board(lambda width, height: view(width, height - room))
        for line in listed:
            surface.say(line)
    prompt = Prompt(_word("ask_move", lang, player=player + 1, rider=rider.ident),
                    choices=choices, completions=words, help=_word("help_move", lang),
                    undo=True)
    while True:
        text = surface.ask(prompt).lower()
        if text == UNDO:
            return None
        if common.foreign_digits(text):
            _refuse(surface, lang, "move_digits")
            continue
        number = ascii_int(text)
        if number is not None:
            if 1 <= number <= len(actions):
                return actions[number - 1]
            _refuse(surface, lang, "not_listed", n=number, last=len(actions))
            continue
        if text in ("stay", "stand", "sur place"):
            if state.stay_action() in actions:
                return state.stay_action()
            _refuse(surface, lang, "must_move_sprint" if state.options.variant == "sprint"
                    else "must_move")
            continue
        reason, chosen = _match_die(state, text, actions, lang)
        if chosen is not None:
            return chosen
        surface.say(refusal_line(reason, lang))


def _match_die(state: PistardState, text: str, actions: list[Action],
               lang: str = "en") -> tuple[str, Action | None]:
    """Interpret 'green 5' (or 'g5'): the one listed move that die allows, or why not."""
    assert state.dice is not None and state.mover is not None
    compact = text.replace(" ", "")
    letters = compact.rstrip("0123456789")
    digits = compact[len(letters):]
    if not digits or not letters or ascii_int(digits) is None:
        return (_word("why.move_or_die", lang), None)
    try:
        colour = colour_index(letters)
    except ValueError:
        return (_word("why.unknown_colour", lang, text=repr(letters)), None)
    name = render(f"pi_{COLOURS[colour]}", lang, "pistard")
    value = int(digits)
    thrown = state.dice[colour]
    token = value == thrown + 1
    if value != thrown and not token:
        return (_word("why.not_thrown", lang, colour=name, thrown=thrown, value=value), None)
    if token:
        if thrown == 6:
            return (_word("why.above_six", lang), None)
        if state.tokens[state.riders[state.mover].owner] == 0:
            return (_word("why.no_tokens", lang), None)
    table = state.move_table()
    matches = [a for a in actions if a in table and table[a].colour == colour
               and table[a].value == value and table[a].token == token]
    if not matches:
        return (_word("why.no_square", lang, colour=name, value=value), None)
    if len(matches) > 1:
        numbers = ", ".join(str(actions.index(a) + 1) for a in matches)
        return (_word("why.several", lang, colour=name, value=value, numbers=numbers), None)
    return ("", matches[0])


# --- simulate -----------------------------------------------------------------------------
@app.command()
@game_options(PistardOptions)
def simulate(
    n: Annotated[int, typer.Option("--races", "-n", metavar="N",
                                   callback=common.in_range(1, MAX_RACES, "races"),
                                   help=f"Number of races to simulate, 1 to {MAX_RACES:,}.")
                 ] = 200,
    race: RaceOptions = GIVEN,
    players: ComputersOpt = None,
    seed: common.NumbersSeedOpt = None,
    playouts: Annotated[
        int | None,
        typer.Option("--playouts", metavar="N",
                     callback=common.in_range(1, MAX_PLAYOUTS, "play-outs"),
                     help="Play-outs the hard and expert computers try per candidate move, 1 "
                          f"to {MAX_PLAYOUTS:,} (default 96 and 2,048).")
    ] = None,
    as_json: common.JsonOpt = False,
    lang: common.LangOpt = None,
) -> None:
    """Computer-only races: win rates by start lane and level (ttt: team time), turns."""
    kinds = _computers(players, race.get("variant"), "simulate")
    options = race.parse(players=len(kinds))
    variant = options.variant
    track_obj = load_track(options.track)
    seed = common.fresh_seed(seed)
    lang = common.resolve_lang(lang)
    with common.progress_bar(_word("sim.progress", lang), n, enabled=not as_json) as bar:
        task = bar.task_ids[0]
        result = run_simulation(options, kinds, n, seed, track_obj,
                                progress=lambda done, _total: bar.update(task, completed=done),
                                simulations=playouts)
    summary = result.to_json()
    summary["options"] = {"variant": variant, "players": kinds,
                          "riders": options.total_riders, "track": track_obj.name,
                          "seed": seed}
    if as_json:
        common.print_json(summary)
        return
    def say(key: str, **params: object) -> str:
        return escape(_word(f"sim.{key}", lang, **params))

    common.console.print(Rule(say("title", variant=variant, n=n, players=", ".join(kinds))))
    rates = (say("wins"), say("win_rate"), say("interval"))
    if summary["win_rate_by_start_lane"] is not None:
        lanes = Table(say("start_lane"), say("riders"), *rates)
        for lane, row in summary["win_rate_by_start_lane"].items():
            lo, hi = row["ci95"]
            lanes.add_row(lane, str(row["starts"]), str(row["wins"]), f"{row['rate']:.1%}",
                          f"{lo:.1%}–{hi:.1%}")
        common.console.print(lanes)
    if summary["win_rate_by_level"] is not None:
        levels = Table(say("level"), say("seats"), *rates)
        for level, row in summary["win_rate_by_level"].items():
            lo, hi = row["ci95"]
            levels.add_row(level, str(row["entries"]), f"{row['wins']:g}",
                           f"{row['rate']:.1%}", f"{lo:.1%}–{hi:.1%}")
        common.console.print(levels)
    if summary["team_time"] is not None:
        tt = summary["team_time"]
        common.console.print(say("team_time", mean=f"{tt['mean']:.2f}",
                                 low=f"{tt['ci95'][0]:.2f}", high=f"{tt['ci95'][1]:.2f}",
                                 best=f"{tt['min']:.2f}", worst=f"{tt['max']:.2f}"),
                             soft_wrap=True)
    turns = summary["turns"]
    common.console.print(say("length", mean=f"{turns['mean']:.2f}", low=f"{turns['ci95'][0]:.2f}",
                             high=f"{turns['ci95'][1]:.2f}", min=f"{turns['min']:g}",
                             max=f"{turns['max']:g}", throws=f"{summary['throws']['mean']:.1f}",
                             capped=summary["stopped_by_round_cap"]), soft_wrap=True)
    again = common.seed_line(seed, "numbers", lang)
    common.console.print(f"[dim]{escape(again)}[/]")


# --- track --------------------------------------------------------------------------------
@app.command("track")
def show_track(
    track: Annotated[str, typer.Argument(help="Shipped track (default, short) or a TOML file.")]
    = "default",
    as_json: common.JsonOpt = False,
    lang: common.LangOpt = None,
) -> None:
    """Show (and validate) a track: its colours lane by lane and its line."""
    track_obj = load_track(track)
    if as_json:
        common.print_json(track_obj.to_json())
        return
    lang = common.resolve_lang(lang)
    state = PistardState(PistardOptions(), track_obj)
    common.console.print(Rule(escape(_word("track_heading", lang, track=track_obj.name,
                                           length=track_obj.length))))
    for line in lap_lines(state.frame(), lang, cell=2):
        common.console.print(line)
    if track_obj.line:
        common.console.print(escape(_word("track_line", lang, line=track_obj.line)))
