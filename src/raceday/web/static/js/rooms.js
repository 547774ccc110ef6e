// The room kit's browser half, shared by every game's pages: creating a room from a
// landing card, the seat choices, the lobby card, a game's own styles and SVG helpers.
import { api, el, showProblem, tokens, worded } from "./common.js";
import { keyed, onLanguage, setAttribute, t } from "./i18n.js";
import { optionsSchema } from "./options-form.js";
import { thinking, thinkingSender } from "./thinking.js";

const NS = "http://www.w3.org/2000/svg";

export const KINDS = ["human", "easy", "medium", "hard", "expert"];

export function kindSelect(name, value, id) {
  return el("select", { name, id }, KINDS.map((k) => el("option", { value: k, selected: k === value },
    k === "human" ? t("gp_human") : t("gp_computer_level", { level: t(`level_${k}`) }))));
}

// A game's landing card: draw(box, schema, kept) fills the game's section (#<game>-setup)
// from its options' schema, again when the language changes; what it returns is handed to
// the next draw (e.g. a reader of the values chosen so far).
export async function mountCard(game, draw) {
  const box = document.getElementById(`${game}-setup`);
  if (!box) return;
  const schema = await optionsSchema(game, "room");  // what the room is created from
  let kept = draw(box, schema, undefined);
  onLanguage(() => {
    const fields = cardFields(box);
    kept = draw(box, schema, kept);
    restoreFields(box, fields);
  });
}

// A card's fields as the reader left them: value and whether its problem was shown.
function cardFields(box) {
  return [...box.querySelectorAll("input, select")].filter((f) => f.id || f.name).map((f) => ({
    key: f.id || f.name, value: f.type === "checkbox" ? f.checked : f.value,
    problem: f.getAttribute("aria-invalid") === "true" }));
}

// The card drawn anew in another language: the values put back in page order (a change
// that redraws later fields, as a player count does, comes first), and a problem shown
// before is shown again in the new words.
function restoreFields(box, fields) {
  for (const kept of fields) {
    const field = [...box.querySelectorAll("input, select")].find((f) => (f.id || f.name) === kept.key);
    if (!field) continue;
    const now = field.type === "checkbox" ? field.checked : field.value;
    const known = field.tagName !== "SELECT" || [...field.options].some((o) => o.value === kept.value);
    if (now !== kept.value && known) {
      if (field.type === "checkbox") field.checked = kept.value; else field.value = kept.value;
      field.dispatchEvent(new Event("change", { bubbles: true }));
    }
    if (kept.problem && !field.validity.valid) showProblem(field);
  }
}

export async function createRoom(game, options, error, query = "") {
  try {
    const room = await api("/api/rooms", { game, options });
    tokens.setHost(room.code, room.host_token);
    location.href = `/host/${room.code}${query}`;  // query: e.g. a lesson's "?computers=1"
  } catch (e) {
    error.textContent = t("error", { message: e.message });
  }
}

// A game's own styles (/games/<game>/static/style.css; the HTML shells link app.css only).
// A phone's screen in a party game: its own card (`meAttrs`), the action card, a live feed
// and the info panel. `send` resolves true once the server took the intent and false when
// it refused (the refusal shown); `section` redraws a node only when its key has changed,
// `forget` makes every section redraw (another language) and `handlers` answers the room.
export function phoneScreen(root, ctx, meAttrs) {
  const keys = new Map();
  let live = null;
  const me = el("section", meAttrs);
  const action = el("section", { class: "action" });
  const feedLine = worded(el("p", { class: "feed", "aria-live": "polite" }));
  const feed = feedLine.node;
  const info = el("section", { class: "info" });
  root.replaceChildren(me, action, feed, info);
  function send(intent) {
    if (!live) return Promise.resolve(false);
    return live.send(intent).then(() => { ctx.error.show(""); return true; })
      .catch((e) => { ctx.error.show(e.message); return false; });
  }
  function section(node, key, build) {
    if (keys.get(node) === key && node.childElementCount) return;
    keys.set(node, key);
    node.replaceChildren(...[build()].flat().filter(Boolean));
  }
  // The room connection's handlers: keep the newest view, redraw every section, and show
  // the words of the last event that has some (`words(event, view)`).
  function handlers(keepView, render, words) {
    return {
      connect(l) { live = l; },
      welcome(v) { keepView(v); keys.clear(); render(); },
      update(v, events) {
        keepView(v);
        render();
        // the words are drawn again from the event after a language switch
        const last = events.filter((e) => words(e, v)).pop();
        if (last) feedLine.set(() => words(last, v));
      },
    };
  }
  // A seated phone before the start: who has sat down, waiting for the host.
  function lobby(view) {
    section(action, `lobby:${view.seats.length}`, () => el("div", { class: "card" },
      el("p", {}, t("waiting_host")),
      el("h3", {}, t("seats", { n: view.seats.length, max: view.max_seats })),
      el("ol", {}, view.seats.map((n) => el("li", {}, n)))));
  }
  // The phone's own card: who it is, then its purse as rows [label, value, ddAttrs?]
  // (a falsy row is left out); no rows before the game gives it a purse.
  function showMe(name, rows) {
    const parts = [el("p", { class: "who" }, t("you_are", { name: name ?? "" }))];
    const shown = (rows || []).filter(Boolean);
    if (shown.length) {
      parts.push(el("dl", { class: "purse" }, shown.flatMap(([label, value, attrs]) =>
        [el("dt", {}, label), el("dd", attrs || {}, value)])));
    }
    me.replaceChildren(...parts);
  }
  return { me, action, feed, info, send, section, handlers, lobby, showMe, forget: () => keys.clear() };
}

// A game's style sheet, added to the page once (a test that measures type sizes waits
// for it: tests/browser/a11y.py wait_for_style_sheets).
export function useStyles(name) {
  const href = `/games/${name}/static/style.css`;
  if (document.querySelector(`link[href="${href}"]`)) return;
  document.head.append(el("link", { rel: "stylesheet", href }));
}

// The frame of a turn-based game's screen: the game's styles, its stage with the live feed
// under it beside a side panel (classes `<prefix>-stage`, `<prefix>-side`), and the
// "computer is thinking" indicator with the page's send (also set as ctx.send). getView and
// getLive give the page's current view and live room; redraw is the page's render.
export function turnScreen(root, ctx, game, prefix, getView, getLive, redraw) {
  useStyles(game);
  const stage = el("section", { class: `${prefix}-stage` });
  const side = el("section", { class: `${prefix}-side` });
  const feedLine = worded(el("p", { class: "feed", role: "status", "aria-live": "polite" }));
  const feed = feedLine.node;
  root.replaceChildren(el("div", { class: "gp-grid" }, el("div", {}, stage, feed), side));
  const waiting = thinking(redraw);
  const send = thinkingSender(ctx, waiting, getView, getLive, redraw);
  ctx.send = send;
  // The room connection's handlers: keep the connection and the newest view, stop the
  // indicator, let the game look at the events before the redraw (`before`), redraw, and
  // show what the game says of them (`words(v, events)`, text or nothing).
  function handlers(keepLive, keepView, words, before = () => {}) {
    return {
      connect(l) { keepLive(l); },
      welcome(v) { keepView(v); waiting.fromView(v); redraw(); },
      update(v, events) {
        keepView(v);
        waiting.fromView(v);
        before(events);
        redraw();
        // kept as a drawing of the events, so a language switch words them again
        if (words(v, events)) feedLine.set(() => words(v, events));
      },
    };
  }
  return { stage, side, feed, waiting, send, handlers };
}

// A turn screen's finale, loaded as the screen opens (it redraws once the module is in):
// the function returned draws the view's finale for this screen once `over`, else nothing.
export function lazyFinale(game, ctx, getLive, redraw) {
  let finale = null;
  import("./finale.js").then((m) => { finale = m; redraw(); }).catch(() => {});
  return (v, over) => (!over || !v.finale || !finale ? null
    : finale.drawFinale(v.finale, { game, isHost: ctx.role === "host", send: (i) => getLive().send(i), seat: v.me?.seat ?? null }));
}

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else setAttribute(node, k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// The lobby's seats in join order; on the host's screen each has a button that removes it
// (a squatter, a name typed twice): the server tells that phone and its key stops working.
export function removeSeatButton(name, seat, send) {
  return el("button", { type: "button", class: "small remove-seat", "data-seat": seat,
    "aria-label": keyed("remove_seat", { name }), onclick: () => send({ type: "remove_seat", seat }) }, t("remove"));
}

// The host's part for players who left (while a game is on): a seat whose phone is gone may
// be given to a computer at a level the host picks; a seat a computer plays shows its mark
// and, once the phone is back, a button that hands it back. Nothing when nobody is away.
export function standInPanel(v, send) {
  const levels = v.levels || [];
  const away = new Set(v.away || []);
  const standing = new Map((v.stand_ins || []).map((s) => [s.seat, s.level]));
  const seats = (v.seats || []).map((name, seat) => ({ name, seat }))
    .filter(({ seat }) => standing.has(seat) || away.has(seat));
  if (!levels.length || !seats.length || v.phase === "lobby" || v.phase === "finished") return null;
  return el("div", { class: "card stand-ins", role: "group", "aria-label": keyed("stand_in_title") },
    el("h3", {}, t("stand_in_title")),
    el("ul", {}, seats.map(({ name, seat }) => {
      const level = standing.get(seat);
      if (level !== undefined) {
        return el("li", { "data-seat": seat }, name, " ", standInMark(level),
          away.has(seat) ? null : [" ", el("button", { type: "button", class: "small hand-back", "data-seat": seat,
            onclick: () => send({ type: "hand_back", seat }) }, t("stand_in_hand_back"))]);
      }
      const pick = el("select", { class: "stand-in-level", "aria-label": keyed("stand_in_level", { name }) },
        levels.map((l) => el("option", { value: l }, t(`level_${l}`))));
      return el("li", { "data-seat": seat }, t("stand_in_away", { name }), " ", pick, " ",
        el("button", { type: "button", class: "small give-seat", "data-seat": seat,
          onclick: () => send({ type: "replace", seat, level: pick.value }) }, t("stand_in_give")));
    })));
}

// "(computer: easy)": the mark beside the name of a seat a computer plays for its person.
export function standInMark(level) {
  return t("stand_in_mark", { level: t(`level_${level}`) });
}

// The mark for `seat` in view `v`, or "" when its person plays it.
export function standInOf(v, seat) {
  const s = (v.stand_ins || []).find((x) => x.seat === seat);
  if (!s) return "";
  const mark = standInMark(s.level);
  return mark.startsWith("（") ? mark : ` ${mark}`; // a full-width bracket brings its own space
}

export function seatList(seats, isHost, send, attrs = {}) {
  return el("ol", attrs, seats.map((name, seat) => el("li", {}, name, " ",
    isHost ? removeSeatButton(name, seat, send) : null)));
}

export function lobbyCard(view, ctx, placeLabel) {
  const joinUrl = ctx.info?.join_url ?? "";
  const open = view.players.filter((p) => p.kind === "human" && !p.name).length;
  return el("div", { class: "lobby" },
    ctx.role === "host" || ctx.role === "spectator" ? el("div", { class: "join-box" },
      el("p", { class: "big-code", "aria-label": keyed("room", { code: ctx.code }) }, ctx.code),
      el("img", { class: "qr", src: `/api/rooms/${ctx.code}/qr.svg`, alt: keyed("join_at", { url: joinUrl }), width: 220, height: 220 }),
      el("p", {}, t("scan")), el("p", { class: "url" }, joinUrl)) : null,
    el("div", { class: "card" },
      el("h2", {}, t("gp_places")),
      el("ol", { class: "gp-places" }, view.players.map((p) => el("li", {}, placeLabel(view, p.place),
        ctx.role === "host" && p.controller === "seat" && view.seats.includes(p.name)
          ? [" ", removeSeatButton(p.name, view.seats.indexOf(p.name), ctx.send)] : null))),
      open ? el("p", { class: "note" }, t("gp_open_places", { n: open })) : null,
      ctx.role === "host" ? el("button", { type: "button", class: "primary", id: "start", onclick: () => ctx.send({ type: "start" }) }, t("gp_start")) : el("p", {}, t("waiting_host"))));
}

// replaceChildren without the parts that are not shown (null would print "null")
export function fill(node, ...parts) {
  node.replaceChildren(...parts.flat().filter((p) => p !== null && p !== undefined && p !== false));
}
