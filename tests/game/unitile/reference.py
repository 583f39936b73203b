"""Independent truth for small boards, written without the pipeline: values and brute-force minimax.

* :func:`exact_r` solves ``deg(P) r(P) - sum r(P') = deg(P)`` (sum over the neighbours where red is not
  united) over the rationals by sparse Gaussian elimination: exact, for boards up to 3x3.
* :func:`float_r` solves the same system with scipy's sparse direct solver (3x5 and up to ~10^6 unknowns).
* :func:`minimax` plays the game out by plain recursion over the legal moves that the given T values
  define: win/loss for the side to move and the distance in plies (fastest win, longest loss).

Everything is indexed by ``unitile_py.unitile.index`` position indices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from unitile_py.colours import BLUE, RED
from unitile_py.unitile import Board, Position


def _positions(board: Board) -> list[Position]:
    return [Position.from_index(board, i) for i in range(board.positions)]


@cache
def neighbour_table(board: Board) -> tuple[tuple[int, ...], ...]:
    """For each index, the indices of the positions one slide away."""
    out = []
    for p in _positions(board):
        out.append(tuple(p.play(c).index() for c in p.slides()))
    return tuple(out)


@cache
def red_united(board: Board) -> tuple[bool, ...]:
    """For each index, whether red is united."""
    return tuple(p.united(RED) for p in _positions(board))


@cache
def swap_index(board: Board) -> tuple[int, ...]:
    """For each index, the index of the colour-swapped position."""
    return tuple(p.swap_colours().index() for p in _positions(board))


@cache
def exact_r(board: Board) -> tuple[Fraction, ...]:
    """r for every index, exactly (expected random slides until red is united)."""
    nbrs, united = neighbour_table(board), red_united(board)
    unknown = [i for i in range(board.positions) if not united[i]]
    rows: dict[int, dict[int, Fraction]] = {}
    rhs: dict[int, Fraction] = {}
    for i in unknown:
        row: dict[int, Fraction] = {i: Fraction(len(nbrs[i]))}
        for j in nbrs[i]:
            if not united[j]:
                row[j] = row.get(j, Fraction(0)) - 1
        rows[i] = row
        rhs[i] = Fraction(len(nbrs[i]))
    # Forward elimination in index order; the matrix is symmetric positive definite, so no pivoting.
    order = sorted(unknown)
    for k in order:
        pivot_row = rows[k]
        pivot = pivot_row[k]
        for i in [j for j in pivot_row if j > k]:
            row = rows[i]
            factor = row.get(k)
            if not factor:
                continue
            factor = factor / pivot
            for j, v in pivot_row.items():
                if j >= k:
                    row[j] = row.get(j, Fraction(0)) - factor * v
            del row[k]
            rhs[i] -= factor * rhs[k]
    values: dict[int, Fraction] = {}
    for k in reversed(order):
        row = rows[k]
        acc = rhs[k] - sum(v * values[j] for j, v in row.items() if j > k)
        values[k] = acc / row[k]
    return tuple(values.get(i, Fraction(0)) for i in range(board.positions))


def float_r(board: Board) -> list[float]:
    """r for every index in floating point, from scipy's sparse direct solver."""
    import numpy as np
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla

    nbrs, united = neighbour_table(board), red_united(board)
    unknown = np.array([i for i in range(board.positions) if not united[i]])
    where = -np.ones(board.positions, dtype=np.int64)
    where[unknown] = np.arange(len(unknown))
    rows, cols, vals = [], [], []
    for k, i in enumerate(unknown):
        rows.append(k)
        cols.append(k)
        vals.append(float(len(nbrs[i])))
        for j in nbrs[i]:
            if not united[j]:
                rows.append(k)
                cols.append(int(where[j]))
                vals.append(-1.0)
    n = len(unknown)
    a = sp.csc_matrix((vals, (rows, cols)), shape=(n, n))
    b = np.array([float(len(nbrs[i])) for i in unknown])
    x = spla.splu(a, permc_spec="MMD_AT_PLUS_A", options={"SymmetricMode": True}).solve(b)
    out = np.zeros(board.positions)
    out[unknown] = x
    return out.tolist()


def total_values(board: Board, r: Sequence[Any]) -> list[Any]:
    """T = r + b for every index, with b(P) = r(swap(P))."""
    sw = swap_index(board)
    return [r[i] + r[sw[i]] for i in range(board.positions)]


def legal_moves(position: Position, total: Callable[[int], Any]) -> list[int]:
    """Cells of the legal slides: those that unite a colour or lower T strictly."""
    here = total(position.index())
    out = []
    for cell in position.slides():
        child = position.play(cell)
        if child.winner() is not None or total(child.index()) < here:
            out.append(cell)
    return sorted(out)


def minimax(board: Board, total: Sequence[Any]) -> Callable[[Position], tuple[str, int]]:
    """A function giving ("win"|"loss", plies) for the side to move under perfect play."""

    @cache
    def solve(index: int, turn: str) -> tuple[str, int]:
        position = Position.from_index(board, index, turn)
        best: tuple[str, int] | None = None
        for cell in legal_moves(position, total.__getitem__):
            child = position.play(cell)
            winner = child.winner()
            if winner is not None:
                result = ("win", 1) if winner == turn else ("loss", 1)
            else:
                outcome, plies = solve(child.index(), child.turn)
                result = ("win" if outcome == "loss" else "loss", plies + 1)
            if best is None or _better(result, best):
                best = result
        if best is None:
            raise AssertionError(f"no legal move in {position}")
        return best

    return lambda position: solve(position.index(), position.turn)


def _better(a: tuple[str, int], b: tuple[str, int]) -> bool:
    """Whether outcome a is preferred to b by the side to move: fastest win, longest loss."""
    if a[0] != b[0]:
        return a[0] == "win"
    return a[1] < b[1] if a[0] == "win" else a[1] > b[1]


__all__ = [
    "BLUE",
    "RED",
    "exact_r",
    "float_r",
    "legal_moves",
    "minimax",
    "neighbour_table",
    "red_united",
    "swap_index",
    "total_values",
]
