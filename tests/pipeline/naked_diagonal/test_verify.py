"""The ``verify`` stage (pipeline/naked_diagonal/verify.py) catches a wrong value and a missing shard."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.executor import InProcessExecutor
from pipeline.naked_diagonal.context import NDContext
from pipeline.naked_diagonal.store import NDStore
from pipeline.naked_diagonal.verify import VerifyError, VerifyStage
from unitile_py.errors import NakedDiagonalError


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
