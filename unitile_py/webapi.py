"""The browser's view of Unitile: plain-data calls over unitile_py for the site's Web Worker.

Every call takes and returns plain data (dicts, lists, strings, numbers, booleans, None), so the
worker can pass it across as JSON. A *game* is ``{"start": position text or None, "moves": [names]}``;
``start`` None means the usual start of the 5x5 board. The page owns the game (it also lives in the
URL); each call replays it here, checking every move against the value rule, so a stale or hand-made
game can never put the worker into a state the page does not know about.

The lookup tables and the computer players are imported only when first needed, so the game logic
loads quickly and this module also works where they are absent (then every slide counts as legal
and there are no computer players; :meth:`Api.info` says so).

>>> api = Api()
>>> game = api.new_game()
>>> game = api.play(game, "c4")
>>> state = api.state(game)
>>> state["turn"], state["bubble"], state["last"]
('b', 'c4', {'from': 'c4', 'to': 'c3'})
>>> api.state(api.undo(game, humans=["r", "b"]))["record"]
'*\\n'
>>> handle('{"op": "play", "args": {"game": {"start": null, "moves": []}, "move": "a1"}}')
'{"ok": false, "error": "move \\'a1\\' is not legal here: a1 is not next to the bubble"}'
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .board import Board
from .errors import UnitileError
from .notation import Record, format_position, format_record, parse_position, parse_record
from .position import BLUE, RED, Position

#: The board the site plays (the tables cover exactly this board).
BOARD = Board.get(5, 5)
#: Computer levels, weakest first; 6 plays perfectly.
LEVELS = (1, 2, 3, 4, 5, 6)


class TablesLike(Protocol):
    """What the site needs from :class:`unitile_py.tables.Tables`."""

    def legal(self, position: Position) -> tuple[int, ...]: ...

    def outcome(self, position: Position) -> tuple[str, int]: ...

    def best(self, position: Position) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Replay:
    """A replayed game: the start, the moves (cells) and every position along the way."""

    start: Position
    moves: tuple[int, ...]
    positions: tuple[Position, ...]

    @property
    def position(self) -> Position:
        """The position after the last move."""
        return self.positions[-1]

    def mover(self, ply: int) -> str:
        """The colour that made move number ``ply`` (0-based)."""
        return self.positions[ply].turn


def _plain_game(start: Position, moves: Sequence[int]) -> dict[str, Any]:
    """The plain-data form of a game."""
    standard = start == Position.start(start.board)
    return {
        "start": None if standard else format_position(start),
        "moves": [start.board.name(c) for c in moves],
    }


class Api:
    """One board's game service for the page; the tables and players are optional and found lazily."""

    def __init__(self, board: Board = BOARD, tables: TablesLike | None = None) -> None:
        self.board = board
        self.tables: TablesLike | None = tables
        self._players: dict[tuple[int, int], Any] = {}
        self._last: Replay | None = None

    # ----- set-up -------------------------------------------------------------------------------

    def load_tables(self, files: dict[str, bytes] | None = None, directory: str | None = None) -> None:
        """Load the lookup tables, from bytes already in memory (the browser) or from a directory."""
        from .tables import Tables

        if files is not None:
            self.tables = Tables.from_files(str(self.board), files)
        else:
            self.tables = Tables.load(str(self.board), directory)
        self._players.clear()
        self._last = None

    def info(self) -> dict[str, Any]:
        """What this service can do: board size, whether tables and computer players are present."""
        return {
            "board": {"rows": self.board.rows, "cols": self.board.cols},
            "names": [self.board.name(c) for c in range(self.board.cells)],
            "tables": self.tables is not None,
            "players": self.tables is not None and _players_module() is not None,
            "levels": list(LEVELS),
        }

    # ----- games --------------------------------------------------------------------------------

    def new_game(self) -> dict[str, Any]:
        """The plain form of a game at the start."""
        return {"start": None, "moves": []}

    def legal(self, position: Position) -> tuple[int, ...]:
        """Cells of the legal slides: none once a colour is united; every slide without tables."""
        if position.winner() is not None:
            return ()
        if self.tables is None:
            return tuple(sorted(position.slides()))
        return tuple(self.tables.legal(position))

    def replay(self, game: dict[str, Any]) -> Replay:
        """Check a plain game move by move; raises :class:`UnitileError` naming the first bad move."""
        start_text = game.get("start")
        start = Position.start(self.board) if start_text is None else parse_position(str(start_text))
        if start.board is not self.board:
            raise UnitileError(f"game: this page plays on a {self.board} board, not {start.board}")
        names = game.get("moves") or []
        if not isinstance(names, list):
            raise UnitileError("game: moves must be a list of cell names")
        last = self._last
        if (
            last is not None
            and last.start == start
            and len(last.moves) <= len(names)
            and [self.board.name(c) for c in last.moves] == names[: len(last.moves)]
        ):
            return self._extend(last, names[len(last.moves) :])
        return self._extend(Replay(start, (), (start,)), names)

    def _extend(self, game: Replay, names: Sequence[str]) -> Replay:
        moves, positions = list(game.moves), list(game.positions)
        for name in names:
            cell = self._legal_cell(positions[-1], str(name), len(moves) + 1)
            moves.append(cell)
            positions.append(positions[-1].play(cell))
        out = Replay(game.start, tuple(moves), tuple(positions))
        self._last = out
        return out

    def _legal_cell(self, position: Position, name: str, ply: int) -> int:
        if position.winner() is not None:
            raise UnitileError(f"move {name!r} (ply {ply}) comes after the game has ended")
        try:
            cell = self.board.cell(name)
        except UnitileError as exc:
            raise UnitileError(f"ply {ply}: {exc}") from None
        if cell not in position.slides():
            raise UnitileError(f"move {name!r} is not legal here: {name} is not next to the bubble")
        if cell not in self.legal(position):
            raise UnitileError(
                f"move {name!r} is not legal here: it neither unites a colour nor lowers the total value"
            )
        return cell

    def play(self, game: dict[str, Any], move: str) -> dict[str, Any]:
        """The game with one more move; the move must be legal."""
        g = self.replay(game)
        cell = self._legal_cell(g.position, move, len(g.moves) + 1)
        return _plain_game(g.start, (*g.moves, cell))

    def undo(self, game: dict[str, Any], humans: Sequence[str]) -> dict[str, Any]:
        """Take back the last move made by a human, with the computer's replies after it.

        With no human players (computer against computer) it takes back one move. Raises
        :class:`UnitileError` when there is nothing to take back (see ``can_undo`` in :meth:`state`).
        """
        g = self.replay(game)
        keep = self._undo_to(g, humans)
        if keep is None:
            raise UnitileError("nothing to take back")
        return _plain_game(g.start, g.moves[:keep])

    @staticmethod
    def _undo_to(g: Replay, humans: Sequence[str]) -> int | None:
        """The number of moves that undo keeps, or None when there is nothing to take back."""
        if not g.moves:
            return None
        if not humans:
            return len(g.moves) - 1
        for ply in range(len(g.moves) - 1, -1, -1):
            if g.mover(ply) in humans:
                return ply
        return None

    def load(self, text: str) -> dict[str, Any]:
        """A game from record text; every move is checked against the value rule."""
        if len(text) > 100_000:
            raise UnitileError("record: too long (more than 100,000 characters)")
        record = parse_record(text)
        if record.start.board is not self.board:
            raise UnitileError(f"record: this page plays on a {self.board} board, not {record.start.board}")
        position = record.start
        for ply, cell in enumerate(record.moves, 1):
            self._legal_cell(position, self.board.name(cell), ply)
            position = position.play(cell)
        return _plain_game(record.start, record.moves)

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
        end = len(g.moves) if ply is None else int(ply)
        if not 0 <= end <= len(g.moves):
            raise UnitileError(f"ply {end} is outside 0..{len(g.moves)}")
        position = g.positions[end]
        name = self.board.name
        winner = position.winner()
        legal = self.legal(position)
        red_groups, blue_groups = position.group_counts()
        last = None
        if end > 0:
            last = {"from": name(g.moves[end - 1]), "to": name(g.positions[end - 1].bubble)}
        result = "1-0" if g.position.winner() == RED else "0-1" if g.position.winner() == BLUE else "*"
        record_headers = dict(headers or {})
        if g.start != Position.start(self.board):
            record_headers["Position"] = format_position(g.start)
        elif self.board is not Board.get(5, 5):
            record_headers["Board"] = str(self.board)  # records default to 5x5
        record = Record(g.start, list(g.moves), record_headers, result)
        keep = self._undo_to(g, humans)
        out: dict[str, Any] = {
            "ply": end,
            "plies": len(g.moves),
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
            "over": g.position.winner() is not None,
            "result": result,
            "record": format_record(record),
            "position": format_position(position),
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
        if self.tables is None:
            return None
        out: dict[str, dict[str, Any]] = {}
        for cell in self.legal(position):
            after = position.play(cell)
            winner = after.winner()
            if winner is not None:
                result, plies = ("win" if winner == position.turn else "loss"), 1
            else:
                theirs, n = self.tables.outcome(after)
                result, plies = ("loss" if theirs == "win" else "win"), n + 1
            out[self.board.name(cell)] = {"result": result, "plies": plies}
        return out

    # ----- computer -----------------------------------------------------------------------------

    def _require_players(self) -> Any:
        module = _players_module()
        if module is None or self.tables is None:
            raise UnitileError("the computer players need the lookup tables, which are not loaded")
        return module

    def hint(self, game: dict[str, Any], seed: int | None = None) -> str:
        """The slide that level 6 would choose: with ``seed``, exactly the slide that
        :meth:`computer_move` at level 6 with that seed plays (it breaks ties between equally good
        slides by the seed); without, the first of the equally good slides."""
        module = self._require_players()
        position = self._playable(game)
        if seed is None:
            return self.board.name(module.hint(position, self.tables))
        return self.computer_move(game, 6, seed)

    def computer_move(self, game: dict[str, Any], level: int, seed: int) -> str:
        """The slide that computer ``level`` chooses; the same game, level and seed give the same slide."""
        module = self._require_players()
        if int(level) not in LEVELS:
            raise UnitileError(f"level {level}: expected one of {', '.join(map(str, LEVELS))}")
        position = self._playable(game)
        key = (int(level), int(seed))
        player = self._players.get(key)
        if player is None:
            if len(self._players) > 16:
                self._players.clear()
            player = self._players[key] = module.make_player(int(level), int(seed), self.tables)
        cell = player.choose(position, module.position_rng(int(seed), position))
        if cell not in self.legal(position):
            raise UnitileError(f"level {level} chose {self.board.name(cell)}, which is not legal")
        return self.board.name(cell)

    def _playable(self, game: dict[str, Any]) -> Position:
        position = self.replay(game).position
        if position.winner() is not None:
            raise UnitileError("the game is over")
        return position


def _players_module() -> Any:
    """unitile_py.players, or None while it is not installed."""
    try:
        from . import players
    except ImportError:
        return None
    return players


#: The service the worker talks to through :func:`handle`.
API = Api()

_OPS: dict[str, Callable[..., Any]] = {
    "info": API.info,
    "new_game": API.new_game,
    "state": API.state,
    "play": API.play,
    "undo": API.undo,
    "load": API.load,
    "hint": API.hint,
    "computer_move": API.computer_move,
}


def handle(request: str) -> str:
    """Run one JSON request ``{"op": name, "args": {...}}``; the reply is ``{"ok": true, "result": ...}``
    or ``{"ok": false, "error": one line}`` for bad input."""
    try:
        message = json.loads(request)
        op = _OPS.get(message.get("op"))
        if op is None:
            raise UnitileError(f"unknown request {message.get('op')!r}")
        args = message.get("args") or {}
        if not isinstance(args, dict):
            raise UnitileError("request args must be an object")
        try:
            inspect.signature(op).bind(**args)
        except TypeError as exc:
            raise UnitileError(f"request {message.get('op')!r}: {exc}") from None
        result = op(**args)
        return json.dumps({"ok": True, "result": result})
    except UnitileError as exc:
        return json.dumps({"ok": False, "error": str(exc)})
    except json.JSONDecodeError as exc:
        return json.dumps({"ok": False, "error": f"request is not JSON: {exc.msg}"})


__all__ = ["API", "BOARD", "LEVELS", "Api", "Replay", "TablesLike", "handle"]
