// Twin Dice Dash in the browser: one screen for the big screen, spectators and the phones.
// No rule lives here: the board comes from the server's frame, a phone's bet and choices from
// its own observation, every word from the message tables (present.js with game "twindash").
// The page sends {type: "start"}, {type: "advance"} (the host rolls) and {type: "act", action}.
import { el } from "/static/js/common.js";
import { language, onLanguage } from "/static/js/i18n.js";
import { known, render } from "/static/js/present.js";
import { useStyles } from "/static/js/rooms.js";

const GAME = "twindash";
const SIDES = ["red", "blue", "green", "yellow"];

export function say(key, params = {}) {
  return render({ key, params }, language(), GAME);
}

// An event of the game (or the kit's "started"): its sentence, or null for a kind without one.
function sentence(event) {
  const key = `event.${event.type}`;
  if (!known(key, language(), GAME)) return null;
  return say(key, event);
}

// The track: one lane a runner, `length` squares, the runner's counter on its square.
export function track(frame) {
  const lanes = frame.runners.map((runner) => {
    const cells = [];
    for (let sq = 0; sq <= frame.length; sq++) {
      const here = Math.min(runner.square, frame.length) === sq;
      cells.push(el("span", {
        class: `td-cell${here ? ` td-runner td-${SIDES[runner.id]}` : ""}${sq === frame.length ? " td-line" : ""}`,
        "data-square": sq,
      }, here ? say(`runner.${runner.id}`).slice(0, 1) : ""));
    }
    return el("div", { class: "td-lane", "data-runner": runner.id, "data-square": runner.square,
      "aria-label": `${say(`runner.${runner.id}`)}: ${runner.square}/${frame.length}` }, cells);
  });
  return el("div", { class: "td-track", role: "img" }, lanes);
}

function purses(view) {
  const frame = view.frame;
  return el("ul", { class: "td-purses" }, frame.runners.map((runner) => el("li", {
    class: `td-purse td-${SIDES[runner.id]}`, "data-runner": runner.id,
    "data-sealed": String(runner.sealed),
  }, el("strong", {}, say(`runner.${runner.id}`)), " ",
  say("ui.purse", { chips: runner.chips, square: runner.square, length: frame.length }), " ",
  el("span", { class: "td-sealed" }, say(runner.sealed ? "ui.sealed" : frame.phase === "bet" ? "ui.choosing" : "ui.blank")))));
}

function recent(view) {
  const lines = (view.recent || []).map(sentence).filter(Boolean);
  return el("ol", { class: "td-recent", "aria-live": "polite" }, lines.map((line) => el("li", {}, line)));
}

function result(view) {
  if (!view.result) return null;
  return el("p", { class: "td-result", role: "status" }, render(view.result.message, language(), GAME));
}

// The screen: mount(root, ctx) with ctx.role "host", "spectator" or "seat".
export function mountScreen(root, ctx) {
  useStyles(GAME);
  let live = null;
  let view = null;
  const send = async (intent) => {
    try {
      await live.send(intent);
      ctx.error?.show("");
    } catch (e) {
      ctx.error?.show(e.message);
    }
  };

  function lobby() {
    const seats = view.seats || [];
    const parts = [el("h2", {}, say("title")),
      el("p", { class: "td-course" }, say("ui.course", view.options)),
      el("p", { class: "td-seats" }, say("ui.seats", { count: seats.length, max: view.max_seats, names: seats }))];
    if (ctx.role === "host") {
      const url = ctx.info?.join_url ?? "";
      parts.push(el("p", {}, say("ui.join_at", { url })),
        el("img", { class: "qr", src: `/api/rooms/${ctx.code}/qr.svg`, alt: say("ui.join_at", { url }), width: 200, height: 200 }),
        el("button", { type: "button", class: "primary", id: "td-start", disabled: seats.length < view.min_seats,
          onclick: () => send({ type: "start" }) }, say("ui.start")));
    } else {
      parts.push(el("p", {}, say("ui.wait_start")));
    }
    return parts;
  }

  function mine() {
    const me = view.me;
    if (!me || !me.observation) return [];
    const obs = me.observation;
    const parts = [el("p", { class: `td-you td-${SIDES[me.seat]}` }, say("ui.you_are", { name: { key: `runner.${me.seat}` } }))];
    if (obs.my_bet) {
      const bet = obs.my_bet.stake ? say("action.bet", { name: { key: `runner.${obs.my_bet.runner}` }, stake: obs.my_bet.stake }) : say("action.pass");
      parts.push(el("p", { class: "td-my-bet" }, say("ui.sealed_by_you", { bet })));
    }
    if (me.may_act) {
      parts.push(el("p", {}, say("ui.choose", { name: { key: `runner.${me.seat}` } })),
        el("div", { class: "td-choices" }, me.choices.map((c) => el("button", {
          type: "button", class: "td-choice", "data-action": c.action,
          onclick: () => send({ type: "act", action: c.action }),
        }, render(c.message, language(), GAME)))));
    } else if (!view.result && obs.phase === "bet") {
      parts.push(el("p", { class: "td-wait" }, say("ui.wait_other")));
    } else if (!view.result) {
      parts.push(el("p", { class: "td-wait" }, say("ui.wait_roll")));
    }
    return parts;
  }

  function playing() {
    const frame = view.frame;
    const tie = view.chances[view.chances.length - 1];
    const parts = [
      el("p", { class: "td-round" }, say("ui.round", { round: frame.round, rounds: frame.rounds })),
      track(frame), purses(view),
      el("ul", { class: "td-chances" }, frame.runners.map((runner) => el("li", {},
        el("strong", {}, say(`runner.${runner.id}`)), " ", say("ui.odds", { chance: view.chances[runner.id] }))),
      el("li", {}, say("ui.tie_odds", { tie }))),
      ...mine(),
    ];
    if (ctx.role === "host" && view.may_advance) {
      parts.push(el("button", { type: "button", class: "primary", id: "td-roll", onclick: () => send({ type: "advance" }) }, say("ui.roll")));
    }
    parts.push(result(view), recent(view));
    return parts;
  }

  function draw() {
    if (!view) return;
    root.dataset.phase = view.phase;
    const phase = view.frame?.phase ?? view.phase;  // bet, roll, over (or the lobby)
    root.replaceChildren(el("section", { class: "td-screen", "data-phase": phase, "data-round": view.frame?.round ?? 0 },
      view.phase === "lobby" ? lobby() : playing()));
  }

  onLanguage(draw);
  return {
    connect(l) { live = l; },
    welcome(v) { view = v; draw(); },
    update(v) { view = v; draw(); },
  };
}
