"""Plans of parts: whole chunks, every class once, no chunk written by two parts."""

from __future__ import annotations

import pytest

from pipeline.partition import plan_parts
from pipeline.solver import BLOCK


@pytest.mark.parametrize(
    ("split", "n", "parts"),
    [(6076, 13000, 2), (6076, 13000, 5), (4 * BLOCK, 9 * BLOCK, 3), (463108, 972132, 7), (10, 20, 4)],
)
def test_plans_cover_every_class_once_in_whole_chunks(split: int, n: int, parts: int) -> None:
    plans = plan_parts(split, n, parts)
    assert 1 <= len(plans) <= parts
    owned = sorted([(p.o_lo, p.o_hi, p.index) for p in plans] + [(p.e_lo, p.e_hi, p.index) for p in plans])
    at = 0
    for lo, hi, _ in owned:
        assert lo == at and hi >= lo
        at = hi
    assert at == n
    chunk_owner: dict[int, int] = {}
    for lo, hi, w in owned:
        if hi > lo:
            # Ranges start and end on chunk boundaries, except at split and n.
            assert lo % BLOCK == 0 or lo == split
            assert hi % BLOCK == 0 or hi in (split, n)
            for k in range(lo // BLOCK, (hi - 1) // BLOCK + 1):
                assert chunk_owner.setdefault(k, w) == w, f"chunk {k} has two parts"
    # O ranges are in part order (the driver adds partial sums in part order).
    assert [p.o_lo for p in plans] == sorted(p.o_lo for p in plans)
