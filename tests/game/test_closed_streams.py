"""Every command of ``python -m unitile_py`` (both games) and ``python -m pipeline`` with standard input
closed (``<&-``), standard output closed (``>&-``) and standard output on ``/dev/full``: one line on
standard error, exit status 2, no traceback.

The commands are read from the argument parsers, so a new command is covered without a change here.
Each runs with ``--help`` (which writes to standard output); a few also run for real, with the
arguments and input the issue's reports used.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.cli import _parser as pipeline_parser
from unitile_py.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120
#: How each case redirects the command's streams (in bash), and what its one line must say.
STREAMS = {
    "stdin closed": ("<&-", "standard input is closed"),
    "stdout closed": (">&-", "standard output is closed"),
    "stdout on /dev/full": (">/dev/full", "cannot write the output"),
}


def leaves(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The words of every command under ``parser`` (an alias once: its first name)."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path
        return
    seen: set[int] = set()
    for name, sub in subs[0].choices.items():
        if id(sub) not in seen:
            seen.add(id(sub))
            yield from leaves(sub, (*path, name))


COMMANDS = [("unitile_py", *words) for words in leaves(build_parser())] + [
    ("pipeline", *words) for words in leaves(pipeline_parser())
]

ND_RECORD = '[Board "3x3"]\n1. b2 c2 2. b3 c3 3. a2 *\n'
#: Real runs, beyond ``--help``: (module and arguments, standard input when it is not closed).
REAL = [
    (["unitile_py", "show", "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r"], None),
    (["unitile_py", "puzzles"], None),
    (["unitile_py", "review", "-"], '[Board "3x3"]\n1. b1 c1 2. c2 b2 3. b3 1-0\n'),
    (["unitile_py", "record", "-"], '[Board "3x3"]\n1. b1 c1 2. c2 b2 3. b3 1-0\n'),
    (["unitile_py", "analyze", "-"], "BRB/R.B/RBR r\n"),
    (["unitile_py", "nd", "show", ".../.../... r"], None),
    (["unitile_py", "nd", "analyze", "-"], ".../.../... r\n"),
    (["unitile_py", "nd", "legal", "-"], ".../.../... r\n"),
    (["unitile_py", "nd", "review", "-"], ND_RECORD),
    (["unitile_py", "nd", "record", "-"], ND_RECORD),
]


def run(words: list[str], redirect: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m WORDS REDIRECT`` in bash, which closes or redirects the stream for the child."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    line = shlex.join([sys.executable, "-m", *words])
    feed = {"input": stdin} if stdin is not None else {"stdin": subprocess.DEVNULL}
    return subprocess.run(["bash", "-c", f"exec {line} {redirect}"], capture_output=True, text=True,
                          timeout=TIMEOUT, env=env, cwd=ROOT, **feed)  # type: ignore[call-overload]


def one_line(done: subprocess.CompletedProcess[str], words: str) -> None:
    err = done.stderr.strip()
    assert done.returncode == 2, (done.returncode, err[-800:])
    assert "\n" not in err and "Traceback" not in err and words in err, err[-800:]


def test_every_command_is_listed() -> None:
    names = {c[:3] if c[1] == "naked-diagonal" else c[:2] for c in COMMANDS}
    assert ("unitile_py", "naked-diagonal", "review") in names and ("pipeline", "nd-prove") in names
    assert ("unitile_py", "play") in names and ("pipeline", "report") in names


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_with_a_stream_closed_or_full_is_one_line(command: tuple[str, ...],
                                                                  stream: str) -> None:
    redirect, words = STREAMS[stream]
    one_line(run([*command, "--help"], redirect), words)


@pytest.mark.parametrize("stream", STREAMS)
@pytest.mark.parametrize(("command", "stdin"), REAL, ids=lambda c: " ".join(c) if isinstance(c, list) else "")
def test_real_runs_with_a_stream_closed_or_full_are_one_line(command: list[str], stdin: str | None,
                                                             stream: str) -> None:
    redirect, words = STREAMS[stream]
    done = run(command, redirect, None if stream == "stdin closed" else stdin)
    one_line(done, words)
