"""Every lesson a game ships (issue #48), checked the same way: its positions are legal and
every expected move does what its step says (``check_lesson``), it has at least six steps
and ends with a first game, every word it uses exists in English and Japanese, and played
through, each step's expected move is right while one wrong move gives the hint and changes
nothing. Then the two faces on the twin-dice plugin's lesson (installed beside raceday as a
user would, tests/sixth_game): ``raceday learn`` (plain mode, typed answers, quit and
resume, --list, --json, Japanese) and the JSON API of /learn/<game>."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.sixth_game_install import GAME as PLUGIN
from tests.sixth_game_install import lesson_games_and_plugin, subprocess_env

ROOT = Path(__file__).resolve().parents[1]
MIN_STEPS = 6




# --- every lesson ---------------------------------------------------------------------
@pytest.mark.parametrize("game", lesson_games_and_plugin())
def test_the_lesson_holds_through_its_rules(site: Path, game: str) -> None:
    from raceday.core.lesson import check_lesson, lesson_games, load_lesson

    assert game in lesson_games()
    lesson = load_lesson(game)
    assert check_lesson(lesson) == []
    assert len(lesson.steps) >= MIN_STEPS, f"{game}: {len(lesson.steps)} steps"
    assert lesson.steps[-1].play is not None, f"{game}: the last step is not a first game"
    assert all(step.play is None for step in lesson.steps[:-1])


@pytest.mark.parametrize("game", lesson_games_and_plugin())
def test_every_word_of_the_lesson_is_in_english_and_japanese(site: Path, game: str) -> None:
    from raceday.core.lesson import load_lesson
    from raceday.present.lessons import lesson_key, step_parts
    from raceday.present.messages import table

    lesson = load_lesson(game)
    keys = [lesson_key(game, "title"), lesson_key(game, "intro")]
    keys += [step.key(game, part) for step in lesson.steps for part in step_parts(step)]
    for lang in ("en", "ja"):
        missing = [k for k in keys if table(lang).template(k) is None]
        assert not missing, f"{game} ({lang}) lacks {missing}"
    # Japanese words of its own, not English copied over (a name may be the same in both)
    copied = [k for k in keys if table("ja").template(k) == table("en").template(k)]
    assert len(copied) * 10 <= len(keys), f"{game}: English in the Japanese table: {copied}"


@pytest.mark.parametrize("game", lesson_games_and_plugin())
def test_played_through_right_moves_answer_and_wrong_ones_hint(site: Path, game: str) -> None:
    from raceday.core.lesson import a_wrong_move, load_lesson
    from raceday.present.lessons import event_words, step_words

    lesson = load_lesson(game)
    for number, step in enumerate(lesson.steps, start=1):
        if step.play is not None:
            continue
        where = f"{game} step {number} ({step.id})"
        state = step.start()
        before = state.to_json()
        wrong = a_wrong_move(step, state)
        assert wrong is not None, where
        tried = step.attempt(state, wrong)
        assert not tried.right and tried.events == [], where
        assert state.to_json() == before, f"{where}: a wrong move changed the position"
        words = step_words(lesson, step, "en", state)
        assert words["hint"] and not words["hint"].startswith(f"{game}.lesson."), where
        for name in step.expect:
            trial = state.clone()
            done = step.attempt(trial, name)
            assert done.right, f"{where}: {name!r}"
            assert {e.kind for e in done.events} >= set(step.shows), f"{where}: {name!r}"
            assert trial.to_json() != before, f"{where}: {name!r} changed nothing"
            assert event_words(game, done.events, "en"), f"{where}: {name!r} said nothing"


# --- the terminal: raceday learn ------------------------------------------------------
def learn(site: Path, data: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``raceday learn ARGS`` in a fresh process, its progress kept under ``data``."""
    env = subprocess_env(site)
    env["XDG_DATA_HOME"] = str(data)
    env.pop("RACEDAY_PLAIN", None)
    return subprocess.run([sys.executable, "-m", "raceday", "learn", *args], input=stdin,
                          env=env, capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_learn_lists_the_games_with_a_lesson(site: Path, tmp_path: Path) -> None:
    listed = learn(site, tmp_path, "--lang", "en")
    assert listed.returncode == 0, listed.stderr
    assert f"{PLUGIN}: Learn Twin Dice Dash" in listed.stdout


def test_learn_list_and_json(site: Path, tmp_path: Path) -> None:
    listed = learn(site, tmp_path, PLUGIN, "--list", "--lang", "en")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == "1. A sealed bet" and lines[-1] == "7. Your first race"
    ja = learn(site, tmp_path, PLUGIN, "--list", "--lang", "ja")
    assert ja.stdout.splitlines()[1] == "2. スリップストリーム"
    steps = json.loads(learn(site, tmp_path, PLUGIN, "--list", "--json", "--lang", "en").stdout)
    assert [s["id"] for s in steps["steps"]][:2] == ["sealed_bet", "slipstream"]
    assert "frame" not in steps["steps"][0]
    whole = json.loads(learn(site, tmp_path, PLUGIN, "--json", "--lang", "en").stdout)
    first = whole["steps"][0]
    assert first["frame"]["game"] == PLUGIN and first["expect"] == ["back 0 for 1"]
    assert {"name": "pass", "message": {"key": "action.pass", "params": {}}} in first["moves"]
    assert whole["steps"][-1]["play"] and whole["steps"][-1]["level"] == "random"


def test_learn_a_wrong_move_hints_a_right_one_explains(site: Path, tmp_path: Path) -> None:
    # step 1: "pass" (1) is wrong, "x" is no number, "back Red for 1" (2) is right; Enter
    # goes on; step 2: quit
    walked = learn(site, tmp_path, PLUGIN, "--plain", "--lang", "en", stdin="1\nx\n2\n\nquit\n")
    assert walked.returncode == 0, walked.stderr
    out = walked.stdout
    assert "Step 1 of 7: A sealed bet" in out
    assert "2. back Red for 1 chip\n" in out and not re.search(r"\b1 chips", out)
    assert "Not that one. Hint: Passing is allowed" in out
    assert "Type one of the numbers shown." in out
    assert "Red backed Red for 1 and wins 1 chip (now 6)." in out
    assert "Right. Red rolled further than Blue" in out
    assert out.index("Hint:") < out.index("Right.")
    assert "Step 2 of 7: The slipstream" in out
    assert "Lesson left at step 2; raceday learn twindash resumes there." in out
    kept = json.loads((tmp_path / "raceday" / "lessons.json").read_text(encoding="utf-8"))
    assert kept == {PLUGIN: 2}
    again = learn(site, tmp_path, PLUGIN, "--plain", "--lang", "en", stdin="quit\n")
    assert "Resuming at step 2 of 7" in again.stdout
    assert "Step 2 of 7: The slipstream" in again.stdout
    assert "Step 1 of 7" not in again.stdout


def test_learn_in_japanese_from_a_chosen_step(site: Path, tmp_path: Path) -> None:
    walked = learn(site, tmp_path, PLUGIN, "--plain", "--lang", "ja", "--step", "5",
                   stdin="4\n1\nquit\n")
    assert walked.returncode == 0, walked.stderr
    out = walked.stdout
    assert "ステップ 5/7：並んだらパス" in out
    assert "ヒント：ここでの賭けはチップを使ったコイン投げです。" in out
    assert "正解です。コイン投げに何も賭けませんでした。" in out


def test_learn_refuses_what_it_cannot_teach(site: Path, tmp_path: Path) -> None:
    unknown = learn(site, tmp_path, "nosuchgame")
    assert unknown.returncode == 2 and "there is no lesson for 'nosuchgame'" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    beyond = learn(site, tmp_path, PLUGIN, "--step", "9")
    assert beyond.returncode == 2 and "steps 1 to 7, not 9" in beyond.stderr


def test_the_first_game_offers_a_hint_and_plays_to_the_end(site: Path, tmp_path: Path) -> None:
    answers = "hint\n" + "1\n" * 40  # a hint, then pass every round
    played = learn(site, tmp_path, PLUGIN, "--plain", "--lang", "en", "--step", "7",
                   stdin=answers)
    assert played.returncode == 0, played.stderr
    assert "A stronger player would choose:" in played.stdout
    assert "The race is over." in played.stdout and "Lesson finished." in played.stdout
    assert not (tmp_path / "raceday" / "lessons.json").exists() or PLUGIN not in json.loads(
        (tmp_path / "raceday" / "lessons.json").read_text(encoding="utf-8"))


# --- the browser's API: /api/learn ----------------------------------------------------
@pytest.fixture(scope="module")
def client(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from raceday.web.app import create_app

    app = create_app(tmp_path_factory.mktemp("learn") / "party.sqlite")
    with TestClient(app) as c:
        yield c


def test_the_api_gives_the_lesson_and_its_steps(client: Any) -> None:
    games = client.get("/api/learn").json()["games"]
    assert {"game": PLUGIN, "title": f"{PLUGIN}.lesson.title"} in games
    lesson = client.get(f"/api/learn/{PLUGIN}").json()
    assert len(lesson["steps"]) == 7 and lesson["steps"][0]["words"]["hint"] == \
        f"{PLUGIN}.lesson.sealed_bet.hint"
    assert "hint" not in lesson["steps"][-1]["words"]
    step = client.get(f"/api/learn/{PLUGIN}/2").json()
    assert step["drawer"] == f"/games/{PLUGIN}/static/frame.js"
    assert step["frame"]["runners"][0]["slipstream"] is True
    assert {"name": "back 0 for 2", "message": {"key": "action.bet", "params": {
        "runner": 0, "name": {"key": "runner.0", "params": {}}, "stake": 2}}} in step["moves"]
    play = client.get(f"/api/learn/{PLUGIN}/7").json()
    assert play["play"] and play["level"] == "random" and "moves" not in play


def test_the_api_answers_a_wrong_then_a_right_try(client: Any) -> None:
    wrong = client.post(f"/api/learn/{PLUGIN}/2/try", json={"move": "back 1 for 1"})
    assert wrong.status_code == 200
    body = wrong.json()
    assert body["right"] is False and body["legal"] is True and body["events"] == []
    assert body["words"] == f"{PLUGIN}.lesson.slipstream.hint"
    assert body["frame"]["runners"][0]["square"] == 1  # nothing moved
    right = client.post(f"/api/learn/{PLUGIN}/2/try", json={"move": "back 0 for 3"}).json()
    assert right["right"] is True and right["words"] == f"{PLUGIN}.lesson.slipstream.why"
    kinds = [e["kind"] for e in right["events"]]
    assert "slipstream" in kinds and "bet_won" in kinds
    assert right["frame"]["runners"][0]["square"] == 6


@pytest.mark.parametrize(("method", "url", "body", "status", "key"), [
    ("get", "/api/learn/nosuchgame", None, 404, "refusal.learn_unknown_game"),
    ("get", f"/api/learn/{PLUGIN}/0", None, 404, "refusal.learn_no_step"),
    ("get", f"/api/learn/{PLUGIN}/8", None, 404, "refusal.learn_no_step"),
    ("post", f"/api/learn/{PLUGIN}/1/try", {"move": "fly away"}, 400,
     "refusal.learn_unknown_move"),
    ("post", f"/api/learn/{PLUGIN}/1/try", {"mov": "pass"}, 400, "refusal.learn_no_move"),
    ("post", f"/api/learn/{PLUGIN}/7/try", {"move": "pass"}, 400, "refusal.learn_play_step"),
])
def test_the_api_refuses_in_words(client: Any, method: str, url: str, body: Any, status: int,
                                  key: str) -> None:
    from raceday.present.messages import render

    answer = client.post(url, json=body) if method == "post" else client.get(url)
    assert answer.status_code == status
    refused = answer.json()
    assert refused["words"]["key"] == key
    for lang in ("en", "ja"):
        assert render(refused["words"], lang) != key


def test_the_page_and_the_landing_offer(client: Any) -> None:
    page = client.get(f"/learn/{PLUGIN}")
    assert page.status_code == 200 and "/static/js/learn.js" in page.text
    assert "<script>" not in page.text and "style=" not in page.text


def test_learn_full_screen_a_wrong_then_a_right_move(site: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from raceday.cli.learn import read_progress, walk
    from raceday.core.lesson import load_lesson
    from raceday.terminal.tui.app import GameApp
    from raceday.terminal.tui.testing import answer, wait_for_prompt, wait_until_finished

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    lesson = load_lesson(PLUGIN)
    app = GameApp(lambda surface: walk(surface, lesson, 1, "en"), title="Learn", lang="en")

    async def run() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for_prompt(pilot, app)
            assert "5 chips, square 0 of 20." in app.board_text()  # the game's own board
            await answer(pilot, app, "1")
            assert "Hint: Passing is allowed" in app.log_text()
            await answer(pilot, app, "2")
            assert "Right. Red rolled further than Blue" in app.log_text()
            await answer(pilot, app, "")
            assert "Step 2 of 7: The slipstream" in app.log_text()
            await answer(pilot, app, "quit")
            assert await wait_until_finished(pilot, app) == 0

    asyncio.run(run())
    assert read_progress() == {PLUGIN: 2}


def test_a_first_game_the_table_cannot_seat_names_the_command_that_plays_it() -> None:
    from raceday.cli.learn import play_command

    assert play_command("derby") == "raceday derby play"
    assert play_command("wielersim") == "raceday wielersim --help"  # no play: its commands


# --- a step's choices: a betting window's few tickets, not its hundreds -----------------
def test_the_terminal_offers_only_a_steps_choices(site: Path, tmp_path: Path) -> None:
    from raceday.core.lesson import load_lesson

    step = load_lesson("keirin").step(6)
    assert step.choices is not None and len(step.legal_names(step.start())) > 100
    walked = learn(site, tmp_path, "keirin", "--plain", "--lang", "en", "--step", "6",
                   stdin="4\nquit\n")
    assert walked.returncode == 0, walked.stderr
    menu = [line for line in walked.stdout.splitlines() if line.startswith("  ")
            and line.strip()[:1].isdigit()]
    assert [line.split(". ", 1)[1].split(" at ")[0] for line in menu] == [
        "win 1 for 100.00", "win 2 for 100.00", "win 3 for 100.00", "win 4 for 100.00",
        "win 5 for 100.00", "win 6 for 100.00", "done betting"]
    assert "Right. Rider 4 wins about 22 races in 100" in walked.stdout
    # the board is the night's betting window (its odds and tickets), not a summary line
    assert "Win odds: 1: 7.54   2: 7.30   3: 4.67   4: 4.59" in walked.stdout
    assert "  ticket 1: win 4, stake 100.00 at 4.59" in walked.stdout
    whole = json.loads(learn(site, tmp_path, "keirin", "--json", "--lang", "en").stdout)
    assert [m["name"] for m in whole["steps"][5]["moves"]] == step.choices


def test_the_api_offers_only_a_steps_choices(client: Any) -> None:
    from raceday.core.lesson import load_lesson

    step = load_lesson("derby").step(4)
    answer = client.get("/api/learn/derby/4").json()
    assert [m["name"] for m in answer["moves"]] == step.choices
    assert "win d20 1000" in step.choices and "win d20 300" not in step.choices
    # a legal ticket the step does not offer is no answer to it
    refused = client.post("/api/learn/derby/4/try", json={"move": "win d20 300"})
    assert refused.status_code == 400
    assert refused.json()["words"]["key"] == "refusal.learn_unknown_move"
    right = client.post("/api/learn/derby/4/try", json={"move": "win d20 1000"}).json()
    assert right["right"] is True


@pytest.mark.parametrize(("game", "number", "ticket", "english", "japanese"), [
    ("keirin", 7, "quinella 3=4 for 100.00", "quinella 3=4 for 100.00 at 8.85",
     "2車複 3=4 100.00（オッズ 8.85）"),
    ("derby", 5, "quinella d12-d20 500", "quinella ticket on d12, d20 for 500",
     "馬連：d12、d20 に 500"),
    ("keirin", 1, "derny 10", "derny 10: it stops on square 10", "誘導員 10：マス10で止まる"),
    ("keirin", 2, "rider 1 +3", "rider 1 +3", "1番 +3"),
])
def test_a_moves_words_are_in_the_learners_language(game: str, number: int, ticket: str,
                                                     english: str, japanese: str) -> None:
    # the Japanese steps speak of 誘導員, 2車複 and 馬連: the moves offered must say so too
    from raceday.core.lesson import load_lesson
    from raceday.present.lessons import learner_actions
    from raceday.present.messages import describe_action

    step = load_lesson(game).step(number)
    state = step.start()
    action = dict(learner_actions(step, state))[ticket]
    assert describe_action(state, action, "en") == english
    assert describe_action(state, action, "ja") == japanese


def test_the_api_gives_wielersims_board_its_film(client: Any) -> None:
    # WielerSIM's replay board draws a film (route, riders) around the state's frame
    step = client.get("/api/learn/wielersim/1").json()
    assert step["drawer"] == "/games/wielersim/static/frame.js"
    assert step["frame"]["film"]["route"]["distance"] > 0 and step["frame"]["film"]["riders"]
    assert step["frame"]["frame"]["riders"] and step["frame"]["ticker"] == []
    right = client.post("/api/learn/wielersim/1/try",
                        json={"move": load_first_expected("wielersim", 1)}).json()
    assert right["right"] is True and "film" in right["frame"]
    # a game whose board is drawn from the state's frame alone keeps it
    assert "film" not in client.get("/api/learn/hairpin/1").json()["frame"]


def load_first_expected(game: str, number: int) -> str:
    from raceday.core.lesson import load_lesson

    return load_lesson(game).step(number).expect[0]
