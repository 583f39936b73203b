"""Level 6, the hint and the analysis on a board size whose folder holds a strategy, not tables.

A strategy (:mod:`.strategy`) gives the winner's placement at every turn of the winner that it reaches
from the empty board, against every legal reply of the loser: it proves who wins, but holds no
distances and nothing off its own lines. So on such a size:

* **the winner's turn** on the strategy: its placement (:meth:`Strategy.move_for`);
* **a position off it** (a custom start, or a winner who strayed): an exact search
  (:func:`exact_moves`, negamax with the exact legality of :mod:`.legality`) when the position has at
  most :data:`EXACT_EMPTY` empty points and the search ends within :data:`NODES` positions; otherwise
  level 5's choice, said so (:data:`FALLBACK`);
* **the loser's turn**: the exact search when it can decide (the winner may have strayed into a lost
  position), else level 5's placement, or, when that lets the winner win at once, the first legal one
  in reading order that does not.

Every choice is a pure function of the position and the random generator (the search counts
positions, not seconds), so seeded games are reproducible. :func:`analysis` gives what
``nd analyze --json`` prints: the outcomes of the proof, ``distance`` None (a strategy knows none).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..colours import COLOUR_NAMES, RED, other
from ..mcts import Steps, finish
from .grid import Grid
from .keys import canonical, key_position
from .legality import legal_masks
from .position import Position, _unchecked
from .rules import winning_points
from .strategy import Bounded, Strategy, inverse_point

#: Positions with more empty points than this are not searched exactly.
EXACT_EMPTY = 16
#: Positions an exact search may expand (one exact legality test each) before it gives up: well under
#: a second of CPU on 5x5 with level 5's move after it.
NODES = 4000
#: The exact search pauses (for the page's other requests, see :mod:`unitile_py.webapi`) after every
#: this many positions it expands.
PAUSE = 16
#: Where a choice came from.
PROOF = "the stored proof"
EXACT = "an exact search"
FALLBACK = "not in the stored proof: level 5's choice"
DEFENCE = "lost with perfect play: level 5's defence"
UNPROVEN_DEFENCE = "the stored proof wins for the opponent: level 5's defence"
#: Why a distance is missing from an analysis.
NO_DISTANCE = "a strategy proves who wins, not in how many placements"


#: Legal masks ``(red, blue)`` of positions by their stones ``(red, blue)``.
Masks = dict[tuple[int, int], tuple[int, int]]


class OutOfBudget(Exception):
    """The exact search expanded :data:`NODES` positions without deciding."""


class Search:
    """An exact search on one position's board, with a shared budget and memo of outcomes.

    It works on canonical images (:func:`.keys.canonical`): a position is expanded as its canonical
    image, its placements tried in that image's reading order, and its outcome kept under its canonical
    key. So every image of a position is searched alike, at the same cost: what a strategy's bounded
    search (:func:`winning_placement`) decided once is decided again wherever the position comes back.
    """

    def __init__(self, grid: Grid, nodes: int = NODES, masks: Masks | None = None) -> None:
        self.grid = grid
        self.nodes = nodes
        self.memo: dict[int, bool] = {}
        #: Legal masks by ``(red, blue)``: a cache of a pure function, so one may be shared by many
        #: searches (it changes their time, never what they expand).
        self.masks: Masks = {} if masks is None else masks

    def legal(self, red: int, blue: int) -> tuple[int, int]:
        """The legal masks of Red and Blue, remembered."""
        key = (red, blue)
        found = self.masks.get(key)
        if found is None:
            found = self.masks[key] = legal_masks(_unchecked(self.grid, red, blue, RED))
        return found

    def mine(self, position: Position) -> int:
        """The legal placements of the side to move, as a mask."""
        red, blue = self.legal(position.red, position.blue)
        return red if position.turn == RED else blue

    def child(self, position: Position, point: int) -> Position:
        """The position after the side to move places on ``point`` (legal), its opponent's turn
        skipped when the opponent has no legal placement and nobody has won (as :func:`.legality.after`)."""
        turn = position.turn
        bit = 1 << point
        red, blue = position.red, position.blue
        if turn == RED:
            red |= bit
        else:
            blue |= bit
        placed = _unchecked(self.grid, red, blue, other(turn))
        if placed.winner() is None and not self.mine(placed):
            return _unchecked(self.grid, red, blue, turn)
        return placed

    def wins(self, position: Position) -> bool:
        """True when the side to move wins with perfect play; :class:`OutOfBudget` when undecided."""
        return finish(self.wins_steps(position))

    def wins_steps(self, position: Position) -> Steps[bool]:
        """:meth:`wins` in pieces: it pauses every :data:`PAUSE` positions it expands."""
        won = position.winner()
        if won is not None:
            return won == position.turn
        key, _ = canonical(position)
        known = self.memo.get(key)
        if known is not None:
            return known
        if self.nodes <= 0:
            raise OutOfBudget
        self.nodes -= 1
        if self.nodes % PAUSE == 0:
            yield
        image = key_position(self.grid.n, key)
        mine = self.mine(image)
        turn = image.turn
        if winning_points(self.grid, image.stones(turn), turn, mine):
            result = True
        else:
            result = False
            for p in self.grid.points(mine):
                result = yield from self.after_steps(image, p)
                if result:
                    break
        self.memo[key] = result
        return result

    def after(self, position: Position, point: int) -> bool:
        """True when the side to move wins after placing on ``point``; :class:`OutOfBudget`."""
        return finish(self.after_steps(position, point))

    def after_steps(self, position: Position, point: int) -> Steps[bool]:
        """:meth:`after` in pieces."""
        c = self.child(position, point)
        same = c.turn == position.turn and c.winner() is None
        won = yield from self.wins_steps(c)
        return won if same else not won


def exact_moves(
    position: Position, nodes: int = NODES, empty: int = EXACT_EMPTY, masks: Masks | None = None
) -> dict[int, bool] | None:
    """``{point: True when the mover wins after placing there}`` for the legal placements of the side
    to move, searched in the reading order of the position's canonical image (:class:`Search`) and
    stopping at the first win; None when the position has more than ``empty`` empty points or the
    search expands more than ``nodes`` positions."""
    return finish(exact_moves_steps(position, nodes, empty, masks))


def exact_moves_steps(
    position: Position, nodes: int = NODES, empty: int = EXACT_EMPTY, masks: Masks | None = None
) -> Steps[dict[int, bool] | None]:
    """:func:`exact_moves` in pieces: it pauses before each placement it searches."""
    if position.empty_points.bit_count() > empty:
        return None
    search = Search(position.grid, nodes, masks)
    key, symmetry = canonical(position)
    image = key_position(position.grid.n, key)
    out: dict[int, bool] = {}
    try:
        for p in position.grid.points(search.mine(image)):
            yield
            won = yield from search.after_steps(image, p)
            out[inverse_point(symmetry, p)] = won
            if won:
                break
    except OutOfBudget:
        return None
    return out


def winning_placement(position: Position, bounded: Bounded, masks: Masks | None = None) -> int | None:
    """The bounded search of a compact strategy (docs/naked-diagonal-tables.md, "Compact strategies"):
    the first placement that :func:`exact_moves` proves to win for the side to move, with the budget of
    ``bounded`` (positions expanded, empty points at most), or None when it finds none.

    The search is the same on every image of a position, and a search from a position it reached
    expands only positions it expanded, so where it found a win within the budget it finds one again
    at each later turn of the winner, within the same budget."""
    moves = exact_moves(position, bounded.nodes, bounded.empty, masks)
    if moves is None:
        return None
    return next((p for p, won in moves.items() if won), None)


def loses_at_once(position: Position, point: int) -> bool:
    """True when, after the side to move places on ``point``, the opponent can win with its next
    placement."""
    search = Search(position.grid)
    c = search.child(position, point)
    if c.winner() is not None or c.turn == position.turn:
        return False
    return bool(winning_points(c.grid, c.stones(c.turn), c.turn, search.mine(c)))


def defence(position: Position, level5: Callable[[], int]) -> int:
    """Level 5's placement, unless it lets the opponent win at once and another legal one does not
    (then the first such in reading order)."""
    return finish(defence_steps(position, lambda: _now(level5)))


def _now(choice: Callable[[], int]) -> Steps[int]:
    """A choice made in one piece, as :data:`Steps`."""
    return choice()
    yield  # a generator, never paused


def defence_steps(position: Position, level5: Callable[[], Steps[int]]) -> Steps[int]:
    """:func:`defence` in pieces, ``level5()`` giving level 5's choice in pieces."""
    point = yield from level5()
    if not loses_at_once(position, point):
        return point
    red, blue = legal_masks(position)
    for p in position.grid.points(red if position.turn == RED else blue):
        if p != point and not loses_at_once(position, p):
            return p
    return point


def choose(
    position: Position, strategy: Strategy, rng: random.Random, level5: Callable[[], int]
) -> tuple[int, str]:
    """Level 6's placement on a strategy size and where it came from (:data:`PROOF`, :data:`EXACT`,
    :data:`FALLBACK`, :data:`DEFENCE` or :data:`UNPROVEN_DEFENCE`). ``level5()`` is level 5's choice in
    the position."""
    return finish(choose_steps(position, strategy, rng, lambda: _now(level5)))


def choose_steps(
    position: Position, strategy: Strategy, rng: random.Random, level5: Callable[[], Steps[int]]
) -> Steps[tuple[int, str]]:
    """:func:`choose` in pieces (it pauses in the exact search and in level 5's), ``level5()`` giving
    level 5's choice in pieces."""
    if position.turn == strategy.winner:
        move = strategy.move_for(position)
        if move is not None:
            return move, PROOF
    moves = yield from exact_moves_steps(position, *_budget(strategy))
    if moves is not None:
        winning = [p for p, won in moves.items() if won]
        if winning:
            return winning[0], EXACT
        return (yield from defence_steps(position, level5)), DEFENCE
    if position.turn == strategy.winner:
        return (yield from level5()), FALLBACK
    # The loser to move: the proof wins for the opponent only where it holds the position (every reply
    # reaches a position of the winner's strategy); off its lines nothing is known.
    held = _held_loss(position, strategy, Search(position.grid, _budget(strategy)[0]))
    return (yield from defence_steps(position, level5)), UNPROVEN_DEFENCE if held else FALLBACK


def _budget(strategy: Strategy) -> tuple[int, int]:
    """``(nodes, empty points)`` of the exact search on a strategy size: at least the strategy's bounded
    search, so that the winner's turns a compact strategy leaves to it are won."""
    bounded = strategy.bounded
    if bounded is None:
        return NODES, EXACT_EMPTY
    return max(NODES, bounded.nodes), max(EXACT_EMPTY, bounded.empty)


# ----- analysis ----------------------------------------------------------------------------------


def _held_loss(position: Position, strategy: Strategy, search: Search) -> bool:
    """True when the loser is to move and every legal reply ends the game with the winner's chain or
    reaches a position the strategy holds."""
    if position.turn == strategy.winner:
        return False
    mine = search.mine(position)
    if not mine:
        return False
    for p in position.grid.points(mine):
        c = search.child(position, p)
        won = c.winner()
        if won is not None:
            if won != strategy.winner:
                return False
        elif c.turn != strategy.winner or not _held_win(c, strategy):
            return False
    return True


def _held_win(position: Position, strategy: Strategy) -> bool:
    """True when the winner is to move and the strategy holds the position or, in a compact strategy,
    its bounded search wins there."""
    if strategy.record_for(position) is not None:
        return True
    bounded = strategy.bounded
    return bounded is not None and winning_placement(position, bounded) is not None


def outcome(position: Position, strategy: Strategy, search: Search) -> tuple[str, str]:
    """``("win" | "loss" | "unknown", how)`` for the side to move: from the game's end, the manifest,
    the strategy, or the exact search; ``how`` says which, or why the outcome is unknown."""
    won = position.winner()
    if won is not None:
        return ("win" if won == position.turn else "loss"), "the game is over"
    if position == Position.empty(position.grid.n) and strategy.empty_board is not None:
        return strategy.empty_board, PROOF
    if position.turn == strategy.winner and _held_win(position, strategy):
        return "win", PROOF
    if _held_loss(position, strategy, search):
        return "loss", PROOF
    empty = position.empty_points.bit_count()
    if empty > _budget(strategy)[1]:
        too_many = f"{empty} empty points are too many for an exact search"
        return "unknown", f"not in the stored proof, and {too_many}"
    try:
        return ("win" if search.wins(position) else "loss"), EXACT
    except OutOfBudget:
        return "unknown", f"not in the stored proof, and an exact search of {NODES} positions did not decide"


def _first_placement(position: Position, strategy: Strategy, point: int) -> str | None:
    """The manifest's outcome for Red after the first placement ``point`` (or an image of it under a
    symmetry that keeps the players), or None."""
    if position != Position.empty(position.grid.n):
        return None
    return strategy.first_outcome(point)


def analysis(position: Position, strategy: Strategy, nodes: int = NODES) -> dict[str, Any]:
    """What ``nd analyze --json`` prints on a strategy size: ``outcome`` (``"win"``, ``"loss"`` or
    ``"unknown"``), ``distance`` None, ``moves`` ``{point name: {"outcome", "distance": None}}`` for
    the mover after each legal placement, and ``source``: ``"strategy"``, ``how`` (where the outcome
    came from, or why it is unknown) and ``note`` (why there are no distances)."""
    search = Search(position.grid, max(nodes, _budget(strategy)[0]))
    kind, how = outcome(position, strategy, search)
    moves: dict[str, dict[str, Any]] = {}
    if position.winner() is None:
        g = position.grid
        for p in g.points(search.mine(position)):
            result = _first_placement(position, strategy, p)
            if result is None:
                c = search.child(position, p)
                theirs, _ = outcome(c, strategy, search)
                same = c.turn == position.turn and c.winner() is None
                result = theirs if same or theirs == "unknown" else ("loss" if theirs == "win" else "win")
            moves[g.name(p)] = {"outcome": result, "distance": None}
    return {
        "outcome": kind,
        "distance": None,
        "moves": moves,
        "source": "strategy",
        "winner": COLOUR_NAMES[strategy.winner].lower(),
        "how": how,
        "note": NO_DISTANCE,
    }


__all__ = [
    "DEFENCE",
    "EXACT",
    "EXACT_EMPTY",
    "FALLBACK",
    "NODES",
    "NO_DISTANCE",
    "PROOF",
    "UNPROVEN_DEFENCE",
    "OutOfBudget",
    "Search",
    "analysis",
    "choose",
    "defence",
    "exact_moves",
    "loses_at_once",
    "outcome",
    "winning_placement",
]
