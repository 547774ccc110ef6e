// A WielerSIM film: the route's profile with the groups moving along it, a ticker of the
// race, and the result. The server rode the race; this only shows its frames.
import { el } from "/static/js/common.js";
import { language, onLanguage, t } from "/static/js/i18n.js";
import { render } from "/static/js/present.js";
import { useStyles } from "/static/js/rooms.js";

const SVG = "http://www.w3.org/2000/svg";
useStyles("wielersim"); // the profile, ticker and tables, on any page that shows a film
const TYPE_MARK = { leader: "L", climber: "C", sprinter: "S", helper: "H" };
const SPEEDS = [2000, 1000, 500, 200];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

export function gapText(seconds) {
  const s = Math.abs(seconds);
  return `${seconds < 0 ? "-" : ""}${Math.floor(s / 60)}'${String(s % 60).padStart(2, "0")}"`;
}

// The server's profile drawing (its own SVG markup, no script) as nodes of our SVG.
function profileNodes(markup) {
  const doc = new DOMParser().parseFromString(`<svg xmlns="${SVG}">${markup}</svg>`, "image/svg+xml");
  return [...doc.documentElement.childNodes].map((n) => document.importNode(n, true));
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

// mountFilm(box, film, {onEnd}) -> {play, pause, step, end}
export function mountFilm(box, film, opts = {}) {
  let at = 0; // frames shown
  let timer = null;
  let speed = 1;
  const route = film.route;
  const frames = film.frames;
  const title = el("h2", { class: "film-title" });
  const where = el("p", { class: "film-where", role: "status", "aria-live": "polite" });
  const pic = route ? svg("svg", { viewBox: `-5 0 ${route.width + 10} ${route.height}`, class: "profile", role: "img" }) : null;
  const layer = pic ? svg("g", { class: "riders" }) : null;
  if (pic) {
    pic.append(...profileNodes(route.svg), layer);
  }
  const groups = el("ol", { class: "groups" });
  const ticker = el("ul", { class: "ticker wv-ticker", "aria-live": "polite" });
  const result = el("div", { class: "film-result" });
  const playBtn = el("button", { type: "button", class: "primary", "data-act": "play" });
  const stepBtn = el("button", { type: "button", "data-act": "step" });
  const endBtn = el("button", { type: "button", "data-act": "end" });
  const speedSel = el("select", { "aria-label": t("wv_speed"), class: "speed" },
    SPEEDS.map((ms, i) => el("option", { value: i, selected: i === speed }, `${(1000 / ms).toFixed(1)}×`)));
  const bar = el("progress", { max: Math.max(1, frames.length), value: 0, class: "film-progress" });
  const controls = el("div", { class: "row film-controls" }, playBtn, stepBtn, endBtn, speedSel, bar);
  const scroller = pic ? el("div", { class: "profile-box" }, pic) : null;
  box.replaceChildren(title, controls, where, scroller,
    el("div", { class: "film-grid" },
      el("section", {}, el("h3", { "data-k": "wv_groups" }), groups),
      el("section", {}, el("h3", { "data-k": "wv_ticker" }), ticker)),
    result);

  function words() {
    title.textContent = film.stage_name || (route ? route.name : "");
    playBtn.textContent = timer ? t("wv_pause") : t("wv_play");
    stepBtn.textContent = t("wv_step");
    endBtn.textContent = t("wv_end");
    speedSel.setAttribute("aria-label", t("wv_speed"));
    for (const h of box.querySelectorAll("[data-k]")) h.textContent = t(h.dataset.k);
  }

  function drawFrame() {
    const f = at > 0 ? frames[at - 1] : null;
    bar.value = at;
    if (!route) {
      where.textContent = t("wv_prologue_note");
    } else if (!f) {
      where.textContent = t("wv_before", { n: route.distance });
    } else {
      const front = f.riders.length ? Math.max(...f.riders.map((r) => r[1])) : route.distance;
      where.textContent = t("wv_turn", { turn: f.turn, togo: Math.max(0, route.distance - front),
        weather: t(f.rain ? "wv_rain" : "wv_dry"), done: f.finished });
    }
    if (layer) {
      layer.replaceChildren();
      const gs = f ? f.groups : [];
      gs.forEach((g, i) => {
        const sq = Math.min(route.distance - 1, g[1]);
        const x = (Math.min(g[1], route.distance) + 0.5) * route.step;
        const y = route.surface[Math.max(0, sq)] - 4 - (i % 2) * 5;
        const size = g[2].length;
        const label = size === 1 ? String(g[2][0]) : String(size);
        const first = i === 0;
        layer.append(svg("g", { class: `grp${first ? " front" : ""}` },
          svg("title", {}, g[2].map((n) => riderName(film, n)).join(", ")),
          svg("circle", { cx: x, cy: y, r: size === 1 ? 2.6 : 3.4 }),
          svg("text", { x, y: y + 1.1, "text-anchor": "middle" }, label)));
      });
      // on a narrow screen the profile scrolls: keep the front group in sight
      if (f && !gs.length && scroller) scroller.scrollLeft = scroller.scrollWidth; // all home
      if (gs.length && scroller && scroller.scrollWidth > scroller.clientWidth) {
        const front = (Math.min(gs[0][1], route.distance) + 5) / (route.distance + 10 / route.step);
        scroller.scrollLeft = Math.max(0, front * scroller.scrollWidth - scroller.clientWidth * 0.7);
      }
    }
    groups.replaceChildren(...(f ? f.groups.slice(0, 8).map((g, i) => el("li", {},
      el("strong", {}, i === 0 ? t("wv_front") : t("wv_behind", { n: f.groups[0][1] - g[1] })), " ",
      g[2].length === 1 ? riderName(film, g[2][0]) : t("wv_group_of", { n: g[2].length, riders: g[2].slice(0, 6).join(", ") + (g[2].length > 6 ? " …" : "") })))
      : []));
    const items = [];
    for (let i = Math.max(0, at - 12); i < at; i++) {
      for (const it of frames[i].items) items.push([frames[i].turn, it]);
    }
    ticker.replaceChildren(...items.slice(-10).reverse().map(([turn, it], i) => el("li",
      { class: `${i === 0 ? "latest " : ""}k-${it.k}${BIG.has(it.k) ? " big" : ""}` },
      el("span", { class: "turn" }, t("wv_turn_short", { turn })), " ", itemText(it))));
    if (at >= frames.length) showResult(); else result.replaceChildren();
  }

  function showResult() {
    const rows = film.result.slice(0, 10).map((r) => {
      const rider = film.riders.find((x) => x.number === r.number) || {};
      return el("tr", {}, el("td", { class: "num" }, r.place), el("td", {}, rider.name || ""),
        el("td", { class: "num" }, r.number), el("td", {}, rider.team || ""),
        el("td", {}, el("span", { class: `type t-${rider.type}` }, TYPE_MARK[rider.type] || "?"), " ", t(`wv_type_${rider.type}`)),
        el("td", { class: "num" }, r.place === 1 || r.gap ? gapText(r.gap) : t("wv_same_time")));
    });
    result.replaceChildren(el("div", { class: "table-box" }, el("table", { class: "result-table" },
      el("caption", {}, t("wv_result")),
      el("thead", {}, el("tr", {}, ["#", "wv_rider", "wv_bib", "wv_team", "wv_type", "wv_gap"].map((k) => el("th", { scope: "col" }, k === "#" ? "#" : t(k))))),
      el("tbody", {}, rows))));
    opts.onEnd?.();
  }

  function stop() { clearInterval(timer); timer = null; words(); }
  function step() { if (at < frames.length) { at += 1; drawFrame(); } if (at >= frames.length) stop(); }
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
