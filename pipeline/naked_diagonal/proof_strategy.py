"""The winner's strategy of a board from a df-pn proof (``nd-strategy --search``), for boards without tables.

:func:`strategy_from_search` proves the empty board with :class:`.dfpn.DfpnSearch` and then walks the
proof: at each of the winner's turns it keeps one winning placement, at each of the loser's turns it
follows every legal reply, and each canonical position is visited once. The winner's placement is a
placement that wins at once if there is one; otherwise, among the children the transposition table
holds as lost for the loser, the one whose proof took the fewest nodes (a small proof makes a small
strategy); otherwise (its entry overwritten) the first child, in the search's order, that a new
search proves lost, with budgets growing tenfold. What it returns is checked apart from all of this by
:mod:`.check_strategy`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from unitile_py.colours import BLUE, RED
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.position import Position

from .dfpn import DfpnSearch, tt_find
from .kernels import legal_points, winner_bits
from .moves import BLUE as BLUE_COLUMN
from .moves import POINT, TURN, canonical_pair
from .moves import RED as RED_COLUMN

#: The first budget (nodes) of a new search for a winning child whose table entry was lost.
FIRST_BUDGET = 10_000


@dataclass
class SearchStrategy:
    """A strategy found by :func:`strategy_from_search`: its winner (``"r"`` or ``"b"``), the placement
    at each of the winner's turns, and what building it cost."""

    n: int
    winner: str
    moves: dict[Position, int] = field(default_factory=dict)
    #: Nodes of the proof of the empty board, and of the searches again while walking it.
    proof_nodes: int = 0
    walk_nodes: int = 0
    loser_turns: int = 0
    seconds: float = 0.0


def strategy_from_search(
    n: int, search: DfpnSearch | None = None, log: Callable[[str], None] | None = None
) -> SearchStrategy:
    """Prove the empty n x n board and return the winner's strategy (module docstring)."""
    began = time.perf_counter()
    search = search or DfpnSearch(n)
    if search.prove(0, 0, 0) is None:  # no budget: only a proof ends it
        raise AssertionError("df-pn without a budget answered unknown")
    first = search.nodes
    winner_turn = 0 if search.known(0, 0, 0) else 1
    out = SearchStrategy(n, RED if winner_turn == 0 else BLUE, proof_nodes=first)
    g = search.geo.args
    grid = Grid.get(n)
    seen: set[tuple[int, int]] = set()
    stack = [(0, 0, 0)]
    while stack:
        red, blue, turn = stack.pop()
        if winner_bits(g, red, blue):
            continue
        key = canonical_pair(g, red, blue, turn)
        if key in seen:
            continue
        seen.add(key)
        if turn == winner_turn:
            move = _winning_move(search, red, blue, turn)
            out.moves[Position(grid, red, blue, RED if turn == 0 else BLUE)] = move
            bit = 1 << move
            stack.append((red | bit, blue, 1) if turn == 0 else (red, blue | bit, 0))
        else:
            out.loser_turns += 1
            mine = legal_points(g, red, blue, turn, search.memo)
            for p in Grid.points(mine):
                bit = 1 << p
                stack.append((red | bit, blue, 1) if turn == 0 else (red, blue | bit, 0))
        if log is not None and len(seen) % 100_000 == 0:
            log(f"  strategy: {len(out.moves):,} of the winner's turns, {out.loser_turns:,} of the loser's")
    out.walk_nodes = search.nodes - first
    out.seconds = time.perf_counter() - began
    return out


def _winning_move(search: DfpnSearch, red: int, blue: int, turn: int) -> int:
    """A placement that wins for the side to move of a proven win (module docstring)."""
    rows, count, point = search.children(red, blue, turn)
    if point >= 0:
        return point
    g = search.geo.args
    keys, nums = search.table.keys, search.table.nums
    best, least = -1, -1
    for j in range(count):
        at = tt_find(keys, *canonical_pair(g, int(rows[j, RED_COLUMN]), int(rows[j, BLUE_COLUMN]),
                                           int(rows[j, TURN])))
        if at >= 0 and nums[at, 1] == 0 and (best < 0 or nums[at, 2] < least):
            best, least = int(rows[j, POINT]), int(nums[at, 2])
    if best >= 0:
        return best
    budget = FIRST_BUDGET
    while True:
        for j in range(count):
            child = int(rows[j, RED_COLUMN]), int(rows[j, BLUE_COLUMN]), int(rows[j, TURN])
            if search.prove(*child, budget=budget) is False:
                return int(rows[j, POINT])
        budget *= 10


__all__ = ["SearchStrategy", "strategy_from_search"]
