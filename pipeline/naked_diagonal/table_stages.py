"""The ``tables`` and ``tables-verify`` stages: the compact files of ``tables/naked-diagonal/<n>x<n>/``.

The format is docs/naked-diagonal-tables.md; :mod:`unitile_py.naked_diagonal.tables` is the game's
reader. One file per tier: the tier's canonical keys, sorted, in blocks of :data:`PER_BLOCK` records,
each block one zlib stream of the key deltas (byte planes) and one value byte per record
(``2 * distance + win``). The files are the same bit for bit on every build (no timestamps, fixed zlib
settings, records in key order). The manifest's ``start`` is the empty board's value, its winner and a
line of perfect play (:func:`principal_variation`).

``tables-verify`` reads the files back with the game's reader (which checks sizes, hashes, every header
field and record and the records' digest), compares every key and value with the store, and checks the
reader's answers on a seeded sample of positions moved by random symmetries.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.tables import FORMAT, HEADER, MAGIC, NDTables

from .context import Context, Stage
from .geometry import Geometry
from .kernels import better, can_place, canonical, legal_points, memo_for, winner_bits
from .store import NO_KEY, Store, solve_name, tier_name
from .tier_parts import outcome, values_of

#: Records per block.
PER_BLOCK = 4096
#: Positions of each tier whose answers ``tables-verify`` checks with the reader.
SAMPLE = 40


def default_tables(n: int) -> str:
    """Where the ``tables`` stage writes by default: ``tables/naked-diagonal/<n>x<n>`` of the repository
    (or under ``$UNITILE_TABLES``)."""
    from unitile_py.naked_diagonal.keys import default_root

    return os.fspath(default_root() / f"{n}x{n}")


def value_bytes(values: np.ndarray) -> np.ndarray:
    """Stored values (``+d`` win, ``-d`` loss, 0 lost already) as value bytes ``2 * d + win``.

    >>> value_bytes(np.array([3, -4, 0], dtype=np.int16)).tolist()
    [7, 8, 0]
    """
    v = values.astype(np.int64)
    return (2 * np.abs(v) + (v > 0)).astype(np.uint8)


def encode_tier(n: int, stones: int, keys: np.ndarray, values: np.ndarray) -> bytes:
    """The bytes of one tier file (see the module docstring)."""
    keys = keys.astype(np.uint64)
    count = len(keys)
    blocks = -(-count // PER_BLOCK)
    starts = np.arange(blocks) * PER_BLOCK
    deltas = np.diff(keys, prepend=np.uint64(0)) if count else keys.copy()
    deltas[starts] = 0
    biggest = int(deltas.max()) if count else 0
    width = next(w for w in (1, 2, 4, 8) if biggest < 1 << (8 * w))
    vb = value_bytes(values)
    body = []
    offsets = [0]
    for b in range(blocks):
        lo, hi = b * PER_BLOCK, min(count, (b + 1) * PER_BLOCK)
        planes = deltas[lo:hi].astype("<u8").view(np.uint8).reshape(-1, 8)[:, :width].T.tobytes()
        data = zlib.compress(planes + vb[lo:hi].tobytes(), 9)
        body.append(data)
        offsets.append(offsets[-1] + len(data))
    head = HEADER.pack(MAGIC, FORMAT, n, stones, count, PER_BLOCK, width, b"\0\0\0")
    firsts = keys[starts].astype("<u8").tobytes()
    return head + firsts + np.array(offsets, dtype="<u4").tobytes() + b"".join(body)


def records_digest(keys: np.ndarray, values: np.ndarray) -> str:
    """``records_sha256`` of a tier: sha256 of the keys as little-endian u64, then the value bytes."""
    return hashlib.sha256(keys.astype("<u8").tobytes() + value_bytes(values).tobytes()).hexdigest()


def tier_arrays(store: Store, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(keys, values, orbit)`` of a whole tier in key order (padding dropped)."""
    parts = store.require(tier_name(t))["parts"]
    keys, values, orbit = [], [], []
    for i in range(parts):
        k = store.row(f"tiers/{t}/keys", i)
        valid = k != NO_KEY
        keys.append(k[valid])
        values.append(store.row(f"tiers/{t}/value", i)[valid])
        orbit.append(store.row(f"tiers/{t}/orbit", i)[valid])
    if not parts:
        return np.zeros(0, np.uint64), np.zeros(0, np.int16), np.zeros(0, np.uint8)
    return np.concatenate(keys), np.concatenate(values), np.concatenate(orbit)


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


@dataclass(frozen=True)
class TablesStage(Stage):
    """Write the files and the manifest (in the client: they are small)."""

    name: ClassVar[str] = "tables"
    directory: str | None = None

    def run(self, ctx: Context) -> dict[str, Any]:
        """Encode every tier, then write the manifest last."""
        store, n = ctx.store, ctx.n
        folder = Path(self.directory or default_tables(n))
        folder.mkdir(parents=True, exist_ok=True)
        files: dict[str, Any] = {}
        tiers = []
        for t in range(ctx.points + 1):
            keys, values, orbit = tier_arrays(store, t)
            if not len(keys):
                continue
            name = f"t{t:02d}.bin"
            data = encode_tier(n, t, keys, values)
            _write(folder / name, data)
            files[name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            rec = store.require(tier_name(t))
            wins = values > 0
            tiers.append({
                "stones": t,
                "file": name,
                "records": len(keys),
                "positions": int(orbit.astype(np.int64).sum()),
                "wins": int(wins.sum()),
                "losses": int((~wins).sum()),
                "red_won": rec["red_won_images"],
                "blue_won": rec["blue_won_images"],
                "records_sha256": records_digest(keys, values),
            })
        manifest = {
            "game": "naked-diagonal",
            "format": FORMAT,
            "board": f"{n}x{n}",
            "command": f"python -m pipeline nd-build --board {n}x{n}",
            "files": files,
            "tiers": tiers,
            "records": sum(t["records"] for t in tiers),
            "positions": sum(t["positions"] for t in tiers),
            "start": principal_variation(store, n),
        }
        _write(folder / "manifest.json", (json.dumps(manifest, indent=1) + "\n").encode())
        total = sum(f["bytes"] for f in files.values()) + (folder / "manifest.json").stat().st_size
        return {"directory": str(folder), "bytes": total, "files": len(files) + 1}


@dataclass(frozen=True)
class TablesVerifyStage(Stage):
    """Read the files back with the game's reader and compare (see the module docstring): those in the
    folder that the ``tables`` stage recorded."""

    name: ClassVar[str] = "tables-verify"

    def run(self, ctx: Context) -> dict[str, Any]:
        """Every record, then the sample of answers."""
        store, n = ctx.store, ctx.n
        folder = store.require("tables")["directory"]
        tables = NDTables.load(n, folder)
        geo = Geometry.of(n)
        grid = Grid.get(n)
        rng = np.random.default_rng(n)
        checked = 0
        for t in range(ctx.points + 1):
            keys, values, _ = tier_arrays(store, t)
            tier = tables.tiers.get(t)
            if tier is None:
                if len(keys):
                    raise NakedDiagonalError(f"tables: tier {t} is missing")
                continue
            if not np.array_equal(np.array(tier.keys, dtype=np.uint64), keys) or tier.values != value_bytes(
                values
            ).tobytes():
                raise NakedDiagonalError(f"tables: tier {t} differs from the store")
            checked += len(keys)
            for j in rng.choice(len(keys), size=min(SAMPLE, len(keys)), replace=False).tolist():
                red, blue, turn = geo.unkey(int(keys[j]))
                sym = grid.symmetries[int(rng.integers(8))]
                position = Position(grid, red, blue, turn).transform(sym)
                want = outcome(int(values[j]))
                if position.winner() is None and tables.outcome(position) != want:
                    raise NakedDiagonalError(f"tables: the reader's outcome of {position} is not {want}")
                moves = tables.moves(position)
                if moves and moves[tables.best(position)[0]] != want:
                    raise NakedDiagonalError(f"tables: the best move of {position} does not give {want}")
        start = tables.outcome(Position.empty(n))
        if [*start] != [tables.manifest["start"]["outcome"], tables.manifest["start"]["distance"]]:
            raise NakedDiagonalError("tables: the empty board's outcome differs from the manifest")
        if store.require(solve_name(0))["value"] != (start[1] if start[0] == "win" else -start[1]):
            raise NakedDiagonalError("tables: the empty board's outcome differs from the solve")
        return {"checked": checked}


def principal_variation(store: Store, n: int) -> dict[str, Any]:
    """Perfect play from the empty board: its value, the winner and one line of best placements (the
    first best point in reading order at every turn)."""
    geo = Geometry.of(n)
    g, memo = geo.args, memo_for(n)
    grid = Grid.get(n)
    red = blue = turn = 0
    start = int(values_of(store, 0, np.zeros(1, dtype=np.uint64))[0])
    line: list[str] = []
    while winner_bits(g, red, blue) == 0:
        mine = legal_points(g, red, blue, turn, memo)
        best, best_point, best_state = 0, -1, (0, 0, 0)
        for p in grid.bits(mine):
            r2, b2 = (red | 1 << p, blue) if turn == 0 else (red, blue | 1 << p)
            nxt = 1 - turn
            if winner_bits(g, r2, b2) == 0 and not can_place(g, r2, b2, nxt, memo):
                nxt = turn
            key = canonical(g, r2, b2, nxt)[0]
            v = int(values_of(store, len(line) + 1, np.array([key], dtype=np.uint64))[0])
            wins = (v > 0) == (nxt == turn)
            mine_value = abs(v) + 1 if wins else -(abs(v) + 1)
            if best_point < 0 or better(mine_value, best):
                best, best_point, best_state = mine_value, p, (r2, b2, nxt)
        if best_point < 0:
            raise NakedDiagonalError(f"{n}x{n}: a position of the principal variation has no move")
        line.append(grid.name(best_point))
        red, blue, turn = best_state
    won = winner_bits(g, red, blue)
    kind, distance = outcome(start)
    return {
        "outcome": kind,
        "distance": distance,
        "winner": "red" if won == 1 else "blue",
        "line": line,
    }
