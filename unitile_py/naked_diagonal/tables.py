"""Perfect play of Naked Diagonal on the solved boards, read from ``tables/naked-diagonal/<N>x<N>/``.

The files (format in docs/naked-diagonal-tables.md; written by ``python -m pipeline nd-build``) hold, for
every position that play from the empty board reaches, up to symmetry, the outcome for the side to
move and the distance to the end in placements with perfect play (the winner's fastest win, the loser's
longest resistance). :class:`NDTables` answers from them, with the standard library only (it runs
under Pyodide):

* :meth:`NDTables.outcome`: ``("win" | "loss", placements)`` for the side to move;
* :meth:`NDTables.moves`: the same for the mover after each legal placement, counting it;
* :meth:`NDTables.best`: the placements perfect play may choose;
* :meth:`NDTables.analysis`: all of it as plain data (what ``nd analyze --json`` prints).

Every file is checked before anything is answered: sizes and sha256 against the manifest, every header
field, every block (it must inflate to its size), every record (keys increasing, no point taken twice,
the tier's number of stones, a valid outcome and distance) and a digest of the decoded records; any
fault is a one-line :class:`NakedDiagonalError` naming the file.

>>> t = tables_for(3)
>>> p = Position.empty(3)
>>> t.outcome(p), [p.grid.name(q) for q in t.best(p)]
(('win', 9), ['a2', 'c2'])
>>> t.analysis(Position.parse(".../R../... b"))["moves"]["b2"]
{'outcome': 'loss', 'distance': 4}
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import itertools
import re
import struct
import sys
from array import array
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..colours import RED
from ..coords import quote
from ..errors import NakedDiagonalError
from ..table_io import (
    MAX_MANIFEST_BYTES,
    SHA256,
    Directory,
    check_per_block,
    checked,
    field,
    folder_of,
    header_fields,
    inflate,
    is_format,
    loaded_once,
    manifest_kind,
    read_bytes,
    root_of,
)
from ..table_io import parse_manifest as read_manifest
from .grid import Grid
from .keys import canonical_key, default_root, position_key
from .legality import after, legal_masks
from .position import Position
from .strategy import KIND as STRATEGY_KIND

#: The format this reader reads.
FORMAT = 1
MAGIC = b"NDTB"
#: magic, format, board size, stones, records, records per block, key width, three zero bytes.
HEADER = struct.Struct("<4sHBBIIB3s")
#: Array type codes of the key widths.
WIDTHS = {1: "B", 2: "H", 4: "I", 8: "Q"}
#: A tier file's name.
FILE_NAME = re.compile(r"t[0-9]{2}\.bin", re.ASCII)
#: The board sizes the format can describe (keys of 2 * N * N + 1 bits in 64).
MAX_N = 5


def _u64(data: bytes) -> array[int]:
    """Little-endian u64 values of bytes as an array (``Q``)."""
    out = array("Q", data)
    if sys.byteorder == "big":
        out.byteswap()
    return out


class TierFile:
    """One checked ``tNN.bin``: the sorted canonical keys of one tier and their value bytes."""

    def __init__(self, name: str, data: bytes, n: int) -> None:
        where = f"tables naked-diagonal {n}x{n}: {name}"
        what = "Naked Diagonal tables file"
        fields: tuple[int, int, int, int, int, bytes] = header_fields(
            where, data, HEADER, MAGIC, FORMAT, what, NakedDiagonalError
        )
        size_n, stones, count, per_block, width, zero = fields
        points = n * n
        if size_n != n or stones > points or zero != b"\0\0\0":
            raise NakedDiagonalError(
                f"{where}: header field board {size_n}, stones {stones} or padding is wrong"
            )
        check_per_block(where, per_block, NakedDiagonalError)
        if width not in WIDTHS:
            raise NakedDiagonalError(f"{where}: header field key width {width} is not 1, 2, 4 or 8")
        self.name, self.stones, self.count = name, stones, count
        blocks = -(-count // per_block)
        at = HEADER.size
        if len(data) < at + 8 * blocks + 4 * (blocks + 1):
            raise NakedDiagonalError(f"{where} is truncated (header says {count} records)")
        firsts = _u64(data[at : at + 8 * blocks])
        at += 8 * blocks
        offsets = struct.unpack_from(f"<{blocks + 1}I", data, at)
        base = at + 4 * (blocks + 1)
        if offsets[0] != 0 or base + offsets[-1] != len(data):
            raise NakedDiagonalError(f"{where} is truncated or has extra bytes")
        keys: array[int] = array("Q")
        values = bytearray()
        limit = 1 << (2 * points + 1)
        full = (1 << points) - 1
        for b in range(blocks):
            m = min(per_block, count - b * per_block)
            block = data[base + offsets[b] : base + offsets[b + 1]]
            raw = inflate(f"{where} block {b}", block, m * (width + 1), NakedDiagonalError)
            interleaved = bytearray(m * width)
            for k in range(width):
                interleaved[k::width] = raw[k * m : (k + 1) * m]
            deltas = array(WIDTHS[width], bytes(interleaved))
            if sys.byteorder == "big":
                deltas.byteswap()
            if deltas[0] != 0 or (m > 1 and min(deltas[1:]) == 0):
                raise NakedDiagonalError(f"{where} block {b}: keys are not strictly increasing")
            block_keys = list(itertools.accumulate(deltas, initial=firsts[b]))[1:]
            if keys and block_keys[0] <= keys[-1]:
                raise NakedDiagonalError(f"{where} block {b}: keys are not strictly increasing")
            if block_keys[-1] >= limit:
                raise NakedDiagonalError(f"{where} block {b}: a key has bits beyond the board")
            for key in block_keys:
                red, blue = key & full, key >> points & full
                if red & blue or (red | blue).bit_count() != stones:
                    raise NakedDiagonalError(
                        f"{where} block {b}: key {key} is not a position with {stones} stones"
                    )
            keys.extend(block_keys)
            block_values = raw[m * width :]
            for v in set(block_values):
                d = v >> 1
                if d > points - stones or (v & 1 and d == 0):
                    raise NakedDiagonalError(
                        f"{where} block {b}: value byte {v} is no outcome at {stones} stones"
                    )
            values += block_values
        self.keys = keys
        self.values = bytes(values)

    def digest(self) -> str:
        """``records_sha256``: sha256 of the keys as little-endian u64, then the value bytes."""
        keys = array("Q", self.keys)
        if sys.byteorder == "big":
            keys.byteswap()
        return hashlib.sha256(keys.tobytes() + self.values).hexdigest()

    def value(self, key: int) -> int | None:
        """The value byte of a key (``2 * distance + win``), None when the tier does not hold it."""
        i = bisect.bisect_left(self.keys, key)
        if i < len(self.keys) and self.keys[i] == key:
            return self.values[i]
        return None


def parse_manifest(n: int, raw: bytes) -> dict[str, Any]:
    """The manifest with every field the reader uses checked for presence and type."""
    where = f"tables naked-diagonal {n}x{n}: manifest.json"
    manifest = read_manifest(where, raw, FILE_NAME, "tNN.bin", NakedDiagonalError)
    if manifest.get("game") != "naked-diagonal" or not is_format(manifest.get("format"), FORMAT):
        raise NakedDiagonalError(f"{where} is not format {FORMAT} of Naked Diagonal tables")
    if manifest.get("board") != f"{n}x{n}":
        raise NakedDiagonalError(f"{where} is for board {str(manifest.get('board'))[:20]}")
    files = manifest["files"]
    tiers = field(where, manifest, "tiers", list, "a list of tiers", NakedDiagonalError)
    seen = set()
    for i, entry in enumerate(tiers):
        at = f"{where}: tiers[{i}]"
        if not isinstance(entry, dict):
            raise NakedDiagonalError(f"{at} must be an object")
        name = field(at, entry, "file", str, "a file name", NakedDiagonalError)
        if name not in files:
            raise NakedDiagonalError(f"{at}: file {name[:40]!r} is not listed in files")
        stones = field(at, entry, "stones", int, "a whole number", NakedDiagonalError)
        if not 0 <= stones <= n * n or stones in seen:
            raise NakedDiagonalError(f"{at}: stones {stones} is off the board or listed twice")
        seen.add(stones)
        field(at, entry, "records", int, "a whole number", NakedDiagonalError)
        if not SHA256.fullmatch(field(at, entry, "records_sha256", str, "a sha256 in hex",
        NakedDiagonalError)):
            raise NakedDiagonalError(f"{at}: field 'records_sha256' must be a sha256 in hex")
    if 0 not in seen:
        raise NakedDiagonalError(f"{where}: no tier holds the empty board")
    # Play adds one stone a turn: a tier left out of the manifest would make its positions unreachable.
    gaps = sorted(set(range(max(seen) + 1)) - seen)
    if gaps:
        raise NakedDiagonalError(f"{where}: no tier of {gaps[0]} stones (the tiers hold 0 to {max(seen)})")
    unused = sorted(set(files) - {entry["file"] for entry in tiers})
    if unused:
        raise NakedDiagonalError(f"{where}: {unused[0][:40]} is listed in files but in no tier")
    return manifest


def check_total(n: int, manifest: Mapping[str, Any]) -> None:
    """The manifest's ``records``, when it has one, is the sum of its tiers' (a last tier left out)."""
    total, held = manifest.get("records"), sum(entry["records"] for entry in manifest["tiers"])
    if total is not None and total != held:
        raise NakedDiagonalError(f"tables naked-diagonal {n}x{n}: manifest.json: the tiers hold {held} "
                                 f"records, field 'records' says {total!s:.20}")  # fmt: skip


def read_tables(n: int, files: Mapping[str, bytes]) -> tuple[dict[str, Any], dict[int, TierFile]]:
    """The checked manifest and the tier file of each number of stones."""
    board = f"tables naked-diagonal {n}x{n}"
    if not 1 <= n <= MAX_N:
        raise NakedDiagonalError(f"{board}: the format holds boards up to {MAX_N}x{MAX_N}")
    manifest, data = checked(board, files, lambda raw: parse_manifest(n, raw), NakedDiagonalError)
    tiers: dict[int, TierFile] = {}
    for entry in manifest["tiers"]:
        tf = TierFile(entry["file"], data[entry["file"]], n)
        if tf.stones != entry["stones"] or tf.count != entry["records"]:
            raise NakedDiagonalError(f"{board}: {tf.name} does not match manifest.json (stones or records)")
        if tf.digest() != entry["records_sha256"]:
            raise NakedDiagonalError(f"{board}: {tf.name} records differ from manifest.json (records_sha256)")
        tiers[tf.stones] = tf
    check_total(n, manifest)
    return manifest, tiers


class NDTables:
    """Perfect play on one solved board size, from checked files (:meth:`load`, :meth:`from_files`)."""

    def __init__(self, n: int, manifest: dict[str, Any], tiers: Mapping[int, TierFile]) -> None:
        self.n = n
        self.grid = Grid.get(n)
        self.manifest = manifest
        self.tiers = dict(tiers)

    @staticmethod
    def load(n: int, directory: Directory = None) -> NDTables:
        """The tables of the n x n board from ``directory`` (holding ``manifest.json``, or
        ``<n>x<n>/manifest.json``; default :func:`default_root`)."""
        root = root_of(directory, default_root)
        folder = folder_of(root, f"{n}x{n}")
        where = f"tables naked-diagonal {n}x{n}"
        if not (folder / "manifest.json").is_file():
            raise NakedDiagonalError(f"{where}: no tables in {folder} (solved sizes: {_sizes_text(root)})")
        if manifest_kind(folder) == STRATEGY_KIND:
            raise NakedDiagonalError(
                f"{where}: {folder} holds a strategy (the winner's placements), not tables"
            )
        return NDTables.from_files(n, _folder_files(n, folder))

    @staticmethod
    def from_files(n: int, files: Mapping[str, bytes]) -> NDTables:
        """The tables from file contents in memory (``{"manifest.json": ..., "t00.bin": ...}``); any fault
        is one line ``tables damaged: ...``."""
        with _damage():
            manifest, tiers = read_tables(n, files)
        return NDTables(n, manifest, tiers)

    # Answers ---------------------------------------------------------------------------------------

    def _check(self, position: Position) -> None:
        if position.grid.n != self.n:
            raise NakedDiagonalError(f"tables naked-diagonal {self.n}x{self.n}: the position is on a "
                               f"{position.grid.n}x{position.grid.n} board")

    def holds(self, position: Position) -> bool:
        """Whether the tables answer for ``position``: a finished game, or one that play from the empty
        board reaches (a custom start need not be one)."""
        self._check(position)
        return position.winner() is not None or self._value(position) is not None

    def outcome(self, position: Position) -> tuple[str, int]:
        """``("win" | "loss", placements to the end)`` for the side to move with perfect play.

        A finished game is a win or a loss in 0. A position that play from the empty board never
        reaches is not in the tables: :class:`NakedDiagonalError`.
        """
        self._check(position)
        won = position.winner()
        if won is not None:
            return ("win" if won == position.turn else "loss", 0)
        v = self._value(position)
        if v is None:
            raise NakedDiagonalError(f"position {quote(str(position))}: not reachable from the empty board")
        return ("win" if v & 1 else "loss", v >> 1)

    def _value(self, position: Position) -> int | None:
        """The stored value of ``position`` (the win bit and twice the distance), None when its tier
        does not hold it."""
        tier = self.tiers.get((position.red | position.blue).bit_count())
        return None if tier is None else tier.value(canonical_key(position))

    def after(self, position: Position, point: int) -> tuple[str, int]:
        """The mover's result with perfect play after a legal placement on ``point``, counting it."""
        child = after(position, point)
        theirs, distance = self.outcome(child)
        same = child.turn == position.turn and child.winner() is None  # the opponent is skipped
        won = (theirs == "win") == same
        return ("win" if won else "loss", distance + 1)

    def moves(self, position: Position) -> dict[int, tuple[str, int]]:
        """For each legal placement of the side to move, the mover's result after it (:meth:`after`)."""
        self._check(position)
        if position.winner() is not None:
            return {}
        red, blue = legal_masks(position)
        mine = red if position.turn == RED else blue
        return {p: self.after(position, p) for p in Grid.points(mine)}

    def best(self, position: Position) -> tuple[int, ...]:
        """The placements perfect play may choose (the fastest win, else the longest loss), sorted."""
        moves = self.moves(position)
        if not moves:
            return ()
        top = max(moves.values(), key=_rank)
        return tuple(p for p, result in moves.items() if result == top)

    def analysis(self, position: Position) -> dict[str, Any]:
        """``{"outcome", "distance", "moves": {point name: {"outcome", "distance"}}}`` as plain data."""
        kind, distance = self.outcome(position)
        moves = self.moves(position)
        name = position.grid.name
        return {
            "outcome": kind,
            "distance": distance,
            "moves": {name(p): {"outcome": o, "distance": d} for p, (o, d) in moves.items()},
        }


def _rank(result: tuple[str, int]) -> tuple[int, int]:
    """Orders results from the mover's worst to best: a loss before a win, a longer win before a
    shorter one, a shorter loss before a longer one."""
    kind, distance = result
    return (1, -distance) if kind == "win" else (0, distance)


def _read(where: str, path: Path, size: int | None = None) -> bytes:
    """A file of the tables: ``manifest.json`` (``size`` None) up to :data:`MAX_MANIFEST_BYTES`, any
    other of the ``size`` its manifest gives."""
    return read_bytes(where, path, NakedDiagonalError, size, MAX_MANIFEST_BYTES if size is None else size)


class _Damaged(NakedDiagonalError):
    """A fault of a folder of tables, said once as ``tables damaged: ...``."""


@contextlib.contextmanager
def _damage() -> Iterator[None]:
    """A context in which a fault of the files (a :class:`NakedDiagonalError`) reads ``tables damaged: ...``,
    so that no lookup answers from incomplete tables (a position of a missing tier read as not reachable)."""
    try:
        yield
    except _Damaged:
        raise
    except NakedDiagonalError as exc:
        raise _Damaged(DAMAGED + str(exc)) from None


#: How every fault of a folder of tables begins.
DAMAGED = "tables damaged: "


def _folder_files(n: int, folder: Path) -> dict[str, bytes]:
    """The manifest of a folder of tables and every file it lists; ``tables damaged: ...`` when one is
    missing or the manifest is not one of tables."""
    where = f"tables naked-diagonal {n}x{n}"
    with _damage():
        files = {"manifest.json": _read(where, folder / "manifest.json")}
        for name, info in parse_manifest(n, files["manifest.json"])["files"].items():
            files[name] = _read(where, folder / name, info["bytes"])
    return files


def tables_problem(n: int, directory: Directory = None) -> str | None:
    """Why the tables of the n x n board in ``directory`` (default :func:`default_root`) cannot answer,
    in one line (``tables damaged: ...``), or None. A quick check for offering perfect play: the manifest
    (its tiers complete) and every file's size and sha256, without decoding the tiers (a lookup does)."""
    root = root_of(directory, default_root)
    folder = folder_of(root, f"{n}x{n}")
    try:
        files = _folder_files(n, folder)
        with _damage():
            manifest, _ = checked(f"tables naked-diagonal {n}x{n}", files, lambda raw: parse_manifest(n, raw),
                                  NakedDiagonalError)  # fmt: skip
            check_total(n, manifest)
    except NakedDiagonalError as exc:
        return str(exc)
    return None


def solved_sizes(directory: Directory = None) -> tuple[int, ...]:
    """The board sizes with tables in ``directory`` (default :func:`default_root`): a folder whose
    ``manifest.json`` is a strategy's (``kind`` ``"strategy"``, :mod:`.strategy`) holds no tables."""
    root = root_of(directory, default_root)
    return tuple(n for n in range(1, MAX_N + 1)
                 if (root / f"{n}x{n}" / "manifest.json").is_file()
                 and manifest_kind(root / f"{n}x{n}") != STRATEGY_KIND)


def _sizes_text(root: Path) -> str:
    sizes = solved_sizes(root)
    return ", ".join(f"{n}x{n}" for n in sizes) or "none"


_tables_for = loaded_once(NDTables.load, default_root)


def tables_for(n: int, directory: Directory = None) -> NDTables:
    """The tables of the n x n board, loaded and checked once per process and directory."""
    return _tables_for(n, directory)


__all__ = [
    "FORMAT",
    "HEADER",
    "MAGIC",
    "NDTables",
    "TierFile",
    "canonical_key",
    "default_root",
    "position_key",
    "read_tables",
    "solved_sizes",
    "tables_for",
    "tables_problem",
]
