"""Malformed intents of every kind, sent to a room of every game (the five and the sixth
game's plugin room, installed as a user would): a field missing, of the wrong type, a
field the kind does not have, a kind nobody sends, huge numbers, nested garbage, and
intents drawn by hypothesis that do not fit the room's declared union. Each is answered
with an error in words (a key of both message tables, never the internal error), and the
room still accepts a valid intent afterwards. One server for all of it; the room's own
union (``intents``) says what each kind's fields are."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from raceday.present import table
from raceday.rooms import Actor
from raceday.rooms.intents import Intents
from raceday.web.wire import Ack, ErrorFrame, Pong, Update, Welcome
from tests.sixth_game_install import GAME as SIXTH
from tests.sixth_game_install import installed, on_path
from tests.web.conftest import Client, closing_sockets, join

GAMES = ("derby", "keirin", "hairpin", "pistard", "wielersim", SIXTH)
GARBAGE: list[Any] = [{"nested": [[{"deep": None}]], "x": {"y": [1.5, "z"]}}, "seven", True,
                      3.5, None, [1, "x", {"a": []}], 10**30, -(2**70), 1e308, ""]
VALID_PACE = {"type": "pace", "seconds": 1.0}  # every room's host may set the pace
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8)


class Room:
    """A room on the shared server, with its host and one seat connected."""

    def __init__(self, tc: TestClient, game: str) -> None:
        r = tc.post("/api/rooms", json={"game": game})
        assert r.status_code == 201, r.text
        self.code = r.json()["code"]
        seat = join(tc, self.code, "Aki")
        self.host = Client(tc, self.code, r.json()["host_token"])
        self.seat = Client(tc, self.code, seat["token"])
        logic = tc.app.state.rooms.get(self.code).logic  # type: ignore[attr-defined]
        self.intents: Intents = type(logic).intents
        self.senders = {kind: self.host for kind in logic.handlers(Actor.host())}
        self.senders.update({kind: self.seat for kind in logic.handlers(Actor.player(0))})

    def kinds(self) -> list[str]:
        """The declared kinds a client sends (not the server's own tick)."""
        return [kind for kind in self.intents.models if kind in self.senders]

    def fits(self, intent: dict[str, Any]) -> bool:
        try:
            self.intents.adapter.validate_python(intent)
        except ValidationError:
            return False
        return True


class Server:
    """The one server of these tests and a room of every game on it."""

    def __init__(self, tc: TestClient) -> None:
        self.tc = tc
        self.rooms = {game: Room(tc, game) for game in GAMES}

    def __getitem__(self, game: str) -> Room:
        return self.rooms[game]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    from raceday.web.app import create_app

    site = installed(tmp_path_factory)
    db = tmp_path_factory.mktemp("fuzz") / "party.sqlite"
    with on_path(site):
        app = create_app(db, burst=10_000, rate=10_000, seats_per_address=100)
        with closing_sockets(app) as tc:
            yield Server(tc)


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    """The shared rooms' clients stay open for the module (the server closes them)."""
    yield


def _refused_with_reason(answer: dict[str, Any], intent: dict[str, Any]) -> str:
    assert answer["type"] == "error", (intent, answer)
    key = answer["words"]["key"]
    assert key != "refusal.internal", (intent, answer)
    assert all(table(lang).has(key) for lang in ("en", "ja")), (intent, key)
    assert answer["message"] and "\n" not in answer["message"]
    return str(key)


def _minimal(schema: dict[str, Any]) -> dict[str, Any]:
    """A value for each required field of a kind (its type's simplest)."""
    simple = {"integer": 1, "number": 1.0, "string": "x", "array": [], "boolean": True}
    out: dict[str, Any] = {}
    for name in schema.get("required", []):
        if name == "type":
            continue
        spec = schema["properties"][name]
        kinds = [spec.get("type")] + [s.get("type") for s in spec.get("anyOf", [])]
        out[name] = next(simple[k] for k in kinds if k in simple)
    return out


def _malformed(room: Room, kind: str) -> Iterator[dict[str, Any]]:
    """Intents of ``kind`` that do not fit its model: each field missing, of each wrong
    type, huge or nested garbage; and a field the kind does not have."""
    schema = room.intents.models[kind].model_json_schema()
    base = {"type": kind, **_minimal(schema)}
    yield {**base, "junk": {"nested": [[1, {"x": None}]]}}
    for name in schema.get("required", []):
        if name != "type":
            yield {key: value for key, value in base.items() if key != name}
    for name in schema.get("properties", {}):
        if name == "type":
            continue
        for value in GARBAGE:
            intent = {**base, name: value}
            if not room.fits(intent):
                yield intent


@pytest.mark.parametrize("game", GAMES)
def test_every_malformed_intent_of_every_kind_is_refused_with_its_reason(
        server: Server, game: str) -> None:
    room = server[game]
    assert room.kinds(), game
    keys: set[str] = set()
    for kind in room.kinds():
        for intent in _malformed(room, kind):
            keys.add(_refused_with_reason(room.senders[kind].send(intent), intent))
    for sender in (room.host, room.seat):
        for intent in ({"type": "no_such_kind"}, {"type": "tick"}, {"type": "act" * 30}):
            keys.add(_refused_with_reason(sender.send(intent), intent))
    assert {"refusal.unknown_fields", "refusal.cannot_send"} <= keys, keys  # junk, kinds
    if any(len(room.intents.models[k].model_json_schema().get("required", [])) > 1
           for k in room.kinds()):
        assert {"refusal.field_missing", "refusal.field_type"} <= keys, keys
    assert room.host.send(VALID_PACE)["type"] == "ack"  # the room still answers


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_intents_that_do_not_fit_the_declared_union_are_refused(
        server: Server, data: st.DataObject) -> None:
    room = server[data.draw(st.sampled_from(GAMES), label="game")]
    kind = data.draw(st.sampled_from(room.kinds()), label="kind")
    names = [*room.intents.models[kind].model_fields, "junk", "ref"]
    fields = data.draw(st.dictionaries(st.sampled_from(names), json_values, max_size=4),
                       label="fields")
    intent = {**fields, "type": kind}
    assume(not room.fits({k: v for k, v in intent.items() if k != "ref"}))
    _refused_with_reason(room.senders[kind].send(intent), intent)
    assert room.host.send(VALID_PACE)["type"] == "ack"


def test_the_wire_schema_names_every_rooms_intents_and_the_frames(server: Server) -> None:
    """Served beside /openapi.json (which links to it): hello, every game's union with
    each kind it declares, and each frame the server sends; the frames a screen got
    while it was refused fit their models."""
    spec = server.tc.get("/openapi.json").json()
    assert spec["externalDocs"]["url"] == "/wire-schema.json"
    schema = server.tc.get("/wire-schema.json").json()
    assert set(GAMES) <= set(schema["intents"])
    for game in GAMES:
        declared = str(schema["intents"][game])
        assert all(f"'{kind}'" in declared for kind in server[game].intents.models), game
    assert set(schema["frames"]) == {"Welcome", "Update", "Ack", "Pong", "ErrorFrame"}
    assert schema["hello"]["properties"]["type"]["const"] == "hello"
    models = {"welcome": Welcome, "update": Update, "ack": Ack, "pong": Pong,
              "error": ErrorFrame}
    room = server["derby"]
    room.host.send({"type": "ping"})
    got = {message["type"] for message in room.host.messages}
    assert {"welcome", "error", "ack", "pong"} <= got, got
    for message in room.host.messages:
        models[message["type"]].model_validate(message)
