// A phone: joins the room with a name (or rejoins from its stored token, or from its seat's
// link /play/CODE#seat=KEY), then hands over to the game's phone module. In a game played
// over days the seat's own link is offered under it (days.js).
import { api, el, errorLine, roomCode, roomCodeTag, statusLine, tokens } from "./common.js";
import { noticeIfClosed, openRoomOrNotice } from "./closed.js";
import { keyLinkPanel } from "./days.js";
import { connectScreen } from "./screen.js";
import { soundButton } from "./sound.js";
import { languageButton, onLanguage, t } from "./i18n.js";

const code = roomCode();
const app = document.getElementById("app");

async function main() {
  const status = statusLine();
  const error = errorLine();
  // a closed room: its notice (with the replay of a finished one)
  const info = await openRoomOrNotice(code, app);
  if (!info) return;
  tokens.fromLink(code, "seat");  // a seat's own link: its key kept on this device
  const token = tokens.seat(code);
  // a phone that comes after the start cannot take a seat (the server refuses): it watches
  if (!token && info.phase !== "lobby") {
    window.location.replace(`/watch/${encodeURIComponent(code)}`);
    return;
  }
  const title = () => { document.title = `${t(info.game)} ${code} — raceday`; };
  title();
  onLanguage(title);
  const header = el("header", { class: "bar" },
    el("h1", {}, el("span", { "data-i18n": info.game }, t(info.game)), " ", roomCodeTag(code)),
    status.node, soundButton(), languageButton());
  const main = el("main", { id: "phone" });
  app.replaceChildren(header, error.node, main);
  if (token) start(token, info, main, status, error);
  else joinForm(info, main, status, error);
}

// Under the join form, for a game that ships a lesson: "New to this game? Learn to play"
// (a new tab, so the seat waits here). The phone, not the big screen: the TV is the show.
async function learnOffer(game, form) {
  const lessons = await api("/api/learn").then((a) => a.games.map((l) => l.game), () => []);
  if (!lessons.includes(game) || !form.isConnected) return;
  form.append(el("p", { class: "learn-link lobby-learn" },
    el("a", { href: `/learn/${encodeURIComponent(game)}`, target: "_blank", rel: "noopener" },
      t("learn_new"))));
}

function joinForm(info, main, status, error) {
  const input = el("input", { name: "name", required: true, maxlength: 20, autocomplete: "nickname", id: "name" });
  const form = el("form", { class: "card join" },
    el("h2", {}, t("join_title")),
    el("label", { for: "name" }, t("your_name")), input,
    el("button", { type: "submit", class: "primary" }, t("join")),
    el("p", {}, el("a", { href: `/watch/${code}` }, t("watch"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const seat = await api(`/api/rooms/${encodeURIComponent(code)}/join`, { name: input.value });
      tokens.setSeat(code, seat.token);
      start(seat.token, info, main, status, error);
    } catch (e) {
      error.show(e);
    }
  });
  main.replaceChildren(form);
  learnOffer(info.game, form);
  input.focus();
  onLanguage(() => { if (form.isConnected) joinForm(info, main, status, error); });
}

async function start(token, info, main, status, error) {
  const game = await import(`/games/${info.game}/static/play.js`);
  const screen = game.mount(main, { code, info, error });
  const panel = info.days ? keyLinkPanel(info, code, "seat", token) : null;
  if (panel) main.after(panel);
  connectScreen(code, token, screen, {
    status, error, main,
    fatal: (m) => {
      panel?.remove();
      tokens.forgetSeat(code);
      error.show(m);
      main.replaceChildren(el("p", {}, t("lost_seat", { code })),
        el("p", {}, el("a", { href: `/play/${code}` }, t("join"))));
      noticeIfClosed(code, app);  // the room closed while this phone slept: only its notice
    },
  });
}

main();
