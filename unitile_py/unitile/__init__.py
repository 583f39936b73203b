"""Unitile, the sliding-tile game by Mark Steere: rules, notation and lookups in pure Python.

The rules are at marksteeregames.com. Modules: :mod:`.board`, :mod:`.position`, :mod:`.index` and
:mod:`.canonical` (geometry, positions, dense indices, symmetry classes); :mod:`.notation`;
:mod:`.lookups`, :mod:`.table_files` and :mod:`.tables` (the value rule from ``tables/``); :mod:`.game`
(the game object that enforces it); :mod:`.bans` (why a slide is refused, in words); :mod:`.players`
and :mod:`.slide_search` (levels 1-6); :mod:`.match`, :mod:`.terminal_play`, :mod:`.analyze`,
:mod:`.drawing` and :mod:`.cli` (the command line); :mod:`.webapi` (the site worker's service).

>>> from unitile_py.unitile import Position, parse_position
>>> Position.start(parse_position("BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r").board).turn
'r'
"""

from ..colours import BLUE, RED
from ..errors import UnitileError
from .bans import IllegalSlide
from .board import Board
from .game import Game
from .index import Indexer
from .notation import Record, format_position, format_record, parse_move, parse_position, parse_record
from .position import Position

__all__ = [
    "BLUE",
    "RED",
    "Board",
    "Game",
    "IllegalSlide",
    "Indexer",
    "Position",
    "Record",
    "UnitileError",
    "format_position",
    "format_record",
    "parse_move",
    "parse_position",
    "parse_record",
]
