"""Monte Carlo tree search for computer levels 2 to 5.

Before each move the search plays ``playouts`` random games from the position. Each one walks down
the tree of slides tried so far, choosing by UCB1 (an untried slide first, then the slide with the
best mix of its win rate and how rarely it was tried), adds the first new position to the tree, and
from there plays uniformly random legal slides until a move unites a colour. The winner is credited
to every slide on the way down for the side that made it.

Playouts are the inner loop, so legality is looked up once per position: :class:`SlideCache` keeps,
for every position seen, its legal slides together with the red tiles after each slide and whether
the slide unites a colour. A random playout is then a dictionary lookup, a random number and a tuple
per ply. The cache depends only on the tables, so every search on the same tables shares it (within a
game, across games and across both players of a match) and it never changes what a search chooses.

>>> from unitile_py import Board, Position
>>> from unitile_py.lookups import ADJACENT_ONLY  # every slide legal
>>> search = Search(ADJACENT_ONLY, random.Random(1))
>>> start = Position.start(Board.get(3, 3))
>>> stats = search.run(start, playouts=16)
>>> sorted(stats) == sorted(start.slides()), sum(visits for visits, wins in stats.values())
(True, 16)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .board import Board
from .lookups import Lookups, playable_legal
from .position import BLUE, RED, Position, other
from .seeds import position_rng

#: UCB1 exploration constant (rewards are 0 or 1).
EXPLORATION = 1.4
#: Positions kept by a :class:`SlideCache` before it starts afresh (about 260 bytes each in CPython).
CACHE_LIMIT = 100_000

#: One legal slide: ``(cell, red tiles after it, colour it unites or "")``.
Slide = tuple[int, int, str]


class SlideCache:
    """Legal slides of positions, keyed by ``red << 7 | bubble`` (the side to move does not matter)."""

    def __init__(self, tables: Lookups, limit: int = CACHE_LIMIT) -> None:
        self.tables = tables
        self.limit = limit
        self.entries: dict[int, tuple[Slide, ...]] = {}
        self.misses = 0

    def slides(self, board: Board, red: int, bubble: int) -> tuple[Slide, ...]:
        """The legal slides of the position with red tiles ``red`` and the bubble on ``bubble``.

        The position must have neither colour united.
        """
        key = red << 7 | bubble
        found = self.entries.get(key)
        if found is not None:
            return found
        return self.fill(board, red, bubble)

    def fill(self, board: Board, red: int, bubble: int) -> tuple[Slide, ...]:
        """Look the position up in the tables and remember it."""
        self.misses += 1
        legal = self.tables.legal(Position(board, red, bubble, RED))
        full = board.full
        united = board.connected
        out = []
        for cell in legal:
            if red >> cell & 1:
                child_red = red ^ (1 << cell) ^ (1 << bubble)
                colour = RED if united(child_red) else ""
            else:
                child_red = red
                colour = BLUE if united(full & ~red & ~(1 << cell)) else ""
            out.append((cell, child_red, colour))
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


class _Node:
    """A position in the search tree; statistics are per slide, from the view of the side to move."""

    __slots__ = ("children", "slides", "total", "turn", "visits", "wins")

    def __init__(self, turn: str, slides: tuple[Slide, ...]) -> None:
        self.turn = turn
        self.slides = slides
        self.children: list[_Node | None] = [None] * len(slides)
        self.visits = [0] * len(slides)
        self.wins = [0] * len(slides)
        self.total = 0


class Search:
    """UCT search over random playouts; :meth:`run` returns how often each slide was tried."""

    def __init__(self, tables: Lookups, rng: random.Random, cache: SlideCache | None = None) -> None:
        self.cache = cache if cache is not None else shared_cache(tables)
        self.rng = rng

    def run(self, position: Position, playouts: int) -> dict[int, tuple[int, int]]:
        """Play ``playouts`` games from ``position`` (neither colour united).

        Returns ``{cell: (visits, wins)}`` for every legal slide, wins counted for the side to move.
        """
        board = position.board
        slides = self.cache.slides(board, position.red, position.bubble)
        root = _Node(position.turn, slides)
        for _ in range(playouts):
            self._iterate(board, root)
        return {slide[0]: (n, w) for slide, n, w in zip(root.slides, root.visits, root.wins, strict=True)}

    def _iterate(self, board: Board, root: _Node) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        while True:
            i = self._select(node)
            path.append((node, i))
            cell, child_red, united = node.slides[i]
            if united:
                winner = united
                break
            child = node.children[i]
            if child is None:
                child = _Node(other(node.turn), self.cache.slides(board, child_red, cell))
                node.children[i] = child
                winner = self._playout(board, child_red, cell, child.slides)
                break
            node = child
        for n, i in path:
            n.visits[i] += 1
            n.total += 1
            if winner == n.turn:
                n.wins[i] += 1

    def _select(self, node: _Node) -> int:
        visits = node.visits
        if node.total < len(visits):  # untried slides come first, and only then does UCB1 choose
            untried = [i for i, n in enumerate(visits) if n == 0]
            return untried[0] if len(untried) == 1 else untried[int(self.rng.random() * len(untried))]
        log_total = math.log(node.total)
        wins = node.wins
        best, best_score = 0, -1.0
        for i, n in enumerate(visits):
            score = wins[i] / n + EXPLORATION * math.sqrt(log_total / n)
            if score > best_score:
                best, best_score = i, score
        return best

    def _playout(self, board: Board, red: int, bubble: int, slides: tuple[Slide, ...]) -> str:
        """Uniformly random legal slides from this position until one unites a colour; the winner."""
        entries = self.cache.entries
        fill = self.cache.fill
        rand = self.rng.random
        while True:
            n = len(slides)
            cell, red, united = slides[int(rand() * n)] if n > 1 else slides[0]
            if united:
                return united
            bubble = cell
            found = entries.get(red << 7 | bubble)
            slides = found if found is not None else fill(board, red, bubble)


@dataclass(eq=False)
class MctsPlayer:
    """Levels 2 to 5: a slide chosen from a UCT search of ``playouts`` random games.

    A slide that unites the player's own colour is taken at once, and a lone legal slide needs no
    search. Otherwise ``proportional`` (level 2) draws a slide with probability in proportion to its
    visits; else the most visited slide is played, ties going to more wins, then to ``rng``.
    """

    seed: int
    tables: Lookups
    level: int
    playouts: int
    proportional: bool = False

    def choose(self, position: Position, rng: random.Random | None = None) -> int:
        """The chosen slide's cell."""
        playable_legal(position, self.tables)
        rng = rng if rng is not None else position_rng(self.seed, position)
        cache = shared_cache(self.tables)
        slides = cache.slides(position.board, position.red, position.bubble)
        winning = [cell for cell, _, united in slides if united == position.turn]
        if winning:
            return winning[0] if len(winning) == 1 else winning[rng.randrange(len(winning))]
        if len(slides) == 1:
            return slides[0][0]
        stats = Search(self.tables, rng, cache).run(position, self.playouts)
        cells = list(stats)
        if self.proportional:
            return rng.choices(cells, weights=[stats[c][0] for c in cells])[0]
        top = max(stats.values())
        tied = [c for c in cells if stats[c] == top]
        return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]


__all__ = ["CACHE_LIMIT", "EXPLORATION", "MctsPlayer", "Search", "SlideCache", "shared_cache"]
