// The lesson page, /learn/<game>: one step at a time, each a real position the server builds
// from the game's lesson (GET /api/learn/<game>/<n>), drawn by the game's own drawFrame. The
// learner picks one of their legal moves (buttons, keyboard usable); the server says whether
// it was the move the idea asks for (POST .../try): a wrong one gets the hint, the right one
// the board's answer in words and the reason. Next/Back walk the steps; the step reached is
// kept in localStorage, so a lesson left resumes on this device. The last step offers a first
// game against the easiest computer. /learn alone lists the games that have a lesson.
import { api, el } from "./common.js";
import { language, languageButton, onLanguage, t, translatePage } from "./i18n.js";
import { describeEvent, render } from "./present.js";
import { board, textBoard } from "./replay-boards.js";
import { createRoom, useStyles } from "./rooms.js";

const game = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const KEY = `raceday.learn.${game}`;
const app = el("main", { class: "learn-main", id: "app" });
const header = el("header", { class: "bar" },
  el("h1", { id: "learn-title" }, t("learn_heading")), el("span", { id: "lang" }));
document.getElementById("app")?.remove();
document.body.append(header, app);
document.getElementById("lang").append(languageButton());

const say = (key, params = {}) => render({ key, params }, language(), game || null);
const kept = {
  get() { try { return Number(localStorage.getItem(KEY)) || 0; } catch (_) { return 0; } },
  set(n) { try { localStorage.setItem(KEY, String(n)); } catch (_) { /* storage off */ } },
};

let lesson = null;
let number = 1;
let step = null;       // the step's answer
let result = null;     // the last try's answer
let resumed = false;
let drawn = null;      // the board's box

async function listLessons() {
  const answer = await api("/api/learn");
  document.title = t("learn_page_title");
  app.replaceChildren(el("section", { class: "card" },
    el("h2", {}, t("learn_games")),
    el("ul", { class: "learn-games" }, answer.games.map((g) =>
      el("li", {}, el("a", { href: `/learn/${encodeURIComponent(g.game)}` }, t(g.title)))))));
}

async function start() {
  lesson = await api(`/api/learn/${encodeURIComponent(game)}`);
  useStyles(game);
  const saved = kept.get();
  if (saved > 1 && saved <= lesson.steps.length) { number = saved; resumed = true; }
  await open(number);
}

async function open(n) {
  number = n;
  kept.set(n);
  result = null;
  step = await api(`/api/learn/${encodeURIComponent(game)}/${n}`);
  draw();
  document.getElementById("learn-step-title")?.focus();
}

function progress() {
  const total = lesson.steps.length;
  return el("div", { class: "learn-progress" },
    el("span", { id: "learn-progress-text" }, t("learn_progress", { n: number, total })),
    el("progress", { max: total, value: number, "aria-labelledby": "learn-progress-text" }));
}

function moveButton(m, i) {
  const label = say(m.message.key, m.message.params);
  const tried = result && result.move === m.name;
  const cls = ["learn-move", tried ? (result.right ? "is-right" : "is-wrong") : ""].join(" ").trim();
  return el("li", {}, el("button", {
    type: "button", class: cls, "data-move": m.name, disabled: Boolean(result && result.right),
    "aria-pressed": tried ? "true" : "false", onclick: () => attempt(m.name),
  }, el("span", { class: "learn-move-n", "aria-hidden": "true" }, `${i + 1}`), " ", label,
  tried ? el("span", { class: "learn-mark" }, result.right ? " ✓" : " ✗") : null));
}

function feedback() {
  if (!result) return el("div", { class: "learn-feedback", id: "learn-feedback", "aria-live": "polite" });
  const words = say(result.words, { move: step.params.move });
  const happened = (result.told ?? result.events).map((e) => describeEvent(game, e, language()))
    .filter((s) => s && !s.startsWith("event."));
  const parts = result.right
    ? [el("p", { class: "learn-right" }, el("strong", {}, t("learn_right")), " ", words),
      // what the move and the board's answer did, when the game words any of it
      happened.length ? el("h3", {}, t("learn_after")) : null,
      happened.length ? el("ul", { class: "learn-events" }, happened.map((s) => el("li", {}, s))) : null,
      el("p", { class: "note" }, t("learn_done_step"))]
    : [el("p", { class: "learn-wrong" }, el("strong", {}, t("learn_try_again")), " ", t("learn_hint", { hint: words }))];
  return el("div", { class: "learn-feedback", id: "learn-feedback", "aria-live": "polite" }, parts);
}

function nav() {
  const total = lesson.steps.length;
  const back = el("button", { type: "button", id: "learn-back", disabled: number <= 1, onclick: () => open(number - 1) }, `← ${t("learn_back")}`);
  const next = number < total
    ? el("button", { type: "button", id: "learn-next", class: result?.right || step.play ? "primary" : "", onclick: () => open(number + 1) }, `${t("learn_next")} →`)
    : el("a", { href: "/learn", id: "learn-all" }, t("learn_all_lessons"));
  return el("nav", { class: "learn-nav", "aria-label": t("learn_progress", { n: number, total }) }, back, next,
    number > 1 ? el("button", { type: "button", class: "link", onclick: () => open(1) }, t("learn_start_over")) : null);
}

function playPart() {
  if (step.watch) {  // a race the dice decide: the game's own watch page
    return [
      el("p", {}, el("a", { href: step.watch, class: "button primary", id: "learn-watch" }, t("learn_watch_button"))),
      el("p", { class: "note" }, t("learn_watch_note", { game })),
    ];
  }
  const room = step.room;  // the room options of a game against the computer, if the lesson gives them
  const level = t(`level_${step.level}`) === `level_${step.level}` ? step.level : t(`level_${step.level}`);
  const button = el("button", { type: "button", class: "primary", id: "learn-play" },
    t(room ? "learn_play_button" : "learn_play_friends"));
  const query = room && step.computers ? `?computers=${step.computers}` : "";
  button.addEventListener("click", () => createRoom(game, room || {}, document.getElementById("learn-error"), query));
  const own = step.terminal === "own";  // the terminal plays the game's own table, its hints shown unasked
  return [
    room ? el("p", {}, t("learn_play_level", { level })) : el("p", { class: "note" }, t("learn_play_no_room", { game })),
    room && t(`learn_room_${game}`) !== `learn_room_${game}` ? el("p", { class: "note", id: "learn-room-note" }, t(`learn_room_${game}`)) : null,
    el("p", {}, button),
    // a room with hints on shows the move a stronger computer would play on each turn (a
    // game's own table may say what its hints are instead: "<game>.learn_hints_on")
    room?.hints ? el("p", { id: "learn-hints-on" }, say("learn_hints_on"))
      : el("p", { class: "note" }, t(own ? "learn_hints_note_own" : "learn_hints_note", { game })),
    el("p", { class: "error", role: "alert", id: "learn-error" }),
  ];
}

function draw() {
  if (!lesson || !step) return;
  const title = say(lesson.title);
  document.title = title;
  document.getElementById("learn-title").textContent = title;
  const params = { move: step.params.move };
  const words = (part) => say(step.words[part], params);
  const intro = number === 1 ? el("p", { class: "learn-intro" }, say(lesson.intro)) : null;
  const parts = [progress(), intro,
    resumed ? el("p", { class: "note" }, t("learn_resume", { n: number })) : null,
    el("h2", { id: "learn-step-title", tabindex: -1 }, words("title")),
    el("p", { class: "learn-idea" }, words("idea"))];
  if (step.play) {
    parts.push(el("p", { class: "learn-prompt" }, words("prompt")), ...playPart());
  } else {
    drawn = el("div", { class: "learn-board replay-board", role: "img", "aria-label": t("learn_board") });
    parts.push(drawn, el("p", { class: "learn-prompt", id: "learn-prompt" }, el("strong", {}, words("prompt"))),
      el("ul", { class: "learn-moves", "aria-labelledby": "learn-prompt" }, step.moves.map(moveButton)),
      feedback());
  }
  parts.push(nav());
  app.replaceChildren(el("section", { class: step.play ? "card learn-card is-play" : "card learn-card" }, parts));
  if (!step.play) paintBoard();
}

async function paintBoard() {
  const frame = result?.right ? result.frame : step.frame;
  const drawer = await board(step.drawer);
  if (!drawn) return;
  if (drawer) drawer.draw(drawn, frame, { ms: 0, events: result?.right ? result.events : [] });
  else textBoard(drawn, JSON.stringify(frame, null, 1));
}

async function attempt(name) {
  try {
    const answer = await api(`/api/learn/${encodeURIComponent(game)}/${number}/try`, { move: name });
    result = { ...answer, move: name };
    resumed = false;
    draw();
    document.getElementById("learn-feedback")?.focus?.();
    if (result.right) document.getElementById("learn-next")?.focus();
    else document.querySelector(`.learn-move[data-move="${CSS.escape(name)}"]`)?.focus();
  } catch (e) {
    const box = document.getElementById("learn-feedback");
    if (box) box.textContent = t("error", { message: e.message });
  }
}

// The menu's numbers as keys: 1-9 tries that move (as the terminal's menu does).
document.addEventListener("keydown", (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || !step || step.play || result?.right) return;
  if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
  const n = Number(ev.key);
  if (Number.isInteger(n) && n >= 1 && n <= Math.min(9, step.moves.length)) attempt(step.moves[n - 1].name);
});

onLanguage(() => { if (lesson) draw(); else if (!game) listLessons(); });
translatePage();
const run = game ? start() : listLessons();
run.catch((e) => {
  app.replaceChildren(el("section", { class: "card" },
    el("p", { class: "error", role: "alert" }, t("error", { message: e.message })),
    el("p", {}, el("a", { href: "/learn" }, t("learn_all_lessons")))));
});
