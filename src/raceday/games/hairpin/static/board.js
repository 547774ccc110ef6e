// Hairpin Racers in the browser: the board drawn in SVG (direction arrows, finish line,
// pits), the legal moves the server lists, and the game screen shared by the big screen
// and the phones. No rule lives here: the moves, their names and the result come from the
// server's view; this module shows them and sends {type: "move", action}.
import { el } from "/static/js/common.js";
import { beginRedraw, refocus } from "/static/js/focus.js";
import { fill, lazyFinale, lobbyCard, standInOf, standInPanel, svg, turnScreen } from "/static/js/rooms.js";
import { keyed, language, onLanguage, t } from "/static/js/i18n.js";
import { render as say } from "/static/js/present.js";
import { hintPanel } from "/static/js/hint.js";

const COLS = "abcdef";
const CELL = 100;
const LEFT = 70;
const TOP = 46;
export const SIDE = ["red", "black"];


export function squareName(sq) { return `${COLS[sq % 6]}${Math.floor(sq / 6) + 1}`; }
// a square's number from its name ("c2" -> 8); -1 for anything else (the pit)
export function squareOf(name) {
  const m = /^([a-f])([1-3])$/.exec(String(name ?? ""));
  return m ? COLS.indexOf(m[1]) + 6 * (Number(m[2]) - 1) : -1;
}
// The squares of a colour's track in the order it runs them: Red row 1 left to right, row 2
// back, row 3 left to right (then over the finish line to a1 again); Black the reverse.
function trackOrder(side) {
  const red = [0, 1, 2, 3, 4, 5, 11, 10, 9, 8, 7, 6, 12, 13, 14, 15, 16, 17];
  return side === "black" ? red.slice().reverse() : red;
}
// The points a move passes through on the board: from its square along its colour's track
// to where it went (a racer re-entering from the pit comes in from the board's edge).
export function movePoints(move) {
  const to = squareOf(move?.to);
  if (to < 0) return null;
  const from = squareOf(move.from);
  if (from < 0) return [[to % 6 < 3 ? LEFT - 40 : LEFT + 6 * CELL + 40, cy(to)], [cx(to), cy(to)]];
  const order = trackOrder(move.player);
  const i = order.indexOf(from);
  const steps = (order.indexOf(to) - i + 18) % 18;
  const squares = [];
  for (let k = 0; k <= steps; k++) squares.push(order[(i + k) % 18]);
  // keep the corners only: where the row changes, and the ends
  const corners = squares.filter((sq, k) => k === 0 || k === squares.length - 1
    || Math.floor(sq / 6) !== Math.floor(squares[k - 1] / 6) || Math.floor(sq / 6) !== Math.floor(squares[k + 1] / 6));
  // over the finish line (the track's last square to its first): out past the board's
  // edge on the last row and in again from the other edge on the first, never across it
  const pts = [];
  for (let k = 0; k < corners.length; k++) {
    const sq = corners[k];
    const prev = k ? corners[k - 1] : null;
    if (prev === order[17] && sq === order[0]) {
      const out = prev % 6 === 5 ? LEFT + 6 * CELL + 30 : LEFT - 30;
      const back = sq % 6 === 0 ? LEFT - 30 : LEFT + 6 * CELL + 30;
      pts.push([out, cy(prev)], [back, cy(sq), "jump"]);
    }
    pts.push([cx(sq), cy(sq)]);
  }
  return pts;
}
// The last move's trace: a line with an arrowhead along the track from where the racer was
// to where it went.
function trail(move) {
  const pts = movePoints(move);
  if (!pts) return null;
  const side = move.player === "black" ? "black" : "red";
  return svg("path", { d: pts.map(([x, y, jump], k) => `${k && !jump ? "L" : "M"}${x},${y}`).join(" "), class: `hp-trail hp-trail-${side}`,
    "marker-end": "url(#hp-trail-head)", "data-from": move.from, "data-to": move.to, "aria-hidden": "true" });
}
// Animate the racer now on the last move's square from where it was (the eye follows it);
// nothing for a reader who asked for reduced motion. Returns true if it animated.
export function animateMove(board, move, ms) {
  const all = movePoints(move);
  // over the finish line the racer comes in from the edge it re-enters by
  const pts = all ? all.slice(Math.max(0, all.findIndex((p) => p[2] === "jump"))) : null;
  if (!pts || !board) return false;
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return false;
  const [tx, ty] = pts[pts.length - 1];
  const racerEl = board.querySelector(`.hp-racer[data-at="${tx},${ty}"]`);
  if (!racerEl || !racerEl.animate) return false;
  // equal time a leg of the path is fine: the legs are rows of the board
  racerEl.animate(pts.map(([x, y]) => ({ transform: `translate(${x - tx}px, ${y - ty}px)` })),
    { duration: ms, easing: "ease-in-out" });
  board.querySelector(".hp-trail")?.animate([{ opacity: 0 }, { opacity: 0.85 }], { duration: ms, easing: "ease-in" });
  return true;
}

function cx(sq) { return LEFT + (sq % 6) * CELL + CELL / 2; }
function cy(sq) { return TOP + (2 - Math.floor(sq / 6)) * CELL + CELL / 2; }

// A racer: Red a circle with R, Black a diamond with B (shape and letter, not colour alone).
function racer(side, count, x, y, r = 30) {
  const label = `${side === 0 ? "R" : "B"}${count > 1 ? count : ""}`;
  const shape = side === 0
    ? svg("circle", { cx: x, cy: y, r, class: "hp-red" })
    : svg("rect", { x: x - r * 0.85, y: y - r * 0.85, width: r * 1.7, height: r * 1.7, transform: `rotate(45 ${x} ${y})`, class: "hp-black" });
  return svg("g", { class: "hp-racer", "aria-hidden": "true", "data-at": `${x},${y}` }, shape,
    svg("text", { x, y: y + 8, "text-anchor": "middle", class: "hp-racer-label" }, label));
}

// The track of each colour as a path through the rows, with arrowheads: Red runs row 1
// left to right, row 2 back, row 3 left to right; Black the other way round.
function trackPath(side) {
  const off = side === 0 ? -34 : 34;
  const y = (row) => TOP + (2 - row) * CELL + CELL / 2 + off;
  const xl = LEFT + 22;
  const xr = LEFT + 6 * CELL - 22;
  const pts = [[xl, y(0)], [xr, y(0)], [xr, y(1)], [xl, y(1)], [xl, y(2)], [xr, y(2)]];
  if (side === 1) pts.reverse();
  return svg("path", {
    d: pts.map(([x, yy], i) => `${i ? "L" : "M"}${x},${yy}`).join(" "),
    class: `hp-track hp-track-${SIDE[side]}`, "marker-end": `url(#hp-arrow-${SIDE[side]})`,
    "marker-mid": `url(#hp-arrow-${SIDE[side]})`,
  });
}

// The board: squares (focusable when they can be tapped), racers, arrows, finish line.
export function boardSvg(view, ui) {
  const cells = view.board?.cells ?? new Array(18).fill(0);
  const targets = new Map(); // destination square -> moves of the selected origin
  for (const m of ui.moves) if (m.from === ui.selected && m.to >= 0) {
    if (!targets.has(m.to)) targets.set(m.to, []);
    targets.get(m.to).push(m);
  }
  const origins = new Set(ui.moves.map((m) => m.from));
  const last = view.recent?.[view.recent.length - 1];
  const root = svg("svg", { viewBox: `0 0 ${LEFT * 2 + 6 * CELL} ${TOP + 3 * CELL + 8}`, class: "hp-board", role: "group", "aria-label": keyed("hp_board"), "data-ply": view.board?.ply ?? -1 });
  const defs = svg("defs", {});
  for (const s of SIDE) {
    defs.append(svg("marker", { id: `hp-arrow-${s}`, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" },
      svg("path", { d: "M0,0 L10,5 L0,10 z", class: `hp-arrowhead-${s}` })));
  }
  defs.append(svg("marker", { id: "hp-trail-head", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto" },
    svg("path", { d: "M0,0 L10,5 L0,10 z", class: "hp-trail-head" })));
  root.append(defs);
  for (let c = 0; c < 6; c++) root.append(svg("text", { x: LEFT + c * CELL + CELL / 2, y: TOP - 14, "text-anchor": "middle", class: "hp-coord" }, COLS[c]));
  for (let r = 0; r < 3; r++) {
    const y = TOP + (2 - r) * CELL + CELL / 2 + 8;
    root.append(svg("text", { x: LEFT - 40, y, "text-anchor": "middle", class: "hp-coord" }, String(r + 1)));
    // each row's direction of travel, in words for screen readers and as arrows
    const redRight = r !== 1;
    root.append(svg("text", { x: LEFT + 6 * CELL + 36, y: y - 22, "text-anchor": "middle", class: "hp-dir hp-dir-red" }, `R${redRight ? "→" : "←"}`));
    root.append(svg("text", { x: LEFT + 6 * CELL + 36, y: y + 22, "text-anchor": "middle", class: "hp-dir hp-dir-black" }, `B${redRight ? "←" : "→"}`));
  }
  for (let sq = 0; sq < 18; sq++) {
    const x = LEFT + (sq % 6) * CELL;
    const y = TOP + (2 - Math.floor(sq / 6)) * CELL;
    const isTarget = targets.has(sq);
    const isOrigin = ui.canMove && origins.has(sq);
    const moved = last && (last.to === squareName(sq) || last.from === squareName(sq));
    // a room with hints on: the hinted move's racer and where it goes, outlined
    const hinted = ui.hint && (ui.hint.from === sq || ui.hint.to === sq);
    const cls = ["hp-square", isTarget ? "is-target" : "", ui.selected === sq ? "is-selected" : "",
      isOrigin ? "is-origin" : "", moved ? "is-last" : "", hinted ? "is-hint" : "",
      isTarget && targets.get(sq).some((m) => m.decides === "loses") ? "is-danger" : ""].filter(Boolean).join(" ");
    const n = cells[sq];
    const who = n > 0 ? t("hp_red_n", { n }) : n < 0 ? t("hp_black_n", { n: -n }) : t("hp_empty");
    const label = `${squareName(sq)}: ${who}${isTarget ? ` — ${targets.get(sq).map((m) => moveName(m.message)).join(" / ")}` : ""}${hinted ? ` (${t("hint_marked")})` : ""}`;
    const tappable = isTarget || isOrigin;
    const g = svg("g", {
      class: cls, "data-square": squareName(sq), role: tappable ? "button" : "img", "aria-label": label,
      tabindex: tappable ? 0 : null,
      onclick: tappable ? () => ui.tap(sq) : null,
      onkeydown: tappable ? (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); ui.tap(sq); } } : null,
    }, svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 10 }));
    root.append(g);
  }
  root.append(trackPath(0), trackPath(1));
  // the finish line: Red crosses it from f3 to a1, Black from a1 to f3
  root.append(svg("line", { x1: LEFT, y1: TOP + 2 * CELL + 4, x2: LEFT, y2: TOP + 3 * CELL - 4, class: "hp-finish" }),
    svg("line", { x1: LEFT + 6 * CELL, y1: TOP + 4, x2: LEFT + 6 * CELL, y2: TOP + CELL - 4, class: "hp-finish" }));
  const lastMove = [...(view.recent ?? [])].reverse().find((e) => e.type === "move");
  const traced = lastMove ? trail(lastMove) : null;
  if (traced) root.append(traced);
  for (let sq = 0; sq < 18; sq++) {
    const n = cells[sq];
    if (n) root.append(racer(n > 0 ? 0 : 1, Math.abs(n), cx(sq), cy(sq)));
    if (targets.has(sq)) {
      const kinds = [...new Set(targets.get(sq).map((m) => t(`hp_kind_${m.kind}`)))].join("/");
      // an empty square shows its move's kind in the middle; under a racer the words sit
      // on a plate of the square's colour that covers the track line running past
      if (!n) root.append(svg("text", { x: cx(sq), y: cy(sq) + 6, "text-anchor": "middle", class: "hp-target-label", "aria-hidden": "true" }, kinds));
      else {
        const w = Math.min(CELL - 10, kinds.length * 10 + 10);
        root.append(svg("g", { class: "hp-target-plate", "aria-hidden": "true" },
          svg("rect", { x: cx(sq) - w / 2, y: cy(sq) + 26, width: w, height: 20, rx: 5 }),
          svg("text", { x: cx(sq), y: cy(sq) + 42, "text-anchor": "middle", class: "hp-target-label" }, kinds)));
      }
    }
  }
  return root;
}

// Counters: laps, bumps (against the target) and pits, for both colours.
export function counters(view) {
  const b = view.board;
  const r = view.rules;
  return el("div", { class: "hp-counters" }, [0, 1].map((p) => el("div", { class: `hp-counter hp-${SIDE[p]}-row ${view.to_move === p ? "to-move" : ""}` },
    el("span", { class: `hp-chip hp-chip-${SIDE[p]}`, "aria-hidden": "true" }, p === 0 ? "R" : "B"),
    el("strong", {}, playerLabel(view, p)),
    el("span", {}, r.derby ? t("hp_laps_free", { n: b.laps[p] }) : t("hp_laps", { n: b.laps[p], of: r.target })),
    el("span", {}, r.bumping ? t("hp_bumps", { n: b.bumps[p], of: r.target }) : t("hp_no_bumping")),
    el("span", { class: b.pit[p] ? "hp-pit-full" : "" }, t("hp_pit", { n: b.pit[p] })))),
  r.derby ? el("p", { class: "note" }, t("hp_quiet", { n: b.clock, of: r.quiet_limit })) : null);
}

// The host's own seats are "this screen" only on the host screen; elsewhere they are the big screen's.
let hostScreen = true;

export function playerLabel(view, p) {
  const pl = view.players[p];
  const colour = t(`hp_${SIDE[p]}`);
  if (pl.kind !== "human") return `${colour} — ${t("hp_computer", { level: t(`level_${pl.kind}`) })}`;
  if (pl.name) return `${colour} — ${pl.name}${standInOf(view, (view.seats || []).indexOf(pl.name))}`;
  return `${colour} — ${t(hostScreen ? "hp_this_screen" : "hp_big_screen")}`;
}

// The variant ("short", "derby+v1") in the page's language: its words, joined as a list.
function variantWords(variant) {
  return String(variant || "standard").split("+").map((w) => ({ key: `hp_variant.${w}` }));
}

export function rulesNote(view) {
  const r = view.rules;
  const parts = [t("hp_rule_move"), r.bumping ? t(r.derby ? "hp_rule_derby" : "hp_rule_bump", { n: r.target }) : t("hp_rule_nobump"),
    t("hp_rule_pit"), r.derby ? null : t("hp_rule_win", { n: r.target })].filter(Boolean);
  if (r.v1) parts.push(t("hp_rule_v1"));
  return el("details", { class: "hp-rules" }, el("summary", {}, t("hp_rules_title", { variant: variantWords(view.variant) })),
    el("ul", {}, parts.map((p) => el("li", {}, p))));
}

// Who won, from this screen's point of view: "You won!" on the winner's own screen, "You
// lost" on the loser's, and the winner named on a screen that plays both places or none.
export function winnerLine(view) {
  const res = view.result;
  if (res.winner === null) return t("hp_draw");
  const who = sideName(view, res.winner);
  const mine = view.mine ?? [];
  if (mine.length === 1) return mine.includes(res.winner) ? t("hp_you_won", { who }) : t("hp_you_lost", { who });
  return t("hp_wins", { who });
}

// A side named for everyone (never "this screen"): its colour, and its player's name or level.
export function sideName(view, p) {
  const pl = view.players[p];
  const colour = t(`hp_${SIDE[p]}`);
  if (pl.kind !== "human") return `${colour} — ${t("hp_computer", { level: t(`level_${pl.kind}`) })}`;
  return pl.name ? `${colour} — ${pl.name}` : colour;
}

function resultBox(view) {
  const res = view.result;
  if (view.abandoned) return el("div", { class: "card hp-result", role: "status" }, el("h2", {}, t("hp_abandoned")));
  if (!res) return null;
  const why = res.winner === null ? t("hp_why_draw", { n: view.rules.quiet_limit })
    : t(`hp_why_${res.termination}`, { who: t(`hp_${SIDE[res.winner]}`), loser: t(`hp_${SIDE[1 - res.winner]}`), n: view.rules.target });
  return el("div", { class: "card hp-result", role: "status" },
    el("h2", { class: "hp-result-head" }, winnerLine(view)), el("p", { class: "hp-why" }, why),
    el("p", { class: "note" }, t("hp_final_counts", { lr: res.laps[0], lb: res.laps[1], br: res.bumps[0], bb: res.bumps[1], plies: res.plies })));
}

// A move in the page's language: the server's message for it (each of the room's moves
// carries its action message). A move event has the same facts (from, to, its kind and a
// charge's choice), so it is worded by the same keys.
export function moveName(message) {
  return say(message, language(), "hairpin");
}

export function moveText(e, view) {
  if (e.type !== "move") return "";
  const who = t(`hp_${e.player}`);
  const move = moveName({ key: `move.${e.choice ?? e.kind}`, params: e });
  return `${who}: ${move}${e.forced ? ` (${t("hp_forced")})` : ""}`;
}

// The whole game screen (big screen and phone alike: whoever may move gets the controls).
// On a narrow screen the board comes first and the player's moves right under it; on a wide
// one the moves stand beside the board. The move that just came is traced on the board and
// its racer slides from where it was; after a move focus goes to the next useful control.
// Where focus goes after a redraw when it cannot stay where it was: the first of these.
const USEFUL = ["button.hp-pit-move", "button.hp-move", ".hp-square.is-origin", ".finale button.again", "#hp-undo"];

export function mountGame(root, ctx) {
  hostScreen = ctx.role === "host";
  let view = null;
  let live = null;
  let selected = null;
  let note = "";
  let pending = null; // the move to animate at the next draw (the update's last move)
  let couldMove = false;
  let lastPly = -1;
  const narrow = window.matchMedia("(max-width: 900px)");
  const { stage, side, waiting, send, handlers } = turnScreen(root, ctx, "hairpin", "hp",
    () => view, () => live, () => render());
  const ending = lazyFinale("hairpin", ctx, () => live, () => render());

  function play(m) {
    if (m.decides === "loses" && !window.confirm(t("hp_confirm_lose", { move: moveName(m.message) }))) return;
    selected = null;
    note = "";
    send({ type: "move", action: m.action });
  }

  function tap(sq) {
    const moves = view.may_move ? view.moves : [];
    if (selected !== null) {
      const here = moves.filter((m) => m.from === selected && m.to === sq);
      if (here.length === 1) { play(here[0]); return; }
      if (here.length > 1) { note = t("hp_choose_below"); render(); root.querySelector(".hp-moves button")?.focus(); return; }
    }
    selected = moves.some((m) => m.from === sq) ? sq : null;
    note = "";
    render();
  }

  function moveButtons(v) {
    const shown = v.moves.filter((m) => selected === null || m.from === selected);
    return el("div", { class: "hp-moves" },
      el("h3", {}, selected === null ? t("hp_all_moves") : t("hp_moves_of", { square: squareName(selected) })),
      el("ul", {}, shown.map((m) => el("li", {}, el("button", {
        type: "button", class: `hp-move ${m.decides ? `decides-${m.decides}` : ""}${m.action === v.hint?.action ? " is-hint-move" : ""}`, "data-action": m.action,
        onclick: () => play(m),
      }, moveName(m.message), m.lap ? ` · ${t("hp_lap")}` : "", m.warning_message ? ` ⚠ ${say(m.warning_message, language(), "hairpin")}` : "",
      m.action === v.hint?.action ? ` · ${t("hint_marked")}` : "")))),
      selected !== null ? el("button", { type: "button", id: "hp-show-all", onclick: () => { selected = null; note = ""; render(); } }, t("hp_show_all")) : null);
  }

  function action(v, canMove) {
    const pit = canMove ? v.moves.find((m) => m.from === -1 || m.from === -2) : null;
    if (!canMove && !v.may_undo) return null;
    const hinted = canMove ? v.moves.find((m) => m.action === v.hint?.action) : null;
    return el("div", { class: "hp-action" },
      note ? el("p", { class: "note hp-note", role: "status" }, note) : null,
      hinted ? hintPanel(v.hint, moveName(hinted.message), () => play(hinted)) : null,
      pit ? el("button", { type: "button", class: "primary hp-pit-move", "data-action": pit.action, onclick: () => play(pit) }, moveName(pit.message)) : null,
      canMove ? el("p", { class: "note" }, t("hp_tap_hint")) : null,
      canMove ? moveButtons(v) : null,
      v.may_undo ? el("button", { type: "button", class: "hp-undo", id: "hp-undo", onclick: () => { selected = null; note = ""; send({ type: "undo" }); } }, "↶ ", t("hp_undo")) : null);
  }

  function render() {
    const v = view;
    if (!v) return;
    const key = beginRedraw(root, v.phase);
    if (v.phase === "lobby") {
      fill(stage, lobbyCard(v, ctx, playerLabel), waiting.line("hp-turn"));
      side.replaceChildren(rulesNote(v));
      return;
    }
    const canMove = v.may_move && v.phase === "playing" && !waiting.on;
    if (!canMove) { selected = null; note = ""; }
    const turn = v.phase !== "playing" ? null : waiting.on ? waiting.line("hp-turn")
      : el("p", { class: `hp-turn ${canMove ? "yours" : ""}`, role: "status" },
        canMove ? t("hp_your_move", { who: playerLabel(v, v.to_move) }) : t("hp_waiting_move", { who: playerLabel(v, v.to_move) }));
    const hint = canMove ? v.moves.find((m) => m.action === v.hint?.action) : null;
    const board = boardSvg(v, { moves: canMove ? v.moves : [], selected, canMove, tap, hint });
    const act = action(v, canMove);
    const recent = el("div", { class: "card hp-recent-card" }, el("h3", {}, t("hp_last_moves")),
      v.recent.length ? el("ol", { class: "hp-recent" }, v.recent.slice().reverse().map((e) => el("li", {}, moveText(e, v)))) : el("p", {}, "—"));
    const wide = !narrow.matches;
    const over = v.phase !== "playing";
    // the end on the TV: the result under the board (its counts are the result's), the
    // podium beside it
    fill(stage,
      wide ? turn : resultBox(v) ?? turn,
      board,
      wide ? resultBox(v) : act,
      wide && over ? null : counters(v),
      wide && over ? null : el("p", { class: "note hp-finish-note" }, t("hp_finish_line")));
    const end = ending(v, v.phase !== "playing");
    fill(side,
      end,
      wide ? act : null,
      wide && end ? null : recent,
      rulesNote(v),
      v.phase !== "playing" ? el("p", {}, el("a", { href: "/" }, t("new_party"))) : null,
      ctx.role === "host" ? standInPanel(v, send) : null,
      ctx.role === "host" && v.phase === "playing" ? el("button", { type: "button", class: "hp-abandon", onclick: () => { if (window.confirm(t("hp_confirm_abandon"))) send({ type: "finish" }); } }, t("hp_abandon")) : null);
    if (pending) {
      const ms = Math.round(Math.min(700, Math.max(250, (v.timeline?.pace ?? 0.8) * 600)));
      stage.dataset.animated = String(Number(stage.dataset.animated || 0) + (animateMove(board, pending, ms) ? 1 : 0));
      pending = null;
    }
    const ply = v.board?.ply ?? -1;
    // when the turn has just come to this screen, its first move is the useful control
    refocus(root, key, canMove && (!couldMove || ply !== lastPly), USEFUL);
    couldMove = canMove;
    lastPly = ply;
  }

  onLanguage(render);
  narrow.addEventListener("change", render);
  return handlers((l) => { live = l; }, (v) => { view = v; },
    (v, events) => events.map((e) => (e.type === "undone" ? t("hp_undone") : moveText(e, v))).filter(Boolean).join(" · "),
    (events) => {
      if (events.some((e) => e.type === "undone" || e.type === "move")) { selected = null; note = ""; }
      pending = [...events].reverse().find((e) => e.type === "move") ?? null;
    });
}
