// Replays: the list of finished games and races, and a player for one of them
// (step, play, jump to the end), at a link that can be shared.
import { api, el } from "./common.js";
import { language, languageButton, onLanguage, t, translatePage } from "./i18n.js";
import { render } from "./present.js";

const app = document.getElementById("app");
const parts = location.pathname.split("/").filter(Boolean).slice(1).map(decodeURIComponent);
const error = el("p", { class: "error", role: "alert" });
const main = el("main", { class: "watch-main" });
let redraw = () => {};
let pages = []; // the games with a page of their own (GET /api/games)

function fail(e) { error.textContent = t("error", { message: e.message }); }
const link = (...p) => "/replay/" + p.map(encodeURIComponent).join("/");

function header() {
  return el("header", { class: "bar" },
    el("h1", {}, el("a", { href: "/", class: "home" }, "raceday"), " · ", el("a", { href: "/replay" }, t("rp_title"))),
    el("nav", { class: "links" }, pages.map((g) => [el("a", { href: `/${g.game}` }, g.title), " "]), el("a", { href: "/numbers" }, t("nm_title"))),
    languageButton());
}

// A step's words: its messages (key and parameters) in the reader's language, the game's
// own keys first.
const say = (game, message) => render(message, language(), game);

// The game's board drawing for replays, when its static folder has one (data.drawer, a
// module exporting drawFrame(frame, element)); otherwise the steps show the board as text.
const drawers = {};
function drawer(url) {
  drawers[url] ??= import(url).then((m) => m.drawFrame).catch(() => null);
  return drawers[url];
}

function boardNode(data, step) {
  if (!step.frame && !step.board) return null;
  const box = el("div", { class: "replay-board" });
  const asText = () => (step.board ? box.replaceChildren(el("pre", { class: "board-text" }, step.board)) : null);
  if (data.drawer && step.frame) {
    drawer(data.drawer).then((draw) => (draw ? draw(step.frame, box) : asText()));
  } else {
    asText();
  }
  return box;
}

function whoText(who) {
  if (who.kind === "seat") return who.name;
  return t(who.kind === "host" ? "rp_host" : "rp_spectator");
}

function stepNode(data, step, withBoard = true) {
  if (step.kind === "events") {
    return el("div", {}, el("p", { class: "who" }, t("rp_step_who", { n: step.seq, who: whoText(step.who) })),
      el("ul", { class: "events" }, step.events.map((e) => el("li", {}, say(data.game, e)))));
  }
  return el("div", {}, el("h3", {}, say(data.game, step.title)), withBoard ? boardNode(data, step) : null,
    el("ul", { class: "events" }, (step.lines || []).map((l) => el("li", {}, say(data.game, l)))),
    step.url ? el("a", { href: step.url, class: "button" }, t("rp_watch_stage")) : null);
}

function player(data) {
  const steps = data.steps;
  let at = 1;
  let timer = null;
  const title = el("h2", {}, `${say(data.game, { key: "title" })} — ${data.name}`);
  const current = el("section", { class: "card step", "aria-live": "polite" });
  const past = el("ol", { class: "past", reversed: true });
  const counter = el("p", { class: "status", role: "status" });
  const back = el("button", { type: "button", "data-act": "back" });
  const play = el("button", { type: "button", class: "primary", "data-act": "play" });
  const fwd = el("button", { type: "button", "data-act": "step" });
  const end = el("button", { type: "button", "data-act": "end" });
  const share = el("a", { href: location.pathname, class: "share" });
  function words() {
    back.textContent = t("rp_back"); fwd.textContent = t("wv_step"); end.textContent = t("wv_end");
    play.textContent = timer ? t("wv_pause") : t("wv_play");
    share.textContent = t("rp_share");
  }
  function draw() {
    counter.textContent = t("rp_step_of", { n: at, total: steps.length });
    current.replaceChildren(stepNode(data, steps[at - 1]));
    past.replaceChildren(...steps.slice(Math.max(0, at - 11), at - 1).reverse().map((s) => el("li", {}, stepNode(data, s, false))));
    back.disabled = at <= 1; fwd.disabled = end.disabled = at >= steps.length;
    words();
  }
  function stop() { clearInterval(timer); timer = null; words(); }
  const go = (n) => { at = Math.max(1, Math.min(steps.length, n)); draw(); if (at >= steps.length) stop(); };
  back.addEventListener("click", () => { stop(); go(at - 1); });
  fwd.addEventListener("click", () => { stop(); go(at + 1); });
  end.addEventListener("click", () => { stop(); go(steps.length); });
  play.addEventListener("click", () => {
    if (timer) { stop(); return; }
    if (at >= steps.length) at = 0;
    timer = setInterval(() => go(at + 1), 900);
    go(at + 1);
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest?.("input, select, textarea")) return;
    if (ev.key === "ArrowRight") fwd.click(); else if (ev.key === "ArrowLeft") back.click();
    else if (ev.key === "End") end.click();
  });
  main.replaceChildren(title, el("div", { class: "row film-controls" }, back, play, fwd, end, share), counter, current,
    el("h3", {}, t("rp_earlier")), past);
  draw();
  redraw = draw;
}

async function list() {
  const data = await api("/api/replays");
  const item = (it) => el("li", {}, el("a", { href: it.source === "room" ? link("room", it.name) : link(it.game, it.name) },
    `${say(it.game, { key: "title" })} — ${it.name}`), it.when ? el("span", { class: "note" }, ` ${it.when}`) : null);
  main.replaceChildren(
    el("section", { class: "card" }, el("h2", {}, t("rp_rooms")),
      data.rooms.length ? el("ul", { class: "replays" }, data.rooms.map(item)) : el("p", { class: "note" }, t("rp_none"))),
    el("section", { class: "card" }, el("h2", {}, t("rp_sessions")), el("p", { class: "note" }, t("rp_sessions_hint")),
      data.sessions.length ? el("ul", { class: "replays" }, data.sessions.map(item)) : el("p", { class: "note" }, t("rp_none"))));
  redraw = list;
}

async function start() {
  const draw = () => app.replaceChildren(header(), error, main);
  try { pages = (await api("/api/games")).filter((g) => g.page); } catch (e) { fail(e); }
  draw();
  translatePage();
  onLanguage(() => { draw(); redraw(); });
  try {
    if (!parts.length) await list();
    else if (parts.length === 3) {  // one part of a saved session (a stage), drawn by the game's film module
      const [game, name, part] = parts;
      const [film, { mountFilm }] = await Promise.all([
        api(`/api/replay/${encodeURIComponent(game)}/${encodeURIComponent(name)}/${encodeURIComponent(part)}`),
        import(`/games/${encodeURIComponent(game)}/static/film.js`)]);
      const box = el("div", { class: "film card" });
      main.replaceChildren(el("p", {}, el("a", { href: link(game, name) }, `${say(game, { key: "title" })} — ${name}`), " · ",
        el("a", { href: `/${encodeURIComponent(game)}?campaign=${encodeURIComponent(name)}` }, t("wv_open_campaign"))), box);
      mountFilm(box, film);
      redraw = () => {};
    } else if (parts[0] === "room" && parts.length === 2) {
      player(await api(`/api/replay/room/${encodeURIComponent(parts[1])}`));
    } else if (parts.length === 2) {
      player(await api(`/api/replay/${encodeURIComponent(parts[0])}/${encodeURIComponent(parts[1])}`));
    } else {
      throw new Error(t("rp_bad_link"));
    }
  } catch (e) { fail(e); }
}

start();
