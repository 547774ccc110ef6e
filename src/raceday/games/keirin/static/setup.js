// The landing page's "KEIRIN" card: races, riders, fixed odds or pools, margin, purse.
// The server checks every option with the engine; the race's riders come from the options
// model's schema (options-form.js).
import { el } from "/static/js/common.js";
import { optionField } from "/static/js/options-form.js";
import { createRoom, mountCard } from "/static/js/rooms.js";
import { t } from "/static/js/i18n.js";

function draw(box, schema) {
  const races = el("select", { id: "kr-races", name: "races" }, [1, 2, 3, 4, 5, 6, 8, 10, 12].map((n) => el("option", { value: n }, String(n))));
  races.value = "3";
  const riders = optionField(schema, "riders", { game: "keirin", id: "kr-riders" });
  const mode = el("select", { id: "kr-mode", name: "mode" },
    el("option", { value: "fixed" }, t("kr_mode_fixed")), el("option", { value: "pool" }, t("kr_mode_pool")));
  const margin = el("select", { id: "kr-margin", name: "margin" }, [0, 5, 10, 15, 20, 25].map((n) => el("option", { value: n }, `${n}%`)));
  margin.value = "0";
  const bankroll = el("input", { id: "kr-bankroll", name: "bankroll", type: "number", min: 1, max: 100000000, value: 10000, inputmode: "numeric" });
  const form = el("form", { id: "keirin-create" },
    el("p", {}, el("span", { class: "pill" }, t("keirin"))),
    el("p", { class: "note" }, t("kr_setup_hint")),
    el("label", { for: "kr-races" }, t("races")), races,
    riders.nodes,
    el("label", { for: "kr-mode" }, t("kr_mode")), mode,
    el("label", { for: "kr-margin" }, t("kr_margin")), margin,
    el("label", { for: "kr-bankroll" }, t("kr_bankroll")), bankroll,
    el("button", { type: "submit", class: "primary" }, t("kr_create")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    createRoom("keirin", {
      races: Number(races.value), riders: riders.read(), mode: mode.value,
      margin: Number(margin.value) / 100, bankroll: Number(bankroll.value),
    }, document.getElementById("error"));
  });
  box.replaceChildren(el("h2", {}, t("kr_setup_title")), form);
}

await mountCard("keirin", draw);
