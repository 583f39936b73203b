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
import contextlib
import gc
import importlib
import logging
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from types import FrameType
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
    if resumable:
        with stop_on_signals():
            return _run(command, failed, resumable)
    return _run(command, failed, resumable)


def _run(command: Callable[[], int], failed: tuple[type[Exception], ...], resumable: bool) -> int:
    """:func:`run_command`'s work."""
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
        quiet_after_interrupt()
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


#: Seconds after which a stop that landed in a garbage collector's callback is sent again.
RESEND_DELAY = 0.1


def _stop(signum: int, frame: FrameType | None) -> None:
    """The handler of Ctrl-C and SIGTERM while a resumable command runs: raise KeyboardInterrupt, unless
    the signal landed in a garbage collector's callback (dask's diagnostics install one), which would
    swallow it and leave the command running: then the same signal is sent again a moment later."""
    if _in_gc_callback(frame):
        threading.Timer(RESEND_DELAY, os.kill, (os.getpid(), signum)).start()
        return
    raise KeyboardInterrupt


def _in_gc_callback(frame: FrameType | None) -> bool:
    """True when ``frame`` or a caller of it runs one of :data:`gc.callbacks`."""
    codes = {getattr(getattr(c, "__func__", c), "__code__", None) for c in gc.callbacks}
    while frame is not None:
        if frame.f_code in codes:
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """A block in which Ctrl-C and SIGTERM (``kill``, a batch system's stop) end the work alike, as a
    KeyboardInterrupt that is never lost (:func:`_stop`): the command says in one line how to resume
    instead of ending without a word. Outside the main thread, where no handler can be set, nothing
    changes."""
    try:
        previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def quiet_after_interrupt() -> None:
    """After Ctrl-C stopped the work, say nothing of what it cut short: coroutines of an asynchronous
    write that never ran and asyncio's pending tasks would each add lines to the one-line stop message."""
    warnings.filterwarnings("ignore", message="coroutine .* was never awaited", category=RuntimeWarning)
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)


def main_module(name: str) -> NoReturn:
    """``python -m``'s entry for a command line whose modules take a while to load (numba, dask and
    zarr): import ``name`` and exit with its ``main()``. SIGTERM stops the loading as Ctrl-C does, and
    either is one line while the modules load (:func:`run_command` sets its own handlers once the work
    starts)."""
    signal.signal(signal.SIGTERM, _terminate)
    try:
        main = importlib.import_module(name).main
    except KeyboardInterrupt:
        print("interrupted while starting: nothing was done", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(main())


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


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
    "main_module",
    "one_line",
    "quiet_after_interrupt",
    "run_command",
    "stop_on_signals",
]
