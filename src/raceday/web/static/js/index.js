import { api, tokens } from "./common.js";
import { languageButton, t, translatePage } from "./i18n.js";

translatePage();
document.getElementById("lang").append(languageButton());
const error = document.getElementById("error");

document.getElementById("create").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = ev.target;
  const options = {
    races: Number(f.races.value), fall_rate: f.fall_rate.value,
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
