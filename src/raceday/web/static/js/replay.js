// Replays: the list of finished games and races, and a player for one of them: the board
// of each step drawn by the game's own drawing module (the frames the server rebuilt from
// the saved log), the step's words under it, a scrubber, buttons and keys (← → one step,
// Home / End, Space to play or pause) and a speed; the link keeps the step (#step=N), so a
// shared link opens where it was shared (a link without it opens at the start).
// The list also opens a game's record (a file saved by `raceday <game> play` or made by
// `raceday record export`): dropped on its card or chosen with its button, sent to the
// server, which plays it through the game's rules and answers its steps (or the first
// line the rules refuse, by number).
import { api, el, refused } from "./common.js";
import { language, languageButton, onLanguage, refusal, t, translatePage, withAmounts } from "./i18n.js";
import { render } from "./present.js";
import { board, textBoard } from "./replay-boards.js";

const app = document.getElementById("app");
const parts = location.pathname.split("/").filter(Boolean).slice(1).map(decodeURIComponent);
const error = el("p", { class: "error", role: "alert" });
const main = el("main", { class: "replay-main" });
let redraw = () => {};
let pages = []; // the games with a page of their own (GET /api/games)

const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 1200; // one step at 1×

function fail(e) { error.textContent = t("error", { message: e.message }); }
const link = (...p) => "/replay/" + p.map(encodeURIComponent).join("/");

function header() {
  return el("header", { class: "bar" },
    el("h1", {}, el("a", { href: "/", class: "home" }, "raceday"), " · ", el("a", { href: "/replay" }, t("rp_title"))),
    el("nav", { class: "links" }, pages.flatMap((g) => [el("a", { href: `/${g.game}` }, g.title), " "]), el("a", { href: "/numbers" }, t("nm_title"))),
    languageButton());
}

// A step's words: its messages (key and parameters) in the reader's language, the game's
// own keys first.
const say = (game, message) => render(withAmounts(message), language(), game);

function whoText(who) {
  if (who.kind === "seat") return who.name;
  if (who.name) return who.name; // a forced move played for a person
  if (who.level) return t("finale_computer", { level: t(`level_${who.level}`) });
  if (who.kind === "timeline") return t("rp_timeline");
  return t(who.kind === "host" ? "rp_host" : "rp_spectator");
}

function stepWords(game, step) {
  if (step.kind === "events") {
    return [el("p", { class: "who" }, t("rp_step_who", { n: step.seq, who: whoText(step.who) })),
      el("ul", { class: "events" }, step.events.map((e) => el("li", {}, say(game, e))))];
  }
  const words = [el("h3", {}, say(game, step.title)),
    el("ul", { class: "events" }, (step.lines || []).map((l) => el("li", {}, say(game, l))))];
  // (replaceChildren would write a null out as the word "null")
  if (step.url) words.push(el("a", { href: step.url, class: "button" }, t("rp_watch_stage")));
  return words;
}

function startAt(total) {
  const m = /(?:^#|&)step=(\d+)/.exec(location.hash);
  return m ? Math.max(1, Math.min(total, Number(m[1]))) : 1;
}

// The player: `total` steps; show(at, ms) draws step `at` (1-based) into the page's
// parts; `hasBoard` says whether a board goes beside (TV) or above (phone) the words.
function mountPlayer({ title, total, hasBoard, drawStep, extra = null, below = () => null, shareable = true }) {
  let at = startAt(total);
  let timer = null;
  let speed = 1;
  const boardBox = el("div", { class: "replay-board", role: "region" });
  const words = el("section", { class: "card step replay-words", "aria-live": "polite", tabindex: 0 }); // it may scroll: keys reach it
  const counter = el("p", { class: "status", role: "status" });
  const scrub = el("input", { type: "range", id: "replay-scrub", min: 1, max: Math.max(1, total), value: at, step: 1 });
  const scrubLabel = el("label", { for: "replay-scrub", class: "scrub-label" });
  const first = el("button", { type: "button", "data-act": "first" });
  const back = el("button", { type: "button", "data-act": "back" });
  const play = el("button", { type: "button", class: "primary", "data-act": "play" });
  const fwd = el("button", { type: "button", "data-act": "step" });
  const end = el("button", { type: "button", "data-act": "end" });
  const speedSel = el("select", { id: "replay-speed" }, SPEEDS.map((s) => el("option", { value: s, selected: s === speed }, `${s}×`)));
  const speedLabel = el("label", { for: "replay-speed", class: "speed-label" });
  const share = el("a", { class: "share" });
  const keys = el("p", { class: "note keys" });
  const controls = el("div", { class: "replay-controls" },
    el("div", { class: "scrub-row" }, scrubLabel, scrub, counter),
    el("div", { class: "row buttons" }, first, back, play, fwd, end, el("span", { class: "speed" }, speedLabel, speedSel)),
    shareable ? el("p", { class: "share-row" }, share) : null, keys); // a file's replay has no link
  const under = el("div", { class: "replay-under" });
  const view = el("div", { class: `replay-view${hasBoard ? " has-board" : ""}` },
    hasBoard ? el("div", { class: "replay-board-col" }, boardBox, under) : null,
    el("div", { class: "replay-side" }, controls, words, extra));
  main.classList.remove("replay-list");
  main.replaceChildren(el("h2", { class: "replay-title" }, title()), view);
  document.title = `${title()} — raceday`;

  function label() {
    under.replaceChildren(below() ?? "");
    first.textContent = t("rp_first"); back.textContent = t("rp_back"); fwd.textContent = t("wv_step");
    end.textContent = t("wv_end"); play.textContent = timer ? t("wv_pause") : t("wv_play");
    play.setAttribute("aria-pressed", timer ? "true" : "false");
    words.setAttribute("aria-live", timer ? "off" : "polite"); // while playing, no flood of news
    scrubLabel.textContent = t("rp_scrub"); speedLabel.textContent = t("rp_speed");
    share.textContent = t("rp_share"); keys.textContent = t("rp_keys");
    boardBox.setAttribute("aria-label", t("rp_board"));
    counter.textContent = t("rp_step_of", { n: at, total });
    scrub.setAttribute("aria-valuetext", t("rp_step_of", { n: at, total }));
  }
  function draw(ms = 0) {
    const had = document.activeElement;
    scrub.value = at;
    first.disabled = back.disabled = at <= 1;
    fwd.disabled = end.disabled = at >= total;
    const here = `${location.pathname}#step=${at}`;
    share.href = here;
    if (location.hash !== `#step=${at}`) history.replaceState(null, "", here);
    label();
    drawStep(at, { boardBox, words, ms });
    // a button that went out (the last step reached) hands the keyboard to the scrubber
    if (had?.disabled || document.activeElement?.disabled) scrub.focus();
  }
  function stop() { clearInterval(timer); timer = null; label(); }
  const glide = () => Math.round(Math.min(900, (STEP_MS / speed) * 0.7));
  function go(n, ms = 0) {
    at = Math.max(1, Math.min(total, n));
    draw(ms);
    if (at >= total && timer) stop();
  }
  function tick() { go(at + 1, glide()); }
  function start() {
    if (at >= total) go(1);
    timer = setInterval(tick, STEP_MS / speed);
    label();
  }
  first.addEventListener("click", () => { stop(); go(1); });
  back.addEventListener("click", () => { stop(); go(at - 1); });
  fwd.addEventListener("click", () => { stop(); go(at + 1, glide()); });
  end.addEventListener("click", () => { stop(); go(total); });
  play.addEventListener("click", () => (timer ? stop() : start()));
  scrub.addEventListener("input", () => { stop(); go(Number(scrub.value)); });
  speedSel.addEventListener("change", () => {
    speed = Number(speedSel.value);
    if (timer) { clearInterval(timer); timer = setInterval(tick, STEP_MS / speed); }
  });
  const onKey = (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const target = ev.target;
    if (target?.closest?.("select, textarea, input:not([type=range])")) return;
    const onRange = target === scrub;
    if (ev.key === " " || ev.key === "Spacebar") {
      if (target?.closest?.("button, a")) return; // the focused control's own Space
      ev.preventDefault(); play.click();
    } else if (onRange) {
      return; // the scrubber steps itself (arrows, Home, End) and says so with `input`
    } else if (ev.key === "ArrowRight") { ev.preventDefault(); fwd.click(); }
    else if (ev.key === "ArrowLeft") { ev.preventDefault(); back.click(); }
    else if (ev.key === "Home") { ev.preventDefault(); first.click(); }
    else if (ev.key === "End") { ev.preventDefault(); end.click(); }
  };
  document.addEventListener("keydown", onKey);
  const onHash = () => { if (location.hash !== `#step=${at}`) { stop(); go(startAt(total)); } };
  window.addEventListener("hashchange", onHash);
  draw();
  return () => {
    main.querySelector(".replay-title").textContent = title();
    document.title = `${title()} — raceday`;
    draw();
  };
}

// A room step's events as facts ({type, ...}) for a drawing that traces a move.
function facts(step) {
  if (step.kind !== "events") return [];
  return step.events.map((m) => ({ ...(m.params || {}), type: String(m.key).split(".")[1] }));
}

// The frame of step `at`: its own, else the last one before it, else the first after it
// (the lobby's steps show the board the game starts from).
function frameAt(steps, at) {
  for (let i = at - 1; i >= 0; i--) if (steps[i].frame) return steps[i].frame;
  for (let i = at; i < steps.length; i++) if (steps[i].frame) return steps[i].frame;
  return null;
}

async function player(data, { extra = null, shareable = true } = {}) {
  const steps = data.steps;
  const [drawing, finale] = await Promise.all([board(data.drawer),
    data.finale ? import("./finale.js").catch(() => null) : null]);
  const hasFrames = steps.some((s) => s.frame);
  const hasBoard = (hasFrames && drawing !== null) || steps.some((s) => s.board);
  let shown = null;
  redraw = mountPlayer({
    title: () => `${say(data.game, { key: "title" })} — ${data.name}`,
    total: steps.length,
    hasBoard,
    extra: extra ? extra() : null,
    shareable,
    below: () => (hasBoard && drawing?.legend ? drawing.legend(data.players) : null),
    drawStep(at, { boardBox, words, ms }) {
      const step = steps[at - 1];
      words.replaceChildren(...stepWords(data.game, step));
      if (at === steps.length && data.finale?.podium?.length && finale) {
        // the end as every screen showed it (nobody can play again from a replay)
        const end = finale.drawFinale({ ...data.finale, again: false }, { game: data.game });
        for (const n of [...end.childNodes]) if (n.nodeType === Node.TEXT_NODE && n.data === "null") n.remove(); // a part it left out
        words.prepend(end);
      }
      const frame = frameAt(steps, at);
      if (drawing && frame) {
        try {
          if (frame !== shown || ms === 0) {
            const previous = at > 1 ? frameAt(steps, at - 1) : null;
            drawing.draw(boardBox, frame, { ms, previous: previous === frame ? null : previous, events: facts(step) });
          }
        } catch (e) { // a drawing that fails leaves the words (and says why in the console)
          console.error(e);
          boardBox.replaceChildren();
        }
        shown = frame;
      } else if (step.board) {
        textBoard(boardBox, step.board);
      }
    },
  });
  const again = redraw;
  redraw = () => { drawing?.forget(); shown = null; again(); };
}

// One part of a saved session (a stage of a stage race): the film's frames on the same
// player, drawn by the game's film module (its profile, groups and ticker), its result at
// the end.
async function part(game, name, partName) {
  const [film, filmModule] = await Promise.all([
    api(`/api/replay/${encodeURIComponent(game)}/${encodeURIComponent(name)}/${encodeURIComponent(partName)}`),
    import(`/games/${encodeURIComponent(game)}/static/film.js`)]);
  const frames = film.frames || [];
  const result = el("div", { class: "film-result" });
  let stage = null;
  const items = (n) => frames.slice(Math.max(0, n - 12), n).flatMap((f) => f.items.map((it) => ({ turn: f.turn, ...it })));
  const back = el("p", { class: "replay-up" });
  const drawBack = () => back.replaceChildren(el("a", { href: link(game, name) }, `${say(game, { key: "title" })} — ${name}`), " · ",
    el("a", { href: `/${encodeURIComponent(game)}?campaign=${encodeURIComponent(name)}` }, t("wv_open_campaign")));
  const mount = () => mountPlayer({
    title: () => (film.stage_words ? say(game, film.stage_words) : film.stage_name) || film.route?.name || name,
    total: frames.length + 1,
    hasBoard: true,
    extra: back,
    drawStep(at, { boardBox, words, ms }) {
      if (!stage || !boardBox.contains(stage.node)) {
        stage = filmModule.filmStage(film, { groups: 5, ticker: 5 });
        boardBox.replaceChildren(stage.node);
        stage.words();
      }
      const shown = Math.min(at - 1, frames.length); // frames shown; the last step adds the result
      stage.show(shown > 0 ? frames[shown - 1] : null, items(shown), { ms });
      if (at > frames.length) {
        result.replaceChildren(filmModule.resultTable(film, film.result));
        words.replaceChildren(result);
        return;
      }
      const turn = at > 1 ? frames[at - 2] : null;
      words.replaceChildren(el("h3", {}, turn ? t("wv_turn_short", { turn: turn.turn }) : t("rp_start")),
        el("ul", { class: "events" }, (turn ? turn.items : []).map((it) => el("li", {}, say(game, it)))));
    },
  });
  drawBack();
  const again = mount();
  redraw = () => { stage = null; drawBack(); again(); };
}

// --- a record opened from a file ----------------------------------------------------------
let problem = null; // the last refusal of a record (worded again after a language switch)
const problemText = () => t("rp_open_refused", {
  name: problem.file, problem: problem.words ? refusal({ words: problem.words }) : problem.message });

async function openRecord(file, status, alert) {
  problem = null;
  alert.textContent = "";
  status.textContent = t("rp_opening", { name: file.name });
  try {
    const res = await fetch("/api/replay/record", {
      method: "POST", headers: { "Content-Type": "text/plain; charset=utf-8" }, body: file,
    });
    let data = {};
    try { data = await res.json(); } catch (_) { /* empty */ }
    if (!res.ok) throw refused(data, data.error || res.statusText);
    history.replaceState(null, "", "/replay"); // the player keeps its step in the hash
    data.name = data.name || file.name; // a record without a Name tag: the file's name
    const back = () => el("p", { class: "replay-up" }, t("rp_opened", { name: file.name }), " · ",
      el("a", { href: "/replay" }, t("rp_open_another")));
    await player(data, { extra: back, shareable: false });
  } catch (e) {
    status.textContent = "";
    problem = { file: file.name, words: e.words, message: e.message };
    alert.textContent = problemText();
    alert.focus();
  }
}

// The card that opens a record: a drop zone with the file input itself (out of sight, but
// focused by Tab and opened by Enter or Space as any file input) named by its label, which
// looks like a button; its words say what to do, not its colour.
function recordOpener() {
  const input = el("input", { type: "file", id: "record-file", accept: ".record,.txt,text/plain", class: "file-input", "aria-describedby": "record-open-hint" });
  const choose = el("label", { for: "record-file", class: "button primary" }, t("rp_open_button"));
  const status = el("p", { class: "note", role: "status" });
  const alert = el("p", { class: "error record-problem", role: "alert", tabindex: -1 });
  if (problem) alert.textContent = problemText();
  const drop = el("p", { class: "drop-words" }, t("rp_open_drop"));
  const card = el("section", { class: "card record-open", "aria-labelledby": "record-open-title" },
    el("h2", { id: "record-open-title" }, t("rp_open_title")),
    el("p", { class: "note", id: "record-open-hint" }, t("rp_open_hint")),
    el("div", { class: "drop-zone" }, drop, input, choose),
    status, alert);
  const open = (file) => { if (file) openRecord(file, status, alert); };
  input.addEventListener("change", () => { open(input.files[0]); input.value = ""; });
  let depth = 0; // dragenter/leave fire for each child the file passes over
  const dragging = (on) => { card.classList.toggle("dragging", on); drop.textContent = t(on ? "rp_open_release" : "rp_open_drop"); };
  card.addEventListener("dragenter", (ev) => { ev.preventDefault(); depth += 1; dragging(true); });
  card.addEventListener("dragover", (ev) => { ev.preventDefault(); });
  card.addEventListener("dragleave", () => { depth = Math.max(0, depth - 1); if (!depth) dragging(false); });
  card.addEventListener("drop", (ev) => {
    ev.preventDefault(); depth = 0; dragging(false);
    open(ev.dataTransfer?.files?.[0]);
  });
  return card;
}

async function list() {
  const data = await api("/api/replays");
  const winners = (it) => (it.winners || []).map((w) => (w.who ? say(it.game, w.who) : w.name)).join(", ");
  const href = (it) => (it.source !== "room" ? link(it.game, it.name)
    : it.url === `/replay/room/${it.name}` ? link("room", it.name) : link("room", it.name, String(it.number)));
  const item = (it) => el("li", {}, el("a", { href: href(it) },
    `${say(it.game, { key: "title" })} — ${it.name}${it.source === "room" && (it.number > 1 || it.url !== `/replay/room/${it.name}`) ? ` · ${it.number}` : ""}`),
    it.winners?.length ? el("span", { class: "winners" }, ` · ${t("rp_won_by", { names: winners(it) })}`) : null,
    it.when ? el("span", { class: "note" }, ` ${it.when}`) : null);
  // on a wide screen the rooms fill one column, the saved games and a record file the other
  main.classList.add("replay-list");
  main.replaceChildren(
    el("section", { class: "card replay-rooms" }, el("h2", {}, t("rp_rooms")),
      data.rooms.length ? el("ul", { class: "replays" }, data.rooms.map(item)) : el("p", { class: "note" }, t("rp_none"))),
    el("section", { class: "card" }, el("h2", {}, t("rp_sessions")), el("p", { class: "note" }, t("rp_sessions_hint")),
      data.sessions.length ? el("ul", { class: "replays" }, data.sessions.map(item)) : el("p", { class: "note" }, t("rp_none"))),
    recordOpener());
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
    else if (parts[0] === "room" && parts.length === 3) {
      await player(await api(`/api/replay/room/${encodeURIComponent(parts[1])}/${encodeURIComponent(parts[2])}`));
    } else if (parts.length === 3) await part(...parts);
    else if (parts[0] === "room" && parts.length === 2) {
      await player(await api(`/api/replay/room/${encodeURIComponent(parts[1])}`));
    } else if (parts.length === 2) {
      await player(await api(`/api/replay/${encodeURIComponent(parts[0])}/${encodeURIComponent(parts[1])}`));
    } else {
      throw new Error(t("rp_bad_link"));
    }
  } catch (e) { fail(e); }
}

start();
