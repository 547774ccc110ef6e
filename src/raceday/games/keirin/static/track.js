// KEIRIN's shared pieces for the big screen and the phones: rider badges (number AND
// jersey colour), money and odds formatting, the events' words, and the SVG velodrome with
// the derny and the riders moving square by square. No rule lives here: positions, odds,
// tickets and payouts all come from the server's view and events.
import { el } from "/static/js/common.js";
import { keyed, language, placeText, setAttribute, t } from "/static/js/i18n.js";
import { describeEvent } from "/static/js/present.js";
import { useStyles } from "/static/js/rooms.js";

const SVG = "http://www.w3.org/2000/svg";

// Keirin jersey colours by rider number; the number is always written on the badge too.
export const JERSEY = {
  1: ["#ffffff", "#111111"], 2: ["#111111", "#ffffff"], 3: ["#d7263d", "#ffffff"],
  4: ["#1f5fbf", "#ffffff"], 5: ["#f4d03f", "#111111"], 6: ["#1e8449", "#ffffff"],
  7: ["#f39c12", "#111111"], 8: ["#f5a3c7", "#111111"], 9: ["#7d3c98", "#ffffff"],
};

export function ensureStyles() {
  useStyles("keirin");
}

export function riderTag(n, extra = "") {
  const [bg, fg] = JERSEY[n] || ["#888", "#000"];
  const badge = el("span", { class: `rider-badge ${extra}`, "aria-label": keyed("kr_rider", { n }) }, String(n));
  badge.style.setProperty("--bg", bg);
  badge.style.setProperty("--fg", fg);
  return badge;
}

export function ridersTag(riders, kind, kinds) {
  const ordered = kinds?.[kind]?.ordered ?? true;
  const parts = [];
  riders.forEach((r, i) => {
    if (i) parts.push(el("span", { class: "joiner", "aria-hidden": "true" }, ordered ? "→" : "+"));
    parts.push(riderTag(r));
  });
  return el("span", { class: "riders", "aria-label": `${t(`kr_${kind}`)} ${riders.join(ordered ? "-" : "=")}` }, parts);
}

export function cash(cents) {
  const locale = language() === "ja" ? "ja-JP" : "en-US";
  return (Number(cents) / 100).toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function oddsText(hundredths) {
  return hundredths === null || hundredths === undefined ? "—" : cash(hundredths);
}

export const KIND_ORDER = ["win", "exacta", "quinella", "trifecta", "trio"];

// An event of the room ({type, ...facts}) in the page's language: "event.<kind>" from the
// message tables, the variant its true facts pick (present.js describeEvent). Throws are
// drawn on the track and listed by drawThrows, not told.
export function eventText(e) {
  if (e.type === "throw") return "";
  const { type, message, ...facts } = e;  // `message`: a step saved before it was dropped
  return describeEvent("keirin", { key: `event.${type}`, params: facts }, language());  // a ticket's facts name its `kind`
}

// --- the velodrome -------------------------------------------------------------------------
// An oval with two straights and two bends; the finish line is in the middle of the home
// straight (at the bottom, in front of the audience). Square s sits at a fraction of the lap
// counted from the finish line, so square `finish` is always on the line.
const W = 1000;
const H = 520;
const CX = 500;
const CY = 250;
const STRAIGHT = 460;
const RADIUS = 165;

function ovalPoint(frac, off) {
  const r = RADIUS + off;
  const per = 2 * STRAIGHT + 2 * Math.PI * r;
  let d = (((frac % 1) + 1) % 1) * per;
  const half = STRAIGHT / 2;
  if (d < half) return [CX + d, CY + r];
  d -= half;
  if (d < Math.PI * r) { const a = Math.PI / 2 - d / r; return [CX + half + r * Math.cos(a), CY + r * Math.sin(a)]; }
  d -= Math.PI * r;
  if (d < STRAIGHT) return [CX + half - d, CY - r];
  d -= STRAIGHT;
  if (d < Math.PI * r) { const a = -Math.PI / 2 - d / r; return [CX - half + r * Math.cos(a), CY + r * Math.sin(a)]; }
  d -= Math.PI * r;
  return [CX - half + d, CY + r];
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) setAttribute(node, k, v);
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function ovalPath(off) {
  const pts = [];
  for (let i = 0; i <= 200; i++) pts.push(ovalPoint(i / 200, off).map((v) => v.toFixed(1)).join(","));
  return `M${pts.join("L")}Z`;
}

// A track that draws riders at squares and animates them to new squares.
export class Velodrome {
  constructor({ riders, finish, lap }) {
    this.riders = riders;
    this.finish = finish;
    this.lap = lap;
    this.shown = {}; // rider -> square drawn now (fractional while moving)
    this.target = {};
    this.derny = null;
    this.anim = null;
    this.node = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "velodrome", role: "img", "aria-label": keyed("kr_track") });
    const title = svg("title", {}, t("kr_track"));
    this.node.append(title,
      svg("path", { d: ovalPath(0), class: "track-surface" }),
      svg("path", { d: ovalPath(-46), class: "track-edge" }),
      svg("path", { d: ovalPath(46), class: "track-edge" }),
      svg("path", { d: ovalPath(0), class: "track-lane" }));
    // ticks every 10 squares, the derny's start (square 0) and the finish line
    const ticks = svg("g", { class: "ticks" });
    for (let s = 0; s < lap; s += 10) {
      const f = this.frac(s);
      const [x1, y1] = ovalPoint(f, 46);
      const [x2, y2] = ovalPoint(f, 58);
      ticks.append(svg("line", { x1, y1, x2, y2 }));
    }
    const [sx1, sy1] = ovalPoint(this.frac(0), -46);
    const [sx2, sy2] = ovalPoint(this.frac(0), 46);
    const [lx, ly] = ovalPoint(this.frac(0), -66);
    const [fx1, fy1] = ovalPoint(0, -50);
    const [fx2, fy2] = ovalPoint(0, 50);
    this.startLine = svg("line", { x1: sx1, y1: sy1, x2: sx2, y2: sy2, class: "start-line" });
    this.startLabel = svg("text", { x: lx, y: ly, class: "track-label start-label", "text-anchor": "middle" }, t("kr_start_line"));
    // placed once drawn, and again whenever its size changes (the game's style sheet or a
    // font arriving after the track was drawn)
    if (typeof ResizeObserver === "function") new ResizeObserver(() => this.placeStartLabel()).observe(this.startLabel);
    this.node.append(ticks, this.startLine, this.startLabel,
      svg("line", { x1: fx1, y1: fy1, x2: fx2, y2: fy2, class: "finish-line" }),
      svg("text", { x: fx1, y: fy2 + 34, class: "track-label finish-label", "text-anchor": "middle" }, t("kr_finish")));
    this.info = svg("text", { x: CX, y: CY - 20, class: "infield-big", "text-anchor": "middle" });
    this.sub = svg("text", { x: CX, y: CY + 30, class: "infield-small", "text-anchor": "middle" });
    this.node.append(this.info, this.sub);
    this.dernyNode = svg("g", { class: "derny", "aria-hidden": "true" },
      svg("g", { class: "derny-body" },
        svg("rect", { x: -26, y: -15, width: 52, height: 30, rx: 8 }),
        svg("text", { x: 0, y: 7, "text-anchor": "middle" }, "D")));
    this.flag = svg("text", { x: CX, y: CY + 86, class: "stage-flag", "text-anchor": "middle" });
    this.node.append(this.flag);
    this.node.append(this.dernyNode);
    this.riderNodes = {};
    for (let r = 1; r <= riders; r++) {
      const [bg, fg] = JERSEY[r];
      const g = svg("g", { class: "rider", "data-rider": r },
        svg("circle", { r: 17, fill: bg, stroke: r === 1 ? "#111" : "#fff", "stroke-width": 3 }),
        svg("text", { y: 7, "text-anchor": "middle", fill: fg }, String(r)));
      this.riderNodes[r] = g;
      this.node.append(g);
    }
    this.draw();
  }

  frac(square) {
    return (square - this.finish) / this.lap;
  }

  // positions: {rider: square} or {} (nobody on the track yet); derny: square or null
  set(positions, derny, { animate = true, ms = 900 } = {}) {
    this.target = {};
    for (const [r, s] of Object.entries(positions || {})) this.target[r] = Number(s);
    this.derny = derny;
    const from = { ...this.shown };
    const start = performance.now();
    if (this.anim) cancelAnimationFrame(this.anim);
    const step = (now) => {
      const k = animate && ms > 0 ? Math.min(1, (now - start) / ms) : 1;
      const ease = k < 0.5 ? 2 * k * k : 1 - ((-2 * k + 2) ** 2) / 2;
      for (const [r, s] of Object.entries(this.target)) {
        const a = from[r] ?? s;
        this.shown[r] = a + (s - a) * ease;
      }
      for (const r of Object.keys(this.shown)) if (!(r in this.target)) delete this.shown[r];
      this.draw();
      this.anim = k < 1 ? requestAnimationFrame(step) : null;
    };
    this.anim = requestAnimationFrame(step);
    if (!animate) step(start + ms);
  }

  // the race's staged moments, from the server's facts: the derny pulling off (its
  // slipstream event), the bell and the sprint (the live view's `bell` and `sprint`)
  stage({ pullingOff = false, bell = false, sprint = false } = {}) {
    this.dernyNode.classList.toggle("pulling-off", pullingOff);
    this.node.classList.toggle("is-bell", bell && !sprint);
    this.node.classList.toggle("is-sprint", sprint);
    this.flag.textContent = sprint ? t("kr_sprint") : (bell ? t("kr_bell") : "");
  }

  label(big, small) {
    this.info.textContent = big;
    this.sub.textContent = small;
  }

  // The start line's label stands in the infield beside the line, never on it: once the
  // track is on the page (text is measured only there), it slides along the track from the
  // line's inner end until its box clears the line's box (the line's stroke and a margin).
  placeStartLabel() {
    if (!this.node.isConnected) return;
    const f = this.frac(0);
    const [ax, ay] = ovalPoint(f, -66);
    this.startLabel.setAttribute("x", ax.toFixed(1));
    this.startLabel.setAttribute("y", ay.toFixed(1));
    const box = this.startLabel.getBBox();
    if (!box.width) return;  // not laid out yet (a hidden page): the next draw tries again
    const line = this.startLine.getBBox();
    const pad = 12;
    const clear = (dx, dy) => box.x + dx > line.x + line.width + pad || box.x + box.width + dx < line.x - pad
      || box.y + dy > line.y + line.height + pad || box.y + box.height + dy < line.y - pad;
    const [bx, by] = ovalPoint(f + 0.001, -66);
    const len = Math.hypot(bx - ax, by - ay) || 1;
    const [tx, ty] = [(bx - ax) / len, (by - ay) / len];
    for (let shift = 0; shift <= 400; shift += 6) {
      for (const sign of [1, -1]) {
        const [dx, dy] = [tx * shift * sign, ty * shift * sign];
        if (!clear(dx, dy)) continue;
        this.startLabel.setAttribute("x", (ax + dx).toFixed(1));
        this.startLabel.setAttribute("y", (ay + dy).toFixed(1));
        return;
      }
    }
  }

  draw() {
    // riders side by side: a rider takes the innermost free lane among riders less than
    // two squares ahead of or behind it (leaders first), so no badge hides another
    const order = Object.keys(this.shown).map(Number).sort((a, b) => this.shown[b] - this.shown[a] || a - b);
    const lanes = {};
    const LANES = [0, 1, -1, 2, -2];
    for (const r of order) {
      const gap = (l) => Math.min(99, ...order.filter((o) => lanes[o] === l).map((o) => Math.abs(this.shown[o] - this.shown[r])));
      lanes[r] = LANES.find((l) => gap(l) >= 1.8) ?? LANES.reduce((a, b) => (gap(b) > gap(a) ? b : a));
    }
    for (let r = 1; r <= this.riders; r++) {
      const g = this.riderNodes[r];
      if (!(r in this.shown)) { g.setAttribute("visibility", "hidden"); continue; }
      const off = lanes[r] * 22;
      const [x, y] = ovalPoint(this.frac(this.shown[r]), off);
      g.setAttribute("visibility", "visible");
      g.setAttribute("transform", `translate(${x.toFixed(1)},${y.toFixed(1)})`);
    }
    if (this.derny === null || this.derny === undefined) {
      this.dernyNode.setAttribute("visibility", "hidden");
    } else {
      const [x, y] = ovalPoint(this.frac(this.derny + 4), 0);  // just ahead: pulling off
      this.dernyNode.setAttribute("visibility", "visible");
      this.dernyNode.setAttribute("transform", `translate(${x.toFixed(1)},${y.toFixed(1)})`);
    }
  }
}

// The photo of riders who crossed the line together (a `cross` event with several riders):
// each rider with how far past the line he ended, in the order the event gives.
export function photoStrip(cross) {
  return el("ol", { class: "kr-photo-strip", "aria-label": keyed("kr_photo") }, cross.riders.map((r, i) =>
    el("li", {}, riderTag(r, "big"), el("span", { class: "kr-margin" }, t("kr_photo_margin", { past: cross.past[i] })))));
}

// The announcer's moments of a race, step by step, from the server's events and live facts
// only: the derny pulling off (slipstream), a new leader (the turn event's `leaders`), the
// bell and the sprint (live `bell`, `sprint` turning true), riders crossing together (a
// `cross` of several), a photo-finish called, the winner (with a beaten favourite or a
// long shot, from the board's chances) and, at the results, the biggest return.
export const LONG_ODDS = 0.1;
export class RaceMoments {
  constructor() { this.reset(null); }

  reset(race) {
    this.race = race;
    this.leaders = null;
    this.bell = false;
    this.sprint = false;
    this.together = null;
    this.crossed = false;
  }

  // the lines of one update of the view `v` (its live step), and the last result's race
  step(v) {
    const out = [];
    const lv = v.live;
    if (v.phase === "racing" && lv) {
      if (this.race !== v.race) this.reset(v.race);
      for (const e of lv.step || []) {
        if (e.type === "slipstream") out.push({ key: "kr_say_derny_off", moment: "derny", params: { rider: e.rider } });
        if (e.type === "turn" && e.leaders?.length && !e.chasing) {
          const key = e.leaders.join("-");
          if (this.leaders !== null && key !== this.leaders) {
            out.push(e.leaders.length > 1
              ? { key: "kr_say_lead_level", moment: "lead", params: { riders: e.leaders } }
              : { key: "kr_say_lead", moment: "lead", params: { rider: e.leaders[0] } });
          }
          this.leaders = key;
        }
        if (e.type === "cross") {
          if (!this.crossed && e.riders.length > 1) {
            // the places that pay: the first three across in that turn
            this.together = { riders: e.riders.slice(0, 3), past: e.past.slice(0, 3) };
            out.push({ key: "kr_say_together", moment: "together", params: { riders: this.together.riders } });
          }
          this.crossed = true;
        }
        if (e.type === "photo_finish") {
          out.push({ key: "kr_say_photo", moment: "photo", params: { place: placeText(e.for_place), riders: e.riders } });
        }
        if (e.type === "result") {
          const winner = e.ranking[0];
          out.push({ key: "kr_say_winner", moment: "winner", params: { rider: winner } });
          const rows = v.board?.top?.win || [];
          const favourite = rows.slice().sort((a, b) => b.chance - a.chance)[0];
          const won = rows.find((row) => row.riders[0] === winner);
          if (won && won.chance < LONG_ODDS) {
            out.push({ key: "kr_say_long_odds", moment: "long_odds", params: { rider: winner, chance: `${(won.chance * 100).toFixed(1)}%` } });
          } else if (favourite && favourite.riders[0] !== winner) {
            out.push({ key: "kr_say_favourite_beaten", moment: "favourite_beaten", params: { rider: favourite.riders[0] } });
          }
        }
      }
      if (lv.bell && !this.bell && !lv.sprint) out.push({ key: "kr_say_bell", moment: "bell", params: { n: lv.to_go } });
      if (lv.sprint && !this.sprint) out.push({ key: "kr_say_sprint", moment: "sprint", params: {} });
      this.bell = Boolean(lv.bell);
      this.sprint = Boolean(lv.sprint);
    }
    return out;
  }
}

// The biggest return of the race just settled (the view's `last`), as a moment.
export function payoutMoment(last) {
  const best = (last?.players || []).filter((p) => p.returned > p.staked && p.returned > 0)
    .sort((a, b) => b.returned - a.returned)[0];
  return best ? { key: "kr_say_payout", moment: "payout", params: { name: best.name, amount: cash(best.returned) } } : null;
}
