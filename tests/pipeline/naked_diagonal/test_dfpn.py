"""The df-pn search of ``nd-prove --search dfpn`` (pipeline/naked_diagonal/dfpn.py) against the committed
tables (every 2x2 and 3x3 record, a seeded sample of 4x4 ones) and against the alpha-beta search on
random 5x5 positions; its budget, its continuation and the winning moves it reads back."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from pipeline.executor import InProcessExecutor
from pipeline.naked_diagonal.check_strategy import check_strategy, load_checked
from pipeline.naked_diagonal.dfpn import ALL_TESTS, DfpnSearch
from pipeline.naked_diagonal.geometry import Geometry
from pipeline.naked_diagonal.kernels import memo_for, winner_bits
from pipeline.naked_diagonal.moves import COLUMNS, ordered_children, wins_at_once
from pipeline.naked_diagonal.proof import ProofSearch, prove_openings
from pipeline.naked_diagonal.proof_strategy import strategy_from_search
from pipeline.naked_diagonal.strategy_file import write_strategy
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.tables import tables_for


def records(n: int) -> Iterator[tuple[int, int, int, bool]]:
    """``(red, blue, turn, wins)`` of every record of the committed n x n tables."""
    size = n * n
    full = (1 << size) - 1
    for tier in tables_for(n).tiers.values():
        for key, value in zip(tier.keys, tier.values, strict=True):
            yield key & full, key >> size & full, key >> (2 * size) & 1, bool(value & 1)


@pytest.mark.parametrize("n", [2, 3])
def test_every_record_of_2x2_and_3x3(n: int) -> None:
    search = DfpnSearch(n)
    rows = list(records(n))
    assert len(rows) == {2: 8, 3: 728}[n]
    for red, blue, turn, wins in rows:
        assert search.prove(red, blue, turn) is wins


def test_a_tiny_table_replaces_entries_and_stays_exact() -> None:
    # 64 slots for 728 records and their subtrees: entries are overwritten all the time.
    search = DfpnSearch(3, slots=64)
    for red, blue, turn, wins in records(3):
        assert search.prove(red, blue, turn) is wins
    assert search.stored <= 64


def test_a_seeded_sample_of_4x4_records() -> None:
    rows = list(records(4))
    sample = random.Random(33).sample(rows, 3000)
    first = [r for r in rows if (r[0] | r[1]).bit_count() <= 1]  # the empty board, every first placement
    assert len(first) == 5
    search = DfpnSearch(4)
    for red, blue, turn, wins in first + sample:
        assert search.prove(red, blue, turn) is wins
    assert search.prove(0, 0, 0) is False  # Blue wins 4x4


def random_positions(n: int, stones: int, count: int, seed: int) -> list[Position]:
    """Positions of seeded random games after ``stones`` placements (games over before are skipped)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        game = Game(Position.empty(n))
        while not game.is_over() and len(game.moves) < stones:
            game.push(rng.choice(game.legal_moves()))
        if not game.is_over():
            out.append(game.position)
    return out


def test_random_5x5_positions_agree_with_the_alpha_beta_search() -> None:
    dfpn = DfpnSearch(5, slots=1 << 16)
    alphabeta = ProofSearch(5, slots=1 << 16)
    outcomes = set()
    for stones in (13, 14, 15, 16, 17, 19):
        for p in random_positions(5, stones, 10, seed=stones):
            turn = int(p.turn == "b")
            wins = alphabeta.wins(p.red, p.blue, turn)
            assert dfpn.prove(p.red, p.blue, turn) is wins
            outcomes.add(wins)
    assert outcomes == {True, False}


def test_a_budget_answers_unknown_and_a_later_call_continues() -> None:
    p = random_positions(5, 4, 1, seed=4)[0]  # 1,484 nodes with the default search
    turn = int(p.turn == "b")
    wins = ProofSearch(5, slots=1 << 16).wins(p.red, p.blue, turn)
    whole = DfpnSearch(5, slots=1 << 16)
    assert whole.prove(p.red, p.blue, turn) is wins
    assert whole.nodes > 200
    search = DfpnSearch(5, slots=1 << 16)
    assert search.prove(p.red, p.blue, turn, budget=100) is None
    assert search.last_nodes == 100 and search.stored > 0
    assert search.prove(p.red, p.blue, turn) is wins
    assert search.nodes == 100 + search.last_nodes
    assert search.prove(p.red, p.blue, turn, budget=1) is wins  # now in the table


def test_winning_moves_win() -> None:
    tables = tables_for(4)
    search = DfpnSearch(4)
    checked = 0
    for red, blue, turn, wins in random.Random(5).sample(list(records(4)), 400):
        move = search.winning_move(red, blue, turn)
        if not wins:
            assert move == -1
            continue
        position = Position(tables.grid, red, blue, "b" if turn else "r")
        assert tables.after(position, move)[0] == "win"
        checked += 1
    assert checked > 100
    # A line from the empty board: legal placements (the game's own referee), ending with Blue's win.
    game = Game(Position.empty(4))
    for point in search.best_line(0, 0, 0):
        assert not game.push(point)
    assert game.winner() == "b"


def test_nd_prove_with_dfpn_on_3x3() -> None:
    result = prove_openings(3, InProcessExecutor(), split=1, log=lambda msg: None, search="dfpn")
    analysis = tables_for(3).analysis(Position.empty(3))
    assert result["search"] == "dfpn"
    assert result["empty_board"] == analysis["outcome"] == "win"
    assert result["first_placements"] == {name: m["outcome"] for name, m in analysis["moves"].items()}


def test_wins_at_once_is_the_winning_point_of_the_move_generator() -> None:
    # Exact, not a heuristic: on every 3x3 record and on positions of seeded 5x5 games (both sides to
    # move), a legal placement completes the chain exactly when wins_at_once says so.
    rows = [(3, r, b, t) for r, b, t, _ in records(3)]
    rows += [(5, p.red, p.blue, t) for stones in range(4, 20) for p in random_positions(5, stones, 12, stones)
             for t in (0, 1)]
    seen = {True: 0, False: 0}
    for n, red, blue, turn in rows:
        geo = Geometry.of(n)
        if winner_bits(geo.args, red, blue):
            continue
        rows_out = np.zeros((geo.size, COLUMNS), dtype=np.int64)
        score = np.zeros(geo.size, dtype=np.int64)
        point, _ = ordered_children(geo.args, red, blue, turn, memo_for(n), rows_out, score)
        found = wins_at_once(geo.args, red, blue, turn, memo_for(n))
        assert found is (point >= 0)
        seen[found] += 1
    assert seen[True] > 50 and seen[False] > 50


def test_the_threat_check_changes_nodes_not_outcomes() -> None:
    plain, checked = DfpnSearch(5, slots=1 << 16, threats=False), DfpnSearch(5, slots=1 << 16)
    deferred = DfpnSearch(5, slots=1 << 16, lazy=ALL_TESTS)
    for stones in (9, 11, 13):
        for p in random_positions(5, stones, 4, seed=100 + stones):
            turn = int(p.turn == "b")
            expected = plain.prove(p.red, p.blue, turn)
            assert checked.prove(p.red, p.blue, turn) is expected
            assert deferred.prove(p.red, p.blue, turn) is expected
    assert checked.nodes < plain.nodes and deferred.nodes < plain.nodes


@pytest.mark.parametrize("n", [3, 4])
def test_the_strategy_of_a_proof_is_accepted_and_wins(tmp_path: Path, n: int) -> None:
    found = strategy_from_search(n)
    assert found.winner == ("r" if n == 3 else "b")  # the tables' winners
    write_strategy(tmp_path, n, found.winner, found.moves, "test")
    report = check_strategy(load_checked(tmp_path))
    assert report.winner_turns == len(found.moves) and len(report.used) == len(found.moves)
    # About the size of the strategy of the tables' fastest wins (55 and 4,142 positions): the walk keeps
    # the children whose proofs took the fewest nodes (4x4: 3,625 positions with the search before its
    # starting dn factor and threat lookahead, 4,223 with them; 3x3: 55).
    assert len(found.moves) < {3: 55 * 21 // 20, 4: 4142 * 21 // 20}[n]
