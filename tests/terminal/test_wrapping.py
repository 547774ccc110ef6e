"""Japanese text wraps between characters, never inside a run of Latin letters or digits
(#43: a Japanese help line was seen broken as 'u' / 'ndo'), and English wraps as rich
wraps it."""

from __future__ import annotations

import io
import re

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from raceday.present.messages import render
from raceday.terminal.surface import LineSurface
from raceday.terminal.wrapping import NO_START, Wrapped, wrap_plain, wrap_text

HELP_JA = render("terminal.help.universal", "ja")  # 'help'、'undo'、'quit' among the kana
ODDS_JA = ("プロローグの優勝確率（正確な値）：エースは各14.3%、スプリンターは各8.8%、"
           "アシストは各1.9%。")
ENGLISH = ("Refused: a bid is a whole amount such as 3500 or 3,500 (digits 0-9), in multiples "
           "of 100; 0 for none")
WIDTHS = range(12, 61)


@pytest.mark.parametrize("text", [HELP_JA, ODDS_JA])
def test_japanese_breaks_between_characters_never_inside_a_latin_word(text: str) -> None:
    words = re.findall(r"[A-Za-z0-9][A-Za-z0-9.%?-]*", text)
    assert "undo" in words or "14.3%" in words
    for width in WIDTHS:
        lines = wrap_plain(text, width)
        assert all(cell_len(line) <= width for line in lines), (width, lines)
        assert "".join(lines).replace(" ", "") == text.replace(" ", ""), (width, lines)
        for word in words:
            assert any(word in line for line in lines), (width, word, lines)
        assert not any(line[0] in NO_START for line in lines[1:]), (width, lines)
        # and it fills its lines: a line ends early only where the next piece is long
        assert all(cell_len(line) >= width - 8 for line in lines[:-1]), (width, lines)


def test_english_breaks_where_rich_breaks_it() -> None:
    console = Console(width=80)
    texts = [Text(ENGLISH), Text("a\tb longwordlongwordlongword x", overflow="ellipsis"),
             Text("tab\there and more words to wrap", overflow="crop")]
    for text in texts:
        for width in range(6, 61):
            theirs = [line.plain.rstrip() for line in text.copy().wrap(console, width)]
            ours = [line.plain.rstrip() for line in wrap_text(text.copy(), width)]
            assert ours == theirs, (width, text.plain)


def test_a_word_longer_than_the_line_is_folded() -> None:
    assert wrap_plain("あ" + "x" * 25, 10) == ["あ", "x" * 10, "x" * 10, "x" * 5]


def test_the_surfaces_print_and_log_by_this_rule_with_the_text_s_style() -> None:
    out = io.StringIO()
    console = Console(file=out, width=24, color_system=None, legacy_windows=False)
    LineSurface(console, "ja").say(HELP_JA)
    assert out.getvalue().splitlines() == wrap_plain(HELP_JA, 24)
    styled = list(console.render(Wrapped(Text(ODDS_JA, style="dim")),
                                 console.options.update_width(24)))
    assert all(seg.style is not None and seg.style.dim for seg in styled if seg.text.strip())
