// KEIRIN on the big screen: lobby with code and QR, the odds board (fixed odds) or the live
// tote board (pools), the race on an SVG velodrome step by step (the server plays each step
// at the room's pace; the host may pause, resume, step or skip), results with payouts and
// every player's purse, standings.
// Every number shown comes from the server's view or events.
import { el } from "/static/js/common.js";
import { onLanguage, t } from "/static/js/i18n.js";
import { cash, ensureStyles, eventText, KIND_ORDER, oddsText, riderTag, ridersTag, Velodrome } from "./track.js";

// ?speed=0.5 on the host's address asks the server for a faster pace (a rehearsal, a test)
function requestedPace() {
  const raw = new URLSearchParams(location.search).get("speed");
  const n = raw === null ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.min(Math.max(STEP_S * n, 0.2), 10) : null;
}

const STEP_S = 2.2; // the room's own pace: seconds between two steps of a race
const MOVE_SHARE = 0.45; // riders glide to their new squares in this share of a step

export function mount(root, ctx) {
  ensureStyles();
  const isHost = ctx.role === "host";
  let paceAsked = false;
  let view = null;
  let live = null;
  let track = null;
  let trackKey = "";
  const ticker = [];

  const heading = el("h2", { class: "kr-heading" });
  const trackBox = el("div", { class: "kr-track" });
  const status = el("p", { class: "kr-status", "aria-live": "polite" });
  const throwsBox = el("div", { class: "kr-throws" });
  const controls = el("section", { class: "controls" });
  const stage = el("section", { class: "kr-stage" });
  const tickerBox = el("ol", { class: "ticker", "aria-live": "polite", "aria-label": t("commentary") });
  const side = el("aside", { class: "side kr-side" });
  const boards = el("div", { class: "kr-side-boards" });
  side.append(boards, tickerBox);
  root.replaceChildren(el("div", { class: "host-grid keirin" },
    el("div", { class: "main-col" }, heading, trackBox, status, throwsBox, controls, stage), side));

  function send(intent) {
    if (!live) return Promise.resolve();
    return live.send(intent).then(() => ctx.error.show("")).catch((e) => ctx.error.show(e.message));
  }

  // --- the race ------------------------------------------------------------------------
  function ensureTrack(v) {
    const key = `${v.config.riders}:${v.config.length}:${document.documentElement.lang}`;
    if (!track || key !== trackKey) {
      track = new Velodrome({ riders: v.config.riders, finish: v.config.length, lap: v.config.lap });
      trackKey = key;
      trackBox.replaceChildren(track.node);
      return true;
    }
    return false;
  }

  function drawTrack(v, animate) {
    const fresh = ensureTrack(v);
    const lv = v.live;
    if (lv) {
      const starting = lv.step.some((e) => e.type === "derny");
      track.set(lv.positions, starting ? lv.derny : null, { animate: animate && !fresh, ms: moveMs(v) });
      if (!lv.positions || !Object.keys(lv.positions).length) {
        track.label(t("kr_betting_closed"), t("kr_derny_waits"));
      } else if (lv.phase === "photo") {
        track.label(t("kr_photo"), t("kr_turn", { n: lv.turn }));
      } else if (lv.phase === "over") {
        track.label(t("kr_over_line"), "");
      } else {
        track.label(t("kr_laps_to_go", { n: lv.laps_to_go }), t("kr_squares_to_go", { n: lv.to_go, turn: lv.turn }));
      }
    } else if (v.last) {
      const pos = {};
      v.last.positions.forEach((s, i) => { pos[i + 1] = s; });
      track.set(pos, null, { animate: animate && !fresh, ms: moveMs(v) });
      track.label(t("kr_winner", { n: v.last.ranking[0] }), t("kr_race_result", { race: v.last.race }));
    } else {
      track.set({}, null, { animate: false });
      track.label(t("keirin"), t("kr_lap_note", { finish: v.config.length }));
    }
  }

  function drawThrows(v) {
    const lv = v.live;
    const step = lv ? lv.step : [];
    const throws = step.filter((e) => e.type === "throw" || e.type === "photo_throw");
    if (!throws.length) { throwsBox.replaceChildren(); return; }
    throwsBox.replaceChildren(el("ul", { class: "kr-throw-list", "aria-label": t("kr_throws") },
      throws.map((e) => el("li", {}, riderTag(e.rider), " ",
        el("span", { class: "dice" }, (e.dice || []).join(" ")), " ",
        el("strong", {}, `+${e.advance}`)))));
  }

  function orderTable(v) {
    const lv = v.live;
    if (!lv || !Object.keys(lv.positions).length) return null;
    const riders = Object.keys(lv.positions).map(Number);
    const ranked = lv.ranked;
    const rest = riders.filter((r) => !ranked.includes(r)).sort((a, b) => lv.positions[b] - lv.positions[a] || a - b);
    const front = rest.length ? lv.positions[rest[0]] : null;
    return el("table", { class: "kr-order" },
      el("caption", {}, t("kr_running_order")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("kr_rider_col")),
        el("th", { scope: "col" }, t("kr_square")), el("th", { scope: "col" }, t("kr_gap")))),
      el("tbody", {}, [...ranked, ...rest].map((r, i) => el("tr", { class: ranked.includes(r) ? "placed" : "" },
        el("td", { class: "num" }, String(i + 1)), el("th", { scope: "row" }, riderTag(r)),
        el("td", { class: "num" }, String(lv.positions[r])),
        el("td", { class: "num" }, ranked.includes(r) ? t("kr_placed") : (lv.positions[r] === front ? t("kr_lead") : `−${front - lv.positions[r]}`))))));
  }

  // --- boards ---------------------------------------------------------------------------
  function winBoard(v) {
    const rows = v.board.top.win.slice().sort((a, b) => a.riders[0] - b.riders[0]);
    const tote = v.tote?.win;
    const stakes = {};
    if (tote) for (const c of tote.combos) stakes[c.key] = c;
    const max = tote ? Math.max(1, ...tote.combos.map((c) => c.stake)) : 1;
    return el("table", { class: "board kr-win" },
      el("caption", {}, tote ? `${t("kr_tote")} — ${t("kr_win")} (${t("kr_pool")} ${cash(tote.pool)})` : `${t("board")} — ${t("kr_win")}`),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("kr_rider_col")), el("th", { scope: "col" }, t("chance")),
        tote ? el("th", { scope: "col" }, t("kr_staked")) : null,
        el("th", { scope: "col" }, tote ? t("kr_pays_now") : t("odds")))),
      el("tbody", {}, rows.map((row) => {
        const c = stakes[row.key];
        let bar = null;
        if (tote) {
          const fill = el("span", { class: "kr-bar", "aria-hidden": "true" });
          fill.style.width = `${Math.round(((c?.stake || 0) / max) * 100)}%`; // CSSOM: allowed by the CSP
          bar = el("td", { class: "num kr-bar-cell" }, fill, el("span", { class: "kr-bar-text" }, cash(c?.stake || 0)));
        }
        return el("tr", {}, el("th", { scope: "row" }, riderTag(row.riders[0])),
          el("td", { class: "num" }, `${(row.chance * 100).toFixed(1)}%`), bar,
          el("td", { class: "num odds" }, tote ? (c?.pays ? `×${c.pays.toFixed(2)}` : "—") : oddsText(row.odds)));
      })));
  }

  function otherBoards(v) {
    const out = [];
    for (const kind of KIND_ORDER.slice(1)) {
      if (v.tote) {
        const pool = v.tote[kind];
        out.push(el("div", { class: "kr-pool" },
          el("h3", {}, t(`kr_${kind}`), " ", el("span", { class: "note" }, t("kr_pool_line", { pool: cash(pool.pool), n: pool.tickets }))),
          pool.combos.length ? el("ol", { class: "kr-combos" }, pool.combos.slice(0, 4).map((c) => el("li", {},
            ridersTag(c.riders, kind, v.config.kinds), " ", el("span", { class: "num" }, cash(c.stake)),
            " ", el("span", { class: "odds" }, c.pays ? `×${c.pays.toFixed(2)}` : "—")))) : null));
      } else {
        out.push(el("div", { class: "kr-pool" },
          el("h3", {}, t(`kr_${kind}`), " ", el("span", { class: "note" }, t("kr_most_likely"))),
          el("ol", { class: "kr-combos" }, v.board.top[kind].slice(0, 4).map((c) => el("li", {},
            ridersTag(c.riders, kind, v.config.kinds), " ", el("span", { class: "odds" }, oddsText(c.odds)))))));
      }
    }
    return el("div", { class: "kr-boards" }, out);
  }

  function standingsTable(v, title) {
    return el("table", { class: "standings" },
      el("caption", {}, title),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rank")), el("th", { scope: "col" }, t("player")),
        el("th", { scope: "col" }, t("kr_purse")), el("th", { scope: "col" }, t("kr_hits")))),
      el("tbody", {}, v.standings.map((s) => el("tr", {}, el("td", { class: "num" }, String(s.rank)),
        el("th", { scope: "row" }, s.name), el("td", { class: "num" }, cash(s.purse)),
        el("td", { class: "num" }, `${s.won}/${s.tickets}`)))));
  }

  function resultCard(v) {
    const last = v.last;
    if (!last) return null;
    const kinds = v.config.kinds;
    const pools = last.pools || {};
    const winners = el("table", { class: "kr-winners" },
      el("caption", {}, t("kr_winning")),
      el("tbody", {}, KIND_ORDER.map((k) => el("tr", {}, el("th", { scope: "row" }, t(`kr_${k}`)),
        el("td", {}, ridersTag(last.winners[k], k, kinds)),
        pools[k] ? el("td", { class: "num" }, pools[k].refunded ? t("kr_refunded") : `×${(pools[k].dividend ?? 0).toFixed(2)}`) : null))));
    const players = el("table", { class: "kr-payouts" },
      el("caption", {}, t("kr_purses")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("player")), el("th", { scope: "col" }, t("kr_staked")),
        el("th", { scope: "col" }, t("kr_returned")), el("th", { scope: "col" }, t("kr_purse")))),
      el("tbody", {}, last.players.map((p) => el("tr", { class: p.returned > p.staked ? "up" : "" },
        el("th", { scope: "row" }, p.name), el("td", { class: "num" }, cash(p.staked)),
        el("td", { class: "num" }, cash(p.returned)), el("td", { class: "num" }, cash(p.purse))))));
    return el("div", { class: "card result kr-result" },
      el("h2", {}, t("kr_race_result", { race: last.race })),
      el("ol", { class: "kr-podium" }, last.ranking.slice(0, 3).map((r, i) => el("li", {}, riderTag(r, "big"), " ", t(`place_${i + 1}`)))),
      el("p", { class: "note" }, t("kr_full_order"), " ", last.ranking.join(" – ")),
      el("div", { class: "kr-result-tables" }, winners, players));
  }

  function chips(v) {
    return el("ul", { class: "chips" }, v.players.map((p) =>
      el("li", { class: p.done ? "chip ok" : "chip" }, `${p.done ? "✓" : "…"} ${p.name}`)));
  }

  // --- phases ---------------------------------------------------------------------------
  function renderLobby(v) {
    heading.textContent = t("keirin");
    trackBox.replaceChildren();
    track = null;
    status.textContent = "";
    const joinUrl = ctx.info.join_url;
    stage.replaceChildren(el("div", { class: "lobby" },
      el("div", { class: "join-box" },
        el("p", { class: "big-code", "aria-label": t("room", { code: ctx.code }) }, ctx.code),
        el("img", { class: "qr", src: `/api/rooms/${ctx.code}/qr.svg`, alt: t("join_at", { url: joinUrl }), width: 280, height: 280 }),
        el("p", {}, t("scan")), el("p", { class: "url" }, joinUrl),
        el("p", {}, el("a", { href: ctx.info.watch_url }, t("spectator_link")))),
      el("div", { class: "seats card" },
        el("h2", {}, t("seats", { n: v.seats.length, max: v.max_seats })),
        v.seats.length ? el("ol", {}, v.seats.map((n) => el("li", {}, n))) : el("p", {}, t("nobody_yet")),
        el("p", { class: "note" }, t("kr_night", { races: v.config.races, riders: v.config.riders,
          mode: t(v.config.mode === "pool" ? "kr_mode_pool" : "kr_mode_fixed"), bankroll: cash(v.config.bankroll_cents) })))));
    controls.replaceChildren(isHost ? el("button", { type: "button", class: "primary", onclick: () => send({ type: "start" }) }, t("start")) : "");
  }

  function renderBetting(v) {
    heading.textContent = t("kr_betting", { race: v.race, races: v.races });
    status.textContent = v.config.mode === "pool" ? t("kr_pool_note", { margin: Math.round(v.config.margin * 100) }) : t("kr_fixed_note");
    stage.replaceChildren(el("div", { class: "betting" },
      el("h3", {}, t("betting_players")), chips(v), resultCard(v)));
    controls.replaceChildren(...(isHost ? [
      el("button", { type: "button", class: "primary", onclick: () => send({ type: "close_betting" }) }, t("kr_close_betting")),
      " ",
      el("button", { type: "button", onclick: () => { if (confirm(t("kr_confirm_finish"))) send({ type: "finish" }); } }, t("kr_finish_night")),
    ] : []));
  }

  function renderRacing(v) {
    const lv = v.live;
    heading.textContent = t("kr_racing", { race: v.race, races: v.races });
    status.textContent = lv.phase === "derny" ? t("kr_derny_waits") : "";
    stage.replaceChildren(orderTable(v) || "");
    if (!isHost) { controls.replaceChildren(); return; }
    const paused = Boolean(v.timeline?.paused);
    const pause = el("button", { type: "button", class: "primary", "aria-pressed": String(paused),
      onclick: () => send({ type: paused ? "resume" : "pause" }) }, paused ? t("kr_resume") : t("kr_pause"));
    const next = el("button", { type: "button", onclick: () => send({ type: "advance" }) }, t("kr_next_step"));
    const skip = el("button", { type: "button", onclick: () => send({ type: "skip" }) }, t("kr_skip_race"));
    controls.replaceChildren(pause, " ", next, " ", skip);
  }

  function renderFinished(v) {
    heading.textContent = t("over");
    status.textContent = "";
    stage.replaceChildren(el("div", { class: "finished" }, standingsTable(v, t("final")), resultCard(v)));
    controls.replaceChildren(isHost ? el("a", { href: "/", class: "button" }, t("new_party")) : "");
  }

  function renderSide(v) {
    const parts = [];
    if (v.board && (v.phase === "betting" || v.phase === "racing")) parts.push(winBoard(v), otherBoards(v));
    if (v.standings && v.phase !== "finished") parts.push(standingsTable(v, t("standings")));
    boards.replaceChildren(...parts);
  }

  function drawTicker() {
    tickerBox.replaceChildren(...ticker.slice().reverse().map((line, i) =>
      el("li", { class: i === 0 ? "latest" : "" }, line)));
  }

  function render(animate) {
    if (!view) return;
    const v = view;
    document.body.dataset.phase = v.phase;
    if (v.phase === "lobby") { renderLobby(v); boards.replaceChildren(); return; }
    drawTrack(v, animate);
    drawThrows(v);
    if (v.phase === "betting") renderBetting(v);
    else if (v.phase === "racing") renderRacing(v);
    else renderFinished(v);
    renderSide(v);
    drawTicker();
  }

  // riders glide for part of a step, so each move ends before the server's next one
  function moveMs(v) {
    return Math.round(1000 * (v.timeline?.pace ?? STEP_S) * MOVE_SHARE);
  }

  // the host's address may ask for another pace, once, when the night is under way
  function askPace(v) {
    const pace = requestedPace();
    if (!isHost || paceAsked || pace === null || v.phase === "lobby" || v.phase === "finished") return;
    paceAsked = true;
    if (v.timeline?.pace !== pace) send({ type: "pace", seconds: pace });
  }

  function note(events) {
    for (const e of events) {
      const text = eventText(e);
      if (text) ticker.push(text);
    }
    while (ticker.length > 6) ticker.shift();
  }

  onLanguage(() => { trackKey = ""; render(false); });

  return {
    connect(l) { live = l; },
    welcome(v, events) {
      view = v;
      note(events);
      render(false);
      askPace(v);
    },
    update(v, events) {
      view = v;
      note(events);
      render(true);
      askPace(v);
    },
  };
}
