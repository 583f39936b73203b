"""A lookup object with the three methods of ``unitile_py.unitile.tables.Tables``, built from
tests/game/unitile/reference.py.

It is an exact, independent implementation of the rules for small boards (3x3 exactly over the
rationals, 3x5 in floating point from a sparse direct solve), so the players can be tested against
it with or without the committed tables. Building the 3x5 oracle takes about 15 s; :func:`oracle`
caches each board for the whole test session.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from tests.game.unitile.reference import exact_r, float_r, legal_moves, minimax, total_values
from unitile_py.unitile import Board, Position


class Oracle:
    """``legal``, ``outcome`` and ``best`` for every position of a small board, from the reference."""

    def __init__(self, board: Board, total: list[Any]) -> None:
        self.board = board
        self._total = total
        self._solve = minimax(board, total)

    def legal(self, position: Position) -> tuple[int, ...]:
        """Cells of the legal slides, sorted (none once a colour is united)."""
        if position.winner() is not None:
            return ()
        return tuple(legal_moves(position, self._total.__getitem__))

    def outcome(self, position: Position) -> tuple[str, int]:
        """``("win"|"loss", plies)`` for the side to move with perfect play (fastest win, longest loss)."""
        if position.winner() is not None:
            raise ValueError(f"{position}: a colour is already united")
        return self._solve(position)

    def after(self, position: Position, cell: int) -> tuple[str, int]:
        """The mover's result with perfect play after sliding ``cell``, counting that slide."""
        child = position.play(cell)
        winner = child.winner()
        if winner is not None:
            return ("win" if winner == position.turn else "loss", 1)
        theirs, plies = self._solve(child)
        return ("loss" if theirs == "win" else "win", plies + 1)

    def moves(self, position: Position) -> dict[int, tuple[str, int]]:
        """For each legal slide, :meth:`after` of it."""
        return {cell: self.after(position, cell) for cell in self.legal(position)}

    def best(self, position: Position) -> tuple[int, ...]:
        """Cells of the slides that perfect play may choose: the fastest win, else the longest loss."""
        results = {cell: self.after(position, cell) for cell in self.legal(position)}
        top = max(results.values(), key=rank)
        return tuple(c for c, r in results.items() if r == top)


def rank(result: tuple[str, int]) -> tuple[int, int]:
    """A sort key for results from the mover's side: any win beats any loss, then fast wins, long losses."""
    outcome, plies = result
    return (1, -plies) if outcome == "win" else (0, plies)


@cache
def oracle(size: str) -> Oracle:
    """The oracle of a board such as ``"3x3"`` (exact) or ``"3x5"`` (floating point), built once."""
    board = Board.parse(size)
    if board.positions > 1000:
        # The floating-point reference uses scipy's sparse solver: the game tests need only the standard
        # library, pytest and hypothesis, so without scipy the boards beyond 3x3 are skipped.
        pytest.importorskip("scipy", reason="the 3x5 reference needs scipy")
    r = exact_r(board) if board.positions <= 1000 else float_r(board)
    return Oracle(board, total_values(board, r))


#: The lookups the players are tested against: the reference oracle and the committed tables.
BACKENDS = ("oracle:3x3", "oracle:3x5", "tables:3x3", "tables:3x5", "tables:5x5")


def lookups(name: str) -> Any:
    """The lookups named ``oracle:SIZE`` (this module) or ``tables:SIZE`` (the committed tables)."""
    kind, size = name.split(":")
    if kind == "oracle":
        return oracle(size)
    from unitile_py.unitile.tables import tables_for

    return tables_for(size)
