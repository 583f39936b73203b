"""The puzzle files both games share: format, grades, checks and seeded choice, with the standard library.

A puzzle is a position where the side to move (always Red) has exactly one winning move: its
``solution``, and ``distance``, the moves (plies or placements) to the win with perfect play, the
solution counted. The pipeline chooses them from the tables (``python -m pipeline puzzles`` and
``nd-puzzles``) and writes ``tables/puzzles/<game>-<board>.json`` (:func:`file_name`); the game reads them
here: the command lines' ``puzzles`` and the site's ``puzzle`` requests. The format is in docs/puzzles.md.

>>> grade_of(3), grade_of(7), grade_of(11)
('easy', 'medium', 'hard')
>>> data = {"format": 1, "game": "unitile", "board": "3x3", "puzzles": []}
>>> text = serialise({**data, "puzzles_sha256": digest([])})
>>> PuzzleSet.parse(text, "unitile", "3x3", "t").puzzles
()
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .errors import GameError
from .table_io import Directory, root_of, tables_root

#: The format this reader reads.
FORMAT = 1
#: The folder of the puzzle files in the tables directory.
FOLDER = "puzzles"
#: The grades by distance to the win (moves of both sides, the solution counted): ``(grade, first, last)``,
#: last None for no limit. Easy: the winner's 1 or 2 moves; medium: 3 to 5; hard: 6 or more.
BANDS: tuple[tuple[str, int, int | None], ...] = (("easy", 1, 3), ("medium", 4, 9), ("hard", 10, None))
GRADES = tuple(band[0] for band in BANDS)
#: The largest puzzle file a reader accepts (the committed ones are a few kilobytes).
MAX_BYTES = 1 << 20
#: The most puzzles a command or request may ask for at once.
MAX_COUNT = 1000


def grade_of(distance: int) -> str:
    """The grade of a puzzle that wins in ``distance`` moves (:data:`BANDS`)."""
    for grade, first, last in BANDS:
        if distance >= first and (last is None or distance <= last):
            return grade
    raise ValueError(f"distance {distance} has no grade")


def file_name(game: str, board: str) -> str:
    """``<game>-<board>.json``: ``unitile-5x5.json``, ``naked-diagonal-4x4.json``."""
    return f"{game}-{board}.json"


def default_folder() -> Path:
    """``puzzles/`` in the tables directory (``$UNITILE_TABLES`` if set, else the repository's)."""
    return tables_root() / FOLDER


def digest(puzzles: Sequence[dict[str, Any]]) -> str:
    """``puzzles_sha256``: sha256 of the puzzles as compact JSON with sorted keys (UTF-8)."""
    text = json.dumps(list(puzzles), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def serialise(data: dict[str, Any]) -> str:
    """The text of a puzzle file: JSON with sorted keys, one puzzle a line, a final newline."""
    head = {k: v for k, v in data.items() if k != "puzzles"}
    lines = [json.dumps(p, sort_keys=True) for p in data["puzzles"]]
    body = json.dumps(head, sort_keys=True, indent=1)[:-2]
    listed = ",\n  ".join(lines)
    return f'{body},\n "puzzles": [\n  {listed}\n ]\n}}\n' if lines else f'{body},\n "puzzles": []\n}}\n'


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position (Red to move), its one winning move and the distance to the win."""

    index: int
    position: str
    solution: str
    distance: int
    grade: str

    def plain(self) -> dict[str, Any]:
        """As ``puzzles --json`` prints it: the fields by name, in their order."""
        return asdict(self)


#: A game's check of one puzzle against its rules and tables: None when it is sound, else why not (or a
#: :class:`GameError` saying so).
Check = Callable[[Puzzle], "str | None"]


def judge(
    p: Puzzle, board: str, position: Any, board_of: str, results: dict[str, tuple[str, int]]
) -> str | None:
    """What is wrong with puzzle ``p`` of a ``board`` file, given its parsed ``position`` (on the board
    ``board_of``) and ``results``, the mover's result with perfect play after each legal move by name:
    None when the position is on the board with Red to move, and the solution is its one winning move,
    winning in the distance the puzzle gives."""
    if board_of != board:
        return f"position {p.position!r} is on a {board_of} board"
    if position.turn != "r":
        return f"position {p.position!r} has Blue to move (a puzzle is Red's)"
    if p.solution not in results:
        return f"solution {p.solution!r} is not a legal move"
    wins = sorted(move for move, (outcome, _) in results.items() if outcome == "win")
    if wins != [p.solution]:
        winning = " ".join(wins) or "none"
        return f"solution {p.solution!r} is not the one winning move (the winning moves: {winning})"
    distance = results[p.solution][1]
    if distance != p.distance:
        return f"distance {p.distance}, but the solution wins in {distance}"
    return None


def unsound(check: Check, p: Puzzle) -> str | None:
    """What ``check`` finds wrong with ``p`` (its :class:`GameError`'s line too), or None."""
    try:
        return check(p)
    except GameError as exc:
        return str(exc)


@dataclass(frozen=True)
class PuzzleSet:
    """The checked puzzles of one game and board."""

    game: str
    board: str
    puzzles: tuple[Puzzle, ...]

    @staticmethod
    def parse(text: str | bytes, game: str, board: str, where: str, check: Check | None = None) -> PuzzleSet:
        """The puzzles of a file's text; any fault is one :class:`GameError` line ``WHERE is damaged:
        WHY``: a puzzle that repeats another's position, or one the game's ``check`` finds unsound (a
        position that does not parse, on another board, with Blue to move, a solution that is not the one
        winning move, a wrong distance)."""

        def bad(why: str) -> GameError:
            return GameError(f"{where} is damaged: {why}")

        if len(text) > MAX_BYTES:
            raise bad(f"more than {MAX_BYTES} bytes")
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise bad("not JSON (truncated?)") from None
        if not isinstance(data, dict):
            raise bad("not a JSON object")
        if type(data.get("format")) is not int or data["format"] != FORMAT:
            raise bad(f"format {data.get('format')!r}, this reader reads {FORMAT}")
        if data.get("game") != game or data.get("board") != board:
            raise bad(f"it holds {data.get('game')!r} {data.get('board')!r}, not {game} {board}")
        raw = data.get("puzzles")
        if not isinstance(raw, list):
            raise bad("field 'puzzles' must be a list")
        if data.get("puzzles_sha256") != digest(raw):
            raise bad("puzzles_sha256 does not match the puzzles")
        out = []
        seen: dict[str, int] = {}
        for i, p in enumerate(raw):
            if not isinstance(p, dict) or set(p) != {"position", "solution", "distance", "grade"}:
                raise bad(f"puzzle {i} must have position, solution, distance and grade")
            pos, sol, dist, grade = p["position"], p["solution"], p["distance"], p["grade"]
            if not (isinstance(pos, str) and isinstance(sol, str)) or type(dist) is not int or dist < 1:
                raise bad(f"puzzle {i} has a wrong field type")
            if grade != grade_of(dist):
                raise bad(f"puzzle {i}: grade {grade!r} is not that of distance {dist}")
            if pos in seen:
                raise bad(f"puzzle {i} repeats puzzle {seen[pos]} ({pos[:40]!r})")
            seen[pos] = i
            puzzle = Puzzle(i, pos, sol, dist, grade)
            why = unsound(check, puzzle) if check is not None else None
            if why is not None:
                raise bad(f"puzzle {i}: {why}")
            out.append(puzzle)
        return PuzzleSet(game, board, tuple(out))

    def get(self, index: int) -> Puzzle:
        """The puzzle with this number (0 first)."""
        if not 0 <= index < len(self.puzzles):
            n = len(self.puzzles)
            raise GameError(f"puzzle {index}: there are {n} puzzles, numbered 0 to {n - 1}")
        return self.puzzles[index]

    def choose(self, count: int, seed: int, grade: str | None = None) -> list[Puzzle]:
        """``count`` different puzzles (fewer if there are fewer) of ``grade`` (any for None), chosen by
        ``seed``: the same seed gives the same puzzles in the same order, on every machine."""
        if grade is not None and grade not in GRADES:
            raise GameError(f"grade {grade!r}: expected one of {', '.join(GRADES)}")
        pool = [p for p in self.puzzles if grade is None or p.grade == grade]
        if not pool:
            raise GameError(f"{self.game} {self.board}: no {grade or ''} puzzles".replace("  ", " "))
        return random.Random(seed).sample(pool, min(count, len(pool)))


def load(game: str, board: str, directory: Directory = None, check: Check | None = None) -> PuzzleSet:
    """The puzzles of a game and board from ``directory`` (the tables directory, holding ``puzzles/``;
    default: the repository's), each checked by the game's ``check`` if given; a missing, unreadable or
    damaged file is one :class:`GameError` line."""
    root = root_of(directory, tables_root)
    path = root / FOLDER / file_name(game, board)
    where = f"puzzles {game} {board}: {path}"
    if not path.is_file():
        raise GameError(f"puzzles {game} {board}: no puzzle file {path}")
    try:
        with path.open("rb") as f:
            text = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise GameError(f"{where} cannot be read ({exc.strerror or exc})") from None
    return PuzzleSet.parse(text, game, board, where, check)


class Shelf:
    """The puzzle sets a game's web service holds, one per board: given as text by the page's worker
    (:meth:`put`), else read from the default folder when first asked for (:meth:`get`). A puzzle is
    checked by the game's check of its board (``check_for(board)``; None while the tables it needs are not
    at hand) before the service answers from it (:meth:`pick`), each puzzle once."""

    def __init__(self, game: str, check_for: Callable[[str], Check | None] | None = None) -> None:
        self.game = game
        self.check_for = check_for
        self._sets: dict[str, PuzzleSet] = {}
        self._sound: dict[str, set[int]] = {}

    def put(self, board: str, text: str | bytes) -> None:
        """Check and keep the puzzles of a board from a file's text."""
        self._sets[board] = PuzzleSet.parse(text, self.game, board, f"puzzles {self.game} {board}")
        self._sound.pop(board, None)

    def get(self, board: str) -> PuzzleSet:
        """The puzzles of a board; a missing or damaged file is one :class:`GameError` line."""
        found = self._sets.get(board)
        if found is None:
            found = self._sets[board] = load(self.game, board)
        return found

    def pick(self, board: str, index: Any, seed: Any, grade: Any) -> tuple[Puzzle, int]:
        """The puzzle a page asks for (:func:`pick`) and how many the board has, once the game's check
        finds it sound: an unsound one is one :class:`GameError` line naming it."""
        found = self.get(board)
        p = pick(found, index, seed, grade)
        sound = self._sound.setdefault(board, set())
        check = self.check_for(board) if self.check_for is not None and p.index not in sound else None
        if check is not None:
            why = unsound(check, p)
            if why is not None:
                raise GameError(f"puzzles {self.game} {board} is damaged: puzzle {p.index}: {why}")
            sound.add(p.index)
        return p, len(found.puzzles)


def pick(puzzles: PuzzleSet, index: Any, seed: Any, grade: Any) -> Puzzle:
    """The puzzle a page asks for: number ``index``, else one chosen by ``seed`` (0 if None) among those of
    ``grade`` (all if None). Every argument is checked: a bad one is one :class:`GameError` line."""
    if index is not None:
        if isinstance(index, bool) or not isinstance(index, int):
            raise GameError("index must be a whole number")
        return puzzles.get(index)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise GameError("seed must be a whole number of 0 or more")
    if grade is not None and grade not in GRADES:
        raise GameError(f"grade must be one of {', '.join(GRADES)}")
    return puzzles.choose(1, seed or 0, grade)[0]


#: The singular of each unit a distance is counted in.
SINGULAR = {"plies": "ply", "placements": "placement"}


def counted(n: int, unit: str) -> str:
    """``n`` with its unit (``"plies"`` or ``"placements"``), singular for one.

    >>> counted(1, "plies"), counted(3, "placements")
    ('1 ply', '3 placements')
    """
    return f"{n} {SINGULAR.get(unit, unit) if n == 1 else unit}"


def shown(p: Puzzle, count: int, unit: str) -> dict[str, Any]:
    """What a page shows of a puzzle (its solution kept back): ``index``, ``count`` (puzzles in the set),
    ``position``, ``distance``, ``grade``, ``turn`` and ``text``."""
    return {
        "index": p.index,
        "count": count,
        "position": p.position,
        "distance": p.distance,
        "grade": p.grade,
        "turn": "r",
        "text": f"Red to move and win (in {counted(p.distance, unit)} with perfect play).",
    }


def verdict(move: str, p: Puzzle, result: tuple[str, int], unit: str, first: bool = True) -> dict[str, Any]:
    """The answer to a tried move whose result with perfect play (the mover's, counting the move) is
    ``result``: ``right`` (it wins) with the solution, or not, with the reason "it loses in N". A move
    after the first (``first`` False: the puzzle's side plays on after the computer's replies) is right
    when it keeps the win, whichever winning move it is, and has no ``solution``."""
    kind, distance = result
    out: dict[str, Any] = {"move": move, "right": kind == "win", "outcome": kind, "distance": distance}
    if kind == "win":
        if first:
            out["solution"] = p.solution
        out["text"] = f"Right: {move} wins in {counted(distance, unit)}."
    else:
        why = "is not it" if first else "throws the win away"
        out["text"] = f"{move} {why}: it loses in {counted(distance, unit)}."
    return out


def played(moves: Any) -> list[str]:
    """The moves a page says were played since a puzzle's position (None: none), checked to be a list
    of names; a bad one is one :class:`GameError` line."""
    if moves is None:
        return []
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves) or len(moves) > 200:
        raise GameError("moves must be a list of move names (at most 200)")
    return list(moves)


__all__ = [
    "BANDS",
    "FOLDER",
    "FORMAT",
    "GRADES",
    "MAX_COUNT",
    "Puzzle",
    "PuzzleSet",
    "Shelf",
    "default_folder",
    "digest",
    "file_name",
    "grade_of",
    "load",
    "pick",
    "played",
    "serialise",
    "shown",
    "verdict",
]
