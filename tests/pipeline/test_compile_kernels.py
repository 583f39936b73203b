"""``python -m pipeline compile-kernels``: every game's kernels compiled into numba's cache by a small real
run in a scratch folder that it removes (the suite starts it in the background: tests/conftest.py)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from numba.core.registry import CPUDispatcher

from pipeline.cli import main
from pipeline.naked_diagonal import kernels
from pipeline.unitile import verify
from tests.conftest import AHEAD, first_kernel_test


def test_every_games_kernels_are_compiled_and_cached_and_no_scratch_is_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert main(["compile-kernels"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0] for line in lines] == ["Unitile", "Naked Diagonal"], lines
    assert all(": kernels ready in " in line for line in lines)
    assert list(tmp_path.iterdir()) == []
    kernel: CPUDispatcher
    for kernel in (kernels.fillable, verify.random_walks):
        assert kernel.signatures, f"{kernel.__name__}: not compiled by the run"
        index = Path(kernel.stats.cache_path).glob(f"*.{kernel.__name__}-*.nbi")
        assert list(index), f"{kernel.__name__}: not in the cache"


def test_one_game_only_and_quiet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert main(["compile-kernels", "--game", "nd"]) == 0
    assert capsys.readouterr().out.startswith("Naked Diagonal: kernels ready in ")
    assert main(["compile-kernels", "--game", "unitile", "--quiet"]) == 0
    assert capsys.readouterr().out == ""
    assert list(tmp_path.iterdir()) == []


def test_the_background_compile_starts_only_with_tests_to_run_beside_it(pytestconfig: pytest.Config) -> None:
    """The suite's hook finds the first test that may call a kernel; under :data:`AHEAD` tests before
    it, it starts nothing."""

    class Item:
        def __init__(self, path: Path) -> None:
            self.fspath = path

    root = Path(__file__).resolve().parents[2]
    game, pipeline = root / "tests" / "game" / "test_x.py", root / "tests" / "pipeline" / "test_y.py"
    doctest = root / "pipeline" / "cli.py"
    assert first_kernel_test([Item(game)] * 3 + [Item(pipeline)]) == 3  # type: ignore[list-item]
    assert first_kernel_test([Item(game), Item(doctest)]) == 1  # type: ignore[list-item]
    assert first_kernel_test([Item(game)]) is None  # type: ignore[list-item]
    assert AHEAD > 3
