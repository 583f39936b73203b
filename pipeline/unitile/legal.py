"""Legal moves of every position (the legal byte, :mod:`pipeline.unitile.cellpass`): the slides that unite a
colour or lower T = r + b strictly, from T alone.

The pipeline computes the legal bytes in its per-cell pass together with the checks
(:func:`pipeline.unitile.cellpass.cell_pass`); these are that pass on T, for a bubble cell or a whole board,
with what the rule depended on: the number of exact ties and the smallest gap ``|T(P) - T(P')|`` over the
slides that unite nothing.

With a made-up T, the position index itself, the slides from the 3x3 start to a smaller index are legal:

>>> import numpy as np
>>> from unitile_py.unitile import Board, Position
>>> board = Board.get(3, 3)
>>> p = Position.start(board)
>>> p.index(), [(board.name(c), p.play(c).index()) for c in p.slides()]
(329, [('b3', 120), ('a2', 259), ('c2', 399), ('b1', 549)])
>>> res = legal_bytes(board, np.arange(board.positions, dtype=np.float64))
>>> byte = int(res.legal[p.index()])
>>> [board.name(c) for k, c in enumerate(p.slides()) if byte >> k & 1], res.ties
(['b3', 'a2'], 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from unitile_py.unitile.board import Board

from .cellpass import (
    BLUE_UNITED,
    CHUNK,
    EQUAL,
    MIN_ANY_GAP,
    MIN_REL_GAP,
    RED_UNITED,
    SLIDES,
    STUCK,
    UNITED,
    block_cells,
    cell_pass,
)
from .geometry import Geometry

__all__ = ["BLUE_UNITED", "CHUNK", "RED_UNITED", "SLIDES", "UNITED", "LegalResult", "legal_bytes"]


@dataclass(frozen=True)
class LegalResult:
    """Legal bytes of a range of positions and what the rule depended on there."""

    legal: np.ndarray
    #: slides between positions with equal T (counted from both ends, so twice per slide).
    ties: int
    #: positions where neither colour is united and no slide is legal (the rules say there are none).
    stuck: int
    #: the smallest ``|T(P) - T(P')|`` over the slides that unite nothing, absolute and relative.
    min_gap: float
    min_rel_gap: float


def legal_of_bubble(board: Board, bubble: int, blocks: np.ndarray) -> LegalResult:
    """Legal bytes of the positions with the bubble on ``bubble``, from T of that bubble cell and of
    its neighbour cells (``blocks``: row 0 the cell, row ``1 + k`` its ``k``-th neighbour cell, by rank)."""
    c = board.colourings
    if blocks.shape != (1 + len(board.neighbours[bubble]), c):
        raise ValueError(f"T blocks have shape {blocks.shape}")
    legal, _, counts, reals = cell_pass(bubble, blocks, np.zeros(blocks.shape, np.int16), 0.0, np.inf,
                                        Geometry.of(board).args)  # fmt: skip
    return LegalResult(legal, int(counts[EQUAL]), int(counts[STUCK]), float(reals[MIN_ANY_GAP]),
                       float(reals[MIN_REL_GAP]))  # fmt: skip


def t_blocks(board: Board, total: np.ndarray, bubble: int) -> np.ndarray:
    """T of the bubble cell's positions and of its neighbour cells' (see :func:`legal_of_bubble`)."""
    c = board.colourings
    return np.stack([total[b * c : (b + 1) * c] for b in block_cells(board, bubble)])


def legal_bytes(board: Board, total: np.ndarray) -> LegalResult:
    """Legal bytes of every position of the board; ``total`` is T of every position."""
    if total.shape != (board.positions,):
        raise ValueError(f"T has shape {total.shape}, expected ({board.positions},)")
    parts = [legal_of_bubble(board, b, t_blocks(board, total, b)) for b in range(board.cells)]
    return LegalResult(
        np.concatenate([r.legal for r in parts]),
        sum(r.ties for r in parts),
        sum(r.stuck for r in parts),
        min(r.min_gap for r in parts),
        min(r.min_rel_gap for r in parts),
    )
