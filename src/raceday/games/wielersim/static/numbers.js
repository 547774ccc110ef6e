// WielerSIM's card on the Numbers page: a prediction of n races of a shipped route and
// peloton (the server's job; see raceday.games.wielersim.numbers).
let choices = { routes: [], pelotons: [] };

export async function prepare(kit) {
  choices = await kit.api("/api/wielersim/choices");
}

export function form(kit) {
  const { el, t, field, select, numberInput, seedInput, seed, start, limits } = kit;
  const words = (kind, values) => values.map((v) => { const key = `wv_${kind}_${v}`; return t(key) === key ? v : t(key); });
  const wv = el("form", { id: "form-wielersim", class: "card" }, el("h2", {}, t("nm_wielersim")),
    el("p", { class: "note" }, t("nm_wielersim_hint")),
    el("div", { class: "row" },
      field("nm-route", "wv_route", select("route", choices.routes, "flanders", "nm-route", words("route", choices.routes))),
      field("nm-peloton", "wv_peloton", select("peloton", choices.pelotons, "classics", "nm-peloton", words("peloton", choices.pelotons))),
      field("nm-wn", "nm_races", numberInput("nm-wn", "n", 1000, limits.races)),
      field("nm-wseed", "wv_seed", seedInput("nm-wseed")),
      el("button", { type: "submit", class: "primary" }, t("nm_predict"))));
  wv.addEventListener("submit", (ev) => { ev.preventDefault();
    start({ game: "wielersim", route: wv.route.value, peloton: wv.peloton.value, n: Number(wv.n.value), ...seed(wv) }); });
  return wv;
}
