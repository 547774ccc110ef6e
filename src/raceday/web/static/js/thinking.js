// "The computer is thinking…" on every screen while the server says a computer player is to
// move (the view's `thinking`: a room whose computers move on the timeline, a pace after the
// move that handed them the turn), and on the page that sent an intent while it waits for the
// answer (a computer that moves inside that intent; the first moves can take long while the
// server compiles them, raceday warm-up). An answer with no computer move takes
// milliseconds: that line shows only after a short grace, so it never flickers.
import { el } from "./common.js";
import { t } from "./i18n.js";

export const GRACE_MS = 250;

// Whether a computer plays in the room (the view's players: "human" or a computer level).
export function hasComputer(view) {
  return Boolean(view && view.players && view.players.some((p) => p.kind !== "human"));
}

// The state of the indicator; `redraw` is called when it turns on after the grace.
export function thinking(redraw) {
  let timer = null;
  let on = false;
  return {
    get on() { return on; },
    // this page sent an intent that may hand the turn to a computer player
    start() {
      clearTimeout(timer);
      timer = setTimeout(() => { on = true; redraw(); }, GRACE_MS);
    },
    // the answer arrived; the caller redraws
    stop() {
      clearTimeout(timer);
      timer = null;
      on = false;
    },
    // a view arrived: on while the server says a computer is to move (its move comes on
    // the room's timeline, for every screen alike), else off; the caller redraws
    fromView(view) {
      clearTimeout(timer);
      timer = null;
      on = Boolean(view && view.thinking);
    },
    // the line itself (null when off)
    line(cls) {
      return on ? el("p", { class: `${cls} thinking`, role: "status", "aria-live": "polite" },
        el("span", { class: "thinking-dots", "aria-hidden": "true" }), t("computer_thinking")) : null;
    },
  };
}

// The `send` of a turn-based room's page: the intent goes to the live room (`getLive()`); one
// that may hand the turn to a computer player (a move, the start) starts `waiting`; a refusal
// stops it, redraws and is shown.
export function thinkingSender(ctx, waiting, getView, getLive, redraw) {
  return function send(intent) {
    const live = getLive();
    if (!live) return Promise.resolve();
    if ((intent.type === "move" || intent.type === "start") && hasComputer(getView())) waiting.start();
    return live.send(intent).then(() => ctx.error.show("")).catch((e) => {
      waiting.stop();
      redraw();
      ctx.error.show(e.message);
    });
  };
}
