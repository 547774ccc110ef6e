// Dice Derby on a phone: the private controller of one seat — sealed bids, secret tickets,
// borrowing and "done" first, then the race as the server's timeline sends it, this seat's
// results once the server releases them, and the finale.
// Only intents go to the server; it checks every one against the engine. The forms check
// what they can first, in the page's own words (no browser bubbles).
import { el } from "/static/js/common.js";
import { drawFinale } from "/static/js/finale.js";
import { hintPanel } from "/static/js/hint.js";
import { keyed, language, money, onLanguage, placeText, t } from "/static/js/i18n.js";
import { render as renderMessage } from "/static/js/present.js";
import { phoneScreen, standInOf, useStyles } from "/static/js/rooms.js";
import { eventText, payoutWhat, percent } from "./host.js";
import { FURLONGS, HORSES, horseTag, ownerSwatch, SHAPES } from "./track.js";

export function mount(root, ctx) {
  useStyles("derby");
  let view = null;
  const screen = phoneScreen(root, ctx, { class: "me card", "aria-label": keyed("my_purse") });
  const { action, feed, info, send, section, handlers, forget } = screen;
  let news = null; // the last event the feed line tells, worded again after a switch

  function renderMe(v) {
    const m = v.me || {};
    const colour = v.players?.[m.seat]?.colour;
    screen.showMe(m.name, m.money === undefined ? [] : [
      [t("money"), money(m.money), { class: "money" }],
      m.debt ? [t("debt"), money(m.debt)] : null,
      [t("horse"), m.horse ? horseTag(m.horse) : t("no_horse")],
      colour ? [t("dd_your_colours"), el("span", { class: `dd-owner owner-${colour}` }, ownerSwatch(colour), m.name)] : null]);
  }

  // A learner's evening (the room's option hints): at this seat's decision the server sends
  // the lesson's advice from the exact odds (a bid's worth, the best-value ticket).
  function hint(m) {
    return m.hint ? hintPanel(m.hint, renderMessage(m.hint, language(), "derby"), null) : null;
  }
  const hintKey = (m) => JSON.stringify(m.hint ?? null);

  function unit() { return view?.config?.stake_unit ?? 100; }

  // An amount typed on the phone, checked as the server will: a whole number, a multiple
  // of the stake unit, from `low` to `high`; null (and the reason shown) otherwise. The
  // reason never repeats the amount (a bid is secret).
  function amount(input, low, high, key) {
    const raw = input.value.trim().replace(/[,\s]/g, "");
    const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
    let problem = "";
    if (!Number.isSafeInteger(n)) problem = t("dd_whole_number");
    else if (n % unit() !== 0) problem = t("dd_multiple", { unit: money(unit()) });
    else if (n < low || n > high) problem = t(key, { low: money(low), high: money(high) });
    if (problem) {
      ctx.error.show(problem);
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return null;
    }
    input.removeAttribute("aria-invalid");
    return n;
  }

  function amountInput(id, value) {
    return el("input", { id, type: "text", value: String(value), inputmode: "numeric", autocomplete: "off",
      "aria-describedby": "dd-unit-note" });
  }

  function renderAuction(v) {
    const m = v.me;
    const a = v.auction;
    if (!m.may_bid) {
      section(action, `own:${m.horse}:${a.post}:${language()}`, () => el("div", { class: "card" },
        el("p", {}, m.horse ? t("you_own", { horse: m.horse }) : ""),
        el("p", {}, t("lot", { post: a.post, horse: a.horse }))));
      return;
    }
    section(action, `bid:${a.post}:${m.sealed_bid}:${hintKey(m)}:${language()}`, () => {
      const input = amountInput("bid", m.sealed_bid ?? 0);
      const form = el("form", { class: "card dd-form", novalidate: true },
        el("h2", {}, t("lot", { post: a.post, horse: a.horse })),
        el("p", { class: "center" }, horseTag(a.horse, "big"),
          a.chance !== null && a.chance !== undefined ? el("span", { class: "dd-chance-small" }, ` ${percent(a.chance)} ${t("dd_win_chance")}`) : null),
        hint(m),
        el("label", { for: "bid" }, t("bid_amount")), input,
        el("p", { class: "note", id: "dd-unit-note" }, t("dd_unit_note", { unit: money(unit()), max: money(m.money) })),
        el("button", { type: "submit", class: "primary" }, t("seal_bid")),
        m.sealed_bid !== null && m.sealed_bid !== undefined
          ? el("p", { class: "sealed", role: "status" }, t("your_bid", { amount: money(m.sealed_bid) })) : null);
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const n = amount(input, 0, m.money, "dd_bid_range");
        if (n !== null) send({ type: "bid", amount: n });
      });
      return form;
    });
  }

  function ticketsList(m) {
    if (!m.tickets?.length) return el("p", {}, t("no_tickets"));
    return el("ul", { class: "tickets" }, m.tickets.map((x) => el("li", {},
      el("strong", {}, t(x.kind)), " ", x.horses.flatMap((h, i) => (i ? ["–", horseTag(h)] : [horseTag(h)])), " ",
      `${money(x.stake)} × ${x.odds_text} — ${t("pays", { amount: money(x.pays) })}`)));
  }

  function renderBetting(v) {
    const m = v.me;
    const key = `bet:${v.race}:${m.done}:${m.tickets.length}:${m.loans}:${m.money}:${m.can_borrow}:${hintKey(m)}:${language()}`;
    section(action, key, () => {
      const box = el("div", { class: "card" }, el("h2", {}, t("betting", { race: v.race, races: v.races })));
      if (v.last) {  // the last race's news first, in one line (the details are below)
        const won = v.last.payouts.filter((p) => p.player === m.seat).reduce((s, p) => s + p.amount, 0);
        box.append(el("p", { class: won ? "dd-won-line" : "dd-lost-line" },
          won ? t("dd_race_won", { race: v.last.race, amount: money(won) }) : t("dd_race_lost", { race: v.last.race })));
      }
      if (m.done) {
        box.append(el("p", {}, t("you_are_done")), el("h3", {}, t("my_tickets")), ticketsList(m));
        return box;
      }
      const kind = el("select", { id: "kind" }, el("option", { value: "win" }, t("win")), el("option", { value: "quinella" }, t("quinella")));
      const first = el("select", { id: "horse1" });
      const second = el("select", { id: "horse2" }, HORSES.map((h) => el("option", { value: h }, `${SHAPES[h]} ${h}`)));
      second.value = "d12";
      const secondLabel = el("label", { for: "horse2", class: "second" }, t("second_horse"));
      const start = Math.min(m.money, 500) - (Math.min(m.money, 500) % unit());
      const stake = amountInput("stake", start);
      const quote = el("p", { class: "quote", "aria-live": "polite" });
      const fillFirst = (q) => {
        const keep = first.value || "d20";
        // the quinella's first menu names horses only: a win's odds would mislead there
        first.replaceChildren(...v.horses.map((h) => el("option", { value: h.name },
          q ? `${SHAPES[h.name]} ${h.name}` : `${SHAPES[h.name]} ${h.name} (${h.win_text})`)));
        first.value = keep;
      };
      const sync = () => {
        const q = kind.value === "quinella";
        fillFirst(q);
        second.hidden = !q;
        secondLabel.hidden = !q;
        if (q) {
          const pair = [first.value, second.value].sort((a, b) => HORSES.indexOf(a) - HORSES.indexOf(b));
          const row = v.board.quinella.find((x) => x.pair[0] === pair[0] && x.pair[1] === pair[1]);
          quote.textContent = row ? `${t("odds")} ${row.text}` : t("dd_two_horses");
        } else {
          const row = v.horses.find((h) => h.name === first.value);
          quote.textContent = row ? `${t("odds")} ${row.win_text}` : "";
        }
      };
      for (const x of [kind, first, second]) x.addEventListener("change", sync);
      const form = el("form", { class: "ticket-form dd-form", novalidate: true },
        el("label", { for: "kind" }, t("ticket_kind")), kind,
        el("label", { for: "horse1" }, t("first_horse")), first,
        secondLabel, second,
        el("label", { for: "stake" }, t("stake")), stake,
        el("p", { class: "note", id: "dd-unit-note" }, t("dd_unit_note", { unit: money(unit()), max: money(m.money) })),
        quote,
        el("button", { type: "submit", class: "primary" }, t("buy")));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const q = kind.value === "quinella";
        if (q && first.value === second.value) { ctx.error.show(t("dd_two_horses")); second.focus(); return; }
        const n = amount(stake, unit(), m.money, "dd_stake_range");
        if (n === null) return;
        const horses = q ? [first.value, second.value] : [first.value];
        send({ type: "ticket", kind: kind.value, horses, stake: n });
      });
      sync();
      box.append(...[hint(m)].filter(Boolean), form, el("h3", {}, t("my_tickets")), ticketsList(m),
        el("div", { class: "row" },
          m.can_borrow ? el("button", { type: "button", onclick: () => send({ type: "borrow" }) }, t("borrow")) : null,
          el("button", { type: "button", class: "done", onclick: () => send({ type: "done" }) }, t("done_betting"))));
      return box;
    });
  }

  // the furlong (or roll-off) the race has just run, as the big screen says it
  function runTitle(lv) {
    const run = lv.rounds[lv.rounds.length - 1];
    if (!run) return t("dd_off");
    return run.rolloff ? t("rolloff", { place: placeText(lv.for_place) }) : t("furlong", { n: Math.min(run.round, FURLONGS) });
  }

  function renderRacing(v) {
    const m = v.me;
    const lv = v.live;
    const key = `race:${v.race}:${lv.round}:${lv.finished}:${lv.rounds.length}:${language()}`;
    section(action, key, () => {
      const box = el("div", { class: "card dd-phone-race" },
        el("h2", {}, t("racing", { race: v.race, races: v.races }), " — ",
          lv.finished ? t("dd_finish") : runTitle(lv)));
      if (lv.finished) {
        // the finish is the big screen's moment: the results come to every phone together
        box.append(el("p", { class: "dd-wait-results", role: "status" }, t("dd_results_soon")));
      } else {
        box.append(el("ul", { class: "mini-track", "aria-label": keyed("dd_track") }, HORSES.map((h) => {
          const place = lv.places[h];
          const n = Math.min(lv.furlongs[h] ?? 0, FURLONGS);
          return el("li", { class: place && place > 1 ? "is-out" : "" }, horseTag(h), " ",
            el("span", { class: "dd-bar", "aria-hidden": "true" }, "▮".repeat(n)),
            el("span", { class: "dd-sr" }, t("furlong", { n })), " ", place ? placeText(place) : "");
        })));
      }
      box.append(el("h3", {}, t("my_tickets")), ticketsList(m));
      return box;
    });
  }

  function myResult(v) {
    if (!v.last || v.phase === "racing") return null;
    const mine = v.last.payouts.filter((p) => p.player === v.me.seat);
    const total = mine.reduce((s, p) => s + p.amount, 0);
    // what the player won first, then the placings (each numbered once, by its place word)
    return el("div", { class: "card dd-my-result", "data-race": String(v.last.race) },
      el("h2", {}, t("last_race", { race: v.last.race })),
      mine.length
        ? el("p", { class: "dd-won" }, t("dd_you_won", { amount: money(total) }))
        : el("p", {}, t("dd_no_win")),
      mine.length ? el("ul", { class: "payouts" }, mine.map((p) => el("li", {}, `+${money(p.amount)} (${payoutWhat(p)})`))) : null,
      el("ol", { class: "order dd-places" }, v.last.order.slice(0, 2).map((h) => el("li", {}, placeText(v.last.places[h]), " ", horseTag(h)))));
  }

  function renderInfo(v) {
    const parts = [];
    if (v.phase === "finished" && v.finale) {
      parts.push(drawFinale(v.finale, { game: "derby", isHost: false, seat: v.me?.seat ?? null }));
    }
    const result = myResult(v);
    if (result) parts.push(result);
    if (v.standings) {
      parts.push(el("table", { class: "standings" },
        el("caption", {}, v.phase === "finished" ? t("final") : t("standings")),
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rank")), el("th", { scope: "col" }, t("player")), el("th", { scope: "col" }, t("net")))),
        el("tbody", {}, v.standings.map((s) => el("tr", { class: s.player === v.me.seat ? "mine" : "" },
          el("td", { class: "num" }, String(s.rank)), el("th", { scope: "row" }, ownerSwatch(v.players?.[s.player]?.colour), s.name, standInOf(v, s.player)),
          el("td", { class: "num" }, money(s.net)))))));
    }
    info.replaceChildren(...parts);
  }

  function render() {
    if (!view) return;
    const v = view;
    renderMe(v);
    if (v.phase === "lobby") screen.lobby(v);
    else if (v.phase === "auction") renderAuction(v);
    else if (v.phase === "betting") renderBetting(v);
    else if (v.phase === "racing") renderRacing(v);
    else section(action, `over:${language()}`, () => el("div", { class: "card" }, el("h2", {}, t("over"))));
    const key = `${v.phase}:${JSON.stringify([v.standings ?? null, v.stand_ins ?? null])}:${v.last?.race ?? ""}:${language()}`;
    if (info.dataset.key !== key) {
      info.dataset.key = key;
      renderInfo(v);
    }
    document.body.dataset.phase = v.phase;
    feed.hidden = v.phase === "finished";  // the card above says the evening is over, once
    document.body.dataset.result = v.last && v.phase !== "racing" ? String(v.last.race) : "";
  }

  onLanguage(() => {
    forget();
    info.dataset.key = "";
    render();
    if (news) feed.textContent = eventText(news);
  });

  // the race's places and result are the big screen's to tell: the phone's line skips them
  const quiet = new Set(["result", "place"]);
  const words = (e) => {
    const text = quiet.has(e.type) ? "" : eventText(e);
    if (text) news = e;
    return text;
  };
  return handlers((v) => { view = v; }, render, words);
}
