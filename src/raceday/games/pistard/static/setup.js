// The landing page's "PISTARD" card: the race, 1 to 5 players (each a person or a computer
// level), riders, tokens, laps and track, and whether it is played over days. The race's
// options are built from the options model's schema (options-form.js); the server checks
// every option with the same model.
import { el } from "/static/js/common.js";
import { optionField, readOptions } from "/static/js/options-form.js";
import { createRoom, kindSelect, mountCard } from "/static/js/rooms.js";
import { daysField } from "/static/js/days.js";
import { t } from "/static/js/i18n.js";

const VARIANTS = { scratch: [2, 5], points: [2, 5], elimination: [2, 5], sprint: [2, 2], ttt: [1, 1], pursuit: [2, 2] };
const TRACKS = ["default", "short"];  // the shipped tracks (a file is for the terminal)
const LAPS = 3;  // the points race the browser offers first: a short one

function draw(box, schema) {
  const field = (name, settings) => optionField(schema, name, { game: "pistard", ...settings });
  const variant = field("variant", { id: "pi-variant", choiceLabel: (v) => t(`pi_variant_${v}`) });
  const riders = field("riders_per_player", { id: "pi-riders" });
  const tokens = field("tokens", { id: "pi-tokens" });
  const laps = field("laps", { id: "pi-laps", value: LAPS });
  const track = field("track", { id: "pi-trackname", choices: TRACKS });
  const days = daysField("pi-days");
  const count = el("select", { name: "count", id: "pi-count" });
  const players = el("div", { class: "gp-players" });
  const sync = () => {
    const [lo, hi] = VARIANTS[variant.input.value];
    const keep = Number(count.value) || 2;
    count.replaceChildren(...Array.from({ length: hi - lo + 1 }, (_, i) => el("option", { value: lo + i }, String(lo + i))));
    count.value = String(Math.min(hi, Math.max(lo, keep)));
    const old = [...players.querySelectorAll("select")].map((s) => s.value);
    players.replaceChildren(...Array.from({ length: Number(count.value) }, (_, i) => el("div", {},
      el("label", { for: `pi-p${i}` }, t("pi_player_n", { n: i + 1 })), kindSelect(`p${i}`, old[i] ?? (i === 0 ? "human" : "medium"), `pi-p${i}`))));
    for (const node of laps.nodes) node.hidden = variant.input.value !== "points";
  };
  variant.input.addEventListener("change", sync);
  count.addEventListener("change", sync);
  const form = el("form", { id: "pistard-create" },
    el("p", {}, el("span", { class: "pill" }, t("pistard"))),
    el("p", { class: "note" }, t("pi_setup_hint")),
    variant.nodes,
    el("label", { for: "pi-count" }, t("pi_players")), count, players,
    riders.nodes, tokens.nodes, laps.nodes, track.nodes, days.nodes,
    el("button", { type: "submit", class: "primary" }, t("pi_create")));
  sync();
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const race = variant.input.value === "points" ? [variant, riders, tokens, laps, track, days] : [variant, riders, tokens, track, days];
    const options = { ...readOptions(race), players: [...players.querySelectorAll("select")].map((s) => s.value) };
    createRoom("pistard", options, document.getElementById("error"));
  });
  box.replaceChildren(el("h2", {}, t("pi_setup_title")), form);
}

await mountCard("pistard", draw);
