// KEIRIN on a phone: the private betting slip of one seat — its purse, all five bet types,
// its own tickets (take one back while betting is open), "done", then the race's progress
// and what its tickets returned. Only intents go to the server; the engine checks each one.
import { el } from "/static/js/common.js";
import { drawFinale } from "/static/js/finale.js";
import { keyed, onLanguage, placeText, t } from "/static/js/i18n.js";
import { phoneScreen } from "/static/js/rooms.js";
import { cash, ensureStyles, eventText, KIND_ORDER, oddsText, riderTag, ridersTag } from "./track.js";

export function mount(root, ctx) {
  ensureStyles();
  let view = null;
  const slip = { kind: "win", riders: [1, 2, 3], stake: "100" }; // kept across redraws
  const screen = phoneScreen(root, ctx, { class: "me card kr-me", "aria-label": keyed("kr_my_purse") });
  const { action, feed, info, send, section, handlers, forget } = screen;

  function renderMe(v) {
    const m = v.me || {};
    screen.showMe(m.name, m.purse === undefined ? [] : [
      [t("kr_purse"), cash(m.purse), { class: "money", id: "kr-purse" }],
      m.staked ? [t("kr_staked"), cash(m.staked)] : null]);
  }

  function ticketsList(v, m, removable) {
    if (!m.tickets.length) return el("p", {}, t("kr_no_tickets"));
    return el("ul", { class: "tickets kr-tickets" }, m.tickets.map((x, i) => el("li", {},
      el("strong", {}, t(`kr_${x.kind}`)), " ", ridersTag(x.riders, x.kind, v.config.kinds), " ",
      el("span", {}, cash(x.stake)),
      x.odds !== null ? el("span", { class: "note" }, ` @ ${oddsText(x.odds)} — ${t("pays", { amount: cash(x.pays) })}`) : null,
      removable ? el("button", { type: "button", class: "small", "aria-label": keyed("kr_take_back_n", { n: i + 1 }),
        onclick: () => send({ type: "cancel", index: i }) }, t("kr_take_back")) : null)));
  }

  function riderSelect(id, value, riders) {
    const s = el("select", { id }, Array.from({ length: riders }, (_, i) =>
      el("option", { value: i + 1 }, t("kr_rider", { n: i + 1 }))));
    s.value = String(value);
    return s;
  }

  function renderBetting(v) {
    const m = v.me;
    const key = `bet:${v.race}:${m.done}:${m.tickets.length}:${m.purse}`;
    section(action, key, () => {
      const box = el("div", { class: "card" }, el("h2", {}, t("kr_betting", { race: v.race, races: v.races })));
      if (m.done) {
        box.append(el("p", {}, t("you_are_done")), el("h3", {}, t("kr_my_tickets")), ticketsList(v, m, false));
        return box;
      }
      const riders = v.config.riders;
      const kind = el("select", { id: "kr-kind", "aria-describedby": "kr-kind-hint" }, KIND_ORDER.map((k) => el("option", { value: k }, t(`kr_${k}`))));
      const hint = el("p", { class: "note", id: "kr-kind-hint" });
      kind.value = slip.kind;
      const pickers = el("div", { class: "kr-pickers" });
      const stake = el("input", { id: "kr-stake", type: "text", inputmode: "decimal", autocomplete: "off", value: slip.stake, maxlength: 16, "aria-describedby": "kr-stake-error" });
      const stakeError = el("p", { class: "kr-field-error", id: "kr-stake-error", role: "alert" });
      const quote = el("p", { class: "quote", "aria-live": "polite" });
      const selects = [];
      const sync = () => {
        slip.kind = kind.value;
        hint.textContent = t(`kr_${kind.value}_hint`);
        const spec = v.config.kinds[kind.value];
        selects.length = 0;
        const parts = [];
        for (let i = 0; i < spec.riders; i++) {
          const id = `kr-rider-${i}`;
          const taken = selects.map((x) => Number(x.value));
          let pick = Math.min(slip.riders[i] || i + 1, riders);
          if (taken.includes(pick)) pick = [...Array(riders).keys()].map((k) => k + 1).find((k) => !taken.includes(k));
          const s = riderSelect(id, pick, riders);
          s.addEventListener("change", () => { slip.riders[i] = Number(s.value); quoteNow(); });
          selects.push(s);
          parts.push(el("div", {}, el("label", { for: id }, spec.ordered ? placeText(i + 1) : t("kr_any_order", { n: i + 1 })), s));
        }
        pickers.replaceChildren(...parts);
        quoteNow();
      };
      const quoteNow = () => {
        const picked = selects.map((s) => Number(s.value));
        const spec = v.config.kinds[kind.value];
        const keyed = (spec.ordered ? picked : picked.slice().sort((a, b) => a - b)).join("-");
        if (new Set(picked).size !== picked.length) { quote.textContent = t("kr_same_rider"); return; }
        if (v.config.mode === "pool") {
          quote.textContent = t("kr_pool_sealed_quote"); // no pool is shown while betting is open
        } else {
          quote.textContent = `${t("odds")} ${oddsText(v.board.odds[kind.value]?.[keyed])}`;
        }
      };
      kind.addEventListener("change", sync);
      stake.addEventListener("input", () => { slip.stake = stake.value; });
      const quick = el("div", { class: "row kr-quick" }, [100, 500, 1000].map((n) =>
        el("button", { type: "button", onclick: () => { stake.value = String(n); slip.stake = stake.value; } }, cash(n * 100))));
      // the app's own checks and words, never the browser's bubbles (novalidate)
      const form = el("form", { class: "ticket-form", novalidate: "" },
        el("label", { for: "kr-kind" }, t("kr_ticket_kind")), kind, hint, pickers,
        el("label", { for: "kr-stake" }, t("stake")), stake, stakeError, quick, quote,
        el("button", { type: "submit", class: "primary" }, t("kr_buy")));
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        if (!stake.value.trim()) {
          stakeError.textContent = t("kr_stake_needed");
          stake.setAttribute("aria-invalid", "true");
          stake.focus();
          return;
        }
        stakeError.textContent = "";
        stake.removeAttribute("aria-invalid");
        await send({ type: "ticket", kind: kind.value, riders: selects.map((s) => Number(s.value)), stake: stake.value.trim() });
      });
      sync();
      if (m.hint) box.append(hintPanel(v, m.hint, () => {  // fills the slip; the stake stays the learner's
        slip.kind = m.hint.kind;
        slip.riders = [...m.hint.riders];
        kind.value = slip.kind;
        sync();
        stake.focus();
      }));
      box.append(form, el("h3", {}, t("kr_my_tickets")), ticketsList(v, m, true),
        el("button", { type: "button", class: "done", onclick: () => send({ type: "done" }) }, t("done_betting")));
      return box;
    });
  }

  // a learner's night (the room's hints): the favourite, its fair odds against the board's
  function hintPanel(v, hint, use) {
    const ticket = `${t(`kr_${hint.kind}`)} ${hint.label}`;
    const words = hint.odds === null ? t("kr_hint_ticket_pool", { ticket, chance: hint.chance, fair: hint.fair })
      : t("kr_hint_ticket", { ticket, chance: hint.chance, fair: hint.fair, odds: hint.odds, back: hint.back });
    return el("section", { class: "kr-hint", id: "kr-hint", "aria-labelledby": "kr-hint-title" },
      el("h3", { id: "kr-hint-title" }, t("kr_hint_title")), el("p", {}, words),
      el("button", { type: "button", id: "kr-hint-use", onclick: use }, t("kr_hint_buy")));
  }

  function renderRacing(v) {
    const m = v.me;
    const lv = v.live;
    const key = `race:${v.race}:${lv.turn}:${lv.phase}:${lv.ranked.join(",")}:${Object.keys(lv.positions).length}`;
    section(action, key, () => {
      const box = el("div", { class: "card" }, el("h2", {}, t("kr_racing", { race: v.race, races: v.races })));
      if (!Object.keys(lv.positions).length) box.append(el("p", {}, t("kr_derny_waits")));
      else if (lv.phase === "over") box.append(el("p", { class: "next-roll kr-wait" }, t("kr_results_wait")));
      else if (lv.phase === "photo") box.append(el("p", { class: "next-roll" }, t("kr_photo")));
      else box.append(el("p", { class: "next-roll" }, t("kr_laps_to_go", { n: lv.laps_to_go }), " · ", t("kr_squares_to_go", { n: lv.to_go, turn: lv.turn })));
      if (Object.keys(lv.positions).length) {
        const riders = Object.keys(lv.positions).map(Number);
        const rest = riders.filter((r) => !lv.ranked.includes(r)).sort((a, b) => lv.positions[b] - lv.positions[a] || a - b);
        box.append(el("p", { class: "kr-order-line", "aria-label": keyed("kr_running_order") },
          [...lv.ranked, ...rest].slice(0, 5).map((r) => riderTag(r))));
      }
      box.append(el("h3", {}, t("kr_my_tickets")), ticketsList(v, m, false));
      return box;
    });
  }

  function renderInfo(v) {
    const parts = [];
    const m = v.me;
    if (v.last && v.phase !== "racing") {
      const mine = m.last || [];
      const got = mine.reduce((a, x) => a + x.returned, 0);
      parts.push(el("div", { class: "card kr-mine" },
        el("h2", {}, t("kr_race_result", { race: v.last.race })),
        el("p", { class: "kr-order-line" }, v.last.ranking.slice(0, 3).map((r) => riderTag(r))),
        mine.length ? el("ul", { class: "tickets" }, mine.map((x) => el("li", { class: x.won ? "won" : "" },
          x.won ? "✔ " : (x.returned ? "↺ " : "✘ "), el("strong", {}, t(`kr_${x.kind}`)), " ",
          ridersTag(x.riders, x.kind, v.config.kinds), " ", cash(x.stake), " → ", el("strong", {}, cash(x.returned)))))
          : el("p", {}, t("kr_no_tickets_last")),
        mine.length ? el("p", {}, t("kr_you_got", { amount: cash(got) })) : null));
    }
    if (v.standings) {
      const mine = v.standings.find((s) => s.player === m.seat);
      if (mine) parts.push(el("p", { class: "kr-rank" }, t("kr_your_rank", { rank: mine.rank, n: v.standings.length })));
    }
    if (v.phase === "finished") {
      parts.unshift(el("h2", { class: "kr-over" }, t("kr_night_over")),
        v.finale ? drawFinale(v.finale, { game: "keirin", seat: m.seat }) : "");
    }
    info.replaceChildren(...parts);
  }

  function render() {
    if (!view) return;
    const v = view;
    document.body.dataset.phase = v.phase;
    feed.hidden = v.phase === "finished";  // the finale's heading says the night is over, once
    renderMe(v);
    if (v.phase === "lobby") screen.lobby(v);
    else if (v.phase === "betting") renderBetting(v);
    else if (v.phase === "racing") renderRacing(v);
    else section(action, "over", () => null);
    renderInfo(v);
  }

  onLanguage(() => { forget(); render(); });

  return handlers((v) => { view = v; }, render, eventText);
}
