"""The proof search of ``nd-prove`` (pipeline/naked_diagonal/proof.py) against the solve, on every 3x3
position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.executor import InProcessExecutor
from pipeline.naked_diagonal.dfpn import BY_THREAT, IN_FOUR, table_slots
from pipeline.naked_diagonal.geometry import Geometry
from pipeline.naked_diagonal.proof import ProofSearch, lines_from, opening_tree, prove_openings
from pipeline.naked_diagonal.store import Store
from tests.pipeline.naked_diagonal.solving import stored_positions
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.tables import NDTables


def test_the_proof_search_agrees_with_the_solve(solved: dict[int, Path]) -> None:
    store = Store(str(solved[3] / "s.zarr"), 3)
    search = ProofSearch(3)
    for _, key, _, _, value in stored_positions(store, 3):
        red, blue, turn = Geometry.of(3).unkey(key)
        assert search.wins(red, blue, int(turn == "b")) == (value > 0)
    result = prove_openings(3, InProcessExecutor(), split=1, log=lambda msg: None)
    analysis = NDTables.load(3, solved[3] / "t").analysis(Position.empty(3))
    assert result["empty_board"] == analysis["outcome"] == "win"
    assert result["first_placements"] == {name: m["outcome"] for name, m in analysis["moves"].items()}


@pytest.mark.parametrize(("n", "openings"), [(4, 4), (5, 9), (6, 9), (7, 16)])
def test_the_opening_tree_has_one_task_per_first_placement_up_to_symmetry(n: int, openings: int) -> None:
    # The four maps that keep the players: 25 points in 9 classes, 36 in 9, 49 in 16. Beyond 5x5 the
    # positions are told apart by their canonical pairs (one-word keys would overflow and merge them).
    moves, leaves = opening_tree(n, 1)
    assert len(leaves) == openings
    (root,) = moves
    assert len(moves[root]) == n * n
    assert {len(line) for line in leaves.values()} == {1}


def test_first_searches_only_the_lines_of_those_openings_and_leaves_the_rest_unknown() -> None:
    # 4x4 after two placements, only the lines from b2 (and its images a symmetric class stands for):
    # every searched line opens with an image of b2, the others are reported but not searched.
    _, leaves = opening_tree(4, 2)
    kept = lines_from(4, leaves, (5,))  # b2
    images = {Grid.get(4).name(line[0]) for line in kept.values()}
    assert images <= {"b2", "c2", "b3", "c3"} and len(kept) == 15
    result = prove_openings(4, InProcessExecutor(), split=2, log=lambda msg: None, first=(5,))
    searched = [t for t in result["tasks"] if not t.get("not_searched")]
    assert len(searched) == 15 and all(t["wins"] is not None for t in searched)
    assert all(t["wins"] is None and t["nodes"] == 0 for t in result["tasks"] if t.get("not_searched"))
    # b2 and its images are decided from the searched lines alone; a corner is not.
    assert result["first_placements"]["b2"] == result["first_placements"]["c3"] != "unknown"
    assert result["first_placements"]["a1"] == "unknown"


def test_table_slots_are_the_largest_power_of_two_that_fits() -> None:
    assert table_slots(576) == 1 << 24
    assert table_slots(1000) == 1 << 24 and table_slots(1200) == 1 << 25
    assert table_slots(1) == 1 << 14


def test_deferred_tests_decide_the_same_and_the_ledger_says_so(tmp_path: Path) -> None:
    # nd-prove --defer in-four by-threat: the same outcomes on 4x4 as with every test asked at once, and
    # each ledger entry names the deferred tests among its search settings.
    lazy = IN_FOUR | BY_THREAT
    plain = prove_openings(4, InProcessExecutor(), split=1, log=lambda msg: None)
    deferred = prove_openings(4, InProcessExecutor(), split=1, log=lambda msg: None, lazy=lazy,
                              ledger=str(tmp_path))
    assert deferred["first_placements"] == plain["first_placements"]
    assert deferred["empty_board"] == plain["empty_board"] != "unknown"
    entries = [json.loads(p.read_text()) for p in sorted(tmp_path.glob("*.json"))]
    assert entries and all(json.dumps(e).count(f'"lazy": {lazy}') == 1 for e in entries)
