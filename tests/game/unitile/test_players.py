"""Computer levels 1 to 6 and the hint, against the reference oracle and the committed tables.

The oracle (oracle.py in this folder) is an independent, exact implementation of the rules on 3x3 and
3x5; the committed tables are checked against it there and used alone on 5x5. Blue wins 3x3 and 5x5 with
perfect play and Red wins 3x5, so "level 6 on the winning side wins every game" is checked for both
colours.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from tests.game.unitile.oracle import lookups, oracle, rank
from unitile_py.colours import BLUE, RED
from unitile_py.mcts import Search
from unitile_py.seeds import game_seed, position_rng
from unitile_py.unitile import Position, UnitileError
from unitile_py.unitile.match import GameResult, play_game
from unitile_py.unitile.players import LEVELS, PLAYOUTS, MctsPlayer, hint, make_player, optimal_slides
from unitile_py.unitile.slide_search import SlideCache, SlideDomain, key

sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

SMALL = ["oracle:3x3", "oracle:3x5", "tables:3x3", "tables:3x5"]


def game(tables: Any, red: int, blue: int, seed: int) -> GameResult:
    """One game from the start between two levels, the seeds derived as game 1 of a match."""
    return play_game(
        make_player(red, game_seed(seed, 0, RED), tables),
        make_player(blue, game_seed(seed, 0, BLUE), tables),
        tables,
        Position.start(tables.board),
    )


def replay_checked(truth: Any, result: GameResult) -> Position:
    """Replay a game asserting that every move is legal by ``truth`` and the game ends at the end."""
    position = result.start
    for cell in result.moves:
        assert position.winner() is None
        assert cell in truth.legal(position), f"{position.board.name(cell)} is not legal in {position}"
        position = position.play(cell)
    assert position.winner() == result.winner
    return position


def truth_for(name: str) -> Any:
    """The most independent lookups for a backend: the oracle on small boards, else the tables."""
    size = name.split(":")[1]
    return oracle(size) if size in ("3x3", "3x5") else lookups(name)


def sample_positions(tables: Any, count: int, seed: int) -> list[Position]:
    """Distinct positions drawn uniformly from the whole board, neither colour united."""
    rng = random.Random(seed)
    board = tables.board
    seen: dict[str, Position] = {}
    while len(seen) < count:
        position = Position.from_index(board, rng.randrange(board.positions), rng.choice((RED, BLUE)))
        if position.winner() is None:
            seen.setdefault(str(position), position)
    return list(seen.values())


def game_positions(tables: Any, count: int, seed: int) -> list[Position]:
    """Positions met in random legal games from the start (each game's positions in order)."""
    rng = random.Random(seed)
    start = Position.start(tables.board)
    out: list[Position] = []
    while len(out) < count:
        position = start
        while position.winner() is None:
            out.append(position)
            position = position.play(rng.choice(tables.legal(position)))
    return out


def all_playable(tables: Any) -> list[Position]:
    """Every position of a small board with neither colour united, for both sides to move."""
    board = tables.board
    out = []
    for index in range(board.positions):
        for turn in (RED, BLUE):
            position = Position.from_index(board, index, turn)
            if position.winner() is None:
                out.append(position)
    return out


def uniting_choices(tables: Any, positions: list[Position]) -> list[tuple[Position, set[int]]]:
    """Positions where the mover has a slide uniting their own colour and also another legal slide."""
    out = []
    for position in positions:
        legal = tables.legal(position)
        own = {c for c in legal if position.play(c).winner() == position.turn}
        if own and len(own) < len(legal):
            out.append((position, own))
    return out


def best_by_outcome(tables: Any, position: Position) -> set[int]:
    """The fastest-win-else-longest-loss slides, worked out from the results after each legal slide."""
    results = {cell: rank(tables.after(position, cell)) for cell in tables.legal(position)}
    top = max(results.values())
    return {cell for cell, r in results.items() if r == top}


# ----- the interface ----------------------------------------------------------------------------


@pytest.mark.parametrize("level", [0, 7, -1, True, 2.0, "3"])
def test_make_player_rejects_other_levels(level: object) -> None:
    with pytest.raises(UnitileError, match="levels are 1 to 6"):
        make_player(level, 1, lookups("tables:3x3"))  # type: ignore[arg-type]


def test_players_report_level_seed_and_search_size() -> None:
    tables = lookups("tables:3x3")
    for level in LEVELS:
        player = make_player(level, 42, tables)
        assert (player.level, player.seed) == (level, 42)
    searchers = [make_player(level, 1, tables) for level in (2, 3, 4, 5)]
    assert all(isinstance(p, MctsPlayer) for p in searchers)
    assert [(p.playouts, p.proportional) for p in searchers] == [  # type: ignore[attr-defined]
        (3, True),
        (3, False),
        (16, False),
        (300, False),
    ]
    assert PLAYOUTS == {2: 3, 3: 3, 4: 16, 5: 300}


@pytest.mark.parametrize("level", LEVELS)
def test_choosing_after_the_game_ended_is_a_user_error(level: int) -> None:
    tables = lookups("tables:3x3")
    position = replay_checked(tables, game(tables, 1, 1, 3))
    with pytest.raises(UnitileError, match="the game is over"):
        make_player(level, 1, tables).choose(position)
    with pytest.raises(UnitileError, match="the game is over"):
        hint(position, tables)


# ----- legality and reproducibility -------------------------------------------------------------


@pytest.mark.parametrize("name", [*SMALL, "tables:5x5"])
def test_every_level_pair_plays_only_legal_moves(name: str) -> None:
    tables, truth = lookups(name), truth_for(name)
    seeds = range(1) if name.endswith("5x5") else range(3)
    for red in LEVELS:
        for blue in LEVELS:
            for seed in seeds:
                replay_checked(truth, game(tables, red, blue, seed))


@pytest.mark.parametrize("name", ["tables:3x5", "tables:5x5"])
@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_game(name: str, level: int) -> None:
    tables = lookups(name)
    for seed in range(2):
        assert game(tables, level, level, seed).moves == game(tables, level, level, seed).moves
    if level != 6:
        assert len({game(tables, level, 1, seed).moves for seed in range(8)}) > 1


@pytest.mark.parametrize("name", ["oracle:3x5", "tables:5x5"])
@pytest.mark.parametrize("level", LEVELS)
def test_choice_is_a_function_of_level_seed_and_position(name: str, level: int) -> None:
    tables = lookups(name)
    for position in sample_positions(tables, 20, seed=level):
        chosen = make_player(level, 9, tables).choose(position)
        assert chosen in tables.legal(position)
        # The site's worker passes this generator explicitly; a fresh player agrees.
        assert make_player(level, 9, tables).choose(position, position_rng(9, position)) == chosen


# ----- levels 2 to 5 ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def uniting_cases() -> list[tuple[str, Position, set[int]]]:
    """Positions with a uniting win for the mover and another legal slide, on all three boards."""
    out = []
    for name, positions in (
        ("oracle:3x3", all_playable(oracle("3x3"))),
        ("oracle:3x5", sample_positions(oracle("3x5"), 3000, seed=5)),
        ("tables:5x5", game_positions(lookups("tables:5x5"), 6000, seed=5)),
    ):
        cases = uniting_choices(lookups(name), positions)
        assert len(cases) > 30, name
        out += [(name, p, own) for p, own in cases]
    return out


@pytest.mark.parametrize("level", [2, 3, 4, 5])
def test_search_levels_take_a_uniting_win_of_their_own_colour(
    level: int, uniting_cases: list[tuple[str, Position, set[int]]]
) -> None:
    for name, position, own in uniting_cases:
        for seed in range(2):
            assert make_player(level, seed, lookups(name)).choose(position) in own, str(position)


def test_level_1_does_not_always_take_a_uniting_win(
    uniting_cases: list[tuple[str, Position, set[int]]],
) -> None:
    missed = sum(make_player(1, 0, lookups(n)).choose(p) not in own for n, p, own in uniting_cases)
    assert missed > 0


@pytest.mark.parametrize("name", ["oracle:3x5", "tables:5x5"])
def test_levels_3_to_5_play_the_most_tried_slide(name: str) -> None:
    tables = lookups(name)
    checked = 0
    for position in sample_positions(tables, 150, seed=8):
        legal = tables.legal(position)
        if len(legal) < 2 or any(position.play(c).winner() == position.turn for c in legal):
            continue
        for level in (3, 4, 5):
            rng_seed = f"{level}/{position}"
            domain = SlideDomain(position.board, tables)
            state = key(position.red, position.bubble)
            stats = Search(domain, random.Random(rng_seed)).run(state, position.turn, PLAYOUTS[level])
            assert sorted(stats) == list(legal)
            assert sum(v for v, _ in stats.values()) == PLAYOUTS[level]
            assert all(0 <= w <= v for v, w in stats.values())
            chosen = make_player(level, 0, tables).choose(position, random.Random(rng_seed))
            assert stats[chosen][0] == max(v for v, _ in stats.values())
            checked += 1
    assert checked > 30


def test_level_2_draws_in_proportion_to_visits() -> None:
    """With 3 playouts over 2 slides the visits are 2 and 1: level 2 plays the less tried slide about a
    third of the time, where level 3 always plays the more tried one."""
    tables = lookups("tables:5x5")
    position = next(
        p
        for p in sample_positions(tables, 200, seed=9)
        if len(tables.legal(p)) == 2 and not any(p.play(c).winner() == p.turn for c in tables.legal(p))
    )
    trials, agree = 300, 0
    for i in range(trials):
        domain = SlideDomain(position.board, tables)
        stats = Search(domain, random.Random(i)).run(key(position.red, position.bubble), position.turn, 3)
        most = max(stats, key=lambda c: stats[c])
        assert make_player(3, 0, tables).choose(position, random.Random(i)) == most
        agree += make_player(2, 0, tables).choose(position, random.Random(i)) == most
    assert 0.55 * trials < agree < 0.8 * trials


def test_level_5_beats_level_1_clearly_on_3x5() -> None:
    """Red wins 3x5 with perfect play; against random Red, Blue can win at most 3/4 of the games
    (exact expectimax) and random Blue wins 1/2."""
    tables = lookups("tables:3x5")
    assert sum(game(tables, 5, 1, s).winner == RED for s in range(100)) >= 95
    assert sum(game(tables, 1, 5, s).winner == BLUE for s in range(100)) >= 62


@pytest.mark.parametrize("name", ["oracle:3x5", "tables:5x5"])
def test_slide_cache_agrees_with_the_tables_and_stays_bounded(name: str) -> None:
    tables = lookups(name)
    cache = SlideCache(tables, limit=50)
    for position in sample_positions(tables, 120, seed=10):
        slides = cache.slides(position.board, position.red, position.bubble)
        assert [cell for cell, _, _ in slides] == list(tables.legal(position))
        for cell, child_key, united in slides:
            child = position.play(cell)
            assert child_key == key(child.red, child.bubble)
            assert united == (child.winner() or "")
        assert len(cache.entries) <= 50


# ----- level 6 and the hint ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["oracle:3x3", "tables:3x3"])
def test_level_6_and_hint_are_optimal_everywhere_on_3x3(name: str) -> None:
    tables, truth = lookups(name), oracle("3x3")
    for position in all_playable(truth):
        best = best_by_outcome(truth, position)
        assert set(optimal_slides(position, tables)) == best
        assert hint(position, tables) == min(best)
        assert {make_player(6, seed, tables).choose(position) for seed in range(3)} <= best


@pytest.mark.parametrize("name", ["oracle:3x5", "tables:3x5", "tables:5x5"])
def test_level_6_takes_the_fastest_win_or_the_longest_loss(name: str) -> None:
    tables, truth = lookups(name), truth_for(name)
    ties = 0
    for position in sample_positions(tables, 300, seed=6):
        best = best_by_outcome(truth, position)
        ties += len(best) > 1
        assert make_player(6, 3, tables).choose(position) in best
        assert hint(position, tables) == min(best)
    assert ties > 0  # the seeded tie-break is exercised


def test_level_6_breaks_ties_at_random_by_seed() -> None:
    tables = lookups("tables:5x5")
    position = next(p for p in sample_positions(tables, 300, seed=6) if len(tables.best(p)) > 1)
    assert {make_player(6, seed, tables).choose(position) for seed in range(40)} == set(tables.best(position))


@pytest.mark.parametrize(
    ("name", "winner"), [("oracle:3x3", BLUE), ("oracle:3x5", RED), ("tables:5x5", BLUE)]
)
def test_level_6_on_the_winning_side_wins_every_game(name: str, winner: str) -> None:
    tables = lookups(name)
    start = Position.start(tables.board)
    assert tables.outcome(start)[0] == ("win" if winner == RED else "loss")
    # On 5x5 a level 5 game takes about 0.3 s: 60 here; bench/players.py strength plays 200 each way.
    games = {1: 300, 2: 20, 3: 20, 4: 20, 5: 60 if name.endswith("5x5") else 200, 6: 10}
    for level, count in games.items():
        for seed in range(count):
            red, blue = (6, level) if winner == RED else (level, 6)
            result = game(tables, red, blue, seed)
            assert result.winner == winner, f"level {level} beat level 6 on {tables.board} (seed {seed})"
