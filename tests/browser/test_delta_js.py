"""delta.js applies a JSON Patch exactly as raceday.web.delta does (the same results, the
same refusals), and a page's live connection (Live in common.js, which asks for deltas)
holds at every revision the view a full-view client is sent, also across a resync when an
update does not start from its view."""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path
from typing import Any

from raceday.web.app import create_app
from raceday.web.delta import PatchError, apply_patch, diff
from raceday.web.server import background_server

KEYS = ["a", "b", "~", "/", "a/b~c", "~1", "", "0", "10", "__proto__", "constructor"]


def value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value with few keys and small values, so two of them often share a
    shape and their patch reaches inside."""
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([0, 1, 2, -1, 2.5, 1e21])
    if kind in (3, 4):
        return rng.choice(["", "x", "é", "a/b"])
    if kind in (5, 6):
        return {rng.choice(KEYS): value(rng, depth + 1) for _ in range(rng.randrange(5))}
    return [value(rng, depth + 1) for _ in range(rng.randrange(6))]


def changed(rng: random.Random, old: Any) -> Any:
    """``old`` with a few random changes (or a new value now and then)."""
    if rng.random() < 0.1 or not isinstance(old, dict | list) or not old:
        return value(rng)
    new = json.loads(json.dumps(old))
    for _ in range(rng.randrange(1, 4)):
        if isinstance(new, dict):
            new[rng.choice(KEYS)] = changed(rng, new.get(rng.choice(KEYS)))
        elif new and rng.random() < 0.3:
            del new[rng.randrange(len(new))]
        else:
            new.insert(rng.randrange(len(new) + 1), value(rng, 2))
    return new


def cases() -> list[tuple[Any, list[Any]]]:
    """(document, patch): diffs of related values, then made-up patches that may not fit."""
    rng = random.Random(34)
    out: list[tuple[Any, list[Any]]] = []
    for _ in range(300):
        old = value(rng)
        out.append((old, diff(old, changed(rng, old))))
    for _ in range(300):
        doc = value(rng)
        ops = []
        for _ in range(rng.randrange(1, 4)):
            op: dict[str, Any] = {
                "op": rng.choice(["add", "remove", "replace", "move"]),
                "path": "".join("/" + rng.choice([*KEYS, "1", "-", "01", "~2"])
                                for _ in range(rng.randrange(3)))}
            if rng.random() < 0.9:
                op["value"] = value(rng, 2)
            ops.append(op)
        out.append((doc, ops))
    out += [({"foo": ["bar"]}, [{"op": "add", "path": "/foo/-", "value": 1}]),
            ({"n": 1}, [{"op": "remove", "path": ""}]), ({"n": 1}, ["add"]),
            ({"n": 1}, [{"op": "replace", "path": "", "value": [1]},
                        {"op": "add", "path": "/0", "value": 2}])]
    return out


def python(doc: Any, ops: list[Any]) -> str:
    try:
        return json.dumps(apply_patch(doc, ops), sort_keys=True)
    except PatchError:
        return "refused"


SCRIPT = """async (text) => {
  const { applyPatch, PatchError } = await import("/static/js/delta.js");
  return JSON.parse(text).map(([doc, ops]) => {
    const before = JSON.stringify(doc);
    let out;
    try { out = JSON.stringify(applyPatch(doc, ops)); } catch (e) {
      if (!(e instanceof PatchError)) return `not a PatchError: ${e}`;
      out = "refused";
    }
    return JSON.stringify(doc) === before ? out : "changed its document";
  });
}"""


def test_javascript_applies_a_patch_as_python_does(chromium: Any, tmp_path: Path) -> None:
    examples = cases()
    expected = [python(doc, ops) for doc, ops in examples]
    assert expected.count("refused") > 50 and len(set(expected)) > 100
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = chromium.new_page()
        page.goto(base)
        got = page.evaluate(SCRIPT, json.dumps(examples))
        page.close()
    # the browser's JSON has its own key order and number spelling: compare as Python's
    got = [g if g == "refused" or g.startswith(("not a", "changed"))
           else json.dumps(json.loads(g), sort_keys=True) for g in got]
    mismatches = [(examples[i], expected[i], got[i]) for i in range(len(examples))
                  if expected[i] != got[i]]
    assert not mismatches, mismatches[:3]


LIVE = """async ({code, hostToken}) => {
  const { Live } = await import("/static/js/common.js");
  const url = `ws://${location.host}/ws/${code}`;
  const full = {};  // the views a client without deltas is sent, by seq
  const seen = {};  // the views Live's handlers get, by seq
  const welcomes = [];
  let injected = false;
  let started = false;
  let live;
  const start = () => {  // the host starts an evening of computers, at the fastest pace
    if (started) return;
    started = true;
    const host = new WebSocket(url);
    host.onopen = () => host.send(JSON.stringify({ type: "hello", token: hostToken, since: -1 }));
    host.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type !== "welcome") return;
      host.send(JSON.stringify({ type: "start", computers: 4, ref: 1 }));
      host.send(JSON.stringify({ type: "pace", seconds: 0.2, ref: 2 }));
    };
  };
  await new Promise((resolve) => {
    const raw = new WebSocket(url);
    raw.onopen = () => raw.send(JSON.stringify({ type: "hello", token: null, since: -1 }));
    raw.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      if (msg.type === "welcome" || msg.type === "update") full[msg.seq] = msg.view;
      if (msg.type === "welcome") resolve();
    };
  });
  await new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error("the evening did not finish")), 120000);
    const done = (view) => { if (view.phase === "finished") { clearTimeout(guard); resolve(); } };
    live = new Live(code, null, {
      welcome: (msg, events, fresh) => {
        welcomes.push([msg.seq, fresh]);
        seen[msg.seq] = msg.view;
        start();
        done(msg.view);
      },
      update: (view) => {
        seen[live.seq] = view;
        view.phase = "touched by the page";  // a page may change what it is given
        if (!injected && Object.keys(seen).length >= 8) {
          injected = true;  // an update that does not start from this view: a resync
          live.receive({ type: "update", seq: live.seq + 1, base: live.seq - 1, events: [],
                         patch: [] });
        }
        done(live.view);
      },
    });
  });
  const last = Math.max(...Object.keys(seen).map(Number));
  for (let i = 0; i < 600 && !(last in full); i++) await new Promise((r) => setTimeout(r, 50));
  return { full, seen: Object.fromEntries(Object.entries(seen).map(
    ([seq, v]) => [seq, seq in full && v.phase === "touched by the page"
      ? { ...v, phase: full[seq].phase } : v])), welcomes, last };
}"""


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.loads(answer.read()))


def test_a_page_holds_the_views_a_full_client_is_sent(open_page: Any, tmp_path: Path) -> None:
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        room = _post(f"{base}api/rooms", {"game": "derby", "options": {"races": 4}})
        page = open_page({"width": 390, "height": 844}, base)
        out = page.evaluate(LIVE, {"code": room["code"], "hostToken": room["host_token"]})
        frames = list(page.raw_frames)
        assert not page.js_errors, page.js_errors
        page.context.close()
    full, seen = out["full"], out["seen"]
    assert full[str(out["last"])]["phase"] == "finished"
    assert len(seen) >= 20  # a whole evening, update by update
    for seq, view in seen.items():
        assert json.dumps(view, sort_keys=True) == json.dumps(full[seq], sort_keys=True), seq
    assert [fresh for _, fresh in out["welcomes"]] == [True, False]  # one resync
    decoded = [json.loads(f) for f in frames]
    patched = [f for f in decoded if f.get("type") == "update" and "patch" in f]
    assert len(patched) >= 15  # Live asked for deltas and was sent patches
