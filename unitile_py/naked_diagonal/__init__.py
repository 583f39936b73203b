"""Naked Diagonal, the connection game by Mark Steere: rules, notation, tables and players in pure Python.

The rules are at marksteeregames.com; as this project reads them, with proofs, in docs/naked-diagonal.md.
Modules: :mod:`.grid` and :mod:`.position` (the N x N board, point names, bit masks and the eight
symmetries; immutable positions and their text form); :mod:`.rules` (naked diagonals, dead points,
chains and the winner); :mod:`.witness`, :mod:`.construct`, :mod:`.areas` and :mod:`.cache` (clean
fillings and the exact NDE solver, with its bounded cache); :mod:`.legality` (legal placements,
which ban a placement meets, NDE regions); :mod:`.bans` (the bans and their words); :mod:`.culprit`
(the part of an NDE area to blame); :mod:`.notation` (records); :mod:`.keys` (stored positions' keys,
canonical under the symmetries); :mod:`.tables` (perfect play on the solved sizes, from
``tables/naked-diagonal/``); :mod:`.strategy` (a winner's strategy: the placement at
each of the winner's turns it reaches); :mod:`.game` (the game object that enforces the rules
and skips a player who cannot place); :mod:`.players`, :mod:`.search` and :mod:`.perfect` (levels
1-6 and the hint; level 6 on a strategy size); :mod:`.cli` (the command line); :mod:`.webapi` (the
site worker's service).

>>> from unitile_py.naked_diagonal import Position, after, legal_placements
>>> pos = after(Position.empty(3), 4)
>>> str(pos), [len(x) for x in legal_placements(pos)]
('.../.R./... b', [4, 8])
"""

from ..colours import BLUE, COLOURS, RED, other
from ..errors import NakedDiagonalError
from .bans import Ban, IllegalPlacement, LeavesNDE, NakedDiagonal, Occupied
from .game import Game, parse_record
from .grid import Grid, Symmetry
from .legality import (
    after,
    explain,
    has_legal_placement,
    is_legal,
    legal_masks,
    legal_placements,
    nde_regions,
)
from .notation import NDRecord, format_record
from .position import Position
from .rules import chain, winner


def winning_chain(position: Position) -> tuple[int, ...]:
    """The points of the winner's stones that join their two edges (empty when nobody has won)."""
    won = position.winner()
    if won is None:
        return ()
    return Grid.points(chain(position.grid, position.stones(won), won))


__all__ = [
    "BLUE",
    "COLOURS",
    "RED",
    "Ban",
    "Game",
    "Grid",
    "IllegalPlacement",
    "LeavesNDE",
    "NDRecord",
    "NakedDiagonal",
    "NakedDiagonalError",
    "Occupied",
    "Position",
    "Symmetry",
    "after",
    "explain",
    "format_record",
    "has_legal_placement",
    "is_legal",
    "legal_masks",
    "legal_placements",
    "nde_regions",
    "other",
    "parse_record",
    "winner",
    "winning_chain",
]
