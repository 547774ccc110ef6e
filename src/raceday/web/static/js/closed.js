// A room closed after a long time without play: the big screen and the phone say so in
// the reader's language (again after a language switch) and offer the way on: the replay
// of a finished room, and the landing page to start or join another party.
import { api, el } from "./common.js";
import { languageButton, onLanguage, refusal, t } from "./i18n.js";

const CLOSED = "refusal.room_closed";
const FINISHED = "refusal.room_closed_finished";

// Whether a refusal (an Error from api(), or an error frame) says the room is closed.
export function isClosed(error) {
  const key = error && error.words && error.words.key;
  return key === CLOSED || key === FINISHED;
}

// The notice for the closed room `code`, from its refusal `error`.
export function closedNotice(code, error) {
  const finished = error.words.key === FINISHED;
  const line = el("p", { class: "error", role: "alert" });
  const replay = finished ? el("a", { href: `/replay/room/${encodeURIComponent(code)}`, class: "primary" }) : null;
  const home = el("a", { href: "/" });
  const title = el("h2", {});
  const draw = () => {
    title.textContent = t("room", { code });
    line.textContent = refusal({ words: error.words }, error.message);
    if (replay) replay.textContent = t("room_closed_replay", { code });
    home.textContent = t("room_closed_new");
  };
  draw();
  onLanguage(draw);
  return el("section", { class: "card closed-room" }, title, line,
    replay ? el("p", {}, replay) : null, el("p", {}, home));
}

// The room a page is for, as openRoom in common.js gives it; when it cannot be had, the
// page shows why: the closed-room notice, or the refusal and the nodes in `after`.
export async function openRoomOrNotice(code, app, ...after) {
  try {
    return await api(`/api/rooms/${encodeURIComponent(code)}`);
  } catch (e) {
    if (isClosed(e)) app.replaceChildren(closedNotice(code, e));
    else {
      document.body.classList.add("landing", "notfound");
      app.replaceChildren(...refusedPage(e, ...after));
    }
    return null;
  }
}

// A whole page for a room that cannot be opened (an unknown code): the bar with the
// language button, the refusal, the nodes in `after` and the way back to the start page.
function refusedPage(error, ...after) {
  const title = el("h1", {});
  const line = el("p", { class: "error", role: "alert" });
  const home = el("a", { href: "/", class: "primary" });
  const draw = () => {
    title.textContent = t("title");
    line.textContent = t("error", { message: refusal({ words: error.words }, error.message) });
    home.textContent = t("nf_home");
  };
  draw();
  onLanguage(draw);
  return [el("header", { class: "bar" }, title, el("span", { id: "lang" }, languageButton())),
    el("main", { class: "landing-main" }, el("section", { class: "card" }, line, ...after, el("p", {}, home)))];
}

// After a fatal refusal on the live connection: if the room has closed meanwhile (a phone
// that slept through the night), the notice replaces the whole page in `app` (header,
// status and error line too, as when the page is opened); says whether it did.
export async function noticeIfClosed(code, app) {
  try {
    await api(`/api/rooms/${encodeURIComponent(code)}`);
    return false;
  } catch (e) {
    if (!isClosed(e)) return false;
    app.replaceChildren(closedNotice(code, e));
    return true;
  }
}
