"""The browser's view of Unitile: plain-data calls over unitile_py for the site's Web Worker.

Every call takes and returns plain data (dicts, lists, strings, numbers, booleans, None), so the
worker can pass it across as JSON. The worker reaches it through :func:`unitile_py.webapi.handle`. A *game* is
``{"start": position text or None, "moves": [names]}``;
``start`` None means the usual start of the 5x5 board. The page owns the game (it also lives in the
URL); each call replays it here through a :class:`unitile_py.unitile.game.Game`, which checks every move
against the rules, so a stale or hand-made game can never put the worker into a state the page does
not know about.

The lookup tables and the computer players are loaded only when asked for, so the game logic loads
quickly and this module also works where they are absent (then every slide counts as legal and
there are no computer players; :meth:`Api.info` says so).

>>> api = Api()
>>> game = api.new_game()
>>> game = api.play(game, "c4")
>>> state = api.state(game)
>>> state["turn"], state["bubble"], state["last"]
('b', 'c4', {'from': 'c4', 'to': 'c3'})
>>> api.state(api.undo(game, humans=["r", "b"]))["record"]
'*\\n'

A link may hold anything; :meth:`Api.salvage` keeps what can be played and says, to a player, why
the rest could not:

>>> fixed = api.salvage({"start": None, "moves": ["C4", "a1", "d4"]})
>>> fixed["game"]
{'start': None, 'moves': ['c4']}
>>> fixed["problem"]
'slide 2 of the link, a1, is not next to the empty cell, so it and the 1 after it were not played'
>>> api.explain(api.new_game(), "a1")
{'kind': 'not_adjacent', 'move': 'a1', 'colour': 'r', 'text': 'a1 is not next to the empty cell'}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import puzzles, service
from ..bans import OffBoard
from ..colours import BLUE, RED
from ..errors import GameError, UnitileError
from ..mcts import Steps, finish
from ..playing import Player
from ..seeds import position_rng
from ..service import shown
from . import players
from .bans import Refusal, clause, sentence
from .board import Board
from .game import Game
from .lookups import ADJACENT_ONLY, Lookups
from .notation import Record, check_start, format_record, parse_position, parse_record, start_headers
from .position import Position
from .puzzle_check import puzzle_check
from .review import review_game
from .tables import Tables

#: The board the site plays (the tables cover exactly this board).
BOARD = Board.get(5, 5)
#: Computer levels, weakest first; 6 plays perfectly.
LEVELS = players.LEVELS


def _plain_game(game: Game, upto: int | None = None) -> dict[str, Any]:
    """The plain-data form of a game (of its first ``upto`` moves)."""
    start = game.start
    standard = start == Position.start(start.board)
    moves = game.moves if upto is None else game.moves[:upto]
    return {
        "start": None if standard else str(start),
        "moves": [start.board.name(c) for c in moves],
    }


class Api(service.Service[Game]):
    """One board's game service for the page; the tables and players are optional and loaded on request."""

    error = UnitileError
    move_text = "a cell name such as c4"

    def __init__(self, board: Board = BOARD, tables: Lookups | None = None) -> None:
        super().__init__()
        self.board = board
        self.tables: Lookups | None = tables
        self._players: dict[tuple[int, int], Player[Position]] = {}
        self.puzzles = puzzles.Shelf("unitile", self._puzzle_check)

    @property
    def rules(self) -> Lookups:
        """What judges the moves: the tables once loaded, else every slide counts as legal."""
        return self.tables if self.tables is not None else ADJACENT_ONLY

    # ----- set-up -------------------------------------------------------------------------------

    def load_tables(
        self, files: dict[str, bytes] | None = None, directory: str | None = None, check_records: bool = True,
        by_name: bool = False,
    ) -> None:
        """Load the lookup tables, from bytes already in memory or from a directory (``by_name``: a bad
        file is named by its name alone, see :meth:`Tables.load`); the browser passes
        ``check_records=False`` (:func:`~unitile_py.unitile.table_files.read_tables`)."""
        if files is not None:
            self.tables = Tables.from_files(str(self.board), files, check_records)
        else:
            self.tables = Tables.load(str(self.board), directory, check_records, by_name)
        self._players.clear()
        self._last = None

    def load_tables_request(self, directory: Any, check_records: Any = True) -> dict[str, Any]:
        """The ``load_tables`` request: load the tables from ``directory`` (where the site's worker wrote
        the shipped files; the worker skips ``check_records``, the sha256 of every file is checked
        anyway); the reply is :meth:`info`'s."""
        if not isinstance(directory, str) or not directory:
            raise UnitileError("load_tables: directory must be a folder name")
        if not isinstance(check_records, bool):
            raise UnitileError("load_tables: check_records must be true or false")
        self.load_tables(directory=directory, check_records=check_records, by_name=True)
        return self.info()

    def info(self) -> dict[str, Any]:
        """What this service can do: board size, whether tables and computer players are present."""
        return {
            "board": {"rows": self.board.rows, "cols": self.board.cols},
            "names": [self.board.name(c) for c in range(self.board.cells)],
            "tables": self.tables is not None,
            "players": self.tables is not None,
            "levels": list(LEVELS),
        }

    # ----- games --------------------------------------------------------------------------------

    def new_game(self) -> dict[str, Any]:
        """The plain form of a game at the start."""
        return {"start": None, "moves": []}

    def replay(self, game: dict[str, Any]) -> Game:
        """The game of a plain game, every move checked; :class:`UnitileError` names the first bad one.

        The last game replayed is kept and extended (or shortened) when the next one shares its start
        and a prefix of its moves, so that a call per move does not replay the whole game.
        """
        if not isinstance(game, dict):
            raise UnitileError("game: expected an object with start and moves")
        start_text = game.get("start")
        if start_text is not None and not isinstance(start_text, str):
            raise UnitileError("game: start must be a position text or null")
        start = Position.start(self.board) if start_text is None else check_start(parse_position(start_text))
        if start.board is not self.board:
            raise UnitileError(f"game: this page plays on a {self.board} board, not {start.board}")
        names = service.names_of(game, "cell names", UnitileError)
        g = self._last
        if g is None or g.start != start or g.rules is not self.rules:
            g = Game(start, self.rules)
        self._last = None  # in case a move below is refused half way
        played = [self.board.name(c) for c in g.moves]
        self._last = service.replay_onto(g, played, [n.strip().lower() for n in names], names)
        return g

    def plain(self, g: Game, upto: int | None = None) -> dict[str, Any]:
        """The plain form of a game (of its first ``upto`` moves)."""
        return _plain_game(g, upto)

    def _salvage(self, game: dict[str, Any]) -> dict[str, Any]:
        """:meth:`salvage` of an object: its start, else the usual one, and the slides that can be played."""
        start_text = game.get("start")
        start = Position.start(self.board)
        if start_text is not None:
            try:
                if not isinstance(start_text, str):
                    raise UnitileError("not a position text")
                start = check_start(parse_position(start_text))
                if start.board is not self.board:
                    raise UnitileError(f"it is for a {start.board} board")
            except GameError as exc:
                bad = f"the start position of the link is not valid ({exc}), so the usual start is shown"
                bad += service.moves_lost(game.get("moves"), "slide")
                return {"game": self.new_game(), "problem": bad}
        g = Game(start, self.rules)

        def step(name: Any) -> str | None:
            why = self._why(g, name)
            if why is None:
                g.push_name(name)
            return why

        problem = service.play_link(game.get("moves"), step, "slide")
        self._last = g  # the page asks for this game's state next
        return {"game": _plain_game(g), "problem": problem}

    def explain(self, game: dict[str, Any], move: Any) -> dict[str, Any] | None:
        """Why the tile on ``move`` may not slide now, or None when it may: ``kind`` (the ban's kind,
        :mod:`.bans`), ``move`` (the name as a player writes it), ``colour`` (the side to move) and
        ``text``, in a player's words, those of the rules page ("c3 would not lower the sum of the two
        values"). Naked Diagonal's ``explain`` has the same shape, with fields of its own besides."""
        if not isinstance(move, str):
            raise UnitileError(f"move must be {self.move_text}")
        g = self.replay(game)
        ban = self._ban(g, move)
        if ban is None:
            return None
        name = shown(move)
        return {"kind": ban.kind, "move": name, "colour": g.position.turn, "text": sentence(ban, name)}

    def _ban(self, g: Game, name: str) -> Refusal | None:
        """The ban on a slide from the cell ``name`` names (off the board for none); None for a legal one."""
        try:
            cell = self.board.cell(name)
        except GameError:
            return OffBoard(str(self.board), shown(name))
        return g.ban(cell)

    def _why(self, g: Game, name: Any) -> str | None:
        """Why a slide from ``name`` cannot be played, as the end of a player's sentence that starts
        with the cell's name (:func:`.bans.clause`); None for a legal slide."""
        if not isinstance(name, str):
            return "is not a cell name"
        ban = self._ban(g, name)
        return None if ban is None else clause(ban)

    def load(self, text: str) -> dict[str, Any]:
        """A game from record text; every move is checked against the rules."""
        if not isinstance(text, str):
            raise UnitileError("record must be text")
        record = parse_record(text)
        if record.start.board is not self.board:
            raise UnitileError(f"record: this page plays on a {self.board} board, not {record.start.board}")
        return _plain_game(Game.from_record(record, self.rules))

    # ----- what the page draws ------------------------------------------------------------------

    def state(
        self,
        game: dict[str, Any],
        humans: Sequence[str] = (RED, BLUE),
        ply: int | None = None,
        analysis: bool = False,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Everything the page draws for the position after ``ply`` moves (default: all of them).

        ``cells`` holds ``"r"``, ``"b"`` or ``"."`` per cell in reading order; ``legal`` and
        ``bubble`` use cell names; ``last`` is the latest slide (``from`` the cell the tile left, ``to``
        the cell it slid into); ``uniting`` lists the winner's cells; ``analysis`` (when asked for and
        the tables are loaded) maps each legal slide to the mover's result with perfect play after it.
        """
        g = self.replay(game)
        end = service.ply_of(ply, g.ply, UnitileError)
        position = g.positions[end]
        name = self.board.name
        winner = position.winner()
        legal = () if winner is not None or end >= service.MAX_TURNS else self.rules.legal(position)
        red_groups, blue_groups = position.group_counts()
        last = None
        if end > 0:
            last = {"from": name(g.moves[end - 1]), "to": name(g.positions[end - 1].bubble)}
        record_headers = service.headers_of(headers, UnitileError)
        record = Record(g.start, list(g.moves), {**record_headers, **start_headers(g.start)}, g.result())
        keep = self._undo_to(g, humans)
        out: dict[str, Any] = {
            "ply": end,
            "plies": g.ply,
            "moves": [name(c) for c in g.moves],
            "cells": [position.colour_at(c) or "." for c in range(self.board.cells)],
            "bubble": name(position.bubble),
            "turn": position.turn,
            "legal": [name(c) for c in legal],
            "groups": {RED: red_groups, BLUE: blue_groups},
            "last": last,
            "winner": winner,
            "uniting": [
                name(c) for c in range(self.board.cells) if winner and position.colour_at(c) == winner
            ],
            "over": g.is_over(),
            "result": g.result(),
            "record": format_record(record),
            "position": str(position),
            "can_undo": keep is not None,
            "tables": self.tables is not None,
        }
        if analysis:
            out["analysis"] = self.analysis_of(position)
        return out

    def analysis_of(self, position: Position) -> dict[str, dict[str, Any]] | None:
        """For each legal slide, ``{"result": "win"|"loss", "plies": n}`` for the mover with perfect play.

        ``plies`` counts from before the slide, so a slide that ends the game has ``plies`` 1.
        None without tables.
        """
        if self.tables is None or position.winner() is not None:
            return None if self.tables is None else {}
        return {
            self.board.name(cell): {"result": result, "plies": plies}
            for cell, (result, plies) in self.tables.moves(position).items()
        }

    # ----- review -------------------------------------------------------------------------------

    def review(self, game: dict[str, Any]) -> dict[str, Any]:
        """Every slide of a game judged from the tables (the ``review`` request; the command line's
        ``review --json`` gives the same plies): ``{"plies": [...], "summary": {...}}``.

        Each ply is ``{"ply": 1, 2, ..., "move": "c4", "mover": "red" | "blue", "position": the position
        text before the slide, "before": {"outcome": "win" | "loss", "distance": plies}, "after": the
        same after the slide (counting it), "best": [the slides level 6 could choose, sorted],
        "verdict": "best" | "good" | "inaccuracy" | "mistake"}`` (:func:`unitile_py.review.verdict`:
        ``mistake`` when the mover had a win and the slide loses it, ``best`` a slide of ``best``,
        ``inaccuracy`` a win kept but slower or a loss hastened); ``summary`` is ``{"red": {"mistakes",
        "inaccuracies", "accuracy"}, "blue": {...}}``, ``accuracy`` the side's share of slides that kept
        its result and of those that kept the distance (:func:`unitile_py.review.accuracy`). A game with
        no slides has no plies. Without the tables loaded, an error.

        >>> api = Api(Board.get(3, 3), Tables.load("3x3"))
        >>> review = api.review({"start": None, "moves": ["b1", "c1"]})
        >>> [(p["move"], p["verdict"]) for p in review["plies"]], review["summary"]["blue"]["mistakes"]
        ([('b1', 'inaccuracy'), ('c1', 'mistake')], 1)
        >>> review["summary"]["blue"]["accuracy"]
        {'moves': 1, 'kept_result': 0, 'kept_distance': 0, 'result': 0.0, 'distance': None}
        """
        if self.tables is None:
            raise UnitileError("the review needs the lookup tables, which are not loaded")
        return review_game(self.replay(game), self.tables)

    # ----- puzzles ------------------------------------------------------------------------------

    def load_puzzles(self, text: str | bytes) -> None:
        """Keep the board's puzzles from the text of their file (the worker's; else they are read from
        ``tables/puzzles/`` when first asked for)."""
        self.puzzles.put(str(self.board), text)

    def _puzzle_check(self, board: str) -> puzzles.Check | None:
        """The check of the board's puzzles, once its tables are loaded (before, a puzzle is shown
        unchecked; its try needs the tables, and checks it)."""
        tables = self.tables
        if tables is None or board != str(self.board):
            return None
        return puzzle_check(self.board, lambda: tables)

    def puzzle(self, index: Any = None, seed: Any = None, grade: Any = None) -> dict[str, Any]:
        """A puzzle: number ``index``, else one chosen by ``seed`` (of ``grade``), without its solution
        (:func:`unitile_py.puzzles.shown`)."""
        p, count = self.puzzles.pick(str(self.board), index, seed, grade)
        return puzzles.shown(p, count, "plies")

    def puzzle_try(self, index: Any, move: Any, moves: Any = None) -> dict[str, Any]:
        """Whether the slide from ``move`` solves puzzle ``index``: ``right`` with the solution, or the
        reason from the tables ("it loses in N"); an illegal slide is one line saying why. With
        ``moves``, the slides played since the puzzle's position (Red's and the computer's), whether
        Red's next slide keeps the win (:func:`unitile_py.puzzles.verdict`).

        >>> api = Api(Board.get(3, 3), Tables.load("3x3"))
        >>> p = api.puzzle(index=5)
        >>> right = api.puzzle_try(5, api.hint({"start": p["position"], "moves": []}))
        >>> right["right"], right["distance"] == p["distance"]
        (True, True)
        """
        tables = self._tables()
        p, _ = self.puzzles.pick(str(self.board), index, None, None)
        done = puzzles.played(moves)
        g = self.replay({"start": p.position, "moves": done})
        position = g.position
        if position.turn != RED and not g.is_over():
            raise UnitileError("it is Blue's turn: the computer answers the puzzle's moves")
        why = self._why(g, move)
        if why is not None:
            raise UnitileError(f"{shown(move)} {why}")
        cell = self.board.cell(move)
        return puzzles.verdict(self.board.name(cell), p, tables.after(position, cell), "plies", not done)

    # ----- computer -----------------------------------------------------------------------------

    def _tables(self) -> Lookups:
        if self.tables is None:
            raise UnitileError("the computer players need the lookup tables, which are not loaded")
        return self.tables

    def hint(self, game: dict[str, Any], seed: int | None = None) -> str:
        """The slide that level 6 would choose: with ``seed``, exactly the slide that
        :meth:`computer_move` at level 6 with that seed plays (it breaks ties between equally good
        slides by the seed); without, the first of the equally good slides."""
        tables = self._tables()
        if seed is None:
            return self.board.name(players.hint(self._playable(game).position, tables))
        return self.computer_move(game, players.PERFECT, seed)

    def computer_move(self, game: dict[str, Any], level: int, seed: int) -> str:
        """The slide that computer ``level`` chooses; the same game, level and seed give the same slide."""
        return finish(self.computer_move_steps(game, level, seed))

    def computer_move_steps(self, game: dict[str, Any], level: int, seed: int) -> Steps[str]:
        """:meth:`computer_move` in pieces (see :mod:`unitile_py.webapi`): the same slide. Between its
        pieces other requests may replay other games, so it keeps only its position."""
        tables = self._tables()
        level, seed = service.level_and_seed(level, seed, LEVELS, UnitileError)
        g = self._playable(game)
        key = (level, seed)
        player = self._players.get(key)
        if player is None:
            if len(self._players) > 16:
                self._players.clear()
            player = self._players[key] = players.make_player(level, seed, tables)
        position = g.position
        rng = position_rng(seed, position)
        steps = getattr(player, "steps", None)
        cell = (yield from steps(position, rng)) if steps is not None else player.choose(position, rng)
        return service.checked_choice(self._playable(game), level, cell, UnitileError)


#: The service :func:`unitile_py.webapi.handle` routes Unitile's requests to.
API = Api()
#: Unitile's requests by name.
OPS: dict[str, Callable[..., Any]] = {**service.requests_of(API), "load_tables": API.load_tables_request}
#: The requests that can be answered in pieces, each by a generator (see :mod:`unitile_py.webapi`).
STEPS: dict[str, Callable[..., Steps[Any]]] = {"computer_move": API.computer_move_steps}

__all__ = ["API", "BOARD", "LEVELS", "OPS", "STEPS", "Api"]
