"""The KEIRIN lesson's first game at the terminal: a short betting night with hints.

``raceday learn keirin`` ends with the lesson's play step (``lessons/basics.json``): the
terminal betting night of :mod:`raceday.games.keirin.interactive` with the learner and the
easiest computer bettor (the step's level, :mod:`raceday.games.keirin.agents`), for the
step's number of races. Hints are on: before the learner's tickets the night sets the
favourite's board odds against its fair odds (1 ÷ its exact chance from
:mod:`raceday.games.keirin.odds`; :func:`raceday.games.keirin.hint.ticket_hint`, which a
room's phones are shown too).
"""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import TYPE_CHECKING

from raceday.core.lesson import Play
from raceday.games.keirin.betting import format_money, format_odds, selection_text
from raceday.games.keirin.hint import ticket_hint as shared_hint
from raceday.games.keirin.interactive import Night, kind_label, play_night, words
from raceday.games.keirin.rules import KeirinOptions
from raceday.games.keirin.saved_night import BetSession
from raceday.games.keirin.track import SPACING
from raceday.terminal.surface import Surface

if TYPE_CHECKING:
    from raceday.games.keirin.night import NightState
    from raceday.games.keirin.rules import KeirinState


def ticket_hint(session: BetSession, seat: int, lang: str) -> str:
    """One line: the favourite's chance, its fair odds against the board's and what 100
    staked on it comes back as on average."""
    hint = shared_hint(session.state)
    return words("first_game.hint_ticket", lang,
                 ticket=f"{kind_label(hint['kind'], lang)} {hint['label']}",
                 chance=hint["chance"], fair=hint["fair"], odds=hint["odds"] or "-",
                 back=hint["back"] if hint["back"] is not None else "-")


def first_game(surface: Surface, play: Play, lang: str) -> None:
    """The lesson's night on ``surface``: the learner and a computer bettor at the step's
    level, on ``play.options`` (riders, races), saved like any night (``raceday keirin
    play --resume NAME`` goes on with it, the computer's seat then a person's)."""
    from raceday.store.sessions import writable_store
    from raceday.terminal.common import default_delay

    options = KeirinOptions.parse({k: v for k, v in play.options.items()
                                   if k in KeirinOptions.model_fields})
    races = play.options.get("races")
    name = datetime.now(UTC).strftime("keirin-lesson-%Y%m%d-%H%M%S")
    players = [words("first_game.you", lang), words("first_game.computer", lang)]
    session = BetSession.new(name, players, options,
                             margin=float(play.options.get("margin", 0.0)),
                             computers={1: play.level})
    store = writable_store()
    session.save(store)
    opening = words("first_game.night", lang, name=name, races=races or "",
                    computer=players[1], level=words(f"level_{play.level}", lang))
    night = Night(session, store, top=8, wait=default_delay(None, 0.3), db=None,
                  opening=[opening],
                  hint=lambda s, seat: ticket_hint(s, seat, lang),
                  races=races if isinstance(races, int) else None)
    play_night(surface, night)


def lesson_picture(state: KeirinState | NightState, lang: str) -> str:
    """A lesson step's board as plain text in ``lang``: a race's track, one lane a rider
    (before the derny's throw the riders queued behind the derny), or a betting window's
    win odds, money and tickets (the track while its race is run)."""
    from raceday.games.keirin.night import NightState
    from raceday.games.keirin.picture import track_text
    from raceday.games.keirin.render import track_words
    from raceday.games.keirin.rules import PHASE_DERNY

    if isinstance(state, NightState):
        if state.race is not None:
            return lesson_picture(state.race, lang)
        return _window_text(state, lang)
    said = track_words(lang)
    length = state.options.length
    if state.phase == PHASE_DERNY:
        queued = SimpleNamespace(options=state.options, ranked=[],
                                 positions=[-SPACING * r for r in
                                            range(1, state.options.riders + 1)],
                                 active_riders=lambda: list(range(1, state.options.riders + 1)))
        return "\n".join([words("lesson_board.derny", lang, length=length),
                          track_text(queued, words=said, derny=0)])
    head = words("lesson_board.race", lang, turn=state.turn, placed=len(state.ranked),
                 riders=state.options.riders, length=length)
    return "\n".join([head, track_text(state, words=said)])


def _window_text(night: NightState, lang: str) -> str:
    """A betting window: the win odds, each player's money and open tickets."""
    prices = []
    for rider in range(1, night.options.riders + 1):
        price = night.price("win", (rider,))
        prices.append(f"{rider}: {format_odds(price) if price is not None else '-'}")
    lines = [words("lesson_board.night", lang, race=night.race_number),
             words("lesson_board.odds", lang, odds="   ".join(prices))]
    for seat, name in enumerate(night.names):
        lines.append(words("lesson_board.money", lang, name=name,
                           money=format_money(night.accounts[seat].bankroll)))
        lines += [words("lesson_board.ticket", lang, n=n, kind=kind_label(t.kind, lang),
                        selection=selection_text(t.kind, t.selection),
                        stake=format_money(t.stake),
                        odds=format_odds(t.odds) if t.odds is not None else "-")
                  for n, t in enumerate(night.mine(seat), start=1)]
    return "\n".join(lines)
