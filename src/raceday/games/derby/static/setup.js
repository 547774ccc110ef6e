// The landing page's Dice Derby card: every house rule the room is created from (the
// room's options model, served as a schema: races, falls, real dice, loans, the first-out
// bonus, party odds, money, prizes, ticket limits), then the room is created and its big
// screen opened. The server checks every value with the same model.
import { el } from "/static/js/common.js";
import { t } from "/static/js/i18n.js";
import { optionField, readOptions } from "/static/js/options-form.js";
import { createRoom, mountCard } from "/static/js/rooms.js";

const FALLS = { "0": "fall_none", "1/20": "fall_some" };
// The page's own words for the falls (a few named rates instead of a typed one).
const SETTINGS = {
  fall_rate: { id: "derby-fall-rate", choices: Object.keys(FALLS), choiceLabel: (v) => t(FALLS[v]) },
};

function draw(box, schema, read) {
  const kept = read ? read() : {};
  const fields = Object.keys(schema.properties).map((field) => optionField(schema, field, {
    game: "derby", value: kept[field], ...SETTINGS[field],
  }));
  const form = el("form", { id: "create" },
    el("p", {}, el("span", { class: "pill" }, t("derby"))),
    fields.flatMap((f) => f.nodes),
    el("button", { type: "submit", class: "primary" }, t("create")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    createRoom("derby", readOptions(fields), document.getElementById("error"));
  });
  box.replaceChildren(el("h2", { id: "create-title" }, t("create_title")), el("p", {}, t("create_hint")), form);
  return () => readOptions(fields);
}

await mountCard("derby", draw);
