// The landing page's "Hairpin Racers" card: choose the variant and who plays Red and
// Black (a person or a computer level), whether it is played over days, then create the
// room and open its big screen.
// The variant's words come from the options model's schema (options-form.js).
import { el } from "/static/js/common.js";
import { createRoom, kindSelect, mountCard } from "/static/js/rooms.js";
import { t } from "/static/js/i18n.js";
import { optionField, readOptions } from "/static/js/options-form.js";
import { daysField } from "/static/js/days.js";

function draw(box, schema) {
  const variant = optionField(schema, "variant", { game: "hairpin", id: "hp-variant" });
  const days = daysField("hp-days");
  const form = el("form", { id: "hairpin-create" },
    el("p", {}, el("span", { class: "pill" }, t("hairpin"))),
    el("p", { class: "note" }, t("hp_setup_hint")),
    el("label", { for: "hp-red" }, t("hp_red")), kindSelect("red", "human", "hp-red"),
    el("label", { for: "hp-black" }, t("hp_black")), kindSelect("black", "medium", "hp-black"),
    variant.nodes, days.nodes,
    el("button", { type: "submit", class: "primary" }, t("hp_create")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    createRoom("hairpin", { ...readOptions([variant, days]), red: form.red.value, black: form.black.value },
      document.getElementById("error"));
  });
  box.replaceChildren(el("h2", {}, t("hp_setup_title")), form);
}

await mountCard("hairpin", draw);
