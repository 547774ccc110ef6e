// A WielerSIM film: the route's profile with the groups moving along it, a ticker of the
// race, and the result. The server rode the race; this only shows its frames.
// filmStage(film) draws one frame at a time (the watch room's screens: the server sends
// each frame at its pace); mountFilm(box, film) plays a whole film with its own controls
// (replays of saved stages, where the reader scrubs).
import { el } from "/static/js/common.js";
import { keyed, language, onLanguage, t } from "/static/js/i18n.js";
import { render } from "/static/js/present.js";
import { useStyles } from "/static/js/rooms.js";

const SVG = "http://www.w3.org/2000/svg";
useStyles("wielersim"); // the profile, ticker and tables, on any page that shows a film
const TYPE_MARK = { leader: "L", climber: "C", sprinter: "S", helper: "H" };
const SPEEDS = [2000, 1000, 500, 200];
const DISC = 3.2; // a group's disc's radius in the profile's units

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// A stage's name in the reader's language: its words (a message) where the server gives them,
// else its name as written.
export function stageName(words, name) {
  return words ? render(words, language(), "wielersim") : name;
}

// A shipped route, peloton or stage race ("flanders") in the reader's words; its file name
// where the tables have none.
export function choiceName(kind, value) {
  const key = `wv_${kind}_${value}`;
  const words = t(key);
  return words === key ? value : words;
}

export function gapText(seconds) {
  const s = Math.abs(seconds);
  return `${seconds < 0 ? "-" : ""}${Math.floor(s / 60)}'${String(s % 60).padStart(2, "0")}"`;
}

// The server's profile drawing (its own SVG markup, no script) as nodes of our SVG.
function profileNodes(markup) {
  const doc = new DOMParser().parseFromString(`<svg xmlns="${SVG}">${markup}</svg>`, "image/svg+xml");
  markProfile(doc.documentElement);
  return [...doc.documentElement.childNodes].map((n) => document.importNode(n, true));
}

const CLIMB_INK = "#d1432b"; // the drawing's red (raceday.drawing.svg.RED): a climb's label

// The drawing's words the page moves: each climb's label ("HC (6)", in the drawing's red),
// which steps aside from a disc; the squares-to-go along the bottom (the lowest row), whose
// two ends read inwards from their ticks so they stay inside the profile's box.
function markProfile(root) {
  const texts = [...root.querySelectorAll("text")];
  for (const label of texts) if (label.getAttribute("fill") === CLIMB_INK) label.classList.add("climb-label");
  const bottom = Math.max(...texts.map((x) => Number(x.getAttribute("y"))));
  const axis = texts.filter((x) => Number(x.getAttribute("y")) === bottom)
    .sort((a, b) => Number(a.getAttribute("x")) - Number(b.getAttribute("x")));
  if (axis.length < 2) return;
  for (const label of axis) label.classList.add("axis-label");
  axis[0].setAttribute("text-anchor", "start");
  axis[axis.length - 1].setAttribute("text-anchor", "end");
}

export function riderName(film, number) {
  const r = film.riders.find((x) => x.number === number);
  return r ? `${r.name} (${number})` : `#${number}`;
}

// A ticker item is a message of the game's tables ({k, key, params}): the server's
// commentator said it, the page only renders it in the reader's language.
function itemText(it) {
  return render(it, language(), "wielersim");
}

const BIG = new Set(["attack", "crash", "sprint", "finish", "break", "climb"]);

export function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

// A group's disc keeps its place in the drawing from frame to frame by the group's lowest
// bib, so a group glides to its new square (and a merged group goes on as one of its two).
function groupKey(g) {
  return String(Math.min(...g[2]));
}

// filmStage(film, {groups, ticker, disc}) -> {node, show(frame, items, {ms}), words()}: the
// profile with one disc per group (its number is always the group's size; the legend says
// so), the race's line under it, the first groups and the last ticker items. `items` are
// [{turn, ...item}], newest last. show(null) is the start line. `disc` is a disc's radius
// in the profile's units (a TV's are bigger, read from the sofa: room is made above the
// profile for them).
export function filmStage(film, opts = {}) {
  const route = film.route;
  const shownGroups = opts.groups ?? 8;
  const shownItems = opts.ticker ?? 10;
  const radius = opts.disc ?? DISC;
  const headroom = Math.max(0, 2 * radius - 2 * DISC);
  const where = el("p", { class: "film-where", role: "status", "aria-live": "polite" });
  const discs = new Map(); // group key -> its <g>
  let frame = null;
  let items = [];
  let pic = null;
  let layer = null;
  let scroller = null;
  if (route) {
    pic = svg("svg", { viewBox: `-5 ${-headroom} ${route.width + 10} ${route.height + headroom}`, class: "profile", role: "img" });
    layer = svg("g", { class: "riders" });
    pic.append(...profileNodes(route.svg), layer);
    // a narrow screen scrolls the profile in its box: from the keyboard too
    scroller = el("div", { class: "profile-box", tabindex: 0, role: "group" }, pic);
  }
  const legend = el("p", { class: "film-legend note" });
  const groups = el("ol", { class: "groups" });
  const ticker = el("ul", { class: "ticker wv-ticker" });
  const groupsHead = el("h3", {});
  const tickerHead = el("h3", {});
  const node = el("div", { class: "film-stage" }, where, scroller, route ? legend : null,
    el("div", { class: "film-grid" },
      el("section", { class: "film-groups" }, groupsHead, groups),
      el("section", { class: "film-ticker" }, tickerHead, ticker)));

  function words() {
    groupsHead.textContent = t("wv_groups");
    tickerHead.textContent = t("wv_ticker");
    if (pic) pic.setAttribute("aria-label", t("wv_profile_label", { route: route.name }));
    if (scroller) scroller.setAttribute("aria-label", t("wv_profile_label", { route: route.name }));
    legend.replaceChildren(
      el("span", { class: "disc-sample front", "aria-hidden": "true" }, "12"), " ", t("wv_legend_front"), " ",
      el("span", { class: "disc-sample", "aria-hidden": "true" }, "3"), " ", t("wv_legend_group"));
    drawWhere();
    drawLists();
  }

  function drawWhere() {
    const f = frame;
    if (!route) {
      where.textContent = t("wv_prologue_note");
    } else if (!f) {
      where.textContent = t("wv_before", { n: route.distance });
    } else {
      const front = f.riders.length ? Math.max(...f.riders.map((r) => r[1])) : route.distance;
      where.textContent = t("wv_turn", { turn: f.turn, n: Math.max(0, route.distance - front),
        weather: t(f.rain ? "wv_rain" : "wv_dry"), done: f.finished });
    }
  }

  function drawLists() {
    const f = frame;
    groups.replaceChildren(...(f ? f.groups.slice(0, shownGroups).map((g, i) => el("li", {},
      el("strong", {}, i === 0 ? t("wv_front") : t("wv_behind", { n: f.groups[0][1] - g[1] })), " ",
      g[2].length === 1 ? riderName(film, g[2][0])
        : t("wv_group_of", { n: g[2].length, riders: g[2].slice(0, 6).join(", ") + (g[2].length > 6 ? " …" : "") })))
      : []));
    ticker.replaceChildren(...items.slice(-shownItems).reverse().map((it, i) => el("li",
      { class: `${i === 0 ? "latest " : ""}k-${it.k}${BIG.has(it.k) ? " big" : ""}` },
      el("span", { class: "turn" }, t("wv_turn_short", { turn: it.turn })), " ", itemText(it))));
  }

  function drawDiscs(ms) {
    if (!layer) return;
    const f = frame;
    const gs = f ? f.groups : [];
    const seen = new Set();
    const boxes = []; // where each disc ends up: [left, top, right, bottom]
    const glide = ms > 0 && !reducedMotion();
    gs.forEach((g, i) => {
      const key = groupKey(g);
      seen.add(key);
      const sq = Math.min(route.distance - 1, g[1]);
      const x = (Math.min(g[1], route.distance) + 0.5) * route.step;
      const y = route.surface[Math.max(0, sq)] - radius - 0.8 - (i % 2) * (radius * 1.5);
      const size = g[2].length;
      let disc = discs.get(key);
      const fresh = !disc;
      if (fresh) {
        disc = svg("g", { class: "grp", "data-key": key }, svg("title", {}), svg("circle", { cx: 0, cy: 0, r: radius }),
          svg("text", { x: 0, y: radius * 0.34, "text-anchor": "middle" }));
        discs.set(key, disc);
      }
      disc.setAttribute("class", `grp${i === 0 ? " front" : ""}`);
      disc.querySelector("title").textContent = t("wv_disc_title", { n: size,
        riders: g[2].map((n) => riderName(film, n)).join(", ") });
      disc.querySelector("text").textContent = String(size);
      disc.style.transitionDuration = glide && !fresh ? `${ms}ms` : "0ms"; // CSSOM: allowed by the CSP
      disc.style.transform = `translate(${x.toFixed(2)}px, ${y.toFixed(2)}px)`;
      layer.append(disc); // in the frame's order: the front group drawn last, on top
      boxes.push([x - radius, y - radius, x + radius, y + radius]);
    });
    clearLabels(boxes);
    for (const [key, disc] of discs) {
      if (!seen.has(key)) { disc.remove(); discs.delete(key); }
    }
    // on a narrow screen the profile scrolls: keep the front group in sight
    if (f && !gs.length && scroller) scroller.scrollLeft = scroller.scrollWidth; // all home
    if (gs.length && scroller && scroller.scrollWidth > scroller.clientWidth) {
      const front = (Math.min(gs[0][1], route.distance) + 5) / (route.distance + 10 / route.step);
      scroller.scrollLeft = Math.max(0, front * scroller.scrollWidth - scroller.clientWidth * 0.7);
    }
  }

  // A climb's label ("HC (6)") that a group's disc would cover moves beside the discs
  // over it, to the left (else the right) of them, at its height; back when they have gone.
  function clearLabels(boxes) {
    const pad = 0.6;
    const hits = (b) => boxes.filter((d) => d[0] < b.x + b.width + pad && b.x - pad < d[2]
      && d[1] < b.y + b.height && b.y < d[3]);
    for (const label of pic.querySelectorAll(".climb-label")) {
      label.dataset.x ??= label.getAttribute("x");
      label.setAttribute("x", label.dataset.x);
      label.setAttribute("text-anchor", "middle");
      const box = label.getBBox();
      if (!box.width) continue; // not laid out (not in the page yet)
      const over = hits(box);
      if (!over.length) continue;
      label.setAttribute("text-anchor", "end");
      label.setAttribute("x", String(Math.min(...over.map((d) => d[0])) - pad));
      const left = label.getBBox();
      if (left.x >= -5 && !hits(left).length) continue;
      label.setAttribute("text-anchor", "start");
      label.setAttribute("x", String(Math.max(...over.map((d) => d[2])) + pad));
    }
  }

  function show(f, newItems, { ms = 0 } = {}) {
    frame = f;
    items = newItems || [];
    drawWhere();
    drawDiscs(ms);
    drawLists();
  }

  words();
  show(null, []);
  return { node, show, words };
}

// The result table of a film's `result` rows ({place, number, gap}), the first `rows`.
export function resultTable(film, result, rows = 10) {
  const body = result.slice(0, rows).map((r) => {
    const rider = film.riders.find((x) => x.number === r.number) || {};
    return el("tr", {}, el("td", { class: "num" }, r.place), el("th", { scope: "row" }, rider.name || ""),
      el("td", { class: "num" }, r.number), el("td", { class: "team" }, rider.team || ""),
      el("td", { class: "type-cell" }, el("span", { class: `type t-${rider.type}`, "aria-hidden": "true" }, TYPE_MARK[rider.type] || "?"), " ", t(`wv_type_${rider.type}`)),
      el("td", { class: "num" }, r.place === 1 || r.gap ? gapText(r.gap) : t("wv_same_time")));
  });
  return el("div", { class: "table-box" }, el("table", { class: "result-table" },
    el("caption", {}, t("wv_result")),
    el("thead", {}, el("tr", {}, ["#", "wv_rider", "wv_bib", "wv_team", "wv_type", "wv_gap"].map((k) =>
      el("th", { scope: "col", class: k === "wv_team" ? "team" : k === "wv_type" ? "type-cell" : null }, k === "#" ? "#" : t(k))))),
    el("tbody", {}, body)));
}

// mountFilm(box, film, {onEnd}) -> {play, stop, step, end}: the whole film played here,
// with play/pause, step, end and speed (a replay of a saved stage).
export function mountFilm(box, film, opts = {}) {
  let at = 0; // frames shown
  let timer = null;
  let speed = 1;
  const frames = film.frames;
  const title = el("h2", { class: "film-title" });
  const stage = filmStage(film);
  const result = el("div", { class: "film-result" });
  const playBtn = el("button", { type: "button", class: "primary", "data-act": "play" });
  const stepBtn = el("button", { type: "button", "data-act": "step" });
  const endBtn = el("button", { type: "button", "data-act": "end" });
  const speedSel = el("select", { "aria-label": keyed("wv_speed"), class: "speed" },
    SPEEDS.map((ms, i) => el("option", { value: i, selected: i === speed }, `${(1000 / ms).toFixed(1)}×`)));
  const bar = el("progress", { max: Math.max(1, frames.length), value: 0, class: "film-progress", "aria-label": keyed("wv_progress_label") });
  const controls = el("div", { class: "row film-controls" }, playBtn, stepBtn, endBtn, speedSel, bar);
  box.replaceChildren(...[title, frames.length ? controls : null, stage.node, result].filter(Boolean));

  function words() {
    title.textContent = stageName(film.stage_words, film.stage_name) || (film.route ? film.route.name : "");
    playBtn.textContent = timer ? t("wv_pause") : t("wv_play");
    stepBtn.textContent = t("wv_step");
    endBtn.textContent = t("wv_end");
    speedSel.setAttribute("aria-label", t("wv_speed"));
    bar.setAttribute("aria-label", t("wv_progress_label"));
    stage.words();
  }

  function itemsUpTo(n) {
    const out = [];
    for (let i = Math.max(0, n - 12); i < n; i++) {
      for (const it of frames[i].items) out.push({ turn: frames[i].turn, ...it });
    }
    return out;
  }

  function drawFrame(ms = 0) {
    bar.value = at;
    stage.show(at > 0 ? frames[at - 1] : null, itemsUpTo(at), { ms });
    if (at >= frames.length) showResult(); else result.replaceChildren();
  }

  function showResult() {
    result.replaceChildren(resultTable(film, film.result));
    opts.onEnd?.();
  }

  function stop() { clearInterval(timer); timer = null; words(); }
  function step() {
    if (at < frames.length) { at += 1; drawFrame(Math.round(SPEEDS[speed] * 0.6)); }
    if (at >= frames.length) stop();
  }
  function play() {
    if (timer) { stop(); return; }
    if (at >= frames.length) at = 0;
    timer = setInterval(step, SPEEDS[speed]);
    words();
    step();
  }
  function end() { stop(); at = frames.length; drawFrame(); }
  playBtn.addEventListener("click", play);
  stepBtn.addEventListener("click", () => { stop(); step(); });
  endBtn.addEventListener("click", end);
  speedSel.addEventListener("change", () => {
    speed = Number(speedSel.value);
    if (timer) { clearInterval(timer); timer = setInterval(step, SPEEDS[speed]); }
  });
  onLanguage(() => { words(); drawFrame(); });
  words();
  drawFrame();
  if (!frames.length) showResult();
  return { play, stop, step, end };
}
