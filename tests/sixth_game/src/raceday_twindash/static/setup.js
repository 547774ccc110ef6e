// The landing page's "Twin Dice Dash" card: every option of the game's model as a field
// (options-form.js reads the model's JSON Schema), then create the room and open its big
// screen. The server checks every value with the same model. Mounted by the room kit's
// mountCard, which draws it again on a language change with the values chosen so far.
import { el } from "/static/js/common.js";
import { language } from "/static/js/i18n.js";
import { optionField, readOptions } from "/static/js/options-form.js";
import { render } from "/static/js/present.js";
import { createRoom, mountCard } from "/static/js/rooms.js";

const GAME = "twindash";
const say = (key) => render(key, language(), GAME);

function draw(box, schema, chosen) {
  const fields = Object.keys(schema.properties).map((field) => optionField(schema, field, {
    game: GAME, value: chosen?.()[field],
  }));
  const form = el("form", { id: "twindash-create" },
    el("p", { class: "note" }, say("ui.setup_hint")),
    fields.flatMap((f) => f.nodes),
    el("button", { type: "submit", class: "primary" }, say("ui.create")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    createRoom(GAME, readOptions(fields), document.getElementById("error"));
  });
  box.replaceChildren(el("h2", {}, say("title")), form);
  return () => readOptions(fields);
}

await mountCard(GAME, draw);
