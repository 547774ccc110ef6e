// Dice Derby on the big screen: lobby with code and QR, auction reveals, the odds board,
// the track animated furlong by furlong from the server's events, results and standings.
// No rule lives here: every number shown comes from the server's view or events.
import { el } from "/static/js/common.js";
import { language, money, onLanguage, placeText, t } from "/static/js/i18n.js";
import { describeEvent } from "/static/js/present.js";

export const HORSES = ["d4", "d6", "d8", "d10", "d12", "d20"];
// a colour AND a shape per horse, so colour-blind players can tell them apart
export const SHAPES = { d4: "●", d6: "▲", d8: "■", d10: "◆", d12: "★", d20: "⬟" };
const FURLONGS = 5;

export function horseTag(name, extra = "") {
  return el("span", { class: `horse-tag h-${name} ${extra}` },
    el("span", { class: "shape", "aria-hidden": "true" }, SHAPES[name] || "?"), " ", name);
}

function speedFactor() {
  const raw = new URLSearchParams(location.search).get("speed");
  const n = raw === null ? 1 : Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, 5) : 1;
}

const DELAYS = { roll: 450, round: 900, reroll: 700, place: 250, result: 900, quinella: 600, lot: 900 };

// An event as the tables word it: "event.<kind>" (or the variant a true fact picks) with
// its facts; an event of a kind without words (none of tonight's) shows nothing.
export function eventText(e) {
  const { type, ...facts } = e;
  const text = describeEvent("derby", { key: `event.${type}`, params: facts }, language());
  return text.startsWith("event.") ? "" : text;
}

// ---------------------------------------------------------------------------------------

export function mount(root, ctx) {
  const isHost = ctx.role === "host";
  const speed = speedFactor();
  let view = null;
  let live = null;
  let lastLot = null;
  const queue = [];
  let playing = false;
  let track = freshTrack();
  let highlight = null;
  let anim = null; // the round the animation shows (it may trail the server's view)
  const ticker = [];
  const keys = new Map();

  const stage = el("section", { class: "stage", "aria-label": "stage" });
  const controls = el("section", { class: "controls" });
  const tickerBox = el("ol", { class: "ticker", "aria-live": "polite", "aria-label": t("commentary") });
  const side = el("aside", { class: "side" });
  root.replaceChildren(el("div", { class: "host-grid" },
    el("div", { class: "main-col" }, stage, controls, tickerBox), side));

  function freshTrack() {
    const m = {};
    for (const h of HORSES) m[h] = { furlongs: 0, die: null, fell: false, out: false, place: null };
    return m;
  }

  function trackFromView(v) {
    const m = freshTrack();
    const src = v.live || v.last;
    if (!src) return m;
    for (const h of HORSES) {
      m[h].furlongs = src.furlongs?.[h] ?? 0;
      m[h].place = src.places?.[h] ?? null;
    }
    if (v.live) {
      for (const [h, value] of Object.entries(v.live.rolls)) {
        m[h].die = value;
        m[h].fell = value === null;
      }
      for (const h of HORSES) m[h].out = m[h].place !== null && m[h].place > 1;
    } else {
      for (const h of HORSES) m[h].out = m[h].place !== 1;
    }
    return m;
  }

  function applyEvent(e) {
    if (e.type === "race_start") { track = freshTrack(); }
    else if (e.type === "roll") {
      anim = { round: e.round, rolloff: e.rolloff, for_place: e.for_place };
      track[e.horse].die = e.value;
      track[e.horse].fell = e.fall;
      highlight = e.horse;
    } else if (e.type === "round") {
      for (const h of Object.keys(e.rolls)) {
        if (!e.rolloff && !e.out.includes(h)) track[h].furlongs += 1;
        if (e.out.includes(h) && e.kind !== "rolloff") track[h].out = true;
      }
      for (const h of HORSES) { if (!track[h].out) { track[h].die = null; track[h].fell = false; } }
      highlight = null;
    } else if (e.type === "place") {
      for (const h of e.horses) {
        track[h].place = e.place;
        track[h].out = e.place > 1;
      }
    } else if (e.type === "lot") { lastLot = e; }
    const text = eventText(e);
    if (text) {
      ticker.push(text);
      while (ticker.length > 8) ticker.shift();
    }
  }

  async function play() {
    if (playing) return;
    playing = true;
    while (queue.length) {
      const e = queue.shift();
      applyEvent(e);
      drawTicker();
      if (stage.querySelector(".track")) drawTrack(stage.querySelector(".track"));
      const title = stage.querySelector(".round-title");
      if (title && anim) title.textContent = roundTitle(anim);
      const wait = (DELAYS[e.type] || 0) * speed;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    playing = false;
    anim = null;
    if (view?.live) track = trackFromView(view);
    render();
  }

  function enqueue(events) {
    queue.push(...events);
    play();
  }

  // --- drawing ---------------------------------------------------------------------------
  function section(node, key, build) {
    if (keys.get(node) === key && node.childElementCount) return;
    keys.set(node, key);
    node.replaceChildren(...[build()].flat().filter(Boolean));
  }

  function drawTicker() {
    tickerBox.replaceChildren(...ticker.slice().reverse().map((line, i) =>
      el("li", { class: i === 0 ? "latest" : "" }, line)));
  }

  function drawTrack(box) {
    const owners = {};
    for (const hs of view?.horses || []) owners[hs.name] = hs;
    const rows = HORSES.map((h) => {
      const m = track[h];
      const hs = owners[h] || {};
      const cells = [];
      for (let f = 0; f <= FURLONGS; f++) {
        const here = m.furlongs === f;
        cells.push(el("span", { class: `cell ${f === FURLONGS ? "finish" : ""}` },
          here ? el("span", { class: `runner h-${h}`, "aria-hidden": "true" }, SHAPES[h]) : ""));
      }
      let status = "";
      if (m.place !== null) status = placeText(m.place);
      else if (m.out) status = t("out");
      const die = m.fell ? t("fell") : (m.die ?? "");
      const who = hs.owner_name || (hs.house ? t("house") : "");
      return el("div", {
        class: `lane ${m.out ? "is-out" : ""} ${highlight === h ? "is-rolling" : ""} ${m.place === 1 ? "is-winner" : ""}`,
        role: "row",
        "aria-label": `${h} ${who} ${t("furlong", { n: m.furlongs })} ${status}`,
      },
      el("span", { class: "lane-label", role: "rowheader" }, horseTag(h), el("small", {}, who)),
      el("span", { class: "lane-cells", "aria-hidden": "true" }, cells),
      el("span", { class: `die ${m.fell ? "fell" : ""}`, "aria-label": String(die) }, String(die)),
      el("span", { class: "lane-status" }, status));
    });
    const head = el("div", { class: "lane lane-head", "aria-hidden": "true" },
      el("span", { class: "lane-label" }, ""),
      el("span", { class: "lane-cells" }, [0, 1, 2, 3, 4, 5].map((f) =>
        el("span", { class: "cell" }, f === 0 ? "" : String(f)))),
      el("span", { class: "die" }, ""), el("span", { class: "lane-status" }, ""));
    box.replaceChildren(head, ...rows);
  }

  function boardTable(v) {
    const rows = v.horses.map((hs) => el("tr", {},
      el("th", { scope: "row" }, horseTag(hs.name)),
      el("td", {}, hs.owner_name || (hs.house ? t("house") : "—")),
      el("td", { class: "num" }, `${(hs.chance * 100).toFixed(1)}%`),
      el("td", { class: "num odds" }, hs.win_text,
        hs.bonus ? el("span", { class: "bonus", title: t("bonus") }, ` ★×1.5${hs.bonus > 1 ? `^${hs.bonus}` : ""}`) : "")));
    const win = el("table", { class: "board" },
      el("caption", {}, `${t("board")} — ${t("win")}`),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("horse")), el("th", { scope: "col" }, t("owner")),
        el("th", { scope: "col" }, t("chance")), el("th", { scope: "col" }, t("odds")))),
      el("tbody", {}, rows));
    const q = el("div", { class: "quinella-grid", role: "list", "aria-label": t("quinella") },
      v.board.quinella.map((x) => el("div", { class: "q", role: "listitem" },
        el("span", { class: "pair" }, horseTag(x.pair[0]), "–", horseTag(x.pair[1])),
        el("span", { class: "odds" }, x.text))));
    const bonusNote = v.horses.some((h) => h.bonus) ? el("p", { class: "note" }, `★ = ${t("bonus")}`) : null;
    return [win, el("h3", {}, t("quinella")), q, bonusNote];
  }

  function standingsTable(v, title) {
    return el("table", { class: "standings" },
      el("caption", {}, title),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rank")), el("th", { scope: "col" }, t("player")),
        el("th", { scope: "col" }, t("horse")), el("th", { scope: "col" }, t("net")))),
      el("tbody", {}, v.standings.map((s) => {
        const p = v.players[s.player];
        return el("tr", {}, el("td", { class: "num" }, String(s.rank)), el("th", { scope: "row" }, s.name),
          el("td", {}, p.horse ? horseTag(p.horse) : "—"), el("td", { class: "num" }, money(s.net)));
      })));
  }

  function chips(v, doneOf) {
    return el("ul", { class: "chips" }, v.players.filter((p) => p.kind === "human").map((p) => {
      const ok = doneOf(p);
      return el("li", { class: ok ? "chip ok" : "chip" }, `${ok ? "✓" : "…"} ${p.name}`);
    }));
  }

  function lastResult(v) {
    if (!v.last) return null;
    const pays = v.last.payouts.length
      ? el("ul", { class: "payouts" }, v.last.payouts.map((p) => el("li", {}, `${p.name}: +${money(p.amount)} (${p.what})`)))
      : el("p", {}, t("no_payouts"));
    return el("div", { class: "card result" },
      el("h2", {}, t("last_race", { race: v.last.race })),
      el("ol", { class: "order" }, v.last.order.map((h) => el("li", {}, horseTag(h), " ", placeText(v.last.places[h])))),
      el("h3", {}, t("payouts")), pays);
  }

  function renderLobby(v) {
    const joinUrl = ctx.info.join_url;
    section(stage, `lobby:${v.seats.join("|")}`, () => el("div", { class: "lobby" },
      el("div", { class: "join-box" },
        el("p", { class: "big-code", "aria-label": t("room", { code: ctx.code }) }, ctx.code),
        el("img", { class: "qr", src: `/api/rooms/${ctx.code}/qr.svg`, alt: t("join_at", { url: joinUrl }), width: 280, height: 280 }),
        el("p", {}, t("scan")),
        el("p", { class: "url" }, joinUrl),
        el("p", {}, el("a", { href: ctx.info.watch_url }, t("spectator_link")))),
      el("div", { class: "seats card" },
        el("h2", {}, t("seats", { n: v.seats.length, max: v.max_seats })),
        v.seats.length ? el("ol", {}, v.seats.map((n) => el("li", {}, n))) : el("p", {}, t("nobody_yet")))));
    if (!isHost) { controls.replaceChildren(); return; }
    section(controls, `lobby:${v.seats.length}`, () => {
      const input = el("input", { type: "number", id: "computers", min: 0, max: v.max_seats - v.seats.length,
        value: v.seats.length ? 0 : 3, inputmode: "numeric" });
      const form = el("form", { class: "row" }, el("label", { for: "computers" }, t("computers")), input,
        el("button", { type: "submit", class: "primary" }, t("start")));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        send({ type: "start", computers: Number(input.value || 0) });
      });
      return form;
    });
  }

  function renderAuction(v) {
    const a = v.auction;
    const waiting = a.waiting.map((i) => v.players[i].name);
    stage.replaceChildren(el("div", { class: "auction" },
      el("h2", {}, t("lot", { post: a.post, horse: a.horse }), " ", horseTag(a.horse, "big")),
      el("h3", {}, t("sealed_count")),
      el("ul", { class: "chips" }, a.bidders.filter((i) => v.players[i].kind === "human").map((i) => {
        const sealed = !a.waiting.includes(i);
        return el("li", { class: sealed ? "chip ok" : "chip" }, `${sealed ? "✓" : "…"} ${v.players[i].name}`);
      })),
      waiting.length ? el("p", {}, t("waiting_for", { names: waiting.join(", ") })) : null,
      lastLot ? el("div", { class: "card reveal" }, el("p", {}, eventText(lastLot))) : null,
      lotsTable(v)));
    if (!isHost) { controls.replaceChildren(); return; }
    section(controls, `auction:${a.post}`, () => el("button", { type: "button", onclick: () => send({ type: "close_bids" }) }, t("close_bids")));
  }

  function lotsTable(v) {
    if (!v.lots.length) return null;
    return el("table", { class: "lots" },
      el("caption", {}, t("auction")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("horse")), el("th", { scope: "col" }, t("owner")), el("th", { scope: "col" }, t("price")))),
      el("tbody", {}, v.lots.map((l) => el("tr", {}, el("th", { scope: "row" }, horseTag(l.horse)),
        el("td", {}, l.buyer_name ?? t("house")), el("td", { class: "num" }, l.buyer === null ? "—" : money(l.price))))));
  }

  function renderBetting(v) {
    stage.replaceChildren(el("div", { class: "betting" },
      el("h2", {}, t("betting", { race: v.race, races: v.races })),
      el("h3", {}, t("betting_players")),
      chips(v, (p) => p.done),
      lastResult(v)));
    if (!isHost) { controls.replaceChildren(); return; }
    section(controls, `betting:${v.race}`, () => el("button", { type: "button", class: "primary", onclick: () => send({ type: "close_betting" }) }, t("close_betting")));
  }

  function roundTitle(r) {
    return r.rolloff ? t("rolloff", { place: placeText(r.for_place) }) : t("furlong", { n: Math.min(r.round, FURLONGS) });
  }

  function renderRacing(v) {
    const lv = v.live;
    const title = roundTitle(playing && anim ? anim : lv);
    section(stage, `race:${v.race}`, () => el("div", { class: "race" },
      el("h2", {}, t("racing", { race: v.race, races: v.races }), " — ", el("span", { class: "round-title" }, title)),
      el("div", { class: "track", role: "table", "aria-label": t("race", { race: v.race }) }),
      el("p", { class: "next-roll" })));
    stage.querySelector(".round-title").textContent = title;
    drawTrack(stage.querySelector(".track"));
    const who = lv.next_owner_name || t("house");
    stage.querySelector(".next-roll").textContent = lv.next ? t("next_roll", { horse: lv.next, who }) : "";
    if (!isHost) { controls.replaceChildren(); return; }
    if (v.config.host_dice) {
      section(controls, `enter:${v.race}:${lv.round}:${lv.for_place}:${lv.to_roll.join(",")}`, () => {
        const what = lv.rolloff ? t("rolloff", { place: placeText(lv.for_place) }) : t("furlong", { n: lv.round });
        const inputs = lv.to_roll.map((h) => el("input", { id: `die-${h}`, name: h, maxlength: 2, size: 3, autocomplete: "off", inputmode: "text", required: true }));
        const form = el("form", { class: "dice-entry" },
          el("p", {}, t("enter_dice", { what })),
          el("div", { class: "row" }, lv.to_roll.map((h, i) => el("label", { for: `die-${h}` }, horseTag(h), inputs[i]))),
          el("button", { type: "submit", class: "primary" }, t("enter")));
        form.addEventListener("submit", (ev) => {
          ev.preventDefault();
          const values = inputs.map((x) => {
            const s = x.value.trim();
            return /^[fFxX]$/.test(s) ? "F" : (/^[0-9]+$/.test(s) ? Number(s) : s);
          });
          send({ type: "enter", values });
        });
        setTimeout(() => inputs[0]?.focus(), 0);
        return form;
      });
    } else {
      section(controls, `roll:${lv.next}:${lv.round}:${lv.to_roll.length}`, () => lv.next
        ? el("button", { type: "button", class: lv.next_by_phone ? "" : "primary", onclick: () => send({ type: "roll" }) },
          t("roll_for", { horse: lv.next, who }))
        : null);
    }
  }

  function renderFinished(v) {
    const award = v.award
      ? t("award", { by: t(`award_${v.award.by}`), names: v.award.names.join(", "), score: money(v.award.score) })
      : t("no_award");
    stage.replaceChildren(el("div", { class: "finished" },
      el("h2", {}, t("over")),
      standingsTable(v, t("final")),
      el("p", { class: "award" }, award),
      lastResult(v)));
    controls.replaceChildren(isHost ? el("a", { href: "/", class: "button" }, t("new_party")) : "");
  }

  function renderSide(v) {
    if (v.phase === "lobby") { side.replaceChildren(); return; }
    const parts = [];
    if (v.phase === "betting" || v.phase === "racing") parts.push(...boardTable(v));
    if (v.phase !== "finished") parts.push(standingsTable(v, t("standings")));
    if (v.phase !== "auction") parts.push(lotsTable(v));
    side.replaceChildren(...parts.filter(Boolean));
  }

  function render() {
    if (!view) return;
    const v = view;
    if (v.phase === "lobby") renderLobby(v);
    else if (v.phase === "auction") renderAuction(v);
    else if (v.phase === "betting") renderBetting(v);
    else if (v.phase === "racing") renderRacing(v);
    else renderFinished(v);
    if (v.phase !== "racing" && stage.querySelector(".track") === null && playing) {
      // a race finished while its events still play: keep showing the track
    }
    renderSide(v);
    drawTicker();
    document.body.dataset.phase = v.phase;
  }

  function send(intent) {
    if (!live) return;
    live.send(intent).then(() => ctx.error.show("")).catch((e) => ctx.error.show(e.message));
  }

  onLanguage(() => { keys.clear(); render(); });

  return {
    connect(l) { live = l; },
    welcome(v, events, fresh) {
      view = v;
      if (fresh || !events.length) {
        track = trackFromView(v);
        render();
      } else {
        render();
        enqueue(events);
      }
    },
    update(v, events) {
      const raceEvents = events.some((e) => ["roll", "round", "place", "result", "race_start"].includes(e.type));
      const wasRacing = view?.phase === "racing";
      view = v;
      if (raceEvents && v.phase !== "racing" && (wasRacing || events.some((e) => e.type === "race_start"))) {
        // the race ended inside this update: show the track until its events have played
        keys.clear();
        showTrackWhilePlaying(v);
      } else if (v.phase === "racing" && events.some((e) => e.type === "race_start")) {
        keys.clear();
        render();
      } else {
        render();
      }
      enqueue(events);
    },
  };

  function showTrackWhilePlaying(v) {
    stage.replaceChildren(el("div", { class: "race" },
      el("h2", {}, t("race", { race: v.last ? v.last.race : v.race })),
      el("div", { class: "track", role: "table" })));
    keys.set(stage, "finishing");
    drawTrack(stage.querySelector(".track"));
    renderSide(v);
    const wait = () => { if (playing || queue.length) setTimeout(wait, 100); else { keys.clear(); render(); } };
    setTimeout(wait, 100);
  }
}
