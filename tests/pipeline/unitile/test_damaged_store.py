"""A store damaged or edited by hand (a stage record's field of the wrong kind, an array's ``zarr.json``
with another shape or not JSON): ``build``, ``verify`` and ``values`` say so in one line with exit status
1 (:class:`pipeline.errors.Damaged`, as Naked Diagonal's store does), never a traceback; ``build --force
STAGE`` writes the stage again. Found by damaging each kind of file of a finished 3x3 store."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.pipeline.test_bad_input_and_damage import cli, one_line
from tests.pipeline.unitile.conftest import rebuild
from unitile_py.unitile import Board, Position

START = str(Position.start(Board.get(3, 3)))


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def record(stage: str, key: str, value: object) -> Callable[[Path], None]:
    """Set a field of a stage record (``a.b``: of the object in field ``a``)."""

    def change(attrs: Any) -> None:
        where = attrs["attributes"]["stages"][stage]
        *path, last = key.split(".")
        for part in path:
            where = where[part]
        where[last] = value

    return lambda store: edit_json(store / "zarr.json", change)


def shape(name: str, value: list[int]) -> Callable[[Path], None]:
    return lambda store: edit_json(store / name / "zarr.json", lambda meta: meta.__setitem__("shape", value))


def write(name: str, text: str) -> Callable[[Path], None]:
    return lambda store: (store / name).write_text(text)


UNREADABLE = "array values/r: its metadata cannot be read"
CASES = {
    # name: (damage, what the line says, the commands that read it)
    "starts-not-numbers": (record("classes", "starts", "x"),
                           "the record of stage 'classes': starts is not a list of whole numbers", "bv"),
    "report-field-missing": (record("verify", "report", {}),
                             "the record of stage 'verify': report.red_united_only is not a number", "b"),
    "report-not-an-object": (record("verify", "report", "x"),
                             "the record of stage 'verify': report.red_united_only is not a number", "b"),
    "tables-directory-a-number": (record("tables", "directory", 5),
                                  "the record of stage 'tables': directory is not a text", "b"),
    "rank-to-local-reshaped": (shape("classes/rank_to_local", [3, 5]),
                               "array classes/rank_to_local has shape (3, 5), not (3, 70)", "bv"),
    "nbr-reshaped": (shape("graph/nbr", [89, 3]), "array graph/nbr has shape (89, 3), not (89, 4)", "b"),
    "legal-reshaped": (shape("moves/legal", [10]), "array moves/legal has shape (10,), not (630,)", "b"),
    "r-zarr-json-a-list": (write("values/r/zarr.json", "[]"), UNREADABLE, "bv"),
    "r-zarr-json-not-json": (write("values/r/zarr.json", "{"), UNREADABLE, "bv"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_a_damaged_store_is_one_line_and_exit_status_1(copy33: tuple[Path, Path], case: str) -> None:
    store, _ = copy33
    damage, says, commands = CASES[case]
    damage(store)
    runs = {"b": lambda: rebuild(store), "v": lambda: _values(store)}
    for command in commands:
        status, err = runs[command]()
        assert status == 1, (command, err)
        assert "Traceback" not in err
        assert says in one_line(err.splitlines(True)[-1].encode()), (command, err)


def _values(store: Path) -> tuple[int, str]:
    out = cli("values", START, "--store", str(store))
    return out.returncode, out.stderr.decode()


@pytest.mark.parametrize("value", ["slow", None, [1]])
def test_seconds_that_are_not_a_number_are_a_dash(copy33: tuple[Path, Path], value: object) -> None:
    """Not damage that matters (``report`` shows a dash too): it was a traceback (ValueError)."""
    store, _ = copy33
    record("classes", "seconds", value)(store)
    status, err = rebuild(store)
    assert status == 0, err
    assert "classes: done already (- s)" in err


def test_force_writes_a_damaged_record_again(copy33: tuple[Path, Path]) -> None:
    store, tables = copy33
    record("tables", "directory", 5)(store)
    status, err = rebuild(store, "--force", "tables", "--tables", str(tables))
    assert status == 0, err
    assert "tables-verify: OK" in err
    assert rebuild(store)[0] == 0
