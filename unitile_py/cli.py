"""The command line: ``python -m unitile_py COMMAND ...``.

User errors (a malformed position, record or move) print one line to standard error and exit with
status 2; there is no traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .errors import UnitileError
from .notation import format_record, parse_move, parse_position, parse_record
from .position import BLUE, RED, Position

EXIT_USAGE = 2


def draw(position: Position) -> str:
    """A terminal drawing of the board with file letters, rank numbers and the group counts."""
    board = position.board
    red_groups, blue_groups = position.group_counts()
    lines = [f"groups: red {red_groups}, blue {blue_groups}"]
    for r in range(board.rows):
        cells = []
        for c in range(board.cols):
            colour = position.colour_at(r * board.cols + c)
            cells.append("." if colour is None else colour.upper())
        lines.append(f"{board.rows - r} " + " ".join(cells))
    lines.append("  " + " ".join(chr(ord("a") + c) for c in range(board.cols)))
    winner = position.winner()
    if winner is not None:
        lines.append(f"{'red' if winner == RED else 'blue'} is united")
    else:
        lines.append(f"{'red' if position.turn == RED else 'blue'} to move")
    return "\n".join(lines)


def cmd_show(args: argparse.Namespace) -> int:
    """Draw a position, after the given moves if any."""
    position = parse_position(args.position)
    for ply, name in enumerate(args.moves, 1):
        if position.winner() is not None:
            raise UnitileError(f"move {name!r} (ply {ply}) comes after the game has ended")
        try:
            position = position.play(parse_move(position, name))
        except UnitileError as exc:
            raise UnitileError(f"ply {ply}: {exc}") from None
    print(draw(position))
    return 0


def read_text(path: str) -> str:
    """The text of a file, or of standard input for ``-``; a missing file is a user error."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        raise UnitileError(f"{path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UnitileError(f"{path}: not UTF-8 text") from None


def cmd_record(args: argparse.Namespace) -> int:
    """Check a game record and print it normalised, then the final position."""
    text = read_text(args.file)
    try:
        record = parse_record(text)
    except UnitileError as exc:
        raise UnitileError(f"{args.file}: {exc}") from None
    sys.stdout.write(format_record(record))
    print(draw(record.positions()[-1]))
    return 0


def cmd_slides(args: argparse.Namespace) -> int:
    """List the tiles that can legally slide (value rule from the tables), by name in alphabetical order."""
    from .analyze import legal_names

    print(" ".join(legal_names(args.position)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="python -m unitile_py",
        description="Unitile, the sliding-tile game by Mark Steere (rules: marksteeregames.com).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show", help="draw a position with the group counts")
    show.add_argument("position", help='position text, such as "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r"')
    show.add_argument("moves", nargs="*", help="moves to play first, such as c4 d4")
    show.set_defaults(func=cmd_show)
    slides = sub.add_parser("slides", help="list the tiles that can legally slide (from the tables)")
    slides.add_argument("position", help="position text")
    slides.set_defaults(func=cmd_slides)
    record = sub.add_parser("record", help="check a game record, print it normalised and draw the end")
    record.add_argument("file", help="record file, or - for standard input")
    record.set_defaults(func=cmd_record)
    from . import analyze, match, terminal_play  # computer matches and terminal games (issue 5)

    match.register(sub)
    terminal_play.register(sub)
    analyze.register(sub)  # perfect-play analysis from the tables (issue 4)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except UnitileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0


__all__ = ["BLUE", "RED", "draw", "main"]
