"""``python -m unitile_py naked-diagonal COMMAND`` (or ``nd``): Mark Steere's Naked Diagonal in the terminal.

* ``show POS [MOVES...]``: draw a position, after the given placements (each checked by the rules).
* ``legal POS|- [--json]``: where each colour may place now, whoever is to move; ``--json`` prints one
  line per position: ``{"red": [...], "blue": [...], "winner": null | "red" | "blue"}``.
* ``why POS POINT [--colour r|b]``: why a placement is banned: the naked diagonal it would form, or the
  naked-diagonal-equivalent area it would leave, whether that area is BAD, and a culprit (a part of it
  that no sequence of placements can cover).
* ``record FILE|-``: check a record turn by turn, print it normalised and draw the end.
* ``analyze POS|- [--json]``: on a solved size (2x2, 3x3, 4x4: :mod:`.tables`), the outcome for the side
  to move and the distance to the end in placements with perfect play, and the same for each legal
  placement counting it; ``--json`` prints one line per position:
  ``{"outcome": "win" | "loss", "distance": N, "moves": {"a1": {"outcome": ..., "distance": ...}, ...}}``.
  On a size whose folder holds a strategy (5x5: :mod:`.perfect`) the outcomes come from the stored
  proof, else from a bounded exact search, else ``"unknown"``; every ``distance`` is null, and
  ``source`` ``"strategy"``, ``winner``, ``how`` (or why unknown) and ``note`` are added.
* ``review FILE|- [--json]``: every turn of a record on a size with tables judged (:mod:`.review`).
* ``puzzles [--size NxN] --count N --seed S [--grade G] [--json]``: puzzles of the shipped puzzle file
  (:mod:`unitile_py.puzzle_command`): Red to move has exactly one winning placement.
* ``play`` and ``match``: a game in the terminal, and computer levels against each other (level 6,
  perfect play, on the solved sizes).

Once a colour has won, ``legal``, ``why``, ``analyze`` (as text), ``play --position`` and ``match
--position`` all say so in the same words as the web API ("The game is over: Red has won.",
:func:`.bans.game_over`).

Malformed input prints one line to standard error and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import puzzle_command
from ..colours import BLUE, COLOUR_NAMES, RED
from ..errors import NakedDiagonalError
from ..inputs import answer_lines
from ..match_command import add_match_arguments, report_match, side_type
from ..playing import run_games
from ..puzzles import Puzzle, judge
from ..records import split_record
from ..table_io import folder_of, manifest_kind, root_of
from ..terminal import HUMAN, play_in_terminal, players_of, show_after, show_record
from . import perfect, review
from .bans import game_over
from .game import Game, parse_record
from .keys import default_root
from .legality import check_start, explain, legal_masks
from .notation import DEFAULT_SIZE, parse_size, start_of
from .players import LEVELS, PERFECT, best_hint, levels_for, make_player, perfect_sizes
from .position import Position
from .strategy import KIND, strategy_for
from .tables import NDTables, tables_for

#: Every level, 6 (perfect play) only on the solved sizes.
ALL_LEVELS = (*LEVELS, PERFECT)
#: The word for each colour in JSON output.
COLOUR_WORDS = {RED: "red", BLUE: "blue"}
#: The largest board the command line takes (the engine's grid goes to 26x26), as the site's: the largest
#: size whose requests bench/nd_requests.py measures within 1 s of CPU (docs/naked-diagonal.md, "Requests
#: in bounded time").
MAX_SIZE = 13


def checked_size(position: Position) -> Position:
    """``position`` when its board is at most :data:`MAX_SIZE`; else one line saying why not."""
    n = position.grid.n
    if n > MAX_SIZE:
        raise NakedDiagonalError(
            f"a {n}x{n} board is refused: the command line plays up to {MAX_SIZE}x{MAX_SIZE}, as the site "
            f"does, the largest size whose every request is answered within 1 s of CPU"
        )
    return position


def parse_position(text: str) -> Position:
    """:meth:`Position.parse` for the command line, its board at most :data:`MAX_SIZE`."""
    return checked_size(Position.parse(text))


def status_line(game: Game) -> str:
    """Who is to move, or who won and with which chain."""
    winner = game.winner()
    if winner is not None:
        return f"{COLOUR_NAMES[winner]} has won: {' '.join(game.grid.names(game.winner_chain()))}"
    return f"{COLOUR_NAMES[game.position.turn]} to move"


def draw(position: Position) -> str:
    """The board with rank numbers and file letters, then whose turn or who won."""
    game = Game(position)
    return f"{position.draw()}\n{status_line(game)}"


def cmd_show(args: argparse.Namespace) -> int:
    """Draw a position after the given placements."""
    return show_after(Game(parse_position(args.position)), args.moves, draw)


def legal_of(text: str) -> dict[str, Any]:
    """What ``legal --json`` prints for one position."""
    position = parse_position(text)
    winner = position.winner()
    red, blue = (0, 0) if winner is not None else legal_masks(position)
    g = position.grid
    return {
        "red": sorted(g.names(red)),
        "blue": sorted(g.names(blue)),
        "winner": None if winner is None else COLOUR_WORDS[winner],
    }


def per_position(
    args: argparse.Namespace,
    info_of: Callable[[str], dict[str, Any]],
    text_of: Callable[[str, dict[str, Any]], str],
) -> int:
    """``info_of`` the position argument, or of each line of standard input for ``-`` as it arrives,
    printed as JSON (``--json``) or as text; on standard input a bad line gets ``{"error": "line N:
    ..."}``, the others going on, exit status 2 (:func:`~unitile_py.inputs.answer_lines`)."""
    def answer(text: str) -> str:
        info = info_of(text)
        return json.dumps(info) if args.json else text_of(text, info)

    if args.position == "-":
        return answer_lines(answer)
    print(answer(args.position.strip()))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    """The legal placements of both colours, for one position or one per line of standard input."""
    def text(position: str, info: dict[str, Any]) -> str:
        over = game_over(Position.parse(position))  # the rule of why, analyze and the web API
        return over or f"red: {' '.join(info['red']) or '-'}\nblue: {' '.join(info['blue']) or '-'}"

    return per_position(args, legal_of, text)


def cmd_why(args: argparse.Namespace) -> int:
    """Why a placement is legal or not."""
    position = parse_position(args.position)
    colour = args.colour or position.turn
    point = position.grid.point(args.point)
    over = game_over(position)  # the web API's rule too: after a win, no placement is legal
    ban = explain(position, point, colour) if over is None else None
    if over is not None:
        print(over)
    elif ban is None:
        print(f"{COLOUR_NAMES[colour]} on {position.grid.name(point)} is legal")
    else:
        print(ban.describe(position.grid))
    return 0


def analysis_of(text: str, directory: str | None = None) -> dict[str, Any]:
    """What ``analyze --json`` prints for one position (see :meth:`NDTables.analysis`; on a size whose
    folder holds a strategy, :func:`.perfect.analysis`: distances None, outcomes possibly "unknown")."""
    position = Position.parse(text)
    n = position.grid.n
    folder = folder_of(root_of(directory, default_root), f"{n}x{n}")
    if manifest_kind(folder) == KIND:
        return perfect.analysis(position, strategy_for(n, directory))
    tables: NDTables = tables_for(n, directory)
    return tables.analysis(position)


def format_analysis(position: Position, info: dict[str, Any]) -> str:
    """The text form of an analysis: a summary line, then one line per legal placement (``*``: best)."""
    side = COLOUR_NAMES[position.turn]
    over = game_over(position)  # the rule of legal, why and the web API
    if over is not None:
        return over
    verb = {"win": "wins", "loss": "loses"}.get(info["outcome"], "")
    if info["distance"] is None:  # a strategy: outcomes without distances
        said = f" {verb}" if verb else ": unknown"
        head = f"{side} to move{said} ({info['how']})"
        lines = [head, f"no distances: {info['note']}", "point  result"]
        for name, m in info["moves"].items():
            mark = "  *" if m["outcome"] == "win" else ""
            lines.append(f"{name:<6} {m['outcome']}{mark}")
        return "\n".join(lines)
    lines = [f"{side} to move {verb} in {info['distance']} placements with perfect play",
             "point  result  placements"]
    best = (info["outcome"], info["distance"])
    for name, m in info["moves"].items():
        mark = "  *" if (m["outcome"], m["distance"]) == best else ""
        lines.append(f"{name:<6} {m['outcome']:<7} {m['distance']:>10}{mark}")
    return "\n".join(lines)


def cmd_analyze(args: argparse.Namespace) -> int:
    """Perfect play on a solved size, for one position or one per line of standard input."""
    return per_position(
        args,
        lambda text: analysis_of(text, args.tables),
        lambda text, info: format_analysis(Position.parse(text), info),
    )


def cmd_record(args: argparse.Namespace) -> int:
    """Check a record and print it normalised, then the final position."""
    return show_record(args.file, _record_game, draw, NakedDiagonalError)


def _record_game(text: str) -> Game:
    """The game of a record, its board checked (:func:`checked_size`) before any turn is replayed."""
    checked_size(start_of(split_record(text).headers))
    return Game.from_record(parse_record(text))


def _start(args: argparse.Namespace) -> Position:
    """The start of ``play`` and ``match``, checked with the levels of ``--red`` and ``--blue`` before
    any game starts (level 6 plays only on the sizes with tables or a strategy)."""
    size = args.size or f"{DEFAULT_SIZE}x{DEFAULT_SIZE}"
    if args.position:
        start = parse_position(args.position)
        n = start.grid.n
        if args.size is not None and parse_size(args.size) != n:
            raise NakedDiagonalError(f"--size {args.size}: the --position is on a {n}x{n} board")
    else:
        start = checked_size(Position.empty(parse_size(size)))
    over = game_over(start)  # the rule of legal, why, analyze and the web API
    if over is not None:
        raise NakedDiagonalError(f"--position: {over}")
    try:
        check_start(start)  # the web API's rule: no start with an NDE area (no placement is legal there)
    except NakedDiagonalError as exc:
        raise NakedDiagonalError(f"--position: {exc}") from None
    n = start.grid.n
    for name in ("red", "blue"):
        level = getattr(args, name)
        if str(level).isdigit() and int(level) not in levels_for(n):
            sizes = ", ".join(f"{k}x{k}" for k in perfect_sizes()) or "no size"
            raise NakedDiagonalError(f"--{name} {level}: level {PERFECT} (perfect) plays on {sizes}, "
                                     f"not {n}x{n}")
    return start


def cmd_play(args: argparse.Namespace) -> int:
    """A game in the terminal between people and computer levels."""
    players = players_of({RED: args.red, BLUE: args.blue}, args.seed, make_player)
    play_in_terminal(Game(_start(args)), dict(players), draw, lambda position: best_hint(position)[0])
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    """Computer levels against each other."""
    start = _start(args)
    return report_match(
        args,
        lambda on_game: run_games(args.red, args.blue, args.games, args.seed, lambda: Game(start),
                                  make_player, on_game),
    )


def cmd_puzzles(args: argparse.Namespace) -> int:
    """Print puzzles of the shipped puzzle file, chosen by the seed (:mod:`unitile_py.puzzle_command`)."""
    n = parse_size(args.size)
    directory = Path(args.tables) / "naked-diagonal" if args.tables else None

    def check(p: Puzzle) -> str | None:
        position = Position.parse(p.position)
        m = position.grid.n
        results = {}
        if m == n:  # the tables of the directory that holds the puzzles
            results = {position.grid.name(q): r for q, r in tables_for(n, directory).moves(position).items()}
        return judge(p, f"{n}x{n}", position, f"{m}x{m}", results)

    return puzzle_command.run(args, "naked-diagonal", f"{n}x{n}", "placements",
                              lambda text: draw(Position.parse(text)), check)  # fmt: skip


def register(cmds: Any) -> None:
    """Add Naked Diagonal's commands to its group's subparsers (:mod:`unitile_py.cli` makes the group)."""
    pos_help = (
        'position text: rows north to south joined by "/", R B or . per point, then r or b (".../.../... r")'
    )
    show = cmds.add_parser("show", help="draw a position, after placements if given")
    show.add_argument("position", help=pos_help)
    show.add_argument(
        "moves", nargs="*", help="placements to make first, such as e5 d4 (checked by the rules)"
    )
    show.set_defaults(func=cmd_show)
    legal = cmds.add_parser("legal", help="where Red and Blue may place now")
    legal.add_argument("position", help=f"{pos_help}; or - for one per line of standard input")
    legal.add_argument("--json", action="store_true", help='one line per position: {"red", "blue", "winner"}')
    legal.set_defaults(func=cmd_legal)
    why = cmds.add_parser("why", help="why a placement is banned")
    why.add_argument("position", help=pos_help)
    why.add_argument("point", help="the point, such as c3")
    why.add_argument("--colour", "--color", choices=[RED, BLUE], help="the colour placing (default: to move)")
    why.set_defaults(func=cmd_why)
    record = cmds.add_parser("record", help="check a record, print it normalised and draw the end")
    record.add_argument("file", help="record file, or - for standard input")
    record.set_defaults(func=cmd_record)
    analyze = cmds.add_parser(
        "analyze", help="perfect play on a solved size (2x2, 3x3, 4x4; 5x5 from its stored proof)"
    )
    analyze.add_argument("position", help=f"{pos_help}; or - for one per line of standard input")
    analyze.add_argument(
        "--json", action="store_true", help='one line per position: {"outcome", "distance", "moves"}'
    )
    analyze.add_argument("--tables", metavar="DIR", help="tables folder (default tables/naked-diagonal)")
    analyze.set_defaults(func=cmd_analyze)
    review.register(cmds)
    size_help = f"board size NxN (default {DEFAULT_SIZE}x{DEFAULT_SIZE}; with --position, its size)"
    play = cmds.add_parser("play", help="play a game in the terminal")
    play.add_argument(
        "--red", type=side_type(ALL_LEVELS), default=HUMAN, help="human (default) or a level 1 to 6"
    )
    play.add_argument(
        "--blue", type=side_type(ALL_LEVELS), default="3", help="human or a level 1 to 6 (default 3)"
    )
    play.add_argument("--seed", type=int, default=1, help="seed of the computer sides")
    play.add_argument("--size", help=size_help)
    play.add_argument("--position", help="start from this position instead of the empty board")
    play.set_defaults(func=cmd_play)
    match = cmds.add_parser("match", help="play computer levels against each other")
    add_match_arguments(match, ALL_LEVELS)
    match.add_argument("--size", help=size_help)
    match.add_argument("--position", help="start every game from this position")
    match.set_defaults(func=cmd_match)
    puzzles = cmds.add_parser("puzzles", help="puzzles: Red to move has exactly one winning placement")
    puzzles.add_argument("--size", default="4x4", help="board size NxN with puzzles (default 4x4)")
    puzzle_command.add_arguments(puzzles)
    puzzles.set_defaults(func=cmd_puzzles)


__all__ = ["analysis_of", "cmd_analyze", "cmd_legal", "draw", "format_analysis", "legal_of", "register"]
