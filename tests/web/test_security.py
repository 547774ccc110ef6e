"""The party server on a network it does not control: cross-site pages, nested JSON, code
guessing, proxies, two devices on one seat, and the API description."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from raceday.present import LANGUAGES, table
from raceday.web.app import MISS_COST, create_app
from raceday.web.guard import (
    BadJSON,
    Bucket,
    Limiter,
    Origins,
    client_key,
    json_depth_ok,
    loads,
    parse_networks,
)
from tests.web.conftest import Client, join, new_room, worded

EVIL = {"origin": "http://evil.example"}
DEEP = "[" * 1500 + "]" * 1500  # 3 KB, deeper than Python's recursion limit


def deep_object(key: str) -> str:
    return '{"' + key + '": ' + DEEP + "}"


# --- Origin and content type --------------------------------------------------------------
def test_a_cross_origin_websocket_handshake_is_refused(client: TestClient) -> None:
    room = new_room(client)
    with pytest.raises(WebSocketDenialResponse) as refused:
        client.websocket_connect(f"/ws/{room['code']}", headers=EVIL).__enter__()
    assert refused.value.status_code == 403
    assert "cross-origin" in refused.value.json()["error"]
    with pytest.raises(WebSocketDenialResponse):
        client.websocket_connect(f"/ws/{room['code']}", headers={"origin": "null"}).__enter__()
    # the page's own origin (Host is "testserver"), with or without a scheme's default port
    for origin in ("http://testserver", "https://testserver", "http://TestServer:80"):
        with client.websocket_connect(f"/ws/{room['code']}", headers={"origin": origin}) as ws:
            ws.send_json({"type": "hello", "token": None, "since": -1})
            assert ws.receive_json()["type"] == "welcome"


def test_cross_origin_and_non_json_posts_are_refused(client: TestClient) -> None:
    room = new_room(client)
    code = room["code"]
    r = client.post(f"/api/rooms/{code}/join", json={"name": "CSRF-bot"}, headers=EVIL)
    assert r.status_code == 403 and "evil.example" in r.json()["error"]
    # the no-cors POST a page may send without asking: text/plain (no Origin: a program)
    r = client.post(f"/api/rooms/{code}/join", content=b'{"name": "CSRF-bot"}',
                    headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    r = client.post(f"/api/rooms/{code}/join", data={"name": "CSRF-bot"})
    assert r.status_code == 415
    r = client.post(f"/api/rooms/{code}/join", content=b'{"name": "x"}',
                    headers={"content-type": "text/plain", **EVIL})
    assert r.status_code == 403
    for method, path in (("POST", "/api/rooms"), ("POST", "/api/wielersim/race"),
                         ("POST", "/api/wielersim/campaigns"), ("POST", "/api/numbers"),
                         ("POST", "/api/wielersim/campaigns/x/ride"),
                         ("DELETE", "/api/numbers/abc"), ("PUT", "/api/rooms")):
        r = client.request(method, path, json={}, headers=EVIL)
        assert r.status_code == 403, (method, path, r.text)
        assert worded(r.json())
    assert client.get(f"/api/rooms/{code}").json()["seats"] == []
    # reading is not state-changing; the same origin and a program without Origin may join
    assert client.get(f"/api/rooms/{code}", headers=EVIL).status_code == 200
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Aki"},
                    headers={"origin": "http://testserver"})
    assert r.status_code == 201
    r = client.post(f"/api/rooms/{code}/join", json={"name": "Ben"},
                    headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 201


def test_public_url_and_allowed_origins_are_allowed(db: Path) -> None:
    app = create_app(db, public_url="http://192.168.1.20:8000/",
                     allowed_origins=["https://party.example"])
    with TestClient(app) as tc:
        room = new_room(tc)
        for origin, status in (("http://192.168.1.20:8000", 201),
                               ("https://party.example:443", 201),
                               ("http://party.example", 403),
                               ("http://192.168.1.20:8001", 403)):
            r = tc.post(f"/api/rooms/{room['code']}/join",
                        json={"name": origin[-12:]}, headers={"origin": origin})
            assert r.status_code == status, (origin, r.text)
        with tc.websocket_connect(f"/ws/{room['code']}",
                                  headers={"origin": "https://party.example"}) as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "welcome"
    with pytest.raises(ValueError, match="origin"):
        create_app(db, allowed_origins="ftp://files.example")
    origins = Origins(None, "https://a.example, http://b.example:8080")
    assert origins.allowed == {"https://a.example", "http://b.example:8080"}


# --- nesting and malformed bodies ---------------------------------------------------------
def test_deeply_nested_json_is_refused_over_rest(client: TestClient) -> None:
    room = new_room(client)
    for path, body in (("/api/rooms", deep_object("options")),
                       ("/api/rooms", DEEP),
                       (f"/api/rooms/{room['code']}/join", deep_object("name")),
                       ("/api/wielersim/race", deep_object("seed")),
                       ("/api/numbers", deep_object("game"))):
        assert len(body) < 4096
        r = client.post(path, content=body.encode(),
                        headers={"content-type": "application/json"})
        assert r.status_code == 400, (path, r.status_code, r.text)
        assert "nested" in r.json()["error"]
    # 33 levels is too deep; 30 reaches the game, which names the problem
    r = client.post("/api/rooms", content=b'{"options": {"races": ' + b"[" * 33 + b"]" * 33
                    + b"}}", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "nested" in r.json()["error"]
    r = client.post("/api/rooms", json={"options": {"races": json.loads("[" * 30 + "]" * 30)}})
    assert r.status_code == 400 and "nested" not in r.json()["error"]


def test_deeply_nested_json_over_the_websocket_keeps_the_socket(client: TestClient) -> None:
    room = new_room(client)
    host = Client(client, room["code"], room["host_token"])
    answer = host.send_raw('{"type": "bid", "amount": ' + DEEP + "}")
    assert answer["type"] == "error" and "nested" in answer["message"]
    answer = host.send_raw(DEEP)
    assert answer["type"] == "error" and "nested" in answer["message"]
    assert host.send({"type": "ping"})["type"] == "pong"  # still connected and served
    with client.websocket_connect(f"/ws/{room['code']}") as ws:  # a deep hello: one line
        ws.send_text('{"type": "hello", "token": ' + DEEP + "}")
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["fatal"] and "nested" in msg["message"]


def test_json_depth_is_counted_outside_strings_only() -> None:
    assert json_depth_ok('{"a": "' + "[" * 500 + '"}')
    assert json_depth_ok('{"a": "\\"' + "[" * 500 + '"}')
    assert not json_depth_ok("[" * 33 + "]" * 33)
    assert json_depth_ok("[" * 32 + "]" * 32)
    assert json_depth_ok("[1]" * 500)  # many brackets, none deep
    with pytest.raises(BadJSON, match="nested"):
        loads(DEEP)
    with pytest.raises(BadJSON, match="UTF-8"):
        loads(b"\xff{}")


def test_bodies_are_validated_to_one_line_400s(client: TestClient) -> None:
    room = new_room(client)
    for path, body, words in (
        ("/api/rooms", {"game": "derby", "colour": "red"}, "unknown field(s): colour"),
        ("/api/rooms", {"game": "derby", "options": [1]}, "options"),
        ("/api/rooms", {"game": 5}, "game"),
        ("/api/rooms", [1, 2], "valid dictionary"),
        (f"/api/rooms/{room['code']}/join", {"name": 5}, "name"),
        (f"/api/rooms/{room['code']}/join", {}, "name"),
        ("/api/wielersim/campaigns/x/ride", {"stage": True}, "stage must be"),
    ):
        r = client.post(path, json=body)
        assert r.status_code == 400, (path, body, r.text)
        assert words in worded(r.json()), r.text
    r = client.post("/api/rooms", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON body" in r.json()["error"]
    r = client.get("/api/wielersim/campaigns/x/stages/notanumber")
    assert r.status_code == 400 and "index" in r.json()["error"]
    r = client.get("/api/nothing-here")
    assert r.status_code == 404 and worded(r.json())

    def chunks() -> Any:  # no Content-Length: the size is counted as it arrives
        for _ in range(10):
            yield b" " * 500

    r = client.post("/api/rooms", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413


# --- rate limits --------------------------------------------------------------------------
def test_room_lookups_are_limited_per_address_and_misses_cost_more(db: Path) -> None:
    with TestClient(create_app(db, lookup_burst=20, lookup_rate=0)) as tc:
        code = new_room(tc)["code"]
        codes = [tc.get(f"/api/rooms/{code}").status_code for _ in range(21)]
        assert codes == [200] * 20 + [429]
        r = tc.get(f"/api/rooms/{code}/qr.svg")
        assert r.status_code == 429 and r.json()["error"].startswith("too many")
        assert r.headers["retry-after"] == "60"
    with TestClient(create_app(db, lookup_burst=2 * MISS_COST, lookup_rate=0)) as tc:
        # two misses spend what twenty hits would
        assert [tc.get(f"/api/rooms/{c}").status_code for c in ("ZZZZ", "ZZZX", code)] \
            == [404, 404, 429]
    with TestClient(create_app(db, lookup_burst=MISS_COST, lookup_rate=0)) as tc:
        assert tc.post("/api/rooms/ZZZZ/join", json={"name": "Aki"}).status_code == 404
        assert tc.post(f"/api/rooms/{code}/join", json={"name": "Aki"}).status_code == 429
    with TestClient(create_app(db, lookup_burst=MISS_COST + 1, lookup_rate=0)) as tc:
        with tc.websocket_connect("/ws/ZZZZ") as ws:  # a WebSocket naming no room: a miss
            msg = ws.receive_json()
            assert msg["fatal"] and "no room" in msg["message"]
        for _ in range(3):  # a known room costs nothing
            with tc.websocket_connect(f"/ws/{code}") as ws:
                ws.send_json({"type": "hello", "token": None})
                assert ws.receive_json()["type"] == "welcome"
        assert tc.get(f"/api/rooms/{code}").status_code == 200
        assert tc.get(f"/api/rooms/{code}").status_code == 429
        with tc.websocket_connect(f"/ws/{code}") as ws:  # in debt: refused, not fatal
            msg = ws.receive_json()
            assert msg["type"] == "error" and "too many" in msg["message"]
            assert not msg.get("fatal")
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429


def test_the_bucket_refills_by_its_clock() -> None:
    now = [100.0]
    bucket = Bucket(2, 1, clock=lambda: now[0])
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    now[0] += 1.0
    assert bucket.take() and not bucket.take()
    bucket.charge(MISS_COST)
    assert bucket.tokens == -2  # in debt, at most one burst deep
    now[0] += 2.9
    assert not bucket.ready()
    now[0] += 0.1
    assert bucket.ready()
    limiter = Limiter(1, 0, clock=lambda: now[0], max_keys=3)
    for key in "abcd":
        limiter.bucket(key).take()
    assert len(limiter.buckets) == 3 and "d" in limiter.buckets


def test_forwarded_for_is_believed_only_from_trusted_proxies(db: Path) -> None:
    app = create_app(db, lookup_burst=2, lookup_rate=0, trusted_proxies="10.0.0.1")
    with TestClient(app, client=("10.0.0.1", 4000)) as proxied:
        code = new_room(proxied)["code"]
        for client_ip in ("5.5.5.5", "6.6.6.6"):
            seen = [proxied.get(f"/api/rooms/{code}",
                                headers={"x-forwarded-for": client_ip}).status_code
                    for _ in range(3)]
            assert seen == [200, 200, 429], client_ip
    with TestClient(app, client=("7.7.7.7", 4000)) as direct:  # not a proxy: header ignored
        seen = [direct.get(f"/api/rooms/{code}",
                           headers={"x-forwarded-for": f"8.8.8.{k}"}).status_code
                for k in range(3)]
        assert seen == [200, 200, 429]


def test_client_keys() -> None:
    trusted = parse_networks(["10.0.0.0/8", "::1"])

    def key(peer: str, forwarded: str | None = None) -> str:
        headers = [] if forwarded is None else [(b"x-forwarded-for", forwarded.encode())]
        return client_key({"client": (peer, 1), "headers": headers}, trusted)

    assert key("10.1.2.3", "1.1.1.1, 10.0.0.9") == "1.1.1.1"  # walks past trusted hops
    assert key("10.1.2.3", "1.1.1.1, 2.2.2.2") == "2.2.2.2"  # first untrusted hop counts
    assert key("10.1.2.3", "garbage") == "10.1.2.3"
    assert key("4.4.4.4", "1.1.1.1") == "4.4.4.4"
    assert key("::1", "2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64"
    assert key("2001:db8:1:2::9") == key("2001:db8:1:2:ffff::1")  # one host's /64
    assert key("::ffff:1.2.3.4") == "1.2.3.4"
    assert key("testclient") == "testclient"
    with pytest.raises(ValueError, match="not an address"):
        parse_networks("10.0.0.1, proxy.lan")


# --- one device per seat ------------------------------------------------------------------
def test_a_second_device_takes_the_seat_and_the_first_is_told(client: TestClient) -> None:
    room = new_room(client)
    code = room["code"]
    seat = join(client, code, "Aki")
    for token in (seat["token"], room["host_token"]):
        first = Client(client, code, token)
        second = Client(client, code, token)
        assert second.welcome["type"] == "welcome"
        told = first.receive()
        assert told["type"] == "error" and told["fatal"] and told["reason"] == "replaced"
        assert "another device" in told["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            first.receive()
        assert closed.value.code == 4409
        assert second.send({"type": "ping"})["type"] == "pong"
        first.close()
    # spectators may be many; joining broadcasts to the seat's newest device only
    watchers = [Client(client, code, None) for _ in range(3)]
    join(client, code, "Ben")
    for w in watchers:
        assert w.receive()["type"] == "update"
    assert second.receive()["type"] == "update"


def test_the_old_device_cannot_act_after_the_seat_was_taken(client: TestClient) -> None:
    room = new_room(client, races=4)
    code = room["code"]
    join(client, code, "Aki")
    old_host = Client(client, code, room["host_token"])
    new_host = Client(client, code, room["host_token"])
    assert old_host.receive()["reason"] == "replaced"
    old_host.ws.send_json({"type": "start", "computers": 1, "ref": 1})
    assert client.get(f"/api/rooms/{code}").json()["phase"] == "lobby"
    assert new_host.send({"type": "start", "computers": 1})["type"] == "ack"


def test_the_pages_show_the_seat_taken_message_in_both_languages() -> None:
    static = Path(__file__).parents[2] / "src" / "raceday" / "web" / "static" / "js"
    for lang in LANGUAGES:
        assert {"seat_taken", "use_here"} <= set(table(lang).entries)
    common = (static / "common.js").read_text(encoding="utf-8")
    assert "4409" in common and '"replaced"' in common
    screen = (static / "screen.js").read_text(encoding="utf-8")  # both pages' connection
    assert "replaced:" in screen and 't("seat_taken")' in screen and 't("use_here")' in screen
    for page in ("play.js", "host.js"):
        assert "connectScreen(" in (static / page).read_text(encoding="utf-8")


# --- the API description -------------------------------------------------------------------
def test_openapi_lists_the_json_api_and_its_bodies(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for path in ("/api/rooms", "/api/rooms/{code}/join", "/api/rooms/{code}",
                 "/api/rooms/{code}/qr.svg", "/api/wielersim/race",
                 "/api/wielersim/campaigns", "/api/wielersim/campaigns/{name}/ride"):
        assert path in paths, path
    assert not [p for p in paths if not p.startswith("/api/")]  # no HTML pages
    schemas = spec["components"]["schemas"]
    for name in ("CreateRoom", "JoinRoom", "RaceBody", "CampaignBody", "RideBody"):
        assert schemas[name]["additionalProperties"] is False, name
    assert schemas["JoinRoom"]["properties"]["name"]["maxLength"] > 0
    body = paths["/api/rooms"]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"]["$ref"].endswith("/CreateRoom")
    assert "201" in paths["/api/rooms"]["post"]["responses"]
    assert "422" not in json.dumps(spec)  # validation errors are 400 {"error": ...}


# --- numbers jobs: a declared body ---------------------------------------------------------
def test_openapi_describes_a_numbers_job_one_model_a_game(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    post = spec["paths"]["/api/numbers"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert [ref["$ref"].rsplit("/", 1)[1] for ref in body["oneOf"]] == [
        "DerbyJob", "KeirinJob", "WielersimJob"]  # each game with a numbers face, by name
    schemas = spec["components"]["schemas"]
    for name, game, fields in (("WielersimJob", "wielersim", {"route", "peloton", "n", "seed"}),
                               ("KeirinJob", "keirin", {"mode", "riders", "length", "n"}),
                               ("DerbyJob", "derby", {"mode", "fall_rate", "margin", "n"})):
        model = schemas[name]
        assert model["additionalProperties"] is False, name
        assert model["properties"]["game"]["const"] == game
        assert fields <= set(model["properties"]), name
    keirin = schemas["KeirinJob"]["properties"]
    assert (keirin["riders"]["minimum"], keirin["riders"]["maximum"]) == (6, 9)
    assert schemas["DerbyJob"]["properties"]["fall_rate"]["pattern"]
    assert {"202", "400", "403", "413", "415", "429"} <= set(post["responses"])
    assert post["responses"]["202"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/JobAnswer")
    for method in ("get", "delete"):
        assert "404" in spec["paths"]["/api/numbers/{job_id}"][method]["responses"]


@pytest.mark.parametrize(("body", "words"), [
    ({"game": "chess"}, "game must be one of derby, keirin, wielersim"),
    ({}, "game must be one of"),
    ([1, 2], "game must be one of"),
    ({"game": "wielersim", "route": "flanders", "peloton": "small", "riders": 9},
     "unknown field(s): riders"),
    ({"game": "wielersim", "peloton": "small"}, "route"),
    ({"game": "keirin", "riders": 9}, "mode"),
    ({"game": "keirin", "mode": "odds", "riders": True}, "riders"),
    ({"game": "keirin", "mode": "simulate", "n": 1.5}, "n"),
    ({"game": "keirin", "mode": "odds", "length": 19_000}, "length must be 19 to 1,000"),
    ({"game": "derby", "mode": "simulate", "n": 5, "seed": "1" * 30}, "seed"),
    ({"game": "derby", "mode": "simulate", "n": 5, "seed": "9" * 19}, "seed must be"),
    ({"game": "derby", "mode": "odds", "margin": [0.1]}, "margin"),
    ({"game": "derby", "mode": "odds", "margin": "x" * 41}, "margin"),
    ({"game": "derby", "mode": "odds", "fall_rate": 0.05}, "fall_rate"),
    # an exponent would make Fraction build the number (minutes): refused as it is read
    ({"game": "derby", "mode": "odds", "fall_rate": "1e99999999"}, "fall_rate is text such"),
    ({"game": "derby", "mode": "odds", "margin": "1e99999999"}, "margin is text such"),
    ({"game": "derby", "mode": "odds", "fall_rate": "1/2/3"}, "fall_rate is text such"),
])
def test_numbers_bodies_are_refused_in_one_line(client: TestClient, body: Any,
                                                words: str) -> None:
    r = client.post("/api/numbers", json=body)
    assert r.status_code == 400, (body, r.text)
    assert words in worded(r.json(), required=False), r.text
    assert "\n" not in r.json()["error"]


def test_numbers_bodies_the_page_sends_are_accepted(client: TestClient) -> None:
    for body in ({"game": "derby", "mode": "odds", "fall_rate": "1/20"},
                 {"game": "derby", "mode": "odds", "fall_rate": "0.05", "margin": 0.2},
                 {"game": "derby", "mode": "odds", "margin": "1/10"},
                 {"game": "keirin", "mode": "odds", "riders": 6, "length": 19}):
        r = client.post("/api/numbers", json=body)
        assert r.status_code == 202, (body, r.text)
        job = r.json()
        for _ in range(6000):  # odds are one step: a hang guard, not a timing
            if job["status"] != "running":
                break
            time.sleep(0.01)
            job = client.get(f"/api/numbers/{job['id']}").json()
        assert job["status"] == "done", job


def test_a_server_may_lower_the_numbers_limits(db: Path) -> None:
    from raceday.web.numbers import Jobs, Limits

    app = create_app(db)
    app.state.numbers_jobs = Jobs(Limits({"wielersim": {"races": 10},
                                          "keirin": {"races": 10, "length": 30},
                                          "derby": {"races": 10}}))
    with TestClient(app) as tc:
        for body, words in (
                ({"game": "derby", "mode": "simulate", "n": 11}, "n (races) must be 1 to 10"),
                ({"game": "wielersim", "route": "flanders", "peloton": "small", "n": 11},
                 "n (races) must be 1 to 10"),
                ({"game": "keirin", "mode": "odds", "length": 31}, "length must be 19 to 30")):
            r = tc.post("/api/numbers", json=body)
            assert r.status_code == 400 and words in r.json()["error"], r.text
