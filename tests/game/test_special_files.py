"""The table readers look before they read (unitile_py.table_io): a FIFO, a link to /dev/zero or a huge
sparse file in place of a table file or a manifest is one line naming it (or, for the quick look of
``manifest_kind``, no kind), never a hang, never a MemoryError; a zlib block inflates at most to its size.

Every command runs in a child process with a timeout (a hang fails the test instead of stalling it) and
an address-space limit (an allocation of the whole file fails there, as it would on a small machine).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tracemalloc
import zlib
from pathlib import Path

import pytest

from unitile_py.errors import GameError
from unitile_py.table_io import inflate, read_bytes

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "tables"
#: Bytes of address space a child may use: far less than the sparse files below.
MEMORY = 3 * 1024**3
#: The size of the sparse files: more than the child may allocate.
HUGE = 8 * 1024**3
TIMEOUT = 60
EMPTY5 = "...../...../...../...../..... r"


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(args: list[str], tables: Path) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with ``$UNITILE_TABLES`` at ``tables``, bounded in time and memory."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "UNITILE_TABLES": str(tables)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=TIMEOUT,
                          env=env, cwd=ROOT, preexec_fn=_limit, stdin=subprocess.DEVNULL)  # fmt: skip


def spoil(path: Path, kind: str) -> None:
    """Put a special file (or a huge sparse one) in place of ``path``."""
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero link":
        path.symlink_to("/dev/zero")
    else:
        with path.open("wb") as f:
            f.truncate(HUGE)


def one_line_naming(done: subprocess.CompletedProcess[str], name: str) -> None:
    err = done.stderr.strip()
    assert done.returncode == 2, (done.returncode, err[-500:])
    assert "\n" not in err and "Traceback" not in err and name in err, err


KINDS = ["fifo", "dev-zero link", "huge sparse"]


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    root = tmp_path / "tables"
    shutil.copytree(TABLES, root)
    return root


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["5x5/strategy.bin", "4x4/t05.bin", "4x4/manifest.json"])
def test_nd_analyze_with_a_special_table_file_is_one_line(copy: Path, kind: str, name: str) -> None:
    spoil(copy / "naked-diagonal" / name, kind)
    board = EMPTY5 if name.startswith("5x5") else "..../..../..../.... r"
    done = run(["-m", "unitile_py", "nd", "analyze", "--tables", str(copy / "naked-diagonal"), board], copy)
    if name.endswith("manifest.json"):
        # Without a readable manifest the folder holds no tables: the answer is one line or a search's.
        assert "Traceback" not in done.stderr and done.returncode in (0, 2), done.stderr[-500:]
        assert done.stderr.count("\n") <= 1, done.stderr
    else:
        one_line_naming(done, name.split("/")[1])


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["5x5/strategy.bin", "5x5/manifest.json", "4x4/t05.bin",
                                  "4x4/manifest.json"])
def test_the_web_api_with_a_special_table_file_answers(copy: Path, kind: str, name: str) -> None:
    """``nd_info`` (the first request of every page) and ``nd_hint`` answer, never "internal error"."""
    spoil(copy / "naked-diagonal" / name, kind)
    n = int(name[0])
    script = (
        "import json, sys\nfrom unitile_py.webapi import handle\n"
        "for request in sys.argv[1:]:\n    print(handle(request))\n"
    )
    requests = [
        json.dumps({"op": "nd_info"}),
        json.dumps({"op": "nd_hint", "args": {"game": {"size": n, "start": None, "moves": []}}}),
    ]
    done = run(["-c", script, *requests], copy)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-500:]
    for line in done.stdout.splitlines():
        reply = json.loads(line)
        assert reply["ok"] or "internal error" not in reply["error"], reply


@pytest.mark.parametrize("kind", KINDS)
def test_unitile_review_with_a_special_table_file_is_one_line(copy: Path, tmp_path: Path, kind: str) -> None:
    spoil(copy / "3x3" / "b2.bin", kind)
    record = tmp_path / "g33.txt"
    record.write_text('[Board "3x3"]\n1. b1 c1 2. c2 b2 3. b3 1-0\n', encoding="utf-8")
    done = run(["-m", "unitile_py", "review", "--tables", str(copy / "3x3"), str(record)], copy)
    one_line_naming(done, "b2.bin")


@pytest.mark.parametrize("kind", KINDS)
def test_read_bytes_looks_first(tmp_path: Path, kind: str) -> None:
    """In process too: a special file is refused before it is opened for a blocking read."""
    path = tmp_path / "t.bin"
    path.write_bytes(b"x")
    spoil(path, kind)
    script = (
        "import sys\nfrom pathlib import Path\nfrom unitile_py.errors import GameError\n"
        "from unitile_py.table_io import read_bytes\n"
        "try:\n    read_bytes('t', Path(sys.argv[1]), GameError)\n"
        "except GameError as exc:\n    print(exc)\n"
    )
    done = run(["-c", script, str(path)], tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-500:]
    assert "not a regular file" in done.stdout or "more than a reader reads" in done.stdout, done.stdout


def test_read_bytes_checks_the_manifest_size(tmp_path: Path) -> None:
    path = tmp_path / "t.bin"
    path.write_bytes(b"abc")
    assert read_bytes("t", path, GameError, 3) == b"abc"
    with pytest.raises(GameError, match=r"t\.bin has 3 bytes, manifest.json says 4"):
        read_bytes("t", path, GameError, 4)
    with pytest.raises(GameError, match="more than a reader reads"):
        read_bytes("t", path, GameError, limit=2)
    with pytest.raises(GameError, match="cannot read"):
        read_bytes("t", tmp_path / "missing.bin", GameError)


def test_a_block_inflates_no_further_than_its_size() -> None:
    """A block that would inflate to 64 MiB is refused after at most its size (plus one byte)."""
    bomb = zlib.compress(bytes(64 * 1024**2), 9)
    tracemalloc.start()
    try:
        with pytest.raises(GameError, match="has the wrong size"):
            inflate("b", bomb, 1000, GameError)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1024**2, peak
    assert inflate("b", zlib.compress(b"abc"), 3, GameError) == b"abc"
    for bad in (zlib.compress(b"abc")[:-2], zlib.compress(b"abc") + b"x", b"not zlib"):
        with pytest.raises(GameError, match=r"is corrupt|wrong size"):
            inflate("b", bad, 3, GameError)
