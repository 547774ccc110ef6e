// The WielerSIM page: watch one race, or a saved stage race (the same campaign the
// terminal's `raceday wielersim tour` rides): ride the next stage, see the tables and the GC.
// With ?lesson=wielersim (the lesson's last step), the lesson's own first race: its route
// as the server reads it from the lesson, and a button that opens a watch room for it.
import { api, el, tokens } from "/static/js/common.js";
import { keyed, languageButton, onLanguage, setAttribute, t, translatePage } from "/static/js/i18n.js";
import { createRoom } from "/static/js/rooms.js";
import { choiceName, gapText, stageName } from "./film.js";

const SVG = "http://www.w3.org/2000/svg";
const app = document.getElementById("app");
const params = new URLSearchParams(location.search);
const error = el("p", { class: "error", role: "alert" });
let choices = { routes: [], pelotons: [], tours: [] };
let redraw = () => {};

function fail(e) { error.textContent = t("error", { message: e.message }); }

// Each stage race this browser started has an owner key (the server gives it once): kept
// here, sent to ride or watch it, and all of them to list this browser's stage races.
const KEYS = "raceday.wielersim.campaigns";
function campaignKeys() {
  try { return JSON.parse(localStorage.getItem(KEYS) || "{}") || {}; } catch (_) { return {}; }
}
function keepKey(name, key) {
  try { localStorage.setItem(KEYS, JSON.stringify({ ...campaignKeys(), [name]: key })); } catch (_) { /* off */ }
}
const keyOf = (name) => (campaignKeys()[name] ? { "X-Campaign-Key": campaignKeys()[name] } : {});
const PAGE = 20;

function select(name, values, value, id, kind = name) {
  return el("select", { name, id }, values.map((v) => el("option", { value: v, selected: v === value }, choiceName(kind, v))));
}

const nameOf = (stage) => stageName(stage.words, stage.name);

function header() {
  return el("header", { class: "bar" },
    el("h1", {}, el("a", { href: "/", class: "home" }, "raceday"), " · ", t("wv_title")),
    el("nav", { class: "links" }, el("a", { href: "/replay" }, t("rp_title")), " ",
      el("a", { href: "/numbers" }, t("nm_title"))),
    languageButton());
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) setAttribute(node, k, v);
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// The GC over the stage race: each top rider's gap to the leader after every stage, with a
// legend that shows each line's colour and dash beside the rider's name, and round ticks.
const LINE_COLOURS = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#ffffff"];
const DASHES = ["", "8 4", "2 4", "10 4 2 4", "", "8 4", "2 4", "10 4 2 4"];
const TICK_STEPS = [5, 10, 15, 20, 30, 60, 120, 180, 300, 600, 900, 1200, 1800, 3600, 7200];

// Round ticks from 0 to at least `max` seconds: at most five steps of 5", 10", … 1', 2', …
export function gcTicks(max) {
  const step = TICK_STEPS.find((s) => Math.ceil(max / s) <= 5) ?? Math.ceil(max / 5 / 3600) * 3600;
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks = [];
  for (let g = 0; g <= top; g += step) ticks.push(g);
  return ticks;
}

function lineSample(k) {
  return svg("svg", { viewBox: "0 0 36 10", width: 36, height: 10, class: "line-sample", "aria-hidden": "true" },
    svg("line", { x1: 1, x2: 35, y1: 5, y2: 5, stroke: LINE_COLOURS[k % LINE_COLOURS.length], "stroke-width": 3, "stroke-dasharray": DASHES[k % DASHES.length] }));
}

function gcChart(view) {
  const series = view.gc_chart;
  const stages = view.done;
  if (!series.length || stages < 1) return el("p", { class: "note" }, t("wv_no_chart"));
  const W = 640, H = 300, L = 72, R = 24, T = 16, B = 44;
  const ticks = gcTicks(Math.max(1, ...series.flatMap((s) => s.gaps)));
  const max = ticks[ticks.length - 1];
  const x = (i) => L + (stages === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (stages - 1));
  const y = (g) => T + (g / max) * (H - T - B);
  const pic = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "gc-chart", role: "img", "aria-label": keyed("wv_gc_chart") });
  pic.append(svg("title", {}, t("wv_gc_chart")));
  for (const g of ticks) {
    pic.append(svg("line", { x1: L, x2: W - R, y1: y(g), y2: y(g), class: "grid" }),
      svg("text", { x: L - 6, y: y(g) + 4, "text-anchor": "end" }, g ? `+${gapText(g)}` : gapText(0)));
  }
  // the stages by their names: the prologue (when the stage race has one), then 1, 2, …
  const hasPrologue = view.stages.some((st) => st.prologue);
  const crowded = stages > 8;
  view.stages.filter((st) => st.ridden).forEach((st, i) => {
    const label = st.prologue ? t(crowded ? "wv_axis_prologue_short" : "wv_axis_prologue") : String(hasPrologue ? i : i + 1);
    // the first stage's word reads on from the axis, clear of the gaps' labels left of it
    const first = i === 0 && stages > 1;
    pic.append(svg("text", { x: first ? x(i) - 4 : x(i), y: H - B + 18, "text-anchor": first ? "start" : "middle", class: "gc-stage", "data-stage": st.index }, label));
  });
  pic.append(svg("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle" }, t("wv_after_stage")));
  series.forEach((s, k) => {
    const pts = s.gaps.map((g, i) => `${x(i)},${y(g)}`).join(" ");
    const colour = LINE_COLOURS[k % LINE_COLOURS.length];
    pic.append(svg("polyline", { points: pts, fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-dasharray": DASHES[k % DASHES.length] }));
    s.gaps.forEach((g, i) => pic.append(svg("circle", { cx: x(i), cy: y(g), r: 3.5, fill: colour })));
  });
  const legend = el("ol", { class: "gc-legend", "aria-label": keyed("wv_gc_legend") }, series.map((s, k) => {
    const last = s.gaps[s.gaps.length - 1];
    return el("li", {}, lineSample(k), " ", `${s.name} (${s.number})`, " ",
      el("span", { class: "num" }, k ? `+${gapText(last)}` : t("wv_yellow")));
  }));
  return el("div", { class: "chart-box" }, pic, legend);
}

function riderTable(caption, rows, valueKey, value, teams = false) {
  if (!rows.length) return el("p", { class: "note" }, caption, ": ", t("wv_none_yet"));
  return el("div", { class: "table-box" }, el("table", {}, el("caption", {}, caption),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t(teams ? "wv_team" : "wv_rider")),
      teams ? null : el("th", { scope: "col", class: "num" }, t("wv_bib")), el("th", { scope: "col", class: "num" }, t(valueKey)))),
    el("tbody", {}, rows.map((r, i) => el("tr", {}, el("td", { class: "num" }, i + 1),
      el("td", {}, teams ? r.team : r.name), teams ? null : el("td", { class: "num" }, r.number), el("td", { class: "num" }, value(r, i)))))));
}

// The tables after a stage, one at a time (the stage's result, the GC, points, mountains,
// teams), picked with a row of buttons, so the page fits a TV.
const TABLES = [
  ["result", (stage) => riderTable(t("wv_stage_result", { name: nameOf(stage) }), stage.result, "wv_gap",
    (r, i) => (i === 0 || r.gap ? gapText(r.gap) : t("wv_same_time")) + (r.bonus ? " " + t("wv_bonus", { seconds: r.bonus }) : ""))],
  ["gc", (stage) => riderTable(t("wv_gc"), stage.gc, "wv_gap", (r, i) => (i === 0 ? t("wv_yellow") : "+" + gapText(r.gap)))],
  ["points", (stage) => riderTable(t("wv_points"), stage.points, "wv_pts", (r) => r.points)],
  ["mountains", (stage) => riderTable(t("wv_mountains"), stage.mountains, "wv_pts", (r) => r.points)],
  ["teams", (stage) => riderTable(t("wv_teams"), stage.teams, "wv_gap", (r, i) => (i === 0 ? gapText(0) : "+" + gapText(r.gap)), true)],
];
const TABLE_NAMES = { result: "wv_tab_result", gc: "wv_gc", points: "wv_points", mountains: "wv_mountains", teams: "wv_teams" };
let shownTable = "result";

function stageTables(stage) {
  if (!stage || !stage.ridden) return el("p", { class: "note" }, t("wv_not_ridden"));
  const panel = el("div", { class: "tables", id: "wv-table" });
  const buttons = TABLES.map(([key]) => el("button", { type: "button", class: "tab", "data-table": key,
    "aria-controls": "wv-table", "aria-pressed": String(key === shownTable),
    onclick: () => { shownTable = key; draw(); } }, t(TABLE_NAMES[key])));
  function draw() {
    panel.replaceChildren(TABLES.find(([key]) => key === shownTable)[1](stage));
    for (const b of buttons) b.setAttribute("aria-pressed", String(b.dataset.table === shownTable));
  }
  draw();
  return el("div", {}, el("div", { class: "row table-tabs", role: "group", "aria-label": keyed("wv_which_table") }, buttons), panel);
}

// A watch room for stage `index` of the stage race (the next one is ridden and saved first):
// the host's screen of that room plays it at the server's pace.
async function watchStage(name, index) {
  const room = await api(`/api/wielersim/campaigns/${encodeURIComponent(name)}/watch`, { stage: index }, keyOf(name));
  tokens.setHost(room.code, room.host_token);
  location.href = `/host/${room.code}`;
}

async function showCampaign(name, box, shown) {
  const view = await api(`/api/wielersim/campaigns/${encodeURIComponent(name)}`);
  const ridden = view.stages.filter((s) => s.ridden);
  const raw = shown ?? params.get("stage");
  const asked = raw === null || raw === undefined || raw === "" ? NaN : Number(raw);
  let picked = Number.isInteger(asked) && view.stages[asked]?.ridden ? asked
    : (ridden.length ? ridden[ridden.length - 1].index : null);
  const tables = el("div");
  const next = view.finished ? null : view.stages[view.done];
  const rideBtn = next ? el("button", { type: "button", class: "primary", id: "ride" },
    t(next.prologue ? "wv_ride_prologue" : "wv_ride", { name: nameOf(next) })) : null;
  const stageList = el("ol", { class: "stages" }, view.stages.map((s) => el("li", { class: s.ridden ? "ridden" : "" },
    s.ridden ? el("button", { type: "button", class: "linkish", "data-stage": s.index, "aria-pressed": String(s.index === picked),
      onclick: () => { picked = s.index; tables.replaceChildren(stageTables(s)); markPicked(); } }, nameOf(s))
      : el("span", {}, nameOf(s), " — ", t("wv_to_ride")),
    s.ridden && !s.prologue ? el("button", { type: "button", class: "small", onclick: () => watchStage(name, s.index).catch(fail) }, t("wv_watch_again")) : null,
    s.ridden ? el("a", { href: `/replay/wielersim/${encodeURIComponent(name)}/${s.index}`, class: "small" }, t("wv_replay")) : null)));
  function markPicked() {
    for (const b of stageList.querySelectorAll("button[data-stage]")) b.setAttribute("aria-pressed", String(Number(b.dataset.stage) === picked));
  }
  tables.replaceChildren(picked === null ? el("p", { class: "note" }, t("wv_nothing_ridden")) : stageTables(view.stages[picked]));
  box.replaceChildren(el("div", { class: "campaign" },
    el("section", { class: "card campaign-head" },
      el("h2", {}, view.tour, " — ", el("span", { class: "pill" }, name)),
      el("p", {}, t("wv_progress", { done: view.done, total: view.total }), " ",
        view.finished ? t("wv_over") : t("wv_resume_cli", { cmd: `raceday wielersim tour --resume '${name}'` })),
      rideBtn),
    el("section", { class: "card campaign-stages" }, el("h3", {}, t("wv_stages")), stageList),
    el("section", { class: "card campaign-tables" }, tables),
    el("section", { class: "card campaign-gc" }, el("h3", {}, t("wv_gc_chart")), gcChart(view))));
  rideBtn?.addEventListener("click", async () => {
    rideBtn.disabled = true;
    try {
      if (next.prologue) {  // one throw of dice per rider: no film, straight to its tables
        await api(`/api/wielersim/campaigns/${encodeURIComponent(name)}/ride`, { stage: next.index }, keyOf(name));
        await showCampaign(name, box, next.index);
        box.querySelector(`button[data-stage="${next.index}"]`)?.focus();
      } else {
        await watchStage(name, next.index);
      }
    } catch (e) {
      fail(e);
      showCampaign(name, box);
    }
  });
  redraw = () => showCampaign(name, box, picked);
}

// The stage races a page at a time: "show more" fetches the next page below them.
function campaignList(first) {
  const items = el("ul", { class: "campaigns" }, first.campaigns.map(campaignItem));
  const more = el("button", { type: "button", class: "small", id: "more-tours" }, t("wv_more_tours"));
  let next = first.next_offset;
  more.hidden = next === null;
  more.addEventListener("click", async () => {
    try {
      const page = await listPage(next);
      items.append(...page.campaigns.map(campaignItem));
      next = page.next_offset;
      more.hidden = next === null;
      items.lastElementChild?.querySelector("a")?.focus();
    } catch (e) { fail(e); }
  });
  return el("div", {}, items, more);
}

// On submit, send(body) the form's `fields` and its `optional` field when filled in (trimmed);
// a refusal is shown on the error line.
function onSubmit(form, fields, optional, send) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = Object.fromEntries(fields.map((field) => [field, form[field].value]));
    const extra = form[optional].value.trim();
    if (extra) body[optional] = extra;
    try { await send(body); } catch (e) { fail(e); }
  });
}

// One page of this browser's stage races (and, on the server's own machine, the terminal's).
const listPage = (offset) => api(`/api/wielersim/campaigns?limit=${PAGE}&offset=${offset}`, undefined,
  { "X-Campaign-Keys": Object.values(campaignKeys()).join(",") });

function campaignItem(c) {
  return el("li", {},
    el("a", { href: `/wielersim?campaign=${encodeURIComponent(c.name)}` }, c.name), " — ", c.tour, " ",
    el("span", { class: "note" }, t("wv_progress", { done: c.done, total: c.total })),
    c.owner ? null : el("span", { class: "note" }, " · ", t("wv_no_owner")));
}

async function home(box) {
  const list = await listPage(0);
  drawHome(box, list);
  redraw = () => drawHome(box, list);  // a language switch redraws at once, from the same list
}

function drawHome(box, list) {
  const race = el("form", { id: "race-form", class: "card" },
    el("h2", {}, t("wv_one_race")), el("p", { class: "note" }, t("wv_one_race_hint")),
    el("div", { class: "row" },
      el("label", { for: "wv-route" }, t("wv_route"), select("route", choices.routes, params.get("route") || "flanders", "wv-route")),
      el("label", { for: "wv-peloton" }, t("wv_peloton"), select("peloton", choices.pelotons, params.get("peloton") || "classics", "wv-peloton")),
      el("label", { for: "wv-seed" }, t("wv_seed"), el("input", { id: "wv-seed", name: "seed", inputmode: "numeric", value: params.get("seed") || "", placeholder: keyed("wv_seed_any") })),
      el("button", { type: "submit", class: "primary" }, t("wv_watch"))));
  onSubmit(race, ["route", "peloton"], "seed", async (body) => {
    await createRoom("wielersim", body, error);  // the server plays the film in a watch room
  });
  const tourForm = el("form", { id: "tour-form" },
    el("div", { class: "row" },
      el("label", { for: "wv-tour" }, t("wv_tour"), select("tour", choices.tours, choices.tours[0], "wv-tour")),
      el("label", { for: "wv-tour-peloton" }, t("wv_peloton"), select("peloton", choices.pelotons, "classics", "wv-tour-peloton")),
      el("label", { for: "wv-name" }, t("wv_name"), el("input", { id: "wv-name", name: "name", maxlength: 60, placeholder: keyed("wv_name_auto") })),
      el("button", { type: "submit", class: "primary" }, t("wv_new_tour"))));
  onSubmit(tourForm, ["tour", "peloton"], "name", async (body) => {
    const c = await api("/api/wielersim/campaigns", body);
    keepKey(c.name, c.key);
    location.href = `/wielersim?campaign=${encodeURIComponent(c.name)}`;
  });
  box.replaceChildren(race,
    el("section", { class: "card" }, el("h2", {}, t("wv_tours")), el("p", { class: "note" }, t("wv_tours_hint")),
      list.campaigns.length ? campaignList(list) : el("p", { class: "note" }, t("wv_no_tours")),
      tourForm));
}

// The lesson's first race: the route section by section, then a watch room the server makes
// from the lesson's own data (the page sends no route).
const ROADS = ["flat", "uphill", "cobbles"];

function drawLesson(box, race) {
  const route = race.route;
  const watch = el("button", { type: "button", class: "primary", id: "wv-lesson-watch" }, t("wv_lesson_watch"));
  watch.addEventListener("click", async () => {
    watch.disabled = true;
    try {
      const room = await api("/api/wielersim/lesson", {});
      tokens.setHost(room.code, room.host_token);
      location.href = `/host/${room.code}`;
    } catch (e) { fail(e); watch.disabled = false; }
  });
  box.replaceChildren(el("section", { class: "card wv-lesson", id: "wv-lesson" },
    el("h2", { id: "wv-lesson-name" }, t("wv_lesson_title", { name: route.name })),
    el("p", {}, t("wv_lesson_intro", { distance: route.distance, riders: race.riders })),
    el("h3", { id: "wv-lesson-sections-label" }, t("wv_lesson_sections")),
    el("ol", { class: "wv-lesson-sections", "aria-labelledby": "wv-lesson-sections-label" },
      route.sections.map((s) => el("li", { "data-section": s.name }, el("strong", {}, s.name), " — ",
        t("wv_lesson_section", { length: s.end - s.start, road: t(`wv_lesson_road_${ROADS[s.road] ?? "flat"}`) })))),
    el("p", {}, watch),
    el("p", { class: "note" }, t("wv_lesson_watch_note")),
    el("p", {}, el("a", { href: `/learn/${encodeURIComponent(params.get("lesson"))}` }, t("wv_back_to_lesson")))));
}

async function lessonRace(box) {
  const race = await api("/api/wielersim/lesson");
  drawLesson(box, race);
  redraw = () => drawLesson(box, race);
}

async function main() {
  const box = el("main", { class: "watch-main" });
  const draw = () => app.replaceChildren(header(), error, box);
  draw();
  onLanguage(() => { draw(); redraw(); });
  translatePage();
  try {
    choices = await api("/api/wielersim/choices");
    const name = params.get("campaign");
    if (params.get("lesson")) await lessonRace(box);
    else if (name) await showCampaign(name, box); else await home(box);
  } catch (e) { fail(e); }
}

main();
