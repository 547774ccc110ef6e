"""The interactive faces of KEIRIN: a race shown turn by turn (`watch`, `play`) and betting
nights with friends (`play`). Imported only by the commands that need it, so `keirin odds`
starts without the session store, the betting rules or the rules engine's players.

Both loops talk only to a :class:`raceday.terminal.surface.Surface`: the board (the odds
board while the players bet, the track while a race runs) goes to :meth:`Surface.board`,
every line of commentary, ticket and payout to :meth:`Surface.say`, and every answer comes
from :meth:`Surface.ask`. So the same loop prints line by line in a pipe or with ``--plain``
and runs in the full-screen view at a terminal. Every word comes from the message tables
(``games/keirin/messages/{en,ja}.json``) in the surface's language.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from raceday.core.errors import BetError, OptionsError, RacedayError
from raceday.core.events import Event
from raceday.core.protocol import State
from raceday.games.keirin.agents import LEVELS
from raceday.games.keirin.betting import (
    KINDS,
    format_money,
    format_odds,
    parse_money,
    selection_text,
    winning_selection,
)
from raceday.games.keirin.night import DONE, MAX_PLAYERS
from raceday.games.keirin.odds_view import BOARD_KINDS, fitted_board, odds_table
from raceday.games.keirin.render import commentary, render_track, throw_line, track_words
from raceday.games.keirin.rules import PHASE_PHOTO, KeirinOptions, KeirinState
from raceday.games.keirin.saved_night import GAME, BetSession, Settlement
from raceday.present import render
from raceday.store.names import MAX_SESSION_NAME, check_session_name
from raceday.store.sessions import ReadOnlyStore, SessionStore, writable_store
from raceday.terminal.common import (
    MAX_PLAYER_NAME,
    console,
    default_delay,
    fresh_seed,
    on_interrupt,
    player_names,
    refuse_taken_save,
    saved_resume_line,
)
from raceday.terminal.common import resume_command as common_resume
from raceday.terminal.surface import UNDO, Choice, Prompt, Quit, Surface, refusal_line


def words(key: str, lang: str, **params: Any) -> str:
    """KEIRIN's words for ``key`` in ``lang`` (its own message tables)."""
    return render(key, lang, game="keirin", params=params)


def counted(key: str, n: int, lang: str, **params: Any) -> str:
    """``key`` for the count ``n`` (its plural form, so never '1 races')."""
    return words(key, lang, n=n, **params)


def kind_label(kind: str, lang: str) -> str:
    """A bet type as the player reads it: the typed word in English, the Japanese name in
    Japanese (both are understood at the ticket prompt)."""
    return kind if lang == "en" else words(f"kr_{kind}", lang)


# --- a race shown turn by turn ------------------------------------------------------------------
@dataclass
class RaceSnapshot:
    """What the track picture reads from a race, copied at one moment (a full-screen board
    is drawn again on every resize, long after the race has moved on)."""

    options: KeirinOptions
    positions: list[int]
    ranked: list[int]
    active: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, state: KeirinState) -> RaceSnapshot:
        return cls(state.options, list(state.positions), list(state.ranked),
                   list(state.active_riders()))

    def active_riders(self) -> list[int]:
        return list(self.active)


def track_board(title: str, events: Sequence[Event], race: RaceSnapshot, lang: str = "en"
                ) -> Callable[[int, int], RenderableType]:
    """The race board: a heading, the turn's throws and the track, as wide as the space
    allows (64 cells of track in 80 columns, more in a wider view)."""
    throws = [e for e in events if e.kind == "throw"]
    said = track_words(lang)

    def draw(width: int, height: int) -> RenderableType:
        parts: list[RenderableType] = [Rule(title, style="grey50")]
        line = throw_line(throws, max(40, width - 2))
        if line.plain:
            parts.append(line)
        parts.append(render_track(race, max(40, min(width, 216) - 16), said))
        return Group(*parts)

    return draw


def show_race(
    surface: Surface,
    run: Callable[[Callable[[State, list[Event]], None]], KeirinState],
    wait: float,
    *,
    race_number: int | None = None,
) -> KeirinState:
    """Run a race with ``run(on_events)`` and show it turn by turn on ``surface`` (the
    track as the board, the commentary in the log), then the result."""
    lang = surface.lang
    turn_events: list[Event] = []
    crossed_in: dict[int, int] = {}

    def show(s: State, events: list[Event]) -> None:
        assert isinstance(s, KeirinState)
        turn_events.extend(events)
        crossed_in.update((e["rider"], e["turn"]) for e in events if e.kind == "place")
        photo_done = s.phase != PHASE_PHOTO and any(e.kind == "photo_throw" for e in events)
        boundary = photo_done or any(e.kind in ("turn", "slipstream", "result") for e in events)
        if not boundary:
            return
        turn = turn_label(turn_events)
        title = words("kr_turn", lang, n=turn)
        if s.turn <= 1 and any(e.kind == "slipstream" for e in events):
            title = words("term.start", lang)
        if photo_done and not any(e.kind == "turn" for e in events):
            title = words("term.photo_turn", lang, turn=turn)
        if surface.full_screen:
            where = (words("term.status.race", lang, race=race_number, turn=turn)
                     if race_number is not None else words("term.status.watch", lang,
                                                           turn=turn))
            surface.status(where)
            surface.say(Rule(title, style="grey50"))
        surface.board(track_board(title, list(turn_events), RaceSnapshot.of(s), lang))
        for text in commentary(turn_events, lang):
            surface.say(Text(f"  {text}"))
        turn_events.clear()
        surface.pause(wait)

    state = run(show)
    for text in commentary(turn_events, lang) if turn_events else []:
        surface.say(Text(f"  {text}"))
    full = surface.full_screen
    table = Table(words("term.col.place", lang), words("term.col.rider", lang),
                  words("term.col.crossed", lang), words("term.col.past", lang),
                  **_compact_table(full))
    line = state.options.length
    for place, rider in enumerate(state.ranked, start=1):
        past = str(state.positions[rider - 1] - line)
        table.add_row(str(place), f"R{rider}", str(crossed_in[rider]), past)
    winner = Text(words("kr_winner", lang, n=state.ranked[0]), style="bold")
    result = Group(Rule(words("term.result", lang)), table, winner)
    if full:  # the result takes the board's place; the log says who won
        surface.board(result)
        surface.say(winner)
        surface.status(winner.plain)
    else:
        surface.say(result)
    return state


def _compact_table(full_screen: bool) -> dict[str, Any]:
    """A table's frame: boxed in line mode (as it always printed), unboxed on a full-screen
    board, where every line counts (9 riders and a heading fit 80x24's board)."""
    return {"box": None, "header_style": "bold cyan", "pad_edge": False} if full_screen else {}


def turn_label(events: list[Event]) -> str:
    turns = [e["turn"] for e in events if "turn" in e.data]
    return str(turns[-1]) if turns else "?"


def watch_title(options: KeirinOptions, lang: str) -> str:
    return words("term.watch_title", lang, riders=options.riders, length=options.length)


# --- betting nights ---------------------------------------------------------------------------
@dataclass
class Night:
    """A betting night being played: its session, where it is saved, and the command's
    choices (rows of the full boards, pause between turns, the database named)."""

    session: BetSession
    store: SessionStore
    top: int
    wait: float
    db: Path | None
    opening: list[str] = field(default_factory=list)
    # set when the players are still to be named (a person at a terminal gave no -p):
    # makes and saves the session once the names prompt has them
    make: Callable[[list[str]], BetSession] | None = None
    # a lesson's night: seats computer bettors play (seat -> level, see
    # :mod:`raceday.games.keirin.agents`; ``pass`` buys nothing), a line said before each
    # person's tickets (hints), and how many races before it ends
    computers: Mapping[int, str] = field(default_factory=dict)
    hint: Callable[[BetSession, int], str] | None = None
    races: int | None = None


def _fixed(session: BetSession) -> bool:
    return session.mode == "fixed"


def _board_title(session: BetSession, lang: str) -> str:
    race = session.races + 1
    if _fixed(session):
        return words("term.board.fixed", lang, race=race, factor=f"{1 - session.margin:g}")
    return words("term.board.pool", lang, race=race, takeout=f"{session.margin:.0%}")


def board_words(lang: str) -> dict[str, str]:
    said = {kind: kind_label(kind, lang) for kind in BOARD_KINDS}
    said.update(odds=words("term.board.odds", lang), chance="%",
                more=words("term.board.more", lang))
    return said


def betting_board(session: BetSession, lang: str,
                  highlight: tuple[str, tuple[int, ...]] | None = None
                  ) -> Callable[[int, int], RenderableType]:
    """The odds board fitted to the space it gets: a heading, then the win block and the
    most likely rows of the other bet types side by side (see
    :func:`raceday.games.keirin.odds_view.fitted_board`)."""
    title = _board_title(session, lang)
    odds, margin = session.odds, (session.margin if _fixed(session) else None)
    said = board_words(lang)

    def draw(width: int, height: int) -> RenderableType:
        table = fitted_board(odds, width, max(3, height - 1), margin=margin, words=said,
                             highlight=highlight)
        return Group(Rule(title, style="cyan"), table)

    return draw


def compact_height(session: BetSession) -> int:
    """Line mode's board: the heading, the column names, one row per rider and the last
    line, so the whole board and the ticket prompt fit a 24-line terminal."""
    return session.options.riders + 3


def show_board(surface: Surface, session: BetSession) -> None:
    draw = betting_board(session, surface.lang)
    if surface.full_screen:
        surface.board(draw)
    else:
        rows = compact_height(session)
        surface.board(lambda width, _height: draw(width, rows))


def full_boards(surface: Surface, session: BetSession, top: int) -> None:
    """Every bet type's table (the win table whole, ``top`` rows of the others): the
    ``odds`` command at the ticket prompt."""
    lang = surface.lang
    surface.say(Rule(_board_title(session, lang), style="cyan"))
    table_words = {"bet": words("term.col.bet", lang),
                   "probability": words("term.col.probability", lang),
                   "fair odds": words("term.col.fair_odds", lang),
                   "offered odds": words("term.col.offered_odds", lang),
                   "of": words("term.col.of", lang)}
    for kind in BOARD_KINDS:
        surface.say(odds_table(session.odds, kind, None if kind == "win" else top,
                               session.margin if _fixed(session) else None,
                               words={**table_words, kind: kind_label(kind, lang)}))


def _bankroll_line(session: BetSession) -> str:
    return "   ".join(f"{name}: {format_money(acc.bankroll)}" for name, acc in
                      session.players.items())


def _ticket_text(view: dict[str, Any], lang: str) -> str:
    """A ticket as its owner's view shows it: ``win 3 for 100.00 at 5.40``."""
    params = {"kind": kind_label(view["kind"], lang), "selection": view["label"],
              "stake": view["stake_text"]}
    if view["odds"] is None:
        return words("ticket", lang, **params)
    return words("ticket_at", lang, **params, odds=format_odds(view["odds"]))


def say_unbroken(surface: Surface, text: str) -> None:
    """One line never broken at the terminal's width in line mode (a command to paste back
    whole); the full-screen log wraps it like any other line."""
    console = getattr(surface, "console", None)
    if not surface.full_screen and console is not None:
        console.print(Text(text), soft_wrap=True)
    else:
        surface.say(Text(text))


def _marked(key: str, style: str, text: str, lang: str) -> Text:
    """``  accepted: win 3 …`` with its first word coloured (no blank after a full-width
    colon)."""
    label = words(key, lang)
    return Text.assemble("  ", (label, style), "" if label.endswith("：") else " ", text)


def _action_ticket(session: BetSession, action: int, lang: str) -> str:
    """The ticket an action buys, as its owner reads it (with the odds it takes)."""
    ticket = session.state.ticket_of(action)
    assert ticket is not None
    kind, selection, stake = ticket
    return _ticket_text({"kind": kind, "label": ("-" if KINDS[kind][1] else "=").join(
        map(str, selection)), "stake_text": format_money(stake),
        "odds": session.state.price(kind, selection) if _fixed(session) else None}, lang)


def _refusal(exc: RacedayError, lang: str) -> str:
    return render(exc.message, lang) if exc.message is not None else str(exc)


def _typed_kind(line: str, lang: str) -> str:
    """A typed ticket with a bet type's Japanese name (単勝 3 100) as the rules read it
    (win 3 100); anything else unchanged."""
    head, _, rest = line.partition(" ")
    for kind in KINDS:
        if head == words(f"kr_{kind}", "ja"):
            return f"{kind} {rest}"
    return line


def _stake_text(purse: int) -> str | None:
    """The stake of the listed tickets: 100, or the whole purse when less is left."""
    if purse <= 0:
        return None
    return "100" if purse >= 10_000 else format_money(purse).replace(",", "")


def ticket_prompt(session: BetSession, seat: int, lang: str) -> Prompt:
    """The ticket prompt of ``seat``: the listed tickets are the favourites of every bet
    type at a round stake (each previewed on the board), and completion knows the bet
    types, the riders' numbers and the prompt's words."""
    night = session.state
    me = night.observation(seat)["me"]
    stake = _stake_text(me["purse"]) if not night.options.allow_debt else "100"
    choices = [Choice("done", words("term.choice.done", lang))]
    if stake is not None:
        for kind, count in (("win", session.options.riders), ("quinella", 3), ("exacta", 3),
                            ("trio", 2), ("trifecta", 2)):
            ranked = sorted(session.odds.bet(kind).items(), key=lambda kv: (-kv[1], kv[0]))
            for combo, _p in ranked[:count]:
                riders = ("-" if KINDS[kind][1] else "=").join(map(str, combo))
                text = f"{kind} {riders} {stake}"
                price = night.price(kind, combo) if _fixed(session) else None
                label = f"{kind_label(kind, lang)} {riders} {stake}"
                if price:
                    label += "  @ " + format_odds(price)
                choices.append(Choice(text, label,
                                      betting_board(session, lang, (kind, combo))))
    # (undo is not listed: no choice starts with u, so u and ctrl+z take back a ticket)
    choices += [Choice("odds", words("term.choice.odds", lang)),
                Choice("list", words("term.choice.list", lang))]
    completions = [*KINDS, *(words(f"kr_{k}", "ja") for k in KINDS if lang == "ja"),
                   *(str(r) for r in range(1, session.options.riders + 1))]
    text = words("term.ticket_prompt", lang, player=night.names[seat],
                 purse=format_money(me["purse"]))
    return Prompt(text, choices=choices, completions=completions,
                  help=words("term.ticket_help", lang), undo=True)


def _computer_tickets(surface: Surface, session: BetSession, seat: int, level: str) -> None:
    """A computer bettor's tickets for the next race, said as it buys them (the dice of
    its choice from the night's seed, the race and the seat: a resumed night replays it)."""
    from raceday.games.keirin.agents import Computer, computer_turn

    night = session.state
    lang = surface.lang
    rng = np.random.default_rng([session.seed, night.race_number, seat, 7])
    bought = []
    for action, _ in computer_turn(night, seat, Computer(level, seat), rng):
        ticket = night.ticket_of(action)
        if ticket is not None:
            kind, selection, stake = ticket
            bought.append(f"{kind_label(kind, lang)} {selection_text(kind, selection)} "
                          f"{format_money(stake)}")
    player = night.names[seat]
    surface.say(Text(words("term.computer_buys", lang, player=player,
                           tickets=", ".join(bought)) if bought
                     else words("term.passes", lang, player=player)))


def _collect_tickets(surface: Surface, session: BetSession, top: int,
                     computers: Mapping[int, str] | None = None,
                     hint: Callable[[BetSession, int], str] | None = None) -> bool:
    """Every player's tickets for the next race, one player after the other (a seat in
    ``computers`` is a computer bettor's; ``hint`` says a line before each other's); False
    when the players stop (quit, or the input ends): the open tickets are withdrawn, no
    money moved."""
    lang = surface.lang
    night = session.state
    for seat, _player in enumerate(night.names):
        if computers and seat in computers and seat in night.acting_players():
            _computer_tickets(surface, session, seat, computers[seat])
            continue
        player = _player
        if hint is not None and seat in night.acting_players():
            surface.say(Text(hint(session, seat), style="yellow"))
        while seat in night.acting_players():
            me = night.observation(seat)["me"]
            if surface.full_screen:  # line mode: the prompt itself says it
                surface.status(words("term.status.tickets", lang, player=player,
                                     purse=format_money(me["purse"])))
            surface.moves([f"{night.names[p]} {kind_label(view['kind'], lang)} "
                           f"{view['label']} {view['stake_text']}"
                           for p in range(night.num_players)
                           for view in night.observation(p)["me"]["tickets"]])
            try:
                line = surface.ask(ticket_prompt(session, seat, lang))
            except (EOFError, Quit):
                _withdraw(surface, session)
                return False
            word = line.lower()
            if word in ("stop",):
                _withdraw(surface, session)
                return False
            if word in ("", "done", "d"):
                night.apply_action_for(seat, DONE)
                continue
            if word == "list":
                views = [(night.names[p], t) for p in range(night.num_players)
                         for t in night.observation(p)["me"]["tickets"]]
                for name, view in views:
                    surface.say(Text(f"  {name}: {_ticket_text(view, lang)}"))
                if not views:
                    surface.say(Text("  " + words("kr_no_tickets", lang)))
                continue
            if word == "odds":
                full_boards(surface, session, top)
                continue
            if line == UNDO:
                if me["tickets"]:
                    night.apply_action_for(seat, night.cancel_action(len(me["tickets"]) - 1))
                    surface.say(Text("  " + words("term.taken_back", lang,
                                                  ticket=_ticket_text(me["tickets"][-1],
                                                                      lang))))
                else:
                    surface.say(refusal_line(words("refusal.no_ticket", lang), lang))
                continue
            try:
                action = night.ticket_from_text(seat, _typed_kind(line, lang))
            except BetError as exc:
                surface.say(refusal_line(_refusal(exc, lang), lang))
                continue
            accepted = _action_ticket(session, action, lang)
            night.apply_action_for(seat, action)
            surface.say(_marked("term.accepted", "green", accepted, lang))
    return True


def _withdraw(surface: Surface, session: BetSession) -> None:
    night = session.state
    if night.tickets:
        surface.say(Text(counted("term.withdrawn", len(night.tickets), surface.lang,
                                 race=session.races + 1)))


def _show_settlement(surface: Surface, session: BetSession, settlement: Settlement) -> None:
    """The race's payouts: in line mode printed as tables; full screen, they take the
    board's place and the log keeps one short line a ticket."""
    lang, full = surface.lang, surface.full_screen
    order = " ".join(f"R{r}" for r in settlement.ranking[:3])
    heading = words("term.settled", lang, race=settlement.race, order=order)
    parts: list[RenderableType] = [Rule(heading, style="cyan")]
    log: list[str] = []
    if settlement.pools:
        pools = Table(words("term.col.pool", lang), words("term.col.total", lang),
                      words("term.col.winning", lang), words("term.col.dividend", lang),
                      title=words("term.pools", lang), **_compact_table(full))
        for kind, pool in settlement.pools.items():
            pools.add_row(
                kind_label(kind, lang), format_money(pool["pool"]), pool["label"],
                words("kr_refunded", lang) if pool["refunded"]
                else f"{float(pool['dividend'] or 0):,.4f}",
            )
        parts.append(pools)
    if settlement.tickets:
        table = Table(words("term.col.player", lang), words("term.col.ticket", lang),
                      words("term.col.result", lang), words("term.col.returned", lang),
                      **_compact_table(full))
        for t, r in zip(settlement.tickets, settlement.returns, strict=True):
            won = t.selection == winning_selection(t.kind, settlement.ranking)
            result = "won" if won else ("refunded" if r else "lost")
            view = {"kind": t.kind, "label": ("-" if KINDS[t.kind][1] else "=").join(
                map(str, t.selection)), "stake_text": format_money(t.stake), "odds": t.odds}
            table.add_row(t.player, _ticket_text(view, lang),
                          words(f"term.result.{result}", lang), format_money(r))
            log.append(f"{t.player}: {_ticket_text(view, lang)} — "
                       f"{words(f'term.result.{result}', lang)} {format_money(r)}")
        parts.append(table)
    else:
        parts.append(Text(words("term.no_tickets_race", lang)))
        log.append(words("term.no_tickets_race", lang))
    bankrolls = words("term.bankrolls", lang, bankrolls=_bankroll_line(session))
    parts.append(Text(bankrolls))
    if full:
        surface.board(Group(*parts))
        surface.say(Text(heading, style="cyan"))
        for line in [*log, bankrolls]:
            surface.say(Text(line))
    else:
        for part in parts:
            surface.say(part)


def _standings(surface: Surface, session: BetSession) -> None:
    lang = surface.lang
    table = Table(*(words(f"term.col.{c}", lang) for c in
                    ("place", "player", "bankroll", "staked", "returned", "net", "won")),
                  title=words("term.standings", lang,
                              races=counted("term.races_n", session.races, lang),
                              name=repr(session.name)), **_compact_table(surface.full_screen))
    for place, (name, acc) in enumerate(session.standings(), start=1):
        table.add_row(str(place), name, format_money(acc.bankroll), format_money(acc.staked),
                      format_money(acc.returned), format_money(acc.returned - acc.staked),
                      f"{acc.winning_tickets}/{acc.tickets}")
    if surface.full_screen:  # the standings take the board's place
        surface.board(table)
    else:
        surface.say(table)


def _run_and_settle(surface: Surface, night: Night) -> None:
    session = night.session
    race = session.races + 1
    state = show_race(surface, lambda on_events: session.run_race(on_events), night.wait,
                      race_number=race)
    _show_settlement(surface, session, session.settle(night.store, state))


def _resume_command(name: str, db: Path | None) -> str:
    """The exact command that continues a session (with --db when one was given)."""
    return common_resume("keirin", "play", name, db)


def _kept(session: BetSession, store: SessionStore) -> str:
    """What the database keeps of ``session`` (read back, not what is in memory)."""
    with contextlib.suppress(RacedayError):
        session = BetSession.load(store, session.name)
    race = session.races + 1
    settled = f"{session.races} settled race{'s' if session.races != 1 else ''} saved"
    if session.pending is not None:
        count = len(session.pending)
        tickets = f"{count} ticket is" if count == 1 else f"{count} tickets are"
        return f"{settled}; race {race}'s {tickets} locked and the race runs on resume"
    return f"{settled}; the open betting on race {race} was withdrawn (no money moved)"


def _interrupted(session: BetSession, store: SessionStore, db: Path | None) -> NoReturn:
    """Ctrl-C: one line saying what the database keeps and how to go on (exit 130)."""
    with on_interrupt(_kept(session, store), _resume_command(session.name, db)):
        raise KeyboardInterrupt
    raise AssertionError("unreachable")  # pragma: no cover


def another_race(surface: Surface, session: BetSession) -> bool:
    """Ask whether to run another race: y, yes, n, no or Enter (yes); the end of input
    (a script that ran out) is a no; ``undo`` has nothing to take back once a race is
    settled, and says so."""
    lang = surface.lang
    prompt = Prompt(words("term.another_race", lang),
                    choices=[Choice("y", words("term.choice.yes", lang)),
                             Choice("n", words("term.choice.no", lang))],
                    help=words("term.another_help", lang))
    if surface.full_screen:
        surface.status(words("term.status.another", lang))
    while True:
        try:
            answer = surface.ask(prompt).lower()
        except EOFError:
            return False
        if answer in ("", "y", "yes", "はい"):
            return True
        if answer in ("n", "no", "いいえ"):
            return False
        if answer == UNDO:
            surface.say(Text(words("term.nothing_to_undo", lang, race=session.races)))
            continue
        surface.say(refusal_line(words("term.yes_or_no", lang), lang))


def _name_players(surface: Surface, make: Callable[[list[str]], BetSession]
                  ) -> BetSession | None:
    """Ask the players' names (no -p was given at a terminal) and make the night with them;
    None when the player quits (or the input ends) first: nothing is saved."""
    lang = surface.lang
    prompt = Prompt(words("term.names_prompt", lang),
                    help=words("term.names_help", lang, players=MAX_PLAYERS,
                               characters=MAX_PLAYER_NAME))
    while True:
        try:
            line = surface.ask(prompt)
        except (EOFError, Quit):
            return None
        if line == UNDO:
            surface.say(Text(words("term.nothing_to_undo_yet", lang)))
            continue
        try:
            names = (player_names([line]) or []) if line.strip() else []
            if not names:
                raise OptionsError(words("term.names_needed", lang))
            if len(names) > MAX_PLAYERS:
                raise OptionsError(f"at most {MAX_PLAYERS} players, got {len(names)}")
            return make(names)
        except OptionsError as exc:
            surface.say(refusal_line(_refusal(exc, lang), lang))


def play_night(surface: Surface, night: Night) -> int:
    """The betting night on ``surface``: odds board, tickets, the race, payouts, race after
    race, until the players stop (quit, no to another race, or the end of input). Saved
    after every race; ends with the standings and how to resume."""
    lang = surface.lang
    if night.make is not None:
        made = _name_players(surface, night.make)
        if made is None:
            surface.say(Text(words("term.nothing_saved", lang)))
            return 0
        night.session, night.make = made, None
    session = night.session
    for line in night.opening:
        surface.say(Text(line))
    opts = session.options
    surface.say(Text(words("term.night", lang, riders=opts.riders, length=opts.length,
                           bankrolls=_bankroll_line(session))))
    try:
        try:
            if session.pending is not None:
                surface.say(Text(words("term.pending", lang, race=session.races + 1,
                                       tickets=counted("term.tickets_n", len(session.pending),
                                                       lang))))
                _run_and_settle(surface, night)
            while not session.state.is_terminal():
                show_board(surface, session)
                if not _collect_tickets(surface, session, night.top,
                                        night.computers or session.computers, night.hint):
                    break
                session.lock(night.store)
                _run_and_settle(surface, night)
                if night.races is not None and session.races >= night.races and not (
                        session.state.is_terminal()):
                    surface.say(Text(words("term.night_over", lang, races=counted(
                        "term.races_n", session.races, lang))))
                    break
                if session.state.is_terminal() or not another_race(surface, session):
                    break
            if session.state.is_terminal():  # a night of so many races (a room's record)
                surface.say(Text(words("term.night_over", lang, races=counted(
                    "term.races_n", session.races, lang))))
        except Quit:  # quit while a race runs (full screen): its tickets stay locked
            surface.say(Text(_kept(session, night.store)))
    except KeyboardInterrupt:
        _interrupted(session, night.store, night.db)
    _standings(surface, session)
    say_unbroken(surface, saved_resume_line(session.name,
                                            _resume_command(session.name, night.db), lang))
    if surface.full_screen:
        surface.status(words("term.status.over", lang))
    return 0


def _list_sessions(store: SessionStore) -> None:
    names = store.names(GAME)
    if not names:
        console.print(f"No saved keirin sessions in {store.path}.")
        return
    # One session a line, never wrapped or cut: a name is typed back whole by --resume
    # (names have at most MAX_SESSION_NAME characters), so a table column is no place for it.
    console.print(escape(f"Saved keirin sessions in {store.path}:"), soft_wrap=True)
    for name in names:
        try:
            s = BetSession.load(store, name)
        except RacedayError as exc:
            console.print(escape(f"  {name}"), soft_wrap=True)
            console.print(escape(f"      unreadable: {exc}"), soft_wrap=True)
            continue
        players = ", ".join(f"{n} {format_money(a.bankroll)}" for n, a in s.players.items())
        console.print(f"  [bold]{escape(name)}[/]", soft_wrap=True)
        mode = {"fixed": "fixed odds", "pool": "pari-mutuel pools"}.get(s.mode, s.mode)
        races = f"{s.races} race{'' if s.races == 1 else 's'}"
        console.print(escape(f"      {races} settled, {mode}; {players}"), soft_wrap=True)


def parse_money_option(text: str) -> int:
    try:
        return parse_money(text)
    except BetError as exc:
        raise OptionsError(f"--bankroll: {exc}") from None


def prepare_night(
    *,
    players: Sequence[str] | None,
    bankroll: str,
    margin: float,
    pool: bool,
    allow_debt: bool,
    save: str | None,
    resume: str | None,
    db: Path | None,
    seed: int | None,
    riders: int,
    length: int,
    derny: int | None,
    top: int,
    delay: float | None,
    lang: str,
    ask_names: bool = False,
    computers: int = 0,
) -> Night:
    """The night `keirin play` is about to play, once typer has checked each option: a new
    session saved under ``save`` (or a dated name), or the saved session ``resume``. Every
    option is checked before the database is touched, so a refused option leaves no
    half-made session behind. ``computers`` computer bettors (CPU 1 cautious, CPU 2 sharp,
    ...) join the players of a new night."""
    wait = default_delay(delay, interactive_default=0.3)
    if resume is None:
        names = player_names(players)  # -p Ann -p Bob, -p Ann,Bob; each name bounded
        if len(names or []) + computers > MAX_PLAYERS:
            raise OptionsError(f"at most {MAX_PLAYERS} players, computers included, got "
                               f"{len(names or []) + computers}")
        cpus = [f"CPU {k + 1}" for k in range(computers)]
        name = save or datetime.now(UTC).strftime("keirin-%Y%m%d-%H%M%S")
        if save is not None:  # refused before a name is asked or a ticket typed
            refuse_taken_save(writable_store(db), GAME, save, "KEIRIN",
                              _resume_command(save, db))
        options = KeirinOptions.parse({"riders": riders, "length": length, "derny": derny})
        chosen_seed = fresh_seed(seed)

        def make(players: list[str]) -> BetSession:
            if not players:  # computers alone would bet with nobody watching
                raise OptionsError("name at least one player (--players NAMES: names "
                                   "separated by commas, or -p repeated)")
            made = BetSession.new(
                name, [*players, *cpus], options,
                bankroll=parse_money_option(bankroll), mode="pool" if pool else "fixed",
                margin=margin, allow_debt=allow_debt, seed=chosen_seed,
                computers={len(players) + k: LEVELS[k % len(LEVELS)] for k in range(computers)},
            )
            made.save(writable_store(db))
            return made

        opening = words("term.new_session", lang, name=repr(name),
                        mode=words(f"term.mode.{'pool' if pool else 'fixed'}", lang),
                        margin=f"{margin:g}", seed=chosen_seed)
        if not names and ask_names:  # every other option is checked now, the names later
            trial = BetSession.new(name, ["?"], options, bankroll=parse_money_option(bankroll),
                                   mode="pool" if pool else "fixed", margin=margin,
                                   allow_debt=allow_debt, seed=chosen_seed)
            store = writable_store(db)
            if store.exists(GAME, name):
                trial.save(store)  # refused: the name is taken (says --resume NAME)
            return Night(trial, store, top, wait, db, [opening], make=make)
        session = make(names or [])
        store = writable_store(db)
    else:
        store = writable_store(db)
        if Path(resume).is_file() and not store.exists(GAME, resume):  # a record file
            session = _night_from_file(Path(resume), store, save, db)
            opening = words("term.resuming_file", lang, file=resume, name=repr(session.name),
                            settled=counted("term.races_n", session.races, lang))
        else:
            session = BetSession.load(store, resume)
            opening = words("term.resuming", lang, name=repr(resume),
                            settled=counted("term.races_n", session.races, lang))
    return Night(session, store, top, wait, db, [opening])


def _night_from_file(path: Path, store: SessionStore, save: str | None, db: Path | None
                     ) -> BetSession:
    """The night recorded in ``path``, saved at once as a new session: ``--save NAME``
    (refused when taken), else the record's own name (or the file's) made free with a
    number (``friday-2``). Nothing is saved when the record is refused."""
    session = BetSession.from_file(path)
    if save is not None:
        refuse_taken_save(store, GAME, save, "KEIRIN", _resume_command(save, db))
        name = save
    else:
        base = session.name[:MAX_SESSION_NAME - 6]
        name = check_session_name(base)
        number = 2
        while store.exists(GAME, name):
            name, number = f"{base}-{number}", number + 1
    session.rename(name)
    session.save(store)
    return session


def list_sessions(db: Path | None) -> None:
    """`keirin play --list`: the saved nights, one a line (the database is only read)."""
    _list_sessions(ReadOnlyStore(db))


def watch_race(options: KeirinOptions, seed: int, wait: float,
               new_state: Callable[[KeirinOptions], KeirinState] = KeirinState,
               ) -> Callable[[Surface], int]:
    """The loop of `keirin watch`: one race on the surface, then how to see it again."""
    import numpy as np

    from raceday.core.play import play_game
    from raceday.games.keirin.game import GAME as RACE
    from raceday.terminal.common import seed_line

    def main(surface: Surface) -> int:
        lang = surface.lang
        rng = np.random.default_rng(seed)
        if not surface.full_screen:  # the full-screen view has it as its title
            surface.say(Rule(watch_title(options, lang)))

        def run(on_events: Callable[[State, list[Event]], None]) -> KeirinState:
            state = new_state(options)
            play_game(state, [], rng, max_steps=RACE.max_steps(options), on_events=on_events)
            return state

        show_race(surface, run, wait)
        surface.say(seed_line(seed, lang=lang))
        return 0

    return main


__all__ = ["Night", "another_race", "list_sessions", "play_night", "prepare_night",
           "show_race", "watch_race"]
