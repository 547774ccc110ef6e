// KEIRIN's board for replays (the replay page imports this module by the address the
// server names): the big screen's velodrome, kept from frame to frame so the riders glide.
import { Velodrome, ensureStyles } from "./track.js";
import { language, t } from "/static/js/i18n.js";
import { render } from "/static/js/present.js";
import { reducedMotion } from "/static/js/replay-boards.js";

let track = null;
let key = "";

export function drawFrame(f, element, { ms = 0 } = {}) {
  ensureStyles();
  const wanted = `${f.riders}:${f.finish}:${f.lap}:${language()}`;
  const fresh = !track || wanted !== key || !element.contains(track.node);
  if (fresh) {
    track = new Velodrome({ riders: f.riders, finish: f.finish, lap: f.lap });
    key = wanted;
    element.replaceChildren(track.node);
  }
  const animate = ms > 0 && !fresh && !reducedMotion();
  track.set(f.positions, f.derny, { animate, ms });
  if (f.phase === "over") track.label(t("kr_over_line"), f.ranking.length ? t("kr_winner", { n: f.ranking[0] }) : "");
  else if (f.phase === "race") track.label(t("kr_laps_to_go", { n: f.laps_to_go }), t("kr_squares_to_go", { n: f.to_go, turn: f.turn }));
  else if (f.phase === "closed") track.label(t("kr_betting_closed"), t("kr_derny_waits"));
  else track.label(t("keirin"), render({ key: "replay.race", params: { race: f.race } }, language(), "keirin"));
}

export function forget() { track = null; }
