"""The numba fillability search (``kernels.fillable``: settling by safe placements, doomed sets,
constructions, windows, exhaustive search) against the brute force of
``tests/game/naked_diagonal/reference.py`` (every order and colouring, written apart from both engines),
on seeded areas with jokers; and the positions on which the search used to run for minutes."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pipeline.naked_diagonal import kernels
from pipeline.naked_diagonal.geometry import Geometry
from tests.game.naked_diagonal import reference as ref
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import legal_masks
from unitile_py.naked_diagonal.position import Position


def points_of(mask: int) -> frozenset[int]:
    """The points of a mask."""
    return frozenset(p for p in range(mask.bit_length()) if mask >> p & 1)


def brute_fillable(n: int, area: int, red: int, blue: int, jokers: int) -> bool:
    """The reference's answer: some clean sequence of placements on ``area`` fills it, jokers clothing
    every diagonal and forming none."""
    cells = points_of(area)
    return ref.fillable(ref.board_of_masks(n * n, red, blue, jokers), cells, cells)


def _random_case(rng: random.Random, n: int) -> tuple[int, int, int, int]:
    """``(area, red, blue, jokers)``: stones placed at random without naked diagonals; a region of at
    most 10 points, and either the whole region (no jokers) or a connected part of it with the rest of
    the region as jokers (as the kernel's windows are)."""
    board = ref.board_of_masks(n * n, 0, 0)
    for p in rng.sample(range(n * n), rng.randint(n, n * n - 3)):
        colour = "RB"[rng.randrange(2)]
        if not ref.forms_naked(board, p, colour):
            board = ref.put(board, p, colour)
    red = sum(1 << p for p, c in enumerate(board) if c == "R")
    blue = sum(1 << p for p, c in enumerate(board) if c == "B")
    regions = [r for r in ref.regions(board) if len(r) <= 10]
    if not regions:
        return 0, red, blue, 0
    region = sorted(rng.choice(sorted(regions, key=sorted)))
    mask = sum(1 << p for p in region)
    if rng.random() < 0.5:
        return mask, red, blue, 0
    part = {rng.choice(region)}
    for _ in range(rng.randint(0, len(region) - 1)):
        edge = sorted({q for p in part for q in ref.orthogonal(n, p) if q in region and q not in part})
        if not edge:
            break
        part.add(rng.choice(edge))
    part_mask = sum(1 << p for p in part)
    return part_mask, red, blue, mask & ~part_mask


@pytest.mark.parametrize("n", [4, 5])
def test_fillable_is_the_brute_force_on_seeded_areas(n: int) -> None:
    rng = random.Random(480 + n)
    g = Geometry.of(n).args
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
    g = Geometry.of(5).args
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
            parts = ref.regions(ref.board_of_masks(25, r2, b2, jokers), within=points_of(rest))
            parts_fill = all(brute_fillable(5, sum(1 << p for p in part), r2, b2, jokers) for part in parts)
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
    g = Geometry.of(6).args
    memo = kernels.new_memo()
    assert kernels.legal_masks(g, position.red, position.blue, memo) == legal_masks(position)
    for name in names:
        bit = 1 << grid.point(name)
        after = Position(grid, position.red | bit, position.blue, "b")
        assert kernels.legal_masks(g, after.red, after.blue, memo) == legal_masks(after)
    assert len(memo) < 1_000


#: Positions of 6x6 and 7x7 df-pn runs where no reading order fills the empty points (the slowest
#: frames of bench/nd_frames.py): the kernel finds its witness by a small search or reads it off
#: ``fillable``'s answers.
UNORDERED = [
    "R.B.../B..R../...B../RB..../R...../.B.R.. r",
    ".BB.R../......R/...BR../......B/.R..B.R/.B...../....... r",
    ".BB.R../......R/...BR../......./.R..BR./B.B..../....... r",
    ".BB.R../.....BR/...BR../......./.R..BR./..B..../....... r",
]


@pytest.mark.parametrize("text", UNORDERED)
def test_witnesses_found_without_a_reading_order_are_clean_fillings(text: str) -> None:
    position = Position.parse(text)
    n = position.grid.n
    g = Geometry.of(n).args
    empty = g.full & ~(position.red | position.blue)
    colours, reds, blues, index = (np.empty(n * n, dtype=np.int64) for _ in range(4))
    red, blue = position.red, position.blue
    assert not any(kernels._witness(g, empty, red, blue, -1, 0, order, colours, reds, blues, index)
                   for order in range(4))
    memo = kernels.new_memo()
    assert kernels.all_fillable(g, empty, red, blue, memo)
    witnesses = []
    if kernels._extracted_witness(g, empty, red, blue, colours, reds, blues, index, memo, 1_000):
        witnesses.append((colours.copy(), index.copy()))
    if kernels._searched_witness(g, empty, red, blue, colours, reds, blues, index, 64):
        witnesses.append((colours.copy(), index.copy()))
    assert witnesses
    for colours, index in witnesses:
        # Replay the witness by the reference's rules: its placements in order, each forming no naked
        # diagonal when it is made, filling every empty point.
        order = sorted(points_of(empty), key=lambda p: int(index[p]))
        board = ref.board_of_masks(n * n, red, blue)
        for p in order:
            colour = "RB"[int(colours[int(index[p])])]
            assert not ref.forms_naked(board, p, colour), (text, p)
            board = ref.put(board, p, colour)
        assert sorted(int(index[p]) for p in order) == list(range(len(order)))
    assert kernels.legal_masks(g, red, blue, kernels.new_memo()) == legal_masks(position)
