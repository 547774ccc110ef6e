// Dice Derby's board for replays (the replay page imports this module by the address the
// server names): the TV's race track (track.js drawTrack(frame, opts)).
import { drawTrack } from "./track.js";
import { t } from "/static/js/i18n.js";
import { useStyles } from "/static/js/rooms.js";

export function drawFrame(frame, element, { ms = 0, previous = null } = {}) {
  useStyles("derby");
  const from = ms > 0 && previous && previous.race === frame.race ? previous : null;
  element.replaceChildren(drawTrack(frame, { owners: frame.owners, colours: frame.colours, from, ms, caption: t("rp_board") }));
}
