// "The computer is thinking…" while this page waits for the answer to one of its intents in a
// game with a computer player. The computer players move on the server inside the intent that
// hands them the turn (a person's move, the start), so their moves arrive with the answer, and
// the first ones can take long while the server compiles them (raceday warm-up). An answer
// with no computer move takes milliseconds: the line shows only after a short grace, so it
// never flickers; it goes when the update (or a refusal, or a new connection) arrives.
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
