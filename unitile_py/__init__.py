"""Unitile, the sliding-tile game by Mark Steere: rules, notation and lookups in pure Python.

The same files run in CPython and in the browser under Pyodide, so this package imports nothing
outside the standard library.
"""

from .board import Board
from .errors import UnitileError
from .game import Game
from .index import Indexer
from .notation import Record, format_position, format_record, parse_move, parse_position, parse_record
from .position import BLUE, RED, Position

__all__ = [
    "BLUE",
    "RED",
    "Board",
    "Game",
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
