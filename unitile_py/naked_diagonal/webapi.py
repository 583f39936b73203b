"""The browser's view of Naked Diagonal: plain-data calls over the rules engine for the site's worker.

As :mod:`unitile_py.unitile.webapi` does for Unitile (:func:`unitile_py.webapi.handle` routes the ``nd_``
requests here, so one worker serves both games): every call takes and returns plain data, the page
owns the game (in the URL and in localStorage) and each call replays it through a
:class:`~unitile_py.naked_diagonal.game.Game`, which checks every placement. A *game* is
``{"size": n, "start": position text or None, "moves": [names]}``; ``start`` None means the empty
n x n board (a ``size`` given with a start must be the start's own), and a move is a point name or
``skip`` (written where the engine skipped a player who had no legal placement; the page may leave
skips out, replaying puts them back).

>>> api = Api()
>>> game = api.play(api.play(api.new_game(5), "c3"), "a1")
>>> state = api.state(game)
>>> state["turn"], state["last"], state["stones"], len(state["legal"])
('r', 'a1', {'r': 1, 'b': 1}, 19)
>>> ban = api.explain(game, "d4")
>>> ban["kind"], ban["move"], ban["partner"], ban["shared"]
('naked', 'd4', 'c3', ['c4', 'd3'])
>>> print(ban["text"])
Red on d4 would form a naked diagonal with c3: neither c4 nor d3 holds a red stone.
>>> api.explain(game, "c4") is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from .. import puzzles, service
from ..bans import OffBoard
from ..colours import BLUE, RED
from ..coords import quote
from ..errors import GameError, NakedDiagonalError
from ..mcts import Steps, finish
from ..playing import Player
from ..records import split_record
from ..service import shown
from .bans import LeavesNDE, NakedDiagonal, sentence
from .game import Game, parse_record
from .grid import Grid
from .hints import hint_steps, remember_source, source_steps
from .keys import default_root
from .legality import check_start, legal_mask
from .links import check_skips, point_of, why_not
from .notation import DEFAULT_SIZE, SKIP, SKIP_WORD
from .offered import SIZES, named_size, not_offered, size_of
from .players import BEST, LEVELS, PERFECT, PerfectPlayer, levels_for, make_player, perfect_sizes
from .position import Position
from .puzzle_check import puzzle_check
from .review import review_game, review_tables
from .rules import chain
from .strategy import strategy_problem, strategy_sizes, winner_of
from .tables import solved_sizes, tables_for, tables_problem
from .warming import warmed


def _names(grid: Grid, mask: int) -> list[str]:
    return list(grid.names(mask))


def plain_game(g: Game, upto: int | None = None) -> dict[str, Any]:
    """The plain-data form of a game (of its first ``upto`` turns)."""
    start = g.start
    moves = g.moves if upto is None else g.moves[:upto]
    empty = start == Position.empty(g.grid.n)
    return {"size": g.grid.n, "start": None if empty else str(start), "moves": [g.name_of(m) for m in moves]}


def manifest_alone(n: int) -> bool:
    """Whether the n x n board's folder of tables or strategy holds its ``manifest.json`` and no other
    file (the site's worker fetches the others when a game of that size asks for them)."""
    folder = default_root() / f"{n}x{n}"
    try:
        return [p.name for p in folder.iterdir()] == ["manifest.json"]
    except OSError:
        return False


class Api(service.Service[Game]):
    """Naked Diagonal's game service for the page."""

    error = NakedDiagonalError
    move_text = "a point name such as e5"

    def __init__(self) -> None:
        super().__init__()
        self.puzzles = puzzles.Shelf("naked-diagonal", self._puzzle_check)

    def info(self) -> dict[str, Any]:
        """The board sizes, the default one and the computer levels: ``levels`` on every size, with
        ``best`` (its choice is the hint), and ``perfect`` (level 6, perfect play from the tables or a
        stored proof) on ``perfect_sizes``, the offered sizes whose tables or strategy are there, where it
        gives the hint; ``proof_sizes`` maps each size whose level 6 follows a stored proof (a strategy,
        5x5) to the winner it proves (``"red"`` or ``"blue"``); ``table_sizes`` the sizes whose tables
        give the analysis and the review."""
        # Sizes whose tables or strategy are damaged are not offered (a lookup would say so at the first
        # move). A folder that holds its manifest alone is offered unchecked: the site's worker writes a
        # board's other files with its first request of that size (site/web/js/worker.js).
        tables = solved_sizes()
        perfect = [n for n in perfect_sizes() if n in SIZES and not (
            None if manifest_alone(n) else tables_problem(n) if n in tables else strategy_problem(n))]
        proofs = {str(n): winner_of(n) for n in strategy_sizes() if n in perfect and n not in solved_sizes()}
        return {
            "sizes": list(SIZES),
            "default_size": DEFAULT_SIZE,
            "levels": list(LEVELS),
            "best": BEST,
            "perfect": PERFECT,
            "perfect_sizes": perfect,
            "proof_sizes": proofs,
            "table_sizes": [n for n in perfect if n in tables],
        }

    # ----- games ------------------------------------------------------------------------------------

    def new_game(self, size: int = DEFAULT_SIZE) -> dict[str, Any]:
        """An empty board of ``size``, Red to move."""
        return {"size": size_of(size), "start": None, "moves": []}

    def _start(self, game: Any) -> Position:
        """The start a plain game names; :class:`NakedDiagonalError` for one that cannot be played."""
        if not isinstance(game, dict):
            raise NakedDiagonalError("game: expected an object with size, start and moves")
        text = game.get("start")
        if text is None:
            size = game.get("size", DEFAULT_SIZE)
            return Position.empty(size_of(size))
        if not isinstance(text, str):
            raise NakedDiagonalError("game: start must be a position text or null")
        start = Position.parse(text)
        size_of(start.grid.n)
        size = game.get("size")  # a link's n: it must be the start's own size, never ignored
        if size is not None and (type(size) is not int or size != start.grid.n):
            said = size if type(size) is int else quote(str(size))
            n = start.grid.n
            raise NakedDiagonalError(f"the board size {said} is not the start position's {n}x{n}")
        return check_start(start)

    def replay(self, game: Any) -> Game:
        """The game of a plain game, every turn checked; :class:`NakedDiagonalError` names the first bad one.

        The last game replayed is kept and extended (or shortened) when the next shares its start and
        a prefix of its placements, so that a call per move does not replay the whole game.
        """
        start = self._start(game)
        names = service.names_of(game, "point names", NakedDiagonalError)
        wanted = [n.strip().lower() for n in names]
        g = self._last
        if g is None or g.start != start:
            g = Game(start)
        self._last = None  # in case a placement below is refused half way
        played = [g.name_of(m) for m in g.moves if m != SKIP]  # a placement is taken back with its skip
        self._last = service.replay_onto(g, played, [n for n in wanted if n != SKIP_WORD])
        check_skips(g, wanted)
        return g

    def plain(self, g: Game, upto: int | None = None) -> dict[str, Any]:
        """The plain form of a game (of its first ``upto`` turns): :func:`plain_game`."""
        return plain_game(g, upto)

    def _salvage(self, game: dict[str, Any]) -> dict[str, Any]:
        """:meth:`salvage` of an object: its start, else an empty board, and the turns that can be played."""
        try:
            start = self._start(game)
        except GameError as exc:
            size = game.get("size")
            fallback = self.new_game(size if isinstance(size, int) and size in SIZES else DEFAULT_SIZE)
            tail = service.moves_lost(game.get("moves"), "move")
            what = "start position" if game.get("start") is not None else "board size"
            n = fallback["size"]
            bad = f"the {what} of the link is refused: {exc}; an empty {n}x{n} board is shown{tail}"
            return {"game": fallback, "problem": bad}
        g = Game(start)
        skipped = False  # the last placement skipped the opponent: a skip may follow

        def step(name: Any) -> str | None:
            nonlocal skipped
            why = why_not(g, name, skipped)
            if why is None:
                word = name.strip().lower()
                skipped = False if word == SKIP_WORD else g.push(g.grid.point(word))
            return why

        problem = service.play_link(game.get("moves"), step, "move")
        self._last = g
        return {"game": plain_game(g), "problem": problem}

    def load(self, text: Any) -> dict[str, Any]:
        """A game from record text; every turn is checked by the rules."""
        if not isinstance(text, str):
            raise NakedDiagonalError("record must be text")
        size = named_size(split_record(text).headers)  # a garbled header: split_record says so
        if size is not None and size not in SIZES:
            raise NakedDiagonalError(f"record: {not_offered(size)}")
        record = parse_record(text)
        game = plain_game(Game.from_record(record))
        try:
            self._start(game)  # a board the page offers, a start that can be played from
        except GameError as exc:
            raise NakedDiagonalError(f"record: {exc}") from None
        return game

    # ----- what the page draws ----------------------------------------------------------------------

    def state(
        self,
        game: Any,
        humans: Sequence[str] = (RED, BLUE),
        ply: Any = None,
        headers: dict[str, str] | None = None,
        analysis: Any = False,
    ) -> dict[str, Any]:
        """Everything the page draws for the position after ``ply`` turns (default: all of them).

        ``points`` holds ``"r"``, ``"b"`` or ``"."`` per point in reading order; ``legal`` names the
        points where the side to move may place; ``last`` is the latest placement (None at the start);
        ``skipped`` the colour whose turn was skipped just before this position, if one was; ``chain``
        the winner's stones that join its edges. With ``analysis``, also ``analysis``:
        :meth:`analysis_of` the position.
        """
        g = self.replay(game)
        end = service.ply_of(ply, g.ply, NakedDiagonalError)
        g.headers = service.headers_of(headers, NakedDiagonalError)
        grid = g.grid
        position = g.positions[end]
        winner = position.winner()
        placed = [m for m in g.moves[:end] if m != SKIP]
        legal: tuple[int, ...] = ()
        chain_of = 0
        if winner is not None:
            chain_of = chain(grid, position.stones(winner), winner)
        else:
            legal = grid.points(legal_mask(position, position.turn))
        points = ["R" if position.red >> p & 1 else "B" if position.blue >> p & 1 else "."
                  for p in range(grid.size)]
        return {
            "size": grid.n,
            "ply": end,
            "plies": g.ply,
            "moves": [g.name_of(m) for m in g.moves],
            "points": [c.lower() for c in points],
            "turn": position.turn,
            "legal": [grid.name(p) for p in legal],
            "last": grid.name(placed[-1]) if placed else None,
            "skipped": g.mover(end - 1) if end and g.moves[end - 1] == SKIP else None,
            "stones": {RED: position.red.bit_count(), BLUE: position.blue.bit_count()},
            "winner": winner,
            "chain": _names(grid, chain_of),
            "over": g.is_over(),
            "result": g.result(),
            "record": g.record_text(),
            "position": str(position),
            "can_undo": self._undo_to(g, humans) is not None,
            **({"analysis": self.analysis_of(position)} if analysis is True else {}),
        }

    def analysis_of(self, position: Position) -> dict[str, dict[str, Any]] | None:
        """For each legal placement of the side to move, ``{"result": "win" | "loss", "placements": n}``
        for the mover with perfect play, counting it (a placement that wins at once has 1); ``{}`` once
        the game is over. None where the tables cannot say: a size without them (or with them damaged),
        or a custom start that play from the empty board never reaches.

        >>> api = Api()
        >>> first = api.analysis_of(Position.empty(3))
        >>> {name: a for name, a in first.items() if a["result"] == "win"}
        {'a2': {'result': 'win', 'placements': 9}, 'c2': {'result': 'win', 'placements': 9}}
        >>> api.analysis_of(Position.empty(6)) is None
        True
        """
        grid = position.grid
        if grid.n not in solved_sizes():
            return None
        try:
            tables = tables_for(grid.n)
            if not tables.holds(position):
                return None
            moves = tables.moves(position)
        except NakedDiagonalError:  # damaged tables: the page's level 6 says so at its first move
            return None
        return {grid.name(p): {"result": result, "placements": n} for p, (result, n) in sorted(moves.items())}

    def explain(self, game: Any, move: Any) -> dict[str, Any] | None:
        """Why the side to move may not place on ``move`` now, for the board to show; None when it may.

        Always ``kind`` (the ban's kind, :mod:`.bans`), ``move`` (the point's name), ``colour`` (the
        side to move) and ``text`` (one line for the player), as Unitile's ``explain``. ``kind``
        "occupied"; "naked": ``partner``, the diagonal neighbour the stone would form a naked diagonal
        with, and ``shared``, the two points next to both (neither holds the colour); "nde": ``area``,
        the empty area the placement would leave that no sequence of placements can fill without a
        naked diagonal, ``bad`` and ``banned`` (the colours that could place nowhere in it: the area is
        BAD, banned and disconnected, when there is one) and ``culprit``, a part of the area that cannot
        be filled (a smallest one in areas of up to 11 points) and ``narrowed``, false when the search
        for that part was cut short (within a fixed amount of work: the culprit is then the whole area
        or a core of it, and ``text`` says so); "off_board" for a name of no point; "over" once a
        colour has won.
        """
        if not isinstance(move, str):
            raise NakedDiagonalError(f"move must be {self.move_text}")
        g = self.replay(game)
        grid = g.grid
        point = point_of(g, move)
        ban = OffBoard(g.board_text(), shown(move)) if point is None else g.ban(point)
        if ban is None:
            return None
        name = shown(move) if point is None else grid.name(point)
        out: dict[str, Any] = {"kind": ban.kind, "move": name, "colour": g.position.turn}
        if isinstance(ban, NakedDiagonal):
            out.update(partner=grid.name(ban.partner), shared=_names(grid, ban.shared(grid)))
        elif isinstance(ban, LeavesNDE):
            out.update(area=_names(grid, ban.area), bad=ban.bad, banned=list(ban.banned),
                       culprit=_names(grid, ban.culprit), narrowed=ban.narrowed)
        return {**out, "text": sentence(ban, grid)}

    # ----- review -----------------------------------------------------------------------------------

    def review(self, game: Any) -> dict[str, Any]:
        """Every turn of a game judged from the tables of its size (the ``nd_review`` request; the
        command line's ``nd review --json`` gives the same plies): ``{"plies": [...], "summary": ...}``.

        Each ply is ``{"ply": 1, 2, ..., "move": "b2" or "skip", "mover": "red" | "blue", "position":
        the position text before the turn, "before": {"outcome": "win" | "loss", "distance":
        placements}, "after": the same after the placement (counting it), "best": [the placements
        level 6 could choose, sorted], "verdict": "best" | "good" | "inaccuracy" | "mistake"}``
        (:func:`unitile_py.review.verdict`); a skipped turn is a ply of its own, ``move`` ``"skip"``,
        its verdict ``best`` (:mod:`unitile_py.naked_diagonal.review`). ``summary`` is ``{"red":
        {"mistakes", "inaccuracies", "accuracy"}, "blue": {...}}`` (:func:`unitile_py.review.accuracy`).
        Only the sizes with tables (3x3 and 4x4 here) have a review: another size, 5x5 (a strategy
        without distances) among them, is an error in one line, as is a start that play from the empty
        board never reaches.

        >>> row = Api().review({"size": 3, "moves": ["b2"]})["plies"][0]
        >>> row["before"], row["after"], row["best"], row["verdict"]
        ({'outcome': 'win', 'distance': 9}, {'outcome': 'loss', 'distance': 6}, ['a2', 'c2'], 'mistake')
        """
        tables = review_tables(self._start(game).grid.n)
        return review_game(self.replay(game), tables)

    # ----- puzzles ----------------------------------------------------------------------------------

    def load_puzzles(self, size: int, text: str | bytes) -> None:
        """Keep the puzzles of a size from the text of their file (the worker's; else they are read from
        ``tables/puzzles/`` when first asked for)."""
        self.puzzles.put(f"{size}x{size}", text)

    @staticmethod
    def _puzzle_check(board: str) -> puzzles.Check | None:
        """The check of a size's puzzles, once its tables are there (before, a puzzle is shown unchecked;
        its try needs the tables, and checks it)."""
        n = int(board.split("x")[0])
        return puzzle_check(n) if n in solved_sizes() else None

    def _puzzle(self, size: Any, index: Any, seed: Any, grade: Any) -> tuple[int, puzzles.Puzzle, int]:
        """The size asked for, the puzzle of it (checked: :class:`unitile_py.puzzles.Shelf`) and how many
        puzzles that size has."""
        n = size_of(size)
        return n, *self.puzzles.pick(f"{n}x{n}", index, seed, grade)

    def puzzle(self, size: Any = 4, index: Any = None, seed: Any = None, grade: Any = None) -> dict[str, Any]:
        """A puzzle of a solved size: number ``index``, else one chosen by ``seed`` (of ``grade``), without
        its solution (:func:`unitile_py.puzzles.shown`)."""
        _, p, count = self._puzzle(size, index, seed, grade)
        return puzzles.shown(p, count, "placements")

    def puzzle_try(self, index: Any, move: Any, size: Any = 4, moves: Any = None) -> dict[str, Any]:
        """Whether a placement on ``move`` solves puzzle ``index``: ``right`` with the solution, or the
        reason from the tables ("it loses in N"); a banned placement is one line saying why. With
        ``moves``, the turns played since the puzzle's position (Red's and the computer's), whether
        Red's next placement keeps the win (:func:`unitile_py.puzzles.verdict`)."""
        n, p, _ = self._puzzle(size, index, None, None)
        done = puzzles.played(moves)
        game = {"size": n, "start": p.position, "moves": done}
        g = self.replay(game)
        if g.position.turn != RED and not g.is_over():
            raise NakedDiagonalError("it is Blue's turn: the computer answers the puzzle's moves")
        ban = self.explain(game, move)
        if ban is not None:
            raise NakedDiagonalError(str(ban["text"]))
        position = g.position
        point = position.grid.point(str(move).strip(), "point")
        result = tables_for(n).after(position, point)
        return puzzles.verdict(position.grid.name(point), p, result, "placements", not done)

    # ----- computer ---------------------------------------------------------------------------------

    def _playable(self, game: Any) -> Game:
        g = super()._playable(game)
        if not g.legal_moves():
            raise NakedDiagonalError("nobody can place in this position")
        return g

    def hint(self, game: Any) -> str:
        """The placement the strongest level of the board's size would choose (the same every time for
        a position): level 6's (perfect play) where the size has tables or a stored proof, else level 5's."""
        return finish(self.hint_steps(game))

    def hint_steps(self, game: Any) -> Steps[str]:
        """:meth:`hint` in pieces (see :mod:`unitile_py.webapi`): the same placement."""
        g = self._playable(game)
        position, grid = g.position, g.grid
        point, _ = yield from hint_steps(position, str(default_root()))
        return grid.name(point)

    def hint_source(self, game: Any) -> str:
        """Where the hint of the game's position comes from, for the page to say: ``"the tables"``,
        ``"the stored proof"``, ``"an exact search"``, ``"not in the stored proof: level 5's choice"``,
        a defence of level 5, or ``"level 5"``."""
        return finish(self.hint_source_steps(game))

    def hint_source_steps(self, game: Any) -> Steps[str]:
        """:meth:`hint_source` in pieces (see :mod:`unitile_py.webapi`): the same words. The search it
        may need is the hint's own, remembered for both requests."""
        g = self._playable(game)
        return (yield from source_steps(g.position, str(default_root())))

    def computer_move(self, game: Any, level: Any, seed: Any) -> str:
        """The placement computer ``level`` chooses; the same game, level and seed give the same one."""
        return finish(self.computer_move_steps(game, level, seed))

    def computer_move_steps(self, game: Any, level: Any, seed: Any) -> Steps[str]:
        """:meth:`computer_move` in pieces (see :mod:`unitile_py.webapi`): the same placement. Between
        its pieces other requests may replay other games, so it keeps only its position."""
        level, seed = service.level_and_seed(level, seed, (*LEVELS, PERFECT), NakedDiagonalError)
        g = self._playable(game)
        if level not in levels_for(g.grid.n):
            names = [f"{n}x{n}" for n in perfect_sizes() if n in SIZES]
            sizes = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
            sizes = sizes or "no board of this site"
            here = f"{g.grid.n}x{g.grid.n}"
            raise NakedDiagonalError(f"level {level} (perfect play) plays on {sizes} only, not on {here}")
        player = _player(level, seed)
        steps = getattr(player, "steps", None)
        position = g.position
        if isinstance(player, PerfectPlayer):  # where it came from, for the page (hint_source)
            point, source = yield from player.why_steps(position)
            remember_source(position, str(default_root()), source)
        else:
            point = (yield from steps(position)) if steps is not None else player.choose(position)
        return service.checked_choice(self._playable(game), level, point, NakedDiagonalError)


#: The players of recent (level, seed) pairs: a search player keeps nothing between moves, but a
#: game asks for the same one every other turn.
_player: Callable[[int, int], Player[Position]] = lru_cache(maxsize=16)(make_player)


#: The service :func:`unitile_py.webapi.handle` routes the ``nd_`` requests to.
API = Api()

#: Naked Diagonal's requests by name.
OPS: dict[str, Callable[..., Any]] = {**service.requests_of(API), "hint_source": API.hint_source}
#: The requests that can be answered in pieces, each by a generator (see :mod:`unitile_py.webapi`).
STEPS: dict[str, Callable[..., Steps[Any]]] = {
    # On a start the page has not seen, the legality engine's work in pieces first (:mod:`.warming`).
    "hint": warmed(API.hint_steps, API.replay, side=True, stepped=True),
    "hint_source": warmed(API.hint_source_steps, API.replay, side=True, stepped=True),
    "computer_move": warmed(API.computer_move_steps, API.replay, side=True, stepped=True),
    "state": warmed(API.state, API.replay, side=True),
    "play": warmed(API.play, API.replay, side=False),
    "explain": warmed(API.explain, API.replay, side=False),
    "undo": warmed(API.undo, API.replay, side=False),
    "salvage": warmed(API.salvage, None, side=False),
    "load": warmed(API.load, None, side=False, of_record=True),
}

__all__ = ["API", "OPS", "SIZES", "STEPS", "Api", "manifest_alone", "plain_game"]
