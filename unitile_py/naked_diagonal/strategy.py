"""A winner's strategy of Naked Diagonal, read from a strategy folder (``manifest.json`` + ``strategy.bin``).

A strategy (format in docs/naked-diagonal-tables.md, section "Strategy files"; written by
``pipeline/naked_diagonal/strategy_file.py``) gives, for every position where the winner is to move that
the strategy reaches from the empty board, the winner's placement, keyed by the position's canonical key
(:func:`unitile_py.naked_diagonal.keys.canonical_key`, the same key as the tables'). :class:`Strategy`
answers from it with the standard library only (it runs under Pyodide):

* :meth:`Strategy.move_for`: the stored placement of a position, mapped back through the symmetry that
  made its key canonical, or None for a position off the strategy.

Every file is checked before anything is answered: sizes and sha256 against the manifest, every header
field, every block (it must inflate to its size), every record (keys strictly increasing, a position with
the winner to move, the placement an empty point) and a digest of the decoded
records; any fault is a one-line :class:`NakedDiagonalError` naming the file. Whether the strategy wins
is not checked here: ``python -m pipeline nd-check-strategy`` replays it with the exact rules.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import struct
import sys
from array import array
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..colours import BLUE, COLOUR_NAMES, RED
from ..errors import GameError, NakedDiagonalError
from ..table_io import (
    SHA256,
    Directory,
    check_files,
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
from .grid import Grid, Symmetry
from .keys import canonical, default_root
from .position import Position

#: The format this reader reads.
FORMAT = 1
#: ``kind`` of a strategy's manifest (a tables manifest has none).
KIND = "strategy"
MAGIC = b"NDST"
#: The one data file of a strategy folder.
DATA_FILE = "strategy.bin"
#: magic, format, board size, winner (0 Red, 1 Blue), records, records per block, key bytes, delta
#: bytes, two zero bytes.
HEADER = struct.Struct("<4sHBBIIBB2s")
#: The largest board the format describes (the placement is one byte; the reader decodes keys of any
#: width, but boards beyond 7x7 have no search to fill them).
MAX_N = 7
#: The file names a strategy's manifest may list.
FILE_NAME = re.compile(re.escape(DATA_FILE), re.ASCII)
WINNERS = {RED: 0, BLUE: 1}
#: The outcomes a manifest's ``empty_board`` and ``first_placements`` may give (for the mover).
OUTCOMES = ("win", "loss")
#: The manifest's fields that answer questions (``answers_sha256`` covers them).
ANSWERS = ("board", "winner", "empty_board", "first_placements")
#: A point name in a manifest's ``first_placements``.
POINT_NAME = re.compile(r"[a-z][1-9][0-9]?", re.ASCII)
#: Array type codes of the delta widths that have one.
WIDTHS = {1: "B", 2: "H", 4: "I", 8: "Q"}


@dataclass(frozen=True)
class Bounded:
    """The bounded search of a compact strategy (manifest field ``bounded``): a turn of the winner that
    the file does not hold is answered by :func:`.perfect.winning_placement` on positions with at most
    ``empty`` empty points, expanding at most ``nodes`` positions."""

    nodes: int
    empty: int

    def manifest(self) -> dict[str, int]:
        """The manifest's ``bounded`` field."""
        return {"nodes": self.nodes, "empty": self.empty}


#: The largest budget a manifest may give the bounded search (a player runs it within a move's time).
MAX_BOUNDED_NODES = 100_000


def key_bytes(n: int) -> int:
    """Bytes of a stored key on the n x n board: its ``2 * N * N`` bits (the turn bit is always 0)."""
    return -(-2 * n * n // 8)


def inverse_point(symmetry: Symmetry, point: int) -> int:
    """The point that ``symmetry`` carries onto ``point``."""
    return symmetry.image.index(point)


def _where(n: int, name: str = "") -> str:
    return f"strategy naked-diagonal {n}x{n}" + (f": {name}" if name else "")


def decode(n: int, data: bytes) -> tuple[str, list[int], bytes]:
    """The winner (``"r"`` or ``"b"``), the sorted canonical keys and their placements of a
    ``strategy.bin``, every field and record checked (one-line :class:`NakedDiagonalError`)."""
    where = _where(n, DATA_FILE)
    what = "Naked Diagonal strategy file"
    fields: tuple[int, int, int, int, int, int, bytes] = header_fields(
        where, data, HEADER, MAGIC, FORMAT, what, NakedDiagonalError
    )
    size_n, winner_code, count, per_block, kbytes, width, zero = fields
    if size_n != n or winner_code not in (0, 1) or zero != b"\0\0":
        raise NakedDiagonalError(
            f"{where}: header field board {size_n}, winner {winner_code} or padding is wrong"
        )
    check_per_block(where, per_block, NakedDiagonalError)
    if kbytes != key_bytes(n) or not 1 <= width <= kbytes:
        raise NakedDiagonalError(f"{where}: header field key bytes {kbytes} or delta bytes {width} is wrong")
    points = n * n
    blocks = -(-count // per_block)
    at = HEADER.size
    if len(data) < at + kbytes * blocks + 4 * (blocks + 1):
        raise NakedDiagonalError(f"{where} is truncated (header says {count} records)")
    firsts = [int.from_bytes(data[at + kbytes * b : at + kbytes * (b + 1)], "little") for b in range(blocks)]
    at += kbytes * blocks
    offsets = struct.unpack_from(f"<{blocks + 1}I", data, at)
    base = at + 4 * (blocks + 1)
    ordered = all(a <= b for a, b in itertools.pairwise(offsets))
    if offsets[0] != 0 or base + offsets[-1] != len(data) or not ordered:
        raise NakedDiagonalError(f"{where} is truncated or has extra bytes")
    # The canonical image has Red to move: Red's own turn (as many red as blue stones) when Red wins,
    # the colour-exchanged image of Blue's turn (one blue stone more) when Blue wins.
    stones_rule = "no point taken twice, " + ("one blue stone more than red" if winner_code else
                                              "as many red as blue stones")
    full = (1 << points) - 1
    limit = 1 << (2 * points)
    keys: list[int] = []
    moves = bytearray()
    for b in range(blocks):
        m = min(per_block, count - b * per_block)
        raw = inflate(f"{where} block {b}", data[base + offsets[b] : base + offsets[b + 1]], m * (width + 1),
                      NakedDiagonalError)
        interleaved = bytearray(m * width)
        for k in range(width):
            interleaved[k::width] = raw[k * m : (k + 1) * m]
        deltas: list[int] | array[int]
        if width in WIDTHS:
            deltas = array(WIDTHS[width], bytes(interleaved))
            if sys.byteorder == "big":
                deltas.byteswap()
        else:
            deltas = [int.from_bytes(interleaved[i : i + width], "little")
                      for i in range(0, m * width, width)]
        if deltas[0] != 0 or (m > 1 and min(deltas[1:]) == 0):
            raise NakedDiagonalError(f"{where} block {b}: keys are not strictly increasing")
        block_keys = list(itertools.accumulate(deltas, initial=firsts[b]))[1:]
        if keys and block_keys[0] <= keys[-1]:
            raise NakedDiagonalError(f"{where} block {b}: keys are not strictly increasing")
        if block_keys[-1] >= limit:
            raise NakedDiagonalError(f"{where} block {b}: a key has bits beyond the board (or Blue to move)")
        block_moves = raw[m * width :]
        for key, move in zip(block_keys, block_moves, strict=True):
            red, blue = key & full, key >> points
            if red & blue or blue.bit_count() - red.bit_count() != winner_code:
                raise NakedDiagonalError(
                    f"{where} block {b}: key {key} is no position of the winner's turn ({stones_rule})"
                )
            if move >= points or (red | blue) >> move & 1:
                raise NakedDiagonalError(
                    f"{where} block {b}: key {key} has placement {move}, not an empty point"
                )
        keys.extend(block_keys)
        moves += block_moves
    return (RED, BLUE)[winner_code], keys, bytes(moves)


def records_digest(n: int, keys: list[int], moves: bytes) -> str:
    """``records_sha256``: sha256 of the keys as little-endian integers of :func:`key_bytes` bytes, in
    order, then the placement bytes."""
    k = key_bytes(n)
    return hashlib.sha256(b"".join(key.to_bytes(k, "little") for key in keys) + moves).hexdigest()


def parse_manifest(n: int | None, raw: bytes) -> dict[str, Any]:
    """The manifest of a strategy with every field the reader uses checked for presence and type (for
    the board ``n``, or any board for None)."""
    board = f"{n}x{n}" if n is not None else "NxN"
    where = f"strategy naked-diagonal {board}: manifest.json"
    try:  # what the manifest is, before its files are checked (a tables manifest lists other files)
        kind = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        kind = None
    if isinstance(kind, dict) and (
        (kind.get("game"), kind.get("kind")) != ("naked-diagonal", KIND)
        or not is_format(kind.get("format"), FORMAT)
    ):
        raise NakedDiagonalError(f"{where} is not format {FORMAT} of a Naked Diagonal strategy")
    manifest = read_manifest(where, raw, FILE_NAME, DATA_FILE, NakedDiagonalError)
    text = field(where, manifest, "board", str, "a board such as 5x5", NakedDiagonalError)
    size = board_of(text)
    if size is None or not 1 <= size <= MAX_N or (n is not None and size != n):
        want = f"; expected {n}x{n}" if n is not None else f" (1x1 to {MAX_N}x{MAX_N})"
        raise NakedDiagonalError(f"{where} is for board {text[:20]!r}{want}")
    if field(where, manifest, "winner", str, "'red' or 'blue'", NakedDiagonalError) not in ("red", "blue"):
        raise NakedDiagonalError(f"{where}: field 'winner' must be 'red' or 'blue'")
    field(where, manifest, "positions", int, "a whole number", NakedDiagonalError)
    if DATA_FILE not in manifest["files"]:
        raise NakedDiagonalError(f"{where}: {DATA_FILE} is not listed in files")
    digest = field(where, manifest, "records_sha256", str, "a sha256 in hex", NakedDiagonalError)
    if not SHA256.fullmatch(digest):
        raise NakedDiagonalError(f"{where}: field 'records_sha256' must be a sha256 in hex")
    # Optional: the proof's outcomes for Red at the start (the empty board, each first placement).
    if "empty_board" in manifest and manifest["empty_board"] not in OUTCOMES:
        raise NakedDiagonalError(f"{where}: field 'empty_board' must be 'win' or 'loss'")
    if "bounded" in manifest:
        bounded = field(where, manifest, "bounded", dict, "an object", NakedDiagonalError)
        for name, top in (("nodes", MAX_BOUNDED_NODES), ("empty", MAX_N * MAX_N)):
            value = bounded.get(name)
            if type(value) is not int or not 0 < value <= top:
                raise NakedDiagonalError(f"{where}: bounded.{name} must be a whole number from 1 to {top}")
    if "first_placements" in manifest:
        first = field(where, manifest, "first_placements", dict, "an object", NakedDiagonalError)
        grid = Grid.get(size)
        for name, outcome in first.items():
            if not POINT_NAME.fullmatch(name) or outcome not in OUTCOMES or not _on_board(grid, name):
                raise NakedDiagonalError(f"{where}: first_placements[{name[:10]!r}] must be 'win' or 'loss' "
                                         f"for a point of the {size}x{size} board")
    _check_answers(where, manifest)
    return manifest


def answers_digest(manifest: Mapping[str, Any]) -> str:
    """``answers_sha256``: sha256 of the manifest's answering fields (``board``, ``winner``,
    ``empty_board``, ``first_placements``) as JSON with sorted keys and no spaces."""
    answers = {name: manifest.get(name) for name in ANSWERS}
    return hashlib.sha256(json.dumps(answers, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _check_answers(where: str, manifest: dict[str, Any]) -> None:
    """The answering fields against ``answers_sha256`` (required once the manifest gives an answer of
    the proof) and against the winner: the empty board is a win for Red exactly when Red is the winner,
    and when Blue is, every first placement of Red loses."""
    if "empty_board" not in manifest and "first_placements" not in manifest:
        return
    digest = manifest.get("answers_sha256")
    if not isinstance(digest, str) or digest != answers_digest(manifest):
        raise NakedDiagonalError(f"{where}: the answers (empty_board, first_placements) differ from "
                                 "answers_sha256")
    red_wins = manifest["winner"] == "red"
    if "empty_board" in manifest and (manifest["empty_board"] == "win") != red_wins:
        raise NakedDiagonalError(f"{where}: empty_board {manifest['empty_board']!r} contradicts the winner "
                                 f"{manifest['winner']!r}")
    if not red_wins and "win" in manifest.get("first_placements", {}).values():
        raise NakedDiagonalError(f"{where}: a first placement wins for Red, but Blue is the winner")


def _on_board(grid: Grid, name: str) -> bool:
    try:
        grid.point(name)
    except GameError:
        return False
    return True


def board_of(text: str) -> int | None:
    """N of ``NxN``, or None."""
    parts = text.split("x")
    if len(parts) != 2 or parts[0] != parts[1] or not parts[0].isdigit() or not parts[0].isascii():
        return None
    size = int(parts[0])
    return size if text == f"{size}x{size}" else None


class Strategy:
    """A winner's strategy on one board size, from checked files (:meth:`load`, :meth:`from_files`)."""

    def __init__(self, n: int, manifest: dict[str, Any], winner: str, keys: list[int], moves: bytes) -> None:
        self.n = n
        self.grid = Grid.get(n)
        self.manifest = manifest
        #: ``"r"`` or ``"b"``: the colour whose turns the strategy answers.
        self.winner = winner
        self.keys = keys
        self.moves = moves

    def __len__(self) -> int:
        return len(self.keys)

    @staticmethod
    def load(n: int | None = None, directory: Directory = None) -> Strategy:
        """The strategy of the n x n board from ``directory`` (holding ``manifest.json``, or
        ``<n>x<n>/manifest.json``; default :func:`default_root`). With ``n`` None the directory itself
        holds the manifest and its ``board`` says the size."""
        root = root_of(directory, default_root)
        folder = root if n is None else folder_of(root, f"{n}x{n}")
        where = _where(n) if n is not None else "strategy naked-diagonal"
        if not (folder / "manifest.json").is_file():
            raise NakedDiagonalError(f"{where}: no manifest.json in {folder}")
        raw = read_bytes(where, folder / "manifest.json", NakedDiagonalError)
        manifest = parse_manifest(n, raw)
        size = board_of(manifest["board"])
        assert size is not None
        files = {"manifest.json": raw}
        for name in manifest["files"]:
            files[name] = read_bytes(_where(size), folder / name, NakedDiagonalError)
        return Strategy.from_files(size, files)

    @staticmethod
    def from_files(n: int, files: Mapping[str, bytes]) -> Strategy:
        """The strategy from file contents in memory (``{"manifest.json": ..., "strategy.bin": ...}``)."""
        if not 1 <= n <= MAX_N:
            raise NakedDiagonalError(f"{_where(n)}: the format holds boards up to {MAX_N}x{MAX_N}")
        manifest, data = checked(_where(n), files, lambda raw: parse_manifest(n, raw), NakedDiagonalError)
        winner, keys, moves = decode(n, data[DATA_FILE])
        if COLOUR_NAMES[winner].lower() != manifest["winner"] or len(keys) != manifest["positions"]:
            raise NakedDiagonalError(
                f"{_where(n)}: {DATA_FILE} does not match manifest.json (winner or positions)"
            )
        if records_digest(n, keys, moves) != manifest["records_sha256"]:
            raise NakedDiagonalError(
                f"{_where(n)}: {DATA_FILE} records differ from manifest.json (records_sha256)"
            )
        strategy = Strategy(n, manifest, winner, keys, moves)
        first = strategy.move_for(Position.empty(n)) if winner == RED else None
        if first is not None and strategy.first_outcome(first) == "loss":
            raise NakedDiagonalError(f"{_where(n)}: manifest.json says {strategy.grid.name(first)} loses for "
                                     "Red, the strategy's own first placement")
        return strategy

    @property
    def empty_board(self) -> str | None:
        """The manifest's outcome for Red to move on the empty board (``"win"``/``"loss"``), or None."""
        value = self.manifest.get("empty_board")
        return value if isinstance(value, str) else None

    @property
    def first_placements(self) -> dict[str, str]:
        """The manifest's outcome for Red after each first placement named there (may be empty)."""
        return dict(self.manifest.get("first_placements", {}))

    def first_outcome(self, point: int) -> str | None:
        """The manifest's outcome for Red after the first placement ``point`` or an image of it under a
        symmetry that keeps the players, or None when it names none of them."""
        first = self.first_placements
        for s in self.grid.symmetries:
            if not s.swaps_edges and self.grid.name(s.image[point]) in first:
                return first[self.grid.name(s.image[point])]
        return None

    @property
    def bounded(self) -> Bounded | None:
        """The bounded search that answers the winner's turns the file does not hold, or None when it
        holds them all."""
        value = self.manifest.get("bounded")
        return Bounded(value["nodes"], value["empty"]) if isinstance(value, dict) else None

    def stored(self, key: int) -> int | None:
        """The placement stored for a canonical key (a point of the key's own frame), or None."""
        i = bisect_left(self.keys, key)
        if i < len(self.keys) and self.keys[i] == key:
            return self.moves[i]
        return None

    def record_for(self, position: Position) -> tuple[int, int] | None:
        """The index of the record that answers ``position`` and its placement mapped back to the
        position's own frame, or None when the winner is not to move there, the game is over or the
        strategy does not hold the position."""
        if position.grid.n != self.n:
            size = position.grid.n
            raise NakedDiagonalError(f"{_where(self.n)}: the position is on a {size}x{size} board")
        if position.turn != self.winner or position.winner() is not None:
            return None
        key, symmetry = canonical(position)
        i = bisect_left(self.keys, key)
        if i == len(self.keys) or self.keys[i] != key:
            return None
        return i, inverse_point(symmetry, self.moves[i])

    def move_for(self, position: Position) -> int | None:
        """The strategy's placement in ``position`` (a point of the position's own frame), or None when
        the winner is not to move there, the game is over or the strategy does not hold the position."""
        found = self.record_for(position)
        return None if found is None else found[1]


def strategy_sizes(directory: Directory = None) -> tuple[int, ...]:
    """The board sizes whose folder in ``directory`` (default :func:`default_root`) holds a strategy:
    its ``manifest.json`` has ``kind`` ``"strategy"`` (a tables folder's has none)."""
    root = root_of(directory, default_root)
    return tuple(n for n in range(1, MAX_N + 1) if manifest_kind(root / f"{n}x{n}") == KIND)


def winner_of(n: int, directory: Directory = None) -> str | None:
    """``"red"`` or ``"blue"``: the winner a strategy folder's manifest names, without loading its
    records (None when the size has no strategy or the manifest does not say)."""
    folder = root_of(directory, default_root) / f"{n}x{n}"
    if manifest_kind(folder) != KIND:
        return None
    try:
        manifest = parse_manifest(n, read_bytes(_where(n), folder / "manifest.json", NakedDiagonalError))
    except NakedDiagonalError:
        return None
    return str(manifest["winner"])


def strategy_problem(n: int, directory: Directory = None) -> str | None:
    """Why the strategy of the n x n board in ``directory`` (default :func:`default_root`) cannot answer,
    in one line, or None. A quick check for offering it: the manifest's fields and answers and the data
    file's size and sha256, without decoding the records (loading does)."""
    folder = folder_of(root_of(directory, default_root), f"{n}x{n}")
    where = _where(n)
    try:
        raw = read_bytes(where, folder / "manifest.json", NakedDiagonalError)
        manifest = parse_manifest(n, raw)
        files = {"manifest.json": raw, DATA_FILE: read_bytes(where, folder / DATA_FILE, NakedDiagonalError)}
        check_files(where, files, manifest, NakedDiagonalError)
    except NakedDiagonalError as exc:
        return str(exc)
    return None


_strategy_for = loaded_once(Strategy.load, default_root)


def strategy_for(n: int, directory: Directory = None) -> Strategy:
    """The strategy of the n x n board (in ``directory``, default :func:`default_root`), loaded and
    checked once per process and directory."""
    return _strategy_for(n, directory)


__all__ = [
    "ANSWERS",
    "DATA_FILE",
    "FORMAT",
    "HEADER",
    "KIND",
    "MAGIC",
    "MAX_BOUNDED_NODES",
    "MAX_N",
    "Bounded",
    "Strategy",
    "answers_digest",
    "board_of",
    "decode",
    "inverse_point",
    "key_bytes",
    "records_digest",
    "strategy_for",
    "strategy_problem",
    "strategy_sizes",
    "winner_of",
]
