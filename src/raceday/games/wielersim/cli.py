"""`raceday wielersim ...`: watch a race, predict one, ride a stage race."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Annotated, Any, TypeVar

import numpy as np
import typer
from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from raceday.analysis.stats import wilson_interval
from raceday.core.digits import ascii_int
from raceday.core.errors import OptionsError, RacedayError
from raceday.core.events import Event, Message
from raceday.core.protocol import State
from raceday.core.runner import MAX_WORKERS
from raceday.games.wielersim.campaign import (
    MAX_TOUR_RACES,
    Campaign,
    TourPrediction,
    campaign_from_text,
    load_campaign,
    new_campaign,
    open_store,
    predict_tour,
    read_store,
    save_new,
)
from raceday.games.wielersim.commentary import Commentator, stage_name
from raceday.games.wielersim.game import GAME, WielersimOptions
from raceday.games.wielersim.model import CLIMBER, COBBLES, RIDER_TYPES, SPRINTER, UPHILL
from raceday.games.wielersim.peloton import Peloton, strip_ratings
from raceday.games.wielersim.predict import ENGINES as PREDICT_ENGINES
from raceday.games.wielersim.predict import MAX_RACES, Prediction, predict
from raceday.games.wielersim.render import (
    RoadSnapshot,
    draw_road,
    group_summary,
    result_table,
    rider_type,
    road_board,
    road_squares,
    say,
    scoring_lines,
    stage_result_table,
    standings_tables,
    word,
    words_table,
)
from raceday.games.wielersim.route import MAX_DISTANCE, MIN_DISTANCE
from raceday.games.wielersim.rules import WielersimState, peloton_spec, rider_message, route_spec
from raceday.games.wielersim.stage import (
    Standings,
    prologue_win_chances,
    resolve_tour,
    stage_count,
)
from raceday.present import render
from raceday.store.sessions import writable_store
from raceday.terminal import common
from raceday.terminal.groups import option_group
from raceday.terminal.options import GivenOptions, field_option, game_options
from raceday.terminal.surface import UNDO, Choice, Prompt, Quit, Surface, refusal_line
from raceday.terminal.tui import run_command

HELP = "WielerSIM (Ludo Nauws): watch and predict one-day races and stage races."

app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False)

# the words of the options model (watch takes its arguments from it; predict and tour too)
ROUTE_HELP = WielersimOptions.model_fields["route"].description
PELOTON_HELP = WielersimOptions.model_fields["peloton"].description
MIN_WIDTH, MAX_WIDTH = 10, 120
MAX_TOP = 1_000

RouteArg = Annotated[str, typer.Argument(help=ROUTE_HELP, metavar="ROUTE", show_default=False)]
PelotonArg = Annotated[str, typer.Argument(help=PELOTON_HELP, metavar="PELOTON",
                                           show_default=False)]
WorkersOpt = Annotated[int | None, typer.Option(
    "--workers", metavar="N", callback=common.in_range(1, MAX_WORKERS),
    help=f"Worker processes, 1 to {MAX_WORKERS}: 1 runs in this process; more start a "
    "local Dask cluster of that size (default: decided from the job's size: in this "
    "process, or one worker per core when a cluster clearly pays for its start-up).")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", metavar="tcp://HOST:PORT",
    help="Run on an existing Dask cluster (its scheduler's address) instead of a local one.")]
PlotOpt = Annotated[str | None, typer.Option(
    "--plot", metavar="PATH", help="Write a chart to this file (.png or .svg).")]
AllTopOpt = Annotated[int | None, typer.Option(
    "--top", metavar="N", callback=common.in_range(1, MAX_TOP),
    help=f"Riders shown, 1 to {MAX_TOP:,} (default: every rider).")]
TopOpt = Annotated[int, typer.Option(
    "--top", metavar="N", callback=common.in_range(1, MAX_TOP),
    help=f"Riders shown per table, 1 to {MAX_TOP:,}.")]
WidthOpt = Annotated[int | None, typer.Option(
    "--width", metavar="N", callback=common.in_range(MIN_WIDTH, MAX_WIDTH, "squares"),
    help=f"Squares of road drawn around the front, {MIN_WIDTH} to {MAX_WIDTH} "
    "(default: fit the screen).")]
RoadOpt = Annotated[bool, typer.Option("--road/--no-road", help="Draw the road every turn.")]
CommandT = TypeVar("CommandT", bound=Callable[..., Any])


def runs_option(most: int, what: str) -> Any:
    """The ``-n`` option of a prediction: how many ``what`` to simulate, 1 to ``most``."""
    return typer.Option("--races", "-n", metavar="N", callback=common.in_range(1, most, what),
                        help=f"Number of {what} to simulate, 1 to {most:,}.")


@dataclass(frozen=True)
class Simulation:
    """What every prediction command takes besides its race: the seed, JSON instead of
    tables, a chart file, and where the simulations run."""

    seed: int | None = None
    json_out: bool = False
    plot_file: str | None = None
    workers: int | None = None
    scheduler: str | None = None


GIVEN_BY_OPTIONS = Simulation()  # the default of ``sim``: the options fill it in
SIMULATION_OPTIONS = [
    inspect.Parameter(field.name, inspect.Parameter.KEYWORD_ONLY, default=field.default,
                      annotation=annotation)
    for field, annotation in zip(fields(Simulation), (common.NumbersSeedOpt, common.JsonOpt,
                                                      PlotOpt, WorkersOpt, SchedulerOpt),
                                                     strict=True)]


def simulation_options(command: CommandT) -> CommandT:
    """Give a Typer command the options of :class:`Simulation` in place of its parameter
    ``sim``, which receives them as one :class:`Simulation`. Put it below ``@app.command``."""
    signature = inspect.signature(command, eval_str=True)
    before = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
              for p in signature.parameters.values()]
    at = next(i for i, p in enumerate(before) if p.name == "sim")
    parameters = before[:at] + SIMULATION_OPTIONS + before[at + 1:]

    @functools.wraps(command)
    def run(**kwargs: Any) -> Any:
        kwargs["sim"] = Simulation(**{p.name: kwargs.pop(p.name) for p in SIMULATION_OPTIONS})
        return command(**kwargs)

    run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in parameters}
    return run  # type: ignore[return-value]


def _road_squares(width: int | None, surface: Surface) -> int:
    """Squares of road a line-mode road shows: ``--width``, else as many as fit the screen
    (at most 60)."""
    if width is not None:
        return width
    console = getattr(surface, "console", common.console)
    return min(60, road_squares(console.width))


def watch_race(surface: Surface, state: WielersimState, rng: np.random.Generator, *,
               delay: float, width: int | None = None, show_road: bool = True) -> list[Event]:
    """Play ``state`` to the end on ``surface``: after every turn the road (with its legend)
    as the board, the groups, and the commentary in the log."""
    lang = surface.lang
    commentator = Commentator()
    pending: list[Event] = []
    log: list[Event] = []
    turn = state.turn
    while not state.is_terminal():
        draw = state.sample_chance(rng)
        events = state.apply_action(draw.outcome, draw.detail)
        pending.extend(events)
        log.extend(events)
        if state.turn != turn or state.is_terminal():
            if turn == 0:
                surface.say(say("watch.flying_start", lang, n=state.n,
                                to_go=state.route.distance))
                for line in commentator.comment(state, pending, lang):
                    surface.say(line)
            else:
                _show_turn(surface, state, turn, pending, commentator, width, show_road)
            pending = []
            turn = state.turn
            surface.pause(delay)
    return log


def _turn_heading(state: WielersimState, turn: int, lang: str) -> str:
    road = state.on_road()
    front = max((state.pos[r] for r in road), default=state.route.distance)
    to_go = max(0, state.route.distance - front)
    where = Message("turn.to_go", {"n": to_go})
    if state.results:
        where = Message("turn.finished_next" if road else "turn.finished",
                        {"finished": len(state.results), "n": to_go})
    return render(Message("turn.heading", {
        "turn": turn, "where": where.to_json(),
        "weather": word("weather.rain" if state.rain else "weather.dry")}), lang, GAME.name)


def _show_turn(surface: Surface, state: WielersimState, turn: int, events: list[Event],
               commentator: Commentator, width: int | None, show_road: bool) -> None:
    lang = surface.lang
    heading = _turn_heading(state, turn, lang)
    road = state.on_road()
    if surface.full_screen:
        surface.status(say("watch.status", lang, heading=heading))
        if show_road and road:
            surface.board(road_board(RoadSnapshot.of(state, lang), lang, most=width))
        surface.say(Text(heading, style="bold"))
        for line in commentator.comment(state, events, lang):
            surface.say(f"  {line}")
        return
    surface.say(Rule(heading))
    if show_road and road:
        surface.board(draw_road(state, _road_squares(width, surface), lang))
        for line in group_summary(state, lang=lang):
            surface.say(Text(f"  {line}", style="dim"))
    for line in commentator.comment(state, events, lang):
        surface.say(f"  {line}")


@app.command()
@game_options(WielersimOptions)
@option_group(common.Face)
def watch(
    race: GivenOptions[WielersimOptions],
    seed: common.SeedOpt = None,
    delay: common.DelayOpt = None,
    width: WidthOpt = None,
    road: RoadOpt = True,
    face: common.Face = common.FACE,
) -> None:
    """Watch one race turn by turn, with commentary and the final result."""
    used = common.fresh_seed(seed)
    state = GAME.new_state(race.parse())
    language = face.language()
    main = race_main(state, used, delay=common.default_delay(delay), width=width, road=road)
    run_command(main, title=f"WielerSIM: {state.route.name}", lang=language,
                plain=face.plain)


def race_main(state: WielersimState, seed: int, *, delay: float, width: int | None = None,
              road: bool = True) -> Callable[[Surface], None]:
    """The loop of ``watch``: the race of ``state`` ridden with ``seed`` on a surface, then
    its result and who scored."""
    def main(surface: Surface) -> None:
        lang = surface.lang
        surface.say(say("watch.heading", lang, route=f"[bold]{state.route.name}[/]",
                        distance=state.route.distance,
                        finish=word(f"surface.{state.route.finish}"), n=state.n, seed=seed))
        watch_race(surface, state, np.random.default_rng(seed), delay=delay, width=width,
                   show_road=road)
        table = result_table(state, limit=None, lang=lang)
        scored = scoring_lines(state, lang)
        if surface.full_screen:  # the result takes the road's place; the log is narrow
            if state.results:
                winner = state.rider_message(state.results[0][0])
                surface.status(say("watch.over", lang, winner=winner))
            surface.board(Group(table, *(Text(line) for line in scored)))
            for line in scored:
                surface.say(line)
            return
        surface.say(table)
        for line in scored:
            surface.say(line)

    return main


def _seed_line(seed: int, lang: str = "en") -> str:
    return say("seed_line", lang, seed=seed)


def _plot_written(plot: Path | None, lang: str = "en") -> None:
    if plot is not None:
        common.console.print(say("plot_written", lang, path=plot))


def _prediction_table(pred: Prediction, top: int | None, lang: str = "en") -> Table:
    table = words_table(say("table.prediction", lang, n=pred.n),
                        ["rider", ("bib", "right"), "type", ("win", "right"),
                         ("podium", "right"), ("top10", "right")], lang)
    for i in pred.order()[:top]:
        table.add_row(pred.names[i], str(pred.numbers[i]), say(f"wv_type_{pred.types[i]}", lang),
                      _chance(pred, pred.wins[i]), _chance(pred, pred.podiums[i]),
                      _chance(pred, pred.top10[i]))
    return table


def _type_table(pred: Prediction, lang: str = "en") -> Table:
    table = words_table(say("table.by_type", lang),
                        ["type", ("win", "right"), ("podium_places", "right")], lang)
    for t, (wins, podiums) in sorted(pred.by_type().items(), key=lambda kv: -kv[1][0]):
        lo, hi = pred.interval(wins)
        table.add_row(say(f"wv_type_{t}", lang), interval_cell(wins, pred.n, lo, hi),
                      say("cell.per_race", lang, n=f"{podiums / pred.n:.2f}"))
    return table


def _plot_file(plot_file: str | None) -> Path | None:
    """A chart path ending in .png or .svg (the format follows the suffix)."""
    if plot_file is None:
        return None
    plot = Path(plot_file)
    if plot.suffix.lower() not in (".png", ".svg"):
        raise OptionsError("--plot needs a file name ending in .png or .svg")
    if plot.is_dir():
        raise OptionsError(f"--plot: {plot} is a directory")
    return common.check_out_folder(plot, "--plot")  # before the races, not after them


def _compare_target(text: str) -> tuple[str, str]:
    """``route=NAME`` or ``peloton=NAME`` (a shipped name or a file)."""
    what, sep, value = text.partition("=")
    what = what.strip().lower()
    if not sep or what not in ("route", "peloton") or not value.strip():
        raise OptionsError("--compare takes route=ROUTE or peloton=PELOTON (a shipped name "
                           f"or a file), got {text!r}")
    return what, value.strip()


def _compare_table(preds: list[Prediction], labels: list[str], top: int | None,
                   lang: str = "en") -> Table:
    """Two predictions, one row per race under each rider (so that the table keeps to 80
    columns: every cell is a chance and its interval, which wraps under it rather than being
    cut); the races are named A and B in the title when their names are long."""
    short = all(cell_len(label) <= 12 for label in labels)
    names = labels if short else ["A", "B"][:len(labels)]
    title = (say("table.compare", lang, first=labels[0], second=labels[1], n=f"{preds[0].n:,}")
             if short else
             say("table.compare_ab", lang, first=labels[0], second=labels[1],
                 n=f"{preds[0].n:,}"))
    table = words_table(title, ["rider", ("bib", "right"), "race", ("win", "right"),
                                ("podium", "right"), ("top10", "right")], lang)
    keys: list[tuple[int, str]] = []
    for pred in preds:
        for i in pred.order():
            if (pred.numbers[i], pred.names[i]) not in keys:
                keys.append((pred.numbers[i], pred.names[i]))
    for number, name in keys[:top]:
        for k, (pred, label) in enumerate(zip(preds, names, strict=True)):
            where = {(pred.numbers[i], pred.names[i]): i for i in range(len(pred.names))}
            at = where.get((number, name))
            # the interval under the chance in every cell, so that the rows line up
            cells = (["-", "-", "-"] if at is None else
                     [_chance(pred, c).replace(" ", "\n", 1)
                      for c in (pred.wins[at], pred.podiums[at], pred.top10[at])])
            table.add_row(name if k == 0 else "", str(number) if k == 0 else "", label,
                          *cells, end_section=k == len(preds) - 1)
    return table


def interval_cell(count: int, n: int, lo: float, hi: float) -> str:
    """A chance and its 95% interval, short enough for narrow tables: '7.3% [4.9-10.9]'
    (the interval in percent too; a narrow column puts it under the chance)."""
    return f"{count / n:.1%} [{lo * 100:.1f}-{hi * 100:.1f}]"


def _chance(pred: Prediction, count: Any) -> str:
    lo, hi = pred.interval(int(count))
    return interval_cell(int(count), pred.n, lo, hi)


def _prediction_json(pred: Prediction) -> dict[str, Any]:
    data = pred.to_json()
    return {"win": data["win"], "podium": data["podium"], "top10": data["top10"],
            "intervals": data["intervals"], "win_by_type": data["win_by_type"]}


@app.command("predict")
@simulation_options
def predict_command(
    route: RouteArg,
    peloton: PelotonArg,
    n: Annotated[int, runs_option(MAX_RACES, "races")] = 2000,
    sim: Simulation = GIVEN_BY_OPTIONS,
    top: AllTopOpt = None,
    compare: Annotated[str | None, typer.Option(
        "--compare", metavar="KIND=NAME",
        help="Predict a second race side by side: route=ROUTE (the same "
        "riders on another route) or peloton=PELOTON (another start list on this route).",
    )] = None,
    ratings: bool = field_option(WielersimOptions, "ratings"),
    engine: Annotated[str, typer.Option(
        "--engine", metavar="fast|reference",
        help="fast: the compiled engine; reference: the rules engine in Python "
        "(about thirty times slower). Both ride the same races: same seed, same numbers.",
    )] = "fast",
    lang: common.LangOpt = None,
) -> None:
    """Simulate many races: every rider's chance to win, reach the podium and the top 10."""
    language = common.resolve_lang(lang)
    if engine not in PREDICT_ENGINES:
        raise OptionsError(f"--engine must be one of {', '.join(PREDICT_ENGINES)}, got "
                           f"{engine!r}")
    plot = _plot_file(sim.plot_file)
    specs = [(route_spec(route), _peloton(peloton, ratings))]
    labels = [f"{specs[0][0]['name']} / {peloton}"]
    if compare is not None:
        what, value = _compare_target(compare)
        if what == "route":
            specs.append((route_spec(value), specs[0][1]))
            labels = [specs[0][0]["name"], specs[1][0]["name"]]
        else:
            specs.append((specs[0][0], _peloton(value, ratings)))
            labels = [peloton, value]
    used = common.fresh_seed(sim.seed)
    preds: list[Prediction] = []
    with common.on_interrupt(say("interrupt.prediction")), \
            common.progress_bar(say("progress.races"), n * len(specs),
                                enabled=not sim.json_out and n >= 500) as bar:
        task = bar.task_ids[0]
        for k, (r_spec, p_spec) in enumerate(specs):
            before = k * n

            def advance(done: int, _total: int, before: int = before) -> None:
                bar.update(task, completed=before + done)

            preds.append(predict(r_spec, p_spec, n, seed=used, workers=sim.workers,
                                 scheduler=sim.scheduler, progress=advance, engine=engine))
    if plot is not None:
        from raceday.games.wielersim.plots import plot_compare, plot_prediction

        if len(preds) == 1:
            plot_prediction(specs[0][0], preds[0], plot)
        else:
            plot_compare(preds, labels, plot)
    if sim.json_out:
        out: dict[str, Any] = {"game": "wielersim", "n": n, "seed": used}
        if len(preds) == 1:
            out.update(_prediction_json(preds[0]))
        else:
            out["compare"] = [{"label": label, **_prediction_json(pred)}
                              for label, pred in zip(labels, preds, strict=True)]
        common.print_json(out)
        return
    if len(preds) == 1:
        common.console.print(_prediction_table(preds[0], top, language))
        common.console.print(_type_table(preds[0], language))
    else:
        common.console.print(_compare_table(preds, labels, top, language))
    common.console.print(_seed_line(used, language))
    _plot_written(plot, language)


def _peloton(value: str, ratings: bool) -> dict[str, Any]:
    spec = peloton_spec(value)
    return spec if ratings else strip_ratings(spec)


# --- routes from real tracks ----------------------------------------------------------------
route_app = typer.Typer(help="Routes: build one from a real track (GPX or CSV).",
                        no_args_is_help=True, add_completion=False)
app.add_typer(route_app, name="route")
ROAD_MARKS = {"flat": "-", "cobbles": "#"}


def profile_strip(route: dict[str, Any], width: int = 100) -> str:
    """The route as one line of text: ``-`` flat, ``#`` cobbles, the steepness (1-6) of an
    uphill square, ``|`` an intermediate sprint; squares merged to fit ``width``."""
    from raceday.games.wielersim.route import compile_route

    compiled = compile_route(route)
    marks = []
    for p in range(compiled.distance):
        road = compiled.road[p]
        marks.append(str(compiled.steepness[p]) if road == UPHILL else
                     ("#" if road == COBBLES else "-"))
    for line in compiled.sprints:
        if 0 <= line < len(marks):
            marks[line] = "|"
    step = max(1, -(-len(marks) // width))
    return "".join(max(marks[i:i + step], key=_mark_weight) for i in range(0, len(marks), step))


def _mark_weight(mark: str) -> float:
    """Which mark a merged stretch shows: a sprint, else the steepest climb, else cobbles."""
    steepness = ascii_int(mark, max_digits=1)
    return 10 if mark == "|" else (steepness if steepness is not None else
                                   (0.5 if mark == "#" else 0))


@route_app.command("import")
def import_route(
    track: Annotated[str, typer.Argument(help="A GPX track (.gpx) or a CSV of distance_km, "
                                         "elevation_m[, surface, sprint, name] (.csv).",
                                         metavar="TRACK", show_default=False)],
    name: Annotated[str | None, typer.Option(
        "--name", metavar="NAME", help="The route's name (default: the file's name).")] = None,
    squares: Annotated[int | None, typer.Option(
        "--squares", metavar="N", callback=common.in_range(MIN_DISTANCE, MAX_DISTANCE, "squares"),
        help=f"Length in squares, {MIN_DISTANCE} to {MAX_DISTANCE} (default: one per km).",
    )] = None,
    output: Annotated[str | None, typer.Option(
        "--out", "-o", metavar="PATH", help="Write the route file (TOML) here.")] = None,
    plot_file: PlotOpt = None,
    json_out: common.JsonOpt = False,
    lang: common.LangOpt = None,
) -> None:
    """Build a route from a real track: gradients become flat road, climbs and cobbles."""
    from raceday.games.wielersim.importer import build_route, read_track, route_toml

    plot = _plot_file(plot_file)
    out = None if output is None else Path(output)
    if out is not None and (out.suffix.lower() != ".toml" or out.is_dir()):
        raise OptionsError("--out needs a file name ending in .toml")
    if out is not None:
        common.check_out_folder(out, "--out")  # before the track is read, not after the import
    if name is not None and not name.strip():
        raise OptionsError("--name must not be empty")
    points = read_track(track)
    route = build_route(points, (name or Path(track).stem).strip(), squares)
    if out is not None:
        try:
            out.write_text(route_toml(route), encoding="utf-8")
        except OSError as exc:
            raise OptionsError(f"cannot write the route to {out}: {exc.strerror}") from None
    checked = route_spec(route)
    if plot is not None:
        from raceday.games.wielersim.plots import plot_route

        plot_route(checked, plot)
    if json_out:
        common.print_json({"game": "wielersim", "route": checked})
        return
    language = common.resolve_lang(lang)
    _show_import(checked, route, points[-1].km - points[0].km, language)
    if out is not None:
        common.console.print(say("import.written", language, path=out))
    _plot_written(plot, language)


def _show_import(checked: dict[str, Any], route: dict[str, Any], km: float,
                 lang: str = "en") -> None:
    """The imported route: its summary line, its sections and its profile strip."""
    common.console.print(say("import.heading", lang, name=f"[bold]{checked['name']}[/]",
                             km=f"{km:.1f}", squares=checked["distance"],
                             finish=word(f"surface.{checked['finish']}"),
                             hierarchy=[rider_type(t) for t in checked["hierarchy"]]))
    common.console.print(_sections_table(checked["distance"], route["sections"], lang))
    common.console.print(say("import.profile", lang, strip=profile_strip(checked)),
                         soft_wrap=True, markup=False)
    common.console.print(say("import.legend", lang), markup=False)


def _sections_table(distance: int, sections: list[dict[str, Any]], lang: str = "en") -> Table:
    """The route's sections, start to finish: length, squares to go, road, colour, climb."""
    table = words_table(say("table.sections", lang), ["section", ("squares", "right"),
                        ("to_go", "right"), "road", "colour", "climb"], lang)
    to_go = distance
    for sec in sections:
        to_go -= sec["length"]
        road = sec.get("road", "flat")
        climb = (say("cell.climb", lang, category=sec.get("category", "-"),
                     steepness=sec["max_steepness"]) if road == "uphill" else "")
        table.add_row(sec["name"], str(sec["length"]), str(to_go), say(f"surface.{road}", lang),
                      say(f"wv_type_{sec['colour']}", lang), climb)
    return table


# --- stage races ----------------------------------------------------------------------------
TOUR_HELP = "Stage-race file (TOML) or the shipped one: ronde-van-belgie."
CHOICES = {"c": "continue", "continue": "continue", "w": "watch", "watch": "watch",
           "s": "stop", "stop": "stop"}

def _show_stage(surface: Surface, campaign: Campaign) -> None:
    lang = surface.lang
    record = campaign.records[-1]
    peloton = campaign.peloton
    name = stage_name(campaign.tour, len(campaign.records) - 1, lang)
    standings = campaign.standings()
    if surface.full_screen:
        surface.board(_standings_board(peloton, record, standings, name, lang))
        surface.say(_stage_line(peloton, record, standings, name, lang))
        return
    surface.say(stage_result_table(peloton, record, lang=lang, name=name))
    for table in standings_tables(peloton, standings, lang=lang):
        surface.say(table)


def _stage_line(peloton: Peloton, record: dict[str, Any], standings: Standings, name: str,
                lang: str) -> str:
    """One line for the log of a full-screen stage race: who won the stage, who leads."""
    def rider(number: int) -> dict[str, Any]:
        return rider_message(peloton, peloton.index_of(number))

    winner = record["results"][0][0] if record["results"] else None
    leader = standings.gc[0][0] if standings.gc else None
    return say("tour.stage_line", lang, stage=name,
               winner=rider(winner) if winner is not None else "-",
               leader=rider(leader) if leader is not None else "-")


def _standings_board(peloton: Peloton, record: dict[str, Any], standings: Standings,
                     name: str, lang: str) -> Callable[[int, int], RenderableType]:
    """A full-screen stage race's board between stages: the stage's result and the GC, as
    many riders each as the height allows (3 to 10), then points, mountains and teams."""
    def board(width: int, height: int) -> RenderableType:
        rows = max(3, min(10, (height - 6) // 2))
        stage = stage_result_table(peloton, record, rows, lang=lang, name=name)
        gc, *others = standings_tables(peloton, standings, rows, lang=lang)
        return Group(stage, gc, Columns(others, padding=(0, 2)))

    return board


def _ask(surface: Surface, next_name: str, help_text: str) -> str:
    lang = surface.lang
    prompt = Prompt(
        f"{say('tour.ask', lang, stage=next_name)} (c): ",
        choices=[Choice("c", say("choice.continue", lang)), Choice("w", say("choice.watch", lang)),
                 Choice("s", say("choice.stop", lang))],
        completions=["continue", "watch", "stop"], help=help_text)
    while True:
        answer = surface.ask(prompt).strip().lower()
        if answer == UNDO:
            surface.say(say("tour.undo", lang))
            continue
        if not answer:
            return "continue"
        if answer in CHOICES:
            return CHOICES[answer]
        surface.say(refusal_line(say("tour.ask_again", lang, answer=repr(answer)), lang))


def _list_tours(db: Path | None, lang: str) -> None:
    store = read_store(db)
    names = store.names(GAME.name)
    if not names:
        common.console.print(say("tour.list_none", lang))
        return
    common.console.print(say("tour.list_heading", lang))
    for name in names:
        try:
            campaign = load_campaign(store, name)
        except RacedayError:
            continue  # not a stage race this version reads: resuming it would say why
        common.console.print("  " + say("tour.list_line", lang, name=name,
                                        tour=campaign.tour["name"], done=campaign.next_stage,
                                        total=stage_count(campaign.tour)),
                             markup=False, highlight=False)


@app.command()
@option_group(common.Face)
def tour(
    tour_file: Annotated[str | None, typer.Argument(help=TOUR_HELP, metavar="TOUR",
                                                    show_default=False)] = None,
    peloton: Annotated[str | None, typer.Argument(help=PELOTON_HELP, metavar="PELOTON",
                                                  show_default=False)] = None,
    seed: common.SeedOpt = None,
    save: Annotated[str | None, typer.Option(
        "--save", metavar="NAME", callback=common.check_session_name_option,
        help="Save the new stage race under NAME (default: the race's name and seed).")
    ] = None,
    resume: Annotated[str | None, typer.Option(
        "--resume", metavar="NAME", callback=common.check_session_reference,
        help="Go on with the saved stage race NAME from its last ridden stage (see --list), "
        "or with the stage race of a record file NAME (saved under its name, or --save).")
    ] = None,
    list_saved: Annotated[bool, typer.Option(
        "--list", help="List the saved stage races and stop.")] = False,
    db: common.DbOpt = None,
    delay: common.DelayOpt = None,
    auto: Annotated[bool, typer.Option(
        "--auto", help="Ride every stage without asking.")] = False,
    face: common.Face = common.FACE,
) -> None:
    """Ride a stage race stage by stage, saved after every stage; resume it any time."""
    # every check first: nothing is written to the store until all have passed
    language = face.language()
    if list_saved:
        _list_tours(db, language)
        return
    pause_s = common.default_delay(delay)
    if resume is not None:
        from_file = Path(resume).is_file()
        if tour_file is not None or peloton is not None or seed is not None or (
                save and not from_file):
            raise OptionsError("--resume takes no TOUR, PELOTON, --seed or --save: they are "
                               "saved with the race")
        if from_file:
            campaign = _campaign_from_file(resume, save, db)
        else:
            campaign = load_campaign(writable_store(db), resume)  # read-only: refused now
        opening = say("tour.resuming", language, name=repr(campaign.name),
                      done=campaign.next_stage, total=stage_count(campaign.tour))
    else:
        if tour_file is None or peloton is None:
            raise OptionsError("give a TOUR file and a PELOTON file (or --resume NAME, or "
                               "--list)")
        if save is not None and not save.strip():
            raise OptionsError("--save must not be empty")
        tour_spec, p_spec = resolve_tour(tour_file), peloton_spec(peloton)
        used = common.fresh_seed(seed)
        store = open_store(db)
        name = save or f"{tour_spec['name']} {used}"
        common.refuse_taken_save(store, GAME.name, name, "WielerSIM",
                                 common.resume_command("wielersim", "tour", name, db))
        campaign = new_campaign(store, name, tour_spec, p_spec, used)
        opening = say("tour.started", language, tour=f"[bold]{tour_spec['name']}[/]",
                      n=stage_count(tour_spec), name=repr(campaign.name), seed=used)
    resume_command = common.resume_command("wielersim", "tour", campaign.name, db)

    main = tour_main(campaign, opening, auto=auto, delay=pause_s, resume_command=resume_command)

    try:
        run_command(main, title=f"WielerSIM: {campaign.tour['name']}", lang=language,
                       plain=face.plain)
    except KeyboardInterrupt:
        kept = say("tour.kept", language, done=campaign.next_stage,
                   total=stage_count(campaign.tour), name=repr(campaign.name))
        with common.on_interrupt(kept, resume_command):
            raise


def _campaign_from_file(path: str, save: str | None, db: Path | None) -> Campaign:
    """The stage race of the record file ``path``, every stage checked through the rules
    (the first bad line named), saved as a new session (``--save`` NAME, else its name)."""
    from raceday.core.files import read_user_text
    from raceday.core.record import RecordError

    text = read_user_text(path, kind="record")
    try:
        campaign = campaign_from_text(text, save or None)
    except RecordError as exc:
        raise RecordError(f"{exc.problem} (in {path})", exc.line) from None
    if not campaign.name.strip():
        raise OptionsError(f"{path} names no stage race: give it a name with --save NAME")
    store = open_store(db)
    common.refuse_taken_save(store, GAME.name, campaign.name, "WielerSIM",
                             common.resume_command("wielersim", "tour", campaign.name, db))
    save_new(campaign, store)
    return campaign


def tour_main(campaign: Campaign, opening: str, *, auto: bool, delay: float,
              resume_command: str) -> Callable[[Surface], None]:
    """The loop of ``tour``: say ``opening``, then ride the stage race on a surface; quit
    keeps every ridden stage and says how to resume."""
    def main(surface: Surface) -> None:
        surface.say(opening)
        try:
            _ride_campaign(surface, campaign, auto=auto, delay=delay,
                           resume_command=resume_command)
        except Quit:
            surface.say(say("tour.quit", surface.lang, done=campaign.next_stage,
                            total=stage_count(campaign.tour)))
            _say_command(surface, common.saved_resume_line(campaign.name, resume_command,
                                                           surface.lang))

    return main


def _say_command(surface: Surface, text: str) -> None:
    """A line holding a command to copy: in line mode never broken by the console (a
    terminal wraps it itself), so it can be copied whole."""
    console = getattr(surface, "console", None)
    if isinstance(console, Console) and not surface.full_screen:
        console.print(text, soft_wrap=True, markup=False, highlight=False)
    else:
        surface.say(text)


def prologue_odds(campaign: Campaign, lang: str = "en") -> str:
    """The prologue's exact odds to win, one group of riders with the same chance at a time
    (a rider's chance depends only on his type): 'each sprinter 6.1%; each leader, ...'."""
    favoured = CLIMBER if campaign.tour["prologue_type"] == "climber" else SPRINTER
    chances = prologue_win_chances(campaign.peloton, favoured)
    kinds: dict[Any, list[str]] = {}
    for rider in campaign.peloton.riders:
        kinds.setdefault(chances[rider.number], [])
        if rider.type_name not in kinds[chances[rider.number]]:
            kinds[chances[rider.number]].append(rider.type_name)
    groups = [say("tour.odds_group", lang,
                  types=[rider_type(t) for t in sorted(kinds[chance], key=RIDER_TYPES.index)],
                  chance=f"{float(chance):.1%}")
              for chance in sorted(kinds, reverse=True)]
    return say("tour.odds", lang, groups=("、" if lang == "ja" else "; ").join(groups))


def _ride_campaign(surface: Surface, campaign: Campaign, *, auto: bool, delay: float,
                   resume_command: str) -> None:
    lang = surface.lang
    total = stage_count(campaign.tour)
    if campaign.tour["prologue"] and campaign.next_stage == 0:
        surface.say(prologue_odds(campaign, lang))
    while not campaign.finished:
        index = campaign.next_stage
        label = stage_name(campaign.tour, index, lang)
        choice = "continue"
        if not auto and surface.full_screen:
            surface.status(say("tour.status", lang, name=repr(campaign.name), done=index,
                               total=total))
        if not auto:
            try:
                choice = _ask(surface, label, say("tour.help", lang, command=resume_command))
            except EOFError:
                choice = "stop"
        if choice == "stop":
            surface.say(say("tour.stopped", lang, done=index, total=total))
            _say_command(surface, common.saved_resume_line(campaign.name, resume_command,
                                                           lang))
            return
        surface.say(Rule(label))

        def watched(state: State, rng: np.random.Generator, choice: str = choice) -> None:
            if choice == "watch" and isinstance(state, WielersimState):  # a prologue: no road
                watch_race(surface, state, rng, delay=delay)

        campaign.ride(watched)  # its record saved
        _show_stage(surface, campaign)
    over = say("tour.over", lang, tour=campaign.tour["name"])
    surface.say(f"[bold]{over}[/] {say('tour.saved_final', lang, name=repr(campaign.name))}")


@app.command()
def standings(
    name: Annotated[str, typer.Argument(help="Name of a saved stage race (see tour --list).",
                                        metavar="NAME", show_default=False)],
    db: common.DbOpt = None,
    json_out: common.JsonOpt = False,
    plot_file: Annotated[str | None, typer.Option(
        "--plot", metavar="PATH",
        help="Draw the GC gaps of the top riders, stage by stage (.png or .svg).",
    )] = None,
    top: TopOpt = 10,
    lang: common.LangOpt = None,
) -> None:
    """Show the classifications of a saved stage race."""
    language = common.resolve_lang(lang)
    plot = _plot_file(plot_file)
    campaign = load_campaign(read_store(db), name)  # only read: nothing is made
    st = campaign.standings()
    peloton = campaign.peloton
    if plot is not None:
        from raceday.games.wielersim.plots import plot_gc

        records = campaign.records
        top_riders = [n for n, _ in st.gc[:8]]
        series: dict[str, list[float]] = {}
        for k in range(1, len(records) + 1):
            after = campaign.standings(k)
            lead = after.gc[0][1]
            times = dict(after.gc)
            for n in top_riders:
                label = f"{peloton.riders[peloton.index_of(n)].name} ({n})"
                series.setdefault(label, []).append(times[n] - lead)
        plot_gc([r["name"] for r in records], series, plot,
                f"{campaign.tour['name']}: GC gaps")
    if json_out:
        lead = st.gc[0][1] if st.gc else 0

        def rider(n: int) -> dict[str, Any]:
            r = peloton.riders[peloton.index_of(n)]
            return {"number": n, "name": r.name, "team": peloton.teams[r.team]}

        best_team = st.teams[0][1] if st.teams else 0
        common.print_json({
            "game": "wielersim", "name": name, "tour": campaign.tour["name"],
            "stages_done": campaign.next_stage, "stages_total": stage_count(campaign.tour),
            "gc": [{**rider(n), "time": t, "gap": t - lead} for n, t in st.gc],
            "points": [{**rider(n), "points": p} for n, p in st.points],
            "mountains": [{**rider(n), "points": p} for n, p in st.mountains],
            "teams": [{"team": peloton.teams[t], "time": s, "gap": s - best_team}
                      for t, s in st.teams],
        })
        return
    common.console.print(say("standings.heading", language,
                             tour=f"[bold]{campaign.tour['name']}[/]",
                             done=campaign.next_stage, total=stage_count(campaign.tour)))
    for table in standings_tables(peloton, st, top, language):
        common.console.print(table)
    _plot_written(plot, language)


@app.command("predict-tour")
@simulation_options
def predict_tour_command(
    tour_file: Annotated[str, typer.Argument(help=TOUR_HELP, metavar="TOUR", show_default=False)],
    peloton: PelotonArg,
    n: Annotated[int, runs_option(MAX_TOUR_RACES, "stage races")] = 200,
    sim: Simulation = GIVEN_BY_OPTIONS,
    top: TopOpt = 10,
    ratings: bool = field_option(WielersimOptions, "ratings"),
    lang: common.LangOpt = None,
) -> None:
    """Simulate many stage races: final GC places, and who wins GC, points and mountains."""
    language = common.resolve_lang(lang)
    plot = _plot_file(sim.plot_file)
    tour_spec, p_spec = resolve_tour(tour_file), _peloton(peloton, ratings)
    used = common.fresh_seed(sim.seed)
    with common.on_interrupt(say("interrupt.prediction")), \
            common.progress_bar(say("progress.tours"), n, enabled=not sim.json_out) as bar:
        task = bar.task_ids[0]
        pred = predict_tour(tour_spec, p_spec, n, seed=used, workers=sim.workers,
                            scheduler=sim.scheduler,
                            progress=lambda done, _total: bar.update(task, completed=done))
    if plot is not None:
        from raceday.games.wielersim.plots import plot_tour

        plot_tour(pred, plot, tour_spec["name"])
    if sim.json_out:
        data = pred.to_json()
        common.print_json({"game": data.pop("game"), "n": data.pop("n"), "seed": used, **data})
        return
    common.console.print(_gc_places_table(pred, top, language))
    for table in _tour_chance_tables(pred, top, language):
        common.console.print(table)
    common.console.print(_seed_line(used, language))
    _plot_written(plot, language)


def _tour_chance_tables(pred: TourPrediction, top: int, lang: str = "en") -> list[Table]:
    """Each rider's chance to win the general, points and mountains classifications."""
    tables = []
    for row, title in enumerate(("wv_gc", "wv_points", "wv_mountains")):
        table = words_table(say("table.chance_to_win", lang, classification=word(title),
                                n=pred.n), ["rider", ("bib", "right"), ("chance", "right")],
                            lang)
        for i in pred.order(row)[:top]:
            c = int(pred.counts[row, i])
            if not c:
                break
            lo, hi = wilson_interval(c, pred.n)
            table.add_row(pred.names[i], str(pred.numbers[i]), interval_cell(c, pred.n, lo, hi))
        tables.append(table)
    return tables


def _gc_places_table(pred: TourPrediction, top: int, lang: str = "en") -> Table:
    """Final GC places: mean place, and the chance of 1st, podium and top 10."""
    table = words_table(say("table.gc_places", lang, n=pred.n),
                        ["rider", ("bib", "right"), ("mean_place", "right"), ("first", "right"),
                         ("podium", "right"), ("top10", "right")], lang)
    for i in pred.place_order()[:top]:
        row = pred.positions[i]
        cells = []
        for upto in (1, 3, 10):
            c = int(row[:upto].sum())
            lo, hi = wilson_interval(c, pred.n)
            cells.append(interval_cell(c, pred.n, lo, hi))
        table.add_row(pred.names[i], str(pred.numbers[i]), f"{pred.mean_place(i):.1f}", *cells)
    return table
