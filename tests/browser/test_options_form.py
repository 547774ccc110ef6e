"""options-form.js builds setup inputs from a game's options schema (GET
/api/games/<game>/options): a select for choices and for a few whole numbers (with the
"model's default" entry where the field may be left out), number inputs with the model's
bounds, checkboxes for switches, word checkboxes joined by '+'; labels from the message
tables ("<game>.option.<field>", the schema's title where there is none); and the object it
submits is what the model reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from raceday.games.hairpin.game import HairpinOptions
from raceday.games.keirin.rules import KeirinOptions
from raceday.games.pistard.options import PistardOptions
from raceday.web.app import create_app
from raceday.web.server import background_server

SCRIPT = """async () => {
  const f = await import("/static/js/options-form.js");
  const pistard = await f.optionsSchema("pistard");
  const keirin = await f.optionsSchema("keirin");
  const hairpin = await f.optionsSchema("hairpin");
  const describe = (x) => ({
    tag: x.input.tagName, type: x.input.type || null,
    label: x.nodes[0].textContent.trim(),
    options: x.input.tagName === "SELECT" ? [...x.input.options].map((o) => o.value) : null,
    min: x.input.min ?? null, max: x.input.max ?? null, step: x.input.step ?? null,
    value: x.input.value ?? null,
  });
  const variant = f.optionField(pistard, "variant", {game: "pistard"});
  const riders = f.optionField(pistard, "riders_per_player", {game: "pistard"});
  const tokens = f.optionField(pistard, "tokens", {game: "pistard"});
  const maxRounds = f.optionField(pistard, "max_rounds", {game: "pistard"});
  const keirinRiders = f.optionField(keirin, "riders", {game: "keirin"});
  const derny = f.optionField(keirin, "derny", {game: "keirin"});
  const words = f.optionField(hairpin, "variant", {game: "hairpin"});
  const shown = [variant, riders, tokens, maxRounds, keirinRiders, derny].map(describe);
  const defaults = f.readOptions([variant, riders, tokens, maxRounds, keirinRiders, derny, words]);
  variant.input.value = "points"; riders.input.value = "2"; tokens.input.value = "0";
  derny.input.value = "12";
  const boxes = [...words.input.querySelectorAll("input")];
  for (const box of boxes) box.checked = ["short", "nobump"].includes(box.name);
  const chosen = f.readOptions([variant, riders, tokens, derny, words]);
  return {shown, defaults, chosen, words: boxes.map((b) => b.name),
          legend: words.input.querySelector("legend").textContent};
}"""


def test_inputs_follow_the_schema_and_submit_what_the_model_reads(chromium: Any,
                                                                 tmp_path: Path) -> None:
    with background_server(create_app(tmp_path / "party.sqlite")) as base:
        page = chromium.new_page()
        page.goto(base)
        got = page.evaluate(SCRIPT)
        page.close()
    variant, riders, tokens, max_rounds, keirin_riders, derny = got["shown"]
    assert variant["tag"] == "SELECT" and variant["label"] == "Race"  # pistard.option.variant
    assert variant["options"][:2] == ["scratch", "points"] and variant["value"] == "scratch"
    assert riders["options"] == ["", "1", "2", "3", "4", "5", "6"] and riders["value"] == ""
    assert (tokens["type"], tokens["min"], tokens["max"], tokens["step"], tokens["value"]) == \
        ("number", "0", "20", "1", "3")
    assert max_rounds["label"] == "Max Rounds"  # no message: the schema's title
    assert (max_rounds["min"], max_rounds["max"], max_rounds["value"]) == ("1", "100000", "")
    assert keirin_riders["options"] == ["6", "7", "8", "9"] and keirin_riders["value"] == "9"
    assert keirin_riders["label"] == "Riders"  # keirin.option.riders
    assert (derny["type"], derny["min"], derny["max"], derny["value"]) == ("number", "3", "18", "")
    assert got["words"] == ["short", "nobump", "derby", "v1", "random"]
    assert got["legend"] == "Variant"
    # untouched: the defaults, fields left to the model left out (hairpin's variant last)
    assert got["defaults"] == {"variant": "standard", "tokens": 3, "riders": 9}
    chosen = got["chosen"]
    assert chosen == {"variant": "short+nobump", "riders_per_player": 2, "tokens": 0,
                      "derny": 12}
    # what the form sends is what the models read
    PistardOptions.parse({"variant": "points", "riders_per_player": 2, "tokens": 0})
    KeirinOptions.parse({"derny": chosen["derny"]})
    assert HairpinOptions.parse({"variant": chosen["variant"]}).variant == "short+nobump"
