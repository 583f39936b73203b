"""Perfect play in tiers of T by parts (pipeline.unitile.perfect_parts), without dask: parts held in this
process, driven round by round or each running the band loop in a thread of its own and reaching the
others directly (as actors reach each other on a cluster). Whatever the parts, blocks and bands, the values
and counts are those of the one-pass reference (pipeline.unitile.perfect.class_values) on 3x5."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pipeline.arrays import open_array, take
from pipeline.groups import LocalGroup
from pipeline.unitile import peers, perfect_parts
from pipeline.unitile.perfect import SLIDES, TIES, class_values
from pipeline.unitile.perfect_parts import (
    FAR,
    PerfectPart,
    _halo_ranks,
    _place,
    _positions,
    _reached_of,
    _sort_order,
    band_edges,
    drive_bands,
    local_of,
    own_ranges,
    owner_of,
    run_bands,
)
from pipeline.unitile.store import Store
from tests.pipeline.unitile.conftest import B35, run_in_threads


def reference(clean35: Path) -> tuple[np.ndarray, np.ndarray]:
    store = Store(str(clean35), B35)
    res = class_values(*(store.read(n) for n in ("graph/nbr", "graph/info", "graph/swap", "values/T_class")))
    return res.value, res.counts


def make_parts(clean35: Path, parts: int, block: int, bands: int) -> tuple[LocalGroup, int]:
    path = str(clean35)
    n = open_array(path, "graph/info").shape[0]
    group = LocalGroup([PerfectPart(path, w, parts, n, block) for w in range(parts)])
    group.call("set_peers", [(group.handles,)] * parts)
    group.call("ask")
    ranges = group.call("t_range")
    low, high = min(a for a, _ in ranges), max(b for _, b in ranges)
    histogram = np.sum(group.call("histogram", [(low, high)] * parts), axis=0)
    edges = band_edges(histogram, low, high, bands)
    group.call("set_bands", [(edges,)] * parts)
    return group, edges.shape[0] - 1


def values_of(group: LocalGroup, n: int, block: int) -> np.ndarray:
    out = np.zeros(n, dtype=np.int16)
    for part in group.parts:
        at = 0
        for lo, hi in own_ranges(n, group.size, part.index, block):
            out[lo:hi] = part.value[at : at + hi - lo]
            at += hi - lo
    return out


def test_a_parts_t_range_histogram_and_bands_read_its_t_in_pieces_as_one_sorted_array(
    clean35: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The part keeps its own T unsorted and reads it through its order a piece at a time: the range,
    histogram and band starts are those of one sorted copy of the active classes' T."""
    monkeypatch.setattr(perfect_parts, "LOAD_ROWS", 1000)
    path = str(clean35)
    n = open_array(path, "graph/info").shape[0]
    part = PerfectPart(path, 1, 2, n, 512)
    active = np.flatnonzero(part.active)
    assert np.array_equal(part.order, active[np.argsort(part.t[active], kind="stable")])
    sorted_t = part.t[part.order]
    assert part.order.shape[0] > 3 * 1000
    low, high = part.t_range()
    assert (low, high) == (sorted_t[0], sorted_t[-1])
    assert np.array_equal(part.histogram(low, high), np.histogram(sorted_t, bins=perfect_parts.BINS,
                                                                  range=(low, high))[0])  # fmt: skip
    edges = band_edges(part.histogram(low, high), low, high, 16)
    part.set_bands(edges)
    expect = np.searchsorted(sorted_t, edges, side="left")
    expect[-1] = sorted_t.shape[0]
    assert np.array_equal(part.starts, expect) and part.t.shape == (0,)


CASES = [(1, 1 << 18, 1), (1, 1 << 18, 64), (2, 512, 1), (2, 512, 16), (3, 512, 64), (5, 1024, 256)]


@pytest.mark.parametrize(("parts", "block", "bands"), CASES)
def test_parts_driven_round_by_round_give_the_reference_values(
    clean35: Path, parts: int, block: int, bands: int
) -> None:
    value, counts = reference(clean35)
    group, used = make_parts(clean35, parts, block, bands)
    assert group.size == parts and 1 <= used <= bands
    drive_bands(group, used)
    assert np.array_equal(values_of(group, value.shape[0], block), value)
    assert sum(int(p.counts[SLIDES]) for p in group.parts) == counts[SLIDES]
    assert sum(int(p.counts[TIES]) for p in group.parts) == counts[TIES] == 0
    if parts > 1:
        # Other parts' classes were read through the halo, and a band took more than one round.
        assert all(p.halo_size for p in group.parts)
        assert group.parts[0].rounds > used


def test_parts_running_the_bands_themselves_give_the_reference_values(clean35: Path) -> None:
    value, _ = reference(clean35)
    group, bands = make_parts(clean35, 3, 512, 32)
    run_in_threads(group.parts, lambda part: run_bands(part, bands))
    assert len({p.rounds for p in group.parts}) == 1
    assert np.array_equal(values_of(group, value.shape[0], 512), value)


def test_a_part_waiting_for_a_lost_peer_gives_up(clean35: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(peers, "PEER_TIMEOUT", 0.2)
    group, _ = make_parts(clean35, 2, 512, 8)
    part = group.parts[0]
    part.open_band(0)
    part.sweep()  # the other part never sweeps: its message of the round never comes
    with pytest.raises(RuntimeError, match="part 0: waiting for the values of round 1: no news"):
        part.absorb()


def test_blocks_are_dealt_to_parts_in_turn() -> None:
    ids = np.arange(10_000)
    parts, block = 3, 256
    owner = owner_of(ids, parts, block)
    local = local_of(ids, parts, block)
    for w in range(parts):
        ranges = own_ranges(10_000, parts, w, block)
        own = np.concatenate([np.arange(lo, hi) for lo, hi in ranges])
        assert np.array_equal(np.flatnonzero(owner == w), own)
        assert np.array_equal(local[own], np.arange(own.shape[0]))


def test_band_edges_cut_the_histogram_into_about_equal_bands() -> None:
    rng = np.random.default_rng(5)
    t = rng.gamma(3.0, 100.0, 200_000) + 150.0
    low, high = float(t.min()), float(t.max())
    histogram = np.histogram(t, bins=4096, range=(low, high))[0]
    edges = band_edges(histogram, low, high, 16)
    assert edges[0] == -np.inf and edges[-1] == np.inf and np.all(np.diff(edges) > 0)
    sizes = np.histogram(t, bins=edges)[0]
    assert sizes.sum() == t.shape[0] and edges.shape[0] == 17
    assert sizes.max() < 1.2 * t.shape[0] / 16 and sizes.min() > 0.8 * t.shape[0] / 16
    # One value repeated: a single band.
    assert band_edges(np.array([0, 7, 0]), 1.0, 1.0, 8).tolist() == [-np.inf, np.inf]


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
@pytest.mark.parametrize("count", [1200, 20_000])  # by chunk; the whole array read (3x5 has 13,000 classes)
def test_take_reads_the_entries_at_any_index(clean35: Path, dtype: Any, count: int) -> None:
    arr = open_array(str(clean35), "values/T_class")
    whole = arr[:]
    rng = np.random.default_rng(11)
    index = rng.integers(0, whole.shape[0], (count // 4, 4)).astype(dtype)
    assert np.array_equal(take(arr, index), whole[index])
    assert take(arr, np.zeros(0, dtype=np.int64)).shape == (0,)
    with pytest.raises(IndexError, match="out of range"):
        take(arr, np.array([whole.shape[0]]))


def test_classes_are_swept_in_increasing_t_ties_in_id_order() -> None:
    rng = np.random.default_rng(3)
    t = rng.gamma(2.0, 100.0, 50_000) + 150.0
    t[::7] = t[3]
    for dtype in (np.int64, np.int32):
        order = np.arange(t.shape[0], dtype=dtype)
        _sort_order(t.view(np.uint64), order, np.empty_like(order))
        assert np.array_equal(order, np.argsort(t, kind="stable"))
    # Some of the entries (a part's active classes), sorted where they are by their keys.
    mask = rng.random(t.shape[0]) < 0.6
    some = np.empty(int(mask.sum()), dtype=np.int32)
    _positions(mask, some)
    assert np.array_equal(some, np.flatnonzero(mask))
    expect = some[np.argsort(t[some], kind="stable")]
    _sort_order(t.view(np.uint64), some, np.empty_like(some))
    assert np.array_equal(some, expect)


@pytest.mark.parametrize(("parts", "block"), [(1, 512), (2, 512), (3, 1024), (5, 512)])
def test_the_classes_reached_become_the_halo_owner_by_owner(parts: int, block: int) -> None:
    """The classes of other parts that a part's slides reach are bits of one bitmap while it loads; the
    halo lists them owner by owner, by id within an owner (a set of keys ``owner * n + id``, sorted), and
    a slide's code ``FAR - id`` becomes the own classes' count plus the class's place in the halo."""
    rng = np.random.default_rng(17)
    n = 9_000 + block // 2 + 5  # a last block that is short, and a last word too
    ids = np.unique(rng.integers(0, n, 2_500))
    ids = np.concatenate([ids, [n - 1]]) if ids[-1] != n - 1 else ids
    reached = np.zeros(-(-n // 64), dtype=np.uint64)
    np.bitwise_or.at(reached, ids >> 6, np.uint64(1) << (ids & 63).astype(np.uint64))
    before, cuts = _halo_ranks(reached, parts, block)
    keys = np.sort(owner_of(ids, parts, block) * n + ids)
    assert cuts.tolist() == np.searchsorted(keys, np.arange(parts + 1) * n).tolist()
    for q in range(parts):
        out = np.empty(int(cuts[q + 1] - cuts[q]), dtype=np.int32)
        _reached_of(reached, q, parts, block, out)
        assert np.array_equal(out, local_of(keys[cuts[q] : cuts[q + 1]] % n, parts, block))
    wanted = rng.choice(ids, (300, 4))
    code = (FAR - wanted).astype(np.int32)
    code[::3, 1] = 7  # an own index stays
    _place(code, reached, before, 1_000)
    expect = 1_000 + np.searchsorted(keys, owner_of(wanted, parts, block) * n + wanted)
    expect[::3, 1] = 7
    assert np.array_equal(code, expect)


def test_a_block_is_whole_runs_of_the_bitmaps_words(clean35: Path) -> None:
    n = open_array(str(clean35), "graph/info").shape[0]
    with pytest.raises(ValueError, match="blocks of 256 class ids; a block must be a multiple of 512"):
        PerfectPart(str(clean35), 0, 2, n, 256)


def test_a_part_loaded_a_few_blocks_at_a_time_is_the_same(clean35: Path, monkeypatch: Any) -> None:
    value, counts = reference(clean35)
    monkeypatch.setattr(perfect_parts, "LOAD_ROWS", 1400)  # groups of two blocks of 512 ids, or one
    group, bands = make_parts(clean35, 2, 512, 16)
    drive_bands(group, bands)
    assert np.array_equal(values_of(group, value.shape[0], 512), value)
    assert sum(int(p.counts[SLIDES]) for p in group.parts) == counts[SLIDES]
