"""The bit-parallel constructions against point-by-point definitions written here."""

from __future__ import annotations

import random

from unitile_py.naked_diagonal.construct import LATTICE_OFFSETS, Stuck, lattice
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.rules import dead, forming
from unitile_py.naked_diagonal.witness import Witness, replay


def _forms(n: int, own: int, clothes: int, p: int) -> bool:
    """A stone on ``p`` forms a naked diagonal: a diagonal neighbour in ``own``, neither shared point in
    ``clothes``; coordinates spelled out, no Grid tables."""
    r, c = divmod(p, n)
    for dr in (-1, 1):
        for dc in (-1, 1):
            rr, cc = r + dr, c + dc
            if not (0 <= rr < n and 0 <= cc < n) or not own >> (rr * n + cc) & 1:
                continue
            if not clothes >> (rr * n + c) & 1 and not clothes >> (r * n + cc) & 1:
                return True
    return False


def _dead(n: int, own: int, enemy: int, p: int) -> bool:
    """A stone of ``own`` on ``p`` forms a naked diagonal whatever comes later: a diagonal neighbour in
    ``own`` whose two shared points are both ``enemy`` stones."""
    r, c = divmod(p, n)
    for dr in (-1, 1):
        for dc in (-1, 1):
            rr, cc = r + dr, c + dc
            if (0 <= rr < n and 0 <= cc < n and own >> (rr * n + cc) & 1 and enemy >> (rr * n + c) & 1
                    and enemy >> (r * n + cc) & 1):
                return True
    return False


def _lattice(n: int, red: int, blue: int, area: int, offset: tuple[int, int], prefer_red: bool,
             jokers: int) -> Witness | Stuck:
    """The lattice order one point at a time, as its docstring defines it."""
    order: list[int] = []
    wred = 0
    for phase in range(4):
        for p in range(n * n):
            r, c = divmod(p, n)
            if not area >> p & 1 or ((r - offset[0]) & 1) * 2 + ((c - offset[1]) & 1) != phase:
                continue
            for want_red in (prefer_red, not prefer_red):
                own = red if want_red else blue
                if not _forms(n, own, own | jokers, p):
                    break
            else:
                return Stuck(p, red, blue)
            if want_red:
                red |= 1 << p
                wred |= 1 << p
            else:
                blue |= 1 << p
            order.append(p)
    return Witness(tuple(order), wred)


def _board(rng: random.Random, g: Grid) -> tuple[int, int, int]:
    density = rng.random()
    red = blue = 0
    for p in range(g.size):
        x = rng.random()
        if x < density / 2:
            red |= 1 << p
        elif x < density:
            blue |= 1 << p
    jokers = (g.full & ~(red | blue)) & rng.getrandbits(g.size) if rng.random() < 0.3 else 0
    return red, blue, jokers


def test_forming_and_dead_match_the_definitions_point_by_point() -> None:
    rng = random.Random(11)
    for _ in range(300):
        g = Grid.get(rng.randint(1, 13))
        own = rng.getrandbits(g.size)
        clothes = own | rng.getrandbits(g.size)
        expect = sum(1 << p for p in range(g.size) if _forms(g.n, own, own, p))
        assert forming(g, own, g.full) == expect
        expect = sum(1 << p for p in range(g.size) if _forms(g.n, own, clothes, p))
        assert forming(g, own, g.full, clothes) == expect
        enemy = rng.getrandbits(g.size) & ~own
        expect = sum(1 << p for p in range(g.size) if _dead(g.n, own, enemy, p))
        assert dead(g, own, enemy, g.full) == expect


def test_lattice_phases_at_once_match_one_point_at_a_time() -> None:
    rng = random.Random(12)
    witnesses = 0
    for _ in range(300):
        g = Grid.get(rng.randint(2, 13))
        red, blue, jokers = _board(rng, g)
        area = g.full & ~(red | blue | jokers)
        for offset in LATTICE_OFFSETS:
            for prefer_red in (True, False):
                got = lattice(g, red, blue, area, offset, prefer_red, jokers)
                assert got == _lattice(g.n, red, blue, area, offset, prefer_red, jokers)
                if isinstance(got, Witness) and not jokers:
                    witnesses += 1
                    assert replay(g, red, blue, got)
    assert witnesses > 100
