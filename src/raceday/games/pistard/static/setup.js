// The landing page's "PISTARD" card: the race, 1 to 5 players (each a person or a computer
// level), riders, tokens, laps and track; the server checks every option with the engine.
import { el } from "/static/js/common.js";
import { createRoom, kindSelect } from "/games/hairpin/static/setup.js";
import { onLanguage, t } from "/static/js/i18n.js";

const VARIANTS = { scratch: [2, 5], points: [2, 5], elimination: [2, 5], sprint: [2, 2], ttt: [1, 1], pursuit: [2, 2] };

function draw(box) {
  const variant = el("select", { name: "variant", id: "pi-variant" },
    Object.keys(VARIANTS).map((v) => el("option", { value: v }, t(`pi_variant_${v}`))));
  const count = el("select", { name: "count", id: "pi-count" });
  const players = el("div", { class: "gp-players" });
  const laps = el("input", { type: "number", name: "laps", id: "pi-laps", min: 1, max: 50, value: 3, inputmode: "numeric" });
  const lapsLabel = el("label", { for: "pi-laps" }, t("pi_laps"));
  const riders = el("select", { name: "riders", id: "pi-riders" }, el("option", { value: "" }, t("pi_riders_auto")),
    [1, 2, 3, 4, 5, 6].map((n) => el("option", { value: n }, String(n))));
  const tokenCount = el("input", { type: "number", name: "tokens", id: "pi-tokens", min: 0, max: 20, value: 3, inputmode: "numeric" });
  const track = el("select", { name: "track", id: "pi-trackname" },
    el("option", { value: "default" }, t("pi_track_default")), el("option", { value: "short" }, t("pi_track_short")));
  const sync = () => {
    const [lo, hi] = VARIANTS[variant.value];
    const keep = Number(count.value) || 2;
    count.replaceChildren(...Array.from({ length: hi - lo + 1 }, (_, i) => el("option", { value: lo + i }, String(lo + i))));
    count.value = String(Math.min(hi, Math.max(lo, keep)));
    const old = [...players.querySelectorAll("select")].map((s) => s.value);
    players.replaceChildren(...Array.from({ length: Number(count.value) }, (_, i) => el("div", {},
      el("label", { for: `pi-p${i}` }, t("pi_player_n", { n: i + 1 })), kindSelect(`p${i}`, old[i] ?? (i === 0 ? "human" : "medium"), `pi-p${i}`))));
    lapsLabel.hidden = laps.hidden = variant.value !== "points";
  };
  variant.addEventListener("change", sync);
  count.addEventListener("change", sync);
  const form = el("form", { id: "pistard-create" },
    el("p", {}, el("span", { class: "pill" }, t("pistard"))),
    el("p", { class: "note" }, t("pi_setup_hint")),
    el("label", { for: "pi-variant" }, t("pi_race")), variant,
    el("label", { for: "pi-count" }, t("pi_players")), count, players,
    el("label", { for: "pi-riders" }, t("pi_riders")), riders,
    el("label", { for: "pi-tokens" }, t("pi_tokens_option")), tokenCount,
    lapsLabel, laps,
    el("label", { for: "pi-trackname" }, t("pi_track")), track,
    el("button", { type: "submit", class: "primary" }, t("pi_create")));
  sync();
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const options = {
      variant: variant.value, track: track.value, tokens: Number(tokenCount.value),
      players: [...players.querySelectorAll("select")].map((s) => s.value),
    };
    if (riders.value) options.riders_per_player = Number(riders.value);
    if (variant.value === "points") options.laps = Number(laps.value);
    createRoom("pistard", options, document.getElementById("error"));
  });
  box.replaceChildren(el("h2", {}, t("pi_setup_title")), form);
}

const box = document.getElementById("pistard-setup");
if (box) {
  draw(box);
  onLanguage(() => draw(box));
}
