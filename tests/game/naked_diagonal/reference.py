"""An independent brute-force reading of the Naked Diagonal rules, to check the fast engine against.

Written apart from ``unitile_py.naked_diagonal`` and sharing nothing with it: a board is a tuple of
``"R"``, ``"B"`` and ``"."`` in reading order (row 0 north). An area is naked-diagonal-equivalent (NDE)
when no sequence of placements (either colour, any order) fills it without forming a naked diagonal;
this module tries every order and colouring (a depth-first search over partial fillings, remembering
the partial fillings that failed). The placements may go anywhere in ``allowed``: all empty points of
the board (the rules' reading R1 exactly) or, on larger boards, the maximal empty region holding the
area (equivalent by fact 1 of docs/naked-diagonal.md, which the small boards check).
"""

from __future__ import annotations

from collections.abc import Iterable

Board = tuple[str, ...]

#: A point that clothes every diagonal and forms none (the relaxations of the engine's proofs).
JOKER = "*"


def board_of(text: str) -> tuple[Board, str]:
    """A board and the side to move from the project's text form (rows joined by '/', a space, r or b)."""
    rows, side = text.split()
    return tuple("".join(rows.split("/"))), side


def board_of_masks(points: int, red: int, blue: int, jokers: int = 0) -> Board:
    """A board of ``points`` points from bit masks (bit p is point p): stones, jokers, the rest empty."""
    return tuple("R" if red >> p & 1 else "B" if blue >> p & 1 else JOKER if jokers >> p & 1 else "."
                 for p in range(points))


def text_of(board: Board, side: str) -> str:
    """The text form of a board."""
    n = size_of(board)
    return "/".join("".join(board[r * n:(r + 1) * n]) for r in range(n)) + " " + side


def size_of(board: Board) -> int:
    """The side length of a square board."""
    n = 0
    while n * n < len(board):
        n += 1
    return n


def orthogonal(n: int, p: int) -> list[int]:
    """The orthogonal neighbours of point p."""
    r, c = divmod(p, n)
    return [(r + dr) * n + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < n and 0 <= c + dc < n]


def diagonal(n: int, p: int) -> list[tuple[int, int, int]]:
    """The diagonal neighbours q of p, each with the two points next to both p and q."""
    r, c = divmod(p, n)
    out = []
    for dr in (-1, 1):
        for dc in (-1, 1):
            if 0 <= r + dr < n and 0 <= c + dc < n:
                out.append(((r + dr) * n + c + dc, (r + dr) * n + c, r * n + c + dc))
    return out


def naked_on_board(board: Board) -> bool:
    """True when two diagonal stones of one colour have no stone of that colour next to both."""
    n = size_of(board)
    for p, colour in enumerate(board):
        if colour != ".":
            for q, s, t in diagonal(n, p):
                if board[q] == colour and board[s] != colour and board[t] != colour:
                    return True
    return False


def forms_naked(board: Board, p: int, colour: str) -> bool:
    """True when a stone of colour ('R' or 'B') on the empty point p forms a naked diagonal (a joker
    next to both clothes it)."""
    n = size_of(board)
    clothes = (colour, JOKER)
    return any(board[q] == colour and board[s] not in clothes and board[t] not in clothes
               for q, s, t in diagonal(n, p))


def put(board: Board, p: int, colour: str) -> Board:
    """The board with a stone on p."""
    return (*board[:p], colour, *board[p + 1:])


def reach(n: int, points: Iterable[int]) -> set[int]:
    """The points of ``points`` orthogonally connected to the lowest one, through points of ``points``."""
    among = set(points)
    start = min(among)
    seen = {start}
    stack = [start]
    while stack:
        for q in orthogonal(n, stack.pop()):
            if q in among and q not in seen:
                seen.add(q)
                stack.append(q)
    return seen


def regions(board: Board, within: Iterable[int] | None = None) -> list[frozenset[int]]:
    """The maximal orthogonally connected sets of empty points (of ``within`` when given)."""
    n = size_of(board)
    todo = {p for p in (range(len(board)) if within is None else within) if board[p] == "."}
    out = []
    while todo:
        seen = reach(n, todo)
        todo -= seen
        out.append(frozenset(seen))
    return out


def fillable(board: Board, area: frozenset[int], allowed: frozenset[int]) -> bool:
    """True when some clean sequence of placements on points of ``allowed`` fills every point of ``area``."""
    failed: set[Board] = set()

    def search(b: Board) -> bool:
        if all(b[p] != "." for p in area):
            return True
        if b in failed:
            return False
        for p in sorted(allowed):
            if b[p] == ".":
                for colour in "RB":
                    if not forms_naked(b, p, colour) and search(put(b, p, colour)):
                        return True
        failed.add(b)
        return False

    return search(board)


def connected_areas(board: Board) -> list[frozenset[int]]:
    """Every non-empty orthogonally connected set of empty points (tiny boards only)."""
    n = size_of(board)
    empty = [p for p in range(len(board)) if board[p] == "."]
    out = []
    for bits in range(1, 1 << len(empty)):
        area = frozenset(p for i, p in enumerate(empty) if bits >> i & 1)
        if reach(n, area) == area:
            out.append(area)
    return out


def nde_areas(board: Board, every_area: bool = False) -> list[frozenset[int]]:
    """The NDE areas of a board.

    By default the maximal regions, each filled with placements inside itself. With ``every_area``,
    every connected area, filled with placements anywhere on the board (the rules' words exactly).
    """
    if not every_area:
        return [m for m in regions(board) if not fillable(board, m, m)]
    empty = frozenset(p for p in range(len(board)) if board[p] == ".")
    return [a for a in connected_areas(board) if not fillable(board, a, empty)]


def is_legal(board: Board, p: int, colour: str, every_area: bool = False) -> bool:
    """Whether a stone of colour (R or B) on p forms no naked diagonal and leaves no NDE area."""
    if board[p] != "." or forms_naked(board, p, colour):
        return False
    return not nde_areas(put(board, p, colour), every_area)


def legal_placements(board: Board, every_area: bool = False) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The points where Red, and where Blue, may legally place (whoever is to move)."""
    red = tuple(p for p in range(len(board)) if is_legal(board, p, "R", every_area))
    blue = tuple(p for p in range(len(board)) if is_legal(board, p, "B", every_area))
    return red, blue


def winner(board: Board) -> str | None:
    """'R' or 'B' when that colour's stones join its two edges (Red north-south, Blue west-east)."""
    n = size_of(board)
    for colour in "RB":
        if colour == "R":
            start = [c for c in range(n) if board[c] == "R"]
            goal = {(n - 1) * n + c for c in range(n)}
        else:
            start = [r * n for r in range(n) if board[r * n] == "B"]
            goal = {r * n + n - 1 for r in range(n)}
        seen = set(start)
        stack = list(start)
        while stack:
            p = stack.pop()
            if p in goal:
                return colour
            for q in orthogonal(n, p):
                if board[q] == colour and q not in seen:
                    seen.add(q)
                    stack.append(q)
    return None


def after(board: Board, side: str, p: int) -> tuple[Board, str]:
    """The board after the side to move ('r' or 'b') places on p, with the next side (skips included)."""
    colour = side.upper()
    new = put(board, p, colour)
    opponent = "b" if side == "r" else "r"
    if winner(new) is None and not legal_placements(new)[0 if opponent == "r" else 1]:
        return new, side
    return new, opponent
