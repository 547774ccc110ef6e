"""The record of a game: one readable text for any game, in the spirit of chess's PGN.

A record is a header of tags, one per line (``[Game "hairpin"]``: a name and a JSON
value), then the moves, one per line: who moved (``p1``, ``p2``, ... a player; ``host``;
``chance`` for a draw), a colon, the move's unique name in the state it was made in
(:meth:`~raceday.core.protocol.State.action_to_string`) and, for a draw that carries
one, its detail as a JSON object (``chance: 5 {"faces": [2, 3]}``). Lines starting with
``;`` are comments. A file may hold several games, each beginning with its own header.
docs/record-format.md describes every tag.

The moves are the truth: a record is checked by playing its moves through the rules from
the start (:func:`replay`), and the first line they refuse is named by its number. A
state's own JSON (``[Start ...]``) stands in for the moves before it only where they are
not known (a game converted from a save made before records). ``[Generator ...]`` keeps
the seeded generator's state after the last move, so a game resumed from its record draws
exactly what it would have drawn had it never stopped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from raceday.core.errors import RacedayError, SaveFormatError
from raceday.core.events import Event
from raceday.core.protocol import CHANCE, HOST, State, note_moves

if TYPE_CHECKING:
    import numpy as np

    from raceday.core.game import AnyGame

FORMAT = 1
UNFINISHED = "*"  # the Result of a game still being played (as in PGN)

# The tags every record has, in the order they are written; any other tag follows them.
REQUIRED_TAGS = ("Game", "Format", "Options")
TAG_ORDER = ("Game", "Format", "Raceday", "Event", "Round", "Name", "Face", "Started",
             "Saved", "Seed", "Options", "Seats", "Result", "Generator", "Start")

_TAG = re.compile(r"^\[([A-Za-z][A-Za-z0-9_]*) (.*)\]$")
_WHO = re.compile(r"^(chance|host|p[1-9][0-9]*)$")


class RecordError(SaveFormatError):
    """A record that cannot be read or whose moves the rules refuse; ``line`` is the
    number (from 1) of the first bad line of the text, when the text is known."""

    def __init__(self, problem: str, line: int | None = None) -> None:
        self.line = line
        self.problem = problem
        super().__init__(problem if line is None else f"line {line}: {problem}")


@dataclass(frozen=True)
class Move:
    """One move of a record: who made it (a player number, :data:`CHANCE` or
    :data:`HOST`), its unique name, a draw's detail, and the line it was read from."""

    player: int
    name: str
    detail: Mapping[str, Any] | None = None
    line: int | None = field(default=None, compare=False)

    @property
    def who(self) -> str:
        """How the record writes the mover: ``chance``, ``host`` or ``p1``, ``p2``, ..."""
        return who_text(self.player)

    def text(self) -> str:
        """The move's line."""
        if "\n" in self.name or "{" in self.name or self.name != self.name.strip():
            raise RecordError(f"a move named {self.name!r} cannot be written in a record")
        line = f"{self.who}: {self.name}"
        if self.detail is not None:
            line += " " + json.dumps(self.detail, sort_keys=True, ensure_ascii=False)
        return line


def who_text(player: int) -> str:
    """``chance``, ``host`` or ``p<n>`` (players count from 1 in a record)."""
    if player == CHANCE:
        return "chance"
    if player == HOST:
        return "host"
    if player < 0:
        raise RecordError(f"player {player} cannot move in a record")
    return f"p{player + 1}"


def _player(who: str) -> int:
    if who == "chance":
        return CHANCE
    if who == "host":
        return HOST
    return int(who[1:]) - 1


@dataclass
class Record:
    """One game's record: its tags (JSON values by name) and its moves."""

    tags: dict[str, Any]
    moves: list[Move] = field(default_factory=list)
    line: int | None = None  # where its header starts in the text it was read from

    @property
    def game(self) -> str:
        return str(self.tags["Game"])

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.tags.get("Options") or {})

    @property
    def seats(self) -> list[dict[str, Any]]:
        """The seats: each ``{"name": ..., "player": "human" | a computer level}``."""
        return [dict(seat) for seat in self.tags.get("Seats") or []]

    @property
    def result(self) -> str:
        return str(self.tags.get("Result", UNFINISHED))

    def text(self) -> str:
        """The record as text (header, a blank line, the moves, a final newline)."""
        names = [t for t in TAG_ORDER if t in self.tags]
        names += sorted(t for t in self.tags if t not in TAG_ORDER)
        lines = [f"[{name} {json.dumps(self.tags[name], sort_keys=True, ensure_ascii=False)}]"
                 for name in names]
        lines.append("")
        lines += [move.text() for move in self.moves]
        return "\n".join(lines) + "\n"


def records_text(records: Iterable[Record]) -> str:
    """Several records in one text, a blank line between two."""
    return "\n".join(record.text() for record in records)


def parse_records(text: str) -> list[Record]:
    """Every record of ``text``, checked for form (not yet against the rules: see
    :func:`replay`); :class:`RecordError` names the first bad line."""
    records: list[Record] = []
    current: Record | None = None
    in_moves = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            if not line and current is not None and current.tags:
                in_moves = True
            continue
        if line.startswith("["):
            if current is None or in_moves:
                current = Record({}, line=number)
                records.append(current)
                in_moves = False
            name, value = _read_tag(line, number)
            if name in current.tags:
                raise RecordError(f"the tag {name} is given twice", number)
            current.tags[name] = value
            continue
        if current is None:
            raise RecordError("a move before any header: a record starts with its "
                              '[Game "..."] tag', number)
        in_moves = True
        current.moves.append(_read_move(line, number))
    if not records:
        raise RecordError("no game in this text: a record starts with its "
                          '[Game "..."] tag')
    for record in records:
        _check_header(record)
    return records


def parse_record(text: str) -> Record:
    """The one record of ``text`` (:class:`RecordError` if it holds several)."""
    records = parse_records(text)
    if len(records) != 1:
        raise RecordError(f"this text holds {len(records)} games, not one", records[1].line)
    return records[0]


def _read_tag(line: str, number: int) -> tuple[str, Any]:
    match = _TAG.match(line)
    if match is None:
        raise RecordError('a tag is written [Name value], e.g. [Game "hairpin"]', number)
    name, value = match.groups()
    try:
        return name, json.loads(value)
    except ValueError:
        raise RecordError(f"the tag {name}'s value is not JSON: {value[:60]}", number) \
            from None


def _read_move(line: str, number: int) -> Move:
    who, colon, rest = line.partition(":")
    who = who.strip()
    if not colon or _WHO.match(who) is None:
        raise RecordError("a move is written 'p1: <move>', 'host: <move>' or "
                          f"'chance: <outcome>', not {line[:60]!r}", number)
    rest = rest.strip()
    detail: Mapping[str, Any] | None = None
    brace = rest.find(" {")
    if brace >= 0:
        try:
            loaded = json.loads(rest[brace + 1:])
        except ValueError:
            raise RecordError("a draw's detail is not a JSON object", number) from None
        if not isinstance(loaded, dict):
            raise RecordError("a draw's detail is not a JSON object", number)
        detail, rest = loaded, rest[:brace].strip()
    if not rest:
        raise RecordError(f"{who} makes no move on this line", number)
    return Move(_player(who), rest, detail, number)


def _check_header(record: Record) -> None:
    for tag in REQUIRED_TAGS:
        if tag not in record.tags:
            raise RecordError(f"the record has no {tag} tag", record.line)
    if not isinstance(record.tags["Game"], str):
        raise RecordError("the Game tag is a game's name in quotes", record.line)
    if record.tags["Format"] != FORMAT:
        raise RecordError(f"record format {record.tags['Format']!r}; this raceday reads "
                          f"format {FORMAT}", record.line)
    if not isinstance(record.tags["Options"], dict):
        raise RecordError("the Options tag is a JSON object", record.line)
    seats = record.tags.get("Seats", [])
    if not isinstance(seats, list) or not all(
            isinstance(s, dict) and isinstance(s.get("name"), str)
            and isinstance(s.get("player"), str) for s in seats):
        raise RecordError('the Seats tag is a list of {"name": ..., "player": ...}',
                          record.line)
    if "Start" in record.tags and not isinstance(record.tags["Start"], dict):
        raise RecordError("the Start tag is a state's JSON object", record.line)
    if "Generator" in record.tags and not isinstance(record.tags["Generator"], dict):
        raise RecordError("the Generator tag is a generator's state (a JSON object)",
                          record.line)


# --- playing a record through the rules ------------------------------------------------

@dataclass
class Replayed:
    """A record played through its rules: the state after every move, and the events."""

    record: Record
    game: AnyGame
    start: State
    state: State
    events: list[list[Event]] = field(default_factory=list)  # per move

    def states(self) -> Iterable[State]:
        """The state before the first move and after each move, in order (rebuilt)."""
        state = self.start.clone()
        yield state.clone()
        for move in self.record.moves:
            apply_move(state, move)
            yield state.clone()


def start_state(record: Record) -> tuple[AnyGame, State]:
    """The game of ``record`` and the state its moves start from."""
    from raceday.core.registry import record_game

    try:
        game = record_game(record.game)
    except RacedayError as exc:
        raise RecordError(str(exc), record.line) from None
    try:
        if "Start" in record.tags:
            return game, game.state_from_json(record.tags["Start"])
        return game, game.new_state(record.options)
    except RacedayError as exc:
        raise RecordError(f"the record's {'Start' if 'Start' in record.tags else 'Options'}"
                          f" cannot start a {record.game} game: {exc}", record.line) from None


def apply_move(state: State, move: Move) -> list[Event]:
    """Apply ``move`` found by its name; :class:`RecordError` at its line if the rules
    refuse it (the wrong mover, no such move here)."""
    if state.is_terminal():
        raise RecordError(f"{move.who} moves after the game is over", move.line)
    named = _named(state, move)
    if named is not None:
        return named
    if move.player == HOST:  # a host's move (a real die's roll typed in), where one is due
        candidates = list(state.legal_actions_for(HOST))
        if not candidates:
            raise RecordError("the host has no move here", move.line)
    elif state.is_chance_node():
        if move.player != CHANCE:
            raise RecordError(f"a draw (chance) comes here, not a move of {move.who}",
                              move.line)
        candidates = [a for a, p in state.chance_outcomes() if p > 0]
    else:
        if move.player == CHANCE:
            raise RecordError("a player moves here, not chance", move.line)
        if not _may_move(state, move.player):
            raise RecordError(f"it is not {move.who}'s turn here", move.line)
        candidates = state.legal_actions_for(move.player)
    wanted = " ".join(move.name.split()).lower()
    for action in candidates:
        if " ".join(state.action_to_string(action).split()).lower() == wanted:
            return _apply_found(state, move, action)
    shown = ", ".join(state.action_to_string(a) for a in candidates[:8])
    more = ", ..." if len(candidates) > 8 else ""
    raise RecordError(f"{move.who} cannot play {move.name!r} here (legal: {shown}{more})",
                      move.line)


def _may_move(state: State, player: int) -> bool:
    """Whether ``player`` may act now: a seat among the acting players, or the host when
    the rules give it an action (closing a night's betting is no seat's turn)."""
    if player == HOST:
        return bool(state.legal_actions_for(HOST))
    return player in state.acting_players()


def _named(state: State, move: Move) -> list[Event] | None:
    """``move`` applied through the state's own ``action_named(player, name)`` when it has
    one (a state with too many legal actions to name each, see :class:`State`); None when
    it has none or that finds no such move (then every legal action is named)."""
    action_named = getattr(state, "action_named", None)
    if action_named is None:
        return None
    if state.is_chance_node() != (move.player == CHANCE):
        return None  # the wrong mover: refused below with the reason
    if move.player != CHANCE and not _may_move(state, move.player):
        return None
    action = action_named(move.player, move.name)
    if action is None:
        return None
    return _apply_found(state, move, action)


def _apply_found(state: State, move: Move, action: int) -> list[Event]:
    """Apply the ``action`` ``move`` names (a rule refusing it is the move's line's)."""
    try:
        if move.player == CHANCE:
            return state.apply_action(action, move.detail)
        return state.apply_action_for(move.player, action)
    except RacedayError as exc:
        raise RecordError(f"{move.name!r}: {exc}", move.line) from None


def replay(record: Record) -> Replayed:
    """Play ``record``'s moves through the rules from its start; the first move they
    refuse is a :class:`RecordError` naming its line."""
    game, start = start_state(record)
    state = start.clone()
    done = Replayed(record, game, start, state)
    for move in record.moves:
        done.events.append(apply_move(state, move))
    return done


def check_text(text: str) -> list[Replayed]:
    """Every record of ``text`` read and played through its rules."""
    return [replay(record) for record in parse_records(text)]


# --- writing a record while a game is played -------------------------------------------

def now_text() -> str:
    """The time now as a record writes it (UTC, to the second)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def generator_tag(rng: np.random.Generator) -> dict[str, Any]:
    """The ``Generator`` tag: the state of ``rng``'s bit generator."""
    return dict(rng.bit_generator.state)


def generator_from(record: Record, seed: int | None = None) -> np.random.Generator:
    """A generator in the state the record's ``Generator`` tag keeps (else seeded with
    ``seed``, else with the record's ``Seed``)."""
    import numpy as np

    state = record.tags.get("Generator")
    if state is None:
        tag = record.tags.get("Seed")
        return np.random.default_rng(seed if seed is not None else tag)
    rng = np.random.default_rng()
    try:
        rng.bit_generator.state = dict(state)
    except (TypeError, ValueError, KeyError) as exc:
        raise RecordError(f"the Generator tag is not a generator's state: {exc}",
                          record.line) from None
    return rng


class Recorder:
    """Writes down a game as it is played: attach it to the state every face plays on
    (:meth:`follow`), and :meth:`record` gives the game's record at any time."""

    def __init__(self, game: str, options: Mapping[str, Any], *,
                 seats: Sequence[Mapping[str, str]] = (), seed: int | None = None,
                 tags: Mapping[str, Any] | None = None, start: State | None = None,
                 moves: Sequence[Move] = ()) -> None:
        import raceday

        self.tags: dict[str, Any] = {"Game": game, "Format": FORMAT,
                                     "Raceday": raceday.__version__,
                                     "Started": now_text(), "Options": dict(options)}
        if seed is not None:
            self.tags["Seed"] = seed
        if seats:
            self.tags["Seats"] = [dict(s) for s in seats]
        if start is not None:
            self.tags["Start"] = start.to_json()
        self.tags.update(tags or {})
        self.moves: list[Move] = list(moves)
        self.state: State | None = None

    @classmethod
    def resuming(cls, record: Record) -> Recorder:
        """A recorder that goes on writing ``record`` (its tags and moves kept)."""
        recorder = cls(record.game, record.options)
        recorder.tags = dict(record.tags)
        recorder.moves = [Move(m.player, m.name, m.detail) for m in record.moves]
        return recorder

    def follow(self, state: State) -> None:
        """Write down every move applied to ``state`` from now on (the state a face
        replaces its state with, after an undo or a load, is followed again)."""
        self.state = state
        note_moves(state, self._note)

    def _note(self, player: int, name: str, detail: Mapping[str, Any] | None) -> None:
        self.moves.append(Move(player, name, None if detail is None else dict(detail)))

    def take_back(self, count: int) -> None:
        """Forget the last ``count`` moves (an undo)."""
        if count:
            del self.moves[-count:]

    def record(self, rng: np.random.Generator | None = None,
               result: Callable[[State], str] | None = None) -> Record:
        """The record so far (with ``rng``'s state as its Generator; the Result from the
        followed state's outcome when it is over)."""
        tags = dict(self.tags)
        tags["Saved"] = now_text()
        if rng is not None:
            tags["Generator"] = generator_tag(rng)
        state = self.state
        if state is not None and state.is_terminal():
            tags["Result"] = result(state) if result is not None else result_text(state)
        else:
            tags["Result"] = UNFINISHED
        return Record(tags, list(self.moves))


def result_text(state: State) -> str:
    """The Result tag of a finished game: its outcome's description, else who won."""
    outcome = state.outcome()
    if outcome.description:
        return outcome.description
    if outcome.winning_players:
        return "won by " + ", ".join(who_text(p) for p in outcome.winning_players)
    return "over"
