"""The cores of the NDE proofs against the brute force of reference.py (in this folder).

A core is the engine's reason for an NDE answer: a set of the area's points that stays unfillable with
every point around it that is not a stone as a joker. The search relies on cores to stop early (a
core that a first placement does not touch refutes every first placement) and to report smaller
proofs, so each one the solver returns here is checked on its own by the brute force.
"""

from __future__ import annotations

import random

import pytest

from tests.game.naked_diagonal import reference as ref
from unitile_py.naked_diagonal.areas import SAFE, Solver, _closure, _status
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import after, legal_placements
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.rules import forms, naked_diagonals
from unitile_py.naked_diagonal.witness import replay


def _fillable(g: Grid, red: int, blue: int, area: int, jokers: int) -> bool:
    """The brute force's answer: can ``area`` be filled cleanly (jokers as given)?"""
    pts = frozenset(g.bits(area))
    return ref.fillable(ref.board_of_masks(g.size, red, blue, jokers & ~area), pts, pts)


Case = tuple[Grid, int, int, int, int, int]


def _cases(seed: int, games: int, limit: int) -> list[Case]:
    """Seeded (grid, red, blue, jokers, area, placed point), areas of at most ``limit`` points: the parts
    that a stone forming no naked diagonal leaves in the positions of random games (where NDE parts
    arise), and the same with some of their points as jokers."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = Position.empty(rng.choice((4, 5, 6)))
        g = pos.grid
        while pos.winner() is None:
            red, blue = pos.red, pos.blue
            for p in g.bits(pos.empty_points):
                for r2, b2 in ((red | 1 << p, blue), (red, blue | 1 << p)):
                    if forms(g, r2 if r2 != red else b2, p) is not None:
                        continue
                    for part in g.components(pos.empty_points & ~(1 << p)):
                        if part.bit_count() <= limit:
                            out.append((g, r2, b2, 0, part, p))
                            jokers = part & rng.getrandbits(g.size) & rng.getrandbits(g.size)
                            pieces = g.components(part & ~jokers)
                            out.extend((g, r2, b2, jokers, piece, p) for piece in pieces)
            legal = legal_placements(pos)[pos.turn == "b"]
            pos = after(pos, rng.choice(legal))
    return out


@pytest.mark.parametrize("safe_moves", [False, True])
def test_answers_and_cores_agree_with_the_brute_force(safe_moves: bool) -> None:
    """Every NDE answer and its core, and every tenth fillable answer, checked by the brute force, and
    every witness replayed; with and without the safe first placements of grown windows."""
    seen: set[tuple[int, int]] = set()
    nde = cores_smaller = fillable = 0
    for g, red, blue, jokers, area, _ in _cases(seed=21, games=30, limit=9):
        solver = Solver(g)
        solver._safe_moves = safe_moves
        key = (g.n, solver.key(area, red, blue, jokers))
        if key in seen:
            continue
        seen.add(key)
        found = solver.decide(area, red, blue, jokers)
        if not isinstance(found, int):
            fillable += 1
            assert sorted(found.order) == list(g.bits(area)) and replay(g, red, blue, found, jokers)
            if fillable % 10 == 0:
                assert _fillable(g, red, blue, area, jokers)
            continue
        nde += 1
        assert not _fillable(g, red, blue, area, jokers)
        assert found and not found & ~area
        # the core alone, every other empty point of the board a joker, is still unfillable
        assert not _fillable(g, red, blue, found, g.full & ~(red | blue | found))
        cores_smaller += found != area
    assert nde > 50 and cores_smaller > 25 and fillable > 1000, (nde, cores_smaller, fillable)


def _random_areas(seed: int, count: int) -> list[tuple[Grid, int, int, int, int]]:
    """Seeded (grid, red, blue, jokers, area): the empty areas of 3 to 8 points of random 4x4 and 5x5
    boards of any density (a fifth of them with naked diagonals), half of them with some points as
    jokers."""
    rng = random.Random(seed)
    out: list[tuple[Grid, int, int, int, int]] = []
    while len(out) < count:
        g = Grid.get(rng.choice((4, 5)))
        density = rng.uniform(0.2, 0.6)
        stones = [p for p in range(g.size) if rng.random() < density]
        red = sum(1 << p for p in stones if rng.random() < 0.5)
        blue = sum(1 << p for p in stones) & ~red
        if naked_diagonals(g, red, blue) and rng.random() < 0.8:
            continue
        for part in g.components(g.full & ~(red | blue)):
            if 3 <= part.bit_count() <= 8:
                jokers = part & rng.getrandbits(g.size) & rng.getrandbits(g.size) if rng.random() < 0.5 else 0
                out.extend((g, red, blue, jokers, area) for area in g.components(part & ~jokers))
    return out


def test_a_safe_first_placement_keeps_every_answer() -> None:
    """The claim of areas._safe_first, against the brute force: every placement that areas._status
    calls safe is clean, and the area can be filled cleanly exactly when the rest of it can after it.
    (Accepting every clean placement instead fails here.)"""
    checked = {True: 0, False: 0}
    for g, red, blue, jokers, area in _random_areas(seed=8, count=3000):
        answer = _fillable(g, red, blue, area, jokers)
        board = ref.board_of_masks(g.size, red, blue, jokers & ~area)
        for p in g.bits(area):
            for colour, own in (("R", red), ("B", blue)):
                if _status(g, area, own, jokers, p) == SAFE:
                    assert not ref.forms_naked(board, p, colour)
                    rest = frozenset(g.bits(area & ~(1 << p)))
                    assert ref.fillable(ref.put(board, p, colour), rest, rest) == answer
                    checked[answer] += 1
    assert checked[True] >= 5000 and checked[False] >= 50, checked


def test_learned_cores_agree_with_the_brute_force() -> None:
    """One solver per board size for every case, told the placed point, so the cores it learns on one
    area answer others (the engine shares its solver the same way): every NDE answer, and the core of
    each, checked by the brute force."""
    solvers: dict[int, Solver] = {}
    nde = 0
    for g, red, blue, jokers, area, placed in _cases(seed=5, games=20, limit=10):
        solver = solvers.setdefault(g.n, Solver(g))
        found = solver.decide(area, red, blue, jokers, placed)
        if isinstance(found, int):
            nde += 1
            assert not _fillable(g, red, blue, area, jokers)
            assert found and not found & ~area
            assert not _fillable(g, red, blue, found, g.full & ~(red | blue | found))
    learned = sum(s.stats.learned for s in solvers.values())
    assert nde > 50 and learned > 50, (nde, learned)


def test_the_closure_of_refutations_is_the_smallest_closed_set() -> None:
    # point i is refuted by the points of refuted[i] (always itself among them)
    refuted = {0: 0b0011, 1: 0b0110, 2: 0b0100, 3: 0b1001}
    assert _closure(refuted) == 0b0100
    assert _closure({0: 0b01, 1: 0b11}) == 0b01
    assert _closure({0: 0b11, 1: 0b11}) == 0b11


def test_a_large_nde_part_gets_a_small_core() -> None:
    """13x13, Red e6 leaves a 101-point NDE part whose smallest box proof has 26 points; the grown
    window finds a core of about 20 (the run that found it took 10 s before cores, 0.6 s after)."""
    pos = Position.parse(".BR.BR...B.../..R...B....B./R...RR.R.R.../..B.R.BB...R./.R..B..R.B.../"
                         ".RR.BR.B..R../.......R....R/...B...B.B.B./BBRB..RR.B.../BB....B....R./"
                         "B...B.R.BBRR./BRBRR...R..../BR..R..B...BR b")
    g = pos.grid
    e6 = g.point("e6")
    after = pos.place(e6, "r")
    part = max(g.components(after.empty_points), key=int.bit_count)
    assert part.bit_count() == 101
    core = Solver(g).decide(part, after.red, after.blue, 0, e6)
    assert isinstance(core, int) and not core & ~part and core.bit_count() <= 30
    around = g.full & ~(after.red | after.blue | core)
    assert Solver(g).witness(core, after.red, after.blue, around) is None


def test_an_nde_likely_part_tries_the_grown_window_first_with_the_same_answers() -> None:
    """13x13, Red f5 leaves a 90-point NDE part beside Red e5, which leaves one too: told that NDE is
    likely, the solver proves it with the grown window before any turn of the search (no restart),
    with fewer solver calls than untold, where the search's first turn decides it (that turn ran out
    and restarted before the search placed safe points alone). Red d12 leaves a fillable part: the
    same answer either way."""
    pos = Position.parse(".RBB..RRBBB.R/.....B...R..B/BB...RRB....B/.R.B.RRB..R../B..R.RRR...BR/"
                         "...B.....B.../R.RBRR.B.R.../.....B.....RB/.RB....RRB.../....B....BR.R/"
                         "BB..RR.R....R/RBRBBBBR.R..B/....BR....BRB r")
    g = pos.grid
    answers = []
    for name in ("f5", "d12"):
        p = g.point(name)
        after = pos.place(p, "r")
        part = max(g.components(after.empty_points), key=int.bit_count)
        found = []
        for likely in (False, True):
            solver = Solver(g)
            found.append((solver.witness(part, after.red, after.blue, 0, p, likely), solver.stats.calls,
                          solver.stats.restarts))
        answers.append(found)
    (untold, told), (fill_untold, fill_told) = answers
    assert untold[0] is None and told[0] is None and told[1] < untold[1] and told[2] == 0
    assert fill_untold[0] is not None and fill_told[0] is not None
