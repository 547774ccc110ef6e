// PISTARD's board for replays (the replay page imports this module by the address the
// server names): the velodrome of the room's screens; a saved game's frame (no room) names
// its squares' colours, which are the track's letters.
import { animateRiders, movesBetween, ownerClass, velodrome } from "./track.js";
import { el } from "/static/js/common.js";
import { playersLegend } from "/static/js/replay-boards.js";
import { useStyles } from "/static/js/rooms.js";

const COLOUR_LETTER = { yellow: "Y", green: "G", blue: "B", red: "R" };

export function drawFrame(frame, element, { ms = 0, previous = null } = {}) {
  useStyles("pistard");
  const track = frame.track ?? { name: "", length: frame.length, lines: [0],
    grid: frame.grid.map((row) => row.map((c) => COLOUR_LETTER[c] ?? "?").join("")) };
  const moves = previous ? movesBetween(previous, frame) : []; // traced since the step before
  element.replaceChildren(velodrome({ track, riders: frame.riders, mover: frame.mover },
    { targets: new Map(), tap() {}, zoom: false, trails: moves }));
  const root = element.querySelector("svg");
  if (narrow()) closeUp(root);
  if (ms > 0 && moves.length) animateRiders(root, moves, track.length, ms);
}

export function legend(players) {
  return playersLegend(players, (i) => el("span", { class: `pi-chip ${ownerClass(i)}`, "aria-hidden": "true" }));
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
