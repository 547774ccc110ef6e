// The landing page's "Twin Dice Dash" card: every option of the game's model as a field
// (options-form.js reads the model's JSON Schema), then create the room and open its big
// screen. The server checks every value with the same model.
import { el } from "/static/js/common.js";
import { language, onLanguage } from "/static/js/i18n.js";
import { optionField, optionsSchema, readOptions } from "/static/js/options-form.js";
import { render } from "/static/js/present.js";
import { createRoom } from "/static/js/rooms.js";

const GAME = "twindash";
const say = (key) => render(key, language(), GAME);

function draw(box, schema) {
  const fields = Object.keys(schema.properties).map((field) => optionField(schema, field, { game: GAME }));
  const form = el("form", { id: "twindash-create" },
    el("p", { class: "note" }, say("ui.setup_hint")),
    fields.flatMap((f) => f.nodes),
    el("button", { type: "submit", class: "primary" }, say("ui.create")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    createRoom(GAME, readOptions(fields), document.getElementById("error"));
  });
  box.replaceChildren(el("h2", {}, say("title")), form);
}

const box = document.getElementById(`${GAME}-setup`);
if (box) {
  const schema = await optionsSchema(GAME);
  draw(box, schema);
  onLanguage(() => draw(box, schema));
}
