"""Unitile for the generic search of :mod:`unitile_py.mcts`: the legal slides of positions, cached.

Playouts are the inner loop, so legality is looked up once per position: :class:`SlideCache` keeps,
for every position seen, its legal slides as search edges ``(cell, key after, colour it unites or
"")``, where the *key* of a position is ``red << 7 | bubble``. A random playout is then a dictionary
lookup, a random number and a tuple per ply. The cache depends only on the tables, so every search
on the same tables shares it (within a game, across games and across both players of a match) and
it never changes what a search chooses.

A search state is a key: the side to move is not part of it (the tables answer the same for both),
and it alternates.

>>> from unitile_py.unitile import Board, Position
>>> from unitile_py.unitile.lookups import ADJACENT_ONLY  # every slide legal
>>> from unitile_py.mcts import Search
>>> start = Position.start(Board.get(3, 3))
>>> domain = SlideDomain(start.board, ADJACENT_ONLY)
>>> stats = Search(domain, random.Random(1)).run(key(start.red, start.bubble), "r", playouts=16)
>>> sorted(stats) == sorted(start.slides()), sum(visits for visits, wins in stats.values())
(True, 16)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..colours import BLUE, RED, other
from ..mcts import Edge
from .board import Board
from .lookups import Lookups
from .position import Position

#: Positions kept by a :class:`SlideCache` before it starts afresh (about 300 bytes each in CPython).
CACHE_LIMIT = 100_000

#: A search state: the key ``red << 7 | bubble`` of a position.
State = int


def key(red: int, bubble: int) -> State:
    """The search state of the position with red tiles ``red`` and the bubble on ``bubble``."""
    return red << 7 | bubble


class SlideCache:
    """Legal slides of positions as search edges, by position key."""

    def __init__(self, tables: Lookups, limit: int = CACHE_LIMIT) -> None:
        self.tables = tables
        self.limit = limit
        self.entries: dict[int, tuple[Edge[State], ...]] = {}
        self.misses = 0

    def slides(self, board: Board, red: int, bubble: int) -> tuple[Edge[State], ...]:
        """The legal slides of the position with red tiles ``red`` and the bubble on ``bubble``.

        The position must have neither colour united.
        """
        found = self.entries.get(red << 7 | bubble)
        if found is not None:
            return found
        return self.fill(board, red, bubble)

    def fill(self, board: Board, red: int, bubble: int) -> tuple[Edge[State], ...]:
        """Look the position up in the tables and remember it."""
        self.misses += 1
        legal = self.tables.legal(Position(board, red, bubble, RED))
        full = board.full
        united = board.connected
        out: list[Edge[State]] = []
        for cell in legal:
            if red >> cell & 1:
                child_red = red ^ (1 << cell) ^ (1 << bubble)
                colour = RED if united(child_red) else ""
            else:
                child_red = red
                colour = BLUE if united(full & ~red & ~(1 << cell)) else ""
            out.append((cell, child_red << 7 | cell, colour))
        entry = tuple(out)
        if len(self.entries) >= self.limit:
            self.entries.clear()
        self.entries[red << 7 | bubble] = entry
        return entry


_CACHES: dict[int, tuple[Lookups, SlideCache]] = {}


def shared_cache(tables: Lookups) -> SlideCache:
    """The one :class:`SlideCache` of these tables (kept for the few tables objects a process uses)."""
    found = _CACHES.get(id(tables))
    if found is not None and found[0] is tables:
        return found[1]
    if len(_CACHES) >= 8:
        _CACHES.clear()
    cache = SlideCache(tables)
    _CACHES[id(tables)] = (tables, cache)
    return cache


class SlideDomain:
    """The :class:`unitile_py.mcts.Domain` of Unitile on one board: cached slides, uniform playouts."""

    def __init__(self, board: Board, tables: Lookups, cache: SlideCache | None = None) -> None:
        self.board = board
        self.cache = cache if cache is not None else shared_cache(tables)

    def edges(self, state: State) -> tuple[Edge[State], ...]:
        """The legal slides of a position in which neither colour is united."""
        found = self.cache.entries.get(state)
        return found if found is not None else self.cache.fill(self.board, state >> 7, state & 127)

    def turn_after(self, turn: str, child: State) -> str:
        """Unitile never skips a turn."""
        return other(turn)

    def rollout(self, state: State, edges: Sequence[Edge[State]], turn: str, rng: random.Random) -> str:
        """Uniformly random legal slides until one unites a colour; that colour."""
        entries = self.cache.entries
        fill = self.cache.fill
        board = self.board
        rand = rng.random
        while True:
            n = len(edges)
            _, child, united = edges[int(rand() * n)] if n > 1 else edges[0]
            if united:
                return united
            found = entries.get(child)
            edges = found if found is not None else fill(board, child >> 7, child & 127)


__all__ = ["CACHE_LIMIT", "SlideCache", "SlideDomain", "State", "key", "shared_cache"]
