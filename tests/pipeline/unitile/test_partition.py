"""Plans of parts: whole chunks, every class once, no chunk written by two parts, key ranges in the
solve order; the halo bookkeeping of a partition against a direct computation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline.unitile import partition
from pipeline.unitile.cg import connect, local_parts
from pipeline.unitile.checkpoint import row_chunk
from pipeline.unitile.classes import class_keys
from pipeline.unitile.geometry import Geometry
from pipeline.unitile.partition import owners, plan_parts
from pipeline.unitile.solver import BLOCK
from pipeline.unitile.store import Store, solve_order
from tests.pipeline.unitile.conftest import B35


@pytest.mark.parametrize(
    ("split", "n", "parts"),
    [(6076, 13000, 2), (6076, 13000, 5), (4 * BLOCK, 9 * BLOCK, 3), (463108, 972132, 7), (10, 20, 4),
     (463108, 972132, 1)],
)
def test_plans_cover_every_class_once_in_whole_chunks(split: int, n: int, parts: int) -> None:
    plans = plan_parts(split, n, parts)
    assert 1 <= len(plans) <= parts
    owned = sorted(
        [(lo, hi, p.index) for p in plans for lo, hi in p.o_ranges]
        + [(lo, hi, p.index) for p in plans for lo, hi in p.e_ranges]
    )
    at = 0
    for lo, hi, _ in owned:
        assert lo == at and hi > lo
        at = hi
    assert at == n
    assert sum(p.own_o for p in plans) == split and sum(p.own_e for p in plans) == n - split
    chunk_owner: dict[int, int] = {}
    for lo, hi, w in owned:
        # Ranges start and end on chunk boundaries, except at split and n.
        assert lo % BLOCK == 0 or lo == split
        assert hi % BLOCK == 0 or hi in (split, n)
        for k in range(lo // BLOCK, (hi - 1) // BLOCK + 1):
            assert chunk_owner.setdefault(k, w) == w, f"chunk {k} has two parts"
    assert list(owners(plans)) == [chunk_owner[k] for k in range(len(chunk_owner))]
    # Nor a chunk of values/r and the checkpoints (wide when one part writes them all).
    width = row_chunk(len(plans), n)
    written: dict[int, int] = {}
    for lo, hi, w in owned:
        for k in range(lo // width, (hi - 1) // width + 1):
            assert written.setdefault(k, w) == w, f"row chunk {k} has two parts"
    assert width == BLOCK or len(plans) == 1
    # Every own O chunk but the one straddling split is full, so per-chunk sums line up with chunks.
    for p in plans:
        assert p.own_o == sum(min(BLOCK, split - k * BLOCK) for k in p.o_chunks)
        # Parts are balanced to a chunk in each half.
        assert abs(p.own_o - split / len(plans)) <= BLOCK + 1
        assert abs(p.own_e - (n - split) / len(plans)) <= 2 * BLOCK + 1


def test_parts_hold_key_ranges(clean35: Path) -> None:
    """In the solve order, part w's locality keys all come before part w + 1's, in each half (but for
    the E positions of the chunk that straddles split, which go with its O positions)."""
    store = Store(str(clean35), B35)
    order = solve_order(store)
    geo = Geometry.of(B35)
    rec = store.require("classes")
    keys = np.empty(order.n, dtype=np.int64)
    for o, first in enumerate(rec["starts"]):
        keys[first : first + rec["counts"][o]] = class_keys(geo, o, store.read(f"classes/ranks_{o}"))
    plans = plan_parts(order.split, order.n, 2)  # 3x5 has two chunks of O positions
    parts = len(plans)
    assert parts == 2
    for ranges in ([p.o_ranges for p in plans], [p.e_ranges for p in plans]):
        at = [np.concatenate([np.arange(lo, hi) for lo, hi in r]) for r in ranges]
        straddling = -(-order.split // BLOCK) * BLOCK
        held = [keys[order.to_class(a[(a < order.split) | (a >= straddling)])] for a in at]
        for w in range(parts - 1):
            assert held[w].max() <= held[w + 1].min()


def test_pushes_fill_the_readers_halos_from_one_buffer_per_vector_and_reader(
    clean35: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A vector's values for a reader go out of the same buffer at every push (a fresh array per push is
    what dask's actor calls keep alive until the garbage collector runs), in pieces (here of 300 values),
    and land in the reader's halo where its rows read them."""
    monkeypatch.setattr(partition, "PIECE", 300)
    store = Store(str(clean35), B35)
    order = solve_order(store)
    nbr, info = store.read("graph/nbr"), store.read("graph/info")
    group = local_parts(nbr, info, order.split, 3, order, connected=False)
    halo_ids = [part.e.halo for part in group.parts]
    connect(group)
    assert any(idx.shape[0] > 300 for part in group.parts for idx in part.send["O"].values())
    # The parts let go of their halos' ids once their owners know them.
    assert all(part.o.halo.shape == part.e.halo.shape == (0,) for part in group.parts)
    rng = np.random.default_rng(5)
    for step in range(2):
        for part in group.parts:
            part.ext["p"][: part.own_o] = rng.random(part.own_o)
        for part in group.parts:
            part.push("p")
        buffers = {key: id(buf) for part in group.parts for key, buf in part.outbox.items()}
        if step == 0:
            first = buffers
        assert buffers == first and buffers
        # Every part's p halo holds its owners' current values.
        for part in group.parts:
            for owner, at in part.recv["O"].items():
                ids = halo_ids[part.plan.index][at.start - part.own_o : at.stop - part.own_o]
                src = group.parts[owner]
                own, pos = src.o_index.local(ids)
                assert own.all()
                assert np.array_equal(part.ext["p"][at], src.ext["p"][pos])
    # x_E lives in t's storage (t is free between iterations); x keeps only its own values, its halo
    # values land in p's halo slots; pushes share those halos' buffers.
    assert all(part.ext["xe"] is part.ext["t"] for part in group.parts)
    assert all(part.ext["x"].shape == (part.own_o,) for part in group.parts)
    for part in group.parts:
        part.ext["x"][:] = rng.random(part.own_o)
    for name in ("x", "t", "xe"):
        for part in group.parts:
            part.push(name)
    assert {key[0] for part in group.parts for key in part.outbox} == {"p", "t"}
    # The push buffers are pieces of q's storage (free when they are filled), apart from each other,
    # as far as q has room (3x5 cut in three: not for all of them).
    lent = [[buf for buf in part.outbox.values() if np.shares_memory(buf, part.q)] for part in group.parts]
    assert any(lent)
    for part, bufs in zip(group.parts, lent, strict=True):
        assert part.lent == sum(buf.shape[0] for buf in bufs) <= part.own_o
    for part in group.parts:
        for owner, at in part.recv["O"].items():
            ids = halo_ids[part.plan.index][at.start - part.own_o : at.stop - part.own_o]
            src = group.parts[owner]
            assert np.array_equal(part.ext["p"][at], src.ext["x"][src.o_index.local(ids)[1]])


def test_a_push_buffer_is_its_own_array_where_q_has_no_room(clean35: Path) -> None:
    store = Store(str(clean35), B35)
    order = solve_order(store)
    group = local_parts(store.read("graph/nbr"), store.read("graph/info"), order.split, 2, order)
    a, b = group.parts
    a.lent = a.own_o - 1  # as if q were lent out already
    a.ext["p"][: a.own_o] = np.arange(a.own_o)
    a.push("p")
    (buf,) = a.outbox.values()
    assert not np.shares_memory(buf, a.q) and a.lent == a.own_o - 1
    at = b.recv["O"][0]
    assert np.array_equal(b.ext["p"][at], buf) and buf.shape[0] > 1


@pytest.mark.parametrize("parts", [2, 3])
def test_halo_is_what_the_rows_read_from_other_parts(clean35: Path, parts: int) -> None:
    store = Store(str(clean35), B35)
    nbr, info = store.read("graph/nbr"), store.read("graph/info")
    order = solve_order(store)
    group = local_parts(nbr, info, order.split, parts, order, connected=False)
    # The graph in solve positions: row k is class to_class(k), its neighbours' positions.
    nbr = order.to_solve(nbr[order.to_class(np.arange(order.n))])
    owner = owners([p.plan for p in group.parts])
    for part in group.parts:
        rows = np.concatenate([np.arange(lo, hi) for lo, hi in part.plan.o_ranges + part.plan.e_ranges])
        read = np.unique(nbr[rows][nbr[rows] >= 0])
        far = read[owner[read // BLOCK] != part.plan.index]
        assert sorted(part.o.halo.tolist() + part.e.halo.tolist()) == far.tolist()
        # Local neighbour indices point at the same global ids.
        for side, own_ranges in ((part.o, part.plan.e_ranges), (part.e, part.plan.o_ranges)):
            ids = np.concatenate([np.arange(lo, hi) for lo, hi in own_ranges] + [side.halo])
            got = np.where(side.nbr >= 0, ids[np.maximum(side.nbr, 0)], -1)
            side_rows = rows[: part.plan.own_o] if side is part.o else rows[part.plan.own_o :]
            assert np.array_equal(got, nbr[side_rows])


@pytest.mark.parametrize("ranges", [((5, 20),), ((0, 7), (9, 30)), ((3, 4), (10, 12), (20, 25))])
def test_local_positions_against_a_lookup_table(ranges: tuple[tuple[int, int], ...]) -> None:
    """A part's own ids map to their positions in its vector in range order, every other id (and -1,
    no slide) to not own: one run (a part owning a whole half, no search) as well as several."""
    from pipeline.unitile.partition import _Index

    table = {i: at for at, i in enumerate(i for lo, hi in ranges for i in range(lo, hi))}
    ids = np.random.default_rng(3).integers(-1, 35, size=(200, 4)).astype(np.int32)
    own, pos = _Index(ranges).local(ids)
    assert own.tolist() == [[int(i) in table for i in row] for row in ids]
    assert pos.tolist() == [[table.get(int(i), -1) for i in row] for row in ids]


def test_true_residual_without_keeping_it_gives_the_same_numbers() -> None:
    """The E rows' true residual is only measured (x_E fills t's storage, nothing is left to keep it
    in): an empty output gives the same maximum and bound as a full one."""
    from pipeline.unitile.classes import ACTIVE_BIT
    from pipeline.unitile.solver import residual_rows

    rng = np.random.default_rng(11)
    rows = 3 * BLOCK + 17
    nbr = rng.integers(-1, 500, size=(rows, 4)).astype(np.int32)
    info = (ACTIVE_BIT | rng.integers(1, 5, size=rows)).astype(np.uint8)
    info[::7] = 0
    x, other = rng.random(rows), rng.random(500)
    kept = np.full(rows, np.nan)
    empty = other[:0]
    measured = residual_rows(nbr, info, x, other, empty, np.zeros(0))
    assert measured == residual_rows(nbr, info, x, other, empty, kept)
    assert not np.isnan(kept).any()
    # The values the slides reach, in two arrays read as one, give the same bits.
    again = np.full(rows, np.nan)
    assert residual_rows(nbr, info, x, other[:123], other[123:], again) == measured
    assert np.array_equal(again, kept)


def test_the_start_residual_is_formed_in_place_as_the_whole_row_formula_gives_it() -> None:
    """``start_residual`` (no temporaries) gives the bits of ``1 + inv[info] * (slides to a class)`` on
    active rows, 0 elsewhere, as the part's whole-row formula did."""
    from pipeline.unitile.classes import ACTIVE_BIT
    from pipeline.unitile.solver import start_residual, tables

    rng = np.random.default_rng(12)
    rows = 2 * BLOCK + 5
    nbr = rng.integers(-1, 900, size=(rows, 4)).astype(np.int32)
    info = (rng.integers(0, 256, size=rows)).astype(np.uint8)
    inv, _ = tables()
    s = np.full(rows, np.nan)
    start_residual(nbr, info, inv, s)
    expected = np.where((info & ACTIVE_BIT) != 0, 1.0 + inv[info] * (nbr >= 0).sum(axis=1), 0.0)
    assert np.array_equal(s, expected) and (s > 1).any()
