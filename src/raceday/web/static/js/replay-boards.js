// The boards of replays: each game's frame drawn by the game's own drawing module, the
// same one its live screens use (Hairpin's frame.js/board.js, PISTARD's and KEIRIN's
// track.js, Dice Derby's track.js, WielerSIM's film.js). The frames come from the server
// (rebuilt there from the saved log by the game's rules); nothing here knows a rule.
//
// board(game, drawerUrl) -> Promise<{ draw(box, frame, { ms }), forget(), legend? } | null>:
// draw(box, frame, { ms, previous, events }) puts the frame into `box` (the moves since
// `previous`, the step before's frame, or in the step's `events` traced, and animated over
// `ms` where the drawing can glide: stepping forward), forget() drops what it keeps between frames (after a
// language switch), legend(players) says who plays which colour (a turn room's places).
// null: the game draws no board; its steps are words.
import { el } from "./common.js";
import { language, t } from "./i18n.js";
import { render } from "./present.js";
import { useStyles } from "./rooms.js";

const COLOUR_LETTER = { yellow: "Y", green: "G", blue: "B", red: "R" };

function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

// Who plays which colour, under the board: a place's name, or the computer's level.
function placeName(p) {
  return p.name || (p.kind && p.kind !== "human" ? t("finale_computer", { level: t(`level_${p.kind}`) }) : "?");
}

function legend(players, chip) {
  if (!players?.length) return null;
  return el("p", { class: "replay-legend" }, players.map((p, i) => el("span", { class: "replay-legend-item" }, chip(i), " ", placeName(p))));
}

// Hairpin: the room's SVG board with nothing to tap, the step's move traced on it and,
// stepping forward, the racer running along it (board.js's own trace and animation).
async function hairpin() {
  const { animateMove, boardSvg } = await import("/games/hairpin/static/board.js");
  useStyles("hairpin");
  const still = { moves: [], selected: null, canMove: false, tap() {} };
  const side = ["red", "black"];
  return {
    draw(box, frame, { ms = 0, events = [] } = {}) {
      const moves = events.filter((e) => e.type === "move");
      box.replaceChildren(boardSvg({ board: frame, recent: moves }, still));
      if (ms > 0 && moves.length) animateMove(box.querySelector("svg"), moves[moves.length - 1], ms);
    },
    forget() {},
    legend: (players) => legend(players?.slice(0, 2), (i) => el("span", { class: `hp-chip hp-chip-${side[i]}`, "aria-hidden": "true" }, i ? "B" : "R")),
  };
}

// PISTARD: the velodrome of the room's screens; a saved game's frame (no room) names its
// squares' colours, which are the track's letters.
async function pistard() {
  const { animateRiders, movesBetween, ownerClass, velodrome } = await import("/games/pistard/static/track.js");
  useStyles("pistard");
  return {
    draw(box, frame, { ms = 0, previous = null } = {}) {
      const track = frame.track ?? { name: "", length: frame.length, lines: [0],
        grid: frame.grid.map((row) => row.map((c) => COLOUR_LETTER[c] ?? "?").join("")) };
      const moves = previous ? movesBetween(previous, frame) : []; // traced since the step before
      box.replaceChildren(velodrome({ track, riders: frame.riders, mover: frame.mover },
        { targets: new Map(), tap() {}, zoom: false, trails: moves }));
      const root = box.querySelector("svg");
      if (narrow()) closeUp(root);
      if (ms > 0 && moves.length) animateRiders(root, moves, track.length, ms);
    },
    forget() {},
    legend: (players) => legend(players, (i) => el("span", { class: `pi-chip ${ownerClass(i)}`, "aria-hidden": "true" })),
  };
}

// A phone: the part of the track where the riders are, when they are bunched (the whole
// lap at 390 px makes a rider a dot); the whole lap when they are spread round it.
const narrow = () => window.matchMedia?.("(max-width: 600px)").matches ?? false;

function closeUp(root) {
  const dots = [...root.querySelectorAll(".pi-rider circle")].map((c) => [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))]);
  const [, , W, H] = root.getAttribute("viewBox").split(" ").map(Number);
  if (!dots.length) return;
  const xs = dots.map((d) => d[0]);
  const ys = dots.map((d) => d[1]);
  const w = Math.max(Math.max(...xs) - Math.min(...xs) + 160, 420);
  const h = Math.max(Math.max(...ys) - Math.min(...ys) + 160, w * 0.62);
  if (w >= W * 0.8 || h >= H * 0.8) return;
  const x0 = Math.max(0, Math.min(W - w, (Math.min(...xs) + Math.max(...xs)) / 2 - w / 2));
  const y0 = Math.max(0, Math.min(H - h, (Math.min(...ys) + Math.max(...ys)) / 2 - h / 2));
  root.setAttribute("viewBox", `${x0.toFixed(0)} ${y0.toFixed(0)} ${w.toFixed(0)} ${h.toFixed(0)}`);
  root.classList.add("is-zoomed");
}

// KEIRIN: the big screen's velodrome, kept from frame to frame so the riders glide.
async function keirin() {
  const { Velodrome, ensureStyles } = await import("/games/keirin/static/track.js");
  ensureStyles();
  let track = null;
  let key = "";
  return {
    draw(box, f, { ms = 0 } = {}) {
      const wanted = `${f.riders}:${f.finish}:${f.lap}:${language()}`;
      const fresh = !track || wanted !== key || !box.contains(track.node);
      if (fresh) {
        track = new Velodrome({ riders: f.riders, finish: f.finish, lap: f.lap });
        key = wanted;
        box.replaceChildren(track.node);
      }
      const animate = ms > 0 && !fresh && !reducedMotion();
      track.set(f.positions, f.derny, { animate, ms });
      if (f.phase === "over") track.label(t("kr_over_line"), f.ranking.length ? t("kr_winner", { n: f.ranking[0] }) : "");
      else if (f.phase === "race") track.label(t("kr_laps_to_go", { n: f.laps_to_go }), t("kr_squares_to_go", { n: f.to_go, turn: f.turn }));
      else if (f.phase === "closed") track.label(t("kr_betting_closed"), t("kr_derny_waits"));
      else track.label(t("keirin"), render({ key: "replay.race", params: { race: f.race } }, language(), "keirin"));
    },
    forget() { track = null; },
  };
}

// Dice Derby: the TV's race track (track.js drawTrack(frame, opts)) when the game has it.
async function derby() {
  const { drawTrack } = await import("/games/derby/static/track.js");
  useStyles("derby");
  return {
    draw(box, frame, { ms = 0, previous = null } = {}) {
      const from = ms > 0 && previous && previous.race === frame.race ? previous : null;
      box.replaceChildren(drawTrack(frame, { owners: frame.owners, from, ms, caption: t("rp_board") }));
    },
    forget() {},
  };
}

// WielerSIM: a watch room's film as its screens showed it (film.js's filmStage: the
// profile with the groups, the race's line, the groups and the ticker; the result once the
// race is over, in place of the groups and the ticker). A step's frame is what the room sent every screen: {film, frame, ticker,
// standings}; the stage is kept from step to step, so the groups glide.
async function wielersim() {
  const { filmStage, resultTable } = await import("/games/wielersim/static/film.js");
  let stage = null;
  let key = "";
  return {
    draw(box, f, { ms = 0 } = {}) {
      const film = f.film;
      const wanted = JSON.stringify([film.route_name, film.seed, film.stage, film.campaign, film.route?.distance]);
      if (!stage || wanted !== key || !box.contains(stage.node)) {
        stage = filmStage(film, { groups: 5, ticker: 5 });
        key = wanted;
        box.replaceChildren(stage.node);
        ms = 0; // a fresh stage has nothing to glide from
      }
      stage.show(f.frame, f.ticker, { ms });
      // over: the result takes the place of the groups (all home) and the ticker, so the
      // TV's page still fits its screen
      box.querySelector(".film-result")?.remove();
      const grid = stage.node.querySelector(".film-grid");
      if (grid) grid.style.display = f.standings ? "none" : ""; // CSSOM: allowed by the CSP
      if (f.standings) box.append(el("div", { class: "film-result" }, resultTable(film, f.standings, 8)));
    },
    forget() { stage = null; },
  };
}

// Any other game: its module exporting drawFrame(frame, element), if it has one.
async function generic(url) {
  const { drawFrame } = await import(url);
  return drawFrame ? { draw(box, frame) { drawFrame(frame, box); }, forget() {} } : null;
}

const GAMES = { hairpin, pistard, keirin, derby, wielersim };
const made = {};

export function board(game, drawerUrl = null) {
  const key = `${game}|${drawerUrl}`;
  made[key] ??= (GAMES[game] ? GAMES[game]() : drawerUrl ? generic(drawerUrl) : Promise.resolve(null))
    .catch(() => null);
  return made[key];
}

// A frame that no drawing module can draw: its text picture, scrolling inside its box.
export function textBoard(box, text) {
  box.replaceChildren(el("pre", { class: "board-text", tabindex: 0 }, text));
}
