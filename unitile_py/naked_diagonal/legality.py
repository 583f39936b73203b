"""Legal placements: a stone is legal when it forms no naked diagonal and leaves no NDE area.

A placement on ``p`` lies in one maximal empty region ``M`` and leaves the other regions as they were
(fact 1 of docs/naked-diagonal.md), so in a position whose regions are all fillable it is legal exactly
when ``M`` has a clean filling that starts with it. Per region the engine keeps witnesses (checked
clean fillings of ``M``) and decides each candidate ``(p, X)`` by the first of:

1. *cover*: some witness, with ``p`` recoloured ``X`` and moved to the front, is still clean; only the
   four 2x2 blocks around ``p`` can spoil that;
2. *repair*: a witness changed locally around ``p`` (:mod:`.candidate_repair`) becomes clean;
3. a quick exact NDE proof for a part of ``M - {p}`` (dead point, small relaxation window): illegal;
4. a repair with each neighbour of ``p`` placed second in each colour;
5. the exact solver on the parts of ``M - {p}``.

Every filling found joins the region's witnesses. Results are cached per region and the stones around
it. If some region is already NDE (a position no game reaches), no placement is legal:
:func:`legal_placements` returns two empty tuples and :func:`nde_regions` lists them. :func:`explain`
names the ban a placement meets (:mod:`.bans`), with the part of an NDE area to blame (:mod:`.culprit`).

>>> from .position import Position
>>> pos = Position.parse("R.../B.R./.RR./B..B b")
>>> g = pos.grid
>>> [g.names(m) for m in legal_masks(pos)]
[('c4', 'd3', 'a2', 'd2', 'b1', 'c1'), ('d4', 'b3', 'd3', 'a2', 'd2', 'b1', 'c1')]
>>> print(explain(pos, g.point("b4"), "b").describe(g))
Blue on b4 forms a naked diagonal with a3
>>> print(explain(pos, g.point("c4"), "b").describe(g))
Blue on c4 would leave the NDE area b4 b3 (BAD: Red and Blue banned); a part no sequence can cover: b4
"""

from __future__ import annotations

from typing import NamedTuple

from ..bans import GameOver
from ..colours import BLUE, COLOURS, RED, other
from ..errors import NakedDiagonalError
from ..mcts import Steps, finish
from .areas import Solver
from .bans import Ban, LeavesNDE, NakedDiagonal, Occupied, banned, why
from .cache import UntrackedCache
from .candidate_repair import REPAIR_LIMIT, repair_bases, repaired, repaired_pair
from .construct import constructions
from .culprit import culprit_of
from .grid import Grid
from .position import Position
from .rules import forming, forms
from .witness import BLUE_CODE, RED_CODE, Timeline, Witness, covers, replay


class RegionInfo(NamedTuple):
    """What the engine knows about one region with the stones around it (a tuple of ints: see
    :class:`witness.Witness`)."""

    fillable: bool
    legal_red: int
    legal_blue: int


class Engine:
    """Legal-placement generation on one grid, with its caches (one shared engine per grid size)."""

    def __init__(self, grid: Grid, cache_limit: int = 50_000) -> None:
        self.grid = grid
        self.solver = Solver(grid)
        # Each region's RegionInfo packed into one int (see region): the collector never walks it.
        self.regions = UntrackedCache(cache_limit)
        #: Candidates decided by the exact solver because no witness covered them (for the benchmark).
        self.fallbacks = 0
        #: Candidates made legal by a local repair of a witness.
        self.repairs = 0
        #: When true, every repaired witness is also replayed in full (tests turn this on).
        self.check = False
        self.region_sizes: dict[int, int] = {}

    def region(self, area: int, red: int, blue: int, last: int = -1,
               colours: tuple[str, ...] = COLOURS) -> RegionInfo:
        """Fillability and legal placements of the maximal empty region ``area``: those of ``colours``
        (the other colour's are 0 unless decided already).

        ``last`` is a stone beside ``area`` placed last, after which the region is likely NDE (only
        the solver's order of work depends on it, not the answer).
        """
        return finish(self.region_steps(area, red, blue, last, colours))

    def region_steps(self, area: int, red: int, blue: int, last: int = -1,
                     colours: tuple[str, ...] = COLOURS) -> Steps[RegionInfo]:
        """:meth:`region` in pieces (:data:`unitile_py.mcts.Steps`): a pause after the region's first
        filling and after each candidate that no filling covered (repaired, or decided by the exact
        solver; :mod:`.warming`)."""
        key = self.solver.key(area, red, blue)
        known = self.regions.get(key)
        size = self.grid.size
        full = (1 << size) - 1
        todo = colours
        legal = 0
        if isinstance(known, int):  # legal_red | legal_blue << size | fillable << 2 * size | decided ...
            if not known >> 2 * size & 1:
                return RegionInfo(False, 0, 0)
            todo = tuple(c for c in colours if not known & _decided(c, size))
            legal = known
            if not todo:
                return RegionInfo(True, known & full, known >> size & full)
        info = yield from self._region(area, red, blue, last, todo)
        if not info.fillable:
            self.regions.put(key, _decided(RED, size) | _decided(BLUE, size))
            return info
        for c in todo:
            legal |= _decided(c, size) | (info.legal_red if c == RED else info.legal_blue << size)
        legal |= 1 << 2 * size
        self.regions.put(key, legal)
        return RegionInfo(True, legal & full, legal >> size & full)

    def _region(self, area: int, red: int, blue: int, last: int = -1,
                colours: tuple[str, ...] = COLOURS) -> Steps[RegionInfo]:
        g = self.grid
        size = area.bit_count()
        self.region_sizes[size] = self.region_sizes.get(size, 0) + 1
        # A constructed witness first, whatever the memo holds: lattice orders repair best.
        extra = constructions(g, red, blue, area)
        first = next((w for w in extra if replay(g, red, blue, w)), None)
        if first is None:
            first = self.solver.witness(area, red, blue, 0, last, nde_likely=last >= 0)
        if first is None:
            return RegionInfo(False, 0, 0)
        yield
        lines = [Timeline.of(g, red, blue, first)]
        bases = 1  # the constructed witnesses come first, the repaired ones after them
        legal = [0, 0]
        diag = g.diag
        for colour, code, own in ((RED, RED_CODE, red), (BLUE, BLUE_CODE, blue)):
            if colour not in colours:
                continue
            leaves_nde = 0  # the candidates of this colour the exact solver found to leave an NDE part
            for p in g.bits(area & ~forming(g, own, area)):
                quadrants = diag[p]
                k = 0
                while True:
                    if k == len(lines):
                        w = next(extra, None)
                        if w is None or not replay(g, red, blue, w):
                            break
                        lines.insert(bases, Timeline.of(g, red, blue, w))
                        bases += 1
                    line = lines[k]
                    if covers(quadrants, code, line):
                        break
                    k += 1
                if k < len(lines):
                    legal[code - 1] |= 1 << p
                    continue
                if self._quick_nde(area, red, blue, p, colour):
                    continue
                fixed = (repaired(g, area, p, code, repair_bases(lines), check=self.check)
                         or repaired(g, area, p, code, lines, 2 * REPAIR_LIMIT, self.check)
                         or repaired_pair(g, area, p, code, repair_bases(lines), self.check))
                if fixed is not None:
                    self.repairs += 1
                    legal[code - 1] |= 1 << p
                    lines.append(fixed)
                    yield
                    continue
                self.fallbacks += 1
                # Beside a candidate that leaves an NDE part, this one likely does too (the same
                # obstruction): its restarted searches then try the grown window first.
                w = yield from self._first_move_steps(area, red, blue, p, colour,
                                                      bool(g.dilate8(1 << p) & leaves_nde))
                if w is None:
                    leaves_nde |= 1 << p
                else:
                    legal[code - 1] |= 1 << p
                    lines.append(Timeline.of(g, red, blue, w))
                yield
        return RegionInfo(True, legal[0], legal[1])

    def _quick_nde(self, area: int, red: int, blue: int, p: int, colour: str) -> bool:
        """True when a part of ``area - {p}`` after ``colour`` on ``p`` has a quick (exact) NDE proof."""
        bit = 1 << p
        r2, b2 = (red | bit, blue) if colour == RED else (red, blue | bit)
        return any(self.solver.proves_nde(part, r2, b2, p) for part in self.grid.components(area & ~bit))

    def _first_move_steps(self, area: int, red: int, blue: int, p: int, colour: str,
                          nde_likely: bool = False) -> Steps[Witness | None]:
        """A clean filling of ``area`` starting with ``colour`` on ``p`` (exact), or ``None``, in pieces
        (:meth:`Solver.witness_steps`; ``nde_likely``: see :meth:`Solver.witness`)."""
        bit = 1 << p
        r2, b2 = (red | bit, blue) if colour == RED else (red, blue | bit)
        order = [p]
        wred = bit if colour == RED else 0
        for part in self.grid.components(area & ~bit):
            w = yield from self.solver.witness_steps(part, r2, b2, 0, p, nde_likely)
            if w is None:
                return None
            order.extend(w.order)
            wred |= w.red
        return Witness(tuple(order), wred)

    def fillable(self, area: int, red: int, blue: int, last: int = -1) -> bool:
        """Whether the maximal empty region ``area`` can be filled: :meth:`region`'s ``fillable``,
        without deciding its candidates when the region is not analysed yet (``last``: as there)."""
        return finish(self.fillable_steps(area, red, blue, last))

    def fillable_steps(self, area: int, red: int, blue: int, last: int = -1) -> Steps[bool]:
        """:meth:`fillable` in pieces (:meth:`Solver.witness_steps`)."""
        known = self.regions.get(self.solver.key(area, red, blue))
        if isinstance(known, int):  # (packed as in region)
            return bool(known >> 2 * self.grid.size & 1)
        w = yield from self.solver.witness_steps(area, red, blue, 0, last, nde_likely=last >= 0)
        return w is not None

    def shown(self, red: int, blue: int, colour: str, where: int) -> int | None:
        """The points of ``where`` where ``colour`` is shown legal without deciding every candidate, or
        ``None`` when some region is NDE (nothing is legal then).

        A region already analysed answers from the cache; another only needs its first clean filling
        (the solver's, exact and memoised: it also decides that the region is fillable), and a candidate
        that filling covers (:func:`witness.covers`, step 1 of the module) is legal. A point not in the
        answer is not known either way: :meth:`masks` decides it. So a request that asks about one
        placement, or whether a colour has any, pays for one filling per region, not for every
        candidate's search.
        """
        g = self.grid
        own = red if colour == RED else blue
        code = RED_CODE if colour == RED else BLUE_CODE
        size = g.size
        full = (1 << size) - 1
        found = 0
        for area in g.components(g.full & ~(red | blue)):
            known = self.regions.get(self.solver.key(area, red, blue))
            if isinstance(known, int):  # (packed as in region)
                if not known >> 2 * size & 1:
                    return None
                if known & _decided(colour, size):
                    found |= (known if colour == RED else known >> size) & full
                    continue
            w = self.solver.witness(area, red, blue)  # (fillable's answer, memoised)
            if w is None:
                return None
            if area & where:
                line = Timeline.of(g, red, blue, w)
                for p in g.bits(area & where & ~forming(g, own, area)):
                    if covers(g.diag[p], code, line):
                        found |= 1 << p
        return found & where

    def candidate(self, red: int, blue: int, p: int, colour: str) -> bool:
        """Whether ``colour`` on the empty point ``p`` is legal, every region being fillable (as when
        :meth:`shown` did not answer None): the region's cached analysis when ``colour``'s is there,
        else this candidate alone, exactly (a naked diagonal, a quick NDE proof, then
        :meth:`_first_move_steps`), without deciding the region's other candidates."""
        return finish(self.candidate_steps(red, blue, p, colour))

    def candidate_steps(self, red: int, blue: int, p: int, colour: str) -> Steps[bool]:
        """:meth:`candidate` in pieces (:meth:`Solver.witness_steps`)."""
        g = self.grid
        size = g.size
        bit = 1 << p
        (area,) = [m for m in g.components(g.full & ~(red | blue)) if m & bit]
        known = self.regions.get(self.solver.key(area, red, blue))
        if isinstance(known, int) and known & _decided(colour, size):
            return bool((known if colour == RED else known >> size) & bit)
        if forms(g, red if colour == RED else blue, p) is not None:
            return False
        if self._quick_nde(area, red, blue, p, colour):
            return False
        w = yield from self._first_move_steps(area, red, blue, p, colour)
        return w is not None

    def masks(self, red: int, blue: int, colours: tuple[str, ...] = COLOURS) -> tuple[int, int]:
        """Legal points for Red and for Blue as masks, those of ``colours`` only (the other's 0 unless
        known already); ``(0, 0)`` when some region is NDE."""
        g = self.grid
        out_red = out_blue = 0
        for area in g.components(g.full & ~(red | blue)):
            info = self.region(area, red, blue, -1, colours)
            if not info.fillable:
                return 0, 0
            out_red |= info.legal_red
            out_blue |= info.legal_blue
        return out_red, out_blue


def _decided(colour: str, size: int) -> int:
    """The bit of a packed :class:`RegionInfo` (see :meth:`Engine.region`) saying ``colour``'s legal
    points are decided."""
    return 1 << 2 * size + (1 if colour == RED else 2)


_ENGINES: dict[int, Engine] = {}


def engine(grid: Grid) -> Engine:
    """The shared engine of a grid size."""
    e = _ENGINES.get(grid.n)
    if e is None:
        e = _ENGINES[grid.n] = Engine(grid)
    return e


def legal_masks(position: Position) -> tuple[int, int]:
    """The masks of points where Red, and where Blue, may legally place now (whoever is to move)."""
    return engine(position.grid).masks(position.red, position.blue)


def legal_mask(position: Position, colour: str) -> int:
    """The mask of points where ``colour`` may legally place now: ``legal_masks(position)`` of that
    colour, without deciding the other colour's candidates."""
    red, blue = engine(position.grid).masks(position.red, position.blue, (colour,))
    return red if colour == RED else blue


def legal_placements(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The sorted points where Red, and where Blue, may legally place (whoever is to move).

    Wins are not considered here: a game that is over has no moves, whatever this returns.
    """
    red, blue = legal_masks(position)
    return Grid.points(red), Grid.points(blue)


def has_legal_placement(position: Position, colour: str) -> bool:
    """True when ``colour`` has a legal placement (every candidate decided only when no filling of a
    region shows one: :meth:`Engine.shown`)."""
    shown = engine(position.grid).shown(position.red, position.blue, colour, position.empty_points)
    if shown is not None and not shown:
        shown = legal_mask(position, colour)
    return bool(shown)


def is_legal(position: Position, point: int, colour: str) -> bool:
    """True when a stone of ``colour`` on ``point`` is legal (see :func:`has_legal_placement`)."""
    if not 0 <= point < position.grid.size or not position.empty_points >> point & 1:
        return False
    e = engine(position.grid)
    shown = e.shown(position.red, position.blue, colour, 1 << point)
    if shown is None or shown:
        return shown is not None
    return e.candidate(position.red, position.blue, point, colour)


def after(position: Position, point: int) -> Position:
    """The position after the side to move places a stone on ``point``; the placement must be legal.

    The opponent moves next if they have a legal placement; otherwise their turn is skipped and the
    same side moves again (docs/naked-diagonal.md shows this never happens in a position without an
    NDE area). After a winning placement, or on a full board, the turn passes to the opponent: the
    game is over.
    """
    g = position.grid
    winner = position.winner()
    if winner is not None:
        raise NakedDiagonalError(why(GameOver(winner), g))
    if not 0 <= point < g.size:
        raise NakedDiagonalError(f"point {point} is off the {g.n}x{g.n} board")
    ban = explain(position, point, position.turn)
    if ban is not None:
        raise NakedDiagonalError(why(ban, g))
    placed = position.place(point, position.turn)
    opponent = other(position.turn)
    if placed.winner() is None and not has_legal_placement(placed, opponent):
        return placed
    return placed.with_turn(opponent)


def nde_regions(position: Position, last: int = -1) -> tuple[int, ...]:
    """The maximal empty regions that are NDE (masks); empty for every position reached in play.

    ``last``: the stone placed last, if the question is whether it left an NDE region (the regions
    beside it are then tested with it as the solver's hint: the same answers, found sooner).
    """
    e = engine(position.grid)
    g = position.grid
    near = g.dilate8(1 << last) if last >= 0 else 0
    return tuple(m for m in g.components(position.empty_points)
                 if not e.fillable(m, position.red, position.blue, last if m & near else -1))


def check_start(position: Position) -> Position:
    """``position`` if a game can start there, the one rule of the web API, the command line's ``play``,
    ``match`` and ``record``: not with an NDE area, where no placement is legal for either colour (no
    game reaches one; in every other position both colours can place, docs/naked-diagonal.md's fact
    5, so a start never begins with a skipped turn). A position a colour has won is a game that is over.

    >>> try:
    ...     check_start(Position.parse("R.B./B.R./.RR./B..B r"))
    ... except NakedDiagonalError as exc:
    ...     print(exc)
    the start position leaves the NDE area b4 b3: no placement is legal in it
    """
    stuck = nde_regions(position) if position.winner() is None else ()
    if stuck:
        at = " ".join(position.grid.names(stuck[0]))
        raise NakedDiagonalError(f"the start position leaves the NDE area {at}: no placement is legal in it")
    return position


def explain(position: Position, point: int, colour: str, narrow: bool = True) -> Ban | None:
    """Why ``colour`` may not place on ``point`` (unless ``narrow``, an NDE area is its culprit), or None."""
    g = position.grid
    if colour not in COLOURS:
        raise ValueError(f"colour {colour!r}: expected 'r' or 'b'")
    if not position.empty_points >> point & 1:
        return Occupied(point, RED if position.red >> point & 1 else BLUE)
    partner = forms(g, position.stones(colour), point)
    if partner is not None:
        return NakedDiagonal(point, partner, colour)
    if is_legal(position, point, colour):
        return None
    after = position.place(point, colour)
    solver = engine(g).solver
    for area in nde_regions(after, point):
        culprit, narrowed = culprit_of(solver, after, area, point) if narrow else (area, False)
        return LeavesNDE(point, colour, area, banned(after, area), culprit, narrowed)
    raise AssertionError("an illegal placement leaves an NDE region")  # pragma: no cover
