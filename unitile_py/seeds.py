"""Seeded randomness: every random choice of a computer player or a match comes from these generators.

A player's choice is a pure function of its level, its seed and the position, and each side of game
``g`` of a match with seed ``s`` gets its own seed, so any game can be replayed move for move.

>>> game_seed(1, 0, "r") == game_seed(1, 0, "r") != game_seed(1, 0, "b")
True
"""

from __future__ import annotations

import random


def position_rng(seed: int, position: object) -> random.Random:
    """The generator a player with this seed uses in this position (given by its text) when given none.

    >>> from unitile_py.unitile import Board, Position
    >>> p = Position.start(Board.get(3, 3))
    >>> position_rng(5, p).random() == position_rng(5, p).random() != position_rng(6, p).random()
    True
    """
    return random.Random(f"{int(seed)}/{position}")


def player_rng(rng: random.Random | None, seed: int, position: object) -> random.Random:
    """The generator a player with this seed draws from in this position: ``rng`` if it is given one,
    else :func:`position_rng` (so its choice is a pure function of its level, seed and the position)."""
    return rng if rng is not None else position_rng(seed, position)


def game_seed(match_seed: int, game: int, colour: str) -> int:
    """The seed of one side in game number ``game`` (0-based) of a match."""
    return random.Random(f"match/{int(match_seed)}/{int(game)}/{colour}").getrandbits(31)


__all__ = ["game_seed", "player_rng", "position_rng"]
