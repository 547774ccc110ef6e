// WielerSIM's board for replays (the replay page imports this module by the address the
// server names): a watch room's film as its screens showed it (film.js's filmStage: the
// profile with the groups, the race's line, the groups and the ticker; the result once the
// race is over, in place of the groups and the ticker). A step's frame is what the room
// sent every screen: {film, frame, ticker, standings}; the stage is kept from step to
// step, so the groups glide.
import { filmStage, resultTable } from "./film.js";
import { el } from "/static/js/common.js";

let stage = null;
let key = "";

export function drawFrame(f, element, { ms = 0 } = {}) {
  const film = f.film;
  const wanted = JSON.stringify([film.route_name, film.seed, film.stage, film.campaign, film.route?.distance]);
  if (!stage || wanted !== key || !element.contains(stage.node)) {
    stage = filmStage(film, { groups: 5, ticker: 5 });
    key = wanted;
    element.replaceChildren(stage.node);
    ms = 0; // a fresh stage has nothing to glide from
  }
  stage.show(f.frame, f.ticker, { ms });
  // over: the result takes the place of the groups (all home) and the ticker, so the
  // TV's page still fits its screen
  element.querySelector(".film-result")?.remove();
  const grid = stage.node.querySelector(".film-grid");
  if (grid) grid.style.display = f.standings ? "none" : ""; // CSSOM: allowed by the CSP
  if (f.standings) element.append(el("div", { class: "film-result" }, resultTable(film, f.standings, 8)));
}

export function forget() { stage = null; }
