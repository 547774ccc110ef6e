// Hairpin's board frame (HairpinState.frame(): cells, laps, bumps, pit, ply) drawn for
// replays: the same SVG board as the room's, with nothing to tap.
import { boardSvg } from "./board.js";
import { useStyles } from "/static/js/rooms.js";

const STILL = { moves: [], selected: null, canMove: false, tap() {} };

export function drawFrame(frame, element) {
  useStyles("hairpin");
  element.replaceChildren(boardSvg({ board: frame }, STILL));
}
