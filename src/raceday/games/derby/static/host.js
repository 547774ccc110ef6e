// Dice Derby on the big screen: lobby with code and QR, the auction die by die (each die's
// exact win chance from the server), the odds board, the race drawn furlong by furlong as
// the server's timeline sends it (track.js), the finish (a photo-finish when close), the
// results once the server releases them, and the finale.
// No rule lives here and nothing is replayed: every number comes from the view or events.
import { el, paceFromAddress } from "/static/js/common.js";
import { drawFinale } from "/static/js/finale.js";
import { keyed, language, money, onLanguage, placeText, t, withAmounts } from "/static/js/i18n.js";
import { describeEvent, render as word } from "/static/js/present.js";
import { fill, seatList, standInOf, standInPanel, useStyles } from "/static/js/rooms.js";
import { cue } from "/static/js/sound.js";
import { createAnnouncer } from "/static/js/announcer.js";
import { drawTrack, FURLONGS, glideMs, HORSES, horseTag, marginWords, ownerSwatch, payoutMoment, raceMoments, SHAPES } from "./track.js";

export { HORSES, SHAPES, horseTag };

const DEFAULT_PACE = 1.6; // the room's own pace: seconds a furlong
const MOVE_SHARE = 0.55; // horses run to their new furlong in this share of a tick
const TICKER_LINES = 2; // the news line's lines on the big screen, each shown whole
const TV_PAYOUTS = 4; // payout lines the last race's card shows on the big screen
const BETTING_BIDS = 2; // the last lot's highest bids beside the first race's odds board
// An event as the tables word it: "event.<kind>" (or the variant a true fact picks) with
// its facts; an event of a kind without words shows nothing.
export function eventText(e) {
  const { type, ...facts } = e;
  const text = describeEvent("derby", { key: `event.${type}`, params: withAmounts(facts) }, language());
  return text.startsWith("event.") ? "" : text;
}

// A payout's label ("quinella d8-d10", "prize 1st (d20)") in the reader's language.
export function payoutWhat(p) {
  return p.words ? word(p.words, language(), "derby") : p.what;
}

export function percent(chance) {
  return `${(chance * 100).toFixed(1)}%`;
}

// ---------------------------------------------------------------------------------------

// The computers the start form offers: ?computers=N in the page's address (a lesson's
// first evening asks for one), else 3 for an empty room and none once people have joined.
export function startingComputers(v, search = location.search) {
  const free = v.max_seats - v.seats.length;
  const asked = new URLSearchParams(search).get("computers");
  if (asked !== null && /^[0-9]+$/.test(asked)) return Math.min(Number(asked), free);
  return v.seats.length ? 0 : 3;
}

export function mount(root, ctx) {
  useStyles("derby");
  const isHost = ctx.role === "host";
  let view = null;
  let live = null;
  const askPace = paceFromAddress(DEFAULT_PACE, isHost, (intent) => send(intent));
  let shownFrame = null; // the track frame on screen (the next one runs from it)
  let lastLot = null; // the last lot sold, revealed bid by bid
  let lots = 0; // lots sold since the page opened: each sale's reveal is a card of its own
  let played = null; // the lot event whose reveal has played (or is playing)
  const ticker = [];
  const keys = new Map();

  const stage = el("section", { class: "stage dd-stage", "aria-label": keyed("dd_stage") });
  const controls = el("section", { class: "controls dd-controls", "aria-label": keyed("dd_controls") });
  const tickerBox = el("p", { class: "dd-ticker", "aria-live": "polite" });
  const standInBox = el("div", { class: "dd-stand-ins" });  // players who left (the host's)
  const side = el("aside", { class: "side dd-side", "aria-label": keyed("standings") });
  const announcer = createAnnouncer();
  const lotBox = el("div", { class: "dd-lot" });
  const revealBox = el("div", { class: "dd-reveal-box" });
  const doneBox = el("ul", { class: "chips dd-done" });
  // the headline's own strip below the stage, shared with the news line: it never covers
  // the race's title or the course (style.css reserves its height while a race runs)
  // (and with the finish's banner once the headline has gone)
  announcer.line.classList.add("in-strip");
  const bannerBox = el("div", { class: "dd-banner-box" });
  const grid = el("div", { class: "host-grid dd-tv" },
    el("div", { class: "main-col" }, stage, el("div", { class: "dd-news" }, tickerBox, bannerBox, announcer.line),
      el("div", { class: "dd-bottom" }, controls, announcer.button), standInBox), side);
  root.replaceChildren(grid);

  // the big screen never scrolls: the page takes the window's height below the header
  // (opened on a phone, the page is one column that scrolls: style.css)
  const narrow = typeof matchMedia === "function" ? matchMedia("(max-width: 900px)") : null;
  function fit() {
    if (narrow?.matches) { grid.style.height = ""; return; }
    const top = grid.getBoundingClientRect().top + window.scrollY;
    grid.style.height = `${Math.max(0, window.innerHeight - top)}px`;
  }
  window.addEventListener("resize", fit);
  // what is above may grow after the first drawing (the header's status, a refusal's line)
  if (typeof ResizeObserver === "function") {
    const above = new ResizeObserver(fit);
    for (const node of document.querySelectorAll("header, .bar, p.error")) above.observe(node);
  }

  function section(node, key, build) {
    if (keys.get(node) === key && node.childElementCount) return;
    keys.set(node, key);
    node.replaceChildren(...[build()].flat().filter(Boolean));
  }

  // the latest news, worded now (in the language on screen, even after a switch): each of
  // its lines whole, wrapped rather than cut, at most TICKER_LINES of them
  function drawTicker() {
    const text = ticker.length ? eventText(ticker[ticker.length - 1]) : "";
    const lines = text.split("\n").filter((line) => line.trim()).slice(0, TICKER_LINES);
    tickerBox.replaceChildren(...lines.map((line) => el("span", { class: "dd-ticker-line" }, line)));
  }

  function owners(v) {
    const out = {};
    for (const hs of v.horses || []) out[hs.name] = hs.owner_name || (hs.house ? t("house") : "");
    return out;
  }

  // each owned horse's racing colours: its owner's (a player's `colour` in the view)
  function colours(v) {
    const out = {};
    for (const hs of v.horses || []) {
      const colour = hs.owner === null || hs.owner === undefined ? null : v.players?.[hs.owner]?.colour;
      if (colour) out[hs.name] = colour;
    }
    return out;
  }

  // --- the phases ----------------------------------------------------------------------
  function renderLobby(v) {
    const joinUrl = ctx.info.join_url;
    section(stage, `lobby:${v.seats.join("|")}`, () => el("div", { class: "lobby dd-lobby" },
      el("div", { class: "join-box" },
        el("p", { class: "big-code", "aria-label": keyed("room", { code: ctx.code }) }, ctx.code),
        el("img", { class: "qr", src: `/api/rooms/${ctx.code}/qr.svg`, alt: keyed("join_at", { url: joinUrl }), width: 300, height: 300 }),
        el("p", {}, t("scan")),
        el("p", { class: "url" }, joinUrl),
        el("p", {}, el("a", { href: ctx.info.watch_url }, t("spectator_link")))),
      el("div", { class: "seats card" },
        el("h2", {}, t("seats", { n: v.seats.length, max: v.max_seats })),
        v.seats.length ? seatList(v.seats, isHost, send, { class: "dd-seat-list" }) : el("p", {}, t("nobody_yet")))));
    if (!isHost) { controls.replaceChildren(); return; }
    section(controls, `lobby:${v.seats.length}`, () => {
      const input = el("input", { type: "number", id: "computers", min: 0, max: v.max_seats - v.seats.length,
        value: startingComputers(v), inputmode: "numeric" });
      const form = el("form", { class: "row", novalidate: true }, el("label", { for: "computers" }, t("computers")), input,
        el("button", { type: "submit", class: "primary" }, t("start")));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const n = Number(input.value || 0);
        if (!Number.isInteger(n) || n < 0 || n > v.max_seats - v.seats.length) {
          ctx.error.show(t("dd_computers_range", { max: v.max_seats - v.seats.length }));
          input.focus();
          return;
        }
        send({ type: "start", computers: n });
      });
      return form;
    });
  }

  // The last lot's sealed bids, one after another: the lowest first, the winning bid last
  // after a beat of its own, then who buys it. Each line's place in the stagger is a custom
  // property set through the CSSOM (the CSP refuses style attributes); with reduced motion
  // the lines come at once, in the same order.
  // (`most`: the highest bids shown, where the card shares the screen; a line counts the
  // lower ones left out, and a tie's line of names is left to the verdict.)
  function reveal(lot, most = Infinity, still = false) {
    const all = [...lot.bids].filter((b) => b.amount > 0)
      .sort((a, b) => a.amount - b.amount || (a.player === lot.buyer) - (b.player === lot.buyer));
    const bids = all.slice(Math.max(0, all.length - most));
    const beat = (node, i) => { node.style.setProperty("--i", String(i)); return node; };
    const lines = bids.map((b, i) => {
      const winning = i === bids.length - 1 && b.player === lot.buyer;
      return beat(el("li", { class: winning ? "dd-bid dd-winning" : "dd-bid", "data-amount": String(b.amount) },
        el("span", {}, b.name), el("span", { class: "num" }, money(b.amount))), winning ? i + 1 : i);
    });
    const after = bids.length + 1;
    const tie = lot.tie && most === Infinity; // the short card names the buyer only
    const verdict = lot.house ? t("dd_lot_house", { horse: lot.horse })
      : t("dd_lot_sold", { horse: lot.horse, name: lot.buyer_name, price: money(lot.price) });
    const card = el("div", { class: still ? "card dd-reveal is-still" : "card dd-reveal", "aria-live": "polite" },
      el("h3", {}, t("dd_reveal", { horse: lot.horse }), " ", horseTag(lot.horse)),
      all.length > bids.length ? el("p", { class: "dd-more" }, t("dd_and_more", { n: all.length - bids.length })) : null,
      lines.length ? el("ol", { class: "dd-bids" }, lines) : el("p", {}, t("dd_no_bids")),
      tie ? beat(el("p", { class: "dd-bid" }, t("dd_tie", { names: lot.tied.join(", ") })), after) : null,
      beat(el("p", { class: "dd-bid dd-verdict" }, verdict), after + (tie ? 1 : 0)));
    // played once: the card moved to the betting's side later stands still there
    card.addEventListener("animationend", (e) => {
      if (e.target.classList.contains("dd-verdict")) card.classList.add("is-still");
    });
    return card;
  }

  // The reveal keeps its own box, drawn once a lot (and language): a bid sealed for the
  // next lot redraws the lot on offer, never the reveal's stagger half-way through.
  // Drawn again for the same lot (a language switch, or shortened beside the betting board
  // when betting opens), it stands still: re-worded, not replayed.
  function drawReveal(most = Infinity) {
    section(revealBox, `${lots}:${most}:${language()}`, () => {
      const still = lastLot === played;
      played = lastLot;
      return lastLot ? reveal(lastLot, most, still) : null;
    });
  }

  function renderAuction(v) {
    const a = v.auction;
    const waiting = a.waiting.map((i) => v.players[i].name);
    section(stage, "auction", () => el("div", { class: "dd-auction" }, lotBox, revealBox));
    section(lotBox, `auction:${a.post}:${a.waiting.join(",")}:${language()}`, () => [
      el("h2", {}, t("lot", { post: a.post, horse: a.horse })),
      el("p", { class: "dd-lot-die" }, horseTag(a.horse, "big")),
      a.chance !== null && a.chance !== undefined
        ? el("p", { class: "dd-chance" }, el("span", { class: "dd-chance-n" }, percent(a.chance)), " ", t("dd_win_chance"))
        : null,
      el("ul", { class: "chips" }, a.bidders.filter((i) => v.players[i].kind === "human").map((i) => {
        const sealed = !a.waiting.includes(i);
        return el("li", { class: sealed ? "chip ok" : "chip" }, `${sealed ? "✓" : "…"} ${v.players[i].name}`);
      })),
      waiting.length ? el("p", { class: "dd-waiting" }, t("waiting_for", { names: waiting.join(", ") })) : null]);
    drawReveal();
    if (!isHost) { controls.replaceChildren(); return; }
    section(controls, `auction:${a.post}:${language()}`, () => el("button", { type: "button", onclick: () => send({ type: "close_bids" }) }, t("close_bids")));
  }

  function boardTable(v) {
    const rows = v.horses.map((hs) => el("tr", {},
      el("th", { scope: "row" }, horseTag(hs.name)),
      el("td", {}, hs.owner_name ? [ownerSwatch(v.players?.[hs.owner]?.colour), hs.owner_name]
        : (hs.house ? t("house") : "—")),
      el("td", { class: "num" }, percent(hs.chance)),
      el("td", { class: "num odds" }, hs.win_text,
        hs.bonus ? el("span", { class: "bonus", title: keyed("bonus") }, ` ★×1.5${hs.bonus > 1 ? `^${hs.bonus}` : ""}`) : "")));
    const win = el("table", { class: "board dd-board dd-win" },
      el("caption", {}, `${t("board")} — ${t("win")}`),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("horse")), el("th", { scope: "col" }, t("owner")),
        el("th", { scope: "col" }, t("chance")), el("th", { scope: "col" }, t("odds")))),
      el("tbody", {}, rows));
    const q = el("div", { class: "dd-quinella" },
      el("h3", {}, t("quinella")),
      el("ul", { class: "dd-qgrid" }, v.board.quinella.map((x) => el("li", { class: "q" },
        el("span", { class: "pair" }, SHAPES[x.pair[0]], x.pair[0], "–", SHAPES[x.pair[1]], x.pair[1]), " ",
        el("span", { class: "odds" }, x.text)))));
    return [win, q];
  }

  function standingsTable(v, title) {
    return el("table", { class: "standings dd-standings" },
      el("caption", {}, title),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rank")), el("th", { scope: "col" }, t("player")),
        el("th", { scope: "col" }, t("horse")), el("th", { scope: "col" }, t("net")))),
      el("tbody", {}, v.standings.map((s) => {
        const p = v.players[s.player];
        return el("tr", {}, el("td", { class: "num" }, String(s.rank)),
          el("th", { scope: "row" }, ownerSwatch(p.colour), s.name, standInOf(v, s.player)),
          el("td", {}, p.horse ? horseTag(p.horse) : "—"), el("td", { class: "num" }, money(s.net)));
      })));
  }

  function lastResult(v) {
    if (!v.last) return null;
    const more = v.last.payouts.length - TV_PAYOUTS;
    const pays = v.last.payouts.length
      ? el("ul", { class: "payouts" }, v.last.payouts.slice(0, TV_PAYOUTS).map((p) => el("li", {},
        el("strong", {}, p.name), ` +${money(p.amount)} `, el("small", {}, payoutWhat(p)))),
      more > 0 ? el("li", { class: "dd-more" }, t("dd_and_more", { n: more })) : null)
      : el("p", {}, t("no_payouts"));
    return el("div", { class: "card result dd-result", "data-race": String(v.last.race) },
      el("h2", {}, t("last_race", { race: v.last.race })),
      el("ol", { class: "order dd-order" }, v.last.order.slice(0, 3).map((h) => el("li", {}, placeText(v.last.places[h]), " ", horseTag(h)))),
      pays);
  }

  // Before the first race the side shows the last lot's reveal (the auction ended with
  // it); a player done betting redraws only the chips.
  function renderBetting(v) {
    const done = v.players.filter((p) => p.kind === "human").map((p) => `${p.name}:${p.done}`).join(",");
    section(stage, `betting:${v.race}:${language()}`, () => el("div", { class: "dd-betting" },
      el("h2", {}, t("betting", { race: v.race, races: v.races })),
      el("div", { class: "dd-betting-grid" },
        boardTable(v),
        el("div", { class: "dd-betting-side" }, lastResult(v) ?? revealBox,
          el("h3", {}, t("betting_players")), doneBox))));
    section(doneBox, `${v.race}:${done}:${language()}`, () => v.players.filter((p) => p.kind === "human").map((p) =>
      el("li", { class: p.done ? "chip ok" : "chip" }, `${p.done ? "✓" : "…"} ${p.name}`)));
    if (!v.last) drawReveal(BETTING_BIDS);
    if (!isHost) { controls.replaceChildren(); return; }
    section(controls, `betting:${v.race}:${language()}`, () => el("button", { type: "button", class: "primary", onclick: () => send({ type: "close_betting" }) }, t("close_betting")));
  }

  // the furlong (or roll-off) the track shows: the last one run
  function roundTitle(lv) {
    if (lv.finished) return lv.photo ? t("dd_photo_finish") : t("dd_finish");
    const run = lv.rounds[lv.rounds.length - 1];
    if (!run) return t("dd_off");
    return run.rolloff ? t("rolloff", { place: placeText(run.for_place ?? lv.for_place) }) : t("furlong", { n: Math.min(run.round, FURLONGS) });
  }

  function moveMs(v) {
    return Math.round(1000 * (v.timeline?.pace ?? DEFAULT_PACE) * MOVE_SHARE);
  }

  // The finish's banner, shown once the last glide has brought the horses to the post
  // (`after`: that glide's length in ms; the banner's entrance waits for it).
  function finishBanner(lv, after) {
    if (!lv.finished) return null;
    const banner = bannerOf(lv);
    banner.style.setProperty("--after", `${after}ms`);
    return banner;
  }

  function bannerOf(lv) {
    const winner = Object.entries(lv.places).find(([, p]) => p === 1)?.[0];
    if (lv.photo) {
      const [a, b] = lv.photo.horses;
      return el("div", { class: "dd-banner dd-photo", role: "status" },
        el("strong", {}, t("dd_photo_finish")), " ",
        t("dd_photo_line", { winner: a, second: b, a: lv.photo.rolls[a], b: lv.photo.rolls[b],
          margin: marginWords(lv.photo) }));
    }
    return el("div", { class: "dd-banner", role: "status" }, el("strong", {}, t("dd_winner", { horse: winner ?? "" })));
  }

  function renderRacing(v, animate) {
    const lv = v.live;
    const frameKey = `${v.race}:${lv.round}:${lv.finished}:${lv.rounds.length}:${language()}`;
    if (keys.get(stage) !== `race:${frameKey}`) {
      keys.set(stage, `race:${frameKey}`);
      const from = animate && shownFrame && shownFrame.race === v.race ? shownFrame.frame : null;
      const track = drawTrack(lv, { owners: owners(v), colours: colours(v), from, ms: moveMs(v), caption: t("race", { race: v.race }) });
      stage.replaceChildren(el("div", { class: "dd-race" },
        el("h2", {}, t("racing", { race: v.race, races: v.races }), " — ",
          el("span", { class: "round-title" }, roundTitle(lv))),
        track));
      fill(bannerBox, finishBanner(lv, from ? glideMs(lv, moveMs(v)) : 0));
      shownFrame = { race: v.race, frame: lv };
      document.body.dataset.finish = lv.finished ? String(v.race) : "";
    }
    if (!isHost) { controls.replaceChildren(); return; }
    if (v.config.host_dice && !lv.finished) {
      section(controls, `enter:${v.race}:${lv.round}:${lv.for_place}:${lv.to_roll.join(",")}:${language()}`, () => {
        const what = lv.rolloff ? t("rolloff", { place: placeText(lv.for_place) }) : t("furlong", { n: lv.round });
        const inputs = lv.to_roll.map((h) => el("input", { id: `die-${h}`, name: h, maxlength: 2, size: 3, autocomplete: "off", inputmode: "text" }));
        const form = el("form", { class: "dice-entry", novalidate: true },
          el("p", {}, t("enter_dice", { what })),
          el("div", { class: "row" }, lv.to_roll.map((h, i) => el("label", { for: `die-${h}` }, horseTag(h), inputs[i]))),
          el("button", { type: "submit", class: "primary" }, t("enter")));
        form.addEventListener("submit", (ev) => {
          ev.preventDefault();
          const empty = inputs.find((x) => !x.value.trim());
          if (empty) { ctx.error.show(t("dd_enter_every")); empty.focus(); return; }
          const values = inputs.map((x) => {
            const s = x.value.trim();
            return /^[fFxX]$/.test(s) ? "F" : (/^[0-9]+$/.test(s) ? Number(s) : s);
          });
          send({ type: "enter", values });
        });
        setTimeout(() => inputs[0]?.focus(), 0);
        return form;
      });
      return;
    }
    const paused = Boolean(v.timeline?.paused);
    const pace = v.timeline?.pace ?? DEFAULT_PACE;
    section(controls, `timeline:${paused}:${pace}:${language()}`, () => {
      const pauseBtn = el("button", { type: "button", class: "primary", "aria-pressed": String(paused),
        onclick: () => send({ type: paused ? "resume" : "pause" }) }, paused ? t("dd_resume") : t("dd_pause"));
      const skip = el("button", { type: "button", onclick: () => send({ type: "skip" }) }, t("dd_skip"));
      const speeds = [[2.6, "dd_pace_slow"], [DEFAULT_PACE, "dd_pace_normal"], [0.8, "dd_pace_fast"]];
      const select = el("select", { id: "dd-pace" }, speeds.map(([s, k]) => el("option", { value: String(s) }, t(k))));
      select.value = String(speeds.find(([s]) => s === pace)?.[0] ?? DEFAULT_PACE);
      select.addEventListener("change", () => send({ type: "pace", seconds: Number(select.value) }));
      return el("div", { class: "row" }, pauseBtn, skip, el("label", { for: "dd-pace" }, t("dd_pace")), select);
    });
  }

  function renderFinished(v) {
    section(stage, `finished:${language()}:${JSON.stringify(v.finale?.podium ?? null)}`, () => el("div", { class: "dd-finished" },
      v.finale ? drawFinale(v.finale, { game: "derby", isHost, send: live ? (i) => live.send(i) : null }) : el("h2", {}, t("over"))));
    controls.replaceChildren();
  }

  function renderSide(v) {
    if (v.phase === "lobby") { side.replaceChildren(); return; }
    section(side, `${v.phase}:${JSON.stringify([v.standings, v.stand_ins])}:${language()}`, () => [
      standingsTable(v, v.phase === "finished" ? t("final") : t("standings"))]);
  }

  function render(animate = false) {
    if (!view) return;
    const v = view;
    document.body.dataset.phase = v.phase;
    if (v.phase !== "racing") { document.body.dataset.finish = ""; bannerBox.replaceChildren(); }
    if (v.phase === "lobby") renderLobby(v);
    else if (v.phase === "auction") renderAuction(v);
    else if (v.phase === "betting") renderBetting(v);
    else if (v.phase === "racing") renderRacing(v, animate);
    else renderFinished(v);
    renderSide(v);
    if (isHost) section(standInBox, `${JSON.stringify([v.away, v.stand_ins, v.phase])}:${language()}`, () => standInPanel(v, send));
    drawTicker();
    askPace(v);
    fit();
  }

  function note(events) {
    for (const e of events) {
      if (e.type === "lot") { lastLot = e; lots += 1; cue("reveal"); }
      if (e.type === "race_start") cue("start");
      if (e.type === "result") cue("finish");
      if (e.type === "again") { lastLot = null; shownFrame = null; ticker.length = 0; }
      if (e.type !== "lot" && eventText(e)) ticker.push(e); // the stage reveals a lot bid by bid
    }
    while (ticker.length > 4) ticker.shift();
  }

  // the announcer's moments of this update, from the frame on screen to the new one
  function announce(v) {
    const lines = [];
    if (v.phase === "racing" && v.live) {
      const before = shownFrame && shownFrame.race === v.race ? shownFrame.frame : null;
      if (!before && !v.live.rounds?.length) announcer.clear();
      lines.push(...raceMoments(before, v.live, v.horses || []));
    }
    const settled = v.last && view && view.last?.race !== v.last.race ? v.last : null;
    const pays = settled ? payoutMoment(settled, money) : null;
    if (pays) lines.push(pays);
    announcer.say(lines);
  }

  function send(intent) {
    if (!live) return;
    live.send(intent).then(() => ctx.error.show("")).catch((e) => ctx.error.show(e.message));
  }

  onLanguage(() => { keys.clear(); render(false); });

  return {
    connect(l) { live = l; },
    welcome(v) {
      view = v;
      keys.clear();
      render(false);
    },
    update(v, events) {
      announce(v);
      view = v;
      note(events);
      render(true);
    },
  };
}
