"""The interactive faces of KEIRIN: a race shown turn by turn (`watch`, `play`) and betting
sessions with friends (`play`). Imported only by the commands that need it, so `keirin odds`
starts without the session store, the betting rules or the rules engine's players."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

from rich.markup import escape
from rich.rule import Rule
from rich.table import Table

from raceday.core.errors import BetError, OptionsError, RacedayError
from raceday.core.events import Event
from raceday.core.protocol import State
from raceday.games.keirin.betting import (
    format_money,
    format_odds,
    parse_money,
    winning_selection,
)
from raceday.games.keirin.night import DONE, MAX_PLAYERS
from raceday.games.keirin.odds_view import odds_table
from raceday.games.keirin.render import commentary, render_track, throw_line
from raceday.games.keirin.rules import PHASE_PHOTO, KeirinOptions, KeirinState
from raceday.games.keirin.session import GAME, BetSession, Settlement
from raceday.present import render
from raceday.store.sessions import SessionStore, writable_store
from raceday.terminal.common import (
    ask_yes_no,
    console,
    default_delay,
    fresh_seed,
    on_interrupt,
    pause,
    player_names,
    read_line,
    shell_quote,
)


def show_race(
    run: Callable[[Callable[[State, list[Event]], None]], KeirinState], wait: float
) -> KeirinState:
    """Run a race with ``run(on_events)`` and show it turn by turn, then the result."""
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
        title = "Start" if s.turn <= 1 and any(e.kind == "slipstream" for e in events) else None
        if photo_done and not any(e.kind == "turn" for e in events):
            title = f"Photo-finish, turn {turn_label(turn_events)}"
        console.print(Rule(title or f"Turn {turn_label(turn_events)}", style="grey50"))
        line = throw_line(turn_events)
        if line.plain:
            console.print(line)
        console.print(render_track(s))
        for text in commentary(turn_events):
            console.print(f"  {text}")
        turn_events.clear()
        pause(wait)

    state = run(show)
    if turn_events:
        for text in commentary(turn_events):
            console.print(f"  {text}")
    console.print(Rule("Result"))
    table = Table("place", "rider", "crossed in turn", "squares past the line")
    line = state.options.length
    for place, rider in enumerate(state.ranked, start=1):
        past = str(state.positions[rider - 1] - line)
        table.add_row(str(place), f"R{rider}", str(crossed_in[rider]), past)
    console.print(table)
    console.print(f"[bold]Rider {state.ranked[0]} wins.[/]")
    return state


def turn_label(events: list[Event]) -> str:
    turns = [e["turn"] for e in events if "turn" in e.data]
    return str(turns[-1]) if turns else "?"


# --- betting sessions ---------------------------------------------------------------------------
BET_HELP = """Commands at the ticket prompt:
  TYPE RIDERS STAKE   place a ticket, e.g. 'win 3 100', 'exacta 3-4 50', 'quinella 3=4 20',
                      'trifecta 4-3-5 10', 'trio 2=5=7 10'
  list                this race's tickets so far        undo   take back your last ticket
  odds                show the odds board again          quit   end the session (no race)
  (empty line)        done: next player, then the race"""


# The line reader of the betting prompts (a test may replace it, e.g. to press Ctrl-C).
read_input: Callable[[str], str] = read_line


def _ask(prompt: str) -> str | None:
    """One line from the user; None at end of input (Ctrl-D or the end of a script)."""
    try:
        answer = read_input(f"{prompt} ")
    except EOFError:
        return None
    return answer.strip()


def _read_or_stop(prompt: str) -> str:
    """For yes/no questions: end of input answers 'no' (a script that ends stops)."""
    try:
        return read_input(prompt)
    except EOFError:
        return "n"


BOARD_KINDS = ("win", "quinella", "exacta", "trio", "trifecta")


def _board(session: BetSession, top: int) -> None:
    odds = session.odds
    fixed = session.mode == "fixed"
    note = (f"offered odds (fair odds × {1 - session.margin:g})" if fixed
            else f"fair odds as a guide; the pools pay out after a {session.margin:.0%} takeout")
    console.print(Rule(f"Race {session.races + 1} — odds board: {note}", style="cyan"))
    for kind in BOARD_KINDS:
        console.print(odds_table(odds, kind, None if kind == "win" else top,
                                 session.margin if fixed else None))


def _bankroll_line(session: BetSession) -> str:
    return "   ".join(f"{name}: {format_money(acc.bankroll)}" for name, acc in
                      session.players.items())


def _ticket_text(view: dict[str, Any]) -> str:
    """A ticket as its owner's view shows it: ``win 3 for 100.00 at 5.40``."""
    params = {"kind": view["kind"], "selection": view["label"], "stake": view["stake_text"]}
    if view["odds"] is None:
        return render("keirin.ticket", params=params)
    return render("keirin.ticket_at", params={**params, "odds": format_odds(view["odds"])})


def _collect_tickets(session: BetSession, top: int) -> bool:
    """Every player's tickets for the next race, one player after the other; False when
    the players stop (the open tickets are withdrawn, no money moved)."""
    night = session.state
    for seat, player in enumerate(night.names):
        while seat in night.acting_players():
            me = night.observation(seat)["me"]
            line = _ask(f"{player} [{format_money(me['purse'])} left] ticket (Enter = done, "
                        "help)>")
            if line is None or line.lower() in ("quit", "q", "exit", "stop"):
                if night.tickets:
                    console.print(f"Betting on race {session.races + 1} had not closed: its "
                                  f"{len(night.tickets)} ticket(s) are withdrawn, no money "
                                  "moved.")
                return False
            if line.lower() in ("", "done", "d"):
                night.apply_action_for(seat, DONE)
                continue
            if line.lower() in ("help", "h", "?"):
                console.print(BET_HELP)
                continue
            if line.lower() == "list":
                views = [(night.names[p], t) for p in range(night.num_players)
                         for t in night.observation(p)["me"]["tickets"]]
                for name, view in views:
                    console.print(f"  {name}: {_ticket_text(view)}")
                if not views:
                    console.print("  no tickets yet")
                continue
            if line.lower() == "odds":
                _board(session, top)
                continue
            if line.lower() == "undo":
                if me["tickets"]:
                    night.apply_action_for(seat, night.cancel_action(len(me["tickets"]) - 1))
                    console.print(f"  taken back: {_ticket_text(me['tickets'][-1])}")
                else:
                    console.print("  you have no ticket to take back")
                continue
            try:
                action = night.ticket_from_text(seat, line)
            except BetError as exc:
                console.print(f"  [red]refused:[/] {exc}")
                continue
            accepted = render(night.action_message(action))
            night.apply_action_for(seat, action)
            console.print(f"  [green]accepted:[/] {accepted}")
    return True


def _show_settlement(session: BetSession, settlement: Settlement) -> None:
    order = " ".join(f"R{r}" for r in settlement.ranking[:3])
    console.print(Rule(f"Race {settlement.race} settled — first three: {order}", style="cyan"))
    if settlement.pools:
        pools = Table("pool", "total", "winning", "dividend per 1", title="Pools")
        for kind, pool in settlement.pools.items():
            pools.add_row(
                kind, format_money(pool["pool"]), pool["label"],
                "no winner: stakes refunded" if pool["refunded"]
                else f"{float(pool['dividend'] or 0):,.4f}",
            )
        console.print(pools)
    if settlement.tickets:
        table = Table("player", "ticket", "result", "returned")
        for t, r in zip(settlement.tickets, settlement.returns, strict=True):
            won = t.selection == winning_selection(t.kind, settlement.ranking)
            result = "won" if won else ("refunded" if r else "lost")
            table.add_row(t.player, t.describe(), result, format_money(r))
        console.print(table)
    else:
        console.print("No tickets on this race.")
    console.print(f"Bankrolls: {_bankroll_line(session)}")


def _standings(session: BetSession) -> None:
    table = Table("place", "player", "bankroll", "staked", "returned", "net", "tickets won",
                  title=f"Standings after {session.races} race(s) — session {session.name!r}")
    for place, (name, acc) in enumerate(session.standings(), start=1):
        table.add_row(str(place), name, format_money(acc.bankroll), format_money(acc.staked),
                      format_money(acc.returned), format_money(acc.returned - acc.staked),
                      f"{acc.winning_tickets}/{acc.tickets}")
    console.print(table)


def _run_and_settle(session: BetSession, store: SessionStore, wait: float) -> None:
    state = show_race(lambda on_events: session.run_race(on_events), wait)
    _show_settlement(session, session.settle(store, state))


def _resume_command(name: str, db: Path | None) -> str:
    """The exact command that continues a session (with --db when one was given)."""
    extra = ["--db", str(db)] if db is not None else []
    return shell_quote("raceday", "keirin", "play", "--resume", name, *extra)


def _interrupted(session: BetSession, store: SessionStore, db: Path | None) -> NoReturn:
    """Ctrl-C: one line saying what the database keeps and how to go on (exit 130)."""
    with contextlib.suppress(RacedayError):  # say what was really saved, not what was in memory
        session = BetSession.load(store, session.name)
    race = session.races + 1
    settled = f"{session.races} settled race{'s' if session.races != 1 else ''} saved"
    if session.pending is not None:
        count = len(session.pending)
        tickets = f"{count} ticket is" if count == 1 else f"{count} tickets are"
        kept = f"{settled}; race {race}'s {tickets} locked and the race runs on resume"
    else:
        kept = f"{settled}; the open betting on race {race} was withdrawn (no money moved)"
    with on_interrupt(kept, _resume_command(session.name, db)):
        raise KeyboardInterrupt
    raise AssertionError("unreachable")  # pragma: no cover


def _play_session(session: BetSession, store: SessionStore, top: int, wait: float) -> None:
    opts = session.options
    console.print(f"{opts.riders} riders, finish at {opts.length}. {_bankroll_line(session)}")
    if session.pending is not None:
        console.print(f"Betting on race {session.races + 1} had closed before the interruption; "
                      f"running that race now with its {len(session.pending)} ticket(s).")
        _run_and_settle(session, store, wait)
    while True:
        _board(session, top)
        if not _collect_tickets(session, top):
            break
        session.lock(store)
        _run_and_settle(session, store, wait)
        if not ask_yes_no("Another race?", default=True, read=_read_or_stop):
            break


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
        console.print(escape(f"      {s.races} race(s) settled, {mode}; {players}"),
                      soft_wrap=True)


def parse_money_option(text: str) -> int:
    try:
        return parse_money(text)
    except BetError as exc:
        raise OptionsError(f"--bankroll: {exc}") from None


def run_bet(
    *,
    player: list[str] | None,
    bankroll: str,
    margin: float,
    pool: bool,
    allow_debt: bool,
    session_name: str | None,
    resume: str | None,
    db: Path | None,
    seed: int | None,
    riders: int,
    length: int,
    derny: int | None,
    top: int,
    delay: float | None,
    list_sessions: bool,
) -> None:
    """The `keirin play` command, once typer has checked each option."""
    if list_sessions:
        _list_sessions(SessionStore(db))
        return
    wait = default_delay(delay, interactive_default=0.3)
    # Every option is checked before the database is touched: a refused option leaves no
    # half-made session behind.
    if resume is None:
        player = player_names(player)  # -p Ann -p Bob, -p Ann,Bob; each name bounded
        if len(player or []) > MAX_PLAYERS:
            raise OptionsError(f"at most {MAX_PLAYERS} players, got {len(player or [])}")
        name = session_name or datetime.now(UTC).strftime("keirin-%Y%m%d-%H%M%S")
        options = KeirinOptions.parse({"riders": riders, "length": length, "derny": derny})
        session = BetSession.new(
            name, player or [], options,
            bankroll=parse_money_option(bankroll), mode="pool" if pool else "fixed",
            margin=margin, allow_debt=allow_debt, seed=fresh_seed(seed),
        )
        store = writable_store(db)
        session.save(store)
        console.print(f"New session {name!r} ({'pari-mutuel pools' if pool else 'fixed odds'}, "
                      f"margin {margin:g}, seed {session.seed}). Type 'help' at a ticket "
                      "prompt.")
    else:
        store = writable_store(db)
        session = BetSession.load(store, resume)
        console.print(f"Resuming session {resume!r}: {session.races} race(s) settled. "
                      "(It keeps its own players and options.)")
    try:
        _play_session(session, store, top, wait)
    except KeyboardInterrupt:
        _interrupted(session, store, db)
    _standings(session)
    console.print(f"Session saved. Resume it with: {_resume_command(session.name, db)}",
                  soft_wrap=True)


