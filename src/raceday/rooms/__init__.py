"""The room kit: a generic turn-based room and a party room over any game of the protocol.

The kit owns the lobby and seats, start and finish, chance (drawn with the room's seeded
generator, which the server saves with the room), computer moves (the server calls
``handle`` in a worker thread, so a thinking computer never blocks the event loop), forced
moves, undo, the event list kept for the view, the versioned save format (the state's
``to_json`` plus seats and kit fields, ``{"kit": 1, ...}``) and the error mapping (any
:class:`~raceday.core.errors.RacedayError` of the engine, such as an illegal action,
becomes a :class:`RoomError` the client reads). A game's package declares only what is its
own, in its module ``room.py``, whose attribute ``LOGIC`` the server finds through
:func:`raceday.core.discovery.face` (see :func:`logic_class`).

Turn-based games (one player at a time; humans on phones or the host screen, computer
levels) subclass :class:`TurnRoom`::

    from raceday.rooms import HUMAN, TurnRoom, check_kinds
    from mygame.game import GAME, MyOptions, MyState
    from mygame.agents import LEVELS, make_agent

    class MyRoom(TurnRoom[MyState]):
        game = "mygame"                 # the package's game name
        GAME = GAME                     # the protocol Game
        title = "My Game"               # named in refusals ("cannot send 'x' in My Game")
        max_seats = 2                   # phones that may join
        LEVELS = tuple(LEVELS)          # computer levels the host may choose
        OPTION_NAMES = ("variant", "players")  # the host's options (others are refused)
        undo_rule = "vs_computer"       # or "never" (the default)
        over_days = True                # the host may choose "days": a game over days
        agent_maker = staticmethod(make_agent)  # level -> the computer player

        @classmethod
        def read_options(cls, options):          # engine options + who plays each place
            kinds = check_kinds(options.get("players", [HUMAN, "easy"]), cls.LEVELS, 2, 2)
            return MyOptions.parse({"variant": options.get("variant", "standard")}), kinds

        def state_view(self, actor, state, to_act):   # the game's own view fields
            return {"frame": state.frame(), "choices": [
                {"action": a, "message": state.action_message(a).to_json()}
                for a in state.legal_actions()] if to_act is not None else []}

    LOGIC = MyRoom

Intents: the host's ``{"type": "start"}``, ``{"type": "finish"}`` and, in the lobby,
``{"type": "remove_seat", "seat": n}`` (every flavour: see :mod:`raceday.rooms.base`);
``{"type": "move", "action": n}`` from whoever plays the place to act (override
``intent_action`` for another shape); ``{"type": "undo"}`` where ``undo_rule`` allows it.
Each room declares the intents it reads as one pydantic union discriminated by ``type``
(its ``intents``, :mod:`raceday.rooms.intents`: the kit's kinds and its own), which the
kit checks an intent against before a handler sees it.
The view holds ``phase`` (``lobby``, :attr:`~TurnRoom.playing_phase`, ``finished``),
``players``, ``mine``, ``me``, ``to_act``, ``may_act``, ``may_undo``, ``recent`` (the last
events, each ``{"type": kind, **facts, "by", "forced"}``), ``result`` and ``abandoned``,
plus the game's ``lobby_view`` and ``state_view``. Other hooks: ``player_name``, ``illegal_action``,
``started_facts``, ``event_json``, ``remembers``, ``result_view``, ``new_state``.

Party games (several players acting in any order, the host driving the evening) subclass
:class:`PartyRoom`: the seats' names become the game's option ``NAMES_OPTION`` at start;
seats send ``{"type": "act", "action": n}`` while they are among
``state.acting_players()`` (checked with ``legal_actions_for`` and applied with
``apply_action_for``); the host sends ``start``, ``advance`` (draws the chance node where
``waits_for_host(state)`` is true), ``undo`` (if ``allows_undo``) and ``finish``. Every
screen sees ``public_view()`` built from ``state.observation(None)``; a seat also gets
``"me"`` from ``state.observation(seat)`` with its choices (each with
``state.action_message``), so no secret is filtered anywhere but in the state::

    class EveningRoom(PartyRoom[EveningState]):
        game, GAME, title = "mygame", GAME, "My Evening"
        max_seats, min_seats = 8, 2

        def waits_for_host(self, state):       # the host rolls the race's dice
            return True

    LOGIC = EveningRoom

Options: a room may declare ``Options``, the model it is created from (what a host
chooses, e.g. a party's house rules without its players); the server serves its JSON Schema
at ``/api/games/<game>/options?for=room``, the landing card (``static/setup.js``, mounted
with ``rooms.js mountCard``) draws it with ``options-form.js``, and the room parses the
host's options with it, so a refusal is the model's one line. Without it the game's own
options model is served.

The finale: once the game is over (or the host ended it) every view holds ``finale``,
``{"podium": [{"place", "name", "seat", "who", "detail"}, ...], "awards": [...], "again":
true}`` (see ``RoomBase.finale``). The podium comes from the outcome's ranking read as
players (``podium(state)``; a game whose ranking is of horses or riders overrides it) and
names each through ``player_card(player)``; a game adds its awards with ``awards(state)``.
The host's ``{"type": "again"}`` then starts a fresh game with the same seats, names,
kinds, tokens and options, chance from the room's generator (``start_again(rng, events)``,
which a game overrides when its start needs more); it is refused before the end. The
browser draws it with ``/static/js/finale.js`` (``drawFinale``).

Saves: a room saved before the kit passes through the class method ``migrate(old_json)``,
which returns the kit's format (a TurnRoom reads the per-game rooms' format 1 by default,
see :func:`~raceday.rooms.turn.turn_room_before_kit`).
"""

from raceday.rooms.base import KIT_FORMAT, RoomBase, outcome_json
from raceday.rooms.party import PartyRoom
from raceday.rooms.places import HUMAN, Places, check_kinds, intent_int
from raceday.rooms.protocol import (
    JSON,
    Actor,
    RefusedUnread,
    RoomError,
    RoomLogic,
    as_room_error,
    logic_class,
)
from raceday.rooms.turn import UNDO_NEVER, UNDO_VS_COMPUTER, TurnRoom, turn_room_before_kit

__all__ = [
    "HUMAN",
    "JSON",
    "KIT_FORMAT",
    "UNDO_NEVER",
    "UNDO_VS_COMPUTER",
    "Actor",
    "PartyRoom",
    "Places",
    "RefusedUnread",
    "RoomBase",
    "RoomError",
    "RoomLogic",
    "TurnRoom",
    "as_room_error",
    "check_kinds",
    "intent_int",
    "logic_class",
    "outcome_json",
    "turn_room_before_kit",
]
