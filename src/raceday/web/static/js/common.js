// Shared by every page: DOM building, REST calls, tokens in storage, the live connection.
import { applyPatch } from "./delta.js";
import { onLanguage, refusal, setAttribute, t } from "./i18n.js";

// el("div", {class: "x", onclick: f}, child, "text", [more, [children]], ...) — text is always
// text, never HTML; arrays of children at any depth are flattened.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (v === true) node.setAttribute(k, "");
    else setAttribute(node, k, v);  // words(key) in the page's language, at each switch too
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function roomCode() {
  const parts = location.pathname.split("/").filter(Boolean);
  return (parts[1] || "").toUpperCase();
}

export function pageKind() {
  return location.pathname.split("/").filter(Boolean)[0] || "";
}

// An Error for a refusal in the reader's language, keeping its words (error.words) so
// the error line can word it again after a language switch.
export function refused(answer, text) {
  const error = new Error(refusal(answer, text));
  if (answer && answer.words) error.words = answer.words;
  return error;
}

export async function api(path, body, headers = {}) {
  const init = body === undefined ? { headers } : {
    method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body),
  };
  const res = await fetch(path, init);
  let data = {};
  try { data = await res.json(); } catch (_) { /* empty */ }
  if (!res.ok) throw refused(data, data.error || res.statusText);
  return data;
}

const store = {
  get(key) { try { return localStorage.getItem(key); } catch (_) { return null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch (_) { /* off */ } },
  del(key) { try { localStorage.removeItem(key); } catch (_) { /* off */ } },
  keys() {
    try { return Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)); } catch (_) { return []; }
  },
};
const ROLES = { host: "raceday.host.", seat: "raceday.seat." };
export const tokens = {
  host: (code) => store.get(`raceday.host.${code}`),
  setHost: (code, tok) => store.set(`raceday.host.${code}`, tok),
  seat: (code) => store.get(`raceday.seat.${code}`),
  setSeat: (code, tok) => store.set(`raceday.seat.${code}`, tok),
  forgetSeat: (code) => store.del(`raceday.seat.${code}`),
  // Every key this device holds: [{code, role: "host" | "seat", token}] (the landing
  // page's "my games").
  held() {
    const found = [];
    for (const key of store.keys()) {
      for (const [role, prefix] of Object.entries(ROLES)) {
        const token = key?.startsWith(prefix) ? store.get(key) : null;
        if (token) found.push({ code: key.slice(prefix.length), role, token });
      }
    }
    return found;
  },
  forget: (code, role) => store.del(`${ROLES[role]}${code}`),
  // A seat's or the host's own link (/play/CODE#seat=KEY, /host/CODE#host=KEY: the key in
  // the part of the address a browser never sends): kept in this device's storage, then
  // taken off the address bar and its history entry. True if the address carried one.
  fromLink(code, role) {
    const key = new URLSearchParams(location.hash.slice(1)).get(role);
    if (!key || !code) return false;
    store.set(`${ROLES[role]}${code}`, key);
    history.replaceState(null, "", location.pathname + location.search);
    return true;
  },
};

// The address that opens `role`'s place in room `code` with its key on any device: the
// server's own address (the public one, as in `joinUrl`) with the key after "#".
export function keyLink(joinUrl, code, role, token) {
  const base = String(joinUrl || `${location.origin}/play/${code}`).replace(/play\/[^/]*$/, "");
  const page = role === "host" ? "host" : "play";
  return `${base}${page}/${encodeURIComponent(code)}#${role}=${encodeURIComponent(token)}`;
}

// A copy of a view for a page's handlers, so what a page does with it never touches the
// copy the next patch is applied to (and every view is new objects, as it always was).
const copyOf = (value) => JSON.parse(JSON.stringify(value));

// The live connection: hello with the token, then views and events; reconnects by itself
// and asks for the events after the last one it saw (but not after a fatal error, nor when
// another device took the seat). It asks for deltas: each update is a JSON Patch from the
// view it had (delta.js), and the handlers still get the whole view; when a patch does not
// start from its view (base) or does not fit, it reconnects at once and the welcome brings
// the whole view again (a resync). After a server restart a race saved mid-way waits a few
// seconds for every screen to reconnect: its frames carry "resume_in" (seconds), and the
// status says "Resuming the race in N s…" instead of "Connected" until it goes on. A lost
// connection is tried again after 0.5 s, then twice as long each time up to 3 s (the
// server's wait before a race goes on is longer than that).
export class Live {
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.h = handlers;
    this.seq = -1;
    this.view = null;  // the view as of this.seq, patched by each update
    this.ref = 0;
    this.pending = new Map();
    this.closed = false;
    this.delay = 500;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${this.code}`);
    this.ws = ws;
    this.h.status?.("connecting");
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token, since: this.seq, delta: true }));
    });
    ws.addEventListener("message", (m) => { if (this.ws === ws) this.receive(JSON.parse(m.data)); });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;  // a socket left for a resync
      for (const [, p] of this.pending) p.reject(new Error(t("reconnecting")));
      this.pending.clear();
      if (ev.code === 4409 && !this.closed) this.replaced();
      if (this.closed) return;
      this.h.status?.("reconnecting");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 3000);
    });
  }

  receive(msg) {
    if (msg.type === "welcome") {
      this.delay = 500;
      this.resume(msg.resume_in, true);
      const fresh = this.seq < 0;
      const events = fresh ? [] : msg.catchup.flatMap((c) => c.events);
      this.seq = msg.seq;
      this.view = msg.view;
      this.h.welcome?.({ ...msg, view: copyOf(msg.view) }, events, fresh);
    } else if (msg.type === "update") {
      if (msg.seq <= this.seq) return;
      if (msg.patch) {
        if (msg.base !== this.seq || this.view === null) { this.resync(); return; }
        try {
          this.view = applyPatch(this.view, msg.patch);
        } catch (_) {
          this.resync();
          return;
        }
      } else {
        this.view = msg.view;
      }
      this.seq = msg.seq;
      this.resume(msg.resume_in);
      this.h.update?.(copyOf(this.view), msg.events);
    } else if (msg.type === "ack" || msg.type === "error") {
      const p = this.pending.get(msg.ref);
      if (msg.type === "error" && msg.fatal && msg.reason === "replaced") {
        this.replaced();
        return;
      }
      if (msg.type === "error" && msg.fatal) {
        this.closed = true;
        this.h.fatal?.(refusal(msg, msg.message));
      }
      if (p) {
        this.pending.delete(msg.ref);
        if (msg.type === "ack") p.resolve(msg); else p.reject(refused(msg, msg.message));
      } else if (msg.type === "error") {
        this.h.error?.(refusal(msg, msg.message), msg.words);
      }
    }
  }

  // The status after a welcome or an update: "resuming" (with the seconds left) while the
  // server says the room's race waits after a restart, else "connected".
  resume(seconds, welcome = false) {
    if (typeof seconds === "number" && seconds > 0) {
      this.resuming = true;
      this.h.status?.("resuming", { seconds });
    } else if (welcome || this.resuming) {
      this.resuming = false;
      this.h.status?.("connected");
    }
  }

  // The view here is not the one the server's patch starts from: leave this socket and
  // open another at once, with `since`, for the whole view (the events after `since` come
  // with the welcome, as after any reconnect).
  resync() {
    const old = this.ws;
    this.ws = null;
    for (const [, p] of this.pending) p.reject(new Error(t("reconnecting")));
    this.pending.clear();
    try { old?.close(4000, "resync"); } catch (_) { /* already closing */ }
    if (!this.closed) this.open();
  }

  // Another device opened this seat (close code 4409): this one stops for good; fighting
  // for the seat by reconnecting would only throw the other device out in turn.
  replaced() {
    if (this.closed) return;
    this.closed = true;
    this.h.status?.("disconnected");
    if (this.h.replaced) this.h.replaced();
    else this.h.fatal?.(t("seat_taken"));
  }

  // Take the seat back on this device, when the person asks for it (never by itself).
  reopen() {
    this.closed = false;
    this.delay = 500;
    this.open();
  }

  send(intent) {
    this.h.sending?.(intent);  // the next action: the last refusal goes
    const ref = ++this.ref;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error(t("reconnecting")));
        return;
      }
      this.pending.set(ref, { resolve, reject });
      this.ws.send(JSON.stringify({ ...intent, ref }));
    });
  }
}

// The room a big screen or a phone is for, as the server describes it; if it cannot be
// had, the page shows why (then the nodes in `after`, such as a way back) and gets null.
export async function openRoom(code, app, ...after) {
  try {
    return await api(`/api/rooms/${encodeURIComponent(code)}`);
  } catch (e) {
    app.replaceChildren(el("p", { class: "error", role: "alert" }, t("error", { message: e.message })),
      ...after);
    return null;
  }
}

// ?speed=0.5 on the host's address asks the server for the pace ownPace × 0.5 (a rehearsal,
// a test). The function returned asks it once, when the game is under way (view.timeline).
export function paceFromAddress(ownPace, isHost, send) {
  const raw = new URLSearchParams(location.search).get("speed");
  const n = raw === null ? NaN : Number(raw);
  const pace = Number.isFinite(n) && n >= 0 ? Math.min(Math.max(ownPace * n, 0.2), 10) : null;
  let asked = false;
  return (v) => {
    if (!isHost || asked || pace === null || v.phase === "lobby" || v.phase === "finished") return;
    asked = true;
    if (v.timeline?.pace !== pace) send({ type: "pace", seconds: pace });
  };
}

// A node worded from facts kept as they came (events, a view), not from a rendered
// string: set(draw) draws draw() now and again after every language switch, so an older
// line of a ticker or a feed reads in the new language too.
export function worded(node) {
  let draw = null;
  onLanguage(() => { if (draw) node.textContent = draw(); });
  return {
    node,
    set(f) { draw = f; node.textContent = f ? f() : ""; },
  };
}

// The room's code in a header, named for a screen reader ("Room BCDF"), in the reader's
// language after a switch too.
export function roomCodeTag(code) {
  const node = el("span", { class: "room-code" }, code);
  const name = () => node.setAttribute("aria-label", t("room", { code }));
  name();
  onLanguage(name);
  return node;
}

// A status line for the connection (announced politely to screen readers), worded again
// after a language switch. "resuming" ({seconds}: a race waiting after a server restart)
// counts down by itself, then says "connected" (the race's next update comes then).
export function statusLine() {
  const node = el("p", { class: "status", role: "status", "aria-live": "polite" });
  let until = 0;  // Date.now() when a "resuming" countdown ends
  let timer = null;
  const draw = () => {
    const state = node.dataset.state;
    if (!state) return;
    if (state !== "resuming") { node.textContent = t(state); return; }
    const left = Math.ceil((until - Date.now()) / 1000);
    if (left > 0) { node.textContent = t("resuming", { seconds: left }); return; }
    clearInterval(timer);
    timer = null;
    node.dataset.state = "connected";
    node.textContent = t("connected");
  };
  onLanguage(draw);
  return {
    node,
    set(state, params = {}) {
      clearInterval(timer);
      timer = null;
      node.dataset.state = state;
      if (state === "resuming") {
        until = Date.now() + Number(params.seconds) * 1000;
        timer = setInterval(draw, 250);
      }
      draw();
    },
  };
}

// The line where refusals are shown (role=alert so a screen reader reads them at once).
// A refusal goes with the reader's next action (a click on a button or link, a form sent,
// an intent sent) or after 8 seconds; one given with its words (an Error from api() or a
// refused send, or `words`) is worded again after a language switch.
export function errorLine() {
  const node = el("p", { class: "error", role: "alert" });
  let shown = null;  // {message, words} on screen
  const draw = () => {
    if (!shown) { node.textContent = ""; return; }
    const text = shown.words ? refusal({ words: shown.words }, shown.message) : shown.message;
    node.textContent = t("error", { message: text });
  };
  const clear = () => { shown = null; clearTimeout(node._timer); draw(); };
  const next = (ev) => {
    if (shown && (ev.type === "submit" || ev.target.closest?.("button, a, [role=button]"))) clear();
  };
  document.addEventListener("click", next, true);
  document.addEventListener("submit", next, true);
  onLanguage(draw);
  return {
    node,
    clear,
    show(message, words = null) {
      if (message instanceof Error) { words = message.words ?? null; message = message.message; }
      if (!message) { clear(); return; }
      shown = { message, words };
      draw();
      clearTimeout(node._timer);
      node._timer = setTimeout(clear, 8000);
    },
  };
}

// The app's own validation instead of the browser's bubbles, for every form of every page:
// a field the browser finds invalid when a form is sent gets our message from the tables
// beside it (aria-invalid, aria-describedby), the first such field gets the focus, and the
// message goes as soon as the field is right. (Canceling the "invalid" event keeps the
// browser's bubble away; the form is still not sent.)
let focusing = false;
function fieldProblem(input) {
  const v = input.validity;
  if (v.valueMissing) return t("field_required");
  if (v.badInput) return t("field_number");
  if (v.rangeUnderflow) return t("field_min", { min: input.min });
  if (v.rangeOverflow) return t("field_max", { max: input.max });
  if (v.stepMismatch) return Number(input.step) === 1 ? t("field_whole") : t("field_step", { step: input.step });
  if (v.tooLong) return t("field_long", { max: input.maxLength });
  if (v.tooShort) return t("field_short", { min: input.minLength });
  return t("field_invalid");
}

// Word the problem of a field that is invalid, as sending its form would (a field drawn
// anew after a language switch keeps the problem its reader was shown).
export function showProblem(input) {
  const id = `${input.id || input.name || "field"}-problem`;
  let note = input.problemNote;
  if (!note || !note.isConnected) {
    note = el("span", { class: "field-error", id, role: "alert" });
    input.problemNote = note;
    input.after(note);
  }
  note.textContent = fieldProblem(input);
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", id);
}

function clearProblem(input) {
  if (!input.problemNote) return;
  input.problemNote.remove();
  input.problemNote = null;
  input.removeAttribute("aria-invalid");
  input.removeAttribute("aria-describedby");
}

document.addEventListener("invalid", (ev) => {
  const input = ev.target;
  ev.preventDefault();
  showProblem(input);
  if (!focusing) {  // the first invalid field of this attempt
    focusing = true;
    input.focus();
    queueMicrotask(() => { focusing = false; });
  }
}, true);
for (const kind of ["input", "change"]) {
  document.addEventListener(kind, (ev) => {
    const input = ev.target;
    if (input?.problemNote && input.validity?.valid) clearProblem(input);
    else if (input?.problemNote) showProblem(input);
  }, true);
}
onLanguage(() => {
  for (const input of document.querySelectorAll("[aria-invalid=true]")) {
    if (input.problemNote) showProblem(input);
  }
});
