// KEIRIN on the big screen, laid out to fit a 1920×1080 TV in every phase without
// scrolling: a stage on the left (the lobby's code, the velodrome, the last race's result,
// the finale) and a side column on the right that always shows the standings, with the odds
// or tote board while betting and the running order during the race. The server plays
// each race step at the room's pace (the host may pause, step, skip); riders glide from
// their previous squares. The finish is a step of its own (the order, a photo-finish if the
// engine called one); the payouts and standings come with the next step.
// Every number shown comes from the server's view or events.
import { el, paceFromAddress } from "/static/js/common.js";
import { drawFinale } from "/static/js/finale.js";
import { keyed, onLanguage, placeText, t } from "/static/js/i18n.js";
import { seatList, standInMark, standInOf, standInPanel } from "/static/js/rooms.js";
import { cue } from "/static/js/sound.js";
import { createAnnouncer } from "/static/js/announcer.js";
import { cash, ensureStyles, eventText, KIND_ORDER, oddsText, payoutMoment, photoStrip, RaceMoments, riderTag, ridersTag, Velodrome } from "./track.js";

const STEP_S = 2.2; // the room's own pace: seconds between two steps of a race
const MOVE_SHARE = 0.6; // riders glide to their new squares in this share of a step
const NEWS = 2; // the latest event lines shown under the stage

// The computer bettors the start form offers: ?computers=N in the page's address (the
// lesson's first night asks for one), else none.
export function startingComputers(v, search = location.search) {
  const asked = new URLSearchParams(search).get("computers");
  if (asked !== null && /^[0-9]+$/.test(asked)) return Math.min(Number(asked), v.max_seats - v.seats.length);
  return 0;
}

// "(computer: cautious)" after a computer bettor's name, or a stand-in's mark for a seat
export function whoMark(v, player) {
  const cpu = (v.computers || []).find((c) => c.player === player);
  if (!cpu) return standInOf(v, player);
  const mark = standInMark(cpu.level);
  return mark.startsWith("（") ? mark : ` ${mark}`;
}

export function mount(root, ctx) {
  ensureStyles();
  const isHost = ctx.role === "host";
  const askPace = paceFromAddress(STEP_S, isHost, (intent) => send(intent));
  let view = null;
  let computersWanted = null;  // the start form's number, kept across redraws
  let startKey = "";
  let live = null;
  let track = null;
  let trackKey = "";
  let finaleKey = "";
  let cued = "";  // the last moment a sound was played for (once each, not on every redraw)
  const news = [];

  const heading = el("h2", { class: "kr-heading" });
  const controls = el("div", { class: "controls kr-controls" });
  const stage = el("div", { class: "kr-stage" });
  const trackBox = el("div", { class: "kr-track" });
  const moment = el("div", { class: "kr-moment", "aria-live": "polite" });
  const announcer = createAnnouncer();
  const moments = new RaceMoments();
  const callouts = el("div", { class: "kr-callouts" }, moment);  // over the infield
  const trackWrap = el("div", { class: "kr-track-wrap" }, trackBox, callouts);
  const status = el("p", { class: "kr-status" });
  const throwsBox = el("div", { class: "kr-throws" });
  const newsBox = el("ol", { class: "kr-news", "aria-label": keyed("commentary") });
  const side = el("aside", { class: "kr-side", "aria-label": keyed("standings") });
  const main = el("div", { class: "kr-main" },
    el("div", { class: "kr-head" }, heading, controls, announcer.button), announcer.line, stage, status, throwsBox, newsBox);
  const screen = el("div", { class: "kr-tv" }, main, side);
  root.replaceChildren(screen);

  // the screen is exactly the window below the shared header: nothing to scroll
  function fitHeight() {
    const top = Math.max(0, screen.getBoundingClientRect().top + window.scrollY);
    screen.style.setProperty("--kr-h", `${Math.max(320, window.innerHeight - top)}px`);
  }
  window.addEventListener("resize", fitHeight);

  function send(intent) {
    if (!live) return Promise.resolve();
    return live.send(intent).then(() => ctx.error.show("")).catch((e) => ctx.error.show(e.message));
  }

  function reduced() {
    return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
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
    const opts = { animate: animate && !fresh && !reduced(), ms: moveMs(v) };
    if (lv) {
      const starting = lv.step.some((e) => e.type === "derny");
      track.set(lv.positions, starting ? lv.derny : null, opts);
      const running = lv.phase !== "over";
      track.stage({ pullingOff: lv.step.some((e) => e.type === "slipstream"), bell: running && lv.bell, sprint: running && lv.sprint });
      if (!lv.positions || !Object.keys(lv.positions).length) {
        track.label(t("kr_betting_closed"), t("kr_derny_waits"));
      } else if (lv.phase === "photo") {
        track.label(t("kr_photo"), t("kr_turn", { n: lv.turn }));
      } else if (lv.phase === "over") {
        track.label(t("kr_over_line"), t("kr_results_next"));
      } else {
        track.label(t("kr_laps_to_go", { n: lv.laps_to_go }), t("kr_squares_to_go", { n: lv.to_go, turn: lv.turn }));
      }
    } else if (v.last) {
      const pos = {};
      v.last.positions.forEach((s, i) => { pos[i + 1] = s; });
      track.set(pos, null, opts);
      track.stage();
      track.label(t("kr_winner", { n: v.last.ranking[0] }), t("kr_race_result", { race: v.last.race }));
    } else {
      track.set({}, null, { animate: false });
      track.stage();
      track.label(t("keirin"), t("kr_lap_note", { finish: v.config.length }));
    }
  }

  // a photo-finish called by the engine (its events), or the finish with the order
  function drawMoment(v) {
    const lv = v.live;
    const step = lv ? lv.step : [];
    const photo = step.filter((e) => e.type === "photo_finish").pop();
    const throws = step.filter((e) => e.type === "photo_throw");
    const result = step.find((e) => e.type === "result");
    delete document.body.dataset.finish;
    if (result) {
      document.body.dataset.finish = String(v.race);
      moment.replaceChildren(el("div", { class: "kr-finish" },
        el("p", { class: "kr-finish-title" }, t("kr_winner", { n: result.ranking[0] })),
        el("ol", { class: "kr-finish-order", "aria-label": keyed("kr_full_order") },
          result.ranking.map((r, i) => el("li", {}, el("span", { class: "kr-place" }, placeText(i + 1)), riderTag(r, i === 0 ? "big" : "")))),
        moments.together && moments.race === v.race ? photoStrip(moments.together) : null));
      if (cued !== `finish:${v.race}`) { cued = `finish:${v.race}`; cue("finish"); }
    } else if (photo || throws.length) {
      const riders = photo ? photo.riders : throws.map((e) => e.rider);
      moment.replaceChildren(el("div", { class: "kr-photo" },
        el("p", { class: "kr-photo-title" }, t("kr_photo")),
        photo ? el("p", {}, t("kr_photo_for", { place: placeText(photo.for_place) })) : null,
        el("ul", { class: "kr-photo-riders" }, riders.map((r) => {
          const thrown = throws.find((e) => e.rider === r);
          return el("li", {}, riderTag(r, "big"), thrown ? el("strong", {}, ` ${thrown.dice ? thrown.dice.join(" ") : ""} → ${thrown.value ?? thrown.advance ?? ""}`) : null);
        }))));
    } else {
      moment.replaceChildren();
    }
  }

  function drawThrows(v) {
    const lv = v.live;
    const step = lv ? lv.step : [];
    const throws = step.filter((e) => e.type === "throw");
    if (!throws.length) { throwsBox.replaceChildren(); return; }
    throwsBox.replaceChildren(el("ul", { class: "kr-throw-list", "aria-label": keyed("kr_throws") },
      throws.map((e) => el("li", {}, riderTag(e.rider),
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

  // the other bet types, one line each: the favourite (fixed odds) or the pool's size
  function otherBoards(v) {
    return el("table", { class: "kr-others" },
      el("caption", {}, v.tote ? t("kr_pools") : t("kr_favourites")),
      el("tbody", {}, KIND_ORDER.slice(1).map((kind) => {
        if (v.tote) {
          const pool = v.tote[kind];
          return el("tr", {}, el("th", { scope: "row" }, t(`kr_${kind}`)),
            el("td", { class: "num" }, cash(pool.pool)), el("td", { class: "num note" }, t("kr_tickets_n", { n: pool.tickets })));
        }
        const c = v.board.top[kind][0];
        return el("tr", {}, el("th", { scope: "row" }, t(`kr_${kind}`)),
          el("td", {}, ridersTag(c.riders, kind, v.config.kinds)), el("td", { class: "num odds" }, oddsText(c.odds)));
      })));
  }

  function standingsTable(v, title) {
    const many = v.standings.length > 6;
    return el("table", { class: `standings kr-standings${many ? " many" : ""}` },
      el("caption", {}, title),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rank")), el("th", { scope: "col" }, t("player")),
        el("th", { scope: "col" }, t("kr_purse")), many ? null : el("th", { scope: "col" }, t("kr_hits")))),
      el("tbody", {}, v.standings.map((s) => el("tr", {}, el("td", { class: "num" }, String(s.rank)),
        el("th", { scope: "row" }, s.name, el("span", { class: "kr-who" }, whoMark(v, s.player))), el("td", { class: "num" }, cash(s.purse)),
        many ? null : el("td", { class: "num" }, `${s.won}/${s.tickets}`)))));
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
        el("th", { scope: "col" }, t("kr_returned")))),
      // with many players, those who bet on the race (the standings list everyone)
      el("tbody", {}, last.players.filter((p) => last.players.length <= 6 || p.staked > 0).map((p) => el("tr", { class: p.returned > p.staked ? "up" : "" },
        el("th", { scope: "row" }, p.name), el("td", { class: "num" }, cash(p.staked)),
        el("td", { class: "num" }, cash(p.returned))))));
    return el("section", { class: "kr-result", "aria-label": keyed("kr_race_result", { race: last.race }) },
      el("h3", {}, t("kr_race_result", { race: last.race })),
      el("ol", { class: "kr-podium" }, last.ranking.slice(0, 3).map((r, i) => el("li", {}, riderTag(r, "big"), " ", placeText(i + 1)))),
      el("p", { class: "kr-full" }, t("kr_full_order"), " ", last.ranking.join(" – ")),
      el("div", { class: "kr-result-tables" }, winners, players));
  }

  function chips(v) {
    return el("ul", { class: "chips", "aria-label": keyed("betting_players") }, v.players.map((p) =>
      el("li", { class: p.done ? "chip ok" : "chip" }, `${p.done ? "✓" : "…"} ${p.name}${whoMark(v, p.index)}`)));
  }

  function button(label, intent, attrs = {}) {
    return el("button", { type: "button", onclick: () => send(intent), ...attrs }, label);
  }

  // --- phases ---------------------------------------------------------------------------
  function renderLobby(v) {
    heading.textContent = t("keirin");
    track = null;
    status.textContent = "";
    const joinUrl = ctx.info.join_url;
    stage.replaceChildren(el("div", { class: "lobby kr-lobby" },
      el("div", { class: "join-box" },
        el("p", { class: "big-code", "aria-label": keyed("room", { code: ctx.code }) }, ctx.code),
        el("img", { class: "qr", src: `/api/rooms/${ctx.code}/qr.svg`, alt: keyed("join_at", { url: joinUrl }), width: 300, height: 300 }),
        el("p", {}, t("scan")), el("p", { class: "url" }, joinUrl),
        el("p", {}, el("a", { href: ctx.info.watch_url }, t("spectator_link"))))));
    side.replaceChildren(el("div", { class: "seats" },
      el("h3", {}, t("seats", { n: v.seats.length, max: v.max_seats })),
      v.seats.length ? seatList(v.seats, isHost, send) : el("p", {}, t("nobody_yet")),
      el("p", { class: "note" }, t("kr_night", { n: v.config.races, riders: v.config.riders,
        mode: t(v.config.mode === "pool" ? "kr_mode_pool" : "kr_mode_fixed"), bankroll: cash(v.config.bankroll_cents) }))));
    if (!isHost) { controls.replaceChildren(); return; }
    // the form stays while people join (a number being typed is not lost on a redraw)
    const key = `${v.seats.length}:${document.documentElement.lang}`;
    if (key !== startKey || !controls.querySelector("#kr-computers")) {
      startKey = key;
      controls.replaceChildren(startForm(v));
    }
  }

  // the host's start: with how many computer bettors (each buys its own tickets)
  function startForm(v) {
    const free = v.max_seats - v.seats.length;
    if (computersWanted === null) computersWanted = startingComputers(v);
    const input = el("input", { type: "number", id: "kr-computers", min: 0, max: free, value: Math.min(computersWanted, free),
      inputmode: "numeric", "aria-describedby": "kr-computers-note" });
    input.addEventListener("input", () => { computersWanted = Number(input.value || 0); });
    const form = el("form", { class: "row kr-start", novalidate: true },
      el("label", { for: "kr-computers" }, t("kr_computers")), input,
      el("button", { type: "submit", class: "primary" }, t("kr_start_night")),
      el("span", { class: "note", id: "kr-computers-note" }, t("kr_computers_note")));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const n = Number(input.value || 0);
      if (!Number.isInteger(n) || n < 0 || n > free) {
        ctx.error.show(t("kr_computers_range", { max: free }));
        input.focus();
        return;
      }
      send({ type: "start", computers: n });
    });
    return form;
  }

  function renderBetting(v, animate) {
    heading.textContent = t("kr_betting", { race: v.race, races: v.races });
    status.textContent = v.config.mode === "pool" ? t("kr_pool_note", { margin: Math.round(v.config.margin * 100) }) : t("kr_fixed_note");
    moment.replaceChildren();
    delete document.body.dataset.finish;
    if (v.last) {  // the race just run: its order and every player's return (the track showed the finish)
      track = null;
      stage.replaceChildren(chips(v), resultCard(v));
    } else {
      drawTrack(v, animate);
      stage.replaceChildren(chips(v), trackWrap);
    }
    // with many players the standings need the room of the other bet types' table
    side.replaceChildren(winBoard(v), v.standings.length > 6 ? "" : otherBoards(v), standingsTable(v, t("standings")));
    controls.replaceChildren(...(isHost ? [
      button(t("kr_close_betting"), { type: "close_betting" }, { class: "primary kr-close" }),
      el("button", { type: "button", class: "kr-end", onclick: () => { if (confirm(t("kr_confirm_finish"))) send({ type: "finish" }); } }, t("kr_finish_night")),
      standInPanel(v, send),
    ].filter(Boolean) : []));
  }

  function renderRacing(v, animate) {
    const lv = v.live;
    heading.textContent = t("kr_racing", { race: v.race, races: v.races });
    status.textContent = lv.phase === "derny" ? t("kr_derny_waits") : "";
    drawTrack(v, animate);
    drawMoment(v);
    if (stage.firstChild !== trackWrap || stage.childElementCount !== 1) stage.replaceChildren(trackWrap);
    side.replaceChildren(...[orderTable(v), standingsTable(v, t("standings"))].filter(Boolean));
    if (!isHost) { controls.replaceChildren(); return; }
    const paused = Boolean(v.timeline?.paused);
    controls.replaceChildren(
      button(paused ? t("kr_resume") : t("kr_pause"), { type: paused ? "resume" : "pause" }, { class: "primary", "aria-pressed": String(paused) }),
      button(t("kr_next_step"), { type: "advance" }, { class: "kr-next" }),
      button(t("kr_skip_race"), { type: "skip" }, { class: "kr-skip" }));
  }

  function renderFinished(v) {
    heading.textContent = t("kr_night_over");
    status.textContent = "";
    track = null;
    moment.replaceChildren();
    delete document.body.dataset.finish;
    const key = JSON.stringify([v.finale, document.documentElement.lang]);
    if (key !== finaleKey || !stage.querySelector(".finale, .kr-final")) {
      finaleKey = key;
      const shown = v.finale ? drawFinale(v.finale, { game: "keirin", isHost, send: (i) => live.send(i) })
        : el("p", { class: "kr-final" }, t("kr_night_over"));
      stage.replaceChildren(shown);
      if (v.finale && cued !== "finale") { cued = "finale"; cue("reveal"); }
    }
    side.replaceChildren(standingsTable(v, t("final")), v.last ? lastWinners(v) : "");
    controls.replaceChildren(isHost ? el("a", { href: "/", class: "button" }, t("new_party")) : "");
  }

  // the last race's order, in one line, beside the final standings
  function lastWinners(v) {
    return el("p", { class: "kr-full" }, t("kr_race_result", { race: v.last.race }), ": ",
      el("span", { class: "riders" }, v.last.ranking.slice(0, 3).map((r) => riderTag(r))));
  }

  // the latest events, worded now: a language switch rewords the older lines too
  function drawNews() {
    newsBox.replaceChildren(...news.slice(-NEWS).reverse().map((e, i) =>
      el("li", { class: i === 0 ? "latest" : "" }, eventText(e))));
  }

  // The headline never hides what the screen shows: while a race runs on a wide screen it
  // stands in the infield, under the finish's (or the photo's) box; on a phone in a strip
  // above the track; between races in a row of its own under the results.
  const narrow = window.matchMedia("(max-width: 700px)");
  function placeHeadline() {
    if (!view) return;
    const racing = view.phase === "racing";
    const [parent, before] = !racing ? [main, status] : narrow.matches ? [main, stage] : [callouts, null];
    if (announcer.line.parentNode !== parent || announcer.line.nextSibling !== before) parent.insertBefore(announcer.line, before);
  }
  narrow.addEventListener("change", placeHeadline);

  function render(animate) {
    if (!view) return;
    const v = view;
    document.body.dataset.phase = v.phase;
    screen.dataset.phase = v.phase;
    if (v.phase !== "finished" && cued === "finale") cued = "";  // a night played again
    if (v.phase === "lobby") renderLobby(v);
    else if (v.phase === "betting") renderBetting(v, animate);
    else if (v.phase === "racing") renderRacing(v, animate);
    else renderFinished(v);
    if (v.phase === "racing") drawThrows(v); else throwsBox.replaceChildren();
    drawNews();
    placeHeadline();
    fitHeight();
  }

  // riders glide for part of a step, so each move ends before the server's next one
  function moveMs(v) {
    return Math.round(1000 * (v.timeline?.pace ?? STEP_S) * MOVE_SHARE);
  }


  // the news line: each event's facts, worded in the page's language when drawn (the end
  // of the night is the finale's heading, not news said a second time under it)
  function note(events) {
    for (const e of events) if (e.type !== "throw" && e.type !== "finished" && eventText(e)) news.push(e);
    while (news.length > NEWS) news.shift();
  }

  onLanguage(() => { trackKey = ""; finaleKey = ""; render(false); });

  return {
    connect(l) { live = l; },
    welcome(v, events) {
      view = v;
      note(events);
      render(false);
      askPace(v);
    },
    update(v, events) {
      const lines = moments.step(v);
      if (v.phase !== "racing" && v.last && view?.last?.race !== v.last.race) lines.push(payoutMoment(v.last));
      if (v.phase === "racing" && v.live && !Object.keys(v.live.positions || {}).length) announcer.clear();
      announcer.say(lines.filter(Boolean));
      view = v;
      note(events);
      render(true);
      askPace(v);
    },
  };
}
