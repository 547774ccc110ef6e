"""The Dice Derby party at one terminal: prompts, turn order, saving and resuming.

The evening is one protocol state (:class:`~raceday.games.derby.evening.EveningState`):
bids, tickets and loans are players' actions, the draw for a tied lot and the dice are
chance nodes; this module only asks, shows and saves, through a terminal
:class:`~raceday.terminal.surface.Surface` (line by line, or full screen). Every move applied
to the evening is written down in its record (:mod:`raceday.games.derby.saved`); the
party saves that record (:func:`raceday.store.records.save_game`, the one writer of saved
games) after every auction lot, when betting closes (tickets locked), after every round a
host types in and after every settled race, each time in one SQLite transaction guarded
by the revision number, so an interrupted party resumes exactly where the last save left
it and never pays twice.

Every prompt understands help / ?, quit (stop at the last save) and undo: at a sealed bid
it lets the previous bidder of the same die seal their bid again, at the ticket prompt it
takes back the player's last ticket (or loan) of this betting round; elsewhere it says
what stands and asks again.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Any

import numpy as np
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from raceday.core.digits import MAX_DIGITS, ascii_int
from raceday.core.errors import BetError, OptionsError, RacedayError
from raceday.core.events import Event, Message
from raceday.core.record import Record, Recorder
from raceday.games.derby.agents import Computer, computer_turn
from raceday.games.derby.evening import DONE, EveningState
from raceday.games.derby.render import GAME as WORDS
from raceday.games.derby.render import (
    board_tables,
    event_lines,
    odds_caption,
    odds_panel,
    track_panel,
    words,
)
from raceday.games.derby.rules import (
    POSTS,
    DerbyOptions,
    DerbyState,
    faces_of,
    horse_name,
    parse_horse,
)
from raceday.games.derby.saved import GAME, new_recorder
from raceday.games.derby.session import (
    PHASE_AUCTION,
    PHASE_BETTING,
    PHASE_RACING,
    Session,
)
from raceday.present import describe_event, describe_outcome, refusal, render
from raceday.store.records import save_game
from raceday.store.sessions import SessionStore
from raceday.terminal.surface import UNDO, Choice, Prompt, Surface, refusal_line

TICKET_WORDS = ("win", "quinella", "q", "done", "board", "tickets", "borrow")
DICE_WORDS = tuple(horse_name(p) for p in POSTS)


_AMOUNT = re.compile(r"-?(?:[0-9]+|[0-9]{1,3}(?:,[0-9]{3})+)")


def parse_amount(text: str) -> int:
    """A whole amount from '3500' or '3,500': ASCII digits, optional thousands commas."""
    cleaned = text.strip()
    if not _AMOUNT.fullmatch(cleaned):
        raise refusal(BetError, "derby.refusal.not_amount", text=repr(cleaned))
    digits = cleaned.replace(",", "")
    value = ascii_int(digits.removeprefix("-"))
    if value is None:
        raise refusal(BetError, "derby.refusal.too_many_digits", n=len(digits), max=MAX_DIGITS)
    return -value if digits.startswith("-") else value


def parse_ticket(text: str) -> tuple[str, tuple[int, ...], int]:
    """('win', (6,), 500) from 'win 6 500'; ('quinella', (5, 6), 300) from 'q 5-6 300'."""
    words = text.replace("-", " ").replace("/", " ").split()
    if not words:
        raise refusal(BetError, "derby.refusal.type_ticket")
    kind = {"win": "win", "w": "win", "quinella": "quinella", "q": "quinella",
            "quin": "quinella"}.get(words[0].lower())
    if kind is None:
        raise refusal(BetError, "derby.refusal.unknown_ticket", word=repr(words[0]),
                      help=Message("derby.party.bet_help"))
    wanted = 1 if kind == "win" else 2
    if len(words) != wanted + 2:
        raise refusal(BetError, f"derby.refusal.written_{kind}")
    try:
        horses = tuple(parse_horse(w) for w in words[1 : 1 + wanted])
    except OptionsError as exc:
        error = BetError(str(exc))
        error.message = exc.message
        raise error from None
    return kind, horses, parse_amount(words[-1])


@dataclass(eq=False)
class Party:
    """Runs a saved evening from wherever it stands to the end. End of input (EOFError) and
    quit (:class:`~raceday.terminal.surface.Quit`) leave it at the last save."""

    state: EveningState
    store: SessionStore
    name: str
    surface: Surface
    revision: int | None = None
    _: KW_ONLY
    delay: float = 0.0
    # after a race its result stays put until Enter: at a terminal, and always in full
    # screen (a script or a pipe reads on at once)
    wait_after_race: bool = False
    # writes the evening down from ``state`` on (a resumed party's goes on with its record)
    recorder: Recorder | None = None

    def __post_init__(self) -> None:
        if self.recorder is None:
            self.recorder = new_recorder(self.state, self.name)
        self.recorder.follow(self.state)
        self.lang = self.surface.lang
        self.wait_after_race = self.wait_after_race or self.surface.full_screen
        # a scripted transcript shows what was answered (never a sealed bid)
        self.echo = not self.surface.full_screen and not sys.stdin.isatty()
        self._race: DerbyState | None = None  # the race being run, kept after it settles
        self._last_rolls: dict[str, int | None] = {}  # the dice of the round just resolved
        self._standings_after: int | None = None  # the race whose standings were just shown

    @property
    def session(self) -> Session:
        """The evening's ledger: the public sheets, lots and settled races it shows."""
        return self.state.ledger

    # --- words and the surface -----------------------------------------------------------
    def w(self, key: str, **params: Any) -> str:
        return words(key, self.lang, **params)

    def say(self, text: RenderableType = "") -> None:
        self.surface.say(text)

    def heading(self, text: str) -> None:
        """A bold heading in the log (after a blank line when printed line by line)."""
        self.surface.say(Text(("" if self.surface.full_screen else "\n") + text,
                              style="bold"))

    def refuse(self, exc: RacedayError | str) -> None:
        """A refusal in the player's language (the rules carry its message)."""
        if isinstance(exc, str):
            text = exc
        else:
            message = getattr(exc, "message", None)
            text = render(message, self.lang) if message is not None else str(exc)
        self.surface.say(refusal_line(text, self.lang))

    def ask(self, prompt: Prompt) -> str:
        """One answer through the surface (help and quit are handled there; ``undo`` comes
        back as :data:`UNDO`); a scripted transcript echoes it, a sealed one as (sealed)."""
        answer = self.surface.ask(prompt)
        if self.echo:
            shown = self.w("party.sealed") if prompt.secret and answer != UNDO else answer
            self.surface.say(Text(shown))
        return answer

    def beat(self) -> None:
        if self.delay > 0:
            self.surface.pause(self.delay)

    def status(self, text: str, *, line_mode: bool = True) -> None:
        """The status bar (printed in line mode only where ``line_mode`` says so)."""
        if self.surface.full_screen or line_mode:
            self.surface.status(text)

    def show(self) -> None:
        """The full-screen board for the phase the evening is in (line mode prints its
        tables where the flow asks for them instead)."""
        if self.surface.full_screen:
            self.surface.board(self.board_view())

    # --- saving -------------------------------------------------------------------------
    def save(self, log_entry: dict[str, Any] | None = None) -> None:
        """Save the evening's record (and the state it stands at, to open it quickly)."""
        self.revision = save_game(self.store, GAME, self.name, self.record(), state=self.state,
                                  expected_revision=self.revision, log_entry=log_entry)

    @property
    def moves(self) -> int:
        """How many moves the record holds."""
        assert self.recorder is not None
        return len(self.recorder.moves)

    def record(self) -> Record:
        """The record of the evening so far."""
        assert self.recorder is not None
        return self.recorder.record()

    def _back_to(self, before: dict[str, Any], moves: int) -> None:
        """Take the evening back to ``before`` (its JSON), the record to its first
        ``moves`` moves (an undo)."""
        assert self.recorder is not None
        self.state = EveningState.from_json(before)
        self.recorder.take_back(self.moves - moves)
        self.recorder.follow(self.state)

    def _rebid(self, player: int, action: Any, at: int) -> None:
        """``player`` seals their bid again: the record keeps one bid of theirs for this
        die, the new one, where the first stood (sealed bids wait for each other)."""
        assert self.recorder is not None
        before = self.moves
        self.state.apply_action_for(player, action)  # a changed bid is not news
        if self.moves == before + 1:
            self.recorder.moves[at] = self.recorder.moves.pop()

    def _rng(self, *key: int) -> np.random.Generator:
        return np.random.default_rng([self.state.options.seed, *key])

    # --- the flow -----------------------------------------------------------------------
    def run(self) -> None:
        if self.revision is None:
            self.save()
        while True:
            phase = self.session.phase
            if phase == PHASE_AUCTION:
                self.auction()
            elif phase == PHASE_BETTING:
                self.betting()
            elif phase == PHASE_RACING:
                self.race()
            else:
                self.finale()
                return

    def auction(self) -> None:
        s, state = self.session, self.state
        if not s.lots:
            self.heading(self.w("party.auction"))
        while s.phase == PHASE_AUCTION:
            post = s.next_lot
            assert post is not None
            self.heading(lot_title(post, self.lang))
            events: list[Event] = []
            bidders = list(state.acting_players())
            sealed: list[int] = []  # the people who sealed a bid for this die, in order
            written: dict[int, int] = {}  # where each one's bid stands in the record
            k = 0
            while k < len(bidders):
                i = bidders[k]
                p = s.players[i]
                if p.is_computer:
                    for _, made in computer_turn(state, i, Computer(i), self._rng(i, post)):
                        events += made
                    k += 1
                    continue
                self.show()
                action = self._bid(i, post)
                if action is None:  # undo: the one who bid before seals again
                    if not sealed:
                        self.refuse(self.w("party.undo_no_bid"))
                        continue
                    j = sealed[-1]
                    self.say(self.w("party.rebid", name=s.players[j].name,
                                    horse=horse_name(post)))
                    again = self._bid(j, post, again=True)
                    if again is not None:
                        self._rebid(j, again, written[j])
                    continue
                events += state.apply_action_for(i, action)
                written[i] = self.moves - 1
                sealed.append(i)
                k += 1
            if state.is_chance_node() and s.phase == PHASE_AUCTION:  # a tie: a fair draw
                events += state.apply_action(state.sample_chance(self._rng(0, post)).outcome)
            self._lots([e for e in events if e.kind == "lot"])
        self.show()

    def _bid(self, i: int, post: int, *, again: bool = False) -> Any:
        """Player ``i``'s sealed bid for the die of ``post`` as an action, or None for
        ``undo`` (which at a bid taken ``again`` is refused: there is nothing before it)."""
        s = self.session
        p = s.players[i]
        unit = s.config.stake_unit
        self.status(self.w("party.status_bid", name=p.name, horse=horse_name(post),
                           unit=unit, money=p.money), line_mode=False)
        prompt = Prompt(self.w("party.bid_prompt", name=p.name, horse=horse_name(post),
                               money=p.money, unit=unit) + " ",
                        completions=["0"], secret=True, undo=True,
                        help=self.w("party.bid_help", unit=unit, money=p.money))
        while True:
            answer = self.ask(prompt)
            if answer == UNDO:
                if again:
                    self.refuse(self.w("party.undo_no_bid"))
                    continue
                return None
            try:
                return self.state.bid_action(i, parse_bid(answer, unit))
            except BetError as exc:
                self.refuse(exc)

    def _lots(self, lots: list[Event]) -> None:
        """Tell each sold (or passed) die and save after it."""
        s = self.session
        for k, lot in enumerate(lots):
            if k:
                self.heading(lot_title(lot["post"], self.lang))
            self.say(describe_event(WORDS, lot, self.lang))
            sold = next(x for x in s.lots if x.post == lot["post"])
            self.save({"auction": sold.to_json()})

    def show_board(self) -> None:
        """The odds board: both tables line by line; the compact one in full screen."""
        title = self.w("board.race", race=self.session.race)
        if self.surface.full_screen:  # it stands above the log already
            self.show()
            self.say(self.w("party.board_above"))
            return
        win, grid = board_tables(self.session.board(), title, self.lang)
        self.surface.board(Group(win, grid))

    def betting(self) -> None:
        s = self.session
        self._race = None
        self.heading(self.w("party.betting_open", race=s.race, races=s.config.races))
        if s.is_last_race and self._standings_after != s.race - 1:  # not just shown
            self.heading(self.w("party.before_last"))
            self.show_standings()
        last = s.history[-1] if s.history else None
        if last is not None and s.config.first_out_bonus and last.first_out:
            self.say(self.w("party.odds_change", horses=[horse_name(h) for h in last.first_out]))
        self._standings_after = None
        if self.surface.full_screen:
            self.show()
        else:
            self.show_board()
        for i in list(self.state.acting_players()):
            p = self.session.players[i]
            if p.is_computer:
                for action, _ in computer_turn(self.state, i, Computer(i), self._rng(i)):
                    if action != DONE:
                        self.say(self.w("party.computer_ticket", name=p.name,
                                        kind=Message(f"{WORDS}.computer.{p.kind}"),
                                        **ticket_facts(self._mine(i)[-1])))
                continue
            self._tickets(i)
        self.save()

    def _tickets(self, i: int) -> None:
        """Player ``i``'s tickets for this race, until 'done' (or an empty line)."""
        s = self.session
        p = s.players[i]
        if self.surface.full_screen:  # the status bar says what to type; ? says more
            self.say(Text(self.w("party.your_bets", name=p.name, race=s.race), style="bold"))
        elif s.history:
            self.say("\n" + self.w("party.tickets_for", name=p.name, race=s.race))
        else:
            self.say(f"\n{p.name}: {self.w('party.bet_help')}")
        # line by line the stake rule comes with the first race's help (and 'help' says it)
        self.status(self.ticket_status(i), line_mode=not s.history)
        # (the evening before, the record's moves then, what was done)
        taken: list[tuple[dict[str, Any], int, str]] = []
        while True:
            self.show()
            p = self.session.players[i]
            answer = self.ask(Prompt(
                self.w("party.ticket_prompt", name=p.name, money=p.money) + " ",
                choices=self.ticket_choices(i), completions=[*TICKET_WORDS, *DICE_WORDS],
                help=self.ticket_help(i), undo=True))
            word = answer.lower()
            if word in ("", "done", "d", "pass"):
                self.state.apply_action_for(i, DONE)
                return
            if answer == UNDO:
                if not taken:
                    self.refuse(self.w("party.undo_no_ticket", name=p.name))
                    continue
                before, moves, what = taken.pop()
                self._back_to(before, moves)
                p = self.session.players[i]
                self.say(self.w("party.undone", name=p.name, what=what, money=p.money))
                continue
            try:
                if word == "board":
                    self.show_board()
                elif word == "tickets":
                    self.say(", ".join(self.w("party.ticket", **ticket_facts(t))
                                       for t in self._mine(i))
                             or self.w("party.no_tickets"))
                elif word == "borrow":
                    before, moves = self.state.to_json(), self.moves
                    for e in self.state.apply_action_for(i, self.state.borrow_action(i)):
                        self.say(describe_event(WORDS, e, self.lang))
                    taken.append((before, moves, self.w("party.the_loan")))
                else:
                    kind, horses, stake = parse_ticket(answer)
                    before, moves = self.state.to_json(), self.moves
                    self.state.apply_action_for(i, self.state.ticket_action(i, kind, horses,
                                                                            stake))
                    t = self._mine(i)[-1]
                    self.say(self.w("party.ticket_bought", **ticket_facts(t)))
                    taken.append((before, moves, self.w("party.ticket", **ticket_facts(t))))
            except BetError as exc:
                self.refuse(exc)

    def ticket_rule(self) -> str:
        """The stake rule and the ticket limits of this evening, in one line."""
        c = self.session.config
        return self.w("party.stake_rule", unit=c.stake_unit, win=c.win_limit,
                      quinella=c.quinella_limit)

    def ticket_status(self, i: int) -> str:
        p = self.session.players[i]
        return self.w("party.status_ticket", name=p.name, race=self.session.race,
                      unit=self.session.config.stake_unit)

    def ticket_help(self, i: int) -> str:
        lines = [self.w("party.bet_help"), self.ticket_rule()]
        if self.session.can_borrow(i):
            c = self.session.config
            lines.append(self.w("party.borrow_rule", amount=c.loan_amount, repay=c.loan_repay))
        lines.append(self.w("party.undo_ticket_help"))
        return "\n".join(lines)

    def ticket_choices(self, i: int) -> list[Choice]:
        """'done', then every ticket this player may still buy at the smallest stake (its
        odds in the label; choosing one previews it on the odds board)."""
        s = self.session
        unit = s.config.stake_unit
        mine = s.tickets_of(i)
        choices = [Choice("done", self.w("party.choice_done"))]
        if s.players[i].money < unit:
            return choices
        board = s.board()
        if sum(t.kind == "win" for t in mine) < s.config.win_limit:
            for h in reversed(POSTS):
                text = f"win {horse_name(h)} {unit}"
                choices.append(Choice(text, self.w("party.choice_ticket", ticket=text,
                                                   odds=_odds(board.win[h])),
                                      self.board_view((h,))))
        if sum(t.kind == "quinella" for t in mine) < s.config.quinella_limit:
            pairs = sorted(board.quinella, key=lambda pr: board.quinella[pr])
            for a, b in pairs:
                text = f"q {horse_name(a)}-{horse_name(b)} {unit}"
                choices.append(Choice(text, self.w("party.choice_ticket", ticket=text,
                                                   odds=_odds(board.quinella[(a, b)])),
                                      self.board_view((a, b))))
        return choices

    def _mine(self, player: int) -> list[dict[str, Any]]:
        """``player``'s tickets, as their own view shows them."""
        tickets: list[dict[str, Any]] = self.state.observation(player)["me"]["tickets"]
        return tickets

    def race(self) -> None:
        s, state = self.session, self.state
        race = state.race
        assert race is not None
        self._race = race
        self._last_rolls = {}
        if race != DerbyState(DerbyOptions(s.config.fall_rate)):  # resumed mid-race
            self.say(("" if self.surface.full_screen else "\n")
                     + self.w("party.race_continues", race=s.race, round=race.round,
                              horses=[horse_name(p) for p in race.group]))
        else:
            self.heading(self.w("event.race_start", race=s.race))
        self.status(self.w("party.status_race", race=s.race, races=s.config.races),
                    line_mode=False)
        to_drop: list[str] = []
        rng = self._rng(s.race)
        number = s.race
        while True:
            self.show()
            if s.config.host:
                events = self._host_round(race)
            else:
                draw = state.sample_chance(rng)
                events = state.apply_action(draw.outcome, draw.detail)
            over = any(e.kind == "settled" for e in events)
            for e in events:
                if e.kind in ("round", "reroll"):
                    self._last_rolls = dict(e["rolls"])
            if s.config.host and not over:  # the table's dice so far are kept
                self.save()
            for line in event_lines(events, to_drop, self.lang):
                self.say(line)
                if self.surface.full_screen:
                    self.show()
                self.beat()
            if over:
                break
        record = s.history[-1]
        settled = next(e for e in events if e.kind == "settled")
        for pay in settled["payouts"]:
            self.say(self.w("party.payout", name=pay["name"], amount=pay["amount"],
                            what=pay["what"] if self.lang == "en" else pay["words"]))
        if not settled["payouts"]:
            self.say(self.w("party.no_payouts"))
        self.save({"race": record.to_json()})
        self.say(self.w("party.saved_after", race=number))
        self.heading(self.w("party.standings_after", race=number))
        self.show_standings()
        self._standings_after = number
        self.show()
        if self.wait_after_race:
            final = s.phase != PHASE_BETTING
            self.status(self.w("party.status_final") if final
                        else self.w("party.status_result", race=number), line_mode=False)
            self._next(self.w("party.next_final" if final else "party.next_race",
                              race=s.race))

    def _next(self, text: str) -> None:
        """Wait for Enter so the result stays in view (undo takes nothing back here)."""
        prompt = Prompt(text + " ", help=self.w("party.next_help"))
        while True:
            if self.ask(prompt) != UNDO:
                return
            self.refuse(self.w("party.undo_race"))

    def _host_round(self, race: DerbyState) -> list[Event]:
        rolling = list(race.to_roll)
        what = (Message(f"{WORDS}.party.roll_off") if race.in_rolloff
                else Message(f"{WORDS}.party.furlong", {"n": race.round}))
        names = " ".join(horse_name(p) for p in rolling)
        self.status(self.w("party.status_host", what=what, horses=names), line_mode=False)
        prompt = Prompt(self.w("party.host_prompt", what=what, horses=names) + " ",
                        completions=["F"],
                        help=self.w("party.host_help", n=len(rolling), horses=names,
                                    faces=" ".join(f"{horse_name(p)}:1-{faces_of(p)}"
                                                   for p in rolling)))
        while True:
            answer = self.ask(prompt)
            if answer == UNDO:
                self.refuse(self.w("party.undo_dice"))
                continue
            try:  # the evening checks the round: a refused one changes nothing
                return self.state.enter_rolls(answer.replace(",", " ").split())
            except RacedayError as exc:
                self.refuse(exc)

    def standings_table(self) -> Table:
        s = self.session
        table = Table()
        for col in ("rank", "player", "money", "debt", "net", "horse", "prizes"):
            table.add_column(self.w(f"column.{col}"),
                             justify="left" if col in ("player", "horse") else "right")
        for rank, i, net in s.standings():
            p = s.players[i]
            table.add_row(str(rank), p.name, str(p.money), str(p.debt), str(net),
                          horse_name(p.horse) if p.horse else "—", str(p.prize))
        return table

    def show_standings(self) -> None:
        """The standings: a table line by line; in full screen a line for each player, as
        the log is narrow there (the board, which has the room, shows the table at the
        end)."""
        if self.surface.full_screen:
            for row in self.state.standings():
                self.say(self.w("party.standings_line", rank=row["rank"], name=row["name"],
                                money=row["net"]))
        else:
            self.say(self.standings_table())

    def finale(self) -> None:
        self.heading(self.w("party.final"))
        self.show_standings()
        self.say(describe_outcome(WORDS, self.state.outcome(), self.lang))
        award = self.state.award()
        if award is None:
            self.say(self.w("no_award"))
        else:
            self.say(self.w("party.award", by=Message(f"{WORDS}.award_{award['by']}"),
                            names=award["names"], score=award["score"]))
        self.say(self.w("party.complete", name=self.name))
        self.status(self.w("party.status_over", name=self.name), line_mode=False)
        self._race = None  # the board shows the final standings, not the last race
        self.show()

    # --- the full-screen board ---------------------------------------------------------
    def board_view(self, highlight: Sequence[int] = ()) -> Callable[[int, int], RenderableType]:
        """The board for now, drawn to the space it gets: a heading, the phase's panel (the
        lots, the odds board, the track, the result) and the players; more when there is
        room (a players' table beside the panel at 110 columns and more)."""
        s, state = self.session, self.state
        lang = self.lang
        phase = s.phase
        owners = {p.horse: p.name for p in s.players if p.horse is not None}
        panel: RenderableType
        extra: list[RenderableType] = []
        if phase == PHASE_AUCTION:
            post = s.next_lot
            head = self.w("party.board_auction", post=post or 0,
                          horse=horse_name(post or POSTS[0]), unit=s.config.stake_unit)
            panel = self.lots_table()
        elif phase == PHASE_BETTING and self._race is None:
            head = self.w("party.board_betting", race=s.race, races=s.config.races,
                          unit=s.config.stake_unit)
            panel = odds_panel(s.board(), self.w("board.title_race",
                                                 title=self.w("board.race", race=s.race)),
                               lang, highlight=highlight)
            extra = [Text(odds_caption(lang), style="dim")]
        elif self._race is not None:
            shown_race = s.race if phase == PHASE_RACING else s.history[-1].race
            head = self.w("party.board_race" if phase == PHASE_RACING else "party.board_race_over",
                          race=shown_race, races=s.config.races)
            panel = track_panel(self._race, self.w("board.track"), lang, owners=owners,
                                last_rolls=dict(self._last_rolls))
            if phase != PHASE_RACING and state.last is not None:
                extra = [Text(self.w("party.board_result", order=" ".join(state.last["order"]),
                                     first_out=state.last["first_out"] or "—"))]
        else:
            head = self.w("party.board_final")
            panel = self.standings_table()
        ranked = phase != PHASE_AUCTION and (self._race is not None or phase != PHASE_BETTING)
        players = self.players_table(ranked=ranked)
        line = self.players_line(ranked=ranked)
        return lambda width, height: fit(head, panel, extra, players, line, width, height)

    def lots_table(self) -> Table:
        from rich import box

        s = self.session
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1))
        for col in ("post", "horse", "owner", "price"):
            table.add_column(self.w(f"column.{col}") if col in ("post", "horse")
                             else self.w(col), justify="right" if col == "price" else "left")
        sold = {x.post: x for x in s.lots}
        for post in POSTS:
            lot = sold.get(post)
            if lot is None:
                owner = Text(self.w("party.on_offer") if post == s.next_lot else "",
                             style="bold" if post == s.next_lot else "")
                table.add_row(str(post), horse_name(post), owner, "")
            elif lot.buyer is None:
                table.add_row(str(post), horse_name(post), self.w("house"), "")
            else:
                table.add_row(str(post), horse_name(post), s.players[lot.buyer].name,
                              str(lot.price))
        return table

    def _mark(self, i: int) -> str:
        state = self.state
        if state.phase == PHASE_AUCTION:
            return "✓" if i in state.bids else ""
        if state.phase == PHASE_BETTING:
            return "✓" if i in state.done else ""
        return ""

    def players_table(self, *, ranked: bool = False) -> Table:
        """The players (in seat order, or ``ranked`` by the money everyone sees): money,
        horse, and a tick for a sealed bid or for done betting."""
        from rich import box

        s = self.session
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1))
        if ranked:
            table.add_column(self.w("column.rank"), justify="right")
        table.add_column(self.w("column.player"))
        table.add_column(self.w("column.money"), justify="right")
        table.add_column(self.w("column.horse"))
        table.add_column("")
        order = ([(row["rank"], row["player"]) for row in self.state.standings()] if ranked
                 else [(0, i) for i in range(len(s.players))])
        for rank, i in order:
            p = s.players[i]
            row = [p.name, str(self.state.shown_money(i)),
                   horse_name(p.horse) if p.horse else "", self._mark(i)]
            table.add_row(*([str(rank)] if ranked else []), *row)
        return table

    def players_line(self, *, ranked: bool = False) -> Text:
        """The players in one (wrapping) line: the standings when ``ranked``."""
        s = self.session
        if ranked:
            return Text(" · ".join(
                self.w("party.standings_line", rank=row["rank"], name=row["name"],
                       money=row["net"]) for row in self.state.standings()))
        parts = []
        for i, p in enumerate(s.players):
            horse = f" {horse_name(p.horse)}" if p.horse else ""
            mark = self._mark(i)
            parts.append(f"{p.name} {self.state.shown_money(i)}{horse}{' ' + mark if mark else ''}")
        return Text(" · ".join(parts))


def _odds(tenths: int) -> str:
    from raceday.games.derby.odds import format_odds

    return format_odds(tenths)


class _Drawn:
    """A renderable already drawn at one width: its lines, handed out again as they are
    (the board is drawn once to measure it, not again by the screen)."""

    def __init__(self, lines: list[list[Segment]]) -> None:
        self.lines = lines
        self.width = max((Segment.get_line_length(line) for line in lines), default=0)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for line in self.lines:
            yield from line
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)


def fit(head: str, panel: RenderableType, extra: list[RenderableType], players: Table,
        line: Text, width: int, height: int) -> RenderableType:
    """The board's pieces that fit ``width`` x ``height``: the heading and the panel always;
    then the players' table beside the panel when wide enough, else below it when there is
    room (120x40), else the players in one line (80x24); the extra lines when there is
    room."""
    title = Text(head, style="bold")
    if width >= 110:
        grid = Table.grid(padding=(0, 3))
        grid.add_column()
        grid.add_column()
        grid.add_row(panel, players)
        layouts: list[list[RenderableType]] = [[title, grid, *extra]]
    else:
        layouts = [[title, panel, *extra, Text(""), players], [title, panel, *extra, line]]
    width = max(width, 20)
    console = Console(width=width, file=io.StringIO(), color_system=None, highlight=False,
                      legacy_windows=False)
    options = console.options.update_width(width)
    drawn: dict[int, _Drawn] = {}

    def draw(parts: list[RenderableType]) -> list[_Drawn]:
        # a group is its parts one under the other: each part is drawn once, at this width
        for part in parts:
            if id(part) not in drawn:
                drawn[id(part)] = _Drawn(console.render_lines(part, options, pad=False))
        return [drawn[id(part)] for part in parts]

    def tall(parts: list[RenderableType]) -> int:
        return sum(len(d.lines) for d in draw(parts))

    for parts in layouts:
        if tall(parts) <= height:
            return Group(*draw(parts))
    parts = layouts[-1]
    while len(parts) > 2 and tall(parts) > height:
        parts.pop()
    return Group(*draw(parts))


def parse_bid(text: str, unit: int) -> int:
    """A sealed bid from what was typed (empty: no bid). A refusal never repeats what was
    typed: the others at the screen must not learn the bid from it."""
    if not text.strip():
        return 0
    try:
        return parse_amount(text)
    except BetError:
        raise refusal(BetError, "derby.refusal.bid_not_amount", unit=unit) from None


def lot_title(post: int, lang: str = "en") -> str:
    """The heading of a die on offer: its post and name."""
    return words("party.lot_title", lang, post=post, horse=horse_name(post))


def ticket_facts(ticket: dict[str, Any]) -> dict[str, Any]:
    """What the lines about a ticket name (its label, stake, odds and what it pays), from
    the ticket as its holder's view gives it."""
    return {"label": ticket["label"], "stake": ticket["stake"], "odds": ticket["odds_text"],
            "pays": ticket["pays"]}


def new_party_name(store: SessionStore) -> str:
    """The first free name 'party-1', 'party-2', ..."""
    taken = set(store.names(GAME))
    n = 1
    while f"party-{n}" in taken:
        n += 1
    return f"party-{n}"
