"""Level 6, the hint and ``nd analyze`` on a size whose folder holds a strategy, not tables
(unitile_py/naked_diagonal/perfect.py; the 5x5 proof ships that way).

A temporary tables root holds the committed 2x2 tables and, instead of tables, the winner's strategies of
3x3 (Red wins) and 4x4 (Blue wins) written from the committed tables, their manifests given the proof's
``empty_board`` and ``first_placements`` (all of 3x3's; on 4x4 one point of each orbit under the maps that
keep the players, so the others are found through a symmetry). The committed tables are the referee."""

from __future__ import annotations

import json
import random
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.naked_diagonal.strategy_file import strategy_from_tables, write_strategy
from unitile_py.cli import main
from unitile_py.colours import BLUE, RED
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal import perfect
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.legality import after
from unitile_py.naked_diagonal.players import (
    PERFECT,
    PerfectPlayer,
    legal_points,
    levels_for,
    make_player,
    perfect_sizes,
)
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.strategy import (
    Bounded,
    Strategy,
    answers_digest,
    strategy_for,
    strategy_sizes,
)
from unitile_py.naked_diagonal.tables import NDTables, solved_sizes, tables_for
from unitile_py.naked_diagonal.webapi import Api
from unitile_py.playing import run_games
from unitile_py.table_io import ENV

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "tables" / "naked-diagonal"
#: First placements written to the 4x4 manifest: one point of each orbit.
ORBITS_4 = ("a4", "b4", "a3", "b3")


@pytest.fixture(scope="module")
def strategy_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tables root (``$UNITILE_TABLES``) whose naked-diagonal/ holds 2x2 tables and 3x3, 4x4 strategies."""
    root = tmp_path_factory.mktemp("level6")
    nd = root / "naked-diagonal"
    shutil.copytree(COMMITTED / "2x2", nd / "2x2")
    for n in (3, 4):
        winner, records = strategy_from_tables(n, str(COMMITTED))
        folder = nd / f"{n}x{n}"
        write_strategy(folder, n, winner, records, "test")
        tables = tables_for(n, str(COMMITTED))
        start = Position.empty(n)
        moves = tables.moves(start)
        names = {start.grid.name(p): kind for p, (kind, _) in moves.items()}
        if n == 4:
            names = {name: names[name] for name in ORBITS_4}
        manifest = json.loads((folder / "manifest.json").read_text())
        manifest["empty_board"] = tables.outcome(start)[0]
        manifest["first_placements"] = names
        manifest["answers_sha256"] = answers_digest(manifest)
        (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return root


@pytest.fixture
def use_root(strategy_root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(ENV, str(strategy_root))
    yield strategy_root / "naked-diagonal"


def reference(n: int) -> NDTables:
    return tables_for(n, str(COMMITTED))


def test_tables_and_strategy_folders_are_told_apart(use_root: Path) -> None:
    assert solved_sizes() == (2,)
    assert strategy_sizes() == (3, 4)
    assert perfect_sizes() == (2, 3, 4)
    assert PERFECT in levels_for(4) and PERFECT not in levels_for(5)
    with pytest.raises(NakedDiagonalError, match="holds a strategy"):
        NDTables.load(4)
    assert strategy_for(4).winner == BLUE and strategy_for(3).winner == RED


@pytest.mark.parametrize(("n", "winner", "opponent", "games"), [
    (3, RED, 1, 8), (3, RED, 5, 3), (4, BLUE, 1, 8), (4, BLUE, 5, 3),
])
def test_level_6_as_the_winner_wins_every_game(use_root: Path, n: int, winner: str, opponent: int,
                                               games: int) -> None:
    """Seeded games against levels 1 and 5; every placement of level 6 comes from the stored proof, and
    each is a winning placement by the tables."""
    red, blue = (PERFECT, opponent) if winner == RED else (opponent, PERFECT)
    summary, played = run_games(red, blue, games, 7, lambda: Game(Position.empty(n)), make_player)
    assert (summary.red_wins if winner == RED else summary.blue_wins) == games
    tables = reference(n)
    player = make_player(PERFECT, 1)
    assert isinstance(player, PerfectPlayer)
    checked = 0
    for result in played:
        for position in result.game.positions:
            if position.winner() is None and position.turn == winner:
                point, how = player.choose_why(position)
                assert how == perfect.PROOF
                assert tables.after(position, point)[0] == "win"
                checked += 1
    assert checked


@pytest.fixture(scope="module")
def compact_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tables root whose naked-diagonal/4x4 holds a compact strategy (a small bounded search)."""
    root = tmp_path_factory.mktemp("compact")
    winner, records = strategy_from_tables(4, str(COMMITTED))
    write_strategy(root / "naked-diagonal" / "4x4", 4, winner, records, "test", bounded=Bounded(40, 12))
    return root


@pytest.mark.parametrize(("opponent", "games"), [(1, 6), (5, 2)])
def test_level_6_wins_every_game_on_a_compact_strategy(compact_root: Path, monkeypatch: pytest.MonkeyPatch,
                                                       opponent: int, games: int) -> None:
    """Every placement of level 6 comes from the stored proof or from the bounded search below it, and
    each is a winning placement by the tables."""
    monkeypatch.setenv(ENV, str(compact_root))
    strategy = strategy_for(4)
    assert strategy.bounded == Bounded(40, 12) and len(strategy) < 1000
    summary, played = run_games(opponent, PERFECT, games, 3, lambda: Game(Position.empty(4)), make_player)
    assert summary.blue_wins == games
    tables = reference(4)
    player = make_player(PERFECT, 1)
    assert isinstance(player, PerfectPlayer)
    sources = set()
    for result in played:
        for position in result.game.positions:
            if position.winner() is None and position.turn == BLUE:
                point, how = player.choose_why(position)
                sources.add(how)
                assert tables.after(position, point)[0] == "win"
    assert sources == {perfect.PROOF, perfect.EXACT}


def test_match_command_plays_level_6_on_a_strategy_size(use_root: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nd", "match", "--red", "1", "--blue", "6", "--games", "5", "--size", "4x4",
                 "--seed", "3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["blue_wins"] == 5


@pytest.mark.parametrize("n", [3, 4])
def test_analyze_the_empty_board_gives_the_manifest_answers(use_root: Path, n: int,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    empty = "/".join(["." * n] * n) + " r"
    assert main(["nd", "analyze", empty, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    tables = reference(n)
    start = Position.empty(n)
    assert info["outcome"] == tables.outcome(start)[0] and info["distance"] is None
    assert info["source"] == "strategy" and "not in how many" in info["note"]
    expected = {start.grid.name(p): {"outcome": kind, "distance": None}
                for p, (kind, _) in tables.moves(start).items()}
    assert info["moves"] == expected
    assert main(["nd", "analyze", empty]) == 0
    text = capsys.readouterr().out
    assert "no distances" in text and ("wins" in text or "loses" in text)


def test_analyze_decides_positions_the_strategy_holds_and_searches_small_ones(use_root: Path) -> None:
    """The winner's turns on the strategy are wins, the loser's turns it covers are losses, and a small
    position off it is searched exactly: all agree with the tables."""
    tables = reference(4)
    strategy = strategy_for(4)
    position = Position.empty(4)
    seen = 0
    rng = random.Random(5)
    for _ in range(6):
        position = Position.empty(4)
        while position.winner() is None:
            info = perfect.analysis(position, strategy)
            kind = tables.outcome(position)[0]
            assert info["outcome"] in (kind, "unknown"), (str(position), info)
            if info["outcome"] != "unknown":
                seen += 1
            for name, m in info["moves"].items():
                if m["outcome"] != "unknown":
                    assert m["outcome"] == tables.after(position, position.grid.point(name))[0]
            points = legal_points(position)
            position = after(position, points[rng.randrange(len(points))])
    assert seen > 20


def test_off_the_strategy_the_search_decides_or_level_5_plays_and_says_so(
        use_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = reference(4)
    strategy = strategy_for(4)
    # Blue to move after Blue's own weak first reply: off the stored proof.
    start = Position.empty(4)
    position = after(start, start.grid.point("b3"))
    proof_move = strategy.move_for(position)
    assert proof_move is not None
    wrong = next(p for p in legal_points(position)
                 if p != proof_move and tables.after(position, p)[0] == "loss")
    position = after(position, wrong)  # Red to move, and Red now wins
    red_reply = next(p for p in legal_points(position) if tables.after(position, p)[0] == "win")
    off = after(position, red_reply)  # Blue to move, lost, not held by the strategy
    assert strategy.move_for(off) is None
    player = make_player(PERFECT, 2)
    assert isinstance(player, PerfectPlayer)
    point, how = player.choose_why(off)
    assert how in (perfect.DEFENCE, perfect.FALLBACK)  # an exact search, or level 5 beyond the budget
    # A smaller position off the strategy: the exact search finds the win.
    game = Game(Position.empty(4))
    for name in ("a4", "d1", "b4", "c1", "a2"):
        game.push(game.grid.point(name))
    q = game.position
    assert q.turn == BLUE and q.winner() is None and strategy.move_for(q) is None
    point, how = player.choose_why(q)
    assert how == perfect.EXACT and tables.after(q, point)[0] == "win"
    # Without the exact search, level 5 plays and the hint says where it came from.
    monkeypatch.setattr(perfect, "EXACT_EMPTY", 0)
    assert tables.outcome(off)[0] == "loss"
    position = after(start, start.grid.point("a4"))
    red_off = after(position, next(p for p in legal_points(position) if p != strategy.move_for(position)))
    blue_turn = after(red_off, legal_points(red_off)[0])
    assert blue_turn.turn == BLUE and strategy.move_for(blue_turn) is None
    point, how = player.choose_why(blue_turn)
    assert how == perfect.FALLBACK and "level 5" in how
    assert point in legal_points(blue_turn)
    info = perfect.analysis(blue_turn, strategy)
    assert info["outcome"] == "unknown" and "not in the stored proof" in info["how"]
    api = Api()
    game_data = {"size": 4, "start": str(blue_turn), "moves": []}
    assert api.hint_source(game_data) == perfect.FALLBACK
    hinted = make_player(PERFECT, 0)
    assert api.hint(game_data) == blue_turn.grid.name(hinted.choose(blue_turn))


def test_the_loser_never_lets_the_winner_win_at_once_when_it_can_avoid_it(use_root: Path) -> None:
    """As Red on 4x4 (lost from the start), level 6 plays level 5's choice or, when that loses at once,
    a placement that does not."""
    player = make_player(PERFECT, 4)
    summary, played = run_games(PERFECT, 1, 3, 11, lambda: Game(Position.empty(4)), make_player)
    assert summary.games == 3
    for result in played:
        for position in result.game.positions:
            if position.winner() is None and position.turn == RED:
                point = player.choose(position)
                if perfect.loses_at_once(position, point):
                    assert all(perfect.loses_at_once(position, p) for p in legal_points(position))


def test_webapi_offers_level_6_and_its_hint_on_strategy_sizes(use_root: Path) -> None:
    api = Api()
    info = api.info()
    assert info["perfect_sizes"] == [3, 4]
    assert info["proof_sizes"] == {"3": "red", "4": "blue"}
    game = api.play(api.new_game(4), "a4")
    move = api.computer_move(game, PERFECT, 1)
    start = Position.empty(4)
    assert move == game_name(4, strategy_for(4).move_for(after(start, start.grid.point("a4"))))
    assert api.hint(game) == move and api.hint_source(game) == perfect.PROOF
    with pytest.raises(NakedDiagonalError, match="on 3x3 and 4x4 only"):
        api.computer_move(api.new_game(5), PERFECT, 1)


def game_name(n: int, point: int | None) -> str:
    assert point is not None
    return Position.empty(n).grid.name(point)


def test_site_build_ships_strategy_folders_and_tells_them_from_tables(
        use_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """site/build.py copies a size's folder whether it holds tables or a strategy, by the manifest's kind."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("site_build", ROOT / "site" / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "site_build", build)  # its dataclasses look their module up
    spec.loader.exec_module(build)
    assert build.folder_kind(use_root / "2x2") == "tables"
    assert build.folder_kind(use_root / "4x4") == "strategy"
    assert build.folder_kind(use_root / "6x6") is None


@pytest.mark.parametrize("fmt", [True, 1.0])
def test_a_strategy_format_that_is_not_the_whole_number_is_refused(strategy_root: Path, fmt: object) -> None:
    """Issue 35: ``"format": true`` was read as format 1 (in Python a bool is an int)."""
    folder = strategy_root / "naked-diagonal" / "3x3"
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert Strategy.from_files(3, files).winner == RED
    manifest = json.loads(files["manifest.json"])
    manifest["format"] = fmt
    files["manifest.json"] = json.dumps(manifest).encode()
    refused = r"manifest.json is not format 1 of a Naked Diagonal strategy$"
    with pytest.raises(NakedDiagonalError, match=refused):
        Strategy.from_files(3, files)
