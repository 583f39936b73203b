"""``python -m unitile_py analyze`` and the legal-only ``slides``, answered from the committed tables."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.game.unitile.oracle import oracle
from unitile_py.cli import main
from unitile_py.unitile import Board, Position, parse_position

ROOT = Path(__file__).resolve().parents[3]
START33 = "BRB/R.B/RBR r"
START55 = "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r"
HAS_5X5 = (ROOT / "tables" / "5x5" / "manifest.json").exists()


def test_analyze_json_equals_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    ref = oracle("3x3")
    board = ref.board
    assert main(["analyze", START33, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    p = parse_position(START33)
    assert out["legal"] == sorted(board.name(c) for c in ref.legal(p))
    assert (out["outcome"], out["distance"]) == ref.outcome(p)
    assert out["best"] == sorted(board.name(c) for c in ref.best(p))
    for cell in ref.legal(p):
        assert tuple(out["moves"][board.name(cell)].values()) == ref.after(p, cell)


def test_analyze_text_marks_the_best_slides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", START33]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "red to move loses in 5 plies with perfect play"
    starred = [line.split()[0] for line in lines[2:] if line.endswith("*")]
    assert starred == ["b3"] and len(lines) == 4


def test_analyze_reads_one_position_per_line(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [
        START33,
        "not a position",
        "BRBRB/RBRBR/BRBRR/BRBRB/RBRBR b",
        "BBB/B.R/RRR b",
        "",
        START33[:-1] + "b",
    ]
    proc = subprocess.run(
        [sys.executable, "-m", "unitile_py", "analyze", "-"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 2  # some lines were bad; the rest were answered
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 5
    assert out[0]["outcome"] == "loss" and out[0]["distance"] == 5
    assert "error" in out[1] and "error" in out[2]
    assert out[3] == {
        "position": "BBB/B.R/RRR b",
        "legal": [],
        "outcome": "loss",
        "distance": 0,
        "best": [],
        "moves": {},
    }
    ref = oracle("3x3")
    assert (out[4]["outcome"], out[4]["distance"]) == ref.outcome(parse_position(lines[5]))


@pytest.mark.skipif(not HAS_5X5, reason="tables/5x5 not built yet")
def test_slides_lists_only_legal_slides_after_c4(capsys: pytest.CaptureFixture[str]) -> None:
    board = Board.get(5, 5)
    after = str(Position.start(board).play(board.cell("c4")))
    assert main(["slides", after]) == 0
    slides = capsys.readouterr().out.split()
    assert len(slides) == 3 and "c3" not in slides and slides == sorted(slides)


@pytest.mark.skipif(not HAS_5X5, reason="tables/5x5 not built yet")
def test_analyze_5x5_start(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(START55 + "\n"))
    assert main(["analyze", "-"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == "loss" and out["distance"] > 10
    assert all(out["moves"][m]["outcome"] == "loss" for m in out["legal"])
    assert max(out["moves"][m]["distance"] for m in out["legal"]) == out["distance"]
