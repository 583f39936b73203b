"""The committed Naked Diagonal tables and their reader (unitile_py/naked_diagonal/tables.py): who wins,
every answer consistent with the rules engine, every kind of damage refused in one line, level 6 and
``nd analyze``."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unitile_py.cli import main
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.legality import legal_masks
from unitile_py.naked_diagonal.players import PERFECT, levels_for, make_player
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.tables import HEADER, NDTables, solved_sizes, tables_for, tables_problem
from unitile_py.naked_diagonal.webapi import Api

COMMITTED = Path(__file__).resolve().parents[3] / "tables" / "naked-diagonal"


def random_positions(n: int, count: int, seed: int) -> list[Position]:
    """Positions of seeded random games (every position of each game, the end included)."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        game = Game(Position.empty(n))
        out.append(game.position)
        while not game.is_over():
            game.push(rng.choice(game.legal_moves()))
            out.append(game.position)
    return out[:count]


def test_the_solved_sizes_and_who_wins() -> None:
    assert solved_sizes() == (2, 3, 4)
    results = {n: tables_for(n).outcome(Position.empty(n)) for n in (2, 3, 4)}
    assert results == {2: ("loss", 4), 3: ("win", 9), 4: ("loss", 16)}
    for n in (2, 3, 4):
        start = tables_for(n).manifest["start"]
        game = Game(Position.empty(n))
        for name in start["line"]:
            game.push_name(name)
        assert game.winner() == start["winner"][0] and len(start["line"]) == results[n][1]
    counts = [t["positions"] for t in tables_for(4).manifest["tiers"]]
    assert counts[1:6] == [16, 240, 1428, 7862, 24756]


@pytest.mark.parametrize("n", [3, 4])
def test_answers_agree_with_the_rules(n: int) -> None:
    tables = tables_for(n)
    for position in random_positions(n, 120 if n == 3 else 60, seed=n):
        kind, distance = tables.outcome(position)
        moves = tables.moves(position)
        red, blue = legal_masks(position)
        mine = red if position.turn == "r" else blue
        if position.winner() is not None:
            assert moves == {} and distance == 0
            continue
        assert set(moves) == set(position.grid.points(mine))
        best = tables.best(position)
        assert best and all(moves[p] == (kind, distance) for p in best)
        for k, d in moves.values():
            if kind == "win":
                assert k == "loss" or d >= distance
            else:
                assert k == "loss" and d <= distance
        # every image of the position has the same answer
        for sym in position.grid.symmetries:
            assert tables.outcome(position.transform(sym)) == (kind, distance)


def test_what_the_tables_cannot_answer() -> None:
    tables = tables_for(3)
    with pytest.raises(NakedDiagonalError, match="not reachable from the empty board"):
        tables.outcome(Position.parse("R../.../... r"))
    with pytest.raises(NakedDiagonalError, match="on a 4x4 board"):
        tables.outcome(Position.empty(4))
    # 6x6: no folder (5x5's holds a strategy once the proof is shipped, which the tables refuse too)
    with pytest.raises(NakedDiagonalError, match=r"6x6: no tables in .* \(solved sizes: 2x2, 3x3, 4x4\)"):
        tables_for(6)
    over = Position.parse("BRR/.R./.R. b")
    assert tables.outcome(over) == ("loss", 0) and tables.analysis(over) == {
        "outcome": "loss", "distance": 0, "moves": {}}


# Damage ------------------------------------------------------------------------------------------


def damaged(change: Callable[[dict[str, bytes]], None], fix_sha: bool = True) -> str:
    """The one-line error of the 3x3 tables after ``change`` (the manifest's sha256 fixed to match)."""
    files = {p.name: p.read_bytes() for p in (COMMITTED / "3x3").iterdir()}
    change(files)
    if fix_sha:
        manifest = json.loads(files["manifest.json"])
        for name, info in manifest["files"].items():
            if name in files:
                info["bytes"] = len(files[name])
                info["sha256"] = hashlib.sha256(files[name]).hexdigest()
        files["manifest.json"] = json.dumps(manifest).encode()
    with pytest.raises(NakedDiagonalError) as err:
        NDTables.from_files(3, files)
    message = str(err.value)
    assert "\n" not in message and message.startswith("tables damaged: tables naked-diagonal 3x3")
    return message


def header(files: dict[str, bytes], name: str, **fields: object) -> None:
    """Rewrite header fields of a tier file."""
    keys = ("magic", "format", "n", "stones", "records", "per_block", "width", "zero")
    values = dict(zip(keys, HEADER.unpack_from(files[name]), strict=True))
    values.update(fields)
    files[name] = HEADER.pack(*values.values()) + files[name][HEADER.size:]


def block(files: dict[str, bytes], name: str, edit: Callable[[bytearray, int, int], None]) -> None:
    """Rewrite the (one) block of a 3x3 tier file: inflate, ``edit(raw, records, key width)``, deflate,
    fix the offsets."""
    data = files[name]
    base = HEADER.size + 8 + 8
    raw = bytearray(zlib.decompress(data[base:]))
    fields = HEADER.unpack_from(data)
    edit(raw, fields[4], fields[6])
    packed = zlib.compress(bytes(raw), 9)
    files[name] = data[: HEADER.size + 8] + struct.pack("<II", 0, len(packed)) + packed


def set_manifest(files: dict[str, bytes], edit: Callable[[dict[str, object]], None]) -> None:
    manifest = json.loads(files["manifest.json"])
    edit(manifest)
    files["manifest.json"] = json.dumps(manifest).encode()


def value(v: int) -> Callable[[bytearray, int, int], None]:
    """An edit of a block setting the last record's value byte to ``v`` (or 4 if it is ``v`` already)."""

    def edit(raw: bytearray, m: int, width: int) -> None:
        raw[-1] = v if raw[-1] != v else 4

    return edit


def equal_keys(raw: bytearray, m: int, width: int) -> None:
    """An edit of a block making its second key equal to the first (a zero delta)."""
    for k in range(width):
        raw[k * m + 1] = 0


def test_every_kind_of_damage_is_one_line() -> None:
    def flip(files: dict[str, bytes]) -> None:
        files["t05.bin"] = files["t05.bin"][:-3] + bytes([files["t05.bin"][-3] ^ 1]) + files["t05.bin"][-2:]

    cases: list[tuple[Callable[[dict[str, bytes]], None], bool, str]] = [
        (flip, False, "t05.bin is altered (its sha256 differs"),
        (lambda f: f.update({"t05.bin": f["t05.bin"][:-5]}), False,
         "t05.bin has 308 bytes, manifest.json says 313"),
        (lambda f: f.pop("t04.bin"), False, "t04.bin is missing"),
        (flip, True, "t05.bin block 0 is corrupt"),
        (lambda f: header(f, "t05.bin", magic=b"XXXX"), True, "is not a Naked Diagonal tables file"),
        (lambda f: header(f, "t05.bin", format=2), True, "has format 2; this reader reads format 1"),
        (lambda f: header(f, "t05.bin", n=4), True, "header field board 4"),
        (lambda f: header(f, "t05.bin", per_block=3000), True,
         "records per block 3000 is not a power of two"),
        (lambda f: header(f, "t05.bin", width=3), True, "key width 3 is not 1, 2, 4 or 8"),
        (lambda f: header(f, "t05.bin", records=5000), True, "t05.bin is truncated or has extra bytes"),
        (lambda f: header(f, "t05.bin", records=100), True, "t05.bin block 0 has the wrong size"),
        (lambda f: block(f, "t05.bin", value(1)), True, "value byte 1 is no outcome at 5 stones"),
        (lambda f: block(f, "t05.bin", value(40)), True, "value byte 40 is no outcome at 5 stones"),
        (lambda f: block(f, "t05.bin", value(2)), True,
         "t05.bin records differ from manifest.json (records_sha256)"),
        (lambda f: block(f, "t05.bin", equal_keys), True,
         "t05.bin block 0: keys are not strictly increasing"),
        (lambda f: block(f, "t01.bin", lambda raw, m, w: raw.__setitem__(1, raw[1] + 1)), True,
         "is not a position with 1 stones"),
        (lambda f: f.update({"manifest.json": b"{"}), False, "manifest.json is not valid JSON"),
        (lambda f: set_manifest(f, lambda m: m.update(board="4x4")), False, "manifest.json is for board 4x4"),
        (lambda f: set_manifest(f, lambda m: m.update(files={"../x.bin": {}})), False,
         "file name '../x.bin' is not tNN.bin"),
        (lambda f: set_manifest(f, lambda m: m["tiers"][3].pop("records")), False,
         "tiers[3]: field 'records' must be a whole number"),
        (lambda f: set_manifest(f, lambda m: m["tiers"][3].update(stones=4)), False,
         "stones 4 is off the board or listed twice"),
        (lambda f: set_manifest(f, lambda m: m["tiers"][3].update(records=1)), False,
         "t03.bin does not match manifest.json"),
    ]
    for change, fix_sha, message in cases:
        assert message in damaged(change, fix_sha)


# Players and the command line ----------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_perfect_play_against_itself_reaches_the_solved_result(n: int) -> None:
    game = Game(Position.empty(n))
    players = {"r": make_player(PERFECT, 1), "b": make_player(PERFECT, 2)}
    while not game.is_over():
        game.push(players[game.position.turn].choose(game.position))
    start = tables_for(n).manifest["start"]
    assert game.winner() == start["winner"][0] and len(game.moves) == start["distance"]


def test_perfect_play_wins_its_won_side_against_any_level() -> None:
    for seed in range(3):
        for n, winner in ((3, "r"), (4, "b")):
            game = Game(Position.empty(n))
            players = {winner: make_player(PERFECT, seed), "rb".replace(winner, ""): make_player(1, seed)}
            while not game.is_over():
                game.push(players[game.position.turn].choose(game.position))
            assert game.winner() == winner
    assert levels_for(4)[-1] == PERFECT and PERFECT not in levels_for(7)
    with pytest.raises(NakedDiagonalError, match="6x6: no tables"):
        make_player(PERFECT, 1).choose(Position.empty(6))


def test_analyze_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nd", "analyze", ".../R../... b", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert list(info) == ["outcome", "distance", "moves"]
    assert (info["outcome"], info["distance"]) == ("loss", 8)
    assert info["moves"]["b2"] == {"outcome": "loss", "distance": 4} and "a2" not in info["moves"]
    assert main(["nd", "analyze", ".../.../... r"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Red to move wins in 9 placements with perfect play"
    assert [line.split()[0] for line in out[2:] if line.endswith("*")] == ["a2", "c2"]
    assert main(["nd", "analyze", "/".join(["......"] * 6) + " r"]) == 2
    assert "6x6: no tables" in capsys.readouterr().err


def test_analyze_many_positions(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    lines = "..../..../..../.... r\nnot a position\n.R../..../..../.... b\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(["nd", "analyze", "-", "--json"]) == 2
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0]["outcome"] == "loss" and rows[0]["distance"] == 16 and len(rows[0]["moves"]) == 16
    assert "error" in rows[1] and rows[2]["outcome"] == "win"


@pytest.mark.parametrize("fmt", [True, 1.0, "1"])
def test_a_format_that_is_not_the_whole_number_is_refused(fmt: object) -> None:
    """Issue 35: ``"format": true`` was read as format 1 (in Python a bool is an int)."""
    message = damaged(lambda f: set_manifest(f, lambda m: m.update(format=fmt)), False)
    assert "manifest.json is not format 1 of Naked Diagonal tables" in message


# Damaged tables in a folder: lookups and the web API's nd_info ------------------------------------------


def drop_tier(manifest: dict[str, Any], stones: int, from_files: bool) -> None:
    entry = next(t for t in manifest["tiers"] if t["stones"] == stones)
    manifest["tiers"].remove(entry)
    if from_files:
        del manifest["files"][entry["file"]]


def damage_4x4(folder: Path, how: str) -> None:
    """Damage the 4x4 tables in ``folder`` (a copy of tables/naked-diagonal) one way."""
    path = folder / "4x4" / "manifest.json"
    if how.startswith("tier-left-out"):
        manifest = json.loads(path.read_text())
        drop_tier(manifest, 5, from_files=how.endswith("files"))
        path.write_text(json.dumps(manifest))
    elif how == "last-tier-left-out":
        manifest = json.loads(path.read_text())
        drop_tier(manifest, 16, from_files=True)
        path.write_text(json.dumps(manifest))
    elif how == "tier-file-missing":
        (folder / "4x4" / "t05.bin").unlink()
    else:
        tier = folder / "4x4" / "t05.bin"
        data = bytearray(tier.read_bytes())
        data[-3] ^= 1
        tier.write_bytes(bytes(data))


DAMAGE = {
    "tier-left-out": "manifest.json: no tier of 5 stones (the tiers hold 0 to 16)",
    "tier-left-out-of-files": "manifest.json: no tier of 5 stones (the tiers hold 0 to 16)",
    "last-tier-left-out": "manifest.json: the tiers hold 493575 records, field 'records' says 494077",
    "tier-file-missing": "cannot read",
    "tier-file-damaged": "t05.bin is altered (its sha256 differs from manifest.json)",
}


@pytest.fixture
def damaged_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the tables directory, which the game reads ($UNITILE_TABLES)."""
    root = tmp_path / "tables"
    shutil.copytree(COMMITTED.parent, root)
    monkeypatch.setenv("UNITILE_TABLES", str(root))
    return root / "naked-diagonal"


@pytest.mark.parametrize("how", list(DAMAGE))
def test_damaged_tables_are_said_to_be_damaged(damaged_root: Path, how: str) -> None:
    """A position of a tier left out was "not reachable from the empty board"; the web API offered
    perfect play on 4x4 all the same. Now every lookup is one line "tables damaged: ...", and nd_info
    leaves 4x4 out (3x3 stays)."""
    api = Api()
    assert 4 in api.info()["perfect_sizes"]
    damage_4x4(damaged_root, how)
    position = Position.parse("..RR/R.../B.B./.... b")  # 5 stones
    with pytest.raises(NakedDiagonalError) as err:
        NDTables.load(4, damaged_root).outcome(position)
    message = str(err.value)
    assert "\n" not in message and message.startswith("tables damaged: tables naked-diagonal 4x4: ")
    assert DAMAGE[how] in message
    assert tables_problem(4) == message and tables_problem(3) is None
    info = Api().info()
    assert 4 not in info["perfect_sizes"] and 3 in info["perfect_sizes"]
    game = Api().new_game(4)
    with pytest.raises(NakedDiagonalError, match=r"^tables damaged: tables naked-diagonal 4x4: "):
        Api().computer_move(game, 6, 1)


def test_a_board_whose_folder_holds_its_manifest_alone_is_offered_unchecked(damaged_root: Path) -> None:
    """The site's worker writes a board's files with its first request of that size (issue 50): until
    then the folder holds its manifest alone, and nd_info offers level 6 there all the same; a folder
    with some of its files is checked as before."""
    for folder in (damaged_root / "4x4", damaged_root / "5x5"):
        for path in folder.iterdir():
            if path.name != "manifest.json":
                path.unlink()
    info = Api().info()
    assert {3, 4, 5} <= set(info["perfect_sizes"]) and info["proof_sizes"].get("5") == "red"
    assert 4 in info["table_sizes"]
    (damaged_root / "4x4" / "t05.bin").write_bytes(b"damaged")
    assert 4 not in Api().info()["perfect_sizes"]
