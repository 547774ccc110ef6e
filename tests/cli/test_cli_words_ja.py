"""The command's own lines speak the command line's language (--lang ja, else a Japanese
locale, else English): the error prefix, and a refusal that carries its message key (a
saved game that is not there, a name already taken) — worded from the same tables as the
browser."""

from __future__ import annotations

import pytest

from raceday.cli.main import run


@pytest.fixture
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)


@pytest.mark.parametrize("game", ["keirin", "derby", "hairpin"])
def test_a_missing_save_is_refused_in_japanese_with_lang_ja(capsys, tmp_path, english_locale,
                                                            game) -> None:
    code = run([game, "play", "--resume", "nosuch", "--db", str(tmp_path / "s.sqlite"),
                "--lang", "ja"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("エラー：") and "「nosuch」はありません" in err
    assert "保存済み：なし" in err and "error:" not in err and "no saved" not in err


def test_a_japanese_locale_words_it_without_lang(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    code = run(["keirin", "play", "--resume", "nosuch", "--db", str(tmp_path / "s.sqlite")])
    assert code == 2 and "「nosuch」はありません" in capsys.readouterr().err


def test_the_same_refusal_stays_english_otherwise(capsys, tmp_path, english_locale) -> None:
    code = run(["keirin", "play", "--resume", "nosuch", "--db", str(tmp_path / "s.sqlite")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: no saved keirin session named 'nosuch' (saved: none)")
