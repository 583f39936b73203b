"""The verifier of a winner's strategy (``python -m pipeline nd-check-strategy DIR``), apart from any search.

It replays a strategy folder (docs/naked-diagonal-tables.md, "Strategy files") from the empty board with
the game's exact rules and nothing else: no search, no tables, no numba kernels. It imports only the
rules engine of :mod:`unitile_py.naked_diagonal` (``grid``, ``position``, ``rules`` and ``legality``)
and the strategy reader (``tests/test_imports.py`` checks this). From the start:

* at each of the winner's turns the strategy must hold the position and give a placement that is legal
  there (:func:`unitile_py.naked_diagonal.legality.is_legal`, the exact legality of the game), or, in a
  compact strategy (manifest field ``bounded``), the documented bounded search
  (:func:`unitile_py.naked_diagonal.perfect.winning_placement`, an exact search with the same rules
  and a budget of positions) must find a placement that wins there: it has then searched every line
  below, and the replay stops;
* at each of the loser's turns every legal placement is followed;
* every line must end with the winner's chain: a line where the loser wins, or where the loser has no
  legal placement and nobody has won, is a failure;
* every stored position must be reached (a file with records no line uses was not written by the
  writer: a changed placement strands the records of the lines it left).

Positions are memoised by the verifier's own canonical form (the smallest image under the four
symmetries that keep each edge's owner, which keep the rules), so a subtree reached by several lines
is checked once. The first failure stops the check with one line: the placements from the start and
what failed.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field

from pipeline.errors import CheckFailed
from unitile_py.colours import COLOUR_NAMES, RED, other
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.grid import Grid, Symmetry
from unitile_py.naked_diagonal.legality import after, explain, is_legal, legal_masks
from unitile_py.naked_diagonal.perfect import Masks, winning_placement
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.strategy import Strategy

#: The legal masks the bounded searches share at most (then the cache starts again).
MASKS_KEPT = 500_000


class Rejected(CheckFailed):
    """The strategy does not win: the message names the line and what failed (exit status 1)."""


@dataclass
class Report:
    """What a check covered."""

    board: int
    winner: str
    stored: int
    #: Distinct positions (up to the symmetries that keep the players) of the winner's turns checked.
    winner_turns: int = 0
    #: Distinct positions of the loser's turns whose every legal placement was followed.
    loser_turns: int = 0
    #: Distinct positions where the winner has just won.
    won: int = 0
    #: Distinct positions of the winner's turns that the bounded search won (compact strategies).
    searched: int = 0
    seconds: float = 0.0
    used: set[int] = field(default_factory=set, repr=False)

    @property
    def positions(self) -> int:
        """All distinct positions checked."""
        return self.winner_turns + self.loser_turns + self.won + self.searched

    def text(self) -> str:
        """One line for the command line."""
        n = self.board
        searched = f", {self.searched:,} won by the bounded search" if self.searched else ""
        return (f"accepted: {n}x{n} strategy for {COLOUR_NAMES[self.winner]}, {self.stored:,} stored "
                f"positions ({len(self.used):,} used); checked {self.positions:,} positions: "
                f"{self.winner_turns:,} of {COLOUR_NAMES[self.winner]}'s turns, {self.loser_turns:,} of "
                f"{COLOUR_NAMES[other(self.winner)]}'s with every legal reply, {self.won:,} won"
                f"{searched}; {self.seconds:.1f} s")


def _keeping(grid: Grid) -> tuple[Symmetry, ...]:
    return tuple(s for s in grid.symmetries if not s.swaps_edges)


def memo_key(position: Position, keeping: tuple[Symmetry, ...]) -> tuple[int, int, str]:
    """The verifier's canonical form: the smallest ``(blue, red)`` image under the symmetries that keep
    each edge's owner, with the side to move."""
    blue, red = min((s.apply(position.blue), s.apply(position.red)) for s in keeping)
    return red, blue, position.turn


def check_strategy(strategy: Strategy) -> Report:
    """Replay ``strategy`` from the empty board (module docstring); :class:`Rejected` at the first
    failure, else the :class:`Report` of what was checked."""
    began = time.perf_counter()
    n, winner = strategy.n, strategy.winner
    loser = other(winner)
    grid = Grid.get(n)
    keeping = _keeping(grid)
    report = Report(n, winner, len(strategy))
    bounded = strategy.bounded
    masks: Masks = {}  # the bounded searches' legal masks, shared (a cache: it changes no answer)
    done: set[tuple[int, int, str]] = set()
    line: list[int] = []

    def fail(position: Position, what: str) -> Rejected:
        moves = " ".join(grid.name(p) for p in line) or "none"
        return Rejected(f"strategy {n}x{n} rejected: placements from the start: {moves} "
                        f"(position {position}): {what}")

    def searched_win(position: Position) -> bool:
        assert bounded is not None
        if len(masks) > MASKS_KEPT:
            masks.clear()
        return winning_placement(position, bounded, masks) is not None

    def visit(position: Position) -> None:
        won = position.winner()
        if won is not None:
            if won != winner:
                raise fail(position, f"{COLOUR_NAMES[won]} has won")
            key = memo_key(position, keeping)
            if key not in done:
                done.add(key)
                report.won += 1
            return
        key = memo_key(position, keeping)
        if key in done:
            return
        done.add(key)
        if position.turn == winner:
            found = strategy.record_for(position)
            if found is None and bounded is not None and searched_win(position):
                report.searched += 1
                return
            if found is None:
                searched = " and its bounded search finds no win" if bounded is not None else ""
                raise fail(position, f"the strategy has no placement for {COLOUR_NAMES[winner]}{searched}")
            move = found[1]
            if not is_legal(position, move, winner):
                ban = explain(position, move, winner) if 0 <= move < grid.size else None
                why = ban.describe(grid) if ban is not None else "the point is not empty"
                raise fail(position, f"the stored placement {grid.name(move)} is illegal: {why}")
            report.winner_turns += 1
            report.used.add(found[0])
            line.append(move)
            visit(after(position, move))
            line.pop()
            return
        red, blue = legal_masks(position)
        replies = Grid.points(red if loser == RED else blue)
        if not replies:
            raise fail(position, f"{COLOUR_NAMES[loser]} has no legal placement and nobody has won")
        report.loser_turns += 1
        for p in replies:
            line.append(p)
            visit(after(position, p))
            line.pop()

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * grid.size + 100))
    try:
        visit(Position.empty(n))
    finally:
        sys.setrecursionlimit(limit)
    if len(report.used) < len(strategy):
        stray = len(strategy) - len(report.used)
        raise Rejected(f"strategy {n}x{n} rejected: {stray:,} of its {len(strategy):,} stored positions are "
                       "never reached from the empty board")
    report.seconds = time.perf_counter() - began
    return report


def load_checked(directory: str | os.PathLike[str]) -> Strategy:
    """The strategy of a folder; a folder without ``manifest.json`` is a usage error
    (:class:`NakedDiagonalError`), a damaged one :class:`Rejected`."""
    if not os.path.isfile(os.path.join(directory, "manifest.json")):
        raise NakedDiagonalError(f"{directory}: no manifest.json (not a strategy folder)")
    try:
        return Strategy.load(None, directory)
    except NakedDiagonalError as exc:
        raise Rejected(f"strategy rejected: {exc}") from None


__all__ = ["Rejected", "Report", "check_strategy", "load_checked", "memo_key"]
