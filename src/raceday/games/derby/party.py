"""The Dice Derby party at one terminal: prompts, turn order, saving and resuming.

The evening is one protocol state (:class:`~raceday.games.derby.evening.EveningState`):
bids, tickets and loans are players' actions, the draw for a tied lot and the dice are
chance nodes; this module only asks, shows and saves. The party saves ``state.to_json()``
after every auction lot, when betting closes (tickets locked), after every round a host
types in and after every settled race, each time in one SQLite transaction guarded by the
revision number, so an interrupted party resumes exactly where the last save left it and
never pays twice.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from raceday.core.digits import MAX_DIGITS, ascii_int
from raceday.core.errors import BetError, OptionsError, RacedayError
from raceday.core.events import Event, Message
from raceday.games.derby.agents import computer_bets, computer_bid
from raceday.games.derby.evening import DONE, EveningState
from raceday.games.derby.render import GAME as WORDS
from raceday.games.derby.render import board_tables, event_lines, words
from raceday.games.derby.rules import (
    DerbyOptions,
    DerbyState,
    faces_of,
    horse_name,
    parse_horse,
)
from raceday.games.derby.session import (
    PHASE_AUCTION,
    PHASE_BETTING,
    PHASE_RACING,
    Session,
)
from raceday.present import describe_event, describe_outcome, refusal
from raceday.store.sessions import SessionStore
from raceday.terminal.common import read_line, read_secret

GAME = "derby"  # the sessions' key in the store
BET_HELP = (
    "Tickets: 'win 6 500' (post or die, stake), 'quinella 5-6 300' (or 'q d12 d20 300'); "
    "'borrow' for a loan (if allowed), 'board' to see the odds, 'tickets' to list yours, "
    "'done' (or an empty line) to finish."
)


class EntryError(RacedayError):
    """Numbers typed by the host that do not fit the dice being rolled."""


class EndOfInput(Exception):
    """Standard input ended: the party stops cleanly at the last save."""


class Terminal:
    """Prompts on the console, answers from standard input (scripted input works too):
    the one place the party reads input, through the shared readers of
    :mod:`raceday.terminal.common` (``read_line``, ``read_secret``), which tests may replace."""

    def __init__(self, console: Console, delay: float = 0.0,
                 sleep: Callable[[float], None] | None = None) -> None:
        self.console = console
        self.delay = delay
        self.sleep = sleep

    def say(self, text: Any = "") -> None:
        self.console.print(text)

    def ask(self, prompt: str) -> str:
        """One answer through the shared line reader (:func:`read_line`); the prompt goes
        to this terminal's console. :class:`EndOfInput` at the end of input."""
        self.console.print(f"{prompt} ", end="")
        try:
            line = read_line("")
        except EOFError:
            self.console.print()
            raise EndOfInput from None
        if not sys.stdin.isatty():  # echo scripted answers so the transcript reads well
            self.console.print(line.strip(), markup=False, highlight=False)
        return line.strip()

    def ask_secret(self, prompt: str) -> str:
        """A sealed answer (a bid): typed without echo at a terminal, and never echoed into
        a scripted transcript either; the others at the screen must not see it."""
        try:
            line = read_secret(f"{prompt} ")
        except EOFError:
            self.console.print()
            raise EndOfInput from None
        if not sys.stdin.isatty():
            self.console.print(words("party.sealed"), markup=False, highlight=False)
        return line.strip()

    def refuse(self, message: str) -> None:
        self.console.print(f"[red]✗ {message}[/]")

    def beat(self) -> None:
        if self.delay > 0 and self.sleep is not None:
            self.sleep(self.delay)


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


def parse_host_round(text: str, rolling: list[int]) -> list[int | None]:
    """The numbers a host types for one round, in post order; F (or X) for a fall."""
    words = text.replace(",", " ").split()
    names = " ".join(horse_name(p) for p in rolling)
    if len(words) != len(rolling):
        raise refusal(EntryError, "derby.refusal.type_count", n=len(rolling), names=names)
    values: list[int | None] = []
    for word, post in zip(words, rolling, strict=True):
        if word.lower() in ("f", "x", "fall"):
            values.append(None)
            continue
        if not re.fullmatch(r"[0-9]{1,3}", word) or not 1 <= int(word) <= faces_of(post):
            raise refusal(EntryError, "derby.refusal.not_on_die", word=repr(word),
                          horse=horse_name(post), faces=faces_of(post))
        values.append(int(word))
    return values


class Party:
    """Runs a saved evening from wherever it stands to the end (or to end of input)."""

    def __init__(self, state: EveningState, store: SessionStore, name: str, term: Terminal,
                 revision: int | None = None) -> None:
        self.state = state
        self.store = store
        self.name = name
        self.term = term
        self.revision = revision

    @property
    def session(self) -> Session:
        """The evening's ledger: the public sheets, lots and settled races it shows."""
        return self.state.ledger

    # --- saving -------------------------------------------------------------------------
    def save(self, log_entry: dict[str, Any] | None = None) -> None:
        self.revision = self.store.save(GAME, self.name, self.state.to_json(),
                                        expected_revision=self.revision, log_entry=log_entry)

    def _rng(self, *key: int) -> np.random.Generator:
        return np.random.default_rng([self.state.options.seed, *key])

    # --- the flow -----------------------------------------------------------------------
    def run(self) -> None:
        s = self.session
        if self.revision is None:
            self.save()
        while True:
            if s.phase == PHASE_AUCTION:
                self.auction()
            elif s.phase == PHASE_BETTING:
                self.betting()
            elif s.phase == PHASE_RACING:
                self.race()
            else:
                self.finale()
                return

    def auction(self) -> None:
        s, state = self.session, self.state
        if not s.lots:
            self.term.say(bold(words("party.auction")))
        while s.phase == PHASE_AUCTION:
            post = s.next_lot
            assert post is not None
            self.term.say("\n" + bold(lot_title(post)))
            events: list[Event] = []
            for i in list(state.acting_players()):
                p = s.players[i]
                if p.is_computer:
                    events += state.apply_action_for(i, state.bid_action(
                        i, computer_bid(s, i, post)))
                    continue
                while True:
                    answer = self.term.ask_secret(words(
                        "party.bid_prompt", name=p.name, horse=horse_name(post), money=p.money))
                    try:
                        action = state.bid_action(i, parse_amount(answer) if answer else 0)
                    except BetError as exc:
                        self.term.refuse(str(exc))
                        continue
                    events += state.apply_action_for(i, action)
                    break
            if state.is_chance_node() and s.phase == PHASE_AUCTION:  # a tie: a fair draw
                events += state.apply_action(state.sample_chance(self._rng(0, post)).outcome)
            self._lots([e for e in events if e.kind == "lot"])

    def _lots(self, lots: list[Event]) -> None:
        """Tell each sold (or passed) die and save after it."""
        s = self.session
        for k, lot in enumerate(lots):
            if k:
                self.term.say("\n" + bold(lot_title(lot["post"])))
            self.term.say(describe_event(WORDS, lot))
            sold = next(x for x in s.lots if x.post == lot["post"])
            self.save({"auction": sold.to_json()})

    def show_board(self) -> None:
        win, grid = board_tables(self.session.board(), words("board.race",
                                                              race=self.session.race))
        self.term.say(win)
        self.term.say(grid)

    def betting(self) -> None:
        s, state = self.session, self.state
        self.term.say("\n" + bold(words("party.betting_open", race=s.race,
                                         races=s.config.races)))
        if s.is_last_race:
            self.term.say(bold(words("party.before_last")))
            self.show_standings()
        last = s.history[-1] if s.history else None
        if last is not None and s.config.first_out_bonus and last.first_out:
            self.term.say(words("party.odds_change",
                                horses=[horse_name(h) for h in last.first_out]))
        self.show_board()
        for i in list(state.acting_players()):
            p = s.players[i]
            if p.is_computer:
                for bet in computer_bets(s, i):
                    state.apply_action_for(i, state.ticket_action(i, bet.kind, bet.horses,
                                                                  bet.stake))
                    self.term.say(words("party.computer_ticket", name=p.name,
                                        kind=Message(f"{WORDS}.computer.{p.kind}"),
                                        **ticket_facts(self._mine(i)[-1])))
                state.apply_action_for(i, DONE)
                continue
            if s.history:
                self.term.say("\n" + words("party.tickets_for", name=p.name, race=s.race))
            else:
                self.term.say(f"\n{p.name}: {words('party.bet_help')}")
            while True:
                answer = self.term.ask(words("party.ticket_prompt", name=p.name, money=p.money))
                word = answer.lower()
                if word in ("", "done", "d", "pass"):
                    state.apply_action_for(i, DONE)
                    break
                try:
                    if word == "board":
                        self.show_board()
                    elif word in ("help", "?"):
                        self.term.say(words("party.bet_help"))
                    elif word == "tickets":
                        self.term.say(", ".join(words("party.ticket", **ticket_facts(t))
                                                for t in self._mine(i))
                                      or words("party.no_tickets"))
                    elif word == "borrow":
                        for e in state.apply_action_for(i, state.borrow_action(i)):
                            self.term.say(describe_event(WORDS, e))
                    else:
                        kind, horses, stake = parse_ticket(answer)
                        state.apply_action_for(i, state.ticket_action(i, kind, horses, stake))
                        t = self._mine(i)[-1]
                        self.term.say(words("party.ticket_bought", **ticket_facts(t)))
                except BetError as exc:
                    self.term.refuse(str(exc))
        self.save()

    def _mine(self, player: int) -> list[dict[str, Any]]:
        """``player``'s tickets, as their own view shows them."""
        tickets: list[dict[str, Any]] = self.state.observation(player)["me"]["tickets"]
        return tickets

    def race(self) -> None:
        s, state = self.session, self.state
        race = state.race
        assert race is not None
        if s.config.host and race != DerbyState(DerbyOptions(s.config.fall_rate)):
            self.term.say("\n" + words("party.race_continues", race=s.race, round=race.round,
                                        horses=[horse_name(p) for p in race.group]))
        else:
            self.term.say("\n" + bold(words("event.race_start", race=s.race)))
        to_drop: list[str] = []
        rng = self._rng(s.race)
        number = s.race
        while True:
            if s.config.host:
                events = self._host_round(race)
            else:
                draw = state.sample_chance(rng)
                events = state.apply_action(draw.outcome, draw.detail)
            over = any(e.kind == "settled" for e in events)
            if s.config.host and not over:  # the table's dice so far are kept
                self.save()
            for line in event_lines(events, to_drop):
                self.term.say(line)
                self.term.beat()
            if over:
                break
        record = s.history[-1]
        settled = next(e for e in events if e.kind == "settled")
        for pay in settled["payouts"]:
            self.term.say(words("party.payout", name=pay["name"], amount=pay["amount"],
                                what=pay["what"]))
        if not settled["payouts"]:
            self.term.say(words("party.no_payouts"))
        self.save({"race": record.to_json()})
        self.term.say(words("party.saved_after", race=number))

    def _host_round(self, race: DerbyState) -> list[Event]:
        rolling = list(race.to_roll)
        what = (Message(f"{WORDS}.party.roll_off") if race.in_rolloff
                else Message(f"{WORDS}.party.furlong", {"n": race.round}))
        while True:
            answer = self.term.ask(words("party.host_prompt", what=what,
                                         horses=" ".join(horse_name(p) for p in rolling)))
            try:
                values = parse_host_round(answer, rolling)
            except RacedayError as exc:
                self.term.refuse(str(exc))
                continue
            break
        return self.state.enter_rolls(values)
    def show_standings(self) -> None:
        s = self.session
        table = Table()
        for col in ("rank", "player", "money", "debt", "net", "horse", "prizes"):
            table.add_column(words(f"column.{col}"),
                             justify="left" if col in ("player", "horse") else "right")
        for rank, i, net in s.standings():
            p = s.players[i]
            table.add_row(str(rank), p.name, str(p.money), str(p.debt), str(net),
                          horse_name(p.horse) if p.horse else "—", str(p.prize))
        self.term.say(table)

    def finale(self) -> None:
        self.term.say("\n" + bold(words("party.final")))
        self.show_standings()
        self.term.say(describe_outcome(WORDS, self.state.outcome()))
        award = self.state.award()
        if award is None:
            self.term.say(words("no_award"))
        else:
            self.term.say(words("party.award", by=Message(f"{WORDS}.award_{award['by']}"),
                                names=award["names"], score=award["score"]))
        self.term.say(words("party.complete", name=self.name))


def bold(text: str) -> str:
    """``text`` in bold on the console, its own brackets shown as they are."""
    return f"[bold]{escape(text)}[/]"


def lot_title(post: int) -> str:
    """The heading of a die on offer: its post and name."""
    return words("party.lot_title", post=post, horse=horse_name(post))


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
