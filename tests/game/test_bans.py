"""Refusals as values (issue 49, part 2): both games refuse a move with a ban whose ``kind`` callers
read, every kind of each game is produced by its ``Game`` and worded by its ``bans`` module, the error
of a refused move carries the ply, the move and the ban, ``explain`` has one argument and one shape in
both games, and no code reads an error's text or its class name."""

from __future__ import annotations

import inspect
import json
import pickle
import re
from pathlib import Path
from typing import Any, get_args

import pytest

from unitile_py.bans import GameOver, OffBoard, TooLong
from unitile_py.errors import GameError, IllegalMove, NakedDiagonalError, UnitileError
from unitile_py.naked_diagonal import bans as nd_bans
from unitile_py.naked_diagonal.game import Game as NDGame
from unitile_py.naked_diagonal.position import Position as NDPosition
from unitile_py.naked_diagonal.webapi import Api as NDApi
from unitile_py.unitile import bans as u_bans
from unitile_py.unitile import game as u_game
from unitile_py.unitile.board import Board
from unitile_py.unitile.game import Game as UGame
from unitile_py.unitile.lookups import ADJACENT_ONLY
from unitile_py.unitile.position import Position as UPosition
from unitile_py.unitile.tables import Tables, tables_for
from unitile_py.unitile.webapi import Api as UApi
from unitile_py.webapi import handle

ROOT = Path(__file__).resolve().parents[2]
B33 = Board.get(3, 3)
#: A 5x5 position (the rules page's third diagram) where Red on d1 would leave the NDE area c2 d2 e2.
NDE_START = "RR..R/...../.BBBR/.B.../..R.B r"


def kinds(union: Any) -> set[str]:
    """The kinds of the ban classes of a union."""
    return {cls.kind for cls in get_args(union)}


def unitile_over() -> UGame:
    """A finished 3x3 game: the first legal slide each time (the value rule ends every game)."""
    g = UGame(UPosition.start(B33), tables_for("3x3"))
    while not g.is_over():
        g.push(g.legal_moves()[0])
    return g


def unitile_refusals(monkeypatch: pytest.MonkeyPatch) -> list[tuple[UGame, int]]:
    """A game and a refused cell for every kind of Unitile's bans."""
    start = UGame(UPosition.start(B33), tables_for("3x3"))
    position = start.position
    not_lower = next(c for c in position.slides() if c not in start.legal_moves())
    not_next = next(c for c in range(B33.cells) if c != position.bubble and c not in position.slides())
    over = unitile_over()
    monkeypatch.setattr(u_game, "MAX_TURNS", 1)
    long = UGame(UPosition.start(B33), ADJACENT_ONLY, [position.slides()[0]])
    return [
        (start, position.bubble),
        (start, not_next),
        (start, not_lower),
        (start, B33.cells),
        (over, 0),
        (long, long.position.slides()[0]),
    ]


def nd_refusals() -> list[tuple[NDGame, int]]:
    """A game and a refused point for every kind of Naked Diagonal's bans."""
    g = NDGame(NDPosition.empty(3))
    g.push_name("b2")
    g.push_name("c2")
    nde = NDGame(NDPosition.parse(NDE_START))
    over = NDGame(NDPosition.parse(".R./.R./.R. b"))
    return [(g, g.grid.point("b2")), (g, g.grid.point("a3")), (nde, nde.grid.point("d1")), (g, 9), (over, 0)]


def check_refused(g: UGame | NDGame, move: int, error: type[GameError]) -> Any:
    """``move`` is refused by ``g``: its ban, and the error with the ply, the move and the ban."""
    ban = g.ban(move)
    assert ban is not None and g.why_illegal(move) == g.words(ban)
    before = g.positions
    with pytest.raises(IllegalMove) as info:
        g.push(move)
    exc = info.value
    assert isinstance(exc, g.illegal) and isinstance(exc, error)
    assert (exc.ply, exc.move, exc.ban) == (g.ply + 1, move, ban)
    assert str(exc) == f"ply {exc.ply}, {exc.name}: {g.words(ban)}"
    again = pickle.loads(pickle.dumps(exc))
    assert type(again) is type(exc) and (again.ply, again.move, again.ban, str(again)) == (
        exc.ply, exc.move, exc.ban, str(exc))
    assert g.positions == before
    return ban


def one_line(text: str) -> bool:
    return bool(text) and "\n" not in text and text == text.strip()


def test_every_unitile_ban_is_produced_carried_and_worded(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {}
    for g, cell in unitile_refusals(monkeypatch):
        ban = check_refused(g, cell, UnitileError)
        seen[ban.kind] = ban
        for words in (*u_bans.words(ban), u_bans.sentence(ban, "c3")):
            assert one_line(words), (ban, words)
        assert u_bans.sentence(ban, "c3").startswith("c3 ")
    assert set(seen) == kinds(u_bans.Refusal) == {
        "empty_cell", "not_adjacent", "not_lower", "off_board", "over", "too_long"}
    assert len({u_bans.why(b) for b in seen.values()}) == len(seen)
    assert len({u_bans.clause(b) for b in seen.values()}) == len(seen)
    assert isinstance(seen["too_long"], TooLong) and seen["too_long"].limit == 1


def test_every_naked_diagonal_ban_is_produced_carried_and_worded() -> None:
    seen = {}
    for g, point in nd_refusals():
        ban = check_refused(g, point, NakedDiagonalError)
        seen[ban.kind] = ban
        grid = g.grid
        for words in nd_bans.words(ban, grid):
            assert one_line(words), (ban, words)
    assert set(seen) == kinds(nd_bans.Refusal) == {"occupied", "naked", "nde", "off_board", "over"}
    assert seen["off_board"] == OffBoard("3x3", "point 9") and seen["over"] == GameOver("r")
    assert seen["nde"].describe(NDGame(NDPosition.parse(NDE_START)).grid) == (
        "Red on d1 would leave the NDE area c2 d2 e2 (not BAD); a part no sequence can cover: d2")


def test_a_record_names_the_refused_ply_once() -> None:
    """A refused placement in a record: its error names the ply (read from the error's ``ply``, not its
    text), a bad name the ply it stands at."""
    from unitile_py.naked_diagonal.game import parse_record

    with pytest.raises(NakedDiagonalError) as info:
        parse_record('[Board "3x3"]\n1. b2 c2 2. a3 *')
    assert str(info.value) == "record: ply 3, a3: Red on a3 forms a naked diagonal with b2"
    with pytest.raises(NakedDiagonalError) as info:
        parse_record('[Board "3x3"]\n1. b2 c2 2. d9 *')
    assert str(info.value).startswith("record: ply 3: ") and "ply 3, " not in str(info.value)


def test_explain_has_one_argument_and_one_shape_in_both_games(monkeypatch: pytest.MonkeyPatch) -> None:
    for api in (UApi, NDApi):
        assert list(inspect.signature(api.explain).parameters) == ["self", "game", "move"]
    u = UApi(B33, Tables.load("3x3"))
    nd = NDApi()

    def plain_u(g: UGame) -> dict[str, Any]:
        return {"start": str(g.start), "moves": [B33.name(c) for c in g.moves]}

    def plain_nd(g: NDGame) -> dict[str, Any]:
        return {"start": str(g.start), "moves": [g.name_of(m) for m in g.moves]}

    refusals = unitile_refusals(monkeypatch)[:-1]  # (too long: the service's limit is its own)
    bans = [g.ban(c) for g, c in refusals]
    monkeypatch.undo()  # the game's limit as it is
    replies = [(u.explain(plain_u(g), B33.name(c) if c < B33.cells else "z9"), ban)
               for (g, c), ban in zip(refusals, bans, strict=True)]
    replies += [(nd.explain(plain_nd(g), g.grid.name(p) if p < g.grid.size else "z9"), g.ban(p))
                for g, p in nd_refusals()]
    for reply, ban in replies:
        assert reply is not None and ban is not None
        assert list(reply)[:3] == ["kind", "move", "colour"] and list(reply)[-1] == "text", reply
        assert reply["kind"] == ban.kind and one_line(reply["text"]) and reply["colour"] in "rb"
    assert {r["kind"] for r, _ in replies} == kinds(u_bans.Refusal) - {"too_long"} | kinds(nd_bans.Refusal)
    for op, game in (("explain", {"start": None, "moves": []}), ("nd_explain", {"size": 5, "moves": []})):
        for move, ok in (("c3", True), (3, False)):
            reply = json.loads(handle(json.dumps({"op": op, "args": {"game": game, "move": move}})))
            assert reply["ok"] is ok and (not ok or reply["result"] is None or "kind" in reply["result"])
        old = {"op": op, "args": {"game": game, "point": "c3"}}  # Naked Diagonal's old argument
        assert json.loads(handle(json.dumps(old)))["ok"] is False


def sources(folder: str, suffix: str) -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in sorted((ROOT / folder).rglob(f"*{suffix}"))}


def test_no_code_reads_an_error_by_its_text_or_its_class_name() -> None:
    """Callers read a refusal's ``ply``, ``move`` and ``ban``; the page gets one line from Python."""
    python = sources("unitile_py", ".py")
    assert python
    text_reads = re.compile(r"""startswith\(["']ply|\.startswith\(DAMAGED"""
                            r"""|str\((exc|err|error|e)\)\.(startswith|endswith|split|partition)\(""")
    assert [p.name for p, s in python.items() if text_reads.search(s)] == []
    # No dict keyed by a refusal's words: the words are functions of the ban in each game's bans module.
    assert [p.name for p, s in python.items() if re.search(r"\}\.get\(why\b", s)] == []
    scripts = sources("site/web/js", ".js")
    assert scripts
    # (worker.js's Python code may name them: it catches GameError to hand over its one line)
    class_names = re.compile(r"Error: /|\)Error\b|(Game|Unitile|NakedDiagonal)Error: |\.name ===? ")
    assert [p.name for p, s in scripts.items() if class_names.search(s)] == []


@pytest.mark.parametrize("game", ["unitile", "naked_diagonal"])
def test_each_game_words_its_refusals_in_its_bans_module(game: str) -> None:
    """The words of a game's bans appear in no other module of the game (docstrings aside)."""
    bans = u_bans if game == "unitile" else nd_bans
    words = [  # a fixed piece of each register's words, one per kind that has some
        *(["not next to the bubble", "is not next to the empty cell", "would not lower the sum",
           "is the empty cell", "neither unites a colour"] if game == "unitile" else
          ["forms a naked diagonal with", "would form a naked diagonal with", "already holds a",
           "is taken already", "would leave the NDE area", "could never be filled", "The game is over: "]),
        "comes after the end of the game",
        "the game is over: ",
    ]
    folder = ROOT / "unitile_py" / game
    module = Path(inspect.getfile(bans))
    for path in sorted(folder.glob("*.py")):
        if path == module:
            continue
        code = _without_docstrings(path.read_text(encoding="utf-8"))
        assert [w for w in words if w in code] == [], path.name
    code = _without_docstrings(module.read_text(encoding="utf-8"))
    assert all(w in code for w in words)


def _without_docstrings(source: str) -> str:
    """The source without its docstrings and comments (their examples quote the words)."""
    import ast

    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            body[0].value.value = ""
    return ast.unparse(tree)


def test_a_links_refused_placement_is_said_without_a_culprit_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Salvaging a link needs only the kind of ban (docs/naked-diagonal.md, "Explanations in bounded
    time"); ``explain`` and a refused ``play`` name the culprit."""
    from unitile_py.naked_diagonal import legality

    game = {"size": 5, "start": NDE_START, "moves": ["d1"]}
    explained = NDApi().explain({**game, "moves": []}, "d1")
    assert explained is not None and explained["culprit"] == ["d2"]

    def no_search(*args: Any) -> Any:
        raise AssertionError("the culprit was sought")

    monkeypatch.setattr(legality, "culprit_of", no_search)
    assert NDApi().salvage(game)["problem"] == (
        "move 1 of the link, d1, would leave an area that no sequence of placements can fill (NDE), "
        "so it was not played")
    g = NDGame(NDPosition.parse(NDE_START))
    quick = g.quick_ban(g.grid.point("d1"))
    assert isinstance(quick, nd_bans.LeavesNDE) and quick.culprit == quick.area and not quick.narrowed
