"""Reading what the command line is given (unitile_py.inputs): at most what it can be, then one line."""

from __future__ import annotations

import json
import queue
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from unitile_py.errors import GameError
from unitile_py.inputs import MAX_LINE_BYTES, MAX_RECORD_BYTES, read_text
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
        (["review", "/dev/zero"], subprocess.DEVNULL),
        (["nd", "review", "-"], "zero"),
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


#: Each game's list-of-positions command, and a position it answers.
LISTS = [
    (["analyze", "-"], "BRB/R.B/RBR r"),
    (["nd", "legal", "-", "--json"], ".../.R./... b"),
    (["nd", "analyze", "-", "--json"], ".../R../... b"),
]


class Replies:
    """A command reading positions from its standard input, and its replies read as they come."""

    def __init__(self, argv: list[str], stdin: object = subprocess.PIPE) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "unitile_py", *argv],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=_limit_memory,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def reply(self) -> dict[str, object]:
        """The next reply, waited for at most 60 s (a command that waits for more input fails here)."""
        return json.loads(self.lines.get(timeout=60))  # type: ignore[no-any-return]

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


@pytest.mark.parametrize(("argv", "position"), LISTS)
def test_positions_on_standard_input_are_answered_as_they_arrive(argv: list[str], position: str) -> None:
    """Issue 35: ``analyze -`` and ``nd legal -`` read all their input before answering anything."""
    replies = Replies(argv)
    try:
        replies.send(position.encode() + b"\n")
        first = replies.reply()
        replies.send(b"\n  \nnot a position\r\n")  # blank lines get no reply
        assert str(replies.reply()["error"]).startswith("line 4: position 'not a position': expected")
        replies.send(position.encode() + b"\r\n")
        assert replies.reply() == first and "error" not in first
        assert replies.proc.stdin is not None
        replies.proc.stdin.close()
        assert replies.proc.wait(timeout=60) == 2
        assert replies.lines.empty()
        assert replies.proc.stderr is not None
        assert replies.proc.stderr.read() == b"error: 1 line refused, the first line 4\n"
    finally:
        replies.stop()


@pytest.mark.parametrize(("argv", "position"), LISTS)
def test_one_reply_per_line_whatever_the_line_holds(argv: list[str], position: str) -> None:
    """Issue 35: one bad byte refused the whole input, a U+2028 inside a line split it in two (every
    later answer shifted), and the errors named no line."""
    p = position.encode()
    lines = [p, b"\xff" + p, p + "\u2028".encode() + p, b"", p + b"\r", b"x" * (MAX_LINE_BYTES + 1), p]
    done = subprocess.run(
        [sys.executable, "-m", "unitile_py", *argv],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        timeout=120,
        preexec_fn=_limit_memory,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(replies) == 6 and done.returncode == 2
    assert replies[0] == replies[3] == replies[5] and "error" not in replies[0]
    assert replies[1] == {"error": "line 2: not UTF-8 text (byte 0)"}
    assert str(replies[2]["error"]).startswith(f"line 3: position '{position}\\u2028{position}'")
    assert replies[4] == {"error": f"line 6: too long (more than {MAX_LINE_BYTES:,} bytes)"}
    assert done.stderr == b"error: 3 lines refused, the first line 2\n"
    exact = b"\n".join([b" " * (MAX_LINE_BYTES - len(p)) + p, p]) + b"\n"  # the bound itself is accepted
    done = subprocess.run([sys.executable, "-m", "unitile_py", *argv], input=exact, capture_output=True,
                          timeout=120)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 2, done.stderr


def test_an_endless_line_is_one_error_not_memory() -> None:
    """A line with no end (standard input from /dev/zero) is refused as soon as it passes the bound,
    under a 1 GiB address-space limit."""
    with open("/dev/zero", "rb") as zero:
        replies = Replies(["nd", "legal", "-", "--json"], stdin=zero)
        try:
            assert replies.reply() == {"error": f"line 1: too long (more than {MAX_LINE_BYTES:,} bytes)"}
            assert replies.proc.poll() is None  # still reading (and dropping) the line, not out of memory
        finally:
            replies.stop()


@pytest.mark.parametrize("blank", ["\u00a0", "\u2003", "\u3000", "\u2028", "\x1c", "\x85"])
def test_only_ascii_blanks_part_a_position_from_its_side_to_move(blank: str) -> None:
    """Found by a hostile user (issue 51): both games' positions took any Unicode whitespace (a no-break
    space, an em space, a file separator) before the side to move. Only ASCII blanks do now."""
    from unitile_py.naked_diagonal.position import Position as NDPosition
    from unitile_py.unitile.notation import parse_position

    for parse, rows in ((parse_position, "BRB/R.B/RBR"), (NDPosition.parse, ".../.../...")):
        assert str(parse(f" {rows} \t r\n")) == f"{rows} r"
        with pytest.raises(GameError, match="a space and the side to move"):
            parse(f"{rows}{blank}r")
