"""The ``verify`` stage (pipeline/naked_diagonal/verify_stage.py) catches a wrong value and a missing
shard."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.executor import InProcessExecutor
from pipeline.naked_diagonal.context import Context
from pipeline.naked_diagonal.store import Store
from pipeline.naked_diagonal.verify_stage import VerifyError, VerifyStage
from unitile_py.errors import NakedDiagonalError


def test_verify_catches_a_wrong_value_and_a_missing_shard(solved: dict[int, Path], tmp_path: Path) -> None:
    shutil.copytree(solved[2] / "s.zarr", tmp_path / "s.zarr")
    store = Store(str(tmp_path / "s.zarr"), 2)
    ctx = Context(2, store, InProcessExecutor(), log=lambda msg: None)
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


def test_a_checksum_mismatch_is_one_line_and_exit_status_1(solved: dict[int, Path], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A flipped byte in a stored chunk: nd-verify names the array and exits 1 (a damaged store)."""
    from pipeline.naked_diagonal.cli import main

    shutil.copytree(solved[3] / "s.zarr", tmp_path / "s.zarr")
    shard = tmp_path / "s.zarr" / "tiers" / "5" / "value" / "c" / "0" / "0"
    data = bytearray(shard.read_bytes())
    data[20] ^= 0x55
    shard.write_bytes(bytes(data))
    argv = ["nd-verify", "--board", "3x3", "--in-process", "--quiet", "--store", str(tmp_path / "s.zarr")]
    assert main(argv) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "tiers/5/value" in err and "checksum" in err, err


def _edit_json(path: Path, edit: object) -> None:
    import json

    data = json.loads(path.read_text())
    edit(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))


def _widen(meta: dict[str, list[int]]) -> None:
    meta["shape"][1] += 7


@pytest.mark.parametrize("file, edit, status, words", [
    ("tiers/5/value/zarr.json", lambda d: _widen(d), 1, "8199), its tier's keys ("),
    ("tiers/5/value/zarr.json", "[1, 2]", 1, "tiers/5/value: its zarr.json cannot be read"),
    ("tiers/5/value/zarr.json", '{"zarr_format": 3, "node_type": "arr\n', 1, "cannot be read"),
    ("zarr.json", lambda d: d["attributes"]["stages"].update({"tier-05": "x"}), 2,
     "'tier-05' is not complete"),
])
def test_a_damaged_store_is_one_line(solved: dict[int, Path], tmp_path: Path, file: str, edit: object,
                                     status: int, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """An array's metadata that is not JSON or not an object, a shape changed, a stage record that is
    not an object: nd-verify says so in one line (1: the store is damaged; 2: a stage to run again)."""
    from pipeline.naked_diagonal.cli import main

    shutil.copytree(solved[3] / "s.zarr", tmp_path / "s.zarr")
    target = tmp_path / "s.zarr" / file
    if isinstance(edit, str):
        target.write_text(edit)
    else:
        _edit_json(target, edit)
    argv = ["nd-verify", "--board", "3x3", "--in-process", "--quiet", "--store", str(tmp_path / "s.zarr")]
    assert main(argv) == status
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err, err
