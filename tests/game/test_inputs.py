"""Reading what the command line is given (unitile_py.inputs): at most what it can be, then one line."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from unitile_py.errors import GameError
from unitile_py.inputs import MAX_RECORD_BYTES, read_text
from unitile_py.records import MAX_RECORD

#: Address space a command may use in the test below: far less than reading /dev/zero to the end takes.
MEMORY = 1 << 30


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (["record", "/dev/zero"], subprocess.DEVNULL),
        (["nd", "record", "/dev/zero"], subprocess.DEVNULL),
        (["record", "-"], "zero"),
        (["nd", "record", "-"], "zero"),
    ],
)
def test_a_record_from_an_endless_input_stops_with_one_line(argv: list[str], stdin: object) -> None:
    """Issue 35: ``record /dev/zero`` read until memory ran out (5.5 GB)."""
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run(
            [sys.executable, "-m", "unitile_py", *argv],
            stdin=zero if stdin == "zero" else subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
            preexec_fn=_limit_memory,
        )
    where = "standard input" if argv[-1] == "-" else "/dev/zero"
    assert done.returncode == 2 and done.stderr.decode() == (
        f"error: {where}: too long for a record (more than {MAX_RECORD_BYTES:,} bytes)\n"
    )


def test_a_record_file_is_read_up_to_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "r.txt"
    path.write_bytes(b" " * MAX_RECORD_BYTES)
    assert len(read_text(str(path))) == MAX_RECORD_BYTES
    path.write_bytes(b" " * (MAX_RECORD_BYTES + 1))
    with pytest.raises(GameError, match="too long for a record"):
        read_text(str(path))
    assert MAX_RECORD_BYTES == 4 * MAX_RECORD  # any record of MAX_RECORD characters, in UTF-8
