"""Dice Derby (domi, 2016): the reference rules engine for one race.

Six horses are six dice; a horse is named by its die (``"d4"`` ... ``"d20"``) and
identified by its post position 1..6. A race is a sequence of *rounds*. In every round
each horse still contending rolls its die, one at a time from the smallest die up (the
order a host reveals them), and then the round is resolved:

* nobody fell: the lowest number drops; on a tie for lowest the die with more faces drops;
* some fell but at least two did not: every fallen horse drops;
* all but one fell: the one left standing takes the best place being contested and the
  fallen horses roll again among themselves for the next place (a roll-off);
* all fell: the round is rolled again.

The horses contending together always contest a run of consecutive places starting at
``group_place`` (1 in the race proper, 2 in a roll-off for 2nd, ...). A horse that drops
takes the worst place of that run; horses that fall together share the best place of the
run of places they free (a dead heat, only ever for 3rd or lower). The race is over when
every horse has a place. See docs/rules/derby.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Self

from pydantic import Field, field_validator

from raceday.core.digits import MAX_DECIMAL_TEXT, plain_number
from raceday.core.errors import IllegalActionError, OptionsError, SaveFormatError, refusal
from raceday.core.events import Event, Message
from raceday.core.game import GameOptions
from raceday.core.protocol import CHANCE, TERMINAL, Action, ChanceDraw, Outcome, State
from raceday.core.serialize import Fields

if TYPE_CHECKING:
    import numpy as np

FACES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
POSTS: tuple[int, ...] = tuple(range(1, len(FACES) + 1))
FALL: Action = 0  # the chance outcome "this horse fell"; faces are actions 1..n
MAX_FALL_RATE = Fraction(1, 2)
STEP_BOUND = 2000  # far above any race; exceeded with probability below 1e-100


def faces_of(post: int) -> int:
    """Number of faces of the die running from post position ``post``."""
    return FACES[post - 1]


def horse_name(post: int) -> str:
    """The horse's name: its die, e.g. ``"d20"`` for post 6."""
    return f"d{faces_of(post)}"


def parse_horse(text: str) -> int:
    """A post position from ``"3"``, ``"d8"`` or ``"D8"``; :class:`OptionsError` otherwise."""
    t = text.strip().lower()
    if t in {str(p) for p in POSTS}:  # ASCII digits only: '³'.isdigit() is True
        return int(t)
    for post in POSTS:
        if t == horse_name(post):
            return post
    raise refusal(OptionsError, "derby.refusal.horse_unknown", horse=repr(text.strip()),
                  dice=[horse_name(p) for p in POSTS])


FALL_RATE_TEXT = "a fall rate is a decimal or a fraction, such as 0.05 or 1/20"  # its words:
# derby.reason.fall_rate_form


def shown_text(value: object, *, quote: bool = True, longest: int = 24) -> str:
    """A value as a one-line error message shows it: text quoted (unless not ``quote``)
    and cut short, anything else by its ``str``, cut short too."""
    try:
        text = value if isinstance(value, str) else str(value)
    except ValueError:  # an int beyond Python's limit of digits for str()
        return "a very long number"
    shown = " ".join(text[:longest].split()) + ("..." if len(text) > longest else "")
    return repr(shown) if quote and isinstance(value, str) else shown


def number_refused(form: str, value: object) -> OptionsError:
    """The refusal of ``value`` as an exact number: ``form`` (a key, "derby.reason.
    fall_rate_form") names the accepted form; a long value is told the longest
    (:data:`MAX_DECIMAL_TEXT`)."""
    try:
        long = len(value if isinstance(value, str) else str(value)) > 40
    except ValueError:  # an int beyond Python's limit of digits for str()
        long = True
    bound = Message("derby.reason.longest", {"n": MAX_DECIMAL_TEXT}) if long else ""
    return refusal(OptionsError, form, bound=bound, got=shown_text(value))


def parse_fall_rate(value: object) -> Fraction:
    """An exact fall rate from ``0.05``, ``"0.05"``, ``"1/20"`` or a Fraction.

    Text is ASCII digits with a decimal point or a slash (:func:`raceday.core.digits.
    plain_decimal`): an exponent (``"1e99999999"``) would make ``Fraction`` build that
    number, for minutes, so it is refused at once, as are ``inf``, ``nan`` and long text."""
    if isinstance(value, bool):
        raise refusal(OptionsError, "derby.reason.fall_rate_number", max=str(MAX_FALL_RATE),
                      got=str(value))
    rate = plain_number(value, signed=True)  # a minus sign: the range's message below
    if rate is None:
        raise number_refused("derby.reason.fall_rate_form", value)
    if not 0 <= rate <= MAX_FALL_RATE:
        raise refusal(OptionsError, "derby.reason.fall_rate_range", max=str(MAX_FALL_RATE),
                      got=shown_text(value, quote=False))
    return rate


def as_validator(parse: Callable[[object], Fraction], value: object) -> Fraction:
    """``parse(value)`` inside a pydantic validator: its :class:`OptionsError` (a
    ``ValueError``) is the error pydantic reports, its words kept (the options model turns
    it back into one line)."""
    return parse(value)


class DerbyOptions(GameOptions):
    """Options of one race: the probability that any single roll is a fall.

    The fall rate is exact (a :class:`~fractions.Fraction`), given as ``0.05``, ``"0.05"``,
    ``"1/20"`` or a Fraction, and kept as text in JSON (``{"fall_rate": "1/20"}``). The
    rate may also be given alone: ``DerbyOptions("1/20")``. :meth:`parse` turns a bad value
    into an :class:`OptionsError` naming the option.
    """

    game_title: ClassVar[str] = "Dice Derby"
    title_words: ClassVar[str | None] = "derby.title"

    fall_rate: Fraction = Field(
        default=Fraction(0),
        description=f"Chance that any single roll is a fall, e.g. 0.05 or 1/20 (0 = no "
        f"falls, at most {MAX_FALL_RATE}).",
        json_schema_extra={"cli": {"flags": ["--fall-rate"], "metavar": "RATE"}})

    def __init__(self, *args: Any, **data: Any) -> None:
        if args:
            if len(args) > 1 or "fall_rate" in data:
                raise TypeError("DerbyOptions takes the fall rate once")
            data["fall_rate"] = args[0]
        super().__init__(**data)

    __init__.__pydantic_base_init__ = True  # type: ignore[attr-defined]  # see GameOptions

    @field_validator("fall_rate", mode="before")
    @classmethod
    def _exact_rate(cls, value: object) -> Fraction:
        return as_validator(parse_fall_rate, value)

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any]) -> DerbyOptions:
        """The old name of :meth:`parse` (kept for callers outside the package)."""
        return cls.parse(options)


# --- pure resolution of one round ---------------------------------------------------------


def drop_candidate(shown: Mapping[int, int]) -> int | None:
    """The horse that drops among these revealed numbers (no falls): the lowest number,
    and on a tie for lowest the die with more faces. None if nothing is shown."""
    if not shown:
        return None
    return min(shown, key=lambda post: (shown[post], -faces_of(post)))


def furlong_ahead(rolls: Mapping[str, int | None], out: Sequence[str], rolloff: bool
                  ) -> list[str]:
    """The horses ahead after a furlong of the race proper, as the course shows it: those
    still running that showed the highest number (several when level; none in a
    roll-off). A change of the single horse ahead is the announcer's lead change."""
    if rolloff:
        return []
    standing = {h: v for h, v in rolls.items() if v is not None and h not in out}
    if not standing:
        return []
    top = max(standing.values())
    return sorted((h for h, v in standing.items() if v == top), key=parse_horse)


@dataclass(frozen=True)
class RoundResult:
    """How a round ended.

    ``kind`` is ``"drop"`` (the lowest dropped), ``"falls"`` (every fallen horse dropped),
    ``"rolloff"`` (all but one fell: ``leader`` takes the best place, the fallen roll off)
    or ``"reroll"`` (everyone fell). ``out`` lists the horses leaving the group.
    """

    kind: str
    out: tuple[int, ...]
    leader: int | None = None


def resolve_round(group: Sequence[int], rolls: Mapping[int, int | None]) -> RoundResult:
    """Resolve a round of ``group`` where ``rolls[post]`` is a face or None for a fall."""
    if sorted(rolls) != sorted(group):
        raise ValueError("every horse of the group must have rolled")
    fallen = tuple(sorted(p for p in group if rolls[p] is None))
    standing = [p for p in group if rolls[p] is not None]
    if not fallen:
        shown = {p: v for p, v in rolls.items() if v is not None}
        dropper = drop_candidate(shown)
        assert dropper is not None
        return RoundResult("drop", (dropper,))
    if not standing:
        return RoundResult("reroll", ())
    if len(standing) == 1:
        return RoundResult("rolloff", fallen, leader=standing[0])
    return RoundResult("falls", fallen)


@cache
def _roll_outcomes(faces: int, rate: Fraction) -> tuple[tuple[Action, Fraction], ...]:
    face = (1 - rate) / faces
    fall: tuple[tuple[Action, Fraction], ...] = ((FALL, rate),) if rate > 0 else ()
    return fall + tuple((v, face) for v in range(1, faces + 1))


# --- the race as a protocol state ----------------------------------------------------------


class DerbyState(State):
    """One race of Dice Derby. Every node is a chance node: one die roll per step."""

    game_name = "derby"

    def __init__(self, options: DerbyOptions | None = None) -> None:
        self.options = options or DerbyOptions()
        self.round = 1  # number of the round being rolled (re-rolls keep the number)
        self.group: list[int] = list(POSTS)
        self.group_place = 1
        self.to_roll: list[int] = list(POSTS)
        self.rolls: dict[int, int | None] = {}
        self.places: dict[int, int] = {}
        self.dropped_in: dict[int, int] = {}  # post -> round in which it left the race proper
        self.rerolls = 0

    # --- protocol -----------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 0

    def current_player(self) -> int:
        return TERMINAL if not self.to_roll else CHANCE

    @property
    def roller(self) -> int | None:
        """The horse whose die is rolled next (None when the race is over)."""
        return self.to_roll[0] if self.to_roll else None

    @property
    def in_rolloff(self) -> bool:
        """True while fallen horses roll off for a lower place."""
        return self.group_place > 1

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if not self.to_roll:
            return super().chance_outcomes()
        return list(_roll_outcomes(faces_of(self.to_roll[0]), self.options.fall_rate))

    def sample_chance(self, rng: np.random.Generator) -> ChanceDraw:
        """One roll from a single uniform: a fall with the fall rate, else a fair face."""
        if not self.to_roll:
            return super().sample_chance(rng)
        n = faces_of(self.to_roll[0])
        u = float(rng.random())
        f = float(self.options.fall_rate)
        if u < f:
            return ChanceDraw(FALL)
        return ChanceDraw(1 + min(n - 1, int((u - f) / (1 - f) * n)))

    def action_to_string(self, action: Action) -> str:
        name = horse_name(self.to_roll[0]) if self.to_roll else "race"
        return f"{name} falls" if action == FALL else f"{name} shows {action}"

    def action_message(self, action: Action) -> Message:
        """A throw in the reader's words: the die about to roll shows ``action`` (or falls)."""
        if not self.to_roll:
            return super().action_message(action)
        horse = horse_name(self.to_roll[0])
        if action == FALL:
            return Message("derby.action.fall", {"horse": horse})
        return Message("derby.action.roll", {"horse": horse, "value": action})

    def enter_roll(self, value: int | None) -> list[Event]:
        """Apply a roll typed in by a host (None for a fall), whatever the fall rate.

        Raises :class:`IllegalActionError` for a number the die does not have.
        """
        if not self.to_roll:
            raise IllegalActionError(value, "the race is over")
        post = self.to_roll[0]
        if value is not None and not 1 <= value <= faces_of(post):
            raise IllegalActionError(
                value, f"the {horse_name(post)} shows 1 to {faces_of(post)}; type one of those"
            )
        return self._apply(FALL if value is None else value, None)

    def _apply(self, action: Action, detail: Mapping[str, Any] | None) -> list[Event]:
        post = self.to_roll.pop(0)
        value = None if action == FALL else action
        before = self._to_drop()
        self.rolls[post] = value
        shown = {p: v for p, v in self.rolls.items() if v is not None}
        candidate = self._to_drop()
        ties = [horse_name(p) for p, v in sorted(shown.items())
                if value is not None and v == value and p != post]
        drops_now = value is not None and candidate == [post] and before not in ([], [post])
        events = [
            Event(
                "roll",
                {"round": self.round, "rolloff": self.in_rolloff, "for_place": self.group_place,
                 "horse": horse_name(post),
                 "post": post, "value": value, "fall": value is None,
                 "to_drop": [horse_name(p) for p in candidate],
                 "ties": ties,
                 # how the roll changes the horse to drop (each picks a wording)
                 "tied_to_drop": drops_now and bool(ties),
                 "now_to_drop": drops_now and not ties,
                 "still_to_drop": value is not None and len(candidate) == 1
                 and candidate != [post]},
            )
        ]
        if not self.to_roll:
            events.extend(self._resolve())
        return events

    def _to_drop(self) -> list[int]:
        """The horses that would drop if the round ended now: the fallen, else the lowest."""
        fallen = [p for p, v in self.rolls.items() if v is None]
        if fallen:
            return fallen
        lowest = drop_candidate({p: v for p, v in self.rolls.items() if v is not None})
        return [] if lowest is None else [lowest]

    # --- transitions --------------------------------------------------------------------
    def _resolve(self) -> list[Event]:
        result = resolve_round(self.group, self.rolls)
        pair_before = self.quinella_pair()
        rolls = {horse_name(p): v for p, v in sorted(self.rolls.items())}
        self.rolls = {}
        events: list[Event] = []
        if result.kind == "reroll":
            self.rerolls += 1
            events.append(
                Event("reroll", {"round": self.round, "rolloff": self.in_rolloff,
                                 "for_place": self.group_place, "rolls": rolls})
            )
            self.to_roll = list(self.group)
            return events
        worst = self.group_place + len(self.group) - 1
        if not self.in_rolloff:
            for p in result.out:
                self.dropped_in[p] = self.round
        events.append(
            Event(
                "round",
                {"round": self.round,
                 "alone": result.kind == "rolloff",  # one stayed on: the fallen roll off
                 "fell": result.kind == "falls",
                 "rolloff": self.in_rolloff, "for_place": self.group_place,
                 "ending": result.kind,  # not "kind": a fact never hides the event's kind
                 "rolls": rolls, "out": [horse_name(p) for p in result.out],
                 "leader": None if result.leader is None else horse_name(result.leader)},
            )
        )
        if result.kind == "rolloff":
            assert result.leader is not None
            events.extend(self._place([result.leader], self.group_place))
            self.group = list(result.out)
            self.group_place += 1
        else:
            shared = worst - len(result.out) + 1
            events.extend(self._place(list(result.out), shared))
            self.group = [p for p in self.group if p not in result.out]
        if len(self.group) == 1:
            events.extend(self._place(self.group, self.group_place))
            self.group = []
        pair = self.quinella_pair()
        if pair is not None and pair_before is None:
            events.append(Event("quinella", {"pair": [horse_name(p) for p in pair],
                                             "quinella": "-".join(horse_name(p) for p in pair)}))
        self.round += 1
        if self.group:
            self.to_roll = list(self.group)
        else:
            events.append(Event("result", result_facts(
                self.ranking(), self.places, self.first_out())))
        return events

    def _place(self, posts: list[int], place: int) -> list[Event]:
        for p in posts:
            self.places[p] = place
        return [Event("place", {"place": place, "horses": [horse_name(p) for p in sorted(posts)]})]

    # --- results ------------------------------------------------------------------------
    def winner(self) -> int | None:
        """The 1st horse once known."""
        return next((p for p, place in self.places.items() if place == 1), None)

    def second(self) -> int | None:
        """The 2nd horse once known."""
        return next((p for p, place in self.places.items() if place == 2), None)

    def quinella_pair(self) -> tuple[int, int] | None:
        """The two horses that will finish 1st and 2nd, as soon as that is decided
        (in the race proper: when two horses are left after the fourth furlong)."""
        first, second = self.winner(), self.second()
        if first is not None and second is not None:
            return (min(first, second), max(first, second))
        if self.group_place == 1 and len(self.group) == 2:
            a, b = sorted(self.group)
            return (a, b)
        return None

    def first_out(self) -> list[int]:
        """The horse(s) that left the race in its first furlong."""
        return sorted(p for p, r in self.dropped_in.items() if r == 1 and self.places.get(p) != 1)

    def ranking(self) -> list[int]:
        """All horses by place (dead heats by post position)."""
        return sorted(self.places, key=lambda p: (self.places[p], p))

    def outcome(self) -> Outcome:
        """Horses best first (dead heats by post position); scores are the places, shared
        in a dead heat. A race has no decision-making players (the bettors and owners act
        around it, in :mod:`raceday.games.derby.session`)."""
        self.require_over()
        order = self.ranking()
        return Outcome(
            ranking=tuple(order),
            winner=order[0],
            scores={p: float(self.places[p]) for p in POSTS},
            score_name="place",
            description=f"{horse_name(order[0])} wins, {horse_name(order[1])} second",
        )

    # --- pictures -------------------------------------------------------------------------
    def __str__(self) -> str:
        """Every horse's standing as plain text, under a one-line summary."""
        return f"{self!r}\n{race_text(self)}"

    def __repr__(self) -> str:
        if not self.to_roll:
            where = "over"
        elif self.in_rolloff:
            where = f"roll-off for place {self.group_place}"
        else:
            where = f"furlong {self.round}"
        placed = f"{len(self.places)} of {len(POSTS)} placed"
        return f"<DerbyState {where}: {placed}, fall rate {self.options.fall_rate}>"

    # --- saving -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "options": self.options.to_json(),
            "round": self.round,
            "group": list(self.group),
            "group_place": self.group_place,
            "to_roll": list(self.to_roll),
            "rolls": [[p, v] for p, v in sorted(self.rolls.items())],
            "places": [[p, v] for p, v in sorted(self.places.items())],
            "dropped_in": [[p, v] for p, v in sorted(self.dropped_in.items())],
            "rerolls": self.rerolls,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        f = Fields(data, "Dice Derby race")
        options = f.parsed("options", DerbyOptions.parse)
        state = cls(options)
        state.round = f.get("round", int)
        state.group = f.int_list("group")
        state.group_place = f.get("group_place", int)
        state.to_roll = f.int_list("to_roll")
        state.rerolls = f.get("rerolls", int)
        try:
            state.rolls = {int(p): (None if v is None else int(v)) for p, v in f.get("rolls", list)}
            state.places = {int(p): int(v) for p, v in f.get("places", list)}
            state.dropped_in = {int(p): int(v) for p, v in f.get("dropped_in", list)}
        except (TypeError, ValueError):
            raise SaveFormatError("Dice Derby race: malformed rolls or places") from None
        posts = set(POSTS)
        everyone = state.group + state.to_roll + list(state.rolls) + list(state.places)
        if not set(everyone) <= posts:
            raise SaveFormatError("Dice Derby race: post position out of range 1-6")
        if set(state.group) & set(state.places) or len(set(state.group)) != len(state.group):
            raise SaveFormatError("Dice Derby race: a horse is both placed and running")
        if set(state.group) | set(state.places) != posts:
            raise SaveFormatError("Dice Derby race: some horse is neither placed nor running")
        if set(state.to_roll) | set(state.rolls) != set(state.group) or (
            set(state.to_roll) & set(state.rolls)
        ):
            raise SaveFormatError("Dice Derby race: the rolls do not match the running horses")
        for p, v in state.rolls.items():
            if v is not None and not 1 <= v <= faces_of(p):
                raise SaveFormatError(f"Dice Derby race: {horse_name(p)} cannot show {v}")
        if state.group and not state.to_roll:
            raise SaveFormatError("Dice Derby race: running horses but nobody left to roll")
        return state


ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def place_message(place: int) -> dict[str, Any]:
    """A place as the shared message that words it ("1st", "3rd", "5th")."""
    return Message(f"place_{place}" if place in (1, 2, 3) else "place_n",
                   {"n": place}).to_json()


def result_facts(order: Sequence[int], places: Mapping[int, int],
                 first_out: Sequence[int]) -> dict[str, Any]:
    """The facts of a finished race (posts in, horse names out): the order, each horse's
    place, the first out; the winner and second, the places behind them (``then``, each
    ``derby.placed``), and the winning post and quinella as the tickets name them."""
    pair = sorted(order[:2])
    return {"order": [horse_name(p) for p in order],
            "places": {horse_name(p): places[p] for p in POSTS},
            "first_out": [horse_name(p) for p in first_out],
            "winner": horse_name(order[0]), "second": horse_name(order[1]),
            "then": [Message("derby.placed", {"place": place_message(places[p]),
                                              "horse": horse_name(p)}).to_json()
                     for p in order[2:]],
            "post": order[0], "quinella": "-".join(horse_name(p) for p in pair),
            "quinella_posts": "-".join(str(p) for p in pair)}


def ordinal(n: int) -> str:
    """"1st", "2nd", "3rd", "4th"..."""
    return ORDINALS.get(n, f"{n}th")


def race_text(state: DerbyState) -> str:
    """One plain line per horse: post, die and where it stands (placed, rolled, to roll)."""
    lines = []
    for post in POSTS:
        if post in state.places:
            status = ordinal(state.places[post])
        elif post in state.rolls:
            value = state.rolls[post]
            status = "fell" if value is None else f"shows {value}"
        elif post == state.roller:
            status = "rolls next"
        else:
            status = "to roll"
        lines.append(f"{post} {horse_name(post):>3}  {status}")
    return "\n".join(lines)


DerbyRaceState = DerbyState
"""The old name of :class:`DerbyState` (imported by the party server, web/derby_room.py)."""


def new_race(options: Mapping[str, Any] | DerbyOptions | None = None) -> DerbyState:
    """A fresh race before the first furlong; :class:`OptionsError` for bad options."""
    return DerbyState(DerbyOptions.parse(options))
