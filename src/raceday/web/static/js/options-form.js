// Setup forms from a game's options model. The server serves the model's JSON Schema at
// GET /api/games/<game>/options; optionField() turns one of its fields into a labelled input:
// a select for a field with choices (an enum, or a few whole numbers), a number input with
// the model's min/max/step, a checkbox for a switch, a text input otherwise. Labels are the
// message "<game>.option.<field>" (the schema's title where the tables have none); a choice
// is "<game>.option.<field>.<value>". readOptions() gives the JSON object to send. The form
// only helps: the server checks every value with the same model.
import { el } from "./common.js";
import { language } from "./i18n.js";
import { FALLBACK, known, render } from "./present.js";

const MAX_SELECT = 12;  // whole-number fields with at most this many values become a select
const schemas = {};

// The JSON Schema of `game`'s options (fetched once); `purpose` "room": of the model its
// browser room is created from (the game's own where the room declares none).
export function optionsSchema(game, purpose = "game") {
  const query = purpose === "game" ? "" : `?for=${encodeURIComponent(purpose)}`;
  schemas[`${game}${query}`] ??= fetch(`/api/games/${encodeURIComponent(game)}/options${query}`).then(async (answer) => {
    if (!answer.ok) throw new Error(`options of ${game}: HTTP ${answer.status}`);
    return answer.json();
  });
  return schemas[`${game}${query}`];
}

// The message `key` of `game` in the page's language, or `fallback` where no table has it.
export function optionWords(game, key, fallback) {
  const lang = language();
  if (!known(key, lang, game) && !known(key, FALLBACK, game)) return fallback;
  return render(key, lang, game);
}

// A field's schema as one kind: {type, enum, minimum, maximum, nullable, default, title, words}.
export function fieldKind(schema, field) {
  const prop = schema.properties?.[field];
  if (!prop) throw new Error(`the options have no field ${field}`);
  const kinds = (prop.anyOf ?? [prop]).filter((k) => k.type !== "null");
  const nullable = Boolean(prop.anyOf) && kinds.length < prop.anyOf.length;
  const one = kinds.length === 1 ? kinds[0] : { type: "string" };
  return { ...one, enum: prop.enum ?? one.enum, nullable, default: prop.default, title: prop.title ?? field, words: prop.words };
}

function wholeChoices(kind) {
  if (kind.type !== "integer" || kind.minimum === undefined || kind.maximum === undefined) return null;
  if (kind.maximum - kind.minimum + 1 > MAX_SELECT) return null;
  return Array.from({ length: kind.maximum - kind.minimum + 1 }, (_, i) => kind.minimum + i);
}

function asValue(kind, text) {
  if (text === "") return undefined;
  return kind.type === "integer" || kind.type === "number" ? Number(text) : text;
}

// One field of the options as {field, nodes (label and input, to append), input, read()}.
// Settings: game (for the messages), id (default "<game>-<field>"), value (default: the
// model's), choices (a page's own list of values), choiceLabel(value) (a page's own words).
export function optionField(schema, field, { game, id = `${game}-${field}`, value, choices, choiceLabel } = {}) {
  const kind = fieldKind(schema, field);
  const shown = value === undefined ? kind.default : value;
  const label = optionWords(game, `option.${field}`, kind.title);
  const choiceText = (v) => choiceLabel?.(v) ?? optionWords(game, `option.${field}.${v}`, String(v));
  if (kind.words) {  // words joined by "+", each a checkbox (none: the default)
    const chosen = new Set(String(shown ?? "").split("+"));
    const boxes = kind.words.map((w) => el("input", { type: "checkbox", name: w, checked: chosen.has(w) }));
    const input = el("fieldset", { class: "gp-words", id }, el("legend", {}, label),
      kind.words.map((w, i) => el("label", { class: "check" }, boxes[i], " ", choiceText(w))));
    const read = () => kind.words.filter((w, i) => boxes[i].checked).join("+") || kind.default;
    return { field, nodes: [input], input, read };
  }
  if (kind.type === "boolean") {
    const input = el("input", { type: "checkbox", name: field, id, checked: Boolean(shown) });
    return { field, nodes: [el("label", { class: "check" }, input, " ", el("span", {}, label))], input, read: () => input.checked };
  }
  const values = choices ?? kind.enum ?? wholeChoices(kind);
  let input;
  if (values) {
    const none = kind.nullable ? [el("option", { value: "" }, optionWords(game, `option.${field}.none`, "—"))] : [];
    input = el("select", { name: field, id }, none, values.map((v) => el("option", { value: String(v) }, choiceText(v))));
    input.value = shown === null || shown === undefined ? "" : String(shown);
    // a choice's short name in the select (a narrow card shows it whole), what it means
    // ("option.<field>.<value>.about") in a line under it that follows the choice
    const about = (v) => optionWords(game, `option.${field}.${v}.about`, "");
    if (values.some((v) => about(v))) {
      const note = el("p", { class: "note option-about", id: `${id}-about` });
      const say = () => { note.textContent = about(input.value); };
      input.setAttribute("aria-describedby", note.id);
      input.addEventListener("change", say);
      say();
      return { field, nodes: [el("label", { for: id }, label), input, note], input, read: () => asValue(kind, input.value) };
    }
  } else if (kind.type === "integer" || kind.type === "number") {
    input = el("input", {
      type: "number", name: field, id, min: kind.minimum ?? kind.exclusiveMinimum, max: kind.maximum,
      step: kind.type === "integer" ? 1 : (kind.multipleOf ?? "any"),
      inputmode: kind.type === "integer" ? "numeric" : "decimal", value: shown ?? undefined,
    });
  } else {
    input = el("input", { type: "text", name: field, id, value: shown ?? undefined });
  }
  return { field, nodes: [el("label", { for: id }, label), input], input, read: () => asValue(kind, input.value) };
}

// The options the fields hold, as the JSON object the server's model reads (a field left
// at "the model's own default" is left out).
export function readOptions(fields) {
  const options = {};
  for (const f of fields) {
    const v = f.read();
    if (v !== undefined) options[f.field] = v;
  }
  return options;
}
