// The landing page's Dice Derby card: the evening's house rules (races, falls from the
// options model's schema, real dice, loans, the first-out bonus, party odds), then the
// room is created and its big screen opened.
import { el } from "/static/js/common.js";
import { t } from "/static/js/i18n.js";
import { optionField, readOptions } from "/static/js/options-form.js";
import { createRoom, mountCard } from "/static/js/rooms.js";

const FALLS = { "0": "fall_none", "1/20": "fall_some" };
const SWITCHES = ["host_dice", "borrowing", "first_out_bonus", "simple_odds"];

function draw(box, schema, read) {
  const kept = read ? read() : {};
  const race = [optionField(schema, "fall_rate", {
    game: "derby", id: "derby-fall-rate", value: kept.fall_rate, choices: Object.keys(FALLS),
    choiceLabel: (v) => t(FALLS[v]),
  })];
  const races = el("select", { name: "races" }, [4, 5, 6].map((n) =>
    el("option", { value: n, selected: n === (kept.races ?? 5) }, String(n))));
  const form = el("form", { id: "create" },
    el("p", {}, el("span", { class: "pill" }, t("derby"))),
    el("label", {}, el("span", {}, t("races")), races),
    el("span", { id: "derby-race-options" }, race.flatMap((f) => f.nodes)),
    SWITCHES.map((name) => el("label", { class: "check" },
      el("input", { type: "checkbox", name, checked: Boolean(kept[name]) }), " ", el("span", {}, t(name)))),
    el("button", { type: "submit", class: "primary" }, t("create")));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const options = { races: Number(form.races.value), ...readOptions(race) };
    for (const name of SWITCHES) options[name] = form[name].checked;
    createRoom("derby", options, document.getElementById("error"));
  });
  box.replaceChildren(el("h2", { id: "create-title" }, t("create_title")), el("p", {}, t("create_hint")), form);
  return () => {
    const now = { races: Number(form.races.value), ...readOptions(race) };
    for (const name of SWITCHES) now[name] = form[name].checked;
    return now;
  };
}

await mountCard("derby", draw);
