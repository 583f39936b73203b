"""Naked Diagonal for the generic search of :mod:`unitile_py.mcts`: quick moves and playouts.

The exact legality test (no naked diagonal, no naked-diagonal-equivalent area left) costs milliseconds
on a large board, far too much for the thousands of positions a search visits. So the search plays
exactly only at its root: the player hands it the real legal placements there, and whatever it picks
is one of them. Below the root, and in the random playouts, a move is any empty point where the stone
forms no naked diagonal (the first half of the rule, a few bit operations). A side with no such point
is skipped; when neither side has one, the rest of the board is filled at random and the winner is
the colour that joins its edges under the crossing rule of a full board (Red by a chain of stones
that may step diagonally, else Blue), which is exactly one of them.

A search state is a :class:`Position`; a playout never builds one, it works on two masks.

>>> import random
>>> from unitile_py.mcts import Search
>>> p = Position.empty(5)
>>> domain = QuickDomain(p.grid)
>>> stats = Search(domain, random.Random(3)).run(p, "r", playouts=50)
>>> len(stats), sum(v for v, _ in stats.values())
(25, 50)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..colours import BLUE, RED, other
from ..mcts import Edge
from .grid import Grid
from .notation import SKIP
from .position import Position, _unchecked
from .rules import chain, forming, winning_points


def crossing_winner(grid: Grid, red: int) -> str:
    """The winner of a full board whose red stones are ``red``, naked diagonals allowed: Red if a chain
    of red stones that may also step diagonally joins north and south, else Blue (a Blue orthogonal
    chain from west to east then exists: the crossing rule of Hex on a square board)."""
    group = red & grid.north
    while True:
        bigger = (group | grid.dilate8(group)) & red
        if bigger == group:
            return RED if group & grid.south else BLUE
        group = bigger


class QuickDomain:
    """The search's view of Naked Diagonal on one grid (see the module docstring)."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid

    def _free(self, own: int, empty: int) -> int:
        """The empty points where a stone of ``own``'s colour forms no naked diagonal."""
        return empty & ~forming(self.grid, own, empty)

    def edges(self, state: Position) -> list[Edge[Position]]:
        """The quick moves of the side to move (a skip when it has none)."""
        g = self.grid
        red, blue, turn = state.red, state.blue, state.turn
        empty = g.full & ~(red | blue)
        own = red if turn == RED else blue
        free = self._free(own, empty)
        if not free:
            theirs = blue if turn == RED else red
            if self._free(theirs, empty):
                return [(SKIP, _unchecked(g, red, blue, other(turn)), "")]
            return [(SKIP, state, self._finish(red, empty, random.Random(red ^ blue << 1)))]
        out: list[Edge[Position]] = []
        nxt = other(turn)
        winning = winning_points(g, own, turn, free)
        for p in g.bits(free):
            bit = 1 << p
            if turn == RED:
                child = _unchecked(g, red | bit, blue, nxt)
            else:
                child = _unchecked(g, red, blue | bit, nxt)
            out.append((p, child, turn if winning >> p & 1 else ""))
        return out

    def turn_after(self, turn: str, child: Position) -> str:
        """The side to move is part of the state."""
        return child.turn

    def _finish(self, red: int, empty: int, rng: random.Random) -> str:
        """Fill ``empty`` at random and apply the crossing rule."""
        for p in self.grid.bits(empty):
            if rng.random() < 0.5:
                red |= 1 << p
        return crossing_winner(self.grid, red)

    def rollout(self, state: Position, edges: Sequence[Edge[Position]], turn: str, rng: random.Random) -> str:
        """Quick random placements from ``state`` to the end; the winner."""
        return self.playout(state, turn, rng)[0]

    def playout(self, state: Position, turn: str, rng: random.Random) -> tuple[str, int, int]:
        """Quick random placements from ``state`` to the end: ``(winner, Red's points, Blue's points)``.

        The side to move takes the first point of a shuffled list of the empty points where its stone
        forms no naked diagonal (a uniform choice among them), or is skipped.
        """
        g = self.grid
        diag = g.diag_bits  # rules.forms written out: the playouts' innermost loop
        red, blue = state.red, state.blue
        taken = red | blue
        pending = [p for p in range(g.size) if not taken >> p & 1]
        rng.shuffle(pending)
        red_turn = turn == RED
        stuck = 0  # consecutive turns without a placement
        while pending and stuck < 2:
            own = red if red_turn else blue
            for i in range(len(pending)):
                p = pending[i]
                for qbit, shared in diag[p]:
                    if own & qbit and not own & shared:
                        break
                else:
                    last = pending.pop()
                    if i < len(pending):
                        pending[i] = last
                    if red_turn:
                        red |= 1 << p
                    else:
                        blue |= 1 << p
                    stuck = 0
                    break
            else:
                stuck += 1
            red_turn = not red_turn
        placed_red, placed_blue = red & ~state.red, blue & ~state.blue
        if pending:
            return self._finish(red, g.full & ~(red | blue), rng), placed_red, placed_blue
        return (RED if chain(g, red, RED) else BLUE), placed_red, placed_blue


__all__ = ["QuickDomain", "crossing_winner"]
