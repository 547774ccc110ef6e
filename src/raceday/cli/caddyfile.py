"""``raceday caddyfile``: the Caddy configuration for several party-server processes.

``raceday serve --shard K/N`` runs one of N processes, each keeping the rooms whose code is
its own (:mod:`raceday.web.shards`). This command writes the Caddyfile that puts them behind
one address: every path naming a room goes to the process that keeps it, a new room to any
of them (round robin, so rooms spread), and what is not a room to shard 0. See
docs/usage/scale-out.md.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from raceday.core.errors import OptionsError
from raceday.terminal.common import LangOpt, console, resolve_lang

HELP = ("Write the Caddyfile that routes each room to its process, for several raceday "
        "serve --shard processes behind one address.")

app = typer.Typer(help=HELP, add_completion=False)

SiteOpt = Annotated[str, typer.Option(
    "--site", metavar="ADDRESS",
    help="The address people open: a host name such as party.example.org (Caddy gets its "
         "TLS certificate) or an address such as http://127.0.0.1:8080.")]
ShardOpt = Annotated[list[str], typer.Option(
    "--shard-address", metavar="HOST:PORT",
    help="The address of a raceday serve --shard K/N process, shard 0 first; repeat once "
         "for each shard (N is how many are given).")]
OutputOpt = Annotated[Path | None, typer.Option(
    "--out", "-o", metavar="PATH", dir_okay=False,
    help="Write the Caddyfile here (replaced whole) instead of printing it.")]
AdminOpt = Annotated[str | None, typer.Option(
    "--admin", metavar="ADDRESS",
    help="Caddy's admin endpoint: off, or HOST:PORT (needed when two Caddy processes share "
         "a machine). Default: Caddy's own (localhost:2019).")]
BindOpt = Annotated[str | None, typer.Option(
    "--bind", metavar="ADDRESS",
    help="The one IP address Caddy listens on (such as 127.0.0.1). Default: every address "
         "of the machine.")]


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole: a temporary file beside it, then a rename."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OptionsError(f"no folder {folder} to write {path.name} in")
    if path.is_dir():
        raise OptionsError(f"{path} is a folder; name a file with --out")
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        raise OptionsError(f"cannot write {path}: {exc.strerror or exc}") from None


@app.command()
def caddyfile(
    site: SiteOpt,
    shard: ShardOpt,
    output: OutputOpt = None,
    admin: AdminOpt = None,
    bind: BindOpt = None,
    lang: LangOpt = None,
) -> None:
    """Print (or write) a Caddyfile for raceday serve --shard 0/N ... N-1/N."""
    from raceday.web.shards import caddyfile as make

    try:
        text = make(site.strip(), [s.strip() for s in shard], admin=admin, bind=bind)
    except ValueError as exc:
        raise OptionsError(str(exc)) from None
    if output is None:
        console.file.write(text)
        console.file.flush()
        return
    write_atomic(output, text)
    from raceday.present import render

    said = render("tool.caddyfile.written", resolve_lang(lang),  # the file itself: as it is
                  params={"path": str(output), "n": len(shard), "site": site.strip()})
    console.print(said, markup=False, soft_wrap=True)
