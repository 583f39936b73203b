"""The Naked Diagonal solve (pipeline/naked_diagonal) on 2x2 and 3x3, checked against independent truth:

* the tiers: counts per tier before symmetry from a plain breadth-first search with the game's own
  ``Game`` (no symmetry, no pipeline code);
* legality: the numba kernels against unitile_py's engine on every reachable position and on every
  3x3 board without a naked diagonal (reachable or not, NDE regions included);
* perfect play: a forward negamax with unitile_py's ``Game`` (a memo on exact positions) on every
  reachable position, against the store and against the game's table reader;
* the proof search of ``nd-prove`` against the solve, on every 3x3 position;
* the pipeline's own behaviour: a killed build resumes and ends with the same tables bit for bit, the
  dask executor gives the same tables, ``verify`` catches a wrong value and a missing shard.
"""

from __future__ import annotations

import itertools
import json
import random
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pipeline.executor import DaskExecutor, InProcessExecutor
from pipeline.naked_diagonal import atlas, kernels, survey
from pipeline.naked_diagonal import cli as nd_cli
from pipeline.naked_diagonal.build import plan, run_plan
from pipeline.naked_diagonal.context import NDContext, NDOptions
from pipeline.naked_diagonal.geometry import NDGeometry
from pipeline.naked_diagonal.proof import ProofSearch, prove_openings
from pipeline.naked_diagonal.solve import outcome, values_of
from pipeline.naked_diagonal.store import NDStore
from pipeline.naked_diagonal.tables import tier_arrays
from pipeline.naked_diagonal.verify import VerifyError, VerifyStage
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import legal_masks
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.tables import NDTables

#: Canonical positions per tier (a breadth-first search of the game with symmetry, done once by hand).
CANONICAL = {2: [1, 1, 3, 2, 1], 3: [1, 4, 21, 56, 127, 165, 169, 121, 48, 16]}


def build(n: int, root: Path, executor: Any = None, stages: int | None = None) -> dict[str, Any]:
    """Run the solve of n x n (its first ``stages`` stages) into ``root/s.zarr``, tables in ``root/t``."""
    store = NDStore(str(root / "s.zarr"), n, create=True)
    ctx = NDContext(n, store, executor or InProcessExecutor(), log=lambda msg: None)
    todo = plan(n, NDOptions(tables=str(root / "t"), part_size=48))
    return run_plan(ctx, todo[:stages] if stages is not None else todo)


@pytest.fixture(scope="session")
def solved(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """2x2 and 3x3 solved in process (parts of about 48 positions: up to 4 tasks per 3x3 tier)."""
    out = {}
    for n in (2, 3):
        root = tmp_path_factory.mktemp(f"nd{n}")
        build(n, root)
        out[n] = root
    return out


def reachable(n: int) -> dict[str, Position]:
    """Every position play from the empty board reaches, by text (no symmetry)."""
    seen = {str(Position.empty(n)): Position.empty(n)}
    todo = [Game(Position.empty(n))]
    while todo:
        game = todo.pop()
        for p in game.legal_moves():
            child = Game(game.position)
            child.push(p)
            if str(child.position) not in seen:
                seen[str(child.position)] = child.position
                todo.append(child)
    return seen


def forward(n: int) -> dict[str, tuple[str, int]]:
    """Perfect play of every reachable position by negamax with the game's ``Game`` and a memo."""
    sys.setrecursionlimit(10_000)
    memo: dict[str, tuple[str, int]] = {}

    def solve(game: Game) -> tuple[str, int]:
        position = game.position
        text = str(position)
        if text not in memo:
            winner = game.winner()
            if winner is not None:
                memo[text] = ("win" if winner == position.turn else "loss", 0)
            else:
                results = []
                for p in game.legal_moves():
                    game.push(p)
                    kind, d = solve(game)
                    same = game.position.turn == position.turn
                    game.pop()
                    won = (kind == "win") == same
                    results.append((won, -(d + 1) if won else d + 1))
                won, score = max(results)
                memo[text] = ("win" if won else "loss", -score if won else score)
        return memo[text]

    solve(Game(Position.empty(n)))
    return memo


def store_value(store: NDStore, position: Position) -> tuple[str, int]:
    """A position's value in the store, found by its canonical key (the pipeline's kernel)."""
    geo = NDGeometry.of(position.grid.n)
    key = kernels.canonical(geo.args, position.red, position.blue, int(position.turn == "b"))[0]
    tier = (position.red | position.blue).bit_count()
    return outcome(int(values_of(store, tier, np.array([key], dtype=np.uint64))[0]))


def stored_positions(store: NDStore, n: int) -> Iterator[tuple[int, int, int, int, int]]:
    """``(tier, key, legal red, legal blue, value)`` of every stored position."""
    full = Grid.get(n).full
    for t in range(n * n + 1):
        keys, values, _ = tier_arrays(store, t)
        legal = np.concatenate([store.row(f"tiers/{t}/legal", i)[: c] for i, c in
                                enumerate(store.require(f"tier-{t:02d}")["counts"])])
        for k, lg, v in zip(keys.tolist(), legal.tolist(), values.tolist(), strict=True):
            yield t, k, lg & full, lg >> 32, v


def position_of(n: int, key: int) -> Position:
    """The position of a key."""
    red, blue, turn = NDGeometry.of(n).unkey(key)
    return Position(Grid.get(n), red, blue, turn)


@pytest.mark.parametrize("n", [2, 3])
def test_tiers_hold_every_reachable_position(solved: dict[int, Path], n: int) -> None:
    store = NDStore(str(solved[n] / "s.zarr"), n)
    records = [store.require(f"tier-{t:02d}") for t in range(n * n + 1)]
    assert [r["positions"] for r in records] == CANONICAL[n]
    by_tier = [0] * (n * n + 1)
    for position in reachable(n).values():
        by_tier[(position.red | position.blue).bit_count()] += 1
    assert [r["images"] for r in records] == by_tier
    assert sum(by_tier) == {2: 27, 3: 2686}[n]


@pytest.mark.parametrize("n", [2, 3])
def test_stored_legality_is_unitile_pys(solved: dict[int, Path], n: int) -> None:
    store = NDStore(str(solved[n] / "s.zarr"), n)
    rows = list(stored_positions(store, n))
    assert len(rows) == sum(CANONICAL[n])
    for _, key, red, blue, _ in rows:
        assert legal_masks(position_of(n, key)) == (red, blue)


def test_legality_agrees_on_every_3x3_board() -> None:
    """Every 3x3 colouring without a naked diagonal, reachable or not (NDE regions included)."""
    grid = Grid.get(3)
    g, memo = NDGeometry.of(3).args, kernels.new_memo()
    compared = blocked = 0
    for cells in itertools.product((0, 1, 2), repeat=9):
        red = sum(1 << p for p, c in enumerate(cells) if c == 1)
        blue = sum(1 << p for p, c in enumerate(cells) if c == 2)
        try:
            position = Position(grid, red, blue, "r")
        except NakedDiagonalError:
            continue  # a naked diagonal: no such position
        theirs = legal_masks(position)
        assert tuple(kernels.legal_masks(g, red, blue, memo)) == theirs, str(position)
        compared += 1
        blocked += theirs == (0, 0) and bool(position.empty_points)
    assert compared > 5000 and blocked > 0


@pytest.mark.parametrize("n", [2, 3])
def test_forward_search_agrees_on_every_position(solved: dict[int, Path], n: int) -> None:
    store = NDStore(str(solved[n] / "s.zarr"), n)
    tables = NDTables.load(n, solved[n] / "t")
    values = forward(n)
    assert len(values) == len(reachable(n))
    for text, value in values.items():
        position = Position.parse(text)
        if position.winner() is None:
            assert store_value(store, position) == value, text
        assert tables.outcome(position) == value, text


def test_who_wins_and_a_principal_variation(solved: dict[int, Path]) -> None:
    expected = {2: ("loss", 4, "blue"), 3: ("win", 9, "red")}
    for n, root in solved.items():
        start = NDTables.load(n, root / "t").manifest["start"]
        assert (start["outcome"], start["distance"], start["winner"]) == expected[n]
        game = Game(Position.empty(n))
        for name in start["line"]:
            game.push_name(name)
        assert game.winner() == start["winner"][0] and len(start["line"]) == start["distance"]


def test_the_proof_search_agrees_with_the_solve(solved: dict[int, Path]) -> None:
    store = NDStore(str(solved[3] / "s.zarr"), 3)
    search = ProofSearch(3)
    for _, key, _, _, value in stored_positions(store, 3):
        red, blue, turn = NDGeometry.of(3).unkey(key)
        assert search.wins(red, blue, int(turn == "b")) == (value > 0)
    result = prove_openings(3, InProcessExecutor(), split=1, log=lambda msg: None)
    analysis = NDTables.load(3, solved[3] / "t").analysis(Position.empty(3))
    assert result["empty_board"] == analysis["outcome"] == "win"
    assert result["first_placements"] == {name: m["outcome"] for name, m in analysis["moves"].items()}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


class Interrupt(Exception):
    """Stands for a killed client."""


class DyingExecutor(InProcessExecutor):
    """Runs ``tasks`` tasks, then dies."""

    def __init__(self, tasks: int) -> None:
        super().__init__()
        self.left = tasks

    def map(self, fn: Any, items: Any, desc: str, on_result: Any = None) -> list[Any]:
        out = []
        for i, item in enumerate(items):
            if self.left == 0:
                raise Interrupt
            self.left -= 1
            out.append(fn(item))
            if on_result is not None:
                on_result(i, out[-1])
        return out


def test_a_killed_build_resumes_to_the_same_tables(solved: dict[int, Path], tmp_path: Path) -> None:
    with pytest.raises(Interrupt):
        build(3, tmp_path, DyingExecutor(12))
    store = NDStore(str(tmp_path / "s.zarr"), 3)
    done = store.stages()
    assert "tier-02" in done and "solve-00" not in done
    build(3, tmp_path)
    assert {k: v["finished"] for k, v in store.stages().items() if k in done} == {
        k: v["finished"] for k, v in done.items()
    }
    assert _files(tmp_path / "t") == _files(solved[3] / "t")


def test_dask_gives_the_same_tables(solved: dict[int, Path], tmp_path: Path) -> None:
    executor = DaskExecutor(workers=1, processes=False, show_progress=False)
    try:
        build(2, tmp_path, executor)
    finally:
        executor.close()
    assert _files(tmp_path / "t") == _files(solved[2] / "t")


def test_verify_catches_a_wrong_value_and_a_missing_shard(solved: dict[int, Path], tmp_path: Path) -> None:
    shutil.copytree(solved[2] / "s.zarr", tmp_path / "s.zarr")
    store = NDStore(str(tmp_path / "s.zarr"), 2)
    ctx = NDContext(2, store, InProcessExecutor(), log=lambda msg: None)
    VerifyStage().run(ctx)
    row = store.row("tiers/2/value", 0)
    row[0] = -row[0] if row[0] else 3
    store.array("tiers/2/value")[0] = row
    with pytest.raises(VerifyError, match="tier 2 part 0: a value differs"):
        VerifyStage().run(ctx)
    shard = next((tmp_path / "s.zarr" / "tiers" / "3" / "keys" / "c").rglob("*"))
    while shard.is_dir():
        shard = next(shard.iterdir())
    shard.unlink()
    with pytest.raises(NakedDiagonalError, match=r"tiers/3/keys, .*the shard is missing"):
        VerifyStage().run(ctx)


def test_the_store_refuses_other_directories(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("not a store")
    with pytest.raises(NakedDiagonalError, match="was not made by the Naked Diagonal solve"):
        NDStore(str(tmp_path), 3, create=True)
    NDStore(str(tmp_path / "new"), 3, create=True)
    with pytest.raises(NakedDiagonalError, match="holds board 3x3, not 4x4"):
        NDStore(str(tmp_path / "new"), 4)


# The committed 4x4 tables and larger boards: a fast seeded subset of bench/nd_solve.py legality -------


def test_legality_agrees_on_a_sample_of_4x4_and_5x5_positions() -> None:
    """Seeded samples: 3,000 records of the committed 4x4 tables and every position of 20 random 5x5
    games (bench/nd_solve.py legality checks every 4x4 position and larger samples)."""
    rng = random.Random(17)
    tables = NDTables.load(4)
    keys = [key for tier in tables.tiers.values() for key in tier.keys]
    for key in rng.sample(keys, 3000):
        position = position_of(4, key)
        got = kernels.legal_masks(NDGeometry.of(4).args, position.red, position.blue, kernels.memo_for(4))
        assert tuple(got) == legal_masks(position), str(position)
    g5 = NDGeometry.of(5).args
    for _ in range(20):
        game = Game(Position.empty(5))
        while not game.is_over():
            p = game.position
            got = kernels.legal_masks(g5, p.red, p.blue, kernels.memo_for(5))
            assert tuple(got) == legal_masks(p), str(p)
            game.push(rng.choice(game.legal_moves()))


# The atlas of NDE configurations ----------------------------------------------------------------------


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
    from unitile_py.naked_diagonal.legality import banned, engine, smallest_nde

    verdict = atlas.classify("BBRR/BooR/RooB/RRBB")
    assert verdict == {"valid": True, "nde": True, "banned": "", "irreducible": False, "culprit_bad": False}
    position = Position.parse("BBRR/B..R/R..B/RRBB r")
    area = position.empty_points
    assert engine(position.grid).solver.witness(area, position.red, position.blue) is None
    assert banned(position, area) == ()
    culprit = smallest_nde(position, area)
    assert 0 < culprit.bit_count() < 4 and banned(position, culprit) == ()


def test_a_small_survey_is_deterministic_and_agrees_with_the_atlas() -> None:
    task = survey.SurveyTask(5, "random", 3, 6)
    first, second = survey.survey_task(task), survey.survey_task(task)
    assert first["counts"] == second["counts"] and first["stats"] == second["stats"]
    assert first["stats"]["positions"] > 50 and first["stats"]["parts"] > 0
    for text in first["counts"]:
        if text.count("o") <= atlas.MAX_K:
            verdict = atlas.classify(text)
            assert verdict["valid"] and verdict["nde"], text
    merged = survey.merge([first, survey.survey_task(survey.SurveyTask(5, "greedy", 3, 4))])
    assert sum(e["count"] for e in merged["areas"]) + sum(merged["large"].values()) == (
        merged["per_board"]["5x5"]["parts"])


@pytest.mark.parametrize("argv, words", [
    (["nd-atlas", "--k", "0", "--in-process"], "--k 0"),
    (["nd-survey", "--sizes", "4", "--in-process"], "--sizes 4"),
    (["nd-survey", "--players", "nobody", "--in-process"], "--players nobody"),
    (["nd-areas", "--atlas", "/nonexistent/a.json"], "no such file"),
])
def test_area_commands_refuse_bad_input_in_one_line(argv: list[str], words: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert nd_cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err


def test_the_areas_file_is_deterministic_and_checked(tmp_path: Path) -> None:
    from pipeline.naked_diagonal.areas_file import publish

    result = atlas.run_atlas(InProcessExecutor(), 4, log=lambda msg: None)
    found = survey.merge([survey.survey_task(survey.SurveyTask(5, "random", 5, 4))])
    one, two = tmp_path / "a.json", tmp_path / "b.json"
    summary = publish(result, found, str(one))
    publish(result, found, str(two))
    assert one.read_bytes() == two.read_bytes()
    data = json.loads(one.read_text())
    assert data["format"] == 1 and data["survey"]["positions"] == summary["survey_positions"] > 0
    per_k = data["survey"]["per_k"]
    assert sum(row["parts"] for row in per_k.values()) == sum(e["count"] for e in found["areas"])
    assert sum(row["configurations"] for row in per_k.values()) == data["survey"]["configurations"] == len(
        found["areas"])
    odd = [e["drawing"] for e in data["exhaustive"]["entries"] if not e["culprit_bad"]]
    assert odd == ["BBRR/BooR/RooB/RRBB"]
    small = [e for e in found["areas"] if e["k"] <= atlas.MAX_K]
    assert small, "the survey found no small NDE area to check"
    small[0]["banned"] = "RB" if small[0]["banned"] != "RB" else ""
    with pytest.raises(NakedDiagonalError, match="disagree with the exhaustive kernels"):
        publish(result, found, str(tmp_path / "c.json"))


def test_a_stopped_survey_resumes_from_its_kept_parts(tmp_path: Path) -> None:
    tasks = [survey.SurveyTask(5, "random", seed, 3) for seed in (1, 2, 3)]
    whole = survey.run_survey(InProcessExecutor(), tasks, log=lambda msg: None)
    parts = tmp_path / "parts"
    with pytest.raises(Interrupt):
        survey.run_survey(DyingExecutor(2), tasks, log=lambda msg: None, parts=parts)
    assert sorted(p.name for p in parts.iterdir()) == sorted(survey.part_name(t) for t in tasks[:2])
    said: list[str] = []
    resumed = survey.run_survey(DyingExecutor(1), tasks, log=said.append, parts=parts)
    assert "2 of 3 tasks kept" in said[0]
    def counted(result: dict[str, Any]) -> dict[str, Any]:
        return {b: {k: v for k, v in row.items() if k not in ("cpu_seconds", "max_rss_mib")}
                for b, row in result["per_board"].items()}

    assert resumed["areas"] == whole["areas"] and counted(resumed) == counted(whole)
    (parts / survey.part_name(tasks[0])).write_text("{not json")
    with pytest.raises(NakedDiagonalError, match="not a result of this survey task"):
        survey.run_survey(InProcessExecutor(), tasks, log=lambda msg: None, parts=parts)
    assert (parts / survey.part_name(tasks[0])).read_text() == "{not json"


def test_nd_survey_kept_only_merges_the_finished_tasks(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    parts, out = tmp_path / "parts", tmp_path / "survey.json"
    argv = ["nd-survey", "--sizes", "5", "--players", "random", "--games", "3", "--tasks", "2",
            "--parts", str(parts), "--out", str(out), "--quiet"]
    assert nd_cli.main([*argv, "--kept-only"]) == 2 and "no kept results" in capsys.readouterr().err
    task = survey.SurveyTask(5, "random", 1, 3)
    survey.run_survey(InProcessExecutor(), [task], log=lambda msg: None, parts=parts)
    assert nd_cli.main([*argv, "--kept-only"]) == 0
    result = json.loads(out.read_text())
    assert result["planned_tasks"] == 2 and len(result["tasks"]) == 1
    assert result["per_board"]["5x5"]["games"] == 3
