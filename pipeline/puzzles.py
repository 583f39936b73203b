"""Choosing puzzles, for both games: a seeded, varied set from every position that qualifies, written to a
small checked file (:mod:`unitile_py.puzzles` reads it; the format is in docs/puzzles.md).

Each game's scan (:mod:`pipeline.unitile.puzzles`, :mod:`pipeline.naked_diagonal.puzzles`) finds the
positions with Red to move that have exactly one winning move and gives them as :class:`Candidates`,
grouped by distance. :func:`choose` then takes up to ``per_band`` puzzles per grade
(:data:`unitile_py.puzzles.BANDS`), going round the distances of the grade (so that a grade is not all
of its commonest distance), each distance's candidates in an order drawn from the seed, and skipping a
near duplicate: a position whose symmetry class (:attr:`Candidates.key`) is that of a puzzle already
taken or of a position near one (:attr:`Candidates.near`: up to two moves before or after it on a line
of play), or near which a puzzle already taken lies. :func:`write` writes the file atomically.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unitile_py.errors import GameError
from unitile_py.puzzles import BANDS, FORMAT, digest, file_name, grade_of, serialise

from .arguments import at_least

#: Where the puzzle files go unless told (beside the tables; the site ships them).
DEFAULT_FOLDER = Path(__file__).resolve().parents[1] / "tables" / "puzzles"
#: Most candidates looked at per puzzle wanted before a grade is left short (a safety net: near duplicates
#: are rare among millions of candidates).
TRIES_PER_PUZZLE = 200


@dataclass(frozen=True)
class Candidates:
    """What a game's scan gives :func:`choose`.

    ``by_distance[d]`` is the number of qualifying positions at distance ``d``; ``item(d, i)`` the
    ``i``-th of them as ``(position text, solution name)``; ``key(d, i)`` its symmetry class;
    ``near(d, i)`` the classes of the positions within two moves of it on a line of play (its own too).
    """

    by_distance: dict[int, int]
    item: Callable[[int, int], tuple[str, str]]
    key: Callable[[int, int], Hashable]
    near: Callable[[int, int], Iterable[Hashable]]


def _order(n: int, rng: random.Random) -> Iterator[int]:
    """The numbers ``0 .. n-1`` in an order drawn from ``rng``, lazily (without a list of ``n`` numbers
    when ``n`` is large)."""
    if n <= 1 << 16:
        order = list(range(n))
        rng.shuffle(order)
        yield from order
        return
    seen: set[int] = set()
    while len(seen) < n:
        i = rng.randrange(n)
        if i not in seen:
            seen.add(i)
            yield i


def puzzle_arguments(p: argparse.ArgumentParser) -> None:
    """The options of both games' puzzle commands (``puzzles``, ``nd-puzzles``)."""
    p.add_argument("--seed", type=at_least(0), default=1, help="the seed of the choice (default 1)")
    p.add_argument("--per-band", type=at_least(1), default=20, help="puzzles per grade (default 20)")
    p.add_argument("--out", metavar="DIR", help="the folder of the puzzle file (default tables/puzzles)")
    p.add_argument("--quiet", action="store_true", help="say nothing on standard error")


def choose(candidates: Candidates, per_band: int, seed: int) -> list[dict[str, Any]]:
    """Up to ``per_band`` puzzles per grade, as the file holds them, sorted by distance then position."""
    rng = random.Random(seed)
    taken: set[Hashable] = set()  # the classes of the puzzles taken
    around: set[Hashable] = set()  # and of the positions near them
    out: list[dict[str, Any]] = []
    for grade, first, last in BANDS:
        distances = sorted(d for d, n in candidates.by_distance.items()
                           if n and d >= first and (last is None or d <= last))  # fmt: skip
        orders = {d: _order(candidates.by_distance[d], random.Random(rng.getrandbits(64))) for d in distances}
        chosen = 0
        tries = 0
        while chosen < per_band and orders and tries < per_band * TRIES_PER_PUZZLE:
            for d in list(orders):
                if chosen >= per_band:
                    break
                i = next(orders[d], None)
                if i is None:
                    del orders[d]
                    continue
                tries += 1
                key = candidates.key(d, i)
                if key in around or any(k in taken for k in candidates.near(d, i)):
                    continue
                taken.add(key)
                around.update(candidates.near(d, i))
                position, solution = candidates.item(d, i)
                out.append({"position": position, "solution": solution, "distance": d, "grade": grade})
                chosen += 1
    out.sort(key=lambda p: (p["distance"], p["position"]))
    return out


def document(game: str, board: str, command: str, seed: int, per_band: int,
             by_distance: dict[int, int], puzzles: Sequence[dict[str, Any]]) -> dict[str, Any]:  # fmt: skip
    """The contents of a puzzle file."""
    return {
        "format": FORMAT,
        "game": game,
        "board": board,
        "command": command,
        "seed": seed,
        "per_band": per_band,
        "bands": [{"grade": g, "from": a, "to": b} for g, a, b in BANDS],
        "qualifying": [[d, n] for d, n in sorted(by_distance.items()) if n],
        "qualifying_by_grade": {
            g: sum(n for d, n in by_distance.items() if grade_of(d) == g) for g, _, _ in BANDS
        },
        "puzzles_sha256": digest(puzzles),
        "puzzles": list(puzzles),
    }


def puzzle_path(game: str, board: str, out: str | None) -> Path:
    """Where a puzzle command writes: the file of ``game`` and ``board`` in the folder ``out`` (default
    :data:`DEFAULT_FOLDER`), which must exist: a folder that is missing is one line before any work,
    never made (a mistyped ``--out`` should not leave folders behind)."""
    folder = Path(out) if out else DEFAULT_FOLDER
    if not folder.is_dir():
        what = "not a folder" if folder.exists() else "no such folder (make it first)"
        raise GameError(f"--out {folder}: {what}")
    return folder / file_name(game, board)


def write(path: Path, data: dict[str, Any]) -> int:
    """Write a puzzle file atomically: into a temporary file beside it, flushed to disk, then renamed over
    it, so that a reader sees the old file or the new one, never part of one. Returns its size in bytes."""
    text = serialise(data).encode()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.partial-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return len(text)


__all__ = ["DEFAULT_FOLDER", "Candidates", "choose", "document", "puzzle_arguments", "write"]
