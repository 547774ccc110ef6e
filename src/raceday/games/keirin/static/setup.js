// The landing page's "KEIRIN" card: every option the room is created from (the room's
// options model, served as a schema: races, riders, finish, fixed odds or pools, margin,
// purse), drawn by options-form.js. The server checks every option with the same model.
import { el } from "/static/js/common.js";
import { optionField, readOptions } from "/static/js/options-form.js";
import { createRoom, mountCard } from "/static/js/rooms.js";
import { t } from "/static/js/i18n.js";

const MARGINS = [0, 0.05, 0.1, 0.15, 0.2, 0.25];  // the page's own few margins, as percent
const SETTINGS = {
  margin: { choices: MARGINS, choiceLabel: (v) => `${Math.round(Number(v) * 100)}%` },
};

function draw(box, schema, read) {
  const kept = read ? read() : {};
  const fields = Object.keys(schema.properties).map((field) => optionField(schema, field, {
    game: "keirin", id: `kr-${field}`, value: kept[field], ...SETTINGS[field],
  }));
  const form = el("form", { id: "keirin-create" },
    el("p", {}, el("span", { class: "pill" }, t("keirin"))),
    el("p", { class: "note" }, t("kr_setup_hint")),
    fields.flatMap((f) => f.nodes),
    el("button", { type: "submit", class: "primary" }, t("kr_create")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    createRoom("keirin", readOptions(fields), document.getElementById("error"));
  });
  box.replaceChildren(el("h2", {}, t("kr_setup_title")), form);
  return () => readOptions(fields);
}

await mountCard("keirin", draw);
