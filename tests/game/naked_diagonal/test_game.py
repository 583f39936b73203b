"""Naked Diagonal's game object, records and command line: legality through one Game, records that
round-trip, one-line errors, and the players' legality, reproducibility and strength."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from unitile_py.cli import main
from unitile_py.colours import BLUE, RED
from unitile_py.errors import GameError, NakedDiagonalError
from unitile_py.naked_diagonal.game import Game, parse_record
from unitile_py.naked_diagonal.legality import legal_placements
from unitile_py.naked_diagonal.notation import format_record
from unitile_py.naked_diagonal.players import LEVELS, PLAYOUTS, hint, make_player
from unitile_py.naked_diagonal.position import Position
from unitile_py.playing import play_game, run_games


def random_game(n: int, seed: int, plies: int | None = None) -> Game:
    rng = random.Random(seed)
    game = Game(Position.empty(n))
    while not game.is_over() and (plies is None or game.ply < plies):
        game.push(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7])
def test_random_games_agree_with_the_legality_engine_and_round_trip(n: int) -> None:
    for seed in range(12 if n < 7 else 3):
        game = random_game(n, seed)
        assert game.is_over() and game.result() in ("1-0", "0-1")
        for i, position in enumerate(game.positions[:-1]):
            red, blue = legal_placements(position)
            assert game.moves[i] in (red if position.turn == RED else blue)
        again = parse_record(game.record_text())
        assert again.moves == list(game.moves) and again.result == game.result()
        assert format_record(again) == game.record_text()
        assert Game.from_record(again).position == game.position
        assert game.winner_chain() and game.winner_chain() & ~game.position.stones(game.winner() or RED) == 0


def test_every_illegal_placement_is_refused_with_its_reason() -> None:
    game = random_game(5, 3, plies=8)
    position = game.position
    red, blue = legal_placements(position)
    legal = red if position.turn == RED else blue
    refused = 0
    for point in range(position.grid.size):
        why = game.why_illegal(point)
        assert (why is None) == (point in legal)
        if why is not None:
            with pytest.raises(NakedDiagonalError) as info:
                game.push(point)
            assert str(info.value) == f"ply {game.ply + 1}, {position.grid.name(point)}: {why}"
            refused += 1
    assert refused > 8
    assert game.position == position  # nothing changed


def test_pop_undoes_a_placement() -> None:
    game = random_game(4, 1, plies=5)
    before = game.positions
    point = game.legal_moves()[0]
    game.push(point)
    assert game.pop() == point and game.positions == before
    with pytest.raises(NakedDiagonalError, match="no move to take back"):
        Game(Position.empty(3)).pop()


def test_no_turn_is_ever_skipped_in_these_games() -> None:
    """docs/naked-diagonal.md proves that a position without an NDE area gives both sides a placement."""
    for n in (3, 4, 5, 6):
        for seed in range(10):
            game = random_game(n, 100 + seed)
            assert -1 not in game.moves
            for position in game.positions[:-1]:
                red, blue = legal_placements(position)
                assert red and blue


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Board "3x3"]\n1. b2 b2 *', "ply 2, b2: b2 is not empty"),
        ('[Board "3x3"]\n1. b2 c2 2. a3 *', "ply 3, a3: Red on a3 forms a naked diagonal with b2"),
        ('[Board "3x3"]\n1. b2 skip *', "ply 2: skip, but Blue can place"),
        ('[Board "3x3"]\n1. b2 c2 2... a3 *', "before a move of Red: write 2."),
        ('[Board "3x3"]\n1. b2 1. c2 *', "before a move of Blue: write 1..."),
        ('[Board "3x3"]\n1. z9 *', "ply 1: move 'z9'"),
        ('[Board "3x3"]\n1. c² *', "ply 1: move 'c²'"),
        ('[Board "³x3"]\n*', "expected NxN"),
        ('[Board "3x4"]\n*', "expected NxN"),
        ('[Game "Unitile"]\n*', "is not Naked Diagonal"),
        ('[Board "3x3"]\n1. b2 c2 2. b3 c3 3. a2 a1 4. b1 1-0 a3', "is not the last token"),
        (
            '[Board "3x3"]\n1. b2 c2 2. b3 c3 3. a2 a1 4. b1 a3 *',
            "ply 8, 'a3': comes after the game has ended",
        ),
        ('[Board "3x3"]\n1. b2 c2 0-1', "result 0-1 but the moves give \\*"),
        ('[Position "R../.../... r"]\n[Board "5x5"]\n*', "does not match the position"),
    ],
)
def test_bad_records(text: str, message: str) -> None:
    with pytest.raises(GameError, match=message) as info:  # records.py, shared by both games
        parse_record(text)
    assert "\n" not in str(info.value)


def test_a_record_from_another_start() -> None:
    record = parse_record('[Position ".../.R./... b"]\n1... a1 2. a2 *')
    assert [record.start.grid.name(p) for p in record.moves] == ["a1", "a2"]
    text = format_record(record)
    assert '[Position ".../.R./... b"]' in text and text.endswith("1... a1 2. a2 *\n")


@pytest.mark.parametrize("level", LEVELS)
def test_players_play_legal_reproducible_games(level: int) -> None:
    for n, seed in ((3, 1), (4 if level >= 4 else 5, 2)):  # levels 4 and 5 take seconds on 5x5
        first = play_game(Game(Position.empty(n)), make_player(level, seed), make_player(level, seed + 1))
        again = play_game(Game(Position.empty(n)), make_player(level, seed), make_player(level, seed + 1))
        assert first.moves == again.moves and first.winner in (RED, BLUE)
        for i, position in enumerate(first.game.positions[:-1]):
            red, blue = legal_placements(position)
            assert first.moves[i] in (red if position.turn == RED else blue)


def test_a_search_level_takes_a_winning_placement() -> None:
    # Red needs c1 or ... to join north and south on 3x3: b3, b2 red; b1 wins at once.
    position = Position.parse(".R./.RB/B.. r")
    for level in (2, 3, 4, 5):
        assert position.grid.name(make_player(level, 0).choose(position)) == "b1"


def test_the_search_beats_random_play() -> None:
    summary, _ = run_games(3, 1, 10, 5, lambda: Game(Position.empty(5)), make_player)
    assert summary.red_wins >= 9
    summary, _ = run_games(1, 3, 10, 5, lambda: Game(Position.empty(5)), make_player)
    assert summary.blue_wins >= 8


def test_hint_is_the_strongest_levels_choice_and_stable() -> None:
    position = random_game(5, 8, plies=6).position
    assert hint(position) == hint(position) == make_player(max(LEVELS), 0).choose(position)
    assert PLAYOUTS[max(LEVELS)] > PLAYOUTS[2]


def run_cli(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "unitile_py", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_command_line_legal_json_for_many_positions() -> None:
    positions = [str(random_game(4, s, plies=s % 6).position) for s in range(6)]
    done = run_cli(["nd", "legal", "-", "--json"], "\n".join([*positions, "garbage"]) + "\n")
    assert done.returncode == 2
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 7 and "error" in lines[-1]
    for text, info in zip(positions, lines, strict=False):
        position = Position.parse(text)
        red, blue = legal_placements(position)
        g = position.grid
        assert info == {
            "red": sorted(g.names(sum(1 << p for p in red))),
            "blue": sorted(g.names(sum(1 << p for p in blue))),
            "winner": None,
        }


def test_command_line_show_why_record_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["naked-diagonal", "show", ".../.../... r", "b2", "c2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "Red to move" and "2 . R B" in out
    assert main(["nd", "why", ".../.R./... r", "a3"]) == 0
    assert capsys.readouterr().out == "Red on a3 forms a naked diagonal with b2\n"
    assert main(["nd", "why", ".../.R./... b", "a3"]) == 0
    assert capsys.readouterr().out == "Blue on a3 is legal\n"
    for argv, message in (
        (["nd", "show", ".../.../... r", "b2", "b2"], "error: ply 2, b2: b2 is not empty\n"),
        (
            ["nd", "show", "R../.R./... r"],
            "error: position 'R../.R./... r': a3 and b2 form a naked diagonal of Red\n",
        ),
        (["nd", "why", ".../.../... r", "d9"], "error: point 'd9': no such cell on a 3x3 board\n"),
    ):
        assert main(argv) == 2
        assert capsys.readouterr().err == message
    done = run_cli(["nd", "record", "-"], '[Board "3x3"]\n1. b2 c2 2. b3 c3 3. a2 a1 4. b1 *\n')
    assert done.returncode == 0 and done.stdout.startswith('[Game "Naked Diagonal"]\n[Board "3x3"]\n')
    assert (
        "1. b2 c2 2. b3 c3 3. a2 a1 4. b1 1-0\n" in done.stdout and "Red has won: b3 a2 b2 b1" in done.stdout
    )


def test_command_line_match_and_play() -> None:
    done = run_cli(["nd", "match", "--red", "2", "--blue", "1", "--games", "4", "--size", "4x4", "--json"])
    assert done.returncode == 0
    summary = json.loads(done.stdout)
    assert summary["games"] == 4 and summary["red_wins"] + summary["blue_wins"] == 4
    done = run_cli(["nd", "play", "--size", "3x3", "--blue", "1"], "b2\nzz\nquit\n")
    assert done.returncode == 0 and "game left unfinished" in done.stdout
    assert "move 'zz': expected a file letter" in done.stdout


def test_fact_5_both_players_can_place_or_neither_on_every_3x3_board() -> None:
    """docs/naked-diagonal.md, fact 5: on every board without a naked diagonal (reachable or not), either
    both colours have a legal placement or neither has (an NDE region, or a full board)."""
    from unitile_py.naked_diagonal.grid import Grid
    from unitile_py.naked_diagonal.legality import legal_masks
    from unitile_py.naked_diagonal.rules import naked_diagonals

    grid = Grid.get(3)
    boards = both = 0
    for code in range(3**9):
        red = blue = 0
        for p in range(9):
            code, v = divmod(code, 3)
            red |= (v == 1) << p
            blue |= (v == 2) << p
        if naked_diagonals(grid, red, blue):
            continue
        boards += 1
        r, b = legal_masks(Position(grid, red, blue, RED))
        assert (r == 0) == (b == 0), Position(grid, red, blue, RED)
        both += r != 0
    assert boards > 5000 and both > 4000
