"""``raceday print``: outputs (PDF, SVG pages, a folder) and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from raceday.cli.main import run


def test_pdf_has_one_page_per_svg_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    pdf, folder = tmp_path / "hairpin.pdf", tmp_path / "pages"
    folder.mkdir()
    assert run(["print", "hairpin", "--out", str(pdf)]) == 0
    assert run(["print", "hairpin", "--out", str(folder)]) == 0
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-")
    assert data.count(b"/Type /Page") - data.count(b"/Type /Pages") == 2
    assert sorted(p.name for p in folder.iterdir()) == ["hairpin-01.svg", "hairpin-02.svg"]
    assert "wrote 2 pages to" in capsys.readouterr().out


def test_svg_name_is_numbered(tmp_path: Path) -> None:
    assert run(["print", "keirin", "track", "--out", str(tmp_path / "oval.svg")]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["oval-01.svg", "oval-02.svg"]


def test_default_output_is_a_pdf_in_the_current_folder(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(["print", "derby", "odds", "--paper", "letter"]) == 0
    assert (tmp_path / "derby-odds.pdf").read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize(("argv", "message"), [
    (["print", "chess"], "unknown game 'chess'"),
    (["print", "keirin", "board"], "keirin has no printed part 'board'"),
    (["print", "hairpin", "--paper", "a3"], "--paper must be one of a4, letter"),
    (["print", "hairpin", "--margin", "0.1"], "--margin does not apply to hairpin"),
    (["print", "derby", "scores", "--margin", "0.1"], "--margin does not apply to derby scores"),
    (["print", "keirin", "odds", "--margin", "1"], "--margin must be at least 0 and below 1"),
    (["print", "keirin", "odds", "--margin", "nan"], "--margin must be at least 0"),
    (["print", "derby", "odds", "--margin", "0.7"], "margin must be between 0 and 0.5"),
    (["print", "derby", "odds", "--fall-rate", "2"], "fall rate must be between 0 and 1/2"),
    (["print", "keirin", "slip", "--riders", "10"], "must be 6 to 9"),
    (["print", "pistard", "track", "--track", "nowhere.toml"], "neither a shipped track"),
    (["print", "wielersim", "schedule", "--route", "nowhere.toml"], "nowhere.toml"),
    (["print", "wielersim", "riders", "--peloton", "missing.csv"], "missing.csv"),
    (["print", "hairpin", "--out", "pages.png"], "--out must end in .pdf or .svg"),
    (["print", "hairpin", "--out", "no/such/folder/x.pdf"], "does not exist"),
])
def test_bad_input_is_one_line_with_exit_code_2(argv: list[str], message: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert message in " ".join(err.split()), err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_bad_track_file_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nrows = ["YGBR"]\n', encoding="utf-8")
    assert run(["print", "pistard", "track", "--track", str(bad), "--out",
                str(tmp_path / "t.pdf")]) == 2
    assert "lanes" in capsys.readouterr().err
    assert not (tmp_path / "t.pdf").exists()


def test_print_is_listed_without_importing_the_printing_code() -> None:
    import subprocess
    import sys

    code = ("import sys; from raceday.cli.main import run; run(['--help']); "
            "print('LOADED' if any(m.startswith(('raceday.printing', 'reportlab', 'svglib')) "
            "for m in sys.modules) else 'LIGHT')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "print" in out and out.strip().endswith("LIGHT")
