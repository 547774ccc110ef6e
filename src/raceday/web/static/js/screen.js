// A room screen's connection (the big screen's and a phone's alike): the status line,
// refusals in the error line, the kit's sound cues on each update, and "seat taken" when
// another device took this screen's place; `fatal` is the page's own.
import { el, Live } from "./common.js";
import { t } from "./i18n.js";
import { kitCues } from "./sound.js";

export function connectScreen(code, token, screen, { status, error, main, fatal }) {
  let phase = null;  // the view's phase, for the kit's sound cues
  const live = new Live(code, token, {
    status: (s, params) => status.set(s, params),
    welcome: (msg, events, fresh) => { phase = msg.view.phase; screen.welcome(msg.view, events, fresh); },
    update: (view, events) => {
      kitCues(phase, view, events);
      phase = view.phase;
      screen.update(view, events);
    },
    sending: () => error.clear(),
    error: (m, words) => error.show(m, words),
    fatal,
    replaced: () => {
      error.show("");
      main.replaceChildren(el("p", { class: "error", role: "alert" }, t("seat_taken")),
        el("p", {}, el("button", { type: "button", class: "primary", onclick: () => location.reload() },
          t("use_here"))));
    },
  });
  screen.connect(live);
}
