// The hint panel of a turn-based room with hints on (the room option hints, as a lesson's
// first game creates it): the move a stronger computer would play, said in the page's words
// for that move, with a button that plays it. The view's "hint" is there only for whoever
// plays the place to move, so a page draws the panel whenever it has one.
import { el } from "./common.js";
import { t } from "./i18n.js";

export function hintPanel(hint, words, play) {
  if (!hint) return null;
  return el("section", { class: "card hint-panel", id: "hint-panel", "aria-labelledby": "hint-panel-label" },
    el("p", { class: "hint-text" },
      el("strong", { class: "hint-label", id: "hint-panel-label" }, t("hint_label")), " ",
      el("span", { class: "hint-move" }, words)),
    play ? el("button", { type: "button", class: "hint-play", "data-action": hint.action, onclick: play }, t("hint_play")) : null);
}
