"""Computer players of Naked Diagonal: levels 1 to 5, 6 (perfect play) on the solved sizes, the hint.

* Level 1 places at random among the legal placements.
* Levels 2 to 5 search with Monte Carlo tree search (:mod:`unitile_py.mcts`) over quick moves and
  random playouts (:mod:`unitile_py.naked_diagonal.search`): :func:`playouts_for` games per move, a
  number fixed by the level and the board size (:data:`PLAYOUTS` up to 9x9, fewer on larger boards, whose
  playouts are longer, so that a move takes about as long on every size). At the
  root the search chooses only among the real legal placements, so every move played is legal. A
  placement that wins at once is taken; a lone legal placement needs no search.
* Level 6 (:data:`PERFECT`) plays perfectly from the tables of the solved sizes
  (:mod:`unitile_py.naked_diagonal.tables`: 2x2, 3x3, 4x4): the fastest win, else the longest
  resistance, ties drawn at random. On a size whose folder holds a strategy instead
  (:mod:`unitile_py.naked_diagonal.strategy`, 5x5) it follows the stored proof as the winner, and
  otherwise searches exactly or falls back to level 5 (:mod:`unitile_py.naked_diagonal.perfect`). On
  other sizes it refuses to move (:func:`levels_for` lists the levels of a size).
* :func:`hint` is the choice of the strongest level, seeded by the position, so a position always
  gets the same hint.

Every player is made from a level and a seed and is a :class:`unitile_py.playing.Player`:
``choose(position, rng=None)`` returns the point to place on, every random draw from ``rng`` (by
default :func:`unitile_py.seeds.position_rng` of its seed and the position), so a seeded game is
reproducible move for move.

>>> from unitile_py.naked_diagonal.position import Position
>>> p = Position.empty(5)
>>> make_player(1, 7).choose(p) == make_player(1, 7).choose(p)
True
>>> make_player(7, 1)  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
unitile_py.errors.NakedDiagonalError: level 7: Naked Diagonal has levels 1 to 5, and 6 (perfect) on 2x2, ...
>>> q = Position.empty(3)
>>> q.grid.name(make_player(PERFECT, 1).choose(q)) in ("a2", "c2"), levels_for(3), levels_for(7)
(True, (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from ..colours import RED, other
from ..errors import NakedDiagonalError
from ..mcts import Edge, RaveSearch, Steps, choose_steps, finish
from ..playing import Player
from ..seeds import player_rng
from . import perfect
from .grid import Grid
from .legality import legal_mask
from .position import Position, _unchecked
from .rules import winning_points
from .search import QuickDomain
from .strategy import strategy_for, strategy_sizes
from .tables import solved_sizes, tables_for

#: The computer levels, weakest first.
LEVELS = (1, 2, 3, 4, 5)
#: Random games played out before each move by the search levels, on boards up to :data:`FULL_SIZE`.
PLAYOUTS = {2: 30, 3: 150, 4: 600, 5: 2200}
#: The largest board on which the search levels play :data:`PLAYOUTS` games; a playout costs about the
#: same per empty point on every size, so a larger board gets fewer in proportion to its points.
FULL_SIZE = 9
#: The level whose choice is the hint.
BEST = 5
#: The perfect-play level, on the board sizes with tables or a strategy.
PERFECT = 6
#: Where level 6's choice came from on a size with tables.
TABLES = "the tables"
#: Where level 6's placement came from on a solved size when the position is not in the tables.
UNREACHABLE = "not in the tables (play from the empty board never reaches this start): level 5's choice"


def playouts_for(level: int, n: int) -> int:
    """The random games search ``level`` (2 to 5) plays out before a move on the n x n board:
    :data:`PLAYOUTS` up to :data:`FULL_SIZE`, and in proportion to 1 / n² above it (docs/players.md has
    the measured time per move)."""
    full = PLAYOUTS[level]
    return full if n <= FULL_SIZE else max(1, full * FULL_SIZE**2 // (n * n))


def legal_points(position: Position) -> tuple[int, ...]:
    """The legal placements of the side to move; :class:`NakedDiagonalError` once the game is over."""
    if position.winner() is not None:
        raise NakedDiagonalError(f"position {position}: the game is over")
    points = position.grid.points(legal_mask(position, position.turn))
    if not points:
        raise NakedDiagonalError(f"position {position}: the side to move has no legal placement")
    return points


@dataclass(eq=False)
class RandomPlayer:
    """Level 1: a uniformly random legal placement."""

    seed: int
    level: int = 1

    def choose(self, position: Position, rng: random.Random | None = None) -> int:
        """A legal placement drawn uniformly at random."""
        points = legal_points(position)
        rng = player_rng(rng, self.seed, position)
        return points[rng.randrange(len(points))]


@cache
def _domain(grid: Grid) -> QuickDomain:
    return QuickDomain(grid)


def root_edges(position: Position, points: tuple[int, ...]) -> list[Edge[Position]]:
    """Search edges for the legal placements of the side to move (the opponent moves next)."""
    g = position.grid
    turn = position.turn
    where = 0
    for p in points:
        where |= 1 << p
    winning = winning_points(g, position.stones(turn), turn, where)
    out: list[Edge[Position]] = []
    for p in points:
        bit = 1 << p
        red, blue = (
            (position.red | bit, position.blue) if turn == RED else (position.red, position.blue | bit)
        )
        out.append((p, _unchecked(g, red, blue, other(turn)), turn if winning >> p & 1 else ""))
    return out


@dataclass(eq=False)
class SearchPlayer:
    """Levels 2 to 5: the most visited legal placement of a search of ``playouts`` random games
    (None: :func:`playouts_for` the level and the board size)."""

    seed: int
    level: int
    playouts: int | None = None

    def choose(self, position: Position, rng: random.Random | None = None) -> int:
        """The chosen point."""
        return finish(self.steps(position, rng))

    def steps(self, position: Position, rng: random.Random | None = None) -> Steps[int]:
        """:meth:`choose` in pieces (:func:`unitile_py.mcts.choose_steps`): the same point."""
        points = legal_points(position)
        rng = player_rng(rng, self.seed, position)
        edges = root_edges(position, points)
        domain = _domain(position.grid)
        playouts = playouts_for(self.level, position.grid.n) if self.playouts is None else self.playouts
        return choose_steps(domain, position, position.turn, playouts, rng, edges=edges, search=RaveSearch)


@dataclass(eq=False)
class PerfectPlayer:
    """Level 6: a placement perfect play may choose (the tables' best), drawn at random among ties."""

    seed: int
    level: int = PERFECT

    def choose(self, position: Position, rng: random.Random | None = None) -> int:
        """The chosen point; :class:`NakedDiagonalError` on a board size without tables or strategy."""
        return self.choose_why(position, rng)[0]

    def steps(self, position: Position, rng: random.Random | None = None) -> Steps[int]:
        """:meth:`choose` in pieces: the same point."""
        point, _ = yield from self.why_steps(position, rng)
        return point

    def choose_why(self, position: Position, rng: random.Random | None = None) -> tuple[int, str]:
        """The chosen point and where it came from: ``"the tables"``, or on a strategy size
        :data:`perfect.PROOF`, :data:`perfect.EXACT`, :data:`perfect.FALLBACK` or
        :data:`perfect.DEFENCE`."""
        return finish(self.why_steps(position, rng))

    def why_steps(self, position: Position, rng: random.Random | None = None) -> Steps[tuple[int, str]]:
        """:meth:`choose_why` in pieces (on a strategy size, between the exact search's placements and
        the playouts of level 5's search): the same point."""
        legal_points(position)
        rng = player_rng(rng, self.seed, position)
        n = position.grid.n
        if n not in solved_sizes() and n in strategy_sizes():
            level5 = SearchPlayer(self.seed, BEST)
            found = yield from perfect.choose_steps(
                position, strategy_for(n), rng, lambda: level5.steps(position, rng)
            )
            return found
        tables = tables_for(n)
        if not tables.holds(position):  # a custom start the game allows but the tables do not hold
            point = yield from SearchPlayer(self.seed, BEST).steps(position, rng)
            return point, UNREACHABLE
        best = tables.best(position)
        return best[rng.randrange(len(best))], TABLES


def perfect_sizes() -> tuple[int, ...]:
    """The board sizes where level 6 plays: those with tables and those with a strategy."""
    return tuple(sorted({*solved_sizes(), *strategy_sizes()}))


def levels_for(n: int) -> tuple[int, ...]:
    """The levels that can play on the n x n board: 1 to 5, and 6 where the size is solved (tables) or
    has a stored proof (a strategy)."""
    return (*LEVELS, PERFECT) if n in perfect_sizes() else LEVELS


def make_player(level: int, seed: int) -> Player[Position]:
    """The computer player of ``level`` (1 to 6) with its seed; :class:`NakedDiagonalError` for other
    levels."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in (*LEVELS, PERFECT):
        sizes = ", ".join(f"{n}x{n}" for n in perfect_sizes()) or "no size (no tables)"
        raise NakedDiagonalError(
            f"level {level}: Naked Diagonal has levels 1 to 5, and 6 (perfect) on {sizes}"
        )
    if level == PERFECT:
        return PerfectPlayer(int(seed))
    if level == 1:
        return RandomPlayer(int(seed))
    return SearchPlayer(int(seed), level)


def hint(position: Position) -> int:
    """The placement the strongest search level would choose, the same every time for a position."""
    return finish(hint_steps(position))


def hint_steps(position: Position) -> Steps[int]:
    """:func:`hint` in pieces (a generator that pauses between a few playouts; see
    :func:`unitile_py.mcts.choose_steps`)."""
    return SearchPlayer(0, BEST).steps(position)


def best_hint(position: Position) -> tuple[int, str]:
    """:func:`best_hint_steps` run to its end."""
    return finish(best_hint_steps(position))


def best_hint_steps(position: Position) -> Steps[tuple[int, str]]:
    """The hint of the strongest level of the position's size, the same every time for a position, and
    where it came from: level 6's (seed 0; :meth:`PerfectPlayer.choose_why`) where the size has tables or
    a strategy, else level 5's (``"level 5"``). The page and ``nd play`` give this one."""
    if position.grid.n in perfect_sizes():
        return (yield from PerfectPlayer(0).why_steps(position))
    point = yield from hint_steps(position)
    return point, f"level {BEST}"


__all__ = [
    "BEST",
    "FULL_SIZE",
    "LEVELS",
    "PERFECT",
    "PLAYOUTS",
    "PerfectPlayer",
    "RandomPlayer",
    "SearchPlayer",
    "best_hint",
    "best_hint_steps",
    "hint",
    "hint_steps",
    "levels_for",
    "make_player",
    "perfect_sizes",
    "playouts_for",
]
