"""A lesson step's answer stays short (issue: Dice Derby's step 4 printed a whole race,
~40 lines): every right move of every lesson (the five games' and the twin-dice plugin's)
answers in at most ``ANSWER_LINES`` lines in both faces' data (the terminal's words and the
page's ``told`` messages), in English and Japanese; a longer answer keeps what the step
shows and the result, and folds the rest into lines that count what they hide."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.sixth_game_install import lesson_games_and_plugin

FOLD = {"en": re.compile(r"^… (\d+) lines? left out …$"),
        "ja": re.compile(r"^…（(\d+)行を省略）…$")}




def right_moves(game: str) -> Iterator[tuple[int, Any, str]]:
    """(step number, step, move name) of every expected move of every position step."""
    from raceday.core.lesson import load_lesson

    lesson = load_lesson(game)
    for number, step in enumerate(lesson.steps, start=1):
        if step.play is None:
            for name in step.expect:
                yield number, step, name


def lines(texts: list[str]) -> int:
    return sum(len(text.splitlines()) or 1 for text in texts)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", lesson_games_and_plugin())
def test_every_answer_fits_in_both_faces(site: Path, game: str, lang: str) -> None:
    from raceday.core.events import Event
    from raceday.present.lessons import ANSWER_LINES, answer_words, event_words
    from raceday.present.messages import describe_event, render
    from raceday.web.learn import try_answer

    longest = 0
    for number, step, name in right_moves(game):
        tried = step.attempt(step.start(), name)
        assert tried.right
        said = answer_words(game, step, tried.events, lang)
        assert lines(said) <= ANSWER_LINES, (game, number, name, said)
        everything = event_words(game, tried.events, lang)
        longest = max(longest, lines(everything))
        folded = [int(m.group(1)) for text in said if (m := FOLD[lang].match(text))]
        # nothing lost unsaid: the lines kept and the lines folded are all the lines
        assert lines(said) - len(folded) + sum(folded) == lines(everything)
        if not folded:
            assert said == everything
        told = try_answer(game, number, {"move": name})["told"]
        page = [describe_event(game, Event(m["key"].removeprefix("event."), m["params"]), lang)
                if m["key"].startswith("event.") else render(m, lang, game) for m in told]
        assert page == said
    assert longest > 0


def test_the_derby_race_step_shows_its_result_and_settling_and_folds_the_rolls(
        site: Path) -> None:
    from raceday.core.lesson import load_lesson
    from raceday.present.lessons import ANSWER_LINES, answer_words, event_words

    step = next(s for s in load_lesson("derby").steps if s.id == "win_ticket")
    events = step.attempt(step.start(), step.expect[0]).events
    assert len(event_words("derby", events, "en")) > 30  # a whole race: what is folded
    said = answer_words("derby", step, events, "en")
    assert lines(said) <= ANSWER_LINES
    assert any(text.startswith("Result: 1st the") for text in said)
    assert any(re.match(r"Race 1 settled: ", text) for text in said)
    folded = [int(m.group(1)) for text in said if (m := FOLD["en"].match(text))]
    assert folded and sum(folded) > 20 and min(folded) > 1  # one line is shown, not folded
