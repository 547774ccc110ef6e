// KEIRIN's card on the Numbers page: a race's exact odds or n simulated races (the
// server's job; see raceday.games.keirin.numbers).
let length = { minimum: 1, maximum: undefined }; // the options model's bounds

export async function prepare(kit) {
  length = kit.fieldKind(await kit.optionsSchema("keirin"), "length");
}

export function form(kit) {
  const { el, t, field, select, numberInput, seedInput, seed, start, limits } = kit;
  const kr = el("form", { id: "form-keirin", class: "card" }, el("h2", {}, t("nm_keirin")),
    el("div", { class: "row" },
      field("nm-kmode", "nm_mode", select("mode", ["odds", "simulate"], "odds", "nm-kmode", [t("nm_exact"), t("nm_simulate")])),
      field("nm-riders", "nm_riders", select("riders", ["6", "7", "8", "9"], "9", "nm-riders")),
      field("nm-length", "nm_length", numberInput("nm-length", "length", 50,
        Math.min(limits.length ?? Infinity, length.maximum ?? Infinity), length.minimum)),
      field("nm-kn", "nm_races", numberInput("nm-kn", "n", 100000, limits.races)),
      field("nm-kseed", "wv_seed", seedInput("nm-kseed")),
      el("button", { type: "submit", class: "primary" }, t("nm_compute"))));
  kr.addEventListener("submit", (ev) => { ev.preventDefault();
    const body = { game: "keirin", mode: kr.mode.value, riders: Number(kr.riders.value), length: Number(kr.length.value) };
    start(kr.mode.value === "odds" ? body : { ...body, n: Number(kr.n.value), ...seed(kr) }); });
  return kr;
}
