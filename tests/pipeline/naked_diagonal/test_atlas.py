"""The atlas of NDE configurations (pipeline/naked_diagonal/atlas.py) against plain Python and the game
engine."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pipeline.executor import InProcessExecutor
from pipeline.naked_diagonal import atlas
from unitile_py.naked_diagonal.position import Position

Cell = tuple[int, int]


def py_forms(colours: dict[Cell, str], p: Cell, x: str) -> bool:
    """Plain Python: whether colour ``x`` on ``p`` forms a naked diagonal."""
    r, c = p
    return any(
        colours.get((r + dr, c + dc)) == x and x not in (colours.get((r + dr, c)), colours.get((r, c + dc)))
        for dr in (-1, 1)
        for dc in (-1, 1)
    )


def brute_fillable(cells: dict[Cell, str], area: list[Cell]) -> tuple[bool, set[frozenset[Cell]]]:
    """Plain Python: ``(fillable, the sets of area points that clean sequences inside the area fill)``."""
    reach: set[frozenset[Cell]] = set()
    seen: set[tuple[tuple[Cell, str], ...]] = set()

    def walk(placed: dict[Cell, str]) -> None:
        key = tuple(sorted(placed.items()))
        if key in seen:
            return
        seen.add(key)
        reach.add(frozenset(placed))
        colours = {**cells, **placed}
        for p in area:
            if p not in placed:
                for x in "RB":
                    if not py_forms(colours, p, x):
                        walk({**placed, p: x})

    walk({})
    return frozenset(area) in reach, reach


def brute_entries(shape: tuple[Cell, ...]) -> tuple[dict[str, int], set[str], set[str]]:
    """Plain Python, every pattern of one shape: counts, the minimal drawings and the drawings whose
    culprits are not BAD (the atlas's definitions, written again)."""
    counts = {"patterns": 0, "valid": 0, "nde": 0, "nde_not_bad": 0}
    nde_sets: dict[str, set[frozenset[tuple[Cell, str]]]] = {}
    minimal: set[str] = set()
    culprit_ok: set[str] = set()
    patterns = []
    h, w = max(r for r, _ in shape) + 1, max(c for _, c in shape) + 1
    for sides in atlas.edge_sets(h, w):
        _, _, _, options, ring = atlas.frame(shape, sides)
        # Points of the frame on the board beyond the ring: they may hold a clothing stone.
        off = {(r, c) for r in range(h + 2) for c in range(w + 2)
               if ("N" in sides and r == 0) or ("S" in sides and r == h + 1)
               or ("W" in sides and c == 0) or ("E" in sides and c == w + 1)}
        area = {(r + 1, c + 1) for r, c in shape}
        free = {(r, c) for r in range(h + 2) for c in range(w + 2)} - set(ring) - off - area
        for choice in itertools.product(*[range(o) for o in options.tolist()]):
            index = sum(d * int(np.prod(options[:i])) for i, d in enumerate(choice))
            patterns.append((sides, free, atlas.decode(index, ring, options)))
    area = [(r + 1, c + 1) for r, c in shape]
    parts = [frozenset(area[i] for i in range(len(area)) if m >> i & 1)
             for m in atlas.connected_parts(shape).tolist()] + [frozenset(area)]
    nde_patterns = []
    for sides, free, ring_cells in patterns:
        counts["patterns"] += 1
        cells = {p: v for p, v in ring_cells.items() if v in "RB"}
        if any(cells.get((r + dr, c + dc)) == v and not ({(r + dr, c), (r, c + dc)} & free)
               and v not in (cells.get((r + dr, c)), cells.get((r, c + dc)))
               for (r, c), v in cells.items() for dr in (-1, 1) for dc in (-1, 1)):
            continue  # a naked diagonal among the stones that no stone beyond the ring could clothe
        counts["valid"] += 1
        ok, reach = brute_fillable(cells, area)
        if ok:
            continue
        counts["nde"] += 1
        text = atlas.canonical_drawing({**{p: "o" for p in area}, **ring_cells})[0]
        counts["nde_not_bad"] += not atlas.banned_of(text)
        stones = frozenset(cells.items())
        nde_sets.setdefault(sides, set()).add(stones)
        nde_patterns.append((sides, stones, text))
        # The culprits: the smallest connected parts that no reachable set covers.
        uncovered = [s for s in parts if not any(s <= f for f in reach)]
        size = min(len(s) for s in uncovered)
        if not any(all(py_forms(cells, p, x) for p in s) for s in uncovered if len(s) == size for x in "RB"):
            culprit_ok.add(text)
    for sides, stones, text in nde_patterns:
        # Minimal: no NDE pattern with a subset of the stones (only stones on points that touch the area
        # at a corner only can be taken away: the others are always stones or the edge).
        if not any(other < stones for other in nde_sets[sides]):
            minimal.add(text)
    return counts, minimal, culprit_ok


@pytest.mark.parametrize("shape", [((0, 0),), ((0, 0), (0, 1)), ((0, 0), (1, 0), (1, 1))])
def test_the_atlas_kernels_agree_with_plain_python(shape: tuple[Cell, ...]) -> None:
    res = atlas.shape_task(atlas.ShapeTask(shape))
    counts, minimal, culprit_ok = brute_entries(shape)
    assert {k: res[k] for k in counts} == counts
    assert {e["drawing"] for e in res["found"] if e["minimal"]} == minimal
    assert {e["drawing"] for e in res["found"] if not e["culprit_bad"]} == culprit_ok


def test_the_atlas_counts_up_to_four_points() -> None:
    """The exhaustive counts quoted in docs/naked-diagonal-areas.md for k <= 4 (the 2 x 2 hole is the only
    shape with an NDE configuration whose culprits are not BAD)."""
    result = atlas.run_atlas(InProcessExecutor(), 4, log=lambda msg: None)
    per_k = result["per_k"]
    assert [per_k[str(k)]["nde"] for k in range(1, 5)] == [0, 96, 1008, 8324]
    odd = [e["drawing"] for e in result["entries"] if not e["culprit_bad"]]
    assert odd == ["BBRR/BooR/RooB/RRBB"]


def test_classify_agrees_with_the_game_engine() -> None:
    """The 2 x 2 hole of the atlas as a real 4 x 4 position: unitile_py's own solver finds it NDE, no
    colour banned, and a culprit that is smaller than the area."""
    from unitile_py.naked_diagonal.bans import banned
    from unitile_py.naked_diagonal.culprit import smallest_nde
    from unitile_py.naked_diagonal.legality import engine

    verdict = atlas.classify("BBRR/BooR/RooB/RRBB")
    assert verdict == {"valid": True, "nde": True, "banned": "", "irreducible": False, "culprit_bad": False}
    position = Position.parse("BBRR/B..R/R..B/RRBB r")
    area = position.empty_points
    assert engine(position.grid).solver.witness(area, position.red, position.blue) is None
    assert banned(position, area) == ()
    culprit = smallest_nde(engine(position.grid).solver, position, area)
    assert 0 < culprit.bit_count() < 4 and banned(position, culprit) == ()
