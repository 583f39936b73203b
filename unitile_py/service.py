"""What both games' web services share: the checks of what the page sends, a few phrases for the
player, the steps of replaying, salvaging and undoing a game that both take, and the names of the
requests each service answers (:mod:`unitile_py.webapi` routes them).

>>> whole(3, "level"), humans_of(["r"]), shown(" C4 "), were(2, "slide"), common_prefix("abc", "abd")
(3, ('r',), 'c4', '2 slides were', 2)
>>> whole(True, "seed")
Traceback (most recent call last):
...
unitile_py.errors.GameError: seed must be a whole number
>>> play_link(["a1", "B2", "c3"], lambda name: "is no move" if name == "B2" else None, "move")
'move 2 of the link, b2, is no move, so it and the 1 after it were not played'
>>> undo_to([4, -1, 7, 2], "rbrb".__getitem__, ["b"], skip=-1), undo_to([4, 7], "rb".__getitem__, [])
(3, 1)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from .colours import BLUE, RED
from .coords import quote
from .errors import GameError
from .inputs import MAX_RECORD_BYTES
from .record_files import split_games
from .records import RESULTS, split_record

#: The requests each game's service answers (the worker's ``op``; Naked Diagonal's carry ``nd_``).
REQUESTS = (
    *("info", "new_game", "state", "play", "undo", "load"),
    *("salvage", "explain", "hint", "computer_move", "review", "puzzle", "puzzle_try", "records"),
)


class Replayable(Protocol):
    """What :func:`replay_onto` needs of a game."""

    def pop(self) -> int:
        """Take back the last move."""
        ...

    def push_name(self, name: str) -> None:
        """Play a move named in the notation; :class:`GameError` for an illegal one."""
        ...


class Judged(Protocol):
    """What :func:`checked_choice` needs of a game."""

    def why_illegal(self, move: int) -> str | None:
        """None for a legal move, else why not."""
        ...

    def name_of(self, move: int) -> str:
        """A move as the notation writes it."""
        ...


class ServedGame(Replayable, Judged, Protocol):
    """What :class:`Service` needs of a game (each game's ``Game``)."""

    @property
    def skip(self) -> int | None:
        """The move that stands for a skipped turn, if the game has one."""
        ...

    @property
    def moves(self) -> tuple[int, ...]:
        """The moves so far."""
        ...

    def mover(self, ply: int) -> str:
        """The colour that made move number ``ply``."""
        ...

    def is_over(self) -> bool:
        """True once a colour has won."""
        ...


R = TypeVar("R", bound=Replayable)
G = TypeVar("G", bound=ServedGame)


def whole(value: Any, what: str) -> int:
    """A whole number from the page (not a bool, a float or a string)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameError(f"{what} must be a whole number")
    if abs(value) >= 1 << 63:
        raise GameError(f"{what} is too large")
    return value


def humans_of(value: Any) -> tuple[str, ...]:
    """The colours played by people: a list of ``"r"`` and ``"b"``."""
    if not isinstance(value, (list, tuple)) or not all(v in (RED, BLUE) for v in value):
        raise GameError('humans must be a list of "r" and "b"')
    return tuple(value)


def shown(name: Any) -> str:
    """A name from the page, as a player would write it: lower case, quoted if it is no cell name."""
    text = str(name).strip()
    lowered = text.lower()
    if lowered and len(lowered) <= 4 and lowered.isascii() and lowered.isalnum():
        return lowered
    return quote(text)


def were(count: int, noun: str) -> str:
    """``"1 slide was"``, ``"3 slides were"``."""
    return f"{count} {noun} was" if count == 1 else f"{count} {noun}s were"


def common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    """How many first items ``a`` and ``b`` share (a replay keeps that many moves of the last game)."""
    keep = 0
    while keep < min(len(a), len(b)) and a[keep] == b[keep]:
        keep += 1
    return keep


def not_played(after: int) -> str:
    """The end of a sentence on a link's bad move with ``after`` more behind it."""
    return f"so it and the {after} after it were not played" if after else "so it was not played"


def moves_lost(moves: Any, noun: str) -> str:
    """The end of a sentence on a link whose start is refused: how many of its moves were not played."""
    return f" and its {were(len(moves), noun)} not played" if isinstance(moves, list) and moves else ""


#: The most turns a game may have: more than either game's rules allow (a Naked Diagonal game has a turn
#: per point and a skip at most between two; with its tables, a Unitile slide lowers a sum of values or
#: ends the game), and few enough for a record (:data:`~unitile_py.records.MAX_RECORD`) to hold and load
#: again. Without Unitile's tables every slide next to the bubble is legal: nothing else bounds a game,
#: so Unitile's :class:`~unitile_py.unitile.game.Game` refuses a slide after this many
#: (:class:`unitile_py.bans.TooLong`).
MAX_TURNS = 10_000


def names_of(game: dict[str, Any], what: str, error: type[GameError]) -> list[str]:
    """The ``moves`` of a plain game: a list of texts, each a ``what`` (or an empty list for none), at
    most :data:`MAX_TURNS` of them."""
    names = game.get("moves") or []
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise error(f"game: moves must be a list of {what}")
    if len(names) > MAX_TURNS:
        raise error(f"game: more than {MAX_TURNS:,} moves, the most a game may have")
    return names


def replay_onto(
    game: R, played: Sequence[str], wanted: Sequence[str], names: Sequence[str] | None = None
) -> R:
    """``game``, whose moves are named ``played``, brought to the moves named ``wanted``: the moves after
    the beginning both share are taken back, and the rest of ``names`` (``wanted`` as the page wrote
    them, the default ``wanted``) pushed, each checked by the rules."""
    keep = common_prefix(played, wanted)
    for _ in range(len(played) - keep):
        game.pop()
    for name in (wanted if names is None else names)[keep:]:
        game.push_name(name)
    return game


def play_link(names: Any, step: Callable[[Any], str | None], noun: str) -> str | None:
    """Play the moves of a link in turn: ``step`` plays one, or returns why it cannot (the end of a
    sentence that starts with its name). The problem for the player: None when every move was played
    (or ``names`` is no list), else one line on the first move refused and on how many follow it. Moves
    after the first :data:`MAX_TURNS` are refused: no game is that long."""
    if not isinstance(names, list):
        return None
    for i, name in enumerate(names):
        why = step(name) if i < MAX_TURNS else f"comes after {MAX_TURNS:,} moves, the most a game may have"
        if why is not None:
            return f"{noun} {i + 1} of the link, {shown(name)}, {why}, {not_played(len(names) - i - 1)}"
    return None


def undo_to(
    moves: Sequence[int], mover: Callable[[int], str], humans: Sequence[str], skip: int | None = None
) -> int | None:
    """How many moves undo keeps: all before the last move by one of ``humans`` (with no human
    players, the last move); ``skip`` stands for a skipped turn, which is never taken back alone.
    None when there is nothing to take back. ``mover(ply)`` is the colour that made move ``ply``."""
    for ply in range(len(moves) - 1, -1, -1):
        if moves[ply] == skip:
            continue
        if not humans or mover(ply) in humans:
            return ply
    return None


def ply_of(ply: Any, plies: int, error: type[GameError]) -> int:
    """The ply the page asks to see in a game of ``plies`` (None: the last)."""
    if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int)):
        raise error("ply must be a whole number")
    end = plies if ply is None else ply
    if not 0 <= end <= plies:
        raise error(f"ply {end} is outside 0..{plies}")
    return end


#: The headers a record writes from the game itself (which game, its board, its start): the page's
#: headers never replace them, or the record would name another board or game than it holds.
GAME_HEADERS = frozenset({"Game", "Board", "Position"})


def headers_of(headers: Any, error: type[GameError]) -> dict[str, str]:
    """The record headers the page sends (an object, or None for none) as text, without
    :data:`GAME_HEADERS`."""
    if headers is not None and not isinstance(headers, dict):
        raise error("headers must be an object")
    return {str(k): str(v) for k, v in (headers or {}).items() if str(k) not in GAME_HEADERS}


def level_and_seed(level: Any, seed: Any, levels: Sequence[int], error: type[GameError]) -> tuple[int, int]:
    """The computer level (one of ``levels``) and seed the page asks for."""
    level, seed = whole(level, "level"), whole(seed, "seed")
    if level not in levels:
        raise error(f"level {level}: expected one of {', '.join(map(str, levels))}")
    return level, seed


def checked_choice(game: Judged, level: int, move: int, error: type[GameError]) -> str:
    """The name of the move a computer ``level`` chose, checked by the game's rules."""
    why = game.why_illegal(move)
    if why is not None:
        raise error(f"level {level} chose {game.name_of(move)}: {why}")
    return game.name_of(move)


def requests_of(service: object) -> dict[str, Callable[..., Any]]:
    """A service's methods by the name of the request each answers (:data:`REQUESTS`)."""
    return {name: getattr(service, name) for name in REQUESTS}


class Service(Generic[G]):
    """What both games' services for the page (each game's ``webapi.Api``) do alike: keep the last game
    replayed for the next call, salvage a link, play a move, undo, check a game before a computer move.

    A game's service says how a plain game is replayed and written (:meth:`replay`, :meth:`plain`),
    what a new game is, how the rest of a link is salvaged (:meth:`_salvage`), its error class and how
    it names a move.
    """

    #: The game's error class: every refusal is one.
    error: type[GameError] = GameError
    #: What the page should send as a move, for the error on anything else.
    move_text = "a move name"
    #: The game's ``state`` request: what the page draws for a plain game (each game's own arguments).
    state: Callable[..., dict[str, Any]]
    #: The game's ``load`` request: the plain game of a record's text.
    load: Callable[[Any], dict[str, Any]]

    def __init__(self) -> None:
        self._last: G | None = None

    def new_game(self) -> dict[str, Any]:
        """The plain form of a new game."""
        raise NotImplementedError

    def replay(self, game: Any) -> G:
        """The game of a plain game, every move checked; the game's error names the first bad one."""
        raise NotImplementedError

    def plain(self, g: G, upto: int | None = None) -> dict[str, Any]:
        """The plain form of a game (of its first ``upto`` moves)."""
        raise NotImplementedError

    def _salvage(self, game: dict[str, Any]) -> dict[str, Any]:
        """:meth:`salvage` of an object."""
        raise NotImplementedError

    def salvage(self, game: Any) -> dict[str, Any]:
        """The longest playable beginning of a game that may be damaged (a link typed, cut or edited by
        hand), with the names in their usual spelling, and ``problem``: None, or one line for the
        player on what was left out and why. Never raises for bad content.
        """
        if not isinstance(game, dict):
            return {"game": self.new_game(), "problem": "the link holds no game"}
        return self._salvage(game)

    def play(self, game: Any, move: Any, view: Any = None) -> dict[str, Any]:
        """The game with one more move by the side to move; the move must be legal. With ``view`` (the
        arguments of the game's ``state`` request but the game), the reply is ``{"game", "state"}``:
        the new game and what to draw after it, so that a move costs the page one request."""
        if not isinstance(move, str):
            raise self.error(f"move must be {self.move_text}")
        if view is not None and not isinstance(view, dict):
            raise self.error("view must be an object of the state request's arguments")
        g = self.replay(game)
        g.push_name(move)
        plain = self.plain(g)
        if view is None:
            return plain
        try:
            inspect.signature(self.state).bind(plain, **view)
        except TypeError as exc:
            raise self.error(f"view: {exc}") from None
        return {"game": plain, "state": self.state(plain, **view)}

    def records(self, text: Any) -> list[dict[str, Any]]:
        """The games of a file of records (the ``records`` request: the page's record dialog offers them
        to choose from), split as the command line splits them (:func:`unitile_py.record_files.split_games`):
        one object a game, ``number`` (from 1), ``line`` (where it starts in ``text``), ``text`` (its
        record, for ``load``), ``headers``, ``moves`` (how many its record plays, None for a bad game),
        ``result`` (its record's, ``"*"`` when it has none) and ``error`` (None, or why ``load``
        refuses it, in one line). A text of one game is one game, whatever it holds."""
        if not isinstance(text, str):
            raise self.error("records: expected the text of a file of records")
        if len(text) > MAX_RECORD_BYTES:
            raise self.error(f"records: too long (more than {MAX_RECORD_BYTES:,} characters)")
        out = []
        for game in split_games(text):
            headers: dict[str, str] = {}
            moves: int | None = None
            result, error = "*", None
            try:
                tokens = split_record(game.text)
                headers = tokens.headers
                result = next((t for t in tokens.tokens[-1:] if t in RESULTS), "*")
                moves = len(self.load(game.text)["moves"])
            except GameError as exc:
                error = str(exc)
            out.append({"number": game.number, "line": game.line, "text": game.text, "headers": headers,
                        "moves": moves, "result": result, "error": error})  # fmt: skip
        return out

    def _undo_to(self, g: G, humans: Any) -> int | None:
        """The number of moves :meth:`undo` keeps (see :func:`undo_to`), or None."""
        return undo_to(g.moves, g.mover, humans_of(humans), g.skip)

    def undo(self, game: Any, humans: Sequence[str]) -> dict[str, Any]:
        """Take back the last move made by a human, with the computer's replies after it (and a skipped
        turn after it); with no human players (computer against computer), the last move. The game's
        error when there is nothing to take back (see ``can_undo`` in the service's ``state``)."""
        g = self.replay(game)
        keep = self._undo_to(g, humans)
        if keep is None:
            raise self.error("nothing to take back")
        return self.plain(g, keep)

    def _playable(self, game: Any) -> G:
        """The game of a plain game that a computer player is asked to move in."""
        g = self.replay(game)
        if g.is_over():
            raise self.error("the game is over")
        return g


__all__ = [
    "GAME_HEADERS",
    "MAX_TURNS",
    "REQUESTS",
    "Judged",
    "Replayable",
    "ServedGame",
    "Service",
    "checked_choice",
    "common_prefix",
    "headers_of",
    "humans_of",
    "level_and_seed",
    "moves_lost",
    "names_of",
    "not_played",
    "play_link",
    "ply_of",
    "replay_onto",
    "requests_of",
    "shown",
    "undo_to",
    "were",
    "whole",
]
