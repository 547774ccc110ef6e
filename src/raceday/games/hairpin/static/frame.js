// Hairpin's board frame (HairpinState.frame(): cells, laps, bumps, pit, ply) drawn for
// replays (the replay page imports this module by the address the server names): the
// room's SVG board with nothing to tap, the step's move traced on it and, stepping
// forward, the racer running along it (board.js's own trace and animation).
import { boardSvg, animateMove } from "./board.js";
import { el } from "/static/js/common.js";
import { playersLegend } from "/static/js/replay-boards.js";
import { useStyles } from "/static/js/rooms.js";

const STILL = { moves: [], selected: null, canMove: false, tap() {} };
const SIDE = ["red", "black"];

export function drawFrame(frame, element, { ms = 0, events = [] } = {}) {
  useStyles("hairpin");
  const moves = events.filter((e) => e.type === "move");
  element.replaceChildren(boardSvg({ board: frame, recent: moves }, STILL));
  if (ms > 0 && moves.length) animateMove(element.querySelector("svg"), moves[moves.length - 1], ms);
}

export function legend(players) {
  return playersLegend(players?.slice(0, 2), (i) => el("span", { class: `hp-chip hp-chip-${SIDE[i]}`, "aria-hidden": "true" }, i ? "B" : "R"));
}
