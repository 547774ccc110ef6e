// The boards of replays: each game's frame drawn by the game's own drawing module, the one
// the server names in the replay's answer (`drawer`: the game's static/frame.js, or
// board.js, that exports drawFrame; see docs/adding-a-game.md). The frames come from the
// server (rebuilt there from the saved log by the game's rules); nothing here knows a rule
// or names a game: a game installed beside raceday is drawn as a built-in one is.
//
// board(drawerUrl) -> Promise<{ draw(box, frame, { ms, previous, events }), forget(), legend? } | null>:
// draw puts the frame into `box` (the moves since `previous`, the step before's frame, or
// in the step's `events` traced, and animated over `ms` where the drawing can glide:
// stepping forward), forget() drops what it keeps between frames (after a language
// switch), legend(players) says who plays which colour (a turn room's places).
// null: the game draws no board (no drawer, or one that cannot be loaded); its steps are words.
import { el } from "./common.js";
import { t } from "./i18n.js";

// For the games' drawers: whether the reader asked for less motion.
export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

// Who plays which colour, under the board: a place's name, or the computer's level.
function placeName(p) {
  return p.name || (p.kind && p.kind !== "human" ? t("finale_computer", { level: t(`level_${p.kind}`) }) : "?");
}

// For the games' drawers (their legend(players)): each place with its chip(i).
export function playersLegend(players, chip) {
  if (!players?.length) return null;
  return el("p", { class: "replay-legend" }, players.map((p, i) => el("span", { class: "replay-legend-item" }, chip(i), " ", placeName(p))));
}

// The game's drawer module: drawFrame(frame, element, { ms, previous, events }), and
// optionally forget() and legend(players).
async function load(url) {
  const drawer = await import(url);
  if (typeof drawer.drawFrame !== "function") return null;
  return {
    draw(box, frame, options = {}) { drawer.drawFrame(frame, box, options); },
    forget() { drawer.forget?.(); },
    legend: typeof drawer.legend === "function" ? (players) => drawer.legend(players) : undefined,
  };
}

const made = {};

export function board(drawerUrl = null) {
  if (!drawerUrl) return Promise.resolve(null);
  made[drawerUrl] ??= load(drawerUrl).catch((e) => { console.error(e); return null; });
  return made[drawerUrl];
}

// A frame that no drawing module can draw: its text picture, scrolling inside its box.
export function textBoard(box, text) {
  box.replaceChildren(el("pre", { class: "board-text", tabindex: 0 }, text));
}
