// The end of a game on every screen, drawn from the view's `finale` (the room kit's
// RoomBase.finale): a podium (1st, 2nd, 3rd; players tied share a step), the game's awards,
// and for the host a "Play again (same seats)" button that sends {type: "again"}.
// Every word comes from the message tables; a language switch redraws it. The steps rise
// in one after another (CSS; still for a reader who asked for reduced motion).
import { el } from "./common.js";
import { language, onLanguage, placeText, t } from "./i18n.js";
import { render } from "./present.js";

let serial = 0;

// finale: {podium: [{place, name, seat, who, detail}], awards: [{title, name, seat, detail}],
// again}. Options: game (for the game's own message keys), isHost, send (the live
// connection's send: returns a promise), seat (this phone's seat, marked "you").
export function drawFinale(finale, { game = null, isHost = false, send = null, seat = null } = {}) {
  const id = `finale-${++serial}`;
  const root = el("section", { class: "finale", "aria-labelledby": id });
  let problem = "";
  let busy = false;
  const word = (message) => (message ? render(message, language(), game) : "");
  const nameOf = (entry) => (entry.who ? word(entry.who) : entry.name);
  const youMark = (entry) => (seat !== null && seat !== undefined && entry.seat === seat
    ? el("span", { class: "finale-you" }, ` (${t("finale_you")})`) : null);

  function podium() {
    const places = [...new Set(finale.podium.map((p) => p.place))].sort((a, b) => a - b);
    return el("ol", { class: "podium" }, places.map((place) => {
      const who = finale.podium.filter((p) => p.place === place);
      return el("li", { class: `step step-${Math.min(place, 3)}`, "data-place": place },
        el("div", { class: "step-who" },
          who.map((p) => el("span", { class: "step-name" }, nameOf(p), youMark(p),
            p.detail ? el("small", { class: "step-detail" }, word(p.detail)) : null))),
        el("div", { class: "step-block" }, el("span", { class: "step-place" }, placeText(place))));
    }));
  }

  function awards() {
    if (!finale.awards || finale.awards.length === 0) return null;
    return el("div", { class: "awards" },
      el("h3", {}, t("finale_awards")),
      el("ul", {}, finale.awards.map((a) => el("li", {},
        el("strong", { class: "award-title" }, word(a.title)), " ",
        el("span", { class: "award-name" }, nameOf(a), youMark(a)),
        a.detail ? el("small", { class: "award-detail" }, " ", word(a.detail)) : null))));
  }

  function again() {
    if (!finale.again) return null;
    if (!isHost || !send) return el("p", { class: "note finale-wait" }, t("finale_wait"));
    const button = el("button", {
      type: "button", class: "primary again", disabled: busy,
      onclick: async () => {
        busy = true;
        problem = "";
        draw();
        try {
          await send({ type: "again" });
        } catch (e) {
          problem = e.message;
          busy = false;
          draw();
          root.querySelector("button.again")?.focus();
        }
      },
    }, t("play_again"));
    return el("div", { class: "finale-again" }, button,
      el("p", { class: "error", role: "alert" }, problem ? t("error", { message: problem }) : ""));
  }

  function draw() {
    const empty = finale.podium.length === 0;
    root.replaceChildren(...[
      el("h2", { id }, t("finale_title")),
      empty ? el("p", { class: "note" }, t("finale_none")) : podium(),
      awards(), again()].filter(Boolean));
  }

  draw();
  let shown = false;
  const off = onLanguage(() => {
    if (root.isConnected) { shown = true; draw(); } else if (shown) off();
  });
  return root;
}
