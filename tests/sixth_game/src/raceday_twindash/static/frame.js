// Twin Dice Dash's board for replays (the replay page imports this module by the address
// the server names): a step's frame (TwinDashState.frame()) drawn as the room's track.
import { useStyles } from "/static/js/rooms.js";
import { track } from "./twindash.js";

export function drawFrame(frame, element) {
  useStyles("twindash");
  element.replaceChildren(track(frame));
}
