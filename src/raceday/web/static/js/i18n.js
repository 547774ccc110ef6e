// The pages' words: t(key, params) renders a key of the server's message tables
// (GET /api/messages/<lang>, rendered by present.js with the rules of raceday.present).
// A page names a game's own word by its short key ("hp_laps"): t() finds it in the one
// game table that has it ("hairpin.hp_laps"), so pages need not know which game owns a word.
import { FALLBACK, LANGUAGES, hasTable, loadTable, render } from "./present.js";

const KEY = "raceday.lang";
let lang = pickLanguage();
const listeners = [];
const owners = {};  // a game's own short key -> that game (only where one game has it)

// A key without its plural form ("pi_points_n.one" and "kr_lineup.one@to_go" are the key before it).
const singular = (key) => key.replace(/\.(one|other)(@[A-Za-z_][A-Za-z0-9_]*)?$/, "");

// Note which game owns each short key of `entries` (keys "<game>.<key>" without a dot in <key>,
// or with only a plural form after it).
function noteOwners(entries) {
  const shared = new Set(Object.keys(entries).map(singular).filter((k) => !k.includes(".")));
  const seen = {};
  for (const full of Object.keys(entries)) {
    const dot = full.indexOf(".");
    const short = singular(full.slice(dot + 1));
    if (dot < 0 || short.includes(".") || shared.has(short)) continue;
    (seen[short] ??= new Set()).add(full.slice(0, dot));
  }
  for (const [short, games] of Object.entries(seen)) {
    if (games.size === 1) owners[short] = [...games][0];
  }
}

async function load(next) {
  const entries = await loadTable(next);
  if (next === FALLBACK) noteOwners(entries);
}

await Promise.all([load(FALLBACK), load(lang)]);

function pickLanguage() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && LANGUAGES.includes(saved)) return saved;
  } catch (_) { /* storage off */ }
  const wanted = (navigator.languages || [navigator.language || "en"]);
  for (const l of wanted) {
    const short = String(l).toLowerCase().slice(0, 2);
    if (LANGUAGES.includes(short)) return short;
  }
  return "en";
}

export function language() { return lang; }

export async function setLanguage(next) {
  if (!LANGUAGES.includes(next)) return;
  if (!hasTable(next)) await load(next);
  lang = next;
  try { localStorage.setItem(KEY, next); } catch (_) { /* storage off */ }
  document.documentElement.lang = next;
  translatePage();
  for (const f of [...listeners]) f(next);
}

// Call f(language) after each switch (to redraw what is on screen); returns a function that
// stops it (for a part of the page that is drawn anew and thrown away).
export function onLanguage(f) {
  listeners.push(f);
  return () => {
    const i = listeners.indexOf(f);
    if (i >= 0) listeners.splice(i, 1);
  };
}

// A refusal from the server in the page's language: its words ({key, params}) where it sent
// them; else its English text on an English page, and a sentence of the page's language
// saying no reason came in it on any other (never English inside another language).
export function refusal(answer, text) {
  if (answer && answer.words) return render(answer.words, lang);
  return lang === FALLBACK || !text ? text : t("refusal.unworded");
}

export function t(key, params = {}) {
  return render({ key, params }, lang, owners[key] ?? null);
}

export function placeText(n) {
  if (n === 1) return t("place_1");
  if (n === 2) return t("place_2");
  if (n === 3) return t("place_3");
  return t("place_n", { n });
}

export function money(n) {
  return Number(n).toLocaleString(lang === "ja" ? "ja-JP" : "en-US");
}

// Facts that are amounts of money (a stake, a price, a payout, a purse): shown as money().
const AMOUNTS = new Set(["amount", "price", "money", "repay", "score", "stake", "pays", "net", "purse", "pool", "payout"]);

// A message ({key, params}, nested ones too) with its amounts of money written with the
// reader's thousands separators, as the live pages show them.
export function withAmounts(value, key = "") {
  if (typeof value === "number" && AMOUNTS.has(key)) return money(value);
  if (Array.isArray(value)) return value.map((v) => withAmounts(v));
  if (value && typeof value === "object") {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = withAmounts(v, k);
    return out;
  }
  return value;
}

// An attribute's words that follow the language: el("nav", {"aria-label": keyed("key", params)})
// (or setAttribute below) writes the attribute in the page's language now and, keeping its key
// in data-i18n-attrs, again at each switch, as a screen reader must hear the page it sees.
export class Words {
  constructor(key, params = {}) { this.key = key; this.params = params; }
  toString() { return t(this.key, this.params); }
}

export function keyed(key, params = {}) { return new Words(key, params); }

// node.setAttribute(name, value), where a Words value is kept to be worded again at each switch.
export function setAttribute(node, name, value) {
  const kept = node.dataset.i18nAttrs ? JSON.parse(node.dataset.i18nAttrs) : {};
  if (value instanceof Words) kept[name] = [value.key, value.params];
  else delete kept[name];
  if (Object.keys(kept).length) node.dataset.i18nAttrs = JSON.stringify(kept);
  else delete node.dataset.i18nAttrs;
  node.setAttribute(name, String(value));
}

// Elements with data-i18n="key" get their text (with the JSON parameters of
// data-i18n-params, where a server-made page gives them); data-i18n-label sets aria-label, and
// data-i18n-attrs (see keyed()) the attributes it names.
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    let params = {};
    try { params = el.dataset.i18nParams ? JSON.parse(el.dataset.i18nParams) : {}; } catch (_) { /* none */ }
    el.textContent = t(el.dataset.i18n, params);
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const [name, [key, params]] of Object.entries(JSON.parse(el.dataset.i18nAttrs))) {
      el.setAttribute(name, t(key, params));
    }
  }
}

// A button that toggles English / Japanese.
export function languageButton() {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "lang";
  const draw = () => {
    b.textContent = t("lang_toggle");
    b.setAttribute("aria-label", t("lang_toggle_label"));
  };
  b.addEventListener("click", () => setLanguage(lang === "en" ? "ja" : "en"));
  onLanguage(draw);
  draw();
  return b;
}

document.documentElement.lang = lang;
translatePage(document.head);  // the page's title, where it is worded from the tables
