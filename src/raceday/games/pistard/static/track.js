// PISTARD in the browser: the coloured four-lane velodrome in SVG (every square labelled
// with its colour's letter, lanes numbered on the line, the start/finish and sprint line),
// the riders, the dice, the choices the server lists, live standings and the result; the
// screen is shared by the big screen and the phones. No rule lives here: the choices (with
// their action numbers), the dice and the standings come from the server's view.
import { el } from "/static/js/common.js";
import { fill, lobbyCard, svg, turnScreen } from "/static/js/rooms.js";
import { language, onLanguage, placeText, t } from "/static/js/i18n.js";
import { describeEvent, render as say, template } from "/static/js/present.js";

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

// The velodrome with riders; targets (square key "col:lane" -> choice) are tappable.
export function velodrome(view, ui) {
  const length = view.track.length;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "pi-track", role: "group", "aria-label": t("pi_track_label", { name: view.track.name, n: length }) });
  const occupied = new Map();
  for (const r of view.riders ?? []) if (r.status === "race") occupied.set(`${r.col}:${r.lane}`, r);
  for (let lane = 1; lane <= LANES; lane++) {
    const row = view.track.grid[lane - 1];
    for (let col = 0; col < length; col++) {
      const letter = row[col];
      const key = `${col}:${lane}`;
      const target = ui.targets.get(key);
      const g = svg("g", {
        class: `pi-square pi-${LETTER_COLOUR[letter]}${target ? " is-target" : ""}`, "data-square": key,
        role: target ? "button" : null, tabindex: target ? 0 : null,
        "aria-label": target ? target.label : null,
        onclick: target ? () => ui.tap(target) : null,
        onkeydown: target ? (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ui.tap(target); } } : null,
      }, svg("polygon", { points: quad(colStart(col, length), colStart(col + 1, length), (lane - 1) * LANE, lane * LANE) }));
      if (!occupied.has(key)) {
        const [x, y] = centre(col, lane, length);
        g.append(svg("text", { x, y: y + 5, "text-anchor": "middle", class: "pi-letter", "aria-hidden": "true" }, target ? target.short : letter));
      }
      root.append(g);
    }
  }
  // the line: a chequered band with the lane numbers; a second line for the pursuit's team 2
  for (let lane = 1; lane <= LANES; lane++) {
    root.append(svg("polygon", { points: quad(0, GAP, (lane - 1) * LANE, lane * LANE), class: lane % 2 ? "pi-line-a" : "pi-line-b" }));
    const [x, y] = point(GAP / 2, (lane - 0.5) * LANE);
    root.append(svg("text", { x, y: y + 6, "text-anchor": "middle", class: "pi-lane-no" }, String(lane)));
  }
  for (const off of view.track.lines.filter((o) => o !== 0)) {
    const s = colStart(off, length);
    const [x0, y0] = point(s, 0);
    const [x1, y1] = point(s, LANES * LANE);
    root.append(svg("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "pi-line-2" }));
  }
  const [lx, ly] = point(GAP / 2, LANES * LANE + 22);
  root.append(svg("text", { x: lx, y: ly, "text-anchor": "middle", class: "pi-caption" }, t("pi_line")));
  // infield: direction and legend
  root.append(svg("text", { x: CX, y: CY - 40, "text-anchor": "middle", class: "pi-infield" }, t("pi_direction")),
    svg("text", { x: CX, y: CY, "text-anchor": "middle", class: "pi-infield-small" }, t("pi_lanes_legend")),
    svg("text", { x: CX, y: CY + 30, "text-anchor": "middle", class: "pi-infield-small" }, t("pi_colours_legend")));
  if (ui.zoom) zoomTo(root, view, ui, length);
  for (const r of view.riders ?? []) {
    if (r.status !== "race") continue;
    const [x, y] = centre(r.col, r.lane, length);
    const moving = r.rider === view.mover || r.rider === ui.placing;
    root.append(svg("g", { class: `pi-rider ${ownerClass(r.owner)}${moving ? " is-mover" : ""}`, "data-rider": r.rider, "aria-label": t("pi_rider_at", { rider: r.rider, lane: r.lane }) },
      svg("circle", { cx: x, cy: y, r: 14 }),
      svg("text", { x, y: y + 5, "text-anchor": "middle" }, String(r.rider))));
  }
  return root;
}

// On a phone, the part of the track where the choice is: the rider to move and the
// squares he may reach, with some track around them (the whole lap is too small to tap).
function zoomTo(root, view, ui, length) {
  const pts = [...ui.targets.values()].map((c) => centre(c.col, c.lane, length));
  for (const r of view.riders ?? []) {
    if (r.status === "race" && (r.rider === view.mover)) pts.push(centre(r.col, r.lane, length));
  }
  if (!pts.length) return;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  let x0 = Math.min(...xs) - 70;
  let x1 = Math.max(...xs) + 70;
  let y0 = Math.min(...ys) - 70;
  let y1 = Math.max(...ys) + 70;
  const w = Math.max(x1 - x0, 360);
  const h = Math.max(y1 - y0, w * 0.6);
  x0 = Math.max(0, Math.min(W - w, (x0 + x1) / 2 - w / 2));
  y0 = Math.max(0, Math.min(H - h, (y0 + y1) / 2 - h / 2));
  x1 = x0 + w;
  y1 = y0 + h;
  root.setAttribute("viewBox", `${x0.toFixed(0)} ${y0.toFixed(0)} ${(x1 - x0).toFixed(0)} ${(y1 - y0).toFixed(0)}`);
  root.classList.add("is-zoomed");
}

export function playerName(view, p) {
  const pl = view.players[p];
  if (!pl) return `#${p + 1}`;
  if (pl.kind !== "human") return t("pi_player_computer", { n: p + 1, level: t(`level_${pl.kind}`) });
  return pl.name ? t("pi_player_named", { n: p + 1, name: pl.name }) : t("pi_player_screen", { n: p + 1 });
}

function chip(owner, text) { return el("span", { class: `pi-chip ${ownerClass(owner)}` }, text); }

function diceRow(dice) {
  return el("div", { class: "pi-dice", role: "img", "aria-label": dice.map((v, i) => `${t(`pi_${["yellow", "green", "blue", "red"][i]}`)} ${v}`).join(", ") },
    dice.map((v, i) => el("span", { class: `pi-die pi-${["yellow", "green", "blue", "red"][i]}`, "aria-hidden": "true" },
      el("small", {}, "YGBR"[i]), String(v))));
}

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
  if (type === "positions" || template(`event.${type}`, "en", "pistard") === undefined) return "";
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
      el("td", {}, s.place ?? "—"), el("td", {}, chip(s.owner, String(s.rider))), el("td", {}, playerName(v, s.owner)),
      el("td", { class: "num" }, s.status === "race" ? (s.to_go > 0 ? String(s.to_go) : t("pi_over_line")) : t(s.status === "out" ? "out" : "pi_waiting")),
      el("td", { class: "num" }, s.status === "race" ? String(s.lane) : ""),
      points ? el("td", { class: "num" }, String(s.points)) : null))));
}

function resultBox(v) {
  if (v.abandoned) return el("div", { class: "card pi-result", role: "status" }, el("h2", {}, t("pi_abandoned")));
  const r = v.result;
  if (!r) return null;
  let head;
  if (v.config.variant === "pursuit") head = r.winner === null ? t("pi_tie") : t("pi_team_wins", { who: playerName(v, r.winner) });
  else if (v.config.variant === "ttt") head = t("pi_team_time", { time: Number(r.team_time).toFixed(2) });
  else {
    const first = r.ranking[0];
    head = t("pi_rider_wins", { rider: first.rider, who: playerName(v, first.owner) });
  }
  const points = v.config.variant === "points";
  const elim = v.config.variant === "elimination";
  return el("div", { class: "card pi-result", role: "status" },
    el("h2", { class: "pi-result-head" }, head),
    el("p", {}, r.message ? say(r.message, language(), "pistard") : "", r.stopped ? ` — ${t("pi_stopped", { n: r.rounds })}` : ""),
    r.ranking.length ? el("table", {}, el("tbody", {}, r.ranking.map((row) => el("tr", { class: v.mine.includes(row.owner) ? "mine" : "" },
      el("td", {}, placeText(row.place)), el("td", {}, chip(row.owner, String(row.rider))), el("td", {}, playerName(v, row.owner)),
      points ? el("td", { class: "num" }, t("pi_points_n", { n: row.points })) : null,
      elim ? el("td", {}, row.out_heat ? t("pi_out_heat", { n: row.out_heat }) : t("pi_winner")) : null,
      row.fell ? el("td", {}, t("fell")) : null)))) : null,
    r.team_times.length ? el("ul", {}, r.team_times.map((x) => el("li", {}, t("pi_team_line", { who: playerName(v, x.team), rounds: x.rounds, past: x.past })))) : null,
    el("p", {}, el("a", { href: "/" }, t("new_party"))));
}

export function mountRace(root, ctx) {
  let view = null;
  let live = null;
  const { stage, side, waiting, send, handlers } = turnScreen(root, ctx, "pistard", "pi",
    () => view, () => live, () => render());
  const choose = (c) => send({ type: "move", action: c.action });

  function targetsOf(v) {
    const map = new Map();
    const ch = v.may_act ? v.choices : null;
    if (!ch || ch.kind === "choose") return map;
    for (const c of ch.items) {
      const short = ch.kind === "place" ? "●" : `${COLOUR_LETTER[c.colour]}${c.value}${c.token ? "+" : ""}`;
      map.set(`${c.col}:${c.lane}`, { ...c, short, label: choiceLabel(c, ch.kind) });
    }
    return map;
  }

  function controls(v) {
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
      ch.kind !== "choose" ? el("p", { class: "note" }, t("pi_tap_hint")) : null,
      el("ul", { class: "pi-choices" }, ch.items.map((c) => el("li", {}, el("button", { type: "button", "data-action": c.action, onclick: () => choose(c) }, choiceLabel(c, ch.kind)))),
        ch.stay ? el("li", {}, el("button", { type: "button", class: "pi-stay", "data-action": ch.stay.action, onclick: () => choose(ch.stay) }, t(`pi_stay_${ch.stay.why}`))) : null));
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
    document.body.dataset.phase = v.phase;
    if (v.phase === "lobby") {
      fill(stage, lobbyCard(v, ctx, (vv, p) => playerName(vv, p)), waiting.line("pi-turn"), velodrome(v, { targets: new Map(), tap: () => {} }));
      side.replaceChildren(el("div", { class: "card" }, el("h3", {}, t(`pi_variant_${v.config.variant}`)), el("p", {}, t(`pi_about_${v.config.variant}`))));
      return;
    }
    const placing = v.choices?.kind === "place" ? v.choices.rider : null;
    const phone = ctx.role === "seat";
    const zoom = phone && v.may_act && window.matchMedia("(max-width: 700px)").matches;
    fill(stage, resultBox(v) ?? header(v), phone ? controls(v) : null,
      velodrome(v, { targets: waiting.on ? new Map() : targetsOf(v), tap: choose, placing, zoom }),
      zoom ? el("p", { class: "note" }, t("pi_zoomed")) : null,
      !phone && v.dice && v.mover ? el("div", { class: "pi-throw" }, t("pi_throw_of", { rider: v.mover }), diceRow(v.dice)) : null);
    fill(side, phone ? null : controls(v),
      el("div", { class: "card" }, standingsTable(v),
        el("p", { class: "note" }, t("pi_tokens"), " ", v.players.map((p, i) => `${playerName(v, i)}: ${v.tokens[i]}`).join(" · ")),
        v.config.variant === "points" && v.sprints.some((s) => s.length) ? el("p", { class: "note" }, t("pi_sprints"), " ", v.sprints.map((s, i) => (s.length ? `${i + 1}: ${s.join(", ")}` : "")).filter(Boolean).join(" · ")) : null,
        v.eliminated.length ? el("p", { class: "note" }, t("pi_eliminated", { riders: v.eliminated.join(", ") })) : null),
      el("div", { class: "card" }, el("h3", {}, t("commentary")),
        el("ol", { class: "pi-recent" }, v.recent.slice(-8).reverse().map((e) => el("li", {}, eventText(e))).filter((li) => li.textContent))),
      ctx.role === "host" && v.phase === "racing" ? el("button", { type: "button", class: "hp-abandon", onclick: () => { if (window.confirm(t("pi_confirm_abandon"))) send({ type: "finish" }); } }, t("pi_abandon")) : null);
  }

  onLanguage(render);
  let updates = 0;
  return handlers((l) => { live = l; }, (v) => { view = v; }, (v, events) => {
    stage.dataset.updates = String(++updates); // how many updates were drawn (for tests)
    return events.map(eventText).filter(Boolean).slice(-3).join(" · ");
  });
}
