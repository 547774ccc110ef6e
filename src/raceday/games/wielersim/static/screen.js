// A WielerSIM watch room on any screen: the TV (host or spectator, host.js) and the phones
// (play.js). The server rides the race one turn a paced step and sends every screen the
// same frame; this draws it: the profile with the groups gliding to their new squares, the
// race's line, the groups and the ticker, then the podium and the result. The host alone
// has the controls (start, pause or resume, the pace, skip to the finish).
import { el } from "/static/js/common.js";
import { keyed, onLanguage, t } from "/static/js/i18n.js";
import { drawFinale } from "/static/js/finale.js";
import { seatList } from "/static/js/rooms.js";
import { choiceName, filmStage, resultTable, stageName } from "./film.js";

const PACES = [3, 1.5, 0.8, 0.2]; // seconds a turn the host may pick
const MOVE_SHARE = 0.6; // the groups glide for this share of a turn
const TV_DISC = 5; // a group's disc on the TV: its number 28 px at 1920x1080

function paceLabel(seconds) {
  return t("wv_pace_s", { s: seconds });
}

// kind: "tv" (the host's or a spectator's big screen) or "phone"
export function mountScreen(root, ctx, kind) {
  const isHost = ctx.role === "host";
  const phone = kind === "phone";
  let view = null;
  let live = null;
  let stage = null;
  let stageKey = "";
  let shown = -1;
  let focusNext = null; // the control that should have the focus after a redraw

  const heading = el("h2", { class: "wv-heading" });
  const sub = el("p", { class: "wv-sub" });
  const controls = el("div", { class: "wv-controls row" });
  const body = el("div", { class: "wv-body" });
  root.replaceChildren(el("div", { class: `wv-room wv-${kind}` }, el("div", { class: "wv-top" },
    el("div", {}, heading, sub), controls), body));

  function send(intent) {
    if (!live) return Promise.resolve(false);
    return live.send(intent).then(() => { ctx.error.show(""); return true; })
      .catch((e) => { ctx.error.show(e.message); return false; });
  }

  function title(film) {
    return stageName(film.title_words, film.title) || film.route.name;
  }

  function subline(v) {
    const f = v.film;
    const parts = [];
    if (f.campaign) parts.push(t("wv_of_tour", { name: f.campaign }));
    if (f.peloton_name) parts.push(t("wv_peloton_is", { name: choiceName("peloton", f.peloton_name) }));
    if (f.seed) parts.push(t("wv_seed_is", { seed: f.seed }));
    return parts.join(" · ");
  }

  function ensureStage(v) {
    const key = `${v.film.route.name}:${v.film.seed}:${v.film.stage}`;
    if (!stage || key !== stageKey) {
      stage = filmStage(v.film, phone ? { groups: 4, ticker: 4 } : { groups: 5, ticker: 5, disc: TV_DISC });
      stageKey = key;
      shown = -1;
    }
    return stage;
  }

  function paceSelect(v) {
    const now = v.timeline?.pace ?? 1.5;
    const values = PACES.includes(now) ? PACES : [...PACES, now].sort((a, b) => b - a);
    const sel = el("select", { id: "wv-pace", "aria-label": keyed("wv_pace") },
      values.map((s) => el("option", { value: s, selected: s === now }, paceLabel(s))));
    sel.addEventListener("change", () => { focusNext = "wv-pace"; send({ type: "pace", seconds: Number(sel.value) }); });
    return el("label", { for: "wv-pace", class: "wv-pace" }, t("wv_pace"), " ", sel);
  }

  let controlsKey = "";
  function drawControls(v) {
    // redrawn only when they change, so a button is not replaced under the host's finger
    const key = `${document.documentElement.lang}:${v.phase}:${v.timeline?.paused}:${v.timeline?.pace}`;
    if (key === controlsKey) return;
    controlsKey = key;
    if (!isHost) { controls.replaceChildren(); return; }
    if (v.phase === "lobby") {
      controls.replaceChildren(el("button", { type: "button", class: "primary", id: "wv-start",
        onclick: () => { focusNext = "wv-pause"; send({ type: "start" }); } }, t("wv_start_race")));
    } else if (v.phase === "racing") {
      const paused = Boolean(v.timeline?.paused);
      controls.replaceChildren(
        el("button", { type: "button", class: "primary", id: "wv-pause", "aria-pressed": String(paused),
          onclick: () => { focusNext = "wv-pause"; send({ type: paused ? "resume" : "pause" }); } },
          paused ? t("wv_resume") : t("wv_pause")),
        el("button", { type: "button", id: "wv-skip", onclick: () => { focusNext = "wv-again"; send({ type: "skip" }); } }, t("wv_skip")),
        paceSelect(v));
    } else {
      controls.replaceChildren();
    }
  }

  function lobby(v) {
    const s = ensureStage(v);
    s.show(null, []);
    const joinUrl = ctx.info?.join_url ?? "";
    const join = phone ? el("div", {}, v.me ? el("p", { class: "who" }, t("you_are", { name: v.me.name })) : null,
      el("p", { class: "wv-wait" }, t("wv_waiting_start")))
      : el("div", { class: "join-box wv-join" },
        el("p", { class: "big-code", "aria-label": keyed("room", { code: ctx.code }) }, ctx.code),
        el("img", { class: "qr", src: `/api/rooms/${ctx.code}/qr.svg`, alt: keyed("join_at", { url: joinUrl }), width: 200, height: 200 }),
        el("p", {}, t("wv_scan_to_watch")), el("p", { class: "url" }, joinUrl));
    // the host's list names each phone beside its Remove button; the others read one line
    const removable = isHost && v.seats.length ? seatList(v.seats, isHost, send, { class: "wv-seat-list" }) : null;
    const seats = el("p", { class: "wv-seats" }, !v.seats.length ? t("wv_nobody_watching")
      : removable ? t("wv_watching_count", { n: v.seats.length })
        : t("wv_watching", { n: v.seats.length, names: v.seats.join(", ") }));
    body.replaceChildren(el("div", { class: "wv-lobby" }, s.node, el("div", { class: "wv-lobby-side" }, join, seats, removable)));
  }

  // the body's parts, replaced only when they change: the profile keeps its node (and its
  // sideways scroll on a phone) from frame to frame
  function place(...parts) {
    const wanted = parts.filter(Boolean);
    const now = [...body.children];
    if (wanted.length !== now.length || wanted.some((p, i) => p !== now[i])) body.replaceChildren(...wanted);
  }

  const pausedLine = el("p", { class: "wv-paused", role: "status" });
  let finaleKey = "";
  const finaleSlot = el("div", { class: "wv-finale-slot" });
  const linksBox = el("div", { class: "wv-links-box" });
  const podiumBox = el("div", { class: "wv-podium" }, finaleSlot, linksBox);
  const resultBox = el("div", { class: "wv-result" });
  const finishedBox = el("div", { class: "wv-finished" }, podiumBox, resultBox);

  function racing(v, animate) {
    const s = ensureStage(v);
    const fresh = shown !== v.shown;
    const ms = animate && fresh && shown >= 0 ? Math.round(1000 * (v.timeline?.pace ?? 1.5) * MOVE_SHARE) : 0;
    pausedLine.textContent = t("wv_paused");
    place(v.timeline?.paused ? pausedLine : null, s.node);
    s.show(v.frame, v.ticker, { ms });  // in the page: a narrow profile scrolls to the front
    shown = v.shown;
  }

  function links(v) {
    const f = v.film;
    const out = [];
    if (f.lesson) {  // the lesson's first race: back to the lesson, or on to any race
      out.push(el("a", { href: "/learn/wielersim", class: "button primary", id: "wv-lesson-back" }, t("wv_back_to_lesson")));
      out.push(el("a", { href: "/wielersim", class: "button" }, t("wv_another")));
    } else if (f.campaign) {
      out.push(el("a", { href: `/wielersim?campaign=${encodeURIComponent(f.campaign)}&stage=${f.stage}`, class: "button primary", id: "wv-tables" }, t("wv_tables")));
    } else if (f.route_name && f.peloton_name && f.seed) {
      const q = new URLSearchParams({ route: f.route_name, peloton: f.peloton_name, seed: f.seed });
      out.push(el("a", { href: `/wielersim?${q}`, class: "button", id: "wv-share" }, t("wv_share")));
      out.push(el("a", { href: "/wielersim", class: "button" }, t("wv_another")));
    }
    return out.length ? el("p", { class: "wv-links row" }, out) : null;
  }

  function finished(v) {
    const s = ensureStage(v);
    s.show(v.frame, v.ticker);
    shown = v.shown;
    // the finale is drawn once (its entrance plays once; it words itself again when the
    // language changes) unless the finale itself changes
    const key = JSON.stringify(v.finale ?? null);
    if (key !== finaleKey) {
      finaleKey = key;
      const finale = v.finale ? drawFinale(v.finale, { game: "wielersim", isHost, send,
        seat: v.me ? v.me.seat : null }) : null;
      finaleSlot.replaceChildren(...(finale ? [finale] : []));
    }
    const table = v.standings ? resultTable(v.film, v.standings, phone ? 10 : 8) : el("p", {}, t("wv_stopped"));
    // the boxes stay in the page, so the finale is never taken out and put back (which
    // would play its entrance again)
    linksBox.replaceChildren(...[links(v)].filter(Boolean));
    resultBox.replaceChildren(table);
    place(finishedBox);
  }

  function render(animate) {
    if (!view) return;
    const v = view;
    document.body.dataset.phase = v.phase;
    heading.textContent = title(v.film);
    sub.textContent = subline(v);
    drawControls(v);
    if (v.phase !== "finished") finaleKey = "";  // after "play again", a fresh finale
    if (v.phase === "lobby") lobby(v);
    else if (v.phase === "racing") racing(v, animate);
    else finished(v);
    if (focusNext) {
      // after the finish: back to the stage race's tables, else play again, else the link
      const target = document.getElementById(focusNext) || ["#wv-tables", ".finale button", "#wv-share"]
        .map((q) => root.querySelector(q)).find(Boolean);
      target?.focus();
      if (target) focusNext = null;
    }
  }

  const forget = onLanguage(() => { controlsKey = ""; stage?.words(); render(false); });

  return {
    stop: forget,  // a screen drawn anew in another layout: this one no longer redraws
    connect(l) { live = l; },
    welcome(v) { view = v; render(false); },
    update(v) { view = v; render(true); },
  };
}
