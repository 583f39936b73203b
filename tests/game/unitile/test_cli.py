"""The command line: output, and one-line errors with exit status 2 for malformed input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from unitile_py.cli import main

START = "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r"


def test_show(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", START]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "groups: red 10, blue 10"
    assert "3 B R . B R" in out and "red to move" in out


def test_show_after_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", START, "c4", "d4"]) == 0
    assert "4 R B B . R" in capsys.readouterr().out


def test_slides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["slides", START]) == 0
    assert capsys.readouterr().out.split() == ["b3", "c2", "c4", "d3"]


def test_record_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.txt"
    path.write_text('[Red "Ann"]\n1. c4 d4 *\n')
    assert main(["record", str(path)]) == 0
    assert capsys.readouterr().out.startswith('[Red "Ann"]\n1. c4 d4 *\n')


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["show", "BRBRB/RBRBR/BR.BR/BRBRB/RBRB r"], "row 5 has 4 cells"),
        (["show", "BRBRB/RBRBR/BRRBR/BRBRB/RBRBR r"], "no empty cell"),
        (["slides", "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR q"], "side to move"),
        (["show", START, "c4", "a1"], "ply 2, a1: not next to the bubble"),
        (["show", START, "c4", "c3"], "ply 2, c3: neither unites a colour nor lowers the sum of the two"),
        (["show", START, "c4", "c²"], "ply 2: move 'c²': expected a file letter"),
        (["show", "BRBRBRB/RBRBRBR/BRB.RBR r", "d2"], "no lookup tables"),
        (["record", "/no/such/file"], "No such file"),
        (["analyze", "BRBRBRB/RBRBRBR/BRB.RBR r"], "manifest.json is missing"),
        (["slides", "BRBRBRB/RBRBRBR/BRB.RBR r"], "manifest.json is missing"),
        (["analyze", "BRB/R.B/RBR x"], "side to move"),
        (["analyze", "BRB/R.B/RBR r", "--tables", "/no/such/dir"], "manifest.json is missing"),
    ],
)
def test_errors_are_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_record_through_a_real_process(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("1. c4 d4 2. a1 *\n")
    done = subprocess.run(
        [sys.executable, "-m", "unitile_py", "record", str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"error: {path}: record: ply 3, a1: not next to the bubble"
    assert done.stdout == ""


def test_the_value_rule_is_checked_by_record_and_show() -> None:
    """Blue's c3 after c4 slides the tile straight back: it does not lower r + b (the tables say so)."""
    record = subprocess.run(
        [sys.executable, "-m", "unitile_py", "record", "-"],
        input="1. c4 c3 *\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert record.returncode == 2 and record.stdout == ""
    not_lower = "neither unites a colour nor lowers the sum of the two values"
    assert record.stderr == f"error: -: ply 2, c3: {not_lower}\n"
    show = subprocess.run(
        [sys.executable, "-m", "unitile_py", "show", START, "c4", "c3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert show.returncode == 2 and show.stdout == ""
    assert show.stderr == f"error: ply 2, c3: {not_lower}\n"


def test_adjacent_only_records_on_boards_without_tables(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "g.txt"
    path.write_text('[Board "3x7"]\n1. d3 c3 *\n')
    assert main(["record", str(path)]) == 2
    assert "no lookup tables" in capsys.readouterr().err
    assert main(["record", "--adjacent-only", str(path)]) == 0
    assert capsys.readouterr().out.startswith('[Board "3x7"]\n1. d3 c3 *\n')


def test_slides_are_the_legal_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["slides", "BRBRB/RB.BR/BRRBR/BRBRB/RBRBR b"]) == 0
    assert capsys.readouterr().out.split() == ["b4", "c5", "d4"]
