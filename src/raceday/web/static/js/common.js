// Shared by every page: DOM building, REST calls, tokens in storage, the live connection.
import { refusal, t } from "./i18n.js";

// el("div", {class: "x", onclick: f}, child, "text", ...) — text is always text, never HTML.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
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

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const res = await fetch(path, init);
  let data = {};
  try { data = await res.json(); } catch (_) { /* empty */ }
  if (!res.ok) throw new Error(refusal(data, data.error || res.statusText));
  return data;
}

const store = {
  get(key) { try { return localStorage.getItem(key); } catch (_) { return null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch (_) { /* off */ } },
  del(key) { try { localStorage.removeItem(key); } catch (_) { /* off */ } },
};
export const tokens = {
  host: (code) => store.get(`raceday.host.${code}`),
  setHost: (code, tok) => store.set(`raceday.host.${code}`, tok),
  seat: (code) => store.get(`raceday.seat.${code}`),
  setSeat: (code, tok) => store.set(`raceday.seat.${code}`, tok),
  forgetSeat: (code) => store.del(`raceday.seat.${code}`),
};

// The live connection: hello with the token, then views and events; reconnects by itself
// and asks for the events after the last one it saw (but not after a fatal error, nor when
// another device took the seat).
export class Live {
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token;
    this.h = handlers;
    this.seq = -1;
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
      ws.send(JSON.stringify({ type: "hello", token: this.token, since: this.seq }));
    });
    ws.addEventListener("message", (m) => this.receive(JSON.parse(m.data)));
    ws.addEventListener("close", (ev) => {
      for (const [, p] of this.pending) p.reject(new Error(t("reconnecting")));
      this.pending.clear();
      if (ev.code === 4409 && !this.closed) this.replaced();
      if (this.closed) return;
      this.h.status?.("reconnecting");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    });
  }

  receive(msg) {
    if (msg.type === "welcome") {
      this.delay = 500;
      this.h.status?.("connected");
      const fresh = this.seq < 0;
      const events = fresh ? [] : msg.catchup.flatMap((c) => c.events);
      this.seq = msg.seq;
      this.h.welcome?.(msg, events, fresh);
    } else if (msg.type === "update") {
      if (msg.seq <= this.seq) return;
      this.seq = msg.seq;
      this.h.update?.(msg.view, msg.events);
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
        if (msg.type === "ack") p.resolve(msg); else p.reject(new Error(refusal(msg, msg.message)));
      } else if (msg.type === "error") {
        this.h.error?.(refusal(msg, msg.message));
      }
    }
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

// A status line for the connection (announced politely to screen readers).
export function statusLine() {
  const node = el("p", { class: "status", role: "status", "aria-live": "polite" });
  return {
    node,
    set(state) {
      node.textContent = t(state);
      node.dataset.state = state;
    },
  };
}

// The line where refusals are shown (role=alert so a screen reader reads them at once).
export function errorLine() {
  const node = el("p", { class: "error", role: "alert" });
  return {
    node,
    show(message) {
      node.textContent = message ? t("error", { message }) : "";
      if (message) {
        clearTimeout(node._timer);
        node._timer = setTimeout(() => { node.textContent = ""; }, 8000);
      }
    },
  };
}
