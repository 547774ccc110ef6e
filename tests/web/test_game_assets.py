"""Each game's browser assets are served from its own package at ``/games/<game>/static/``,
found by discovery, and every module a page imports resolves to a file the server serves."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from raceday.core.discovery import asset_folder, game_packages
from raceday.web.app import STATIC, create_app

IMPORT = re.compile(r"""(?:from\s+|import\s*\(\s*|src=)["'`]([^"'`$]+\.js)["'`]""")


def _client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "rooms.db"))


def test_every_game_folder_is_served(tmp_path: Path) -> None:
    client = _client(tmp_path)
    served = 0
    for game in game_packages():
        folder = asset_folder(game, "static")
        if folder is None:
            continue
        for file in sorted(p for p in folder.rglob("*") if p.is_file()):
            url = f"/games/{game}/static/{file.relative_to(folder).as_posix()}"
            r = client.get(url)
            assert r.status_code == 200, url
            assert r.content == file.read_bytes(), url
            served += 1
    assert served > 0
    assert client.get("/games/hairpin/static/no-such-file.js").status_code == 404


def test_every_imported_module_is_served(tmp_path: Path) -> None:
    """Static imports in the shared shell and in every game's modules: an absolute path
    (``/static/js/common.js``, ``/games/hairpin/static/board.js``) or one relative to the
    importing module must be a file the server answers with 200."""
    client = _client(tmp_path)
    sources: list[tuple[str, Path]] = [
        (f"/static/{p.relative_to(STATIC).as_posix()}", p)
        for p in STATIC.rglob("*") if p.suffix in (".js", ".html")]
    for game in game_packages():
        folder = asset_folder(game, "static")
        if folder is not None:
            sources += [(f"/games/{game}/static/{p.relative_to(folder).as_posix()}", p)
                        for p in folder.rglob("*") if p.suffix in (".js", ".html")]
    checked = 0
    for url, path in sources:
        base = url.rsplit("/", 1)[0]
        for target in IMPORT.findall(path.read_text(encoding="utf-8")):
            absolute = target if target.startswith("/") else f"{base}/{target.removeprefix('./')}"
            assert client.get(absolute).status_code == 200, f"{url} imports {target}"
            checked += 1
    assert checked > 20


def test_no_game_module_imports_another_games_module() -> None:
    """A game's modules use the shared shell (``/static/js/...``) and their own folder,
    never another game's: each game is whole on its own."""
    for game in game_packages():
        folder = asset_folder(game, "static")
        if folder is None:
            continue
        for path in folder.rglob("*.js"):
            for target in IMPORT.findall(path.read_text(encoding="utf-8")):
                if target.startswith("/games/"):
                    assert target.startswith(f"/games/{game}/"), f"{game}/{path.name}: {target}"
                else:
                    assert target.startswith(("/static/", "./")), f"{game}/{path.name}: {target}"
