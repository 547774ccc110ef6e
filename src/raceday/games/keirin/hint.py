"""The ticket hint of a KEIRIN learner's night, shared by both faces.

The terminal's first game (:mod:`raceday.games.keirin.lesson_play`) says it before the
learner's tickets; a room with the option ``hints`` gives it to a phone that may still buy
(``me.hint``). It reads only public facts: the night's exact odds and the board's price of
the favourite (the likeliest winner), never anyone's tickets.
"""

from __future__ import annotations

from typing import Any

from raceday.games.keirin.agents import favourite
from raceday.games.keirin.betting import format_odds, selection_text
from raceday.games.keirin.night import NightState


def ticket_hint(night: NightState) -> dict[str, Any]:
    """The favourite's win ticket: ``kind``, ``riders``, ``label``, its ``chance`` (text, a
    percentage), ``fair`` odds (1 ÷ chance), the board's ``odds`` and what 100 staked comes
    back as on average (``back``); ``odds`` and ``back`` are None in a pool (no board)."""
    kind, combo, chance, price = favourite(night)
    return {"kind": kind, "riders": list(combo), "label": selection_text(kind, combo),
            "chance": f"{chance * 100:.1f}%", "fair": f"{1 / chance:.2f}",
            "odds": None if price is None else format_odds(price),
            "back": None if price is None else round(chance * price)}
