"""A Dice Derby party in the full-screen kit, for the pilot and snapshot tests: a fixed
roster (two people and computers), a fixed seed, a store in a temporary folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from raceday.games.derby.evening import EveningState
from raceday.games.derby.party import Party
from raceday.games.derby.render import computer_seats
from raceday.games.derby.session import EveningOptions, Session
from raceday.store.sessions import SessionStore
from raceday.terminal.surface import Quit, Surface
from raceday.terminal.tui import GameApp

PEOPLE = ("Aki", "Ben")


def party_state(computers: int = 4, seed: int = 7, races: int = 4,
                host: bool = False, lang: str = "en") -> EveningState:
    config = EveningOptions(seed=seed, races=races, host=host)
    seats = [(name, "human") for name in PEOPLE]
    seats += computer_seats(computers, lang)
    return EveningState.from_session(Session.new(config, seats))


def played_to_race(state: EveningState, race: int, seed: int = 1) -> EveningState:
    """``state`` played on by the rules alone (each seat's first legal action: no bid, done
    betting) until ``race``'s betting opens: a test of the evening's end starts there."""
    import numpy as np

    from raceday.core.protocol import CHANCE

    rng = np.random.default_rng(seed)
    while state.ledger.race < race:
        if state.current_player() == CHANCE:
            draw = state.sample_chance(rng)
            state.apply_action(draw.outcome, draw.detail)
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def party_main(db: Path, state: EveningState | None = None, name: str = "fs",
               stopped: list[str] | None = None) -> Callable[[Surface], None]:
    """The loop ``derby play`` runs, on a store at ``db`` (``stopped`` gets "quit" when
    the player quits)."""
    store = SessionStore(db)
    evening = state or party_state()

    def main(surface: Surface) -> None:
        try:
            Party(evening, store, name, surface).run()
        except Quit:
            if stopped is not None:
                stopped.append("quit")
            raise

    return main


def party_app(db: Path, state: EveningState | None = None,
              stopped: list[str] | None = None, lang: str = "en") -> GameApp:
    return GameApp(party_main(db, state, stopped=stopped), title="Dice Derby", lang=lang)
