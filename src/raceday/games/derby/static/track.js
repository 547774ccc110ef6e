// The Dice Derby race track: six lanes, each horse (a colour AND a shape AND its name)
// at the furlongs it has run, its last die beside it and its place once it has one.
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

// Where a horse stands, in percent of the lane (0: the start, 100: past the post).
function at(furlongs, place) {
  const f = Math.min(furlongs ?? 0, FURLONGS);
  return place === 1 ? 100 : (f / FURLONGS) * 92;
}

// The last round's dice of the frame: {horse: value|null}.
function lastRolls(frame) {
  const rounds = frame?.rounds || [];
  return rounds.length ? rounds[rounds.length - 1].rolls || {} : {};
}

// frame: the view's `live` at one tick. opts: {owners: {d4: "Aki", ...} (text shown under
// each horse), from: the frame before (the horses run from there), ms: how long they run,
// caption: the table's accessible name}. Returns the track element.
export function drawTrack(frame, opts = {}) {
  const owners = opts.owners || {};
  const from = opts.from || null;
  const ms = reducedMotion() ? 0 : Math.max(0, opts.ms ?? 700);
  const rolls = frame ? lastRolls(frame) : {};
  const places = frame?.places || {};
  const furlongs = frame?.furlongs || {};
  const photo = frame?.photo?.horses || [];
  const box = el("div", {
    class: `dd-track ${frame?.finished ? "is-finished" : ""} ${photo.length ? "is-photo" : ""}`,
    role: "table", "aria-label": opts.caption || t("dd_track"),
    "data-round": String(frame?.round ?? 0), "data-finished": frame?.finished ? "1" : "0",
  });
  const head = el("div", { class: "dd-lane dd-head", role: "row" },
    el("span", { class: "dd-label", role: "columnheader" }, t("horse")),
    el("span", { class: "dd-run", role: "columnheader" },
      el("span", { class: "dd-furlong-marks", "aria-hidden": "true" },
        Array.from({ length: FURLONGS }, (_, i) => el("span", {}, String(i + 1)))),
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
    const now = at(furlongs[h], place);
    const before = from ? at(from.furlongs?.[h], from.places?.[h] ?? null) : now;
    const runner = el("span", { class: `dd-runner h-${h}`, "aria-hidden": "true" }, SHAPES[h]);
    runner.style.left = `${before}%`;
    if (before !== now) runners.push([runner, now]);
    else runner.style.left = `${now}%`;
    const moved = from && before !== now;
    return el("div", {
      class: `dd-lane ${out ? "is-out" : ""} ${place === 1 ? "is-winner" : ""} ${moved ? "is-moving" : ""} ${photo.includes(h) ? "in-photo" : ""}`,
      role: "row", "data-horse": h,
    },
    el("span", { class: "dd-label", role: "rowheader" }, horseTag(h), el("small", {}, owners[h] || "")),
    el("span", { class: "dd-run", role: "cell" },
      el("span", { class: "dd-rail", "aria-hidden": "true" }, runner, el("span", { class: "dd-post" })),
      el("span", { class: "dd-sr" }, t("furlong", { n: Math.min(furlongs[h] ?? 0, FURLONGS) }))),
    el("span", { class: `dd-die ${shown === null ? "fell" : ""}`, role: "cell" }, die),
    el("span", { class: "dd-status", role: "cell" }, status));
  });
  box.replaceChildren(head, ...rows);
  if (runners.length) {
    for (const [runner] of runners) runner.style.transition = `left ${ms}ms cubic-bezier(.3,.1,.3,1)`;
    const go = () => { for (const [runner, now] of runners) runner.style.left = `${now}%`; };
    if (ms === 0) go();
    else requestAnimationFrame(() => requestAnimationFrame(go));
  }
  return box;
}
