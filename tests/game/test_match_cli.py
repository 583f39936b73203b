"""``match`` of both games: levels checked against the size before any game, ``--records`` checked
first and written game by game, Ctrl-C keeps the finished games."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from unitile_py.match_command import MAX_GAMES

ENV = {**os.environ, "PYTHONPATH": os.getcwd()}


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unitile_py", *args], capture_output=True, text=True,
                          timeout=60, env=ENV)


def test_nd_match_checks_the_levels_against_the_size_first() -> None:
    done = _run(["nd", "match", "--red", "1", "--blue", "6", "--size", "6", "--games", "3"])
    assert done.returncode == 2 and done.stdout == ""
    err = done.stderr.strip()
    assert err.count("\n") == 0 and "--blue 6: level 6 (perfect) plays on" in err, err


@pytest.mark.parametrize("game", [["match", "--board", "5x5"], ["nd", "match", "--size", "13"]])
def test_match_checks_records_before_the_games(game: list[str]) -> None:
    """An unwritable --records stops the command before its (here, very long) match starts."""
    done = _run([*game, "--red", "4", "--blue", "4", "--games", "100000", "--records", "/proc/i35.txt"])
    assert done.returncode == 2 and done.stdout == ""
    err = done.stderr.strip()
    assert err.count("\n") == 0 and err.startswith("error: --records /proc/i35.txt"), err


@pytest.mark.parametrize("game", [["match", "--board", "5x5"], ["nd", "match", "--size", "5"]])
def test_match_has_an_upper_bound_on_games(game: list[str]) -> None:
    """Found by a hostile user (issue 51): ``--games`` had no upper bound, and a match keeps every game
    until its summary. More than MAX_GAMES is one line before any game."""
    done = _run([*game, "--red", "1", "--blue", "1", "--games", str(MAX_GAMES + 1)])
    assert done.returncode == 2 and done.stdout == ""
    err = done.stderr.strip()
    assert err.count("\n") == 0 and f"--games {MAX_GAMES + 1}: at most {MAX_GAMES:,}" in err, err


@pytest.mark.parametrize("size", ["5x5", "5"])
def test_nd_match_refuses_a_position_of_another_size(size: str) -> None:
    """Found by a hostile user (issue 51): ``nd match --size 5x5 --position '.../.../... r'`` played 3x3
    silently (the web API refuses the mismatch). Now it is one line; a position without --size, or with
    its own, plays."""
    done = _run(["nd", "match", "--size", size, "--position", ".../.../... r", "--red", "1", "--blue", "1",
                 "--games", "1"])
    assert done.returncode == 2 and done.stdout == ""
    err = done.stderr.strip()
    assert err.count("\n") == 0 and f"--size {size}: the --position is on a 3x3 board" in err, err
    for same in ([], ["--size", "3x3"]):
        done = _run(["nd", "match", *same, "--position", ".../.../... r", "--red", "1", "--blue", "1",
                     "--games", "1"])
        assert done.returncode == 0, done.stderr


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child: Ctrl-C delivered as to a command typed at a terminal. A child inherits its parent's
    ignored signals and signal mask: in the whole suite's process (not alone) the command once let the
    SIGINT pass unanswered for a minute, so the child starts with SIGINT's default disposition (Python
    then installs its KeyboardInterrupt handler) and SIGINT unblocked."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_match_interrupted_keeps_the_finished_games(tmp_path: Path) -> None:
    records = tmp_path / "games.txt"
    proc = subprocess.Popen([sys.executable, "-m", "unitile_py", "nd", "match", "--size", "5", "--red", "1",
                             "--blue", "1", "--games", "100000", "--records", str(records)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
                            preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        deadline = time.monotonic() + 60
        while not (records.exists() and records.read_text().count("[Game ") >= 2):
            assert time.monotonic() < deadline and proc.poll() is None, "no game record written"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert err.strip().count("\n") == 0 and "finished games are in" in err
    from unitile_py.naked_diagonal.game import Game, parse_record

    texts = ["[Game " + part for part in records.read_text().split("[Game ")[1:]]
    assert len(texts) >= 2
    for text in texts:
        assert Game.from_record(parse_record(text)).winner() is not None
