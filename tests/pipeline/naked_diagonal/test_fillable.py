"""The numba fillability search (``kernels.fillable``: settling by safe placements, doomed sets,
constructions, windows, exhaustive search) against a plain exhaustive search written here from the
rules alone (coordinates, no tables of the kernels), on seeded areas with jokers; and the positions on
which the search used to run for minutes."""

from __future__ import annotations

import random
from functools import cache

import pytest

from pipeline.naked_diagonal import kernels
from pipeline.naked_diagonal.geometry import NDGeometry
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import legal_masks
from unitile_py.naked_diagonal.position import Position


def _diagonals(n: int, p: int) -> list[tuple[int, tuple[int, int]]]:
    """``(q, (s, t))``: each diagonal neighbour q of p and the two points next to both."""
    row, col = divmod(p, n)
    out = []
    for dr in (-1, 1):
        for dc in (-1, 1):
            r2, c2 = row + dr, col + dc
            if 0 <= r2 < n and 0 <= c2 < n:
                out.append((r2 * n + c2, (row * n + c2, r2 * n + col)))
    return out


def _forms(n: int, own: int, clothes: int, p: int) -> bool:
    return any(own >> q & 1 and not (clothes >> s & 1 or clothes >> t & 1) for q, (s, t) in _diagonals(n, p))


def brute_fillable(n: int, area: int, red: int, blue: int, jokers: int) -> bool:
    """Whether some order and colours fill ``area`` with no naked diagonal ever formed (jokers clothe
    every diagonal and form none): every sequence tried, memoised on what is left and its colours."""

    @cache
    def fill(rest: int, r: int, b: int) -> bool:
        if rest == 0:
            return True
        for p in range(n * n):
            if rest >> p & 1:
                if not _forms(n, r, r | jokers, p) and fill(rest & ~(1 << p), r | 1 << p, b):
                    return True
                if not _forms(n, b, b | jokers, p) and fill(rest & ~(1 << p), r, b | 1 << p):
                    return True
        return False

    return fill(area, red, blue)


def _neighbours(n: int, p: int) -> list[int]:
    row, col = divmod(p, n)
    return [r * n + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < n and 0 <= c < n]


def _component(n: int, seed: int, within: int) -> int:
    group, todo = 0, [seed]
    while todo:
        p = todo.pop()
        if within >> p & 1 and not group >> p & 1:
            group |= 1 << p
            todo.extend(_neighbours(n, p))
    return group


def _random_case(rng: random.Random, n: int) -> tuple[int, int, int, int]:
    """``(area, red, blue, jokers)``: stones placed at random without naked diagonals; a region of at
    most 10 points, and either the whole region (no jokers) or a connected part of it with the rest of
    the region as jokers (as the kernel's windows are)."""
    red = blue = 0
    for p in rng.sample(range(n * n), rng.randint(n, n * n - 3)):
        colour = rng.randrange(2)
        own = red if colour == 0 else blue
        if not _forms(n, own, own, p):
            red, blue = (red | 1 << p, blue) if colour == 0 else (red, blue | 1 << p)
    empty = ((1 << n * n) - 1) & ~(red | blue)
    regions = []
    rest = empty
    while rest:
        region = _component(n, (rest & -rest).bit_length() - 1, rest)
        rest &= ~region
        if bin(region).count("1") <= 10:
            regions.append(region)
    if not regions:
        return 0, red, blue, 0
    region = rng.choice(regions)
    if rng.random() < 0.5:
        return region, red, blue, 0
    points = [p for p in range(n * n) if region >> p & 1]
    part = 1 << rng.choice(points)
    for _ in range(rng.randint(0, len(points) - 1)):
        edge = [q for p in points if part >> p & 1
                for q in _neighbours(n, p) if region >> q & 1 and not part >> q & 1]
        if not edge:
            break
        part |= 1 << rng.choice(edge)
    return part, red, blue, region & ~part


@pytest.mark.parametrize("n", [4, 5])
def test_fillable_is_the_brute_force_on_seeded_areas(n: int) -> None:
    rng = random.Random(480 + n)
    g = NDGeometry.of(n).args
    memo = kernels.new_memo()
    answers = {True: 0, False: 0}
    with_jokers = 0
    tried = 0
    while tried < 1500:
        area, red, blue, jokers = _random_case(rng, n)
        if not area:
            continue
        tried += 1
        expected = brute_fillable(n, area, red, blue, jokers)
        assert kernels.fillable(g, area, red, blue, jokers, memo) == expected, (n, area, red, blue, jokers)
        # A fresh memo gives the same answer (the memo's entries are exact, not order dependent).
        assert kernels.fillable(g, area, red, blue, jokers, kernels.new_memo()) == expected
        answers[expected] += 1
        with_jokers += jokers != 0
    assert answers[True] > 100 and answers[False] > 20 and with_jokers > 300, answers


def test_settling_and_doomed_sets_agree_with_the_brute_force() -> None:
    """The two exact reductions on their own: what ``_settle`` leaves is fillable exactly when the area
    is, and a non-empty doomed set only ever appears in an area with no clean filling."""
    rng = random.Random(4848)
    g = NDGeometry.of(5).args
    settled = doomed = 0
    for _ in range(1500):
        area, red, blue, jokers = _random_case(rng, 5)
        if not area:
            continue
        expected = brute_fillable(5, area, red, blue, jokers)
        rest, r2, b2 = kernels.settle(g, area, red, blue, jokers)
        assert rest & ~area == 0 and r2 & blue == 0 and b2 & red == 0
        assert (r2 | b2) & ~(red | blue) == area & ~rest
        if rest != area:
            settled += 1
            parts_fill = all(brute_fillable(5, _component(5, p, rest), r2, b2, jokers)
                             for p in range(25) if rest >> p & 1)
            assert parts_fill == expected
        if kernels.doomed(g, area, red, blue):
            doomed += 1
            assert not expected
    assert settled > 500 and doomed > 10, (settled, doomed)


#: Positions of 6x6 df-pn runs where the search used to run for minutes (issue 48), with the placements
#: whose legality was slow to decide.
SLOW = [
    ("BRB.BB/....../R..B../RB..../R...../R..... r", ("c3", "d3")),
    ("B.BR../....../...B../B.R.../..R.../...... r", ("a4",)),
    ("B...../....../R...../B.RB../....../...... r", ("d5",)),
]


@pytest.mark.parametrize(("text", "names"), SLOW)
def test_the_positions_that_stalled_the_search_agree_with_unitile_py(text: str,
                                                                    names: tuple[str, ...]) -> None:
    position = Position.parse(text)
    grid = Grid.get(6)
    g = NDGeometry.of(6).args
    memo = kernels.new_memo()
    assert kernels.legal_masks(g, position.red, position.blue, memo) == legal_masks(position)
    for name in names:
        bit = 1 << grid.point(name)
        after = Position(grid, position.red | bit, position.blue, "b")
        assert kernels.legal_masks(g, after.red, after.blue, memo) == legal_masks(after)
    assert len(memo) < 1_000
