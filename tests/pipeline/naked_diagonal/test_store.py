"""The store (pipeline/naked_diagonal/store.py) refuses directories it did not make, other boards and other
formats."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.naked_diagonal.store import Store
from pipeline.unitile.store import Store as UnitileStore
from unitile_py.errors import NakedDiagonalError, UnitileError
from unitile_py.unitile import Board


def test_the_store_refuses_other_directories(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("not a store")
    with pytest.raises(NakedDiagonalError, match="was not made by the Naked Diagonal solve"):
        Store(str(tmp_path), 3, create=True)
    Store(str(tmp_path / "new"), 3, create=True)
    with pytest.raises(NakedDiagonalError, match="holds board 3x3, not 4x4"):
        Store(str(tmp_path / "new"), 4)


@pytest.mark.parametrize("fmt", [True, 1.0, "1"])
def test_a_store_format_that_is_not_the_whole_number_is_refused(tmp_path: Path, fmt: object) -> None:
    """Issue 35: the store's format was compared with ``!=``, so ``"format": true`` and ``1.0`` passed as
    format 1 (table_io.is_format, as the tables' manifests since eaa30fd); both games' stores."""
    path = str(tmp_path / "nd")
    Store(path, 3, create=True).root.attrs["naked_diagonal"] = {"format": fmt, "board": "3x3"}
    with pytest.raises(NakedDiagonalError, match=r"format .*, expected 1$"):
        Store(path, 3)
    board = Board.get(3, 3)
    path = str(tmp_path / "unitile")
    unitile_fmt = 2.0 if fmt == 1.0 else fmt
    UnitileStore(path, board, create=True).root.attrs["unitile"] = {"format": unitile_fmt, "board": "3x3"}
    with pytest.raises(UnitileError, match=r"format .*, expected 2$"):
        UnitileStore(path, board)
