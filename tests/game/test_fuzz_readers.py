"""Issue 51, the readers' fuzzer: hypothesis damages copies of the project's own files and reads them back
with every reader of them: Unitile's tables (3x3), Naked Diagonal's tables (3x3), its strategy folder
(5x5, ``Strategy.load``) and the puzzle file (3x3), each folder's ``manifest.json`` among them. The damage
is a random truncation, a bit flip, or a field changed and re-signed (its checksum recomputed: a data file
with its manifest's size and sha256, a manifest's field, which no checksum covers, or a puzzle with the
file's ``puzzles_sha256``). Every read ends, within :data:`LIMIT` seconds, either in one line of the
project's error class or in a reader that answers exactly what the undamaged files answer: no traceback,
no hang, no answer from damaged data. Seeded (derandomized); the committed tables are only copied."""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unitile_py import puzzles
from unitile_py.errors import GameError
from unitile_py.naked_diagonal import legality
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.position import Position as NDPosition
from unitile_py.naked_diagonal.puzzle_check import puzzle_check as nd_puzzle_check
from unitile_py.naked_diagonal.strategy import Strategy, answers_digest
from unitile_py.naked_diagonal.tables import NDTables
from unitile_py.unitile import Board, Position
from unitile_py.unitile.tables import Tables

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "tables"
#: Seconds a read may take before it counts as a hang (the slowest, the 5x5 strategy, takes well under 1).
LIMIT = 20.0


class Hang(Exception):
    """A read that did not end within :data:`LIMIT` seconds."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in this (the main) thread after ``seconds`` of wall time; a timer already
    set (pytest-timeout's) is set again afterwards, less the time spent here."""

    def ring(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer in {seconds} s")

    before = signal.signal(signal.SIGALRM, ring)
    began = time.monotonic()
    outer, interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
        if outer > 0:
            signal.setitimer(signal.ITIMER_REAL, max(0.001, outer - (time.monotonic() - began)), interval)


# Answers of each reader -------------------------------------------------------------------------------


def unitile_answers(folder: Path) -> Any:
    tables = Tables.load("3x3", folder)
    board = Board.get(3, 3)
    out = []
    for i in range(0, board.positions, 5):
        for turn in "rb":
            p = Position.from_index(board, i, turn)
            out.append((tables.legal(p), tables.best(p), p.winner() or tables.outcome(p)))
    return out


def nd_positions(n: int, count: int, seed: int) -> list[NDPosition]:
    """Positions of seeded random games on n x n (the same every run)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        p = NDPosition.empty(n)
        while p.winner() is None and len(out) < count:
            out.append(p)
            legal = list(Grid.points(legality.legal_mask(p, p.turn)))
            if not legal:
                break
            p = p.place(rng.choice(legal), p.turn).with_turn("b" if p.turn == "r" else "r")
    return out


ND_POSITIONS = nd_positions(3, 40, 3)
STRATEGY_POSITIONS = nd_positions(5, 60, 5)


def nd_table_answers(folder: Path) -> Any:
    tables = NDTables.load(3, folder)
    return [(tables.outcome(p), tables.moves(p)) for p in ND_POSITIONS]


def strategy_answers(folder: Path) -> Any:
    strategy = Strategy.load(None, folder)
    return (strategy.n, strategy.winner, len(strategy), strategy.bounded,
            [strategy.move_for(p) for p in STRATEGY_POSITIONS])


def puzzle_answers(folder: Path) -> Any:
    """The puzzles as the commands read them: each checked against the rules and the committed tables."""
    found = puzzles.load("naked-diagonal", "3x3", folder.parent, check=nd_puzzle_check(3))
    return [p.plain() for p in found.puzzles]


@dataclass(frozen=True)
class Reader:
    """A reader of one folder of the project's files: what to copy, and its answers from a copy."""

    name: str
    source: Path
    answers: Callable[[Path], Any]
    #: The files of the folder it reads (the manifest among them).
    files: tuple[str, ...]


READERS = [
    Reader("unitile tables 3x3", TABLES / "3x3", unitile_answers,
           tuple(sorted(p.name for p in (TABLES / "3x3").iterdir()))),
    Reader("naked-diagonal tables 3x3", TABLES / "naked-diagonal" / "3x3", nd_table_answers,
           tuple(sorted(p.name for p in (TABLES / "naked-diagonal" / "3x3").iterdir()))),
    Reader("naked-diagonal strategy 5x5", TABLES / "naked-diagonal" / "5x5", strategy_answers,
           ("manifest.json", "strategy.bin")),
    Reader("puzzles naked-diagonal 3x3", TABLES / "puzzles", puzzle_answers, ("naked-diagonal-3x3.json",)),
]
#: What each reader answers from the committed files.
PRISTINE = {r.name: r.answers(r.source) for r in READERS}


# Damage -------------------------------------------------------------------------------------------------


def resign(folder: Path, name: str) -> None:
    """Make a manifest's size and sha256 of ``name`` (and of a puzzle file, its ``puzzles_sha256``) agree
    with the file's bytes, as a careful forger would."""
    manifest = folder / "manifest.json"
    if manifest.is_file() and name != "manifest.json":
        data = json.loads(manifest.read_text())
        body = (folder / name).read_bytes()
        data["files"][name] = {"bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}
        manifest.write_text(json.dumps(data, indent=1))
    if name.endswith(".json") and name != "manifest.json":
        data = json.loads((folder / name).read_text())
        data["puzzles_sha256"] = puzzles.digest(data["puzzles"])
        (folder / name).write_text(puzzles.serialise(data))


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths of the scalar values of a JSON value."""
    if isinstance(value, dict):
        return [q for k in sorted(value) for q in leaves(value[k], (*path, k))]
    if isinstance(value, list):
        return [q for i, v in enumerate(value) for q in leaves(v, (*path, i))] or [path]
    return [path]


#: What a field may be changed to (its old value given).
CHANGES: list[Callable[[Any], Any]] = [
    lambda v: not v if isinstance(v, bool) else v + 1 if isinstance(v, int) else v,
    lambda v: -5,
    lambda v: 10**12,
    lambda v: "yes",
    lambda v: None,
    lambda v: [],
    lambda v: {},
    lambda v: str(v)[::-1],
    lambda v: v - 1 if isinstance(v, int) and not isinstance(v, bool) else 1.5,
]


def change_field(folder: Path, name: str, pick: int, how: int, entries: bool) -> bool:
    """Change one field of a JSON file (its ``pick``-th leaf, by :data:`CHANGES`\\ ``[how]``) and
    re-sign it; False when the change changes nothing. In a puzzle file, a field of a puzzle when
    ``entries``, else one of the file's other fields."""
    data = json.loads((folder / name).read_text())
    paths = [q for q in leaves(data) if name == "manifest.json" or (q[:1] == ("puzzles",)) == entries]
    path = paths[pick % len(paths)] if paths else ()
    if not path:
        return False
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    old = parent[path[-1]]
    new = CHANGES[how % len(CHANGES)](old)
    if new == old and type(new) is type(old):
        return False
    parent[path[-1]] = new
    (folder / name).write_text(json.dumps(data, indent=1))
    if name != "manifest.json":
        resign(folder, name)
    return True


@dataclass(frozen=True)
class Damage:
    """One damage to one file of a reader's folder."""

    kind: str
    file: int
    at: int
    how: int

    def apply(self, reader: Reader, folder: Path, entries: bool = False) -> bool:
        """Damage the copy ``folder``; False when the bytes are unchanged (nothing to test). ``entries``:
        a field changed in a puzzle file is a puzzle's."""
        name = reader.files[self.file % len(reader.files)]
        path = folder / name
        body = path.read_bytes()
        if self.kind == "truncate":
            path.write_bytes(body[:self.at % max(1, len(body))])
            return len(body) > 0
        if self.kind == "field" and name.endswith(".json"):
            return change_field(folder, name, self.at, self.how, entries)
        # A flip; as a changed field of a data file, its size and sha256 in the manifest made to agree.
        flipped = bytearray(body)
        if not flipped:
            return False
        flipped[self.at % len(flipped)] ^= 1 << (self.how % 8)
        path.write_bytes(bytes(flipped))
        if self.kind == "field":
            resign(folder, name)
        return True


DAMAGE = st.builds(Damage, st.sampled_from(["truncate", "flip", "field"]), st.integers(0, 50),
                   st.integers(0, 1 << 24), st.integers(0, 63))


def copy_of(reader: Reader, into: Path) -> Path:
    folder = into / reader.source.name
    shutil.copytree(reader.source, folder)
    return folder


def read_damaged(reader: Reader, damage: Damage, entries: bool = False) -> None:
    """Read a damaged copy: one line of the project's errors, or exactly the undamaged answers."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = copy_of(reader, Path(tmp))
        if not damage.apply(reader, folder, entries):
            return
        try:
            with time_limit(LIMIT):
                got = reader.answers(folder)
        except GameError as exc:
            text = str(exc)
            assert text and "\n" not in text and "Traceback" not in text, text
            return
        assert got == PRISTINE[reader.name], f"{reader.name}: an answer from damaged data ({damage})"


@pytest.mark.parametrize("reader", READERS, ids=[r.name for r in READERS])
@settings(max_examples=80, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(damage=DAMAGE)
def test_a_damaged_copy_is_refused_in_one_line_or_answers_as_the_original(reader: Reader,
                                                                          damage: Damage) -> None:
    read_damaged(reader, damage)


def test_the_time_limit_stops_a_hang_and_keeps_the_outer_timer() -> None:
    before = signal.setitimer(signal.ITIMER_REAL, 0)
    kept = signal.signal(signal.SIGALRM, signal.SIG_IGN)
    try:
        signal.setitimer(signal.ITIMER_REAL, 500.0)
        with pytest.raises(Hang), time_limit(0.05):
            while True:
                pass
        assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 500.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, kept)
        if before[0] > 0:
            signal.setitimer(signal.ITIMER_REAL, *before)


def test_a_strategy_manifests_outcome_changed_is_refused(tmp_path: Path) -> None:
    folder = copy_of(READERS[2], tmp_path)
    data = json.loads((folder / "manifest.json").read_text())
    data["empty_board"] = "loss" if data.get("empty_board") == "win" else "win"
    (folder / "manifest.json").write_text(json.dumps(data, indent=1))
    with pytest.raises(GameError, match="answers_sha256"):
        Strategy.load(None, folder)
    data["answers_sha256"] = answers_digest(data)  # re-signed: the winner still contradicts it
    (folder / "manifest.json").write_text(json.dumps(data, indent=1))
    with pytest.raises(GameError, match="contradicts the winner"):
        Strategy.load(None, folder)


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(damage=st.builds(Damage, st.just("field"), st.just(0), st.integers(0, 1 << 24), st.integers(0, 63)))
def test_a_resigned_puzzle_is_refused_in_one_line_or_answers_as_the_original(damage: Damage) -> None:
    read_damaged(READERS[3], damage, entries=True)
