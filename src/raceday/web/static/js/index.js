import { api, el } from "./common.js";
import { languageButton, t, translatePage } from "./i18n.js";
import { myGames } from "./mygames.js";

translatePage();
document.getElementById("lang").append(languageButton());
const error = document.getElementById("error");
myGames(error);  // the rooms this device holds a key of, first on the page

// Each game's card (hosting a party of that game) is its package's static/setup.js, for
// every game the server finds (GET /api/games): the page lists no game of its own. Loaded
// beside the rest of the page.
async function gameCards() {
  const games = await api("/api/games");
  const offered = games.filter((g) => g.setup);
  const more = document.getElementById("more-title").closest("nav");
  document.getElementById("more-links").prepend(...games.filter((g) => g.page).map((g) =>
    el("li", {}, el("a", { href: `/${g.game}` }, g.title))));
  for (const g of offered) more.before(el("section", { class: "card", id: `${g.game}-setup` }));
  for (const g of offered) await import(`/games/${g.game}/static/setup.js`);
}
gameCards().catch((e) => { error.textContent = t("error", { message: e.message }); });

function code() {
  return document.querySelector("#join [name=code]").value.trim().toUpperCase();
}
document.getElementById("join").addEventListener("submit", (ev) => {
  ev.preventDefault();
  if (code()) location.href = `/play/${encodeURIComponent(code())}`;
});
document.getElementById("watch").addEventListener("click", () => {
  if (code()) location.href = `/watch/${encodeURIComponent(code())}`;
});
