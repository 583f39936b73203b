"""The store (pipeline/naked_diagonal/store.py) refuses directories it did not make and other boards."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.naked_diagonal.store import NDStore
from unitile_py.errors import NakedDiagonalError


def test_the_store_refuses_other_directories(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("not a store")
    with pytest.raises(NakedDiagonalError, match="was not made by the Naked Diagonal solve"):
        NDStore(str(tmp_path), 3, create=True)
    NDStore(str(tmp_path / "new"), 3, create=True)
    with pytest.raises(NakedDiagonalError, match="holds board 3x3, not 4x4"):
        NDStore(str(tmp_path / "new"), 4)
