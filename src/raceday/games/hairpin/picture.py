"""A Hairpin Racers board drawn from the state's frame (:meth:`HairpinState.frame`): Rich
markup for the terminal and the same picture as plain text (:func:`text_picture`). It
reads only the frame, so the rules never depend on how a board is drawn. The words come from the
game's message tables, so ``lang="ja"`` draws the same board in Japanese."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape

from raceday.core.events import Message
from raceday.present import render

if TYPE_CHECKING:
    from raceday.games.hairpin.rules import HairpinState

Frame = dict[str, Any]
RED, BLACK = 0, 1
RED_STYLE = "bold white on red"
BLACK_STYLE = "bold white on grey15"
# The direction Red travels on each row (Black travels the other way).
RED_ARROWS = {0: "→", 1: "←", 2: "→"}
ARROW_LEGEND = "arrows: direction of travel, Red's on the right, Black's on the left"


def words(key: str, lang: str, **params: Any) -> str:
    """One of Hairpin's terminal words (``games/hairpin/messages``) in ``lang``."""
    return render(key, lang, game="hairpin", params=params)


def side_name(side: int, lang: str = "en") -> str:
    """Red or Black, as the board's counters name them."""
    return words("hp_red" if side == RED else "hp_black", lang)


def _cell(count: int) -> str:
    if count == 0:
        return "[dim] ·  [/]"
    style = RED_STYLE if count > 0 else BLACK_STYLE
    letter = "R" if count > 0 else "B"
    n = abs(count)
    label = f"{letter}{n}" if n > 1 else f"{letter} "
    return f"[{style}] {label} [/]"


def board_markup(frame: Frame, lang: str = "en") -> str:
    """The board with row 3 on top, Red's direction of travel on the right, Black's on
    the left, and the finish line between f3 and a1 marked."""
    columns, cells = frame["columns"], frame["cells"]
    width = len(columns)
    lines = ["      " + "   ".join(f" {c}" for c in columns)]
    for row in range(frame["rows"] - 1, -1, -1):
        line = " ".join(_cell(cells[row * width + col]) for col in range(width))
        red_arrow = RED_ARROWS[row]
        black_arrow = "←" if red_arrow == "→" else "→"
        lines.append(f" [dim]{black_arrow}[/] {row + 1}  {line}  [dim]{red_arrow}[/]")
    lines.append(f"      [dim]{escape(words('term.finish_line', lang))}[/]")
    lines.append(f"      [dim]{escape(words('term.arrows', lang))}[/]")
    return "\n".join(lines)


def side_counters(frame: Frame, side: int, lang: str = "en") -> str:
    """One side's laps, bumps and pit (plain text)."""
    target = frame["target"]
    laps = (words("hp_laps_free", lang, n=frame["laps"][side]) if frame["derby"]
            else words("hp_laps", lang, n=frame["laps"][side], of=target))
    bumps = (words("hp_bumps", lang, n=frame["bumps"][side], of=target) if frame["bumping"]
             else words("hp_no_bumping", lang))
    pit = f"  {words('hp_pit', lang, n=frame['pit'][side])}" if frame["pit"][side] else ""
    return f"{laps}  {bumps}{pit}"


def clock_counters(frame: Frame, lang: str = "en") -> str:
    """The ply, and the quiet clock of the derby (plain text)."""
    clock = (f"   {words('term.quiet', lang, n=frame['clock'], of=frame['quiet_limit'])}"
             if frame["derby"] else "")
    return words("term.ply", lang, n=frame["ply"]) + clock


def counters_markup(frame: Frame, lang: str = "en") -> str:
    """Laps, bumps and pit for both players, against the variant's targets."""
    parts = []
    for p, style in ((RED, RED_STYLE), (BLACK, BLACK_STYLE)):
        parts.append(f"[{style}] {escape(side_name(p, lang))} [/] "
                     f"{escape(side_counters(frame, p, lang))}")
    return "   ".join(parts) + f"   {escape(clock_counters(frame, lang))}"


def result_words(frame: Frame, lang: str = "en") -> str | None:
    """The result in words once the game is over (None before)."""
    result = frame["result"]
    if result is None:
        return None
    return render(Message(result["key"], result["params"]), lang, "hairpin")


def frame_markup(frame: Frame, lang: str = "en") -> str:
    """Board, counters, and who is to move or the result."""
    text = board_markup(frame, lang) + "\n" + counters_markup(frame, lang)
    over = result_words(frame, lang)
    if over is not None:
        text += f"\n[bold]{escape(words('term.game_over', lang))}[/] {escape(over)}"
    elif frame["to_move"] is not None:
        side = words("term.to_move", lang, side=side_name(frame["to_move"], lang))
        text += f"\n{escape(side)}   [dim]{escape(frame['text'])}[/]"
    return text


def frame_text(frame: Frame, lang: str = "en") -> str:
    """The same picture as plain text."""
    from rich.text import Text

    return Text.from_markup(frame_markup(frame, lang)).plain


def text_picture(state: HairpinState, lang: str = "en") -> str:
    """The state's picture as plain text: board, counters and who moves (the game's
    ``picture`` face, :func:`raceday.present.pictures.text_picture`)."""
    return frame_text(state.frame(), lang)
