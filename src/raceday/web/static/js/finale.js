// The end of a game on every screen, drawn from the view's `finale` (the room kit's
// RoomBase.finale): a podium (1st, 2nd, 3rd; players tied share a step marked "=1st", and
// a step shared by more than three lays its names out side by side, so a night that ties
// everyone still fits the screen), the game's awards (an award shared by several players
// lists them all: `players`), and for the host a "Play again (same seats)" button that
// sends {type: "again"}.
// Every word comes from the message tables; a language switch redraws it. The steps rise
// in one after another (CSS; still for a reader who asked for reduced motion, and when the
// same finale is drawn again).
import { el } from "./common.js";
import { language, onLanguage, placeText, t } from "./i18n.js";
import { render } from "./present.js";

let serial = 0;
let risen = ""; // the last finale whose podium rose in on this page: drawn again, it stands still
const MANY_ON_A_STEP = 3; // more names than this on one step sit side by side

// finale: {podium: [{place, name, seat, who, detail}], awards: [{title, name, seat, detail}],
// again}. Options: game (for the game's own message keys), isHost, send (the live
// connection's send: returns a promise), seat (this phone's seat, marked "you").
export function drawFinale(finale, { game = null, isHost = false, send = null, seat = null } = {}) {
  const id = `finale-${++serial}`;
  // a page draws its finale anew on a language switch (or any redraw): the words change,
  // the show is not played again
  const facts = JSON.stringify(finale);
  const root = el("section", { class: facts === risen ? "finale is-still" : "finale", "aria-labelledby": id });
  risen = facts;
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
      const tied = who.length > 1;
      const many = who.length > MANY_ON_A_STEP;
      // the same detail for everyone on a step (a tie on money) is said once, under them
      const details = new Set(who.map((p) => word(p.detail)));
      const shared = tied && details.size === 1 && who[0].detail ? word(who[0].detail) : null;
      return el("li", { class: `step step-${Math.min(place, 3)}${many ? " step-many" : ""}`, "data-place": place },
        el("div", { class: "step-who" },
          who.map((p) => el("span", { class: "step-name" }, nameOf(p), youMark(p),
            p.detail && !shared ? el("small", { class: "step-detail" }, word(p.detail)) : null))),
        shared ? el("small", { class: "step-detail step-shared" }, shared) : null,
        el("div", { class: "step-block" }, el("span", { class: "step-place" },
          tied ? t("finale_tied_place", { place: placeText(place) }) : placeText(place))));
    }));
  }

  function awards() {
    if (!finale.awards || finale.awards.length === 0) return null;
    return el("div", { class: "awards" },
      el("h3", {}, t("finale_awards")),
      el("ul", {}, finale.awards.map((a) => el("li", { class: a.players?.length > 1 ? "award-shared" : null },
        el("strong", { class: "award-title" }, word(a.title)), " ",
        (a.players?.length ? a.players : [a]).flatMap((p, i) => [i ? " & " : null,
          el("span", { class: "award-name" }, nameOf(p), youMark(p))]).filter(Boolean),
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
    if (root.isConnected) { shown = true; root.classList.add("is-still"); draw(); } else if (shown) off();
  });
  return root;
}
