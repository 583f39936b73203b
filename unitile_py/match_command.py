"""The command line's side of the commands both games share: the argparse types of a level and of a
side (a person or a level), and the ``match`` command's arguments and report (the match itself is
:func:`unitile_py.playing.run_games`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from .coords import quote
from .errors import GameError
from .playing import GameResult, MatchSummary
from .terminal import HUMAN


def level_type(levels: Sequence[int]) -> Callable[[str], int]:
    """An argparse type for a computer level among ``levels``."""

    def level(text: str) -> int:
        if text.strip() not in {str(v) for v in levels}:
            raise argparse.ArgumentTypeError(f"level {quote(text)}: expected {levels[0]} to {levels[-1]}")
        return int(text)

    return level


def side_type(levels: Sequence[int]) -> Callable[[str], str]:
    """An argparse type for ``human`` or a computer level among ``levels``."""

    def side(text: str) -> str:
        value = text.strip().lower()
        if value != HUMAN and value not in {str(v) for v in levels}:
            raise argparse.ArgumentTypeError(
                f"{quote(text)}: expected human or a level {levels[0]} to {levels[-1]}"
            )
        return value

    return side


#: The most games one ``match`` plays: it keeps every game until it prints the summary.
MAX_GAMES = 100_000


def add_match_arguments(p: argparse.ArgumentParser, levels: Sequence[int]) -> None:
    """The arguments every game's ``match`` command takes."""
    span = f"{levels[0]} to {levels[-1]}"
    p.add_argument("--red", type=level_type(levels), required=True, help=f"Red's level, {span}")
    p.add_argument("--blue", type=level_type(levels), required=True, help=f"Blue's level, {span}")
    p.add_argument("--games", type=int, default=100,
                   help=f"number of games, at most {MAX_GAMES:,} (default 100)")
    p.add_argument("--seed", type=int, default=1, help="match seed; the same seed plays the same games")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--records", metavar="FILE", help="write every game record to FILE")


#: What ``match`` runs: given the function to call with each game as it ends, the summary and the games.
MatchRun = Callable[[Callable[[GameResult], None]], tuple[MatchSummary, list[GameResult]]]


def report_match(args: argparse.Namespace, play: MatchRun) -> int:
    """Check ``--records`` (opened before the first game), run ``play``, writing each game's record as
    it ends, and print the summary. Ctrl-C keeps the records of the finished games (exit status 130)."""
    if args.games < 0:
        raise GameError(f"--games {args.games}: must be 0 or more")
    if args.games > MAX_GAMES:
        raise GameError(f"--games {args.games}: at most {MAX_GAMES:,} (every game is kept until the summary)")
    records_path = Path(args.records) if args.records else None
    records = None
    if records_path is not None:
        if not records_path.parent.is_dir():
            raise GameError(f"--records {args.records}: no directory {records_path.parent}")
        try:
            records = records_path.open("w", encoding="utf-8")
        except OSError as exc:
            raise GameError(f"--records {args.records}: {exc.strerror or exc}") from None
    written = 0

    def write(result: GameResult) -> None:
        nonlocal written
        if records is None:
            return
        try:
            records.write(("\n" if written else "") + result.game.record_text())
            records.flush()
        except OSError as exc:
            raise GameError(f"--records {args.records}: {exc.strerror or exc} "
                            f"(after {written} games)") from None
        written += 1

    try:
        summary, _ = play(write)
    except KeyboardInterrupt:
        kept = f"; the {written} finished games are in {records_path}" if records_path else ""
        print(f"interrupted{kept}", file=sys.stderr)
        return 130
    finally:
        if records is not None:
            with contextlib.suppress(OSError):
                records.close()
    if args.json:
        print(json.dumps(summary.as_json()))
    else:
        print(summary.text())
        if records_path is not None:
            print(f"records: {records_path}")
    return 0

