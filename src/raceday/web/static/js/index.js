import { api, el, tokens } from "./common.js";
import { languageButton, onLanguage, t, translatePage } from "./i18n.js";
import { optionField, optionsSchema, readOptions } from "./options-form.js";

translatePage();
document.getElementById("lang").append(languageButton());
const error = document.getElementById("error");

// Each game's card is its package's static/setup.js, for every game the server finds
// (GET /api/games): the page lists no game of its own. Loaded beside the rest of the page.
async function gameCards() {
  const offered = (await api("/api/games")).filter((g) => g.setup);
  const more = document.getElementById("more-title").closest("nav");
  for (const g of offered) more.before(el("section", { class: "card", id: `${g.game}-setup` }));
  for (const g of offered) await import(`/games/${g.game}/static/setup.js`);
}
gameCards().catch((e) => { error.textContent = t("error", { message: e.message }); });

// The race's options of the Dice Derby card, from the options model's schema.
const FALLS = { "0": "fall_none", "1/20": "fall_some" };
const derbySchema = await optionsSchema("derby");
let race = [];
function drawRaceOptions() {
  const kept = race.length ? readOptions(race) : {};
  race = [optionField(derbySchema, "fall_rate", {
    game: "derby", id: "derby-fall-rate", value: kept.fall_rate, choices: Object.keys(FALLS),
    choiceLabel: (v) => t(FALLS[v]),
  })];
  document.getElementById("derby-race-options").replaceChildren(...race.flatMap((f) => f.nodes));
}
drawRaceOptions();
onLanguage(drawRaceOptions);

document.getElementById("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = ev.target;
  const options = {
    races: Number(f.races.value), ...readOptions(race),
    host_dice: f.host_dice.checked, borrowing: f.borrowing.checked,
    first_out_bonus: f.first_out_bonus.checked, simple_odds: f.simple_odds.checked,
  };
  try {
    const room = await api("/api/rooms", { game: "derby", options });
    tokens.setHost(room.code, room.host_token);
    location.href = `/host/${room.code}`;
  } catch (e) {
    error.textContent = t("error", { message: e.message });
  }
});

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
