"""``raceday arena``: two agents (ours or OpenSpiel's bots) play N seeded games.

Everything is checked before the first game (agents, options, the results path); the
seed used is printed so the run can be replayed. OpenSpiel is imported only when an
OpenSpiel bot plays (see docs/usage/research.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from raceday.terminal.common import (
    GamesSeedOpt,
    JsonOpt,
    LangOpt,
    console,
    err_console,
    fresh_seed,
    in_range,
    on_interrupt,
    print_json,
    progress_bar,
    resolve_lang,
)

HELP = "Play two agents (ours or OpenSpiel bots) for N games; win rates with 95% intervals."

app = typer.Typer(help=HELP, add_completion=False)

GameOpt = Annotated[str, typer.Option(
    "--game", "-g", metavar="GAME", help="Any game with two or more players that carries a "
    "research adapter (the betting games too).")]
AgentA = Annotated[str, typer.Option(
    "--a", metavar="AGENT", help="Agent A: random, mcts[:N], the game's own levels (hairpin: "
    "easy..expert, alphabeta:Xs), openspiel-random, openspiel-mcts[:N|:Xs].")]
AgentB = Annotated[str, typer.Option("--b", metavar="AGENT",
                                     help="Agent B (same names as --a).")]
GamesOpt = Annotated[int, typer.Option(
    "--games", "-n", metavar="N", callback=in_range(1, 100_000, "games"),
    help="Games to play, 1–100,000 (sides alternate).")]
OutOpt = Annotated[Path | None, typer.Option(
    "--out", "-o", metavar="PATH", help="Write every game's result to this .csv or .json file.")]
SaveOpt = Annotated[Path | None, typer.Option(
    "--save", metavar="NAME", help="Save every game played as records in the file NAME "
    "(raceday record check and raceday replay read it).")]
ForceOpt = Annotated[bool, typer.Option(
    "--force", help="Overwrite the --out or --save file if it exists.")]
ParamOpt = Annotated[list[str] | None, typer.Option(
    "--option", metavar="KEY=VALUE",
    help="A game parameter KEY=VALUE (repeatable), e.g. variant=short.")]


@app.command()
def arena(
    game: GameOpt = "hairpin",
    a: AgentA = "random",
    b: AgentB = "random",
    games: GamesOpt = 10,
    seed: GamesSeedOpt = None,
    out: OutOpt = None,
    save: SaveOpt = None,
    option: ParamOpt = None,
    force: ForceOpt = False,
    as_json: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Play agent A against agent B and print the win rates with Wilson 95% intervals."""
    from raceday.interop.arena import (
        check_out_path,
        check_save_path,
        parse_params,
        play,
        prepare,
        write_records,
        write_results,
    )
    from raceday.present import render

    words = resolve_lang(lang)

    params = parse_params(option)
    if out is not None:
        check_out_path(out, force)
    if save is not None:
        check_save_path(save, force)
        if out is not None and save.resolve() == out.resolve():
            from raceday.core.errors import OptionsError

            raise OptionsError("--save and --out name the same file")
    used = fresh_seed(seed)
    ready = prepare(game, a, b, used, params)
    if not as_json:
        console.print(render("tool.arena.seed", words, params={"seed": used}))
    label = render("tool.progress.games", words)
    with progress_bar(label, games, enabled=games > 1 and err_console.is_terminal) as bar, \
            on_interrupt("no results were written"):
        result = play(ready, games, progress=lambda done, total: bar.update(
            bar.task_ids[0], completed=done), records=save is not None)
    if out is not None:
        write_results(result, out)
    if save is not None:
        write_records(result, save)
    summary = result.summary()
    if as_json:
        print_json(summary)
        return
    n = summary["games"]
    for side in ("a", "b"):
        low, high = summary[f"{side}_win_rate_95"]
        console.print(escape(render("tool.arena.side", words, params={
            "side": side.upper(), "agent": summary[side], "wins": summary[f"{side}_wins"],
            "games": n, "rate": f"{summary[f'{side}_win_rate']:.1%}", "low": f"{low:.1%}",
            "high": f"{high:.1%}",
            "seconds": f"{summary[f'{side}_seconds_per_move']:.3f}"})), soft_wrap=True)
    console.print(render("tool.arena.draws", words, params={"draws": summary["draws"]}))
    if out is not None:
        console.print(escape(render("tool.arena.written", words, params={"path": str(out)})),
                      soft_wrap=True)
    if save is not None:
        console.print(escape(render("tool.arena.saved", words, params={
            "games": len(result.matches), "path": str(save)})), soft_wrap=True)
