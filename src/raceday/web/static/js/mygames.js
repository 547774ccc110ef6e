// The landing page's "my games": every room this device holds a key of (the host's or a
// seat's, in its storage: common.js tokens.held), as the server tells each key at a glance
// (POST /api/my-games): the game, the code, the opponents, whose turn it is (in words: the
// state is never a colour only), and a link that opens the place. A room that is no longer
// open may be forgotten on this device. Drawn again after a language switch and when the
// page comes back into view (another device may have moved meanwhile).
import { api, el, tokens } from "./common.js";
import { keyed, onLanguage, t } from "./i18n.js";

const RANK = { turn: 0, waiting: 1, playing: 2, lobby: 3, finished: 4, gone: 5 };
const MOST = 50;  // rooms one question may ask about (the server's MAX_HELD)

// How a place is named to this key: its seat's name, a computer, a place no phone took yet
// (in the lobby), the host's screen, or its number.
function placeName(p, lobby = false) {
  if (p.name) return p.name;
  if (p.controller === "computer") return t("gp_computer_level", { level: t(`level_${p.kind}`) });
  if (lobby) return t("mg_free_place");
  if (p.controller === "screen") return t("mg_host_place");
  return t("finale_player", { n: p.place + 1 });
}

// The room's state for this key: "turn", "waiting" (another's turn), "playing" (a game
// without turns under way), "lobby", "finished" or "gone".
function stateOf(g) {
  if (!g.found) return "gone";
  if (g.finished) return "finished";
  if (g.phase === "lobby") return "lobby";
  if (g.your_turn) return "turn";
  return g.to_act === null || g.to_act === undefined ? "playing" : "waiting";
}

function statusText(g, state) {
  if (state === "turn") return t("mg_your_turn");
  if (state === "waiting") return t("mg_turn_of", { name: placeName(g.players[g.to_act]) });
  return t({ playing: "mg_playing", lobby: "mg_lobby", finished: "mg_finished", gone: "mg_gone" }[state]);
}

function entry(g, held, redraw) {
  const state = stateOf(g);
  const game = g.found ? t(g.game) : null;
  const others = (g.players || []).filter((p) => !p.mine);
  const who = g.found ? [
    el("p", { class: "mg-who" }, g.role === "host" ? t("mg_as_host") : t("mg_as_seat", { name: g.name ?? "" })),
    g.players ? el("p", { class: "mg-against" }, others.length
      ? t("mg_against", { names: others.map((p) => placeName(p, state === "lobby")) }) : t("mg_solo")) : null,
  ] : [];
  const page = held.role === "host" ? "host" : "play";
  const action = g.found
    ? el("a", { class: `button mg-open${state === "turn" ? " primary" : ""}`, href: `/${page}/${encodeURIComponent(g.code)}`,
      "aria-label": keyed("mg_open_label", { game, code: g.code }) }, t("mg_open"))
    : el("button", { type: "button", class: "small mg-forget", "aria-label": keyed("mg_forget_label", { code: g.code }),
      onclick: () => { tokens.forget(held.code, held.role); redraw(); } }, t("mg_forget"));
  return el("li", { class: `mg-item mg-${state}`, "data-code": g.code, "data-state": state },
    el("p", { class: "mg-head" }, game ? el("span", { class: "mg-game" }, game) : null, " ",
      el("span", { class: "room-code" }, g.code), g.days ? [" ", el("span", { class: "mg-days" }, t("days_badge"))] : null),
    el("p", { class: "mg-status" }, state === "turn" ? el("strong", {}, "▶ ", statusText(g, state)) : statusText(g, state)),
    who, action);
}

// Fill the section #my-games (hidden while this device holds no key).
export function myGames(error) {
  const section = document.getElementById("my-games");
  const list = document.getElementById("my-games-list");
  if (!section || !list) return;
  let answers = null;  // [[held, glance]] as last told
  const draw = () => {
    if (!answers) return;
    const shown = answers.filter(([held]) => tokens.held().some((h) => h.code === held.code && h.role === held.role));
    section.hidden = !shown.length;
    shown.sort(([, a], [, b]) => RANK[stateOf(a)] - RANK[stateOf(b)] || a.code.localeCompare(b.code));
    list.replaceChildren(...shown.map(([held, g]) => entry(g, held, draw)));
  };
  const ask = async () => {
    const held = tokens.held().slice(0, MOST);
    if (!held.length) { section.hidden = true; return; }
    try {
      const answer = await api("/api/my-games", { rooms: held.map(({ code, token }) => ({ code, token })) });
      answers = held.map((h, i) => [h, answer.rooms[i]]);
      draw();
    } catch (e) {
      error.textContent = t("error", { message: e.message });
    }
  };
  onLanguage(draw);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") ask(); });
  return ask();
}
