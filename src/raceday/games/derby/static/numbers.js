// Dice Derby's card on the Numbers page: the exact odds and board, or n simulated races
// (the server's job; see raceday.games.derby.numbers).
export function form(kit) {
  const { el, t, field, select, numberInput, seedInput, seed, start, limits } = kit;
  const dd = el("form", { id: "form-derby", class: "card" }, el("h2", {}, t("derby")),
    el("div", { class: "row" },
      field("nm-dmode", "nm_mode", select("mode", ["odds", "simulate"], "odds", "nm-dmode", [t("nm_exact"), t("nm_simulate")])),
      field("nm-fall", "fall_rate", select("fall_rate", ["0", "1/20"], "0", "nm-fall", [t("fall_none"), t("fall_some")])),
      field("nm-dn", "nm_races", numberInput("nm-dn", "n", 100000, limits.races)),
      field("nm-dseed", "wv_seed", seedInput("nm-dseed")),
      el("button", { type: "submit", class: "primary" }, t("nm_compute"))));
  dd.addEventListener("submit", (ev) => { ev.preventDefault();
    const body = { game: "derby", mode: dd.mode.value, fall_rate: dd.fall_rate.value };
    start(dd.mode.value === "odds" ? body : { ...body, n: Number(dd.n.value), ...seed(dd) }); });
  return dd;
}
