"""Issue 14, the pipeline's part: no traceback for any input (one line, exit status 2 for user errors and
1 for failed checks), nothing deleted that the pipeline did not write, corruption found and not served.

Most cases run through the real entry point, ``python -m pipeline``, on copies of a finished 3x3 build
(values, perfect play and tables). Read-only places are made with a read-only bind mount in a private
mount namespace (``unshare -m``) when the tests run as root, who may write anywhere else.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pipeline.arrays import missing_chunks, open_array, take
from pipeline.executor import DaskExecutor
from pipeline.unitile.compact import FrameRecords, encode, parse
from pipeline.unitile.geometry import Geometry
from pipeline.unitile.store import MARKER, Store
from pipeline.unitile.table_folder import write_tables
from tests.pipeline.processes import Cluster, Processes, installed_env, wait_for
from unitile_py.unitile import Board, Position

ROOT = Path(__file__).resolve().parents[2]
B33 = Board.get(3, 3)


def cli(*args: str, stdin: bytes | None = None, **kw: object) -> subprocess.CompletedProcess[bytes]:
    """``python -m pipeline ARGS`` from the repository, as bytes."""
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=300,
        **kw,
    )  # type: ignore[call-overload, no-any-return]


def build33(store: Path, tables: Path, *extra: str) -> list[str]:
    """The arguments of a quiet in-process 3x3 build into ``store`` with its tables in ``tables``."""
    return [
        "build",
        "--board",
        "3x3",
        "--store",
        str(store),
        "--tables",
        str(tables),
        *extra,
        "--in-process",
        "--quiet",
    ]


def one_line(err: bytes, start: str = "error: ") -> str:
    """The single line of an error output (no traceback), checked."""
    text = err.decode()
    assert text.startswith(start) and text.count("\n") == 1 and "Traceback" not in text, text
    return text


def verify(store: Path) -> subprocess.CompletedProcess[bytes]:
    return cli("verify", "--board", "3x3", "--store", str(store), "--in-process", "--quiet")


# Bad input: one line, status 2 ----------------------------------------------------------------------


@pytest.mark.parametrize("board", ["³x3", "3x³", "٣x3", "4x4", "0x3", "3x", "", "x".join(["9" * 5000] * 2)])
def test_bad_boards_are_one_line(board: str) -> None:
    out = cli("build", "--board", board, "--in-process", "--quiet")
    assert out.returncode == 2
    assert len(one_line(out.stderr)) < 300  # what is quoted is cut short by the board parser


def test_values_reads_binary_stdin_under_strict_utf8(built33: tuple[Path, Path]) -> None:
    start = str(Position.start(B33)).encode()
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    long = b"x" * (2 << 20) + b"\n"  # a line over the 1 MiB bound is one error, not kept in memory
    stdin = b"\xff\n" + start + b"\n\xc3(\n" + long + b"nonsense\n"
    out = cli("values", "-", "--store", str(built33[0]), stdin=stdin, env=env)
    lines = out.stdout.decode().splitlines()
    assert out.returncode == 2 and out.stderr == b""
    assert lines[0].startswith("error: line 1: not UTF-8") and lines[2].startswith("error: line 3: not UTF-8")
    assert lines[3] == "error: line 4: too long (more than 1,048,576 bytes)"
    assert lines[4].startswith("error: line 5: ") and lines[1].startswith("r ") and len(lines) == 5


def test_values_into_a_closed_pipe_stops_quietly(built33: tuple[Path, Path], tmp_path: Path) -> None:
    """``| head -1``: the reader goes away after one line; more than a pipe's buffer was still to come."""
    lines = tmp_path / "positions.txt"
    lines.write_text((str(Position.start(B33)) + "\n") * 20000)
    with open(lines, "rb") as stdin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pipeline", "values", "-", "--store", str(built33[0])], cwd=ROOT,
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().startswith(b"r ")
        proc.stdout.close()
        assert proc.wait(timeout=120) == 0
        assert proc.stderr.read() == b""
    finally:
        proc.kill()
        proc.wait()


def test_values_into_a_full_disk_is_one_line(built33: tuple[Path, Path]) -> None:
    with open("/dev/full", "wb") as full:
        cmd = [
            sys.executable,
            "-m",
            "pipeline",
            "values",
            str(Position.start(B33)),
            "--store",
            str(built33[0]),
        ]
        out = subprocess.run(cmd, cwd=ROOT, stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert out.returncode == 2
    assert "No space left on device" in one_line(out.stderr, "error: cannot write the output")


def test_store_that_is_a_file_or_under_a_file(tmp_path: Path) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    for store, says in (
        (afile, "is a file, not a store directory"),
        (afile / "x.zarr", f"{afile} is a file"),
    ):
        out = cli("build", "--board", "3x3", "--store", str(store), "--in-process", "--quiet")
        assert out.returncode == 2 and says in one_line(out.stderr)
    assert afile.read_text() == "mine"


def test_a_scheduler_that_is_not_host_and_port() -> None:
    out = cli(
        "build", "--board", "3x3", "--store", "/nonexistent/s.zarr", "--scheduler", "notahost", "--quiet"
    )
    assert out.returncode == 2 and "scheduler notahost: give HOST:PORT" in one_line(out.stderr)


# Read-only places ---------------------------------------------------------------------------------


def read_only(paths: list[Path], cmd: list[str]) -> list[str]:
    """``cmd`` run with ``paths`` read-only: chmod for a normal user; for root (who writes through
    permissions) a read-only bind mount in a private mount namespace. Skips where neither works."""
    if os.geteuid() != 0:
        pytest.skip("needs a read-only bind mount (run as root) or a chmod-based variant")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"unshare -m is not allowed here: {probe.stderr.decode().strip()}")
    mounts = "".join(f'mount --bind "{p}" "{p}" && mount -o remount,bind,ro "{p}" && ' for p in paths)
    return ["unshare", "-m", "sh", "-c", mounts + 'exec "$@"', "sh", *cmd]


def test_read_only_store_and_tables_folder(copy33: tuple[Path, Path], tmp_path: Path) -> None:
    store, tables = copy33
    py = [sys.executable, "-m", "pipeline"]
    # A complete store needs no writing to be read or built: both work read-only.
    lookup = subprocess.run(
        read_only([store], [*py, "values", str(Position.start(B33)), "--store", str(store)]),
        cwd=ROOT, capture_output=True, timeout=120,
    )  # fmt: skip
    assert lookup.returncode == 0 and lookup.stdout.startswith(b"r "), lookup.stderr
    for args, where in (
        (["build", "--force", "verify"], store),
        (["verify"], store),
        (["build", "--force", "tables", "--tables", str(tables)], tables),
    ):
        cmd = [*py, *args[:1], "--board", "3x3", "--store", str(store), *args[1:], "--in-process", "--quiet"]
        out = subprocess.run(read_only([where], cmd), cwd=ROOT, capture_output=True, timeout=120)
        assert out.returncode == 2, out.stderr
        assert "Read-only file system" in one_line(out.stderr) and str(where) in out.stderr.decode()
    assert Store(str(store), B33).done("tables-verify"), "nothing was cleared"


# Nothing lost ---------------------------------------------------------------------------------------


def test_a_directory_the_pipeline_did_not_make_is_refused(tmp_path: Path) -> None:
    store = tmp_path / "mine"
    (store / "positions" / "T").mkdir(parents=True)
    (store / "positions" / "T" / "keep.txt").write_text("keep")
    for command in ("build", "verify"):
        out = cli(command, "--board", "3x3", "--store", str(store), "--in-process", "--quiet")
        assert out.returncode == 2 and "was not made by the pipeline" in one_line(out.stderr)
    assert (store / "positions" / "T" / "keep.txt").read_text() == "keep"
    assert sorted(p.name for p in store.iterdir()) == ["positions"]
    empty = tmp_path / "empty"
    empty.mkdir()
    out = cli(*build33(empty, tmp_path / "t"))
    assert out.returncode == 0, out.stderr
    assert (empty / MARKER).exists()


def test_force_tables_removes_only_what_the_previous_manifest_listed(copy33: tuple[Path, Path]) -> None:
    store, tables = copy33
    before = {p.name: p.read_bytes() for p in tables.iterdir()}
    manifest = json.loads(before["manifest.json"])
    manifest["files"]["z9.bin"] = {"bytes": 1, "sha256": "0"}  # a file of an earlier format, say
    (tables / "manifest.json").write_text(json.dumps(manifest))
    (tables / "z9.bin").write_bytes(b"old")
    (tables / "notes.bin").write_bytes(b"a user's notes")
    (tables / "sub").mkdir()
    (tables / "sub" / "other.bin").write_bytes(b"another board's")
    out = cli(*build33(store, tables, "--force", "tables"))
    assert out.returncode == 0, out.stderr
    after = {p.name: p.read_bytes() for p in tables.iterdir() if p.is_file()}
    assert after == {**before, "notes.bin": b"a user's notes"}
    assert (tables / "sub" / "other.bin").read_bytes() == b"another board's"
    assert not [p for p in tables.parent.iterdir() if ".partial-" in p.name]


def test_tables_of_another_board_or_unlisted_files_are_not_overwritten(
    copy33: tuple[Path, Path], tmp_path: Path
) -> None:
    store, _ = copy33
    other = tmp_path / "t35"
    shutil.copytree(ROOT / "tables" / "3x5", other)
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "b3.bin").write_bytes(b"not the pipeline's")
    for folder, says in ((other, "holds the tables of board 3x5"), (theirs, "b3.bin exist(s)")):
        snapshot = {p.name: p.read_bytes() for p in folder.iterdir()}
        out = cli(*build33(store, folder, "--force", "tables"))
        assert out.returncode == 2 and says in one_line(out.stderr)
        assert {p.name: p.read_bytes() for p in folder.iterdir()} == snapshot
    assert Store(str(store), B33).done("tables-verify"), "refused before any stage ran"


KILLED_WRITE = """
import sys
from pathlib import Path
from pipeline.unitile.table_folder import write_tables
from unitile_py.unitile import Board
files = {name: b"new " + name.encode() for name in ("a3.bin", "b2.bin", "b3.bin")}
files["manifest.json"] = b'{"board": "3x3", "files": {"a3.bin": {}, "b2.bin": {}, "b3.bin": {}}}'
def wait():
    print("ready", flush=True)
    sys.stdin.read()
write_tables(Path(sys.argv[1]), Board.get(3, 3), files, before_swap=wait)
"""


def test_a_killed_table_write_leaves_the_old_folder(copy33: tuple[Path, Path]) -> None:
    """SIGKILL just before the folders are exchanged: the folder is the old one, whole; the next write
    removes the leftover and puts in the new set, whole."""
    _, tables = copy33
    before = {p.name: p.read_bytes() for p in tables.iterdir()}
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITE, str(tables)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert {p.name: p.read_bytes() for p in tables.iterdir()} == before
    assert [p for p in tables.parent.iterdir() if ".partial-" in p.name], "the killed write left its folder"
    files = {name: b"new" for name in ("a3.bin", "b2.bin", "b3.bin")}
    files["manifest.json"] = json.dumps({"board": "3x3", "files": {k: {} for k in files}}).encode()
    write_tables(tables, B33, files)
    assert {p.name: p.read_bytes() for p in tables.iterdir()} == files
    assert not [p for p in tables.parent.iterdir() if ".partial-" in p.name]


# Corruption found, not served -----------------------------------------------------------------------


def r_zero_position(orbit: int) -> Position:
    """A 3x3 position with red united (r = 0) and the bubble on a cell of the given orbit."""
    geo = Geometry.of(B33)
    for i in range(B33.positions):
        p = Position.from_index(B33, i)
        if p.united("r") and geo.cell_orbit[p.bubble] == orbit:
            return p
    raise AssertionError("none")


def chunk_file(store: Path, name: str, k: int) -> Path:
    """The file of the ``k``-th stored object of an array (first axis)."""
    arr = Store(str(store), B33).array(name)
    return store / arr.object_key(k).removeprefix(str(store)).lstrip("/")


@pytest.mark.parametrize("shards", [None, (8,)])
def test_a_chunk_equal_to_the_fill_value_written_by_a_task_is_stored(tmp_path: Path, shards: object) -> None:
    """Tasks write through their own opening of an array, whose runtime config zarr does not keep: a chunk
    of zeros written so was once left out, and read back as missing (a 3x9 solve whose last 2,004 E
    classes all have r = 0 failed on it)."""
    store = Store(str(tmp_path / "s.zarr"), B33, create=True)
    store.create("x", (12,), shards, np.float64, chunks=(4,), compress=False)  # type: ignore[arg-type]
    arr = open_array(store.path, "x", mode="r+")
    arr[0:8] = np.arange(8.0)
    arr[8:12] = 0.0
    assert missing_chunks(open_array(store.path, "x")) == []
    assert open_array(store.path, "x")[...].tolist() == [*range(8), 0, 0, 0, 0]


@pytest.mark.parametrize("span", [4, 12, 1 << 20])
def test_take_reads_the_entries_at_any_index(
    tmp_path: Path, span: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """take: any order, repeats, runs of consecutive chunks cut at TAKE_SPAN entries, gaps skipped."""
    monkeypatch.setattr("pipeline.arrays.TAKE_SPAN", span)
    store = Store(str(tmp_path / "s.zarr"), B33, create=True)
    values = np.random.default_rng(5).random(50)
    store.create("x", (50,), None, np.float64, chunks=(4,), compress=False)[...] = values
    index = np.array([49, 0, 3, 3, 17, 16, 48, 20, 21, 22, 23, 24, 25, 26, 27, 28, 35])
    assert np.array_equal(take(open_array(store.path, "x"), index), values[index])
    assert take(open_array(store.path, "x"), np.zeros(0, dtype=np.int64)).shape == (0,)
    with pytest.raises(IndexError):
        take(open_array(store.path, "x"), np.array([50]))


def test_a_deleted_class_row_is_found_by_verify_and_values(copy33: tuple[Path, Path]) -> None:
    """Today's repro: without the row, ``values`` printed r = 221.9 for a position whose r is 0."""
    store, _ = copy33
    p = r_zero_position(1)
    good = cli("values", str(p), "--store", str(store), "--json")
    assert json.loads(good.stdout)["r"] == 0.0
    chunk_file(store, "classes/rank_to_local", 1).unlink()
    for out in (verify(store), cli("values", str(p), "--store", str(store))):
        assert out.returncode == 1 and out.stdout == b""
        assert "array classes/rank_to_local, entries 1..1: the chunk is missing" in one_line(out.stderr)


@pytest.mark.parametrize(
    "name", ["values/T_class", "graph/nbr", "values/r", "positions/T", "classes/ranks_0"]
)
def test_a_flipped_byte_is_found_and_named(copy33: tuple[Path, Path], name: str) -> None:
    store, _ = copy33
    path = chunk_file(store, name, 0)
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0x10
    path.write_bytes(bytes(data))
    out = verify(store)
    assert out.returncode == 1
    line = one_line(out.stderr)
    assert f"array {name}, entries 0.." in line and "crc32c checksum" in line
    if name == "values/r":
        got = cli("values", str(Position.start(B33)), "--store", str(store))
        assert got.returncode == 1 and "array values/r" in one_line(got.stderr)


def test_a_deleted_legal_shard_is_named(copy33: tuple[Path, Path]) -> None:
    store, _ = copy33
    chunk_file(store, "moves/legal", 4).unlink()
    out = verify(store)
    assert out.returncode == 1
    assert "moves/legal" in one_line(out.stderr) and "missing" in out.stderr.decode()


def test_a_changed_stored_best_mask_fails_verify_with_1(copy33: tuple[Path, Path]) -> None:
    """The stored best slides are compared with those the pass over every position derives."""
    store, _ = copy33
    best = Store(str(store), B33).array("perfect/best")
    c = B33.colourings
    best[0:c] = best[0:c] ^ 1
    out = verify(store)
    assert out.returncode == 1
    last = out.stderr.decode().splitlines()[-1]
    assert last.startswith("error: verify failed") and "stored best slides differ" in last, last


def test_a_changed_table_file_fails_tables_verify_with_1(copy33: tuple[Path, Path]) -> None:
    """A record changed in a well-formed file: the decoder finds the positions, the reader the digest."""
    store, tables = copy33
    path = tables / "b2.bin"
    kind, cell, symbols, records = parse(path.read_bytes())
    records = records.copy()
    records[0] = (records[0] + 1) % len(symbols)
    path.write_bytes(encode(FrameRecords(cell, kind, records, symbols)))
    out = verify(store)
    assert out.returncode == 1
    last = out.stderr.decode().splitlines()[-1]
    assert last.startswith("error: tables-verify failed: the game's reader refuses the files"), last
    assert "legal wrong 0, best wrong 0" not in out.stderr.decode()
    path.write_bytes(b"UTBL garbage")
    out = verify(store)
    assert out.returncode == 1 and "b2.bin cannot be read or decoded" in out.stderr.decode().splitlines()[-1]


def test_a_store_made_before_the_checksums_is_refused(copy33: tuple[Path, Path]) -> None:
    store, _ = copy33
    (store / MARKER).unlink()
    out = verify(store)
    assert out.returncode == 2 and "made by an older pipeline" in one_line(out.stderr)


# The scheduler goes away ----------------------------------------------------------------------------


@pytest.mark.cluster
def test_a_client_of_a_scheduler_logs_nothing_of_its_connection(tmp_path: Path) -> None:
    """When its scheduler dies, a client's batched stream logs "Batched Comm Closed" with a traceback
    at INFO: once that came out before the one-line error of the test below. The build's client
    silences dask's loggers in its process (errors reach it through the futures)."""
    procs = Processes(tmp_path)
    try:
        cluster = Cluster(procs, tmp_path)
        cluster.client.close()
        executor = DaskExecutor(scheduler=cluster.address.removeprefix("tcp://"))
        try:
            for name in ("distributed.batched", "distributed.comm.tcp", "distributed.core",
                         "distributed.client"):
                assert not logging.getLogger(name).isEnabledFor(logging.ERROR), name
        finally:
            executor.close()
    finally:
        procs.stop_all()


@pytest.mark.cluster
def test_a_dead_scheduler_is_reported_as_gone(tmp_path: Path) -> None:
    procs = Processes(tmp_path)
    try:
        cluster = Cluster(procs, tmp_path)
        cluster.start_worker("w1")
        cluster.wait_workers(1)
        cluster.client.close()
        store = tmp_path / "3x5.zarr"
        build = subprocess.Popen(
            [sys.executable, "-m", "pipeline", "build", "--board", "3x5", "--store", str(store), "--quiet",
             "--scheduler", cluster.address.removeprefix("tcp://")],
            cwd=tmp_path, env=installed_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True,
        )  # fmt: skip
        procs.started.append(build)  # type: ignore[arg-type]
        wait_for(lambda: (store / "classes").exists() or build.poll() is not None, "the first stage")
        Processes.kill(procs.started[0])  # the scheduler
        _out, err = build.communicate(timeout=120)
    finally:
        procs.stop_all()
    assert build.returncode == 2
    assert f"scheduler {cluster.address.removeprefix('tcp://')} is gone" in one_line(err)


def test_a_round_too_long_for_the_search_is_refused_before_the_store_is_made(tmp_path: Path) -> None:
    """Found by a hostile user (issue 51): ``nd-prove --round-nodes 99999999999999999999999`` created the
    store and then crashed in numba (``--budget`` refused the same number). It is refused as --budget
    is, in one line, and no store is made."""
    store = tmp_path / "s.zarr"
    done = cli("nd-prove", "--board", "3x3", "--store", str(store), "--round-nodes", "9" * 23)
    err = done.stderr.decode().strip()
    assert done.returncode == 2 and err.count("\n") == 0 and "--round-nodes" in err, err
    assert not store.exists()
