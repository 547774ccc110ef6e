// Games played over days (the room option "days" of a turn-based game): the switch on a
// game's landing card, and the panel that shows a player (or the host) the link that opens
// their place on any device, today or days later (the key after "#": never sent to the
// server, kept in that device's storage when opened: common.js tokens.fromLink).
import { el, keyLink } from "./common.js";
import { keyed, onLanguage, t } from "./i18n.js";

// The landing card's switch, as an options-form field: {field, nodes, input, read()} (read
// gives true or nothing, so an ordinary room is made as it always was).
export function daysField(id) {
  const input = el("input", { type: "checkbox", name: "days", id, "aria-describedby": `${id}-hint` });
  const nodes = [
    el("label", { class: "check days-switch" }, input, " ", el("span", {}, t("days_mode"))),
    el("p", { class: "note", id: `${id}-hint` }, t("days_mode_hint")),
  ];
  return { field: "days", nodes, input, read: () => (input.checked ? true : undefined) };
}

async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch (_) { /* no clipboard here (plain http, an old browser): select it */ }
  input.focus();
  input.select();
  try { return document.execCommand("copy"); } catch (_) { return false; }
}

// The panel with the link of `role` ("host" or "seat") holding `token` in room `code`
// (`info`: the room as GET /api/rooms/CODE describes it): the link to select or copy, and
// a way to the landing page's "my games". A <details> a keyboard opens and closes.
export function keyLinkPanel(info, code, role, token) {
  const link = keyLink(info.join_url, code, role, token);
  const input = el("input", { type: "text", readonly: true, value: link, class: "key-link", id: "key-link",
    "aria-label": keyed("seat_link_label", { code }), spellcheck: "false", autocomplete: "off" });
  input.addEventListener("focus", () => input.select());
  const said = el("span", { class: "copy-status", role: "status", "aria-live": "polite" });
  const copy = el("button", { type: "button", class: "small copy-link" });
  let done = null;  // the status's key once a copy was tried
  const summary = el("summary");
  const hint = el("p", { class: "note" });
  const mine = el("a", { href: "/#my-games" });
  const draw = () => {
    summary.textContent = t("seat_link_title");
    hint.textContent = t(role === "host" ? "host_link_hint" : "seat_link_hint");
    copy.textContent = t("copy_link");
    mine.textContent = t("my_games_link");
    said.textContent = done ? t(done) : "";
  };
  copy.addEventListener("click", async () => {
    done = (await copyText(input)) ? "copied" : "copy_by_hand";
    draw();
  });
  draw();
  onLanguage(draw);
  return el("details", { class: "card key-link-panel", id: "key-link-panel" }, summary, hint,
    el("div", { class: "key-link-row" }, input, copy), said, el("p", {}, mine));
}
