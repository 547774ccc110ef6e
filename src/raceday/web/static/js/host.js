// The big screen (host or spectator): finds the room's game and hands over to its module.
// The host's own link (/host/CODE#host=KEY) keeps its key on this device; in a game played
// over days the host is offered that link under the screen (days.js).
import { el, errorLine, pageKind, roomCode, roomCodeTag, statusLine, tokens } from "./common.js";
import { noticeIfClosed, openRoomOrNotice } from "./closed.js";
import { keyLinkPanel } from "./days.js";
import { connectScreen } from "./screen.js";
import { soundButton } from "./sound.js";
import { languageButton, onLanguage, t } from "./i18n.js";

const code = roomCode();
const watching = pageKind() === "watch";
const app = document.getElementById("app");

// A host link printed by `raceday serve --record` carries the host's token after `#host=`:
// kept in this browser like a token the landing page got, then taken out of the address.
const given = /(?:^#|&)host=([A-Za-z0-9_-]{8,200})/.exec(location.hash);
if (given && !watching) {
  tokens.setHost(code, given[1]);
  history.replaceState(null, "", location.pathname);
}

async function main() {
  const status = statusLine();
  const error = errorLine();
  const info = await openRoomOrNotice(code, app);  // a closed room: its notice
  if (!info) return;
  if (!watching) tokens.fromLink(code, "host");
  const token = watching ? null : tokens.host(code);
  const role = token ? "host" : "spectator";
  const game = await import(`/games/${info.game}/static/host.js`);
  const title = () => { document.title = `${t(info.game)} ${code} — raceday`; };
  title();
  onLanguage(title);
  const header = el("header", { class: "bar" },
    el("h1", {}, el("span", { "data-i18n": info.game }, t(info.game)),
      " ", roomCodeTag(code)),
    el("span", { class: "role", "data-i18n": role === "host" ? "host_mode" : "spectating" },
      t(role === "host" ? "host_mode" : "spectating")),
    status.node, soundButton(), languageButton());
  const main = el("main", { id: "screen" });
  app.replaceChildren(header, error.node, main);
  if (role === "host" && info.days) main.after(keyLinkPanel(info, code, "host", token));
  const screen = game.mount(main, { code, info, role, error });
  connectScreen(code, token, screen, {
    status, error, main,
    fatal: (m) => { error.show(m); noticeIfClosed(code, app); },
  });
}

main();
