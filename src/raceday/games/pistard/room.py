"""A PISTARD race in a browser room: 2 to 5 players (the team time trial 1), humans and
computer riders in any mix, every variant, declared on the room kit's
:class:`~raceday.rooms.TurnRoom`.

The kit runs the lobby and places (the host lists ``"human"`` or a computer level for each
player; a phone that joins takes the first free human place, the host screen plays the
others), the dice (a chance node drawn with the room's generator as soon as a rider's turn
comes), the computer riders, a choice that is the only one, and the save. This module
declares what is PISTARD's own: the options, the levels, and the view: the track, the
riders (from the state's frame), the choices (each from the state's ``action_message``:
no action number is decoded here), the standings and the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from raceday.core.errors import OptionsError
from raceday.core.events import Message
from raceday.core.game import GameOptions
from raceday.games.pistard.agents import LEVELS, make_agent
from raceday.games.pistard.game import GAME
from raceday.games.pistard.options import PistardOptions, misfit
from raceday.games.pistard.replay import current_shape
from raceday.games.pistard.state import PistardState
from raceday.games.pistard.track import LETTERS, SHIPPED_TRACKS, load_track
from raceday.games.pistard.variants import OUT, RACE, VARIANT_RULES
from raceday.present import refusal, render
from raceday.rooms import HUMAN, JSON, Actor, RoomError, TurnRoom, check_kinds

MAX_PLAYERS = 5


class PistardRoom(TurnRoom[PistardState]):
    """A PISTARD race for a browser room (see the module docstring)."""

    game: ClassVar[str] = "pistard"
    GAME = GAME
    title: ClassVar[str] = "PISTARD"
    max_seats: ClassVar[int] = MAX_PLAYERS
    LEVELS: ClassVar[tuple[str, ...]] = tuple(LEVELS)
    OPTION_NAMES: ClassVar[tuple[str, ...]] = (
        "variant", "players", "riders_per_player", "tokens", "laps", "track", "max_rounds")
    noun: ClassVar[str] = "race"
    playing_phase: ClassVar[str] = "racing"
    over_days: ClassVar[bool] = True  # the host may choose a game played over days
    hint_level: ClassVar[str | None] = "medium"  # option hints: the tactical greedy choice
    recent_limit: ClassVar[int] = 14
    # a computer's move comes on the room's timeline, a pace after the move before it, so
    # every screen sees each move in turn with "thinking" between
    paced_computers: ClassVar[bool] = True
    default_pace: ClassVar[float] = 0.6
    agent_maker = staticmethod(make_agent)
    options: PistardOptions

    @classmethod
    def read_options(cls, options: Mapping[str, Any]) -> tuple[GameOptions, list[str]]:
        variant = options.get("variant", "scratch")
        low, high = VARIANT_RULES[variant].players if variant in VARIANT_RULES else (1, 5)
        default = [HUMAN] if high == 1 else [HUMAN, "medium"]
        kinds = check_kinds(options.get("players", default), cls.LEVELS, low, high)
        if options.get("track", "default") not in SHIPPED_TRACKS:
            raise refusal(RoomError, "pistard.refusal.track", tracks=", ".join(SHIPPED_TRACKS))
        engine = {k: options[k] for k in cls.OPTION_NAMES
                  if k in options and options[k] is not None}
        engine["players"] = len(kinds)
        try:
            return PistardOptions.parse(engine), kinds
        except OptionsError as exc:
            # what does not fit the race, refused in the reader's language: the options'
            # check said it in English from the same message
            each, laps = engine.get("riders_per_player"), engine.get("laps")
            numbers = all(v is None or (isinstance(v, int) and not isinstance(v, bool))
                          for v in (each, laps))
            problem = misfit(variant, len(kinds), each, laps) \
                if numbers and variant in VARIANT_RULES else None
            if problem is not None and render(problem, "en") in str(exc):
                raise refusal(RoomError, problem.key, **problem.params) from None
            raise

    def illegal_action(self, state: PistardState, action: int) -> str:
        """Refuses in words from the game's table (raised here, so the reader's language
        words it; the kit would raise the returned text in English only)."""
        raise refusal(RoomError, "pistard.refusal.illegal_choice", n=len(state.legal_actions()))

    def started_facts(self) -> JSON:
        return {"variant": self.options.variant}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """A saved room; the events it keeps for the view in today's shape (a room saved
        before the events held the facts their words need)."""
        room = super().from_json(data)
        room.recent = [current_shape(e) for e in room.recent]
        return room

    def remembers(self, data: JSON) -> bool:
        return bool(data["type"] != "positions")  # the view has the positions already

    # --- views ---------------------------------------------------------------------------------
    def lobby_view(self, actor: Actor) -> JSON:
        opts = self.options
        track = load_track(opts.track) if self.state is None else self.state.track
        return {
            "config": {"variant": opts.variant, "riders_each": opts.riders_each,
                       "tokens": opts.tokens, "laps": opts.race_laps,
                       "lap_points": list(opts.lap_points), "track": opts.track,
                       "team": opts.rules.team},
            # the name in the reader's language: the room's track is a shipped one
            "track": {"name": track.name, "length": track.length,
                      "words": {"key": f"pistard.term.track_name.{opts.track}", "params": {}},
                      "grid": ["".join(LETTERS[c] for c in track.grid[lane])
                               for lane in range(1, track.lanes + 1)],
                      "lines": sorted({opts.rules.start_offset(p, track.length)
                                       for p in range(opts.num_players)})},
        }

    def _choices(self, state: PistardState, mover: int | None) -> JSON:
        """What the player to act may do, each with its action number and its facts."""
        said = [(a, state.action_message(a)) for a in state.legal_actions()]
        keys = {m.key for _, m in said}
        if "action.place" in keys:
            return {"kind": "place", "rider": said[0][1].params["rider"],
                    "items": [{"action": a, "back": m.params["back"], "lane": m.params["lane"],
                               "col": m.params["col"]} for a, m in said]}
        if "action.choose" in keys:
            return {"kind": "choose",
                    "items": [{"action": a, "rider": m.params["rider"]} for a, m in said]}
        stay = next(({"action": a, "why": m.params["why"]} for a, m in said
                     if m.key == "action.stay"), None)
        items = [{"action": a, **{k: v for k, v in m.params.items() if k != "rider"}}
                 for a, m in said if m.key == "action.move"]
        return {"kind": "move", "rider": mover, "items": items, "stay": stay}

    def _standings(self, state: PistardState) -> list[JSON]:
        finish = state.options.race_laps * state.track.length
        points = state.options.variant == "points"
        order = state.race_order()
        ranked = [*order, *(i for i in range(len(state.riders)) if i not in order)]
        places = list(range(1, len(ranked) + 1))
        if state.options.variant == "pursuit":
            # the teams in their order (the winners first), each team's riders by distance:
            # the riders' places are their team's (the order of play puts team 1 first)
            teams = self._pursuit_order(state)
            ranked.sort(key=lambda i: (teams.index(state.riders[i].owner),
                                       state.riders[i].status != RACE, -state.riders[i].dist,
                                       state.riders[i].lane))
            places = [teams.index(state.riders[i].owner) + 1 for i in ranked]
        rows = []
        for place, i in zip(places, ranked, strict=True):
            r = state.riders[i]
            rows.append({"place": place if r.status == RACE else None, "rider": r.ident,
                         "owner": r.owner, "status": r.status, "lane": r.lane,
                         "to_go": finish - r.dist if r.status == RACE else None,
                         "points": state.points[i] if points else None,
                         "laps": state.laps_delta[i] if points else None})
        return rows

    @staticmethod
    def _pursuit_order(state: PistardState) -> list[int]:
        """The pursuit's two teams, best first: the result's order once over (a tie as
        numbered), else the lower time so far (the team whose third rider is further on)."""
        if state.is_terminal():
            return list(state.ranking) or [0, 1]

        def key(team: int) -> tuple[bool, float, int]:
            time = state.pursuit_time(team)
            return (time is None, 0.0 if time is None else time, team)

        return sorted((0, 1), key=key)

    def _team_times(self, state: PistardState) -> list[JSON]:
        """Each team's count once a team race is over: the time trial's one team if it
        crossed; both pursuit teams in their order, the losers too (short of the line)."""
        if state.options.variant != "pursuit":
            return [{"team": t, "rounds": n, "past": past, "crossed": True,
                     "time": round(state.team_time(), 2)}
                    for t, n, past, _lane in state.team_times]
        rows: list[JSON] = []
        for team in self._pursuit_order(state):
            count = state.team_count(team)
            if count is None:
                continue
            n, past = count
            time = state.pursuit_time(team)
            rows.append({"team": team, "rounds": n, "past": past, "crossed": past >= 0,
                         "time": None if time is None else round(time, 2)})
        return rows

    def state_view(self, actor: Actor, state: PistardState, to_act: int | None) -> JSON:
        frame = state.frame()
        return {
            "heat": frame["heat"], "round": frame["round"], "stopped": state.stopped,
            "riders": frame["riders"], "tokens": frame["tokens"], "mover": frame["mover"],
            "dice": frame["dice"],
            "choices": None if to_act is None else self._choices(state, frame["mover"]),
            "standings": self._standings(state),
            "sprints": [[state.riders[i].ident for i in lap] for lap in state.sprints],
            "eliminated": [state.riders[i].ident for i in state.eliminated],
        }

    def player_card(self, player: int) -> JSON:
        """Who ``player`` is on the finale, worded as the race's tables word him ("P1 Aki",
        "P2 computer (medium)", "P3"): one wording for one player on every screen."""
        card = super().player_card(player)
        kind = self.places.kinds[player] if 0 <= player < len(self.places.kinds) else HUMAN
        n = player + 1
        if self.places.name(player) is not None:
            who = Message("pistard.pi_player_named", {"n": n, "name": card["name"]})
        elif kind != HUMAN:
            who = Message("pistard.pi_player_computer",
                          {"n": n, "level": Message(f"level_{kind}")})
        else:
            who = Message("pistard.pi_player_plain", {"n": n})
        return {**card, "who": who.to_json()}

    def podium(self, state: PistardState) -> list[JSON]:
        """The finale's podium: in a race of riders the first three riders, each shown as
        his player with the rider's number; the team races rank players (the kit's)."""
        if not state.rules.ranks_riders or state.options.variant == "ttt":
            return super().podium(state)
        return [{"place": place, **self.player_card(state.riders[i].owner),
                 "detail": Message("pistard.pi_podium_rider",
                                   {"rider": state.riders[i].ident}).to_json()}
                for place, i in enumerate(state.ranking[:3], start=1)]

    def result_view(self, state: PistardState) -> JSON:
        out = state.outcome()
        riders = state.riders
        rows = []
        heat_out = {i: k + 1 for k, i in enumerate(state.eliminated)}
        if state.rules.ranks_riders and state.options.variant != "ttt":
            for place, i in enumerate(state.ranking, start=1):
                r = riders[i]
                rows.append({"place": place, "rider": r.ident, "owner": r.owner,
                             "points": state.points[i], "laps": state.laps_delta[i],
                             "out_heat": heat_out.get(i),
                             # out of the race but not eliminated: he fell (the sprint)
                             "fell": r.status == OUT and i not in heat_out})
        return {"winner": out.winner,
                "winning_players": list(out.winning_players), "ranking": rows,
                "termination": str(out.termination),
                "message": None if out.message is None else out.message.to_json(),
                "stopped": state.stopped, "rounds": state.rounds_total,
                "team_times": self._team_times(state),
                "team_time": state.team_time() if state.options.variant == "ttt" else None,
                "score_name": out.score_name}


LOGIC = PistardRoom

__all__ = ["LOGIC", "PistardRoom"]
