"""The fixture of the Naked Diagonal solve's tests: 2x2 and 3x3 solved once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pipeline.naked_diagonal.solving import build


@pytest.fixture(scope="session")
def solved(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """2x2 and 3x3 solved in process (parts of about 48 positions: up to 4 tasks per 3x3 tier)."""
    out = {}
    for n in (2, 3):
        root = tmp_path_factory.mktemp(f"nd{n}")
        build(n, root)
        out[n] = root
    return out
