"""How every command line of the project ends: one line and a status for each kind of failure.

Both games' commands (``python -m unitile_py``) and the pipeline's (``python -m pipeline``) run through
:func:`run_command`: bad input (a :class:`~unitile_py.errors.GameError`) prints one line to standard
error and exits with :data:`EXIT_USAGE`; output cut short by a closed pipe (``| head -1``) ends
quietly; a full disk or another write error is one line too. There is never a traceback for these.

>>> run_command(lambda: 0)
0
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from .errors import GameError

#: Exit status for bad input (a malformed position, record or move, a missing file, a bad option).
EXIT_USAGE = 2
#: Exit status for a check that failed (the pipeline's verification, a damaged store).
EXIT_FAILED = 1
#: Exit status after Ctrl-C.
EXIT_INTERRUPTED = 130
#: The longest error line the argument parser prints (an argument it echoes may be any length).
ERROR_LIMIT = 300


def one_line(text: str) -> str:
    """``text`` with its line breaks and other unprintable characters escaped, so that an error stays one
    line whatever input it names (a file name may hold a carriage return).

    >>> one_line("\\r: No such file"), one_line("a\\u2028b é")
    ('\\\\r: No such file', 'a\\\\u2028b é')
    """
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


class Parser(argparse.ArgumentParser):
    """argparse's parser whose errors, its subcommands' too, are one line on standard error, exit status
    :data:`EXIT_USAGE`: ``error: PROG: MESSAGE (see PROG --help)``, what it echoes (``unrecognized
    arguments: ...``) escaped (:func:`one_line`) and cut short. Every command line of the project uses it."""

    def _print_message(self, message: str, file: Any = None) -> None:
        """Print ``--help`` or usage; unlike argparse's, a failed write (a full disk) is not ignored but
        raised, so that :func:`run_command` reports it in one line."""
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str) -> NoReturn:
        """Print the one error line and exit with status 2."""
        line = one_line(message)
        line = line if len(line) <= ERROR_LIMIT else line[:ERROR_LIMIT] + "..."
        print(f"error: {self.prog}: {line} (see {self.prog} --help)", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def run_command(
    command: Callable[[], int],
    failed: tuple[type[Exception], ...] = (),
    resumable: bool = False,
) -> int:
    """Run ``command`` and return its exit status, or the status of the failure that ended it.

    ``failed`` are the exceptions that mean a check failed (one line, :data:`EXIT_FAILED`);
    ``resumable`` commands say on Ctrl-C that the same command resumes them (:data:`EXIT_INTERRUPTED`).
    A closed standard input or output (:func:`closed_stream`) is one line before ``command`` runs; the
    argument parser runs inside ``command``, so that its ``--help`` on a full disk is one line too.
    """
    closed = closed_stream()
    if closed is not None:
        print(f"error: {closed} is closed: run the command with it open (</dev/null or >/dev/null for none)",
              file=sys.stderr)  # fmt: skip
        return EXIT_USAGE
    try:
        try:
            status = int(command())
        except SystemExit:  # the argument parser's --help (or its error): its output must reach the reader
            sys.stdout.flush()
            raise
        sys.stdout.flush()  # a full disk shows here, not in the interpreter's last flush
        return status
    except GameError as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except failed as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        if not resumable:
            raise
        print("interrupted: rerun the same command to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly.
        _drop_stdout()
        return 0
    except OSError as exc:
        _drop_stdout()
        print(f"error: cannot write the output: {one_line(str(exc.strerror or exc))}", file=sys.stderr)
        return EXIT_USAGE


def closed_stream() -> str | None:
    """``"standard input"`` or ``"standard output"`` when the process started with that stream closed
    (``<&-``, ``>&-``: Python then holds None for it), else None. Every command refuses to run so: what
    it reads or writes there would fail half-way, and the next file it opened would take the stream's
    number, which the processes it starts would read or write as their own."""
    if sys.stdin is None:
        return "standard input"
    if sys.stdout is None:
        return "standard output"
    return None


def _drop_stdout() -> None:
    """Send what is left in stdout's buffer nowhere, so that Python's final flush cannot fail too."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (a test's captured stream)
        pass


__all__ = [
    "ERROR_LIMIT",
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "Parser",
    "closed_stream",
    "one_line",
    "run_command",
]
