"""The lookup tables: legal slides and perfect play for every position, read with the standard library.

The files of ``tables/<board>/`` (format in docs/tables.md) hold one record per symmetry class of
positions. :class:`Tables` answers from them:

* :meth:`Tables.legal` -- the slides the value rule allows (a slide that unites a colour, or one that
  lowers T = r + b);
* :meth:`Tables.best` -- the slides perfect play may choose (the fastest win, else the longest loss);
* :meth:`Tables.outcome` -- win or loss for the side to move and the plies to the end with perfect
  play, found by following perfect-play slides to the end (and remembered).

Every lookup is a few table reads: no numpy, so it runs the same under Pyodide.

>>> from unitile_py.unitile import Board, Position
>>> t = tables_for("3x3")
>>> p = Position.start(Board.get(3, 3))
>>> [p.board.name(c) for c in t.legal(p)], t.outcome(p), [p.board.name(c) for c in t.best(p)]
(['b3', 'b1'], ('loss', 5), ['b3'])
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from ..colours import RED
from ..errors import UnitileError
from ..table_io import (
    ENV,
    MAX_MANIFEST_BYTES,
    Directory,
    folder_of,
    loaded_once,
    read_bytes,
    root_of,
    tables_root,
)
from .board import Board
from .canonical import Frame, orbit_rep
from .position import Position
from .table_files import (
    ENDS,
    FORMAT,
    HEADER,
    KIND_EVEN,
    KIND_ODD,
    MAGIC,
    FrameFile,
    parse_manifest,
    read_tables,
)

#: Outcomes remembered by :meth:`Tables.outcome` before the memory is cleared.
MEMO_LIMIT = 1 << 18
#: Environment variable naming the directory that holds ``<board>/manifest.json`` for every board.

_POP = [bin(i).count("1") for i in range(256)]


def default_root() -> Path:
    """The tables directory (:func:`unitile_py.table_io.tables_root`)."""
    return tables_root()


def _board(board: Board | str) -> Board:
    return board if isinstance(board, Board) else Board.parse(board)


class _Locator:
    """Everything needed to find the record of positions with the bubble on one cell."""

    def __init__(self, board: Board, bubble: int, frame: Frame, file: FrameFile) -> None:
        rep, s = orbit_rep(board, bubble)
        sym = board.symmetries[s]
        self.file = file
        self.even = file.kind == KIND_EVEN
        self.red_count = board.red_count
        # pack[chunk][byte]: the block patterns (8 bits per block) of those red cells after the symmetry.
        where = {}
        for j, cells in enumerate(frame.blocks):
            for i, c in enumerate(cells):
                where[c] = 8 * j + i
        self.pack = []
        for ch in range((board.cells + 7) // 8):
            single = []
            for bit in range(8):
                cell = 8 * ch + bit
                ok = cell < board.cells and sym[cell] != rep
                single.append(1 << where[sym[cell]] if ok else 0)
            row = [0] * 256
            for byte in range(1, 256):
                low = byte & -byte
                row[byte] = row[byte ^ low] | single[low.bit_length() - 1]
            self.pack.append(row)
        self.nb = len(frame.blocks)
        self.frame = frame
        self.steps = _steps(frame)
        self.act = frame.act
        self.compose = frame.compose
        if self.nb == 3 and len(self.pack) == 4:
            self.locate = self._locate_3x4  # type: ignore[method-assign]
        # Per element e: cells of canonical slide masks, the actual cell of each canonical slide, the
        # canonical slide index of each actual neighbour cell, and whether colours are swapped.
        canon = board.neighbours[rep]
        self.cells_of: list[list[tuple[int, ...]]] = []
        self.first: list[list[int]] = []
        self.actual: list[tuple[int, ...]] = []
        self.slot: list[dict[int, int]] = []
        self.flip: list[bool] = list(frame.flips)
        for e in range(frame.size):
            perm = frame.perms[e]
            slot = {n: canon.index(perm[sym[n]]) for n in board.neighbours[bubble]}
            actual = [0] * len(canon)
            for n, k in slot.items():
                actual[k] = n
            self.slot.append(slot)
            self.actual.append(tuple(actual))
            # Indexed by a stored best set: slide bits 0-3 and ENDS, which moves no cell.
            self.cells_of.append(
                [tuple(sorted(actual[k] for k in range(len(canon)) if m >> k & 1)) for m in range(32)]
            )
            # The actual cell of the lowest canonical slide of each set (-1 for none).
            lowest = [(m & 15 & -m).bit_length() - 1 for m in range(32)]
            self.first.append([actual[k] if 0 <= k < len(canon) else -1 for k in lowest])

    def _locate_3x4(self, red: int) -> tuple[int, int]:
        """:meth:`locate` unrolled for three blocks and at most 32 cells (the 5x5 board)."""
        p0, p1, p2, p3 = self.pack
        packed = p0[red & 255] | p1[red >> 8 & 255] | p2[red >> 16 & 255] | p3[red >> 24]
        s0, s1, s2 = self.steps
        e, ones, cum, g = s0[0][packed & 255]
        idx = cum[self.red_count]
        k = self.red_count - ones
        p = packed >> 8 & 255
        if e:
            p = self.act[e][1][p]
        h, ones, cum, g = s1[g][p]
        idx += cum[k]
        k -= ones
        if h:
            e = self.compose[h][e]
        p = packed >> 16
        if e:
            p = self.act[e][2][p]
        h, ones, cum, g = s2[g][p]
        if h:
            e = self.compose[h][e]
        return idx + cum[k], e

    def locate(self, red: int) -> tuple[int, int]:
        """``(record number, element)`` of the position with these red cells."""
        pack = self.pack
        packed = pack[0][red & 255]
        red >>= 8
        ch = 1
        while red:
            packed |= pack[ch][red & 255]
            red >>= 8
            ch += 1
        act = self.act
        e = g = idx = 0
        k = self.red_count
        for j, step in enumerate(self.steps):
            p = packed >> (8 * j) & 255
            if e:
                p = act[e][j][p]
            h, ones, cum, g = step[g][p]
            idx += cum[k]
            k -= ones
            if h:
                e = self.compose[h][e]
        return idx, e


@cache
def _steps(frame: Frame) -> list[list[list[tuple[int, int, list[int], int]]]]:
    """``steps[j][g][p] = (element, ones, cum by red count, next group)`` for :meth:`_Locator.locate`."""
    out = []
    for j in range(len(frame.blocks)):
        per_group = []
        for g in range(len(frame.can_pattern[j])):
            row = []
            cum = frame.cum[j][g]
            for p in range(1 << frame.widths[j]):
                best = frame.can_pattern[j][g][p]
                row.append(
                    (
                        frame.can_element[j][g][p],
                        _POP[best],
                        [cum[k][best] for k in range(len(cum))],
                        frame.can_next[j][g][p],
                    )
                )
            per_group.append(row)
        out.append(per_group)
    return out


class Tables:
    """Legal slides and perfect play of one board, from the files of ``tables/<board>/``."""

    def __init__(self, board: Board, manifest: dict[str, Any], frames: Mapping[int, FrameFile]) -> None:
        """Tables from checked files (use :meth:`load` or :meth:`from_files`)."""
        self.board = board
        self.manifest = manifest
        self._files = dict(frames)
        self._loc: list[_Locator] = []
        for b in range(board.cells):
            rep, _ = orbit_rep(board, b)
            found = self._files.get(rep)
            if found is None:
                raise UnitileError(f"tables {board}: manifest.json lists no file for cell {board.name(rep)}")
            frame = Frame.of(board, rep, swap=found.kind == KIND_EVEN)
            if frame.count != found.count:
                raise UnitileError(
                    f"tables {board}: {found.name} has {found.count} records, expected {frame.count}"
                )
            self._loc.append(_Locator(board, b, frame, found))
        self._full = board.full
        self._memo: dict[tuple[int, int], tuple[bool, int]] = {}

    # Loading ---------------------------------------------------------------------------------------

    @staticmethod
    def load(board: Board | str, directory: Directory = None, check_records: bool = True,
             by_name: bool = False) -> Tables:
        """The tables of a board from ``directory`` (holding ``manifest.json``, or ``<board>/manifest.json``).

        The default is ``tables/<board>/`` of the repository (or under ``$UNITILE_TABLES``). Every file
        is checked against the sha256 in the manifest; a missing, truncated or altered file raises
        :class:`UnitileError` naming it (with ``by_name``, by its file name alone: the site's worker wrote
        the folder, whose path means nothing to a player); ``check_records`` as for :func:`read_tables`.
        """
        b = _board(board)
        root = root_of(directory, default_root)
        folder = folder_of(root, str(b))
        if not (folder / "manifest.json").is_file():
            raise UnitileError(f"tables {b}: no lookup tables in {folder} (manifest.json is missing)")
        files = {"manifest.json": _read(b, folder / "manifest.json", by_name=by_name)}
        manifest = parse_manifest(b, files["manifest.json"])
        for name in manifest["files"]:
            path = folder / name
            if not path.is_file():
                raise UnitileError(f"tables {b}: {name} is missing in {folder}")
            files[name] = _read(b, path, manifest["files"][name]["bytes"], by_name)
        return Tables.from_files(b, files, check_records)

    @staticmethod
    def from_files(board: Board | str, files: Mapping[str, bytes], check_records: bool = True) -> Tables:
        """The tables from file contents already in memory (``{"manifest.json": ..., "c3.bin": ...}``);
        ``check_records`` as for :func:`read_tables`."""
        b = _board(board)
        manifest, frames = read_tables(b, files, check_records)
        return Tables(b, manifest, frames)

    # Internals -------------------------------------------------------------------------------------

    def _over(self, red: int, bubble: int) -> bool:
        """Whether a colour is united."""
        connected = self.board.connected
        return connected(red) or connected(self._full & ~red & ~(1 << bubble))

    def _legal_odd(self, red: int, bubble: int, skip: int = -1) -> list[int]:
        """Legal slides (sorted cells) of an active position with the bubble on an odd cell.

        Each slide leads to an even position, whose record says whether the slide back is legal; the
        slide is legal exactly when the slide back is not. ``skip`` is a cell known not to be legal.
        """
        out = []
        loc = self._loc
        for n in self.board.neighbours[bubble]:
            if n == skip:
                continue
            red2 = red ^ (1 << n) ^ (1 << bubble) if red >> n & 1 else red
            lc = loc[n]
            idx, e = lc.locate(red2)
            if not lc.file.record(idx)[0] >> lc.slot[e][bubble] & 1:
                out.append(n)
        return out

    def _best_red(self, red: int, bubble: int) -> tuple[int, ...]:
        """Best slides of an active position with Red to move (sorted cells)."""
        lc = self._loc[bubble]
        idx, e = lc.locate(red)
        rec = lc.file.record(idx)
        return lc.cells_of[e][rec[2] if lc.flip[e] else rec[1]]

    def _solve(self, red: int, bubble: int) -> tuple[bool, int]:
        """``(win, plies)`` for Red to move in an active position, following best slides to the end."""
        memo = self._memo
        found = memo.get((red, bubble))
        if found is not None:
            return found
        full = self._full
        loc = self._loc
        path = []
        while True:
            key = (red, bubble)
            found = memo.get(key)
            if found is not None:
                last_wins, tail = not found[0], found[1]
                # the position after path[-1] is `found` for its mover: the path's last mover is the other.
                break
            path.append(key)
            # One best slide: the lowest canonical one of the record's set for the side to move.
            lc = loc[bubble]
            idx, e = lc.locate(red)
            rec = lc.file.record(idx)
            best = rec[2] if lc.flip[e] else rec[1]
            n = lc.first[e][best]
            if best & ENDS:
                # The slide unites a colour: the mover's (a win) if the tile is the mover's (red here).
                last_wins, tail = red >> n & 1 == 1, 0
                break
            blue = full & ~red & ~(1 << bubble)
            if red >> n & 1:
                red ^= (1 << n) | (1 << bubble)
            else:
                blue ^= (1 << n) | (1 << bubble)
            # The other side moves next: swap the colours so that it is Red again.
            red, bubble = blue, n
        if len(memo) + len(path) > MEMO_LIMIT:
            memo.clear()
        m = len(path)
        for i, key in enumerate(path):
            same = (m - 1 - i) % 2 == 0
            memo[key] = (last_wins if same else not last_wins, m - i + tail)
        return memo[path[0]] if path else found  # type: ignore[return-value]

    def _check_board(self, position: Position) -> None:
        board = position.board
        if board is not self.board and (board.rows, board.cols) != (self.board.rows, self.board.cols):
            raise UnitileError(f"tables {self.board}: position is on a {board} board")

    def _active(self, position: Position) -> tuple[int, int]:
        """``(red cells as seen by the side to move, bubble)``; checks the board."""
        self._check_board(position)
        red = position.red if position.turn == RED else position.blue
        return red, position.bubble

    # The API ----------------------------------------------------------------------------------------

    def legal(self, position: Position) -> tuple[int, ...]:
        """Cells of the legal slides, sorted: none once a colour is united."""
        self._check_board(position)
        red, bubble = position.red, position.bubble
        lc = self._loc[bubble]
        if lc.even:
            idx, e = lc.locate(red)
            return lc.cells_of[e][lc.file.record(idx)[0]]
        if self._over(red, bubble):
            return ()
        return tuple(self._legal_odd(red, bubble))

    def best(self, position: Position) -> tuple[int, ...]:
        """Cells of the slides perfect play may choose (all ties), sorted: none once a colour is united."""
        red, bubble = self._active(position)
        if self._over(red, bubble):
            return ()
        return self._best_red(red, bubble)

    def outcome(self, position: Position) -> tuple[str, int]:
        """``("win"|"loss", plies)`` for the side to move with perfect play; the game must go on."""
        red, bubble = self._active(position)
        if self._over(red, bubble):
            raise UnitileError(f"{position}: a colour is united, the game is over")
        win, plies = self._solve(red, bubble)
        return ("win" if win else "loss", plies)

    def after(self, position: Position, cell: int) -> tuple[str, int]:
        """The mover's result with perfect play after the slide from ``cell``, counting that slide."""
        child = position.play(cell)
        winner = child.winner()
        if winner is not None:
            return ("win" if winner == position.turn else "loss", 1)
        theirs, plies = self.outcome(child)
        return ("loss" if theirs == "win" else "win", plies + 1)

    def moves(self, position: Position) -> dict[int, tuple[str, int]]:
        """For each legal slide, the mover's result with perfect play after it (see :meth:`after`)."""
        return {cell: self.after(position, cell) for cell in self.legal(position)}


def _read(board: Board, path: Path, size: int | None = None, by_name: bool = False) -> bytes:
    """The bytes of a table file: ``manifest.json`` (``size`` None) up to :data:`MAX_MANIFEST_BYTES`, any
    other of the ``size`` its manifest gives; an unreadable one is a :class:`UnitileError` naming it (by
    its path, or with ``by_name`` by its file name alone)."""
    limit = MAX_MANIFEST_BYTES if size is None else size
    return read_bytes(f"tables {board}", path, UnitileError, size, limit, path.name if by_name else None)


_tables_for = loaded_once(Tables.load, default_root)


def tables_for(board: Board | str, directory: Directory = None) -> Tables:
    """The tables of a board, loaded once per process and directory (see :meth:`Tables.load`).

    ``directory`` defaults to :func:`default_root`; a board without tables there is a
    :class:`UnitileError` that says so in one line.
    """
    return _tables_for(_board(board), directory)


__all__ = [
    "ENDS",
    "ENV",
    "FORMAT",
    "HEADER",
    "KIND_EVEN",
    "KIND_ODD",
    "MAGIC",
    "Tables",
    "default_root",
    "tables_for",
]
