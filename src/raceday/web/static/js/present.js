// The browser's half of raceday.present: the server's message tables (GET /api/messages/<lang>)
// and render(), which follows exactly the rules of raceday.present.render in Python:
// a template's {name} slots take the parameters; a parameter that is itself a message
// ({key, params}) is rendered first; a list is joined with the language's separator; true and
// false read "yes" and "no"; null reads as nothing; any other object shows as compact JSON
// (a template should not name one); a slot without a parameter stays as it is.
// A key may come in plural forms, "<key>.one" and "<key>.other", chosen by the count n among
// the parameters; a key counted by another parameter names it after the form, "<key>.one@past"
// and "<key>.other@past". A count is a number or a number's text ("1,200"); a key with forms but
// no count reads its other form. A language without plurals gives both forms the same text.
// A key missing in the language falls back to English, and a key missing there renders as itself.
// With a game, the game's own key "<game>.<key>" is looked up first.

export const LANGUAGES = ["en", "ja"];
export const FALLBACK = "en";
const SEPARATORS = { en: ", ", ja: "、" };
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const COUNT = "n";  // the parameter that chooses a key's plural form, unless the form names another
const COUNTED_BY = "@";  // "<key>.one@past": the form chosen by the parameter "past"
const tables = {};
const loading = {};

async function fetchTable(lang) {
  const answer = await fetch(`/api/messages/${lang}`);
  if (!answer.ok) throw new Error(`message table ${lang}: HTTP ${answer.status}`);
  tables[lang] = await answer.json();
  return tables[lang];
}

// The table of `lang`, fetched from the server once (callers at the same time share it).
export function loadTable(lang) {
  if (!LANGUAGES.includes(lang)) return Promise.reject(new Error(`unknown language ${lang}`));
  if (tables[lang]) return Promise.resolve(tables[lang]);
  loading[lang] ??= fetchTable(lang).finally(() => { delete loading[lang]; });
  return loading[lang];
}

// Use `entries` as the table of `lang` (a page that has it already, or a test).
export function setTable(lang, entries) { tables[lang] = entries; }

export function hasTable(lang) { return Boolean(tables[lang]); }

// The template of `key` in `lang` (the game's own key first), or undefined.
export function template(key, lang, game = null) {
  const entries = tables[lang];
  if (!entries) return undefined;
  if (game != null && Object.hasOwn(entries, `${game}.${key}`)) return entries[`${game}.${key}`];
  return Object.hasOwn(entries, key) ? entries[key] : undefined;
}

// Whether `lang`'s table words `key` (the game's own key first): the key itself or one of its
// plural forms ("<key>.other", "<key>.other@past"), as a key counted by a parameter has no
// plain entry.
export function known(key, lang, game = null) {
  if (template(key, lang, game) !== undefined) return true;
  const entries = tables[lang];
  if (!entries) return false;
  const stems = game != null ? [`${game}.${key}.other`, `${key}.other`] : [`${key}.other`];
  return Object.keys(entries).some((k) => stems.some((stem) => k === stem || k.startsWith(`${stem}${COUNTED_BY}`)));
}

const NUMBER_TEXT = /^(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)$/;  // "1,200", "1", "2.5"

// The plural form ("one" or "other") a count chooses; null for a parameter that is neither a
// number nor a number's text.
export function pluralForm(count) {
  if (typeof count === "string" && NUMBER_TEXT.test(count)) count = Number(count.replaceAll(",", ""));
  if (typeof count !== "number") return null;
  return count === 1 ? "one" : "other";
}

// The key of `key`'s plural `form` chosen by the parameter `count` ("<key>.one", "<key>.one@past").
export function pluralKey(key, form, count = COUNT) {
  return count === COUNT ? `${key}.${form}` : `${key}.${form}${COUNTED_BY}${count}`;
}

// The template of `key` in `lang`: its plural form for a count among the parameters (n first,
// then the others in order) where the table has one, else the key itself, else its other form
// (a count that is missing or no number).
function pick(key, values, lang, game) {
  const all = Object.keys(values);
  const names = [...all.filter((k) => k === COUNT), ...all.filter((k) => k !== COUNT)];
  for (const name of names) {
    const form = pluralForm(values[name]);
    const found = form === null ? undefined : template(pluralKey(key, form, name), lang, game);
    if (found !== undefined) return found;
  }
  let found = template(key, lang, game);
  for (const name of [COUNT, ...names]) found ??= template(pluralKey(key, "other", name), lang, game);
  return found;
}

function value(v, lang, game) {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.map((x) => value(x, lang, game)).join(SEPARATORS[lang] ?? ", ");
  if (typeof v === "object") return typeof v.key === "string" ? render(v, lang, game) : JSON.stringify(v);
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v);
}

// `message` ({key, params} or a key, with `params`) in `lang`, as text.
export function render(message, lang = FALLBACK, game = null, params = null) {
  const msg = typeof message === "string" ? { key: message, params: params || {} } : message;
  const values = msg.params || {};
  let text = pick(msg.key, values, lang, game);
  if (text === undefined && lang !== FALLBACK) text = pick(msg.key, values, FALLBACK, game);
  if (text === undefined) return msg.key;
  return text.replace(PLACEHOLDER, (slot, name) => (Object.hasOwn(values, name) ? value(values[name], lang, game) : slot));
}

// One event ({kind, ...facts}, as Event.to_dict gives it, or {key, params}) as a sentence:
// "event.<kind>" filled with its facts, as raceday.present.describe_event. A fact that is
// true may word the event otherwise: "event.<kind>.<fact>" is used when a table has it
// (the first such fact, in the event's order).
export function describeEvent(game, event, lang = FALLBACK) {
  let key = event.key;
  let params = event.params;
  if (key === undefined) {
    const { kind, ...facts } = event;
    key = `event.${kind}`;
    params = facts;
  }
  params ??= {};
  for (const [fact, v] of Object.entries(params)) {
    const variant = `${key}.${fact}`;
    if (v === true && (pick(variant, params, lang, game) !== undefined || pick(variant, params, FALLBACK, game) !== undefined))
      return render({ key: variant, params }, lang, game);
  }
  return render({ key, params }, lang, game);
}
