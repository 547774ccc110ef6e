// PISTARD in the browser: the coloured four-lane velodrome in SVG (every square labelled
// with its colour's letter, lanes numbered on the line, the start/finish and sprint line),
// the riders, the dice, the choices the server lists, live standings and the result; the
// screen is shared by the big screen and the phones. No rule lives here: the choices (with
// their action numbers), the dice and the standings come from the server's view.
import { el } from "/static/js/common.js";
import { beginRedraw, refocus } from "/static/js/focus.js";
import { fill, lazyFinale, lobbyCard, standInOf, standInPanel, svg, turnScreen } from "/static/js/rooms.js";
import { keyed, language, onLanguage, placeText, t } from "/static/js/i18n.js";
import { describeEvent, known } from "/static/js/present.js";
import { hintPanel } from "/static/js/hint.js";

const W = 1000;
const H = 580;
const RC = 118; // radius of the inner edge of lane 1 on the bends
const LANE = 31;
const LANES = 4;
const ROUT = RC + LANES * LANE;
const STRAIGHT = W - 2 * ROUT - 40;
const CX = W / 2;
const CY = H / 2;
const GAP = 30; // the line's band (lanes numbered on it)
const PERIM = 2 * STRAIGHT + 2 * Math.PI * RC;
export const LETTER_COLOUR = { Y: "yellow", G: "green", B: "blue", R: "red" };
const COLOUR_LETTER = { yellow: "Y", green: "G", blue: "B", red: "R" };

// A point of the lap: s along the inner edge (0 = the line, clockwise on screen: the top
// straight left to right), d outwards from the inner edge.
function point(s, d) {
  const a = STRAIGHT / 2;
  const r = RC + d;
  const arc = Math.PI * RC;
  s = ((s % PERIM) + PERIM) % PERIM;
  if (s < STRAIGHT) return [CX - a + s, CY - r];
  s -= STRAIGHT;
  if (s < arc) { const f = -Math.PI / 2 + s / RC; return [CX + a + r * Math.cos(f), CY + r * Math.sin(f)]; }
  s -= arc;
  if (s < STRAIGHT) return [CX + a - s, CY + r];
  s -= STRAIGHT;
  const f = Math.PI / 2 + s / RC;
  return [CX - a + r * Math.cos(f), CY + r * Math.sin(f)];
}

function colStart(col, length) { return GAP + (col * (PERIM - GAP)) / length; }

function quad(s0, s1, d0, d1) {
  const steps = 3;
  const pts = [];
  for (let i = 0; i <= steps; i++) pts.push(point(s0 + ((s1 - s0) * i) / steps, d0));
  for (let i = steps; i >= 0; i--) pts.push(point(s0 + ((s1 - s0) * i) / steps, d1));
  return pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

function centre(col, lane, length) {
  const s = (colStart(col, length) + colStart(col + 1, length)) / 2;
  return point(s, (lane - 0.5) * LANE);
}

export function ownerClass(owner) { return `pi-owner-${owner}`; }

// The track's name for the reader: its words where the room's view gives them (a shipped
// track), else as the track names itself (a saved game's frame).
const trackName = (view) => view.track.words ?? view.track.name;

// The velodrome with riders; targets (square key "col:lane" -> choice) are tappable.
export function velodrome(view, ui) {
  const length = view.track.length;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "pi-track", role: "group", "aria-label": keyed("pi_track_label", { name: trackName(view), n: length }) });
  const labels = []; // the targets' labels, drawn over every square (each on its own pill)
  const occupied = new Map();
  for (const r of view.riders ?? []) if (r.status === "race") occupied.set(`${r.col}:${r.lane}`, r);
  for (let lane = 1; lane <= LANES; lane++) {
    const row = view.track.grid[lane - 1];
    for (let col = 0; col < length; col++) {
      const letter = row[col];
      const key = `${col}:${lane}`;
      const target = ui.targets.get(key);
      const g = svg("g", {
        class: `pi-square pi-${LETTER_COLOUR[letter]}${target ? " is-target" : ""}${target?.hint ? " is-hint" : ""}`, "data-square": key,
        role: target ? "button" : null, tabindex: target ? 0 : null,
        "aria-label": target ? `${target.label}${target.hint ? ` (${t("hint_marked")})` : ""}` : null,
        onclick: target ? () => ui.tap(target) : null,
        onkeydown: target ? (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ui.tap(target); } } : null,
      }, svg("polygon", { points: quad(colStart(col, length), colStart(col + 1, length), (lane - 1) * LANE, lane * LANE) }));
      if (!occupied.has(key)) {
        const [x, y] = centre(col, lane, length);
        g.append(svg("text", { x, y: y + 5, "text-anchor": "middle", class: "pi-letter", "aria-hidden": "true" }, target ? "" : letter));
        if (target) labels.push([x, y, target.short]);
      }
      root.append(g);
    }
  }
  // the line: a chequered band with the lane numbers; a second line for the pursuit's team 2
  for (let lane = 1; lane <= LANES; lane++) {
    root.append(svg("polygon", { points: quad(0, GAP, (lane - 1) * LANE, lane * LANE), class: lane % 2 ? "pi-line-a" : "pi-line-b" }));
    const [x, y] = point(GAP / 2, (lane - 0.5) * LANE);
    root.append(svg("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", class: "pi-lane-no" }, String(lane)));
  }
  for (const off of view.track.lines.filter((o) => o !== 0)) {
    const s = colStart(off, length);
    const [x0, y0] = point(s, 0);
    const [x1, y1] = point(s, LANES * LANE);
    root.append(svg("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "pi-line-2" }));
  }
  // the line's caption over the track, from the line on (room for it at a TV's size too)
  const [lx, ly] = point(0, LANES * LANE + 8);
  root.append(svg("text", { x: lx, y: ly, class: "pi-caption" }, t("pi_line")));
  // infield: direction and legend
  root.append(svg("text", { x: CX, y: CY - 40, "text-anchor": "middle", class: "pi-infield" }, t("pi_direction")),
    svg("text", { x: CX, y: CY, "text-anchor": "middle", class: "pi-infield-small" }, t("pi_lanes_legend")),
    svg("text", { x: CX, y: CY + 30, "text-anchor": "middle", class: "pi-infield-small" }, t("pi_colours_legend")));
  for (const [x, y, text] of labels) {
    const w = 9 * text.length + 8;
    root.append(svg("g", { class: "pi-target-label", "aria-hidden": "true" },
      svg("rect", { x: x - w / 2, y: y - 9, width: w, height: 18, rx: 6 }),
      svg("text", { x, y: y + 5, "text-anchor": "middle" }, text)));
  }
  for (const move of ui.trails ?? []) root.append(trailPath(move, length));
  if (ui.zoom) zoomTo(root, view, ui, length);
  for (const r of view.riders ?? []) {
    if (r.status !== "race") continue;
    const [x, y] = centre(r.col, r.lane, length);
    const moving = r.rider === view.mover || r.rider === ui.placing;
    root.append(svg("g", { class: `pi-rider ${ownerClass(r.owner)}${moving ? " is-mover" : ""}`, "data-rider": r.rider, role: "img", "aria-label": keyed("pi_rider_at", { rider: r.rider, lane: r.lane }) },
      svg("circle", { cx: x, cy: y, r: 14 }),
      svg("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central" }, String(r.rider))));
  }
  sized.observe(root);
  return root;
}

// Each track drawn says how many of its own units make a pixel on the screen (--pi-px), so
// the TV's style can draw the track's words and numbers at its text size, however big the
// track is shown there (the lobby's, the race's, the finish's).
const sized = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    if (!target.isConnected) { sized.unobserve(target); continue; }
    const scale = target.getScreenCTM()?.a;
    if (scale) target.style.setProperty("--pi-px", (1 / scale).toFixed(4));
  }
});

// The points a rider passes through going from (col0, lane0) to (col1, lane1): forward
// along the lap (the way the riders go), drifting across the lanes on the way.
export function movePoints(move, length) {
  const s0 = (colStart(move.from[0], length) + colStart(move.from[0] + 1, length)) / 2;
  const steps = (move.to[0] - move.from[0] + length) % length;
  if (steps === 0 && move.to[1] === move.from[1]) return null;
  let s1 = (colStart(move.to[0], length) + colStart(move.to[0] + 1, length)) / 2;
  if (s1 < s0 || (steps > 0 && s1 === s0)) s1 += PERIM; // over the line: round the lap
  const n = Math.max(2, Math.min(16, steps + 1));
  const pts = [];
  for (let i = 0; i <= n; i++) {
    const f = i / n;
    pts.push(point(s0 + (s1 - s0) * f, (move.from[1] - 0.5 + (move.to[1] - move.from[1]) * f) * LANE));
  }
  return pts;
}

function trailPath(move, length) {
  const pts = movePoints(move, length);
  if (!pts) return "";
  return svg("path", { d: pts.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join(" "),
    class: `pi-trail ${ownerClass(move.owner)}`, "data-rider": move.rider, "aria-hidden": "true" });
}

// The riders that moved between two views: {rider, owner, from: [col, lane], to: [col, lane]}.
export function movesBetween(before, after) {
  if (!before?.riders || !after?.riders) return [];
  const was = new Map(before.riders.filter((r) => r.status === "race").map((r) => [r.rider, r]));
  return after.riders.filter((r) => r.status === "race" && was.has(r.rider)
    && (was.get(r.rider).col !== r.col || was.get(r.rider).lane !== r.lane))
    .map((r) => ({ rider: r.rider, owner: r.owner, from: [was.get(r.rider).col, was.get(r.rider).lane], to: [r.col, r.lane] }));
}

// Slide each moved rider along the track to where he is now (nothing for a reader who
// asked for reduced motion); the number of riders animated.
export function animateRiders(svgRoot, moves, length, ms) {
  if (!svgRoot || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  let n = 0;
  for (const move of moves) {
    const pts = movePoints(move, length);
    const g = svgRoot.querySelector(`.pi-rider[data-rider="${move.rider}"]`);
    if (!pts || !g || !g.animate) continue;
    const [tx, ty] = pts[pts.length - 1];
    g.animate(pts.map(([x, y]) => ({ transform: `translate(${(x - tx).toFixed(1)}px, ${(y - ty).toFixed(1)}px)` })),
      { duration: ms, easing: "ease-in-out" });
    svgRoot.querySelector(`.pi-trail[data-rider="${move.rider}"]`)?.animate([{ opacity: 0 }, { opacity: 0.9 }], { duration: ms });
    n += 1;
  }
  return n;
}

// On a phone, the part of the track where the choice is: the rider to move and the
// squares he may reach, with some track around them (the whole lap is too small to tap).
function zoomTo(root, view, ui, length) {
  const pts = [...ui.targets.values()].map((c) => centre(c.col, c.lane, length));
  for (const r of view.riders ?? []) {
    if (r.status === "race" && (r.rider === view.mover)) pts.push(centre(r.col, r.lane, length));
  }
  // watching (no choice here): the field, and where the last moves came from
  if (!ui.targets.size) {
    for (const r of view.riders ?? []) if (r.status === "race") pts.push(centre(r.col, r.lane, length));
    for (const m of ui.trails ?? []) pts.push(centre(m.from[0], m.from[1], length));
  }
  if (!pts.length) return;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  let x0 = Math.min(...xs) - 70;
  let x1 = Math.max(...xs) + 70;
  let y0 = Math.min(...ys) - 70;
  let y1 = Math.max(...ys) + 70;
  const w = Math.max(x1 - x0, 250);
  const h = Math.max(y1 - y0, w * 0.62);
  x0 = Math.max(0, Math.min(W - w, (x0 + x1) / 2 - w / 2));
  y0 = Math.max(0, Math.min(H - h, (y0 + y1) / 2 - h / 2));
  x1 = x0 + w;
  y1 = y0 + h;
  root.setAttribute("viewBox", `${x0.toFixed(0)} ${y0.toFixed(0)} ${(x1 - x0).toFixed(0)} ${(y1 - y0).toFixed(0)}`);
  root.classList.add("is-zoomed");
}

// The host's own seats are "this screen" only on the host screen; elsewhere they are the big screen's.
let hostScreen = true;

export function playerName(view, p) {
  const pl = view.players[p];
  if (!pl) return `#${p + 1}`;
  if (pl.kind !== "human") return t("pi_player_computer", { n: p + 1, level: t(`level_${pl.kind}`) });
  return pl.name ? t("pi_player_named", { n: p + 1, name: pl.name }) + standsIn(view, pl)
    : t(hostScreen ? "pi_player_screen" : "pi_player_big_screen", { n: p + 1 });
}

// "(computer: easy)" after a person's name while a computer plays their seat
function standsIn(view, pl) {
  return standInOf(view, (view.seats || []).indexOf(pl.name));
}

function chip(owner, text) { return el("span", { class: `pi-chip ${ownerClass(owner)}` }, text); }

function diceRow(dice) {
  return el("div", { class: "pi-dice", role: "img", "aria-label": dice.map((v, i) => `${t(`pi_${["yellow", "green", "blue", "red"][i]}`)} ${v}`).join(", ") },
    dice.map((v, i) => el("span", { class: `pi-die pi-${["yellow", "green", "blue", "red"][i]}`, "aria-hidden": "true" },
      el("small", {}, "YGBR"[i]), String(v))));
}

// the words a hinted choice's button ends with (hints on): a mark that is not colour only
function hintMark(v, c) { return c.action === v.hint?.action ? ` · ${t("hint_marked")}` : ""; }

function choiceLabel(c, kind) {
  if (kind === "place") return t("pi_place_choice", { back: c.back, lane: c.lane });
  if (kind === "choose") return t("pi_choose_choice", { rider: c.rider });
  return t("pi_move_choice", { colour: { key: `pi_${c.colour}` }, value: c.value, ahead: c.ahead, lane: c.lane,
    token: c.token ? { key: "pi_token_note" } : "", why: { key: c.behind ? "pi_behind" : "pi_on_colour" } });
}

// An engine event of the room ({type, ...facts}) in the page's language: its message
// "event.<type>" (or the variant a true fact picks) from the table; nothing for the
// positions (the track shows them) or an event without words.
function eventText(e) {
  const { type, ...facts } = e;
  if (type === "positions" || !known(`event.${type}`, "en", "pistard")) return "";
  return describeEvent("pistard", { kind: type, ...facts }, language());
}

function standingsTable(v) {
  const points = v.config.variant === "points";
  return el("table", { class: "pi-standings" },
    el("caption", {}, t("pi_standings")),
    el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("pi_rider")), el("th", {}, t("player")),
      el("th", { class: "num" }, t("pi_to_go")), el("th", { class: "num" }, t("pi_lane")),
      points ? el("th", { class: "num" }, t("pi_points")) : null)),
    el("tbody", {}, v.standings.map((s) => el("tr", { class: `${v.mine.includes(s.owner) ? "mine" : ""} ${s.rider === v.mover ? "moving" : ""}` },
      el("td", {}, s.place ?? "—"), el("td", {}, chip(s.owner, String(s.rider))), el("td", { class: "pi-who" }, shortName(v, s.owner, false), standsInLine(v, s.owner)),
      el("td", { class: "num" }, s.status === "race" ? (s.to_go > 0 ? String(s.to_go) : t("pi_over_line")) : t(s.status === "out" ? "out" : "pi_waiting")),
      el("td", { class: "num" }, s.status === "race" ? String(s.lane) : ""),
      points ? el("td", { class: "num" }, String(s.points)) : null))));
}

// A player named for everyone (never "this screen"): P1 Aki, P2 computer (medium), P3.
export function neutralName(view, p) {
  const pl = view.players[p];
  if (pl && !pl.name && pl.kind === "human") return t("pi_player_plain", { n: p + 1 });
  return playerName(view, p);
}

// A player in a table's narrow column: P1 Aki, P1, P2 · medium (`mark`: with "(computer:
// easy)" after a person whose seat a computer plays).
export function shortName(view, p, mark = true) {
  const pl = view.players[p];
  if (pl && pl.kind !== "human") return t("pi_player_short_computer", { n: p + 1, level: t(`level_${pl.kind}`) });
  return pl?.name ? t("pi_player_named", { n: p + 1, name: pl.name }) + (mark ? standsIn(view, pl) : "")
    : t("pi_player_plain", { n: p + 1 });
}

// the computer's mark on a line of its own under a name in the standings (or nothing)
function standsInLine(view, p) {
  const pl = view.players[p];
  const mark = pl?.name && pl.kind === "human" ? standsIn(view, pl).trim() : "";
  return mark ? el("small", { class: "pi-stand-in" }, mark) : null;
}

// Who won, from this screen's point of view: "you won" / "you lost" on a screen that plays
// one place, the winner named on one that plays several places or none.
export function winnerLine(v) {
  const r = v.result;
  const mine = v.mine ?? [];
  const one = mine.length === 1 ? mine[0] : null;
  const won = one !== null && (r.winning_players ?? []).includes(one);
  if (v.config.variant === "pursuit") {
    if (r.winner === null) return t("pi_tie");
    const who = neutralName(v, r.winner);
    if (one === null) return t("pi_team_wins", { who });
    return won ? t("pi_you_won_pursuit") : t("pi_you_lost_pursuit", { who });
  }
  if (v.config.variant === "ttt") return t("pi_team_time", { time: Number(r.team_time).toFixed(2) });
  const first = r.ranking[0];
  const who = neutralName(v, first.owner);
  if (one === null) return t("pi_rider_wins", { rider: first.rider, who });
  return won ? t("pi_you_won", { rider: first.rider }) : t("pi_you_lost", { rider: first.rider, who });
}

function teamLine(v, x) {
  const who = neutralName(v, x.team);
  const time = x.time === null || x.time === undefined ? "—" : Number(x.time).toFixed(2);
  return x.crossed ? t("pi_team_line", { who, rounds: x.rounds, past: x.past, time })
    : t("pi_team_short", { who, rounds: x.rounds, short: -x.past, time });
}

// How the race was won, under the winner's line, said once: only what that line does not say
// ("Won on points.", "Every rival fell."), and the commissaires' stop; nothing else.
const HOW = { points: "pi_how_points", fell: "pi_how_fell", eliminated: "pi_how_eliminated" };
function howLine(r) {
  const how = HOW[String(r.message?.key ?? "").replace(/^(pistard\.)?result\./, "")];
  const said = [how ? t(how) : null, r.stopped ? t("pi_stopped", { n: r.rounds }) : null].filter(Boolean);
  return said.length ? el("p", { class: "pi-how" }, said.join(" ")) : null;
}

function resultBox(v) {
  if (v.abandoned) return el("div", { class: "card pi-result", role: "status" }, el("h2", {}, t("pi_abandoned")));
  const r = v.result;
  if (!r) return null;
  const points = v.config.variant === "points";
  const elim = v.config.variant === "elimination";
  return el("div", { class: "card pi-result", role: "status" },
    el("h2", { class: "pi-result-head" }, winnerLine(v)),
    howLine(r),
    r.ranking.length ? el("table", { class: "pi-ranking" }, el("tbody", {}, r.ranking.map((row) => el("tr", { class: v.mine.includes(row.owner) ? "mine" : "" },
      el("td", {}, placeText(row.place)), el("td", {}, chip(row.owner, String(row.rider))), el("td", {}, neutralName(v, row.owner)),
      points ? el("td", { class: "num" }, t("pi_points_n", { n: row.points })) : null,
      elim ? el("td", {}, row.out_heat ? t("pi_out_heat", { n: row.out_heat }) : t("pi_winner")) : null,
      row.fell ? el("td", {}, t("fell")) : null)))) : null,
    r.team_times.length ? el("ul", { class: "pi-team-times" }, r.team_times.map((x) => el("li", {}, teamLine(v, x)))) : null);
}

// The whole race screen, shared by the big screen and the phones. On a narrow screen the
// track comes first (zoomed on the choice when this screen is to act) with the choices
// right under it, compact; on a wide one the choices stand beside the track. Every rider
// that moved slides along the track to his new square and leaves a trace.
// Where focus goes after a redraw when it cannot stay where it was: the first of these.
const USEFUL = [".pi-choices button", ".pi-place-grid button", ".finale button.again"];

export function mountRace(root, ctx) {
  hostScreen = ctx.role === "host";
  let view = null;
  let before = null; // the view drawn before the newest one (to see who moved)
  let live = null;
  let trails = [];
  let pending = [];
  let couldAct = false;
  let lastSig = "";
  const narrow = window.matchMedia("(max-width: 900px)");
  const { stage, side, waiting, send, handlers } = turnScreen(root, ctx, "pistard", "pi",
    () => view, () => live, () => render());
  const choose = (c) => send({ type: "move", action: c.action });
  const ending = lazyFinale("pistard", ctx, () => live, () => render());

  function targetsOf(v) {
    const map = new Map();
    const ch = v.may_act ? v.choices : null;
    if (!ch || ch.kind === "choose") return map;
    for (const c of ch.items) {
      const key = `${c.col}:${c.lane}`;
      const short = ch.kind === "place" ? String(c.back) : `${COLOUR_LETTER[c.colour]}${c.value}`;
      const had = map.get(key);
      // several dice reaching one square: one label "G5/Y5", the first die played on a tap
      if (had) had.short = `${had.short}/${short}`;
      else map.set(key, { ...c, short, label: choiceLabel(c, ch.kind) });
      if (c.action === v.hint?.action) map.get(key).hint = true; // hints on: outlined
    }
    return map;
  }

  function choiceButtons(v, ch) {
    if (ch.kind === "place") {
      // a compact grid: a row for each distance behind the line, a column for each lane
      const backs = [...new Set(ch.items.map((c) => c.back))].sort((a, b) => a - b);
      const lanes = [1, 2, 3, 4];
      return el("div", { class: "pi-place-grid", role: "group", "aria-label": keyed("pi_your_place", { rider: ch.rider }) },
        el("span", { class: "pi-grid-head" }, t("pi_behind_head")),
        lanes.map((l) => el("span", { class: "pi-grid-head" }, t("pi_lane_n", { n: l }))),
        backs.flatMap((b) => [el("span", { class: "pi-grid-row" }, String(b)),
          ...lanes.map((l) => {
            const c = ch.items.find((x) => x.back === b && x.lane === l);
            return c ? el("button", { type: "button", class: `pi-place${c.action === v.hint?.action ? " is-hint-move" : ""}`, "data-action": c.action, "aria-label": `${choiceLabel(c, "place")}${hintMark(v, c)}`, onclick: () => choose(c) }, "●")
              : el("span", { class: "pi-grid-empty" }, "");
          })]));
    }
    if (ch.kind === "choose") {
      return el("ul", { class: "pi-choices" }, ch.items.map((c) => el("li", {}, el("button", { type: "button", class: c.action === v.hint?.action ? "is-hint-move" : "", "data-action": c.action, onclick: () => choose(c) }, choiceLabel(c, "choose"), hintMark(v, c)))));
    }
    return el("ul", { class: "pi-choices pi-moves" },
      ch.items.map((c) => el("li", {}, el("button", { type: "button", class: c.action === v.hint?.action ? "is-hint-move" : "", "data-action": c.action, "aria-label": `${choiceLabel(c, "move")}${c.action === v.hint?.action ? ` (${t("hint_marked")})` : ""}`, title: choiceLabel(c, "move"), onclick: () => choose(c) },
        el("span", { class: `pi-die-chip pi-${c.colour}`, "aria-hidden": "true" }, `${COLOUR_LETTER[c.colour]}${c.value}`),
        " ", t("pi_move_short", { ahead: c.ahead, lane: c.lane }), c.token ? " ⚡" : "", hintMark(v, c)))),
      ch.stay ? el("li", { class: "pi-stay-li" }, el("button", { type: "button", class: `pi-stay${ch.stay.action === v.hint?.action ? " is-hint-move" : ""}`, "data-action": ch.stay.action, onclick: () => choose(ch.stay) }, t(`pi_stay_${ch.stay.why}`), hintMark(v, ch.stay))) : null);
  }

  function controls(v, zoomed = false) {
    const ch = v.choices;
    if (waiting.on) return waiting.line("pi-turn");
    if (!ch) return null;
    const who = playerName(v, v.to_act);
    if (!v.may_act) return el("p", { class: "pi-turn", role: "status" }, t("pi_waiting_for", { who }));
    const head = ch.kind === "place" ? t("pi_your_place", { rider: ch.rider }) : ch.kind === "choose" ? t("pi_your_choose")
      : t("pi_your_move", { rider: ch.rider, tokens: v.tokens[v.to_act] });
    return el("div", { class: "card pi-controls" },
      el("h2", { class: "pi-turn yours" }, head),
      ch.kind === "move" && v.dice ? diceRow(v.dice) : null,
      hintOf(v, ch),
      ch.kind !== "choose" ? el("p", { class: "note" }, t(zoomed ? "pi_tap_hint_zoomed" : "pi_tap_hint")) : null,
      choiceButtons(v, ch));
  }

  // hints on: the panel saying the hinted choice in the words of its button, which plays it
  function hintOf(v, ch) {
    const stay = ch.stay && ch.stay.action === v.hint?.action ? ch.stay : null;
    const c = stay ?? ch.items.find((x) => x.action === v.hint?.action);
    if (!c) return null;
    return hintPanel(v.hint, stay ? t(`pi_stay_${stay.why}`) : choiceLabel(c, ch.kind), () => choose(c));
  }

  function header(v) {
    const c = v.config;
    const bits = [t(`pi_variant_${c.variant}`)];
    if (c.variant === "points") bits.push(t("pi_laps_n", { n: c.laps }));
    if (c.variant === "elimination") bits.push(t("pi_heat_n", { n: v.heat }));
    if (v.round) bits.push(t("pi_round_n", { n: v.round }));
    return el("p", { class: "pi-head" }, bits.join(" · "));
  }

  function render() {
    const v = view;
    if (!v) return;
    const key = beginRedraw(root, v.phase);
    if (v.phase === "lobby") {
      // the track beside the join code on the TV, under it on a phone
      const track = velodrome(v, { targets: new Map(), tap: () => {} });
      const wide = !narrow.matches;
      fill(stage, lobbyCard(v, ctx, (vv, p) => playerName(vv, p)), waiting.line("pi-turn"), wide ? null : track);
      fill(side, el("div", { class: "card" }, el("h3", {}, t(`pi_variant_${v.config.variant}`)), el("p", {}, t(`pi_about_${v.config.variant}`))),
        wide ? track : null);
      return;
    }
    const placing = v.choices?.kind === "place" ? v.choices.rider : null;
    const wide = !narrow.matches;
    // a phone: zoomed on the choice when it is to act, else on the field while racing
    const acting = v.may_act && !waiting.on && v.choices?.kind !== "choose";
    const zoom = !wide && (acting || v.phase === "racing");
    const track = velodrome(v, { targets: waiting.on ? new Map() : targetsOf(v), tap: choose, placing, zoom, trails });
    const result = resultBox(v);
    const end = ending(v, v.phase !== "racing");
    // the TV: the choices (when this screen acts) or the throw under the track, the
    // standings beside it; at the end the result under a smaller track, the podium beside
    const tvChoices = wide && v.may_act && v.choices && !waiting.on;
    stage.classList.toggle("pi-acting", Boolean(tvChoices));
    side.classList.toggle("pi-crowded", v.standings.length > 8); // the TV: the feed is enough
    fill(stage, wide ? header(v) : result ?? header(v),
      track,
      wide ? result : null,
      wide ? (tvChoices ? controls(v) : null) : controls(v, zoom && acting),
      wide && !tvChoices && v.dice && v.mover ? el("div", { class: "pi-throw" }, t("pi_throw_of", { rider: v.mover }), diceRow(v.dice)) : null);
    fill(side, end, wide && !tvChoices ? controls(v) : null,
      wide && end ? null : el("div", { class: "card" }, standingsTable(v),
        el("p", { class: "note" }, t("pi_tokens"), " ", v.players.map((p, i) => `${shortName(v, i)}: ${v.tokens[i]}`).join(" · ")),
        v.config.variant === "points" && v.sprints.some((sp) => sp.length) ? el("p", { class: "note" }, t("pi_sprints"), " ", v.sprints.map((sp, i) => (sp.length ? `${i + 1}: ${sp.join(", ")}` : "")).filter(Boolean).join(" · ")) : null,
        v.eliminated.length ? el("p", { class: "note" }, t("pi_eliminated", { riders: v.eliminated.join(", ") })) : null),
      el("div", { class: "card pi-commentary" }, el("h3", {}, t("commentary")),
        el("ol", { class: "pi-recent" }, v.recent.slice(-8).reverse().map((e) => el("li", {}, eventText(e))).filter((li) => li.textContent))),
      v.phase !== "racing" ? el("p", {}, el("a", { href: "/" }, t("new_party"))) : null,
      ctx.role === "host" ? standInPanel(v, send) : null,
      ctx.role === "host" && v.phase === "racing" ? el("button", { type: "button", class: "hp-abandon", onclick: () => { if (window.confirm(t("pi_confirm_abandon"))) send({ type: "finish" }); } }, t("pi_abandon")) : null);
    if (pending.length) {
      const ms = Math.round(Math.min(600, Math.max(250, (v.timeline?.pace ?? 0.6) * 700)));
      stage.dataset.animated = String(Number(stage.dataset.animated || 0) + animateRiders(track, pending, v.track.length, ms));
      pending = [];
    }
    const mayAct = Boolean(v.may_act && !waiting.on);
    const sig = JSON.stringify([v.to_act, v.mover, v.dice, v.choices?.kind, v.round, v.choices?.rider]);
    // when the turn has just come to this screen, its first choice is the useful control
    refocus(root, key, mayAct && (!couldAct || sig !== lastSig), USEFUL);
    couldAct = mayAct;
    lastSig = sig;
  }

  onLanguage(render);
  narrow.addEventListener("change", render);
  let updates = 0;
  return handlers((l) => { live = l; }, (v) => { before = view; view = v; }, (v, events) => {
    stage.dataset.updates = String(++updates); // how many updates were drawn (for tests)
    return events.map(eventText).filter(Boolean).slice(-3).join(" · ");
  }, (events) => {
    const moved = movesBetween(before, view);
    if (events.some((e) => e.type === "again" || e.type === "started")) trails = [];
    if (moved.length) { trails = moved; pending = moved; }
  });
}
