// The Dice Derby racecourse: six lanes of turf between white rails, furlong poles and the
// winning post (SVG); each horse a figure in its owner's racing colours (the jockey's silks
// and the saddle cloth; neutral when nobody owns it) carrying its die (the horse's own
// colour, shape AND name) and its owner's initial, at the furlongs it has run (a nose in
// front when its die showed the furlong's highest), its last die beside it and its place
// once it has one.
// drawTrack(frame, opts) draws one furlong tick as the server sent it (the view's `live`:
// furlongs, places, rounds, finished, photo); no rule is worked out here. The big screen
// and the replay page both use it.
import { el } from "/static/js/common.js";
import { placeText, t } from "/static/js/i18n.js";

export const HORSES = ["d4", "d6", "d8", "d10", "d12", "d20"];
// a colour AND a shape per horse, so colour-blind players can tell them apart
export const SHAPES = { d4: "●", d6: "▲", d8: "■", d10: "◆", d12: "★", d20: "⬟" };
export const FURLONGS = 5;

export function horseTag(name, extra = "") {
  return el("span", { class: `horse-tag h-${name} ${extra}` },
    el("span", { class: "shape", "aria-hidden": "true" }, SHAPES[name] || "?"), " ", name);
}

function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Where a horse stands, in percent of the lane (0: the start, 100: past the post); the horse
// ahead after the last furlong (the round's `ahead` fact) runs a nose in front.
const NOSE = 3;
function at(furlongs, place, ahead = false) {
  const f = Math.min(furlongs ?? 0, FURLONGS);
  if (place === 1) return 100;
  return (f / FURLONGS) * 88 + (ahead ? NOSE : 0);
}

// the runner's left edge: `percent` of the way along the lane, less the runner's own width
function spot(percent) {
  return `calc((100% - var(--dd-runner-w)) * ${(percent / 100).toFixed(4)})`;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

// The lane's turf, in the coordinates of a horse's nose (the SVG starts one runner's width
// in): the furlong poles, and the winning post where a horse that has run five furlongs is.
function turf() {
  const poles = Array.from({ length: FURLONGS - 1 }, (_, i) => {
    const x = ((i + 1) / FURLONGS) * 88;
    return svg("line", { x1: x, y1: 0, x2: x, y2: 100, class: "dd-pole" });
  });
  return svg("svg", { class: "dd-turf", viewBox: "0 0 100 100", preserveAspectRatio: "none", "aria-hidden": "true" },
    ...poles,
    svg("rect", { x: 87.2, y: 0, width: 1.6, height: 100, class: "dd-post-pole" }));
}

// The first letter of an owner's name, for the figure (the lane's label names them whole).
export function initial(name) {
  return Array.from((name || "").trim())[0]?.toUpperCase() ?? "";
}

// A small patch of an owner's racing colours (the view's player `colour`), beside a name.
export function ownerSwatch(colour) {
  return colour ? el("span", { class: `owner-swatch owner-${colour}`, "aria-hidden": "true" }) : null;
}

// A horse and its jockey, facing the post, the silks and saddle cloth in the owner's
// colours (a class `owner-<colour>` on the runner; neutral without); the die it carries and
// the owner's initial.
function horseFigure(name, rolled, owner = "") {
  const figure = svg("svg", { class: "dd-horse", viewBox: "0 0 64 48", "aria-hidden": "true" },
    svg("path", { class: "dd-tail", d: "M15 20 Q4 22 7 34" }),
    svg("g", { class: "dd-legs" },
      svg("path", { class: "dd-leg dd-leg-a", d: "M20 28 L15 44" }),
      svg("path", { class: "dd-leg dd-leg-b", d: "M25 29 L28 44" }),
      svg("path", { class: "dd-leg dd-leg-a", d: "M39 29 L36 44" }),
      svg("path", { class: "dd-leg dd-leg-b", d: "M43 28 L48 43" })),
    svg("ellipse", { class: "dd-body", cx: 30, cy: 23, rx: 16, ry: 8 }),
    svg("path", { class: "dd-body", d: "M40 19 L50 6 L57 8 L47 26 Z" }),
    svg("path", { class: "dd-cloth", d: "M21 15 Q28 13 35 15 L34 27 Q28 29 22 27 Z" }),
    svg("ellipse", { class: "dd-body", cx: 56, cy: 10, rx: 7, ry: 3.8, transform: "rotate(28 56 10)" }),
    svg("path", { class: "dd-silks", d: "M27 16 L31 5 L37 6 L36 17 Z" }),
    svg("circle", { class: "dd-silks dd-cap", cx: 35, cy: 3.6, r: 3.4 }));
  return [figure, el("span", { class: "dd-carry" },
    el("span", { class: "shape" }, SHAPES[name] || "?"), name,
    rolled === undefined || rolled === null ? null : el("b", { class: "dd-carry-roll" }, String(rolled)),
    owner ? el("span", { class: "dd-carry-owner" }, initial(owner)) : null)];
}

// The last round's dice of the frame: {horse: value|null}.
function lastRolls(frame) {
  const rounds = frame?.rounds || [];
  return rounds.length ? rounds[rounds.length - 1].rolls || {} : {};
}

// frame: the view's `live` at one tick. opts: {owners: {d4: "Aki", ...} (text shown under
// each horse), colours: {d4: "orange", ...} (the owner's racing colours), from: the frame
// before (the horses run from there), ms: how long they run, caption: the table's
// accessible name}. Returns the track element.
export function drawTrack(frame, opts = {}) {
  const owners = opts.owners || {};
  const colours = opts.colours || {};
  const from = opts.from || null;
  const ms = reducedMotion() ? 0 : Math.max(0, opts.ms ?? 700);
  const rolls = frame ? lastRolls(frame) : {};
  const places = frame?.places || {};
  const furlongs = frame?.furlongs || {};
  const photo = frame?.photo?.horses || [];
  const lastRound = (frame?.rounds || [])[(frame?.rounds || []).length - 1];
  const ahead = !frame?.finished && lastRound?.ahead?.length === 1 ? lastRound.ahead[0] : null;
  const aheadBefore = (() => {
    const r = (from?.rounds || [])[(from?.rounds || []).length - 1];
    return !from?.finished && r?.ahead?.length === 1 ? r.ahead[0] : null;
  })();
  const box = el("div", {
    class: `dd-track dd-course ${frame?.finished ? "is-finished" : ""} ${photo.length ? "is-photo" : ""}`,
    role: "table", "aria-label": opts.caption || t("dd_track"),
    "data-round": String(frame?.round ?? 0), "data-finished": frame?.finished ? "1" : "0",
  });
  const head = el("div", { class: "dd-lane dd-head", role: "row" },
    el("span", { class: "dd-label", role: "columnheader" }, t("horse")),
    el("span", { class: "dd-run", role: "columnheader" },
      el("span", { class: "dd-furlong-marks", "aria-hidden": "true" },
        Array.from({ length: FURLONGS }, (_, i) => el("span", {}, `${i + 1}f`))),
      el("span", { class: "dd-sr" }, t("dd_furlongs_run"))),
    el("span", { class: "dd-die", role: "columnheader" }, t("dd_die")),
    el("span", { class: "dd-status", role: "columnheader" }, t("dd_place")));
  const runners = [];
  const rows = HORSES.map((h) => {
    const place = places[h] ?? null;
    const out = place !== null && place > 1;
    const shown = Object.hasOwn(rolls, h) ? rolls[h] : undefined;
    const die = shown === undefined ? "" : (shown === null ? t("fell") : String(shown));
    const status = place !== null ? placeText(place) : "";
    const now = at(furlongs[h], place, ahead === h);
    const before = from ? at(from.furlongs?.[h], from.places?.[h] ?? null, aheadBefore === h) : now;
    const fell = shown === null;
    const colour = colours[h] || "";
    // at the post the label the horse carries hangs back from its nose: it never runs on
    // past the turf over the die and place columns
    const runner = el("span", { class: `dd-runner h-${h} ${colour ? `owner-${colour}` : "is-unowned"} ${fell ? "is-fallen" : ""} ${now >= 95 ? "at-post" : ""}`,
      "aria-hidden": "true" }, horseFigure(h, shown, colour ? owners[h] : ""));
    runner.style.left = spot(before);
    if (before !== now) runners.push([runner, now]);
    else runner.style.left = spot(now);
    const moved = from && before !== now;
    return el("div", {
      class: `dd-lane ${out ? "is-out" : ""} ${place === 1 ? "is-winner" : ""} ${moved ? "is-moving" : ""} ${photo.includes(h) ? "in-photo" : ""} ${ahead === h ? "is-ahead" : ""} ${fell ? "is-fell" : ""}`,
      role: "row", "data-horse": h,
    },
    el("span", { class: "dd-label", role: "rowheader" }, horseTag(h),
      el("small", { class: colour ? `dd-owner owner-${colour}` : "dd-owner" }, ownerSwatch(colour), owners[h] || "")),
    el("span", { class: "dd-run", role: "cell" },
      el("span", { class: "dd-rail", "aria-hidden": "true" }, turf(), runner),
      el("span", { class: "dd-sr" }, t("furlong", { n: Math.min(furlongs[h] ?? 0, FURLONGS) }))),
    el("span", { class: `dd-die ${shown === null ? "fell" : ""}`, role: "cell" }, die),
    el("span", { class: "dd-status", role: "cell" }, status));
  });
  box.replaceChildren(head, ...rows);
  if (runners.length) {
    const run = glideMs(frame, ms);
    for (const [runner] of runners) runner.style.transition = `left ${run}ms cubic-bezier(.3,.1,.3,1)`;
    const go = () => { for (const [runner, now] of runners) runner.style.left = spot(now); };
    if (ms === 0) go();
    else requestAnimationFrame(() => requestAnimationFrame(go));
  }
  return box;
}

// How long the horses glide to `frame` (the view's `live`) for a step of `ms`: the last
// furlong of a photo-finish runs slower, for the eye to follow the noses.
export const PHOTO_SLOWER = 1.7;
export function glideMs(frame, ms) {
  return frame?.photo?.horses?.length ? Math.round(ms * PHOTO_SLOWER) : ms;
}

// A photo-finish's margin (the server's `photo`) as a message, worded when it is drawn, so a
// language switch words it anew: by one pip, or a level throw.
export function marginWords(photo) {
  return { key: photo.margin ? "dd_margin_pip" : "dd_margin_level" };
}

// The moments of the step from `before` to `frame` (the view's `live`), for the announcer,
// each a message {key, params, moment}: the furlong's falls (a die shown as null), a
// change of the horse ahead (the rounds' `ahead` fact), the finish (a photo-finish with its
// margin from the server's `photo`), a beaten favourite and a long-odds winner (the odds
// board's chances and win odds, `horses` of the view). Nothing is worked out anew here.
export const LONG_ODDS = 0.1;  // a winner given less than this chance is a long shot
export function raceMoments(before, frame, horses = []) {
  if (!frame) return [];
  const out = [];
  const rounds = frame.rounds || [];
  const seen = before?.rounds?.length ?? 0;
  if (frame.finished && !before?.finished) {
    const winner = Object.entries(frame.places || {}).find(([, p]) => p === 1)?.[0];
    if (frame.photo) {
      const [a, b] = frame.photo.horses;
      out.push({ key: "dd_say_photo", moment: "photo", params: { winner: a, second: b,
        margin: marginWords(frame.photo) } });
    } else if (winner) {
      out.push({ key: "dd_say_winner", moment: "winner", params: { horse: winner } });
    }
    const board = horses.filter((hs) => typeof hs.chance === "number");
    const favourite = board.slice().sort((x, y) => y.chance - x.chance)[0];
    const won = board.find((hs) => hs.name === winner);
    if (won && won.chance < LONG_ODDS) {
      // the long shot is the finish's headline itself (after a photo's, which says more)
      if (!frame.photo) out.length = 0;
      out.push({ key: "dd_say_long_odds", moment: "long_odds", params: { horse: winner, odds: won.win_text } });
    } else if (favourite && winner && favourite.name !== winner) {
      out.push({ key: "dd_say_favourite_beaten", moment: "favourite_beaten", params: { horse: favourite.name } });
    }
    return out;
  }
  if (rounds.length <= seen) return out;
  const r = rounds[rounds.length - 1];
  const fell = Object.entries(r.rolls || {}).filter(([, v]) => v === null).map(([h]) => h);
  if (fell.length === 1) out.push({ key: "dd_say_fall", moment: "fall", params: { horse: fell[0] } });
  else if (fell.length > 1) out.push({ key: "dd_say_falls", moment: "fall", params: { horses: fell } });
  const lead = r.ahead?.length === 1 ? r.ahead[0] : null;
  const prev = rounds.slice(0, -1).reverse().find((x) => x.ahead?.length === 1)?.ahead[0] ?? null;
  if (lead && lead !== prev) {
    out.push(prev ? { key: "dd_say_lead_change", moment: "lead", params: { horse: lead, was: prev } }
      : { key: "dd_say_lead", moment: "lead", params: { horse: lead } });
  }
  return out;
}

// The biggest payout of the race just settled (a `settled` event's facts), as a moment.
export function payoutMoment(settled, money) {
  const best = (settled?.payouts || []).filter((p) => p.amount > 0)
    .sort((a, b) => b.amount - a.amount)[0];
  return best ? { key: "dd_say_payout", moment: "payout", params: { name: best.name, amount: money(best.amount) } } : null;
}
