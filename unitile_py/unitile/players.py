"""Computer players, levels 1 to 6, and the hint.

* Level 1 slides at random among the legal slides.
* Levels 2 to 5 search with Monte Carlo tree search (:mod:`unitile_py.mcts` over the cached slides of
  :mod:`unitile_py.unitile.slide_search`): levels 2 and 3 play out
  3 random games per move, level 4 plays 16 and level 5 plays 300. Levels 3 to 5 slide the tile their
  search tried most; level 2 draws a slide with probability in proportion to how often its search
  tried it. All four take a slide that unites their own colour whenever there is one.
* Level 6 plays perfectly from the tables: the fastest win when it can win, otherwise the longest
  loss, with ties among equally good slides broken at random.
* :func:`hint` is the slide level 6 would choose for the side to move (the first of the equally good
  slides, so the same position always gets the same hint).

Every player is made from a level, a seed and the lookups (:class:`unitile_py.unitile.lookups.Lookups`:
the tables, or a reference in tests) and is a :class:`unitile_py.playing.Player`: ``choose(position,
rng=None)`` returns the cell of the tile to slide, every random draw from ``rng`` (by default
:func:`unitile_py.seeds.position_rng` of its seed and the position; the site's worker passes exactly
that generator), so a game between two seeded players is reproducible move for move.

>>> from unitile_py.unitile.lookups import ADJACENT_ONLY

>>> from unitile_py.unitile import Board, Position
>>> start = Position.start(Board.get(5, 5))
>>> player = make_player(1, seed=7, tables=ADJACENT_ONLY)
>>> player.choose(start) == player.choose(start) == make_player(1, 7, ADJACENT_ONLY).choose(start)
True
>>> player.choose(start) in start.slides()
True
>>> make_player(7, 1, ADJACENT_ONLY)
Traceback (most recent call last):
    ...
unitile_py.errors.UnitileError: level 7: the computer levels are 1 to 6
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..errors import UnitileError
from ..mcts import Steps, choose_steps, finish
from ..playing import Player
from ..seeds import player_rng
from .lookups import Lookups, playable_legal
from .position import Position
from .slide_search import SlideDomain, key

#: The computer levels, weakest first.
LEVELS = (1, 2, 3, 4, 5, 6)
#: Random games played out before each move by the search levels.
PLAYOUTS = {2: 3, 3: 3, 4: 16, 5: 300}
#: The level that plays perfectly.
PERFECT = 6


@dataclass(eq=False)
class RandomPlayer:
    """Level 1: a uniformly random legal slide."""

    seed: int
    tables: Lookups
    level: int = 1

    def choose(self, position: Position, rng: random.Random | None = None) -> int:
        """A legal slide drawn uniformly at random."""
        legal = playable_legal(position, self.tables)
        rng = player_rng(rng, self.seed, position)
        return legal[rng.randrange(len(legal))]


@dataclass(eq=False)
class PerfectPlayer:
    """Level 6, Perfect play: one of the slides ``tables.best`` lists (fastest win, else longest loss),
    drawn at random. It keeps the best result there is, so it cannot win a lost start."""

    seed: int
    tables: Lookups
    level: int = PERFECT

    def choose(self, position: Position, rng: random.Random | None = None) -> int:
        """An optimal slide; ties are broken by ``rng``."""
        best = optimal_slides(position, self.tables)
        if len(best) == 1:
            return best[0]
        rng = player_rng(rng, self.seed, position)
        return best[rng.randrange(len(best))]


@dataclass(eq=False)
class MctsPlayer:
    """Levels 2 to 5: a slide chosen by :func:`unitile_py.mcts.choose_move` from ``playouts`` random games.

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
        return finish(self.steps(position, rng))

    def steps(self, position: Position, rng: random.Random | None = None) -> Steps[int]:
        """:meth:`choose` in pieces (:func:`unitile_py.mcts.choose_steps`): the same slide."""
        playable_legal(position, self.tables)
        rng = player_rng(rng, self.seed, position)
        domain = SlideDomain(position.board, self.tables)
        state = key(position.red, position.bubble)
        return choose_steps(domain, state, position.turn, self.playouts, rng, self.proportional)


def optimal_slides(position: Position, tables: Lookups) -> tuple[int, ...]:
    """The slides perfect play may choose, sorted; :class:`UnitileError` once the game is over."""
    if position.winner() is not None:
        raise UnitileError(f"position {position}: the game is over")
    best = tuple(sorted(tables.best(position)))
    if not best:
        raise UnitileError(f"position {position}: the tables list no best slide")
    return best


def hint(position: Position, tables: Lookups) -> int:
    """The slide level 6 would choose for the side to move: the first (lowest cell) optimal slide."""
    return optimal_slides(position, tables)[0]


def make_player(level: int, seed: int, tables: Lookups) -> Player[Position]:
    """The computer player of ``level`` (1 to 6) with its seed; :class:`UnitileError` for other levels."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise UnitileError(f"level {level}: the computer levels are 1 to 6")
    if level == 1:
        return RandomPlayer(int(seed), tables)
    if level == PERFECT:
        return PerfectPlayer(int(seed), tables)
    return MctsPlayer(int(seed), tables, level=level, playouts=PLAYOUTS[level], proportional=level == 2)


__all__ = [
    "LEVELS",
    "PERFECT",
    "PLAYOUTS",
    "MctsPlayer",
    "PerfectPlayer",
    "RandomPlayer",
    "hint",
    "make_player",
    "optimal_slides",
]
