"""Every number on an odds sheet, read back from the SVG text, is the engine's exact value
after the stated rounding."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from raceday.games.derby.odds import exact_odds, format_odds, make_board, pair_name
from raceday.games.derby.rules import POSTS, horse_name
from raceday.games.keirin.betting import format_odds as keirin_format
from raceday.games.keirin.betting import quoted_odds
from raceday.games.keirin.odds import BET_TYPES, race_odds
from raceday.games.keirin.rules import KeirinOptions
from tests.printing.conftest import NS, pages_of, parse, texts, with_class


@pytest.mark.parametrize(("riders", "margin"), [(6, None), (7, "0.15"), (8, "0.05"),
                                                (9, "0.2")])
def test_keirin_sheet_prints_every_bet_at_the_engines_price(riders: int,
                                                            margin: str | None) -> None:
    documents = pages_of("keirin", "odds", riders=riders, margin=margin)
    printed: dict[str, dict[str, str]] = {kind: {} for kind in BET_TYPES}
    for document in documents:
        for entry in with_class(parse(document), "entry"):
            combo, price = texts(entry)
            assert combo not in printed[entry.get("data-bet", "")]
            printed[entry.get("data-bet", "")][combo] = price
    odds = race_odds(KeirinOptions.parse({"riders": riders}))
    for kind in BET_TYPES:
        joiner = "-" if kind in ("exacta", "trifecta") else "="
        expected = {}
        for combo, p in odds.bet(kind).items():
            quoted = quoted_odds(p, float(margin or 0))
            expected[joiner.join(map(str, combo))] = keirin_format(quoted) if quoted else "-"
        assert printed[kind] == expected, kind
    size = {"win": riders, "exacta": riders * (riders - 1), "quinella": riders * (riders - 1) // 2,
            "trifecta": riders * (riders - 1) * (riders - 2),
            "trio": len(list(itertools.combinations(range(riders), 3)))}
    assert {k: len(v) for k, v in printed.items()} == size


def test_keirin_sheet_states_its_rounding_and_options() -> None:
    root = parse(pages_of("keirin", "odds", riders=7, margin="0.15", length=60)[0])
    header = " ".join(texts(root))
    assert "7 riders" in header and "margin 0.15" in header and "rounded down to 0.01" in header
    assert "finish 60 squares" in header


def _rows(root_group: object) -> list[list[str]]:
    """Cells of a printed table grouped by row (same baseline)."""
    rows: dict[float, list[str]] = {}
    for t in root_group.iter(f"{NS}text"):  # type: ignore[attr-defined]
        if t.get("class") == "cell":
            rows.setdefault(float(t.get("y")), []).append(t.text or "")
    return [rows[y] for y in sorted(rows)]


@pytest.mark.parametrize(("margin", "fall_rate"), [(None, None), ("0", None), ("0.25", "1/20"),
                                                   ("0.5", "0.5")])
def test_derby_whiteboard_is_the_engines_board(margin: str | None, fall_rate: str | None
                                               ) -> None:
    (document,) = pages_of("derby", "odds", margin=margin, fall_rate=fall_rate)
    root = parse(document)
    m = Fraction(margin or "0.1")
    rate = Fraction(fall_rate or "0")
    exact = exact_odds(rate)
    board, simple = make_board(exact, m), make_board(exact, m, simple=True)
    (win_table,) = with_class(root, "odds-win")
    expected_win = []
    for h in POSTS:
        bonus = make_board(exact, m, first_out_counts={h: 1}).win[h]
        bonus_simple = make_board(exact, m, simple=True, first_out_counts={h: 1}).win[h]
        expected_win.append([str(h), horse_name(h), f"{float(exact.win[h]) * 100:.2f}%",
                             format_odds(board.win[h]), format_odds(simple.win[h]),
                             format_odds(bonus), format_odds(bonus_simple)])
    assert _rows(win_table) == expected_win
    quinella_rows = [row for t in with_class(root, "odds-quinella") for row in _rows(t)]
    expected_q = [[pair_name(pr), f"{float(exact.quinella[pr]) * 100:.2f}%",
                   format_odds(board.quinella[pr]), format_odds(simple.quinella[pr])]
                  for pr in sorted(exact.quinella)]
    assert quinella_rows == expected_q
    assert len(quinella_rows) == 15
    header = " ".join(texts(root))
    assert f"margin {float(m):g}" in header and f"fall rate {float(rate):g}" in header


def test_derby_bonus_column_is_one_and_a_half_times_the_board_rounded_half_up() -> None:
    (document,) = pages_of("derby", "odds")
    rows = _rows(with_class(parse(document), "odds-win")[0])
    for row in rows:
        price, bonus = Fraction(row[3]), Fraction(row[5])
        assert bonus == Fraction(int(price * 15 + Fraction(1, 2)), 10)
