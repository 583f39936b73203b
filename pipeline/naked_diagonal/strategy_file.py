"""Writing a winner's strategy (docs/naked-diagonal-tables.md, "Strategy files"), and building one for a
solved board from its tables.

:func:`write_strategy` takes ``{position or canonical key: placement}`` and writes a strategy folder
(``manifest.json`` and ``strategy.bin``), the same bytes for the same strategy: records in key order, a
placement normalised over the symmetries that fix its position, fixed zlib settings, no timestamps.
:func:`strategy_from_tables` builds the strategy of the empty board's winner on a board with tables:
at every winner's turn that the strategy reaches through any legal reply of the loser, the tables'
fastest win (the first such placement in reading order). :mod:`unitile_py.naked_diagonal.strategy`
is the reader; ``check_strategy`` the separate verifier.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from unitile_py.colours import COLOUR_NAMES, RED, other
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.grid import Grid, Symmetry
from unitile_py.naked_diagonal.keys import canonical, key_position, position_key
from unitile_py.naked_diagonal.legality import after, legal_masks
from unitile_py.naked_diagonal.perfect import Masks, winning_placement
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.strategy import (
    DATA_FILE,
    FORMAT,
    HEADER,
    KIND,
    MAGIC,
    MAX_N,
    WINNERS,
    Bounded,
    answers_digest,
    inverse_point,
    key_bytes,
    records_digest,
)
from unitile_py.naked_diagonal.tables import NDTables, tables_for

#: The legal masks the bounded searches of :func:`compacted` share at most.
MASKS_KEPT = 500_000
#: Records per block.
PER_BLOCK = 4096
#: A strategy as the writer takes it: placements by position (in the position's frame, the winner to
#: move) or by canonical key (in the key's frame).
Entries = Mapping[Position, int] | Mapping[int, int]


def normalised(n: int, key: int, move: int) -> int:
    """The smallest image of ``move`` (a point of the canonical frame of ``key``) under the symmetries
    that fix the key's position: equivalent placements are stored as one."""
    position = key_position(n, key)
    images = [s.image[move] for s in position.grid.symmetries if position_key(position.transform(s)) == key]
    return min(images)


def canonical_records(n: int, winner: str, strategy: Entries) -> dict[int, int]:
    """``{canonical key: placement in its frame}`` of a strategy given by positions (placements in their
    own frame; the winner must be to move) or by canonical keys (placements in the key's frame).
    Two entries of one canonical position must give equivalent placements."""
    out: dict[int, int] = {}
    size = n * n
    for entry, move in strategy.items():
        if isinstance(entry, Position):
            if entry.grid.n != n or entry.turn != winner:
                raise NakedDiagonalError(f"strategy entry {entry}: not a {n}x{n} position with "
                                         f"{COLOUR_NAMES[winner]} to move")
            if not 0 <= move < size:
                raise NakedDiagonalError(f"strategy entry {entry}: placement {move} is off the board")
            key, symmetry = canonical(entry)
            move = symmetry.image[move]
        else:
            key = int(entry)
            if not 0 <= key < 1 << (2 * size):
                raise NakedDiagonalError(f"strategy key {key}: not a canonical key of a {n}x{n} position")
            if not 0 <= move < size:
                raise NakedDiagonalError(f"strategy key {key}: placement {move} is off the board")
        move = normalised(n, key, move)
        if out.setdefault(key, move) != move:
            raise NakedDiagonalError(f"strategy key {key}: two different placements ({out[key]} and {move})")
    return out


def compacted(n: int, winner: str, records: Mapping[int, int], bounded: Bounded) -> dict[int, int]:
    """The records of a compact strategy (docs/naked-diagonal-tables.md, "Compact strategies"): the
    records of ``records`` (``{canonical key: placement}``, a whole strategy) that the replay from the
    empty board reaches before the bounded search (:func:`.perfect.winning_placement` with ``bounded``)
    wins. A winner's turn where that search finds a win is left out with every line below it; the
    others are kept and followed through every legal reply of the loser."""
    kept: dict[int, int] = {}
    masks: Masks = {}  # the searches' legal masks, shared (a cache: it changes no answer)

    def keep(position: Position, key: int, symmetry: Symmetry) -> int | None:
        if len(masks) > MASKS_KEPT:
            masks.clear()
        if winning_placement(position, bounded, masks) is not None:
            return None
        if key not in records:
            raise NakedDiagonalError(f"strategy {n}x{n}: no placement for {position}, a turn of "
                                     f"{COLOUR_NAMES[winner]} that the strategy reaches")
        kept[key] = records[key]
        return inverse_point(symmetry, records[key])

    replay(n, winner, keep)
    return kept


def replay(n: int, winner: str, choose: Callable[[Position, int, Symmetry], int | None]) -> None:
    """Follow a strategy from the empty n x n board, each canonical position once: at each of the
    winner's turns ``choose(position, canonical key, symmetry to it)`` gives the placement to follow
    (a point of the position's frame) or None to stop there; at each of the loser's turns every legal
    reply."""
    seen: set[tuple[int, str]] = set()
    stack = [Position.empty(n)]
    while stack:
        position = stack.pop()
        if position.winner() is not None:
            continue
        key, symmetry = canonical(position)
        if (key, position.turn) in seen:
            continue
        seen.add((key, position.turn))
        if position.turn == winner:
            move = choose(position, key, symmetry)
            if move is not None:
                stack.append(after(position, move))
        else:
            red, blue = legal_masks(position)
            stack.extend(after(position, p) for p in Grid.points(red if position.turn == RED else blue))


def encode(n: int, winner: str, records: Mapping[int, int]) -> tuple[bytes, list[int], bytes]:
    """The bytes of ``strategy.bin``, with its sorted keys and their placements."""
    keys = sorted(records)
    moves = bytes(records[k] for k in keys)
    count = len(keys)
    kbytes = key_bytes(n)
    blocks = -(-count // PER_BLOCK)
    deltas = [0 if i % PER_BLOCK == 0 else keys[i] - keys[i - 1] for i in range(count)]
    biggest = max(deltas, default=0)
    width = max(1, -(-biggest.bit_length() // 8))
    body: list[bytes] = []
    offsets = [0]
    for b in range(blocks):
        lo, hi = b * PER_BLOCK, min(count, (b + 1) * PER_BLOCK)
        raw = b"".join(d.to_bytes(width, "little") for d in deltas[lo:hi])
        planes = b"".join(raw[k::width] for k in range(width))
        data = zlib.compress(planes + moves[lo:hi], 9)
        body.append(data)
        offsets.append(offsets[-1] + len(data))
    head = HEADER.pack(MAGIC, FORMAT, n, WINNERS[winner], count, PER_BLOCK, kbytes, width, b"\0\0")
    firsts = b"".join(keys[b * PER_BLOCK].to_bytes(kbytes, "little") for b in range(blocks))
    table = b"".join(o.to_bytes(4, "little") for o in offsets)
    return head + firsts + table + b"".join(body), keys, moves


def strategy_files(
    n: int, winner: str, strategy: Entries, command: str = "", results: Mapping[str, Any] | None = None,
    bounded: Bounded | None = None,
) -> dict[str, bytes]:
    """The files of a strategy folder, ``{"manifest.json": ..., "strategy.bin": ...}``; ``results`` (the
    proof's ``empty_board``, ``first_placements`` and what it cost) go into the manifest as they are;
    with ``bounded``, a compact strategy (:func:`compacted`)."""
    if not 1 <= n <= MAX_N:
        raise NakedDiagonalError(f"board {n}x{n}: a strategy file holds boards up to {MAX_N}x{MAX_N}")
    if winner not in WINNERS:
        raise NakedDiagonalError(f"winner {winner!r}: expected 'r' or 'b'")
    records = canonical_records(n, winner, strategy)
    if bounded is not None:
        records = compacted(n, winner, records, bounded)
    data, keys, moves = encode(n, winner, records)
    stones: dict[int, int] = {}
    for key in keys:
        count = key.bit_count()
        stones[count] = stones.get(count, 0) + 1
    manifest: dict[str, Any] = {
        "game": "naked-diagonal",
        "kind": KIND,
        "format": FORMAT,
        "board": f"{n}x{n}",
        "winner": COLOUR_NAMES[winner].lower(),
        "command": command,
        "positions": len(keys),
        "per_stones": {str(s): stones[s] for s in sorted(stones)},
        "records_sha256": records_digest(n, keys, moves),
        "files": {DATA_FILE: {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}},
    }
    if bounded is not None:
        manifest["bounded"] = bounded.manifest()
    for name, value in (results or {}).items():
        if name in manifest or name == "answers_sha256":
            raise NakedDiagonalError(f"strategy result {name!r}: a field of the manifest itself")
        manifest[name] = value
    if "empty_board" in manifest or "first_placements" in manifest:
        manifest["answers_sha256"] = answers_digest(manifest)
    text = json.dumps(manifest, indent=1) + "\n"
    return {"manifest.json": text.encode("utf-8"), DATA_FILE: data}


def write_strategy(
    out: str | os.PathLike[str], n: int, winner: str, strategy: Entries, command: str = "",
    results: Mapping[str, Any] | None = None, bounded: Bounded | None = None,
) -> dict[str, int]:
    """Write a strategy folder (created if needed); ``{file name: bytes}`` of what was written."""
    files = strategy_files(n, winner, strategy, command, results, bounded)
    folder = Path(out)
    manifest = folder / "manifest.json"
    if manifest.is_file() and b'"kind": "strategy"' not in manifest.read_bytes():
        raise NakedDiagonalError(
            f"{folder}: holds a manifest.json that is not a strategy's (tables?): not overwritten"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # The data before the manifest that vouches for it, each whole or not at all (a temporary file
        # renamed over the old one), so a write cut short never leaves a folder that looks complete.
        for name in sorted(files, key=lambda name: name == "manifest.json"):
            part = folder / f".{name}.part"
            part.write_bytes(files[name])
            os.replace(part, folder / name)
    except OSError as exc:
        raise NakedDiagonalError(f"{folder}: cannot write the strategy: {exc.strerror or exc}") from None
    return {name: len(data) for name, data in files.items()}


def fastest_win(tables: NDTables) -> Callable[[Position], int]:
    """The winner's choice from the tables: the first placement in reading order of the fastest win."""

    def choose(position: Position) -> int:
        best = tables.best(position)
        if not best or tables.outcome(position)[0] != "win":
            raise NakedDiagonalError(f"position {position}: the tables give the side to move no win")
        return best[0]

    return choose


def strategy_from_tables(n: int, directory: str | None = None) -> tuple[str, dict[int, int]]:
    """The winner of the empty n x n board and ``{canonical key: placement}`` of its strategy, built
    from the tables: every winner's turn reached from the empty board through the winner's choices
    (:func:`fastest_win`) and every legal reply of the loser, each canonical position once."""
    tables = tables_for(n, directory)
    outcome = tables.outcome(Position.empty(n))[0]
    winner = RED if outcome == "win" else other(RED)
    fastest = fastest_win(tables)
    records: dict[int, int] = {}

    def choose(position: Position, key: int, symmetry: Symmetry) -> int:
        move = fastest(position)
        records[key] = normalised(n, key, symmetry.image[move])
        return move

    replay(n, winner, choose)
    return winner, records


__all__ = [
    "PER_BLOCK",
    "canonical_records",
    "compacted",
    "encode",
    "fastest_win",
    "normalised",
    "replay",
    "strategy_files",
    "strategy_from_tables",
    "write_strategy",
]
