// Numbers: start a game's prediction, odds table or simulation on the server (each game's
// card is its own module), follow its progress, then read the result as sortable tables
// and a chart.
import { api, el } from "./common.js";
import { keyed, language, languageButton, onLanguage, refusal, setAttribute, t, translatePage } from "./i18n.js";
import { fieldKind, optionsSchema } from "./options-form.js";

const SVG = "http://www.w3.org/2000/svg";
const app = document.getElementById("app");
const error = el("p", { class: "error", role: "alert" });
const main = el("main", { class: "watch-main" });
let job = null; // the last job's JSON
let poller = null;
let sorts = {}; // table id -> [key, direction]

function fail(e) { error.textContent = e ? t("error", { message: e.message }) : ""; }

function header() {
  return el("header", { class: "bar" },
    el("h1", {}, el("a", { href: "/", class: "home" }, "raceday"), " · ", t("nm_title")),
    el("nav", { class: "links" }, pages.map((g) => [el("a", { href: `/${g.game}` }, g.title), " "]), el("a", { href: "/replay" }, t("rp_title"))),
    languageButton());
}

const pct = (p) => `${(100 * p).toLocaleString(language() === "ja" ? "ja-JP" : "en-US", { maximumFractionDigits: p < 0.01 ? 3 : 1, minimumFractionDigits: 1 })}%`;
const value = (v) => (Array.isArray(v) ? v[0] : v);
const textual = (kind) => kind === "text" || kind === "word";  // sorted and set as words

function cell(kind, v) {
  if (v === null || v === undefined) return "—";
  if (kind === "pct") return pct(v);
  if (kind === "ci") return el("span", {}, pct(v[0]), " ", el("span", { class: "ci" }, `[${pct(v[1])}–${pct(v[2])}]`));
  if (kind === "odds") return v.toFixed(2);
  if (kind === "num") return Number(v).toFixed(2);
  if (kind === "word") return t(v);
  return String(v);
}

function table(spec) {
  const [key, dir] = sorts[spec.id] || [null, 0];
  const rows = [...spec.rows];
  if (key) {
    const kind = spec.columns.find((c) => c.key === key)?.kind;
    rows.sort((a, b) => {
      const x = value(a[key]), y = value(b[key]);
      const word = (v) => String(kind === "word" ? t(v) : v);
      const c = textual(kind) ? word(x).localeCompare(word(y), undefined, { numeric: true }) : (x ?? -1) - (y ?? -1);
      return dir * c;
    });
  }
  const head = spec.columns.map((c) => {
    const sorted = c.key === key ? (dir > 0 ? "ascending" : "descending") : "none";
    return el("th", { scope: "col", "aria-sort": sorted, class: textual(c.kind) ? "" : "num" },
      el("button", { type: "button", class: "sort", "data-key": c.key, onclick: () => {
        const now = sorts[spec.id] || [null, 0];
        sorts[spec.id] = [c.key, now[0] === c.key ? -now[1] : (textual(c.kind) ? 1 : -1)];
        showResult();
      } }, t(c.label), el("span", { "aria-hidden": "true" }, sorted === "ascending" ? " ▲" : sorted === "descending" ? " ▼" : "")));
  });
  const shown = rows.slice(0, 200);
  // a box that scrolls sideways on a phone: reachable and named for the keyboard
  return el("div", { class: "table-box", tabindex: 0, role: "region", "aria-label": keyed(spec.title) }, el("table", { class: "sortable", id: `t-${spec.id}` },
    el("caption", {}, t(spec.title), spec.rows.length > shown.length ? ` (${shown.length} / ${spec.rows.length})` : ""),
    el("thead", {}, el("tr", {}, head)),
    el("tbody", {}, shown.map((r) => el("tr", {}, spec.columns.map((c) => el("td", { class: textual(c.kind) ? "" : "num" }, cell(c.kind, r[c.key]))))))));
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) setAttribute(node, k, v);
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// Horizontal bars (one per value, told apart by pattern as well as colour) with their
// 95% interval as whiskers when the numbers have one.
function chart(result) {
  const spec = result.chart;
  const tableSpec = result.tables.find((x) => x.id === spec.table);
  const rows = [...tableSpec.rows].sort((a, b) => value(b[spec.values[0]]) - value(a[spec.values[0]])).slice(0, spec.top);
  const W = 720, L = 170, R = 70, row = 16 * spec.values.length + 10, T = 30;
  const H = T + rows.length * row + 24;
  const max = Math.max(0.05, ...rows.flatMap((r) => spec.values.map((v) => (Array.isArray(r[v]) ? r[v][2] : r[v]))));
  const x = (p) => L + (p / max) * (W - L - R);
  const pic = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": keyed("nm_chart") });
  pic.append(svg("title", {}, t("nm_chart")));
  const col = tableSpec.columns;
  spec.values.forEach((v, k) => {
    pic.append(svg("rect", { x: L + k * 150, y: 6, width: 14, height: 12, class: `bar b${k}` }),
      svg("text", { x: L + k * 150 + 20, y: 17 }, t(col.find((c) => c.key === v).label)));
  });
  for (let g = 0; g <= 4; g++) {
    const p = (max * g) / 4;
    pic.append(svg("line", { x1: x(p), x2: x(p), y1: T - 4, y2: H - 20, class: "grid" }),
      svg("text", { x: x(p), y: H - 6, "text-anchor": "middle" }, pct(p)));
  }
  rows.forEach((r, i) => {
    const y0 = T + i * row;
    pic.append(svg("text", { x: L - 8, y: y0 + row / 2 + 4, "text-anchor": "end" }, String(r[spec.label]).slice(0, 24)));
    spec.values.forEach((v, k) => {
      const val = r[v];
      const y = y0 + k * 16;
      pic.append(svg("rect", { x: L, y, width: Math.max(0.5, x(value(val)) - L), height: 13, class: `bar b${k}` },
        svg("title", {}, `${r[spec.label]}: ${pct(value(val))}`)));
      if (Array.isArray(val)) {
        pic.append(svg("line", { x1: x(val[1]), x2: x(val[2]), y1: y + 6.5, y2: y + 6.5, class: "whisker" }),
          svg("line", { x1: x(val[1]), x2: x(val[1]), y1: y + 2, y2: y + 11, class: "whisker" }),
          svg("line", { x1: x(val[2]), x2: x(val[2]), y1: y + 2, y2: y + 11, class: "whisker" }));
      }
    });
  });
  return pic;
}

const out = el("section", { class: "card result", "aria-live": "polite" });

function titleText(title) {
  return t(title.key, title);
}

function showResult() {
  if (!job) { out.replaceChildren(); return; }
  const bar = el("progress", { max: Math.max(1, job.total), value: job.done, id: "job-progress" });
  const status = el("p", { class: "status", role: "status" },
    t(`nm_status_${job.status}`, { done: job.done.toLocaleString(), total: job.total.toLocaleString(), seconds: job.seconds }));
  const stop = job.status === "running" ? el("button", { type: "button", id: "stop",
    onclick: stopJob }, t("nm_stop")) : null;
  const parts = [el("div", { class: "row" }, bar, stop), status];
  if (job.status === "error") parts.push(el("p", { class: "error" }, refusal(job, job.error)));
  if (job.result) {
    const r = job.result;
    parts.unshift(el("h2", {}, titleText(r.title)));
    parts.push(el("div", { class: "chart-box", tabindex: 0, role: "region", "aria-label": keyed("nm_chart") }, chart(r)));
    for (const n of r.notes || []) parts.push(el("p", { class: "note" }, t(n.key, n)));
    parts.push(el("div", { class: "nm-tables" }, r.tables.map(table)));
  }
  out.replaceChildren(...parts);
}

// a stopped job is forgotten by the server: its last state comes with the answer
async function stopJob() {
  fail(null);
  try {
    const res = await fetch(`/api/numbers/${job.id}`, { method: "DELETE" });
    const stopped = await res.json();
    if (!res.ok) throw new Error(refusal(stopped, stopped.error));
    clearInterval(poller);
    job = stopped;
    showResult();
  } catch (e) { fail(e); }
}

async function poll() {
  try {
    const res = await fetch(`/api/numbers/${job.id}`);
    job = await res.json();
    if (!res.ok) throw new Error(refusal(job, job.error));
  } catch (e) { fail(e); clearInterval(poller); return; }
  showResult();
  if (job.status !== "running") clearInterval(poller);
}

async function start(body) {
  fail(null);
  try {
    clearInterval(poller);
    sorts = {};
    job = await api("/api/numbers", body);
    showResult();
    poller = setInterval(poll, 300);
  } catch (e) { fail(e); }
}

function select(name, values, value, id, labels = null) {
  return el("select", { name, id }, values.map((v, i) => el("option", { value: v, selected: v === value }, labels ? labels[i] : v)));
}
const field = (id, label, input) => el("label", { for: id }, t(label), input);
const numberInput = (id, name, v, max, min = 1) => el("input", { id, name, type: "number", min, max, value: v, inputmode: "numeric", required: true });
const seedInput = (id) => el("input", { id, name: "seed", inputmode: "numeric", placeholder: keyed("wv_seed_any") });

// Each game's card comes from its own module (/games/<game>/static/numbers.js, found from
// the server's list of the games that offer jobs): form(kit) returns the card.
let games = []; // [{ game, limits, module }]
let pages = []; // the games with a page of their own (GET /api/games)
const seed = (f) => (f.seed.value.trim() ? { seed: f.seed.value.trim() } : {});
const kit = (limits) => ({ el, t, api, field, select, numberInput, seedInput, seed, start, limits, optionsSchema, fieldKind });

function forms() {
  return el("div", { class: "forms" }, games.map((g) => g.module.form(kit(g.limits))));
}

async function main2() {
  const draw = () => { app.replaceChildren(header(), error, main); main.replaceChildren(forms(), out); showResult(); };
  try {
    pages = (await api("/api/games")).filter((g) => g.page);
    const offered = await api("/api/numbers/games");
    games = await Promise.all(offered.map(async (g) => ({ ...g, module: await import(`/games/${g.game}/static/numbers.js`) })));
    for (const g of games) if (g.module.prepare) await g.module.prepare(kit(g.limits));
  } catch (e) { fail(e); }
  draw();
  translatePage();
  onLanguage(draw);
  // a refusal is about what was sent: the next change of a field clears it
  main.addEventListener("input", () => fail(null));
}

main2();
