"""Wrapping text that mixes Japanese and Latin script, so the screens read well in Japanese.

Rich wraps a line at its spaces and folds a "word" longer than the line by cells. Japanese
has no spaces, so a whole sentence is one word to it and is folded wherever the line ends,
inside ``undo`` (``u`` / ``ndo``) or a number as readily as between two kana. Here a line
breaks:

- at a space, as in English;
- between two wide (East Asian) characters, or between a wide character and a run of
  narrow ones, so Japanese fills its lines;
- never inside a run of narrow non-space characters (a word, a number such as ``14.3%``,
  a command such as ``--seed``), unless that run alone is longer than the line;
- never before closing punctuation (``、。）」`` …) nor after an opening one (``（「`` …).

English text breaks exactly where rich breaks it. :func:`break_offsets` is the rule (the
contract of ``rich._wrap.divide_line``); :class:`Wrapped` renders a text by it, which is how
the surfaces hand the log's lines and the help to rich.
"""

from __future__ import annotations

from rich.cells import cell_len, chop_cells, get_character_cell_size
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.containers import Lines
from rich.measure import Measurement
from rich.text import Text

# no line starts with these (they close what came before) …
NO_START = frozenset("、。，．）」』】〕〉》］｝！？：；・ー…‥々ゝゞ"
                     "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
# … and none ends with these (they open what comes after)
NO_END = frozenset("（「『【〔〈《［｛")


def _atoms(text: str) -> list[tuple[int, int]]:
    """``text`` cut into what no line may split: a run of narrow non-space characters, a
    wide character, or a run of spaces (a zero-width mark stays with what it marks)."""
    atoms: list[tuple[int, int]] = []
    start = 0
    kind = ""
    for index, char in enumerate(text):
        size = get_character_cell_size(char)
        if size == 0 and not char.isspace():
            continue
        now = "space" if char.isspace() else ("wide" if size == 2 else "narrow")
        if index and (now != kind or now == "wide"):
            atoms.append((start, index))
            start = index
        kind = now
    if text:
        atoms.append((start, len(text)))
    return atoms


def _tokens(text: str) -> list[tuple[int, int]]:
    """``text`` cut where a line may break: each token is what no line splits, with the
    spaces after it (a line may end in them)."""
    tokens: list[list[int]] = []
    for start, end in _atoms(text):
        first = text[start]
        if tokens:
            last_start, last_end = tokens[-1]
            before = text[last_end - 1]
            if (first.isspace() or before in NO_END or text[last_start:last_end].isspace()
                    or (first in NO_START and not before.isspace())):
                tokens[-1][1] = end
                continue
        tokens.append([start, end])
    return [(start, end) for start, end in tokens]


def break_offsets(text: str, width: int, fold: bool = True) -> list[int]:
    """Where to break the one-line ``text`` so each piece fits ``width`` cells (the rule
    in the module text): character offsets, as ``rich._wrap.divide_line`` gives them."""
    breaks: list[int] = []
    offset = 0  # cells on the line so far
    for start, end in _tokens(text):
        word = text[start:end]
        length = cell_len(word.rstrip())
        if offset + length <= width:
            offset += cell_len(word)
            continue
        if length > width and fold:  # longer than a line: folded by cells
            pieces = chop_cells(word, width)
            if offset and start:
                breaks.append(start)
            for piece in pieces[:-1]:
                start += len(piece)
                breaks.append(start)
            offset = cell_len(pieces[-1])
        elif offset and start:
            breaks.append(start)
            offset = cell_len(word)
        else:
            offset = cell_len(word)
    return breaks


def wrap_text(text: Text, width: int) -> Lines:
    """``text`` in lines of at most ``width`` cells, broken by :func:`break_offsets` (its
    styles kept; the spaces a line ends in dropped; a piece longer than a line folded, or
    cut as the text's ``overflow`` says, as rich does)."""
    width = max(width, 1)
    overflow = text.overflow or "fold"
    lines = Lines()
    for line in text.split(allow_blank=True):
        if "\t" in line.plain:
            line.expand_tabs(text.tab_size or 8)
        if text.no_wrap:
            lines.append(line)
            continue
        pieces = line.divide(break_offsets(line.plain, width, fold=overflow == "fold"))
        for piece in pieces:
            piece.rstrip_end(width)
            piece.truncate(width, overflow=overflow)
        lines.extend(pieces)
    return lines


def wrap_plain(text: str, width: int) -> list[str]:
    """:func:`wrap_text` for a plain string."""
    return [line.plain.rstrip() for line in wrap_text(Text(text), width)]


class Wrapped:
    """A text rendered in lines broken by :func:`break_offsets` instead of rich's rule."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # as Text renders itself: the lines joined, so each keeps its base style
        lines = wrap_text(self.text, options.max_width)
        yield from Text("\n").join(lines).render(console, end=self.text.end)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        plain = self.text.plain
        longest = max((cell_len(plain[s:e].rstrip()) for s, e in _tokens(plain)), default=0)
        widest = max((cell_len(line) for line in plain.splitlines()), default=0)
        return Measurement(min(longest, widest), widest)


def wrapped(content: RenderableType, markup: bool = True) -> RenderableType:
    """``content`` wrapped by the rule here when it is a text (a string read as markup
    unless ``markup`` is false) set to wrap from the left; anything else as it is."""
    if isinstance(content, str):
        content = Text.from_markup(content) if markup else Text(content)
    if isinstance(content, Text) and not content.no_wrap and content.justify in (
            None, "default", "left"):
        return Wrapped(content)
    return content

