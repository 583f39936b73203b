"""Tic-tac-toe: a third game that plugs into the shared plumbing by its registry entry alone
(tests/test_third_game.py; docs/architecture.md, "Adding a game")."""

from unitile_py.registry import GameSpec

SPEC = GameSpec(
    key="ttt", name="Tic-tac-toe", summary="the pencil-and-paper game", package="tictactoe",
    author="tradition", rules="any book of games",
    prefix="ttt_", service="tests.tictactoe.webapi",
    command="tic-tac-toe", command_aliases=("ttt",), cli="tests.tictactoe.cli",
)
