// Dice Derby on a phone: the private controller of one seat — sealed bids, secret
// tickets, borrowing, "done", and the roll button when this seat's horse is next.
// Only intents go to the server; it checks every one against the engine.
import { el } from "/static/js/common.js";
import { eventText, HORSES, horseTag } from "./host.js";
import { money, onLanguage, placeText, t } from "/static/js/i18n.js";
import { phoneScreen } from "/static/js/rooms.js";

export function mount(root, ctx) {
  let view = null;
  const screen = phoneScreen(root, ctx, { class: "me card", "aria-label": t("my_purse") });
  const { action, feed, info, send, section, handlers, forget } = screen;

  function renderMe(v) {
    const m = v.me || {};
    screen.showMe(m.name, m.money === undefined ? [] : [
      [t("money"), money(m.money), { class: "money" }],
      m.debt ? [t("debt"), money(m.debt)] : null,
      [t("horse"), m.horse ? horseTag(m.horse) : t("no_horse")]]);
  }

  function amountInput(id, max, value) {
    return el("input", { id, type: "number", min: 0, max, step: v_unit(), value, inputmode: "numeric", required: true });
  }
  function v_unit() { return view?.config?.stake_unit ?? 100; }

  function renderAuction(v) {
    const m = v.me;
    const a = v.auction;
    if (!m.may_bid) {
      section(action, `own:${m.horse}:${a.post}`, () => el("div", { class: "card" },
        el("p", {}, m.horse ? t("you_own", { horse: m.horse }) : ""),
        el("p", {}, t("lot", { post: a.post, horse: a.horse }))));
      return;
    }
    section(action, `bid:${a.post}:${m.sealed_bid}`, () => {
      const input = amountInput("bid", m.money, m.sealed_bid ?? 0);
      const form = el("form", { class: "card" },
        el("h2", {}, t("lot", { post: a.post, horse: a.horse })),
        el("p", { class: "center" }, horseTag(a.horse, "big")),
        el("label", { for: "bid" }, t("bid_amount")), input,
        el("button", { type: "submit", class: "primary" }, t("seal_bid")),
        m.sealed_bid !== null && m.sealed_bid !== undefined
          ? el("p", { class: "sealed", role: "status" }, t("your_bid", { amount: money(m.sealed_bid) })) : null);
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        send({ type: "bid", amount: Number(input.value) });
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
    const key = `bet:${v.race}:${m.done}:${m.tickets.length}:${m.loans}:${m.money}:${m.can_borrow}`;
    section(action, key, () => {
      const box = el("div", { class: "card" }, el("h2", {}, t("betting", { race: v.race, races: v.races })));
      if (m.done) {
        box.append(el("p", {}, t("you_are_done")), el("h3", {}, t("my_tickets")), ticketsList(m));
        return box;
      }
      const kind = el("select", { id: "kind" }, el("option", { value: "win" }, t("win")), el("option", { value: "quinella" }, t("quinella")));
      const first = el("select", { id: "horse1" }, v.horses.map((h) => el("option", { value: h.name }, `${h.name} (${h.win_text})`)));
      const second = el("select", { id: "horse2" }, HORSES.map((h) => el("option", { value: h }, h)));
      second.value = "d20";
      first.value = "d20";
      const secondLabel = el("label", { for: "horse2", class: "second" }, t("second_horse"));
      const stake = amountInput("stake", m.money, Math.min(m.money, 500) - (Math.min(m.money, 500) % v_unit()));
      const quote = el("p", { class: "quote", "aria-live": "polite" });
      const sync = () => {
        const q = kind.value === "quinella";
        second.hidden = !q;
        secondLabel.hidden = !q;
        if (q) {
          const pair = [first.value, second.value].sort((a, b) => HORSES.indexOf(a) - HORSES.indexOf(b));
          const row = v.board.quinella.find((x) => x.pair[0] === pair[0] && x.pair[1] === pair[1]);
          quote.textContent = row ? `${t("odds")} ${row.text}` : "";
        } else {
          const row = v.horses.find((h) => h.name === first.value);
          quote.textContent = row ? `${t("odds")} ${row.win_text}` : "";
        }
      };
      for (const x of [kind, first, second]) x.addEventListener("change", sync);
      const form = el("form", { class: "ticket-form" },
        el("label", { for: "kind" }, t("ticket_kind")), kind,
        el("label", { for: "horse1" }, t("first_horse")), first,
        secondLabel, second,
        el("label", { for: "stake" }, t("stake")), stake, quote,
        el("button", { type: "submit", class: "primary" }, t("buy")));
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const horses = kind.value === "win" ? [first.value] : [first.value, second.value];
        send({ type: "ticket", kind: kind.value, horses, stake: Number(stake.value) });
      });
      sync();
      box.append(form, el("h3", {}, t("my_tickets")), ticketsList(m),
        el("div", { class: "row" },
          m.can_borrow ? el("button", { type: "button", onclick: () => send({ type: "borrow" }) }, t("borrow")) : null,
          el("button", { type: "button", class: "done", onclick: () => send({ type: "done" }) }, t("done_betting"))));
      return box;
    });
  }

  function renderRacing(v) {
    const m = v.me;
    const lv = v.live;
    const key = `race:${v.race}:${m.my_turn}:${lv.next}:${lv.round}:${lv.to_roll.length}:${lv.group.length}`;
    section(action, key, () => {
      const box = el("div", { class: "card" }, el("h2", {}, t("racing", { race: v.race, races: v.races })));
      if (m.my_turn) {
        box.append(el("button", { type: "button", class: "roll primary", onclick: (ev) => { ev.target.disabled = true; send({ type: "roll" }); } },
          t("roll_your", { horse: lv.next })));
      } else if (lv.next) {
        box.append(el("p", {}, t("next_roll", { horse: lv.next, who: lv.next_owner_name || t("house") })));
      }
      box.append(el("ul", { class: "mini-track" }, HORSES.map((h) => {
        const place = lv.places[h];
        const shown = h in lv.rolls ? (lv.rolls[h] === null ? t("fell") : lv.rolls[h]) : "";
        return el("li", { class: place && place > 1 ? "is-out" : "" }, horseTag(h), " ",
          "▮".repeat(lv.furlongs[h]), " ", place ? placeText(place) : "", " ", shown !== "" ? `[${shown}]` : "");
      })));
      box.append(el("h3", {}, t("my_tickets")), ticketsList(m));
      return box;
    });
  }

  function renderInfo(v) {
    const parts = [];
    if (v.last && v.phase !== "racing") {
      const mine = v.last.payouts.filter((p) => p.player === v.me.seat);
      parts.push(el("div", { class: "card" },
        el("h2", {}, t("last_race", { race: v.last.race })),
        el("ol", { class: "order" }, v.last.order.slice(0, 3).map((h) => el("li", {}, horseTag(h), " ", placeText(v.last.places[h])))),
        mine.length ? el("ul", { class: "payouts" }, mine.map((p) => el("li", {}, `+${money(p.amount)} (${p.what})`))) : null));
    }
    if (v.standings) {
      parts.push(el("table", { class: "standings" },
        el("caption", {}, v.phase === "finished" ? t("final") : t("standings")),
        el("tbody", {}, v.standings.map((s) => el("tr", { class: s.player === v.me.seat ? "mine" : "" },
          el("td", { class: "num" }, String(s.rank)), el("th", { scope: "row" }, s.name), el("td", { class: "num" }, money(s.net)))))));
    }
    if (v.phase === "finished") {
      const award = v.award
        ? t("award", { by: t(`award_${v.award.by}`), names: v.award.names.join(", "), score: money(v.award.score) })
        : t("no_award");
      parts.unshift(el("p", { class: "award" }, award));
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
    else section(action, "over", () => el("div", { class: "card" }, el("h2", {}, t("over"))));
    renderInfo(v);
    document.body.dataset.phase = v.phase;
  }

  onLanguage(() => { forget(); render(); });

  return handlers((v) => { view = v; }, render, eventText);
}
