"""The ledger of decided lines (pipeline/naked_diagonal/ledger.py) through ``nd-prove``: every decided line
is written with its checksum, a rerun searches none of them, a changed file is reported in one line and
its line searched again, ``--commit`` commits each file alone, and a bad ``--ledger`` is one line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pipeline.naked_diagonal import cli as nd_cli
from pipeline.naked_diagonal.ledger import check_entry, default_ledger, read_ledger

#: The 3x3 tables' results of the first placements (tables/naked-diagonal/3x3): Red wins the empty board.
PROVE = ["nd-prove", "--board", "3x3", "--in-process", "--no-store"]


def prove(ledger: Path, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[dict[str, object], str]:
    assert nd_cli.main([*PROVE, "--ledger", str(ledger), *more]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def test_decided_lines_are_kept_and_not_searched_again(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    ledger = tmp_path / "ledger"
    first, err = prove(ledger, capsys)
    assert first["empty_board"] == "win" and "lines decided" in err
    files = sorted(ledger.glob("*.json"))
    assert [f.name for f in files] == sorted(f"{'-'.join(t['line'])}.json" for t in first["tasks"])
    entries = read_ledger(ledger, 3, print)
    assert len(entries) == len(files) == 4  # the 9 first placements up to the four maps
    for name, entry in entries.items():
        assert check_entry(entry, 3, name) is None and entry["search"]["search"] == "dfpn"
    again, err = prove(ledger, capsys)
    assert again["first_placements"] == first["first_placements"]
    assert all(t.get("recorded") for t in again["tasks"]) and err.count("recorded in the ledger") == 4
    assert sum(t["nodes"] for t in again["tasks"]) == sum(t["nodes"] for t in first["tasks"])


def test_a_changed_entry_is_one_line_and_searched_again(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    ledger = tmp_path / "ledger"
    first, _ = prove(ledger, capsys)
    victim = sorted(ledger.glob("*.json"))[0]
    data = json.loads(victim.read_text())
    data["wins"] = not data["wins"]  # a lie whose checksum was not updated
    victim.write_text(json.dumps(data))
    (ledger / "c2.json").write_text('{"format": 1')  # cut short
    again, err = prove(ledger, capsys)
    assert again["first_placements"] == first["first_placements"]
    warnings = [line for line in err.splitlines() if line.startswith("warning: ledger")]
    assert len(warnings) == 2 and "sha256" in " ".join(warnings) and "unreadable" in " ".join(warnings)
    assert check_entry(json.loads(victim.read_text()), 3, victim.stem) is None  # written anew, sound


def test_commit_commits_each_entry_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout

    git("init", "-q")
    git("config", "user.email", "test@example.org")
    git("config", "user.name", "test")
    (repo / "staged.txt").write_text("not the ledger's\n")
    git("add", "staged.txt")
    first, _ = prove(repo / "progress", capsys, "--commit")
    log = git("log", "--format=%s").splitlines()
    assert len(log) == len(first["tasks"]) and all(m.startswith("nd-prove 3x3: ") for m in log)
    assert "A  staged.txt" in git("status", "--short")  # still staged, not committed
    committed = git("ls-tree", "-r", "--name-only", "HEAD").split()
    assert sorted(committed) == sorted(f"progress/{'-'.join(t['line'])}.json" for t in first["tasks"])


def test_a_ledger_that_is_not_a_folder_is_one_line(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    afile = tmp_path / "file"
    afile.write_text("x")
    assert nd_cli.main([*PROVE, "--ledger", str(afile)]) == 2
    alphabeta = ["nd-prove", "--board", "3x3", "--in-process", "--search", "alphabeta", "--commit"]
    assert nd_cli.main(alphabeta) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "not a folder" in err[0] and "--commit" in err[1]
    assert afile.read_text() == "x"


def test_the_default_ledger_is_in_the_tables_but_not_a_size_folder() -> None:
    folder = default_ledger(6)
    assert folder.parts[-3:] == ("naked-diagonal", "progress", "6x6")
    assert not (folder.parent / "manifest.json").exists()
