"""The one list of games: what every shared part (the web API, both command lines, the site's build and
its worker, the import-rule test) needs to know of a game, as data.

Each game is a frozen :class:`GameSpec`; :data:`GAMES` lists them. The shared modules read the list and
import a game's modules by the names its spec gives (:func:`load`), so a game is added by its own
subpackage and its entry here, and no shared module names a game. A test adds a game of its own for a
while with :func:`added`.

>>> [(g.key, g.prefix, g.command) for g in games()]
[('unitile', 'ut_', 'unitile'), ('nd', 'nd_', 'naked-diagonal')]
>>> by_key("nd").name
'Naked Diagonal'
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Literal

#: When the site's worker writes a game's table files into Python's file system: while the interpreter
#: starts (before its snapshot), or on the game's first request.
TableTime = Literal["boot", "first-request"]


@dataclass(frozen=True)
class GameSpec:
    """One game, as the shared parts see it.

    * ``key``: its short name (the site's ``data-game``, build.json's ``games`` key, the worker's
      ``?game=``); ``name``: its name as players read it, ``summary`` what kind of game it is;
      ``author`` gets the credit and ``rules`` says where its rules documents are.
    * ``package``: its subpackage, in ``unitile_py`` and in ``pipeline`` alike.
    * ``prefix``: the start of its request names in the web API (``ut_play``); ``request_aliases``: other
      prefixes its requests also answer to (Unitile's bare names, from before it had a prefix).
    * ``service``: the module whose ``OPS`` maps request names to callables and ``STEPS`` the requests
      answered in steps (:mod:`unitile_py.webapi`).
    * ``command`` and ``command_aliases``: its subcommand group of ``python -m unitile_py``; ``cli``: the
      module whose ``register(subparsers)`` adds its commands; ``commands_at_top``: they are also
      top-level commands (Unitile's, from before it had a group).
    * ``pipeline``: the module whose ``register(subparsers)`` adds its ``python -m pipeline`` commands
      (empty: none); ``kernels``: the module whose ``compile_kernels(folder)`` compiles its numba kernels
      into numba's cache by a small real run in a scratch folder (``python -m pipeline compile-kernels``).
    * ``preload``: the modules the site's worker imports before it keeps its interpreter snapshot.
    * ``tables``: the folders under ``tables/`` the site ships (shell patterns; a folder is shipped when
      it has a ``manifest.json``), written into Python's file system at ``tables_when``;
      ``load_tables``: the request that loads them once written (empty: the game reads its files when
      it needs them). ``page_data``: files under ``tables/`` the pages read themselves.
    """

    key: str
    name: str
    summary: str
    package: str
    prefix: str
    service: str
    command: str
    cli: str
    author: str = "Mark Steere"
    rules: str = "marksteeregames.com"
    request_aliases: tuple[str, ...] = ()
    command_aliases: tuple[str, ...] = ()
    commands_at_top: bool = False
    pipeline: str = ""
    kernels: str = ""
    preload: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    tables_when: TableTime = "first-request"
    load_tables: str = ""
    page_data: tuple[str, ...] = ()


UNITILE = GameSpec(
    key="unitile", name="Unitile", summary="the sliding-tile game", package="unitile",
    prefix="ut_", request_aliases=("",), service="unitile_py.unitile.webapi",
    command="unitile", command_aliases=("ut",), cli="unitile_py.unitile.cli", commands_at_top=True,
    pipeline="pipeline.unitile.cli", kernels="pipeline.unitile.kernel_warmup",
    preload=("unitile_py.unitile.tables", "unitile_py.unitile.players", "unitile_py.mcts"),
    tables=("5x5",), tables_when="boot", load_tables="load_tables",
)
NAKED_DIAGONAL = GameSpec(
    key="nd", name="Naked Diagonal", summary="the connection game", package="naked_diagonal",
    prefix="nd_", service="unitile_py.naked_diagonal.webapi",
    command="naked-diagonal", command_aliases=("nd",), cli="unitile_py.naked_diagonal.cli",
    pipeline="pipeline.naked_diagonal.cli", kernels="pipeline.naked_diagonal.kernel_warmup",
    preload=("unitile_py.naked_diagonal.players", "unitile_py.naked_diagonal.search"),
    tables=("naked-diagonal/[3-9]x[3-9]", "naked-diagonal/1[0-3]x1[0-3]"),  # the sizes the page offers
    page_data=("naked-diagonal/*.json",),
)
#: Every game, in the order the command line's help and the site list them.
GAMES: list[GameSpec] = [UNITILE, NAKED_DIAGONAL]


def games() -> tuple[GameSpec, ...]:
    """The games registered now."""
    return tuple(GAMES)


def by_key(key: str) -> GameSpec:
    """The game called ``key``; :class:`KeyError` for none."""
    for game in GAMES:
        if game.key == key:
            return game
    raise KeyError(key)


def title(game: GameSpec) -> str:
    """One line presenting a game with its credit: "Unitile, the sliding-tile game by Mark Steere"."""
    return f"{game.name}, {game.summary} by {game.author}"


def load(module: str) -> ModuleType:
    """A game's module, by the dotted name its spec gives."""
    return importlib.import_module(module)


@contextmanager
def added(game: GameSpec) -> Iterator[GameSpec]:
    """Register ``game`` until the block ends (tests plug in a game of their own this way)."""
    if any(g.key == game.key or g.prefix == game.prefix or g.command == game.command for g in GAMES):
        raise ValueError(f"game {game.key!r}: its key, prefix or command is taken")
    GAMES.append(game)
    try:
        yield game
    finally:
        GAMES.remove(game)


__all__ = ["GAMES", "NAKED_DIAGONAL", "UNITILE", "GameSpec", "added", "by_key", "games", "load", "title"]
