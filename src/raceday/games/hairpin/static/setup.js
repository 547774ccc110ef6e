// The landing page's "Hairpin Racers" card: choose the variant and who plays Red and
// Black (a person or a computer level), then create the room and open its big screen.
// The variant's words come from the options model's schema (options-form.js).
import { api, el, tokens } from "/static/js/common.js";
import { onLanguage, t } from "/static/js/i18n.js";
import { optionField, optionsSchema, readOptions } from "/static/js/options-form.js";

export const KINDS = ["human", "easy", "medium", "hard", "expert"];

export function kindSelect(name, value, id) {
  return el("select", { name, id }, KINDS.map((k) => el("option", { value: k, selected: k === value },
    k === "human" ? t("gp_human") : t("gp_computer_level", { level: t(`level_${k}`) }))));
}

export async function createRoom(game, options, error) {
  try {
    const room = await api("/api/rooms", { game, options });
    tokens.setHost(room.code, room.host_token);
    location.href = `/host/${room.code}`;
  } catch (e) {
    error.textContent = t("error", { message: e.message });
  }
}

function draw(box, schema) {
  const variant = optionField(schema, "variant", { game: "hairpin", id: "hp-variant" });
  const form = el("form", { id: "hairpin-create" },
    el("p", {}, el("span", { class: "pill" }, t("hairpin"))),
    el("p", { class: "note" }, t("hp_setup_hint")),
    el("label", { for: "hp-red" }, t("hp_red")), kindSelect("red", "human", "hp-red"),
    el("label", { for: "hp-black" }, t("hp_black")), kindSelect("black", "medium", "hp-black"),
    variant.nodes,
    el("button", { type: "submit", class: "primary" }, t("hp_create")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    createRoom("hairpin", { ...readOptions([variant]), red: form.red.value, black: form.black.value },
      document.getElementById("error"));
  });
  box.replaceChildren(el("h2", {}, t("hp_setup_title")), form);
}

const box = document.getElementById("hairpin-setup");
if (box) {
  const schema = await optionsSchema("hairpin");
  draw(box, schema);
  onLanguage(() => draw(box, schema));
}
