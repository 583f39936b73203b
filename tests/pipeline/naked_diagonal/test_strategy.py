"""Strategy files (docs/naked-diagonal-tables.md, "Strategy files"): the writer and a solved board's
strategy from its tables (pipeline/naked_diagonal/strategy_file.py), the reader
(unitile_py/naked_diagonal/strategy.py) and the separate verifier (pipeline/naked_diagonal/check_strategy.py).

The committed 3x3 and 4x4 tables give the strategies; each test writes its folder into ``tmp_path``."""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
import sys
from bisect import bisect_left
from functools import cache
from pathlib import Path

import pytest

from pipeline.naked_diagonal import cli as nd_cli
from pipeline.naked_diagonal.check_strategy import Rejected, check_strategy, load_checked
from pipeline.naked_diagonal.strategy_file import (
    canonical_records,
    compacted,
    strategy_files,
    strategy_from_tables,
    write_strategy,
)
from unitile_py.colours import RED, other
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.keys import canonical, canonical_key, key_position
from unitile_py.naked_diagonal.legality import after, is_legal, legal_masks
from unitile_py.naked_diagonal.perfect import winning_placement
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.strategy import (
    DATA_FILE,
    Bounded,
    Strategy,
    answers_digest,
    strategy_problem,
)
from unitile_py.naked_diagonal.tables import tables_for

ROOT = Path(__file__).resolve().parents[3]


@cache
def built(n: int) -> tuple[str, dict[int, int]]:
    """The winner and the records of the n x n strategy from the committed tables (built once)."""
    return strategy_from_tables(n)


def records(n: int) -> dict[int, int]:
    return dict(built(n)[1])


def written(tmp_path: Path, n: int, recs: dict[int, int] | None = None, name: str = "s") -> Path:
    winner, original = built(n)
    folder = tmp_path / name
    write_strategy(folder, n, winner, original if recs is None else recs)
    return folder


def rejection(folder: Path) -> str:
    with pytest.raises(Rejected) as info:
        check_strategy(load_checked(folder))
    message = str(info.value)
    assert "\n" not in message and "rejected" in message
    return message


def line_and_position(message: str, n: int) -> tuple[list[Position], Position]:
    """The positions along the line of placements a rejection names, and the position it names, which
    must be where that line leads."""
    found = re.search(r"placements from the start: (.*?) \(position (.*?)\): ", message)
    assert found, message
    game = Game(Position.empty(n))
    positions = [game.position]
    if found.group(1) != "none":
        for name in found.group(1).split():
            game.push_name(name)
            positions.append(game.position)
    assert str(game.position) == found.group(2)
    return positions, game.position


def winners_turn_after_reply(n: int) -> Position:
    """A position of the winner's turn reached from the start through the strategy and one of the
    loser's replies (the last legal reply in reading order)."""
    winner, _ = built(n)
    strategy = Strategy(n, {}, winner, sorted(records(n)), bytes(records(n)[k] for k in sorted(records(n))))
    position = Position.empty(n)
    if position.turn == winner:
        move = strategy.move_for(position)
        assert move is not None
        position = after(position, move)
    red, blue = legal_masks(position)
    reply = Grid.points(red if position.turn == RED else blue)[-1]
    position = after(position, reply)
    assert position.turn == winner and position.winner() is None
    return position


def replaced(n: int, position: Position, move: int) -> dict[int, int]:
    """The n x n strategy's records with the placement of ``position`` changed to ``move``."""
    recs = records(n)
    winner, _ = built(n)
    ((key, stored),) = canonical_records(n, winner, {position: move}).items()
    assert key in recs and recs[key] != stored
    recs[key] = stored
    return recs


# Accepted -------------------------------------------------------------------------------------------


def test_the_3x3_strategy_from_the_tables_is_accepted(tmp_path: Path) -> None:
    folder = written(tmp_path, 3)
    strategy = load_checked(folder)
    assert strategy.winner == RED and len(strategy) == 55
    report = check_strategy(strategy)
    assert (report.winner_turns, report.loser_turns, report.won) == (55, 21, 21)
    assert len(report.used) == 55
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["board"] == "3x3" and manifest["winner"] == "red" and manifest["positions"] == 55


def test_the_4x4_strategy_from_the_tables_is_accepted(tmp_path: Path) -> None:
    folder = written(tmp_path, 4)
    report = check_strategy(load_checked(folder))
    assert report.winner == "b" and report.stored == 4142 and len(report.used) == 4142
    assert (report.winner_turns, report.loser_turns, report.won) == (4142, 1371, 1726)


def test_the_command_line_writes_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli"
    assert nd_cli.main(["nd-strategy", "--board", "3x3", "--out", str(out)]) == 0
    assert (out / DATA_FILE).read_bytes() == (written(tmp_path, 3) / DATA_FILE).read_bytes()
    assert nd_cli.main(["nd-check-strategy", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("accepted: 3x3 strategy for Red")
    (out / DATA_FILE).write_bytes((out / DATA_FILE).read_bytes()[:-3])
    assert nd_cli.main(["nd-check-strategy", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "strategy.bin has" in err and "truncated" in err
    assert nd_cli.main(["nd-check-strategy", str(tmp_path / "nowhere")]) == 2
    # The writer does not overwrite a tables folder.
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "manifest.json").write_text('{"game": "naked-diagonal", "format": 1}')
    assert nd_cli.main(["nd-strategy", "--board", "3x3", "--out", str(tables)]) == 2
    assert "not a strategy's" in capsys.readouterr().err


def test_a_strategy_from_a_proof_carries_the_openings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "proof"
    proof = ["nd-strategy", "--board", "3x3", "--from", "proof", "--quiet"]
    assert nd_cli.main([*proof, "--out", str(out)]) == 0
    assert "3x3: Red wins" in capsys.readouterr().out
    manifest = json.loads((out / "manifest.json").read_text())
    analysis = tables_for(3).analysis(Position.empty(3))
    assert manifest["empty_board"] == analysis["outcome"] == "win"
    assert manifest["first_placements"] == {name: m["outcome"] for name, m in analysis["moves"].items()}
    assert manifest["proof"]["nodes"] > 0 and not list(out.glob(".*.part"))
    assert nd_cli.main(["nd-check-strategy", str(out)]) == 0
    # nd-prove's results may be given instead; they must be of this board and decided.
    results = tmp_path / "openings.json"
    results.write_text(json.dumps({"board": "3x3", "winner": "red", "empty_board": "win", "nodes": 7,
                                   "first_placements": manifest["first_placements"]}))
    again = tmp_path / "again"
    assert nd_cli.main(["nd-strategy", "--board", "3x3", "--from", "proof", "--openings", str(results),
                        "--out", str(again), "--quiet"]) == 0
    assert (again / DATA_FILE).read_bytes() == (out / DATA_FILE).read_bytes()
    capsys.readouterr()
    results.write_text(json.dumps({"board": "3x3", "winner": None, "first_placements": {"a1": "unknown"}}))
    assert nd_cli.main(["nd-strategy", "--board", "3x3", "--from", "proof", "--openings", str(results),
                        "--out", str(again)]) == 2
    assert "not decided" in capsys.readouterr().err


# Compact strategies ---------------------------------------------------------------------------------

#: The bounded search of the compact 4x4 strategies here (the whole board is in its reach).
BOUNDED = Bounded(50, 16)


@cache
def compact_4x4() -> dict[int, int]:
    winner, recs = built(4)
    return compacted(4, winner, recs, BOUNDED)


def written_compact(tmp_path: Path, recs: dict[int, int]) -> Path:
    folder = tmp_path / "compact"
    files = strategy_files(4, built(4)[0], recs, "test")
    manifest = json.loads(files["manifest.json"])
    manifest["bounded"] = BOUNDED.manifest()
    folder.mkdir()
    (folder / DATA_FILE).write_bytes(files[DATA_FILE])
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def test_a_compact_strategy_is_accepted_and_holds_only_what_the_search_cannot_win(tmp_path: Path) -> None:
    winner, whole = built(4)
    folder = tmp_path / "c"
    write_strategy(folder, 4, winner, whole, "test", bounded=BOUNDED)
    strategy = load_checked(folder)
    assert strategy.bounded == BOUNDED and strategy.manifest["bounded"] == {"nodes": 50, "empty": 16}
    assert dict(zip(strategy.keys, strategy.moves, strict=True)) == compact_4x4()
    assert len(strategy) < len(whole) // 4
    report = check_strategy(strategy)
    assert report.searched > 0 and len(report.used) == len(strategy)
    assert "won by the bounded search" in report.text()
    # A turn is stored where the bounded search finds no win.
    for key in random.Random(5).sample(strategy.keys, 30):
        assert winning_placement(key_position(4, key), BOUNDED) is None


def test_a_compact_strategy_with_a_changed_move_is_rejected(tmp_path: Path) -> None:
    recs = dict(compact_4x4())
    tables = tables_for(4)
    for key in sorted(recs, key=lambda k: k.bit_count()):
        position = key_position(4, key)
        losing = [p for p, (kind, _) in tables.moves(position).items() if kind == "loss"]
        if losing:
            break
    # ``position`` is the key's own frame (Red to move there: the colours exchanged), as is a record's.
    recs[key] = canonical_records(4, built(4)[0], {key: losing[0]})[key]
    message = rejection(written_compact(tmp_path, recs))
    positions, _ = line_and_position(message, 4)
    assert any(canonical(p)[0] == key for p in positions)


def test_a_compact_strategy_without_a_position_its_search_cannot_win_is_rejected(tmp_path: Path) -> None:
    recs = dict(compact_4x4())
    key = max(recs, key=lambda k: k.bit_count())
    del recs[key]
    message = rejection(written_compact(tmp_path, recs))
    _, named = line_and_position(message, 4)
    assert canonical(named)[0] == key and "its bounded search finds no win" in message


def test_a_stored_position_no_line_reaches_is_rejected(tmp_path: Path) -> None:
    # A record of the whole strategy below a turn that the bounded search wins: every line stops there.
    recs = dict(compact_4x4())
    reached: set[int] = set()
    for key, move in recs.items():
        placed = after(key_position(4, key), move)
        if placed.winner() is None:
            replies = legal_masks(placed)[placed.turn != RED]
            reached.update(canonical_key(after(placed, p)) for p in Grid.points(replies))
    stray = next(k for k in records(4) if k not in recs and k not in reached)
    recs[stray] = records(4)[stray]
    message = rejection(written_compact(tmp_path, recs))
    assert "1 of its" in message and "never reached from the empty board" in message


def test_a_bounded_field_out_of_range_is_a_one_line_error(tmp_path: Path) -> None:
    folder = written_compact(tmp_path, compact_4x4())
    manifest = json.loads((folder / "manifest.json").read_text())
    for bad in ({"nodes": 0, "empty": 16}, {"nodes": 10**9, "empty": 16}, {"nodes": 50},
                {"nodes": 50, "empty": True}):
        manifest["bounded"] = bad
        (folder / "manifest.json").write_text(json.dumps(manifest))
        with pytest.raises(NakedDiagonalError, match=r"bounded\.(nodes|empty) must be a whole number"):
            Strategy.load(None, folder)


# Rejected -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4])
def test_a_changed_move_that_loses_is_rejected(tmp_path: Path, n: int) -> None:
    position = winners_turn_after_reply(n)
    tables = tables_for(n)
    losing = [p for p, (kind, _) in tables.moves(position).items() if kind == "loss"]
    assert losing, "the position has a legal placement that loses"
    message = rejection(written(tmp_path, n, replaced(n, position, losing[0])))
    positions, _ = line_and_position(message, n)
    # The failure lies below the changed position: the line passes through it (or an image of it).
    assert any(canonical(p)[0] == canonical(position)[0] and p.turn == position.turn for p in positions)


@pytest.mark.parametrize("n", [3, 4])
def test_a_changed_move_that_is_illegal_is_rejected(tmp_path: Path, n: int) -> None:
    # The first reached position (fewest stones) with an empty point illegal for the winner.
    def illegal_points(position: Position) -> list[int]:
        return [p for p in Grid.points(position.empty_points) if not is_legal(position, p, position.turn)]

    position, illegal = next((position, illegal) for position in
                             sorted(reached(n), key=lambda p: (p.red | p.blue).bit_count())
                             if (illegal := illegal_points(position)))
    message = rejection(written(tmp_path, n, replaced(n, position, illegal[0])))
    _, named = line_and_position(message, n)
    assert canonical(named)[0] == canonical(position)[0] and named.turn == position.turn
    assert "is illegal" in message


def test_a_changed_first_move_is_rejected_at_the_start(tmp_path: Path) -> None:
    start = Position.empty(3)
    losing = [p for p, (kind, _) in tables_for(3).moves(start).items() if kind == "loss"]
    message = rejection(written(tmp_path, 3, replaced(3, start, losing[0])))
    positions, _ = line_and_position(message, 3)
    assert positions[1] == after(start, losing[0]) or canonical(positions[1])[0] == canonical(
        after(start, losing[0]))[0]


@pytest.mark.parametrize("n", [3, 4])
def test_a_missing_position_is_rejected(tmp_path: Path, n: int) -> None:
    position = winners_turn_after_reply(n)
    recs = records(n)
    del recs[canonical_key(position)]
    message = rejection(written(tmp_path, n, recs))
    _, named = line_and_position(message, n)
    assert canonical(named)[0] == canonical(position)[0] and "has no placement" in message


def test_a_strategy_for_the_loser_is_rejected(tmp_path: Path) -> None:
    """Blue's replies on 3x3 taken from the tables' longest resistance: the line ends with Red's win."""
    tables = tables_for(3)
    recs: dict[Position, int] = {}
    keys: set[int] = set()
    stack = [Position.empty(3)]
    while stack:
        position = stack.pop()
        if position.winner() is not None:
            continue
        if position.turn == RED:
            red, _ = legal_masks(position)
            stack.extend(after(position, p) for p in Grid.points(red))
        elif canonical_key(position) not in keys:  # one frame of each position: the writer takes one
            keys.add(canonical_key(position))
            recs[position] = tables.best(position)[0]
            stack.append(after(position, recs[position]))
    folder = tmp_path / "blue"
    write_strategy(folder, 3, other(RED), recs)
    assert "Red has won" in rejection(folder)


# Damaged files ------------------------------------------------------------------------------------


def damaged_message(folder: Path, n: int | None = None) -> str:
    with pytest.raises(NakedDiagonalError) as info:
        Strategy.load(n, folder)
    message = str(info.value)
    assert "\n" not in message
    return message


def rewrite_manifest(folder: Path, data: bytes) -> None:
    """Store ``data`` as strategy.bin with a manifest that agrees on its size and sha256."""
    (folder / DATA_FILE).write_bytes(data)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"][DATA_FILE] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    (folder / "manifest.json").write_text(json.dumps(manifest))


def copy_of_5x5(tmp_path: Path, **answers: object) -> Path:
    """A copy of the committed 5x5 strategy whose manifest gives ``answers`` (first placements by
    name, or ``empty_board``), re-signed (``answers_sha256`` recomputed) unless ``signed`` is False."""
    folder = tmp_path / "5x5"
    shutil.copytree(ROOT / "tables" / "naked-diagonal" / "5x5", folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    signed = answers.pop("signed", True)
    for name, value in answers.items():
        if name == "empty_board":
            manifest["empty_board"] = value
        else:
            manifest["first_placements"][name] = value
    if signed:
        manifest["answers_sha256"] = answers_digest(manifest)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def test_the_answers_of_a_strategy_manifest_are_checked(tmp_path: Path) -> None:
    """Issue 51, item 4: the empty board's and the first placements' outcomes answer questions, so a
    changed one is caught: by its digest, by the winner, by the strategy's own first placement."""
    start = Position.empty(5)
    first = Grid.get(5).name(Strategy.load(5, ROOT / "tables" / "naked-diagonal").move_for(start) or -1)
    unsigned = copy_of_5x5(tmp_path / "a", a5="loss", signed=False)
    assert "differ from answers_sha256" in damaged_message(unsigned)
    message = damaged_message(copy_of_5x5(tmp_path / "b", **{first: "loss"}))
    assert f"says {first} loses for Red, the strategy's own first placement" in message
    assert "contradicts the winner" in damaged_message(copy_of_5x5(tmp_path / "c", empty_board="loss"))
    assert "for a point of the 5x5 board" in damaged_message(copy_of_5x5(tmp_path / "d", z99="win"))
    assert "for a point of the 5x5 board" in damaged_message(copy_of_5x5(tmp_path / "e", f1="win"))
    # The verifier refuses the folder too, and the web API does not offer a damaged size.
    with pytest.raises(Rejected, match="contradicts the winner"):
        load_checked(copy_of_5x5(tmp_path / "f", empty_board="loss"))
    assert strategy_problem(5, tmp_path / "c") is not None and strategy_problem(5, tmp_path / "a") is not None
    assert strategy_problem(5, ROOT / "tables" / "naked-diagonal") is None


def test_damaged_files_are_one_line_errors(tmp_path: Path) -> None:
    folder = written(tmp_path, 4)
    good = (folder / DATA_FILE).read_bytes()
    manifest = (folder / "manifest.json").read_text()

    (folder / DATA_FILE).write_bytes(good[:-10])
    assert "truncated" in damaged_message(folder)
    (folder / DATA_FILE).write_bytes(good)

    digest = json.loads(manifest)["files"][DATA_FILE]["sha256"]
    (folder / "manifest.json").write_text(manifest.replace(digest, "0" * 64))
    assert "is altered" in damaged_message(folder)
    (folder / "manifest.json").write_text(manifest)

    assert "is for board '4x4'; expected 3x3" in damaged_message(folder, 3)
    (folder / "manifest.json").write_text(manifest.replace('"board": "4x4"', '"board": "9x9"'))
    assert "is for board '9x9'" in damaged_message(folder)
    (folder / "manifest.json").write_text(manifest[:40])
    assert "not valid JSON" in damaged_message(folder)
    (folder / "manifest.json").write_text(manifest)

    # Consistent edits of the file (manifest updated): the header, a block, a record.
    rewrite_manifest(folder, b"NDSX" + good[4:])
    assert "not a Naked Diagonal strategy file" in damaged_message(folder)
    rewrite_manifest(folder, good[:6] + b"\x03" + good[7:])
    assert "header field board 3" in damaged_message(folder)
    body = bytearray(good)
    body[-5] ^= 0xFF
    rewrite_manifest(folder, bytes(body))
    assert re.search(r"block \d+ (is corrupt|has the wrong size)|records differ", damaged_message(folder))
    rewrite_manifest(folder, good)
    assert Strategy.load(4, folder).winner == "b"

    recs = records(4)
    key = min(recs)
    recs[key] = next(p for p in range(16) if key >> p & 1 or key >> (16 + p) & 1)  # an occupied point
    bad = strategy_files(4, "b", recs)[DATA_FILE]
    rewrite_manifest(folder, bad)
    assert "not an empty point" in damaged_message(folder)


def test_a_record_digest_that_differs_is_an_error(tmp_path: Path) -> None:
    folder = written(tmp_path, 3)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["records_sha256"] = "0" * 64
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert "records differ from manifest.json" in damaged_message(folder)
    manifest["positions"] = 54
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert "does not match manifest.json" in damaged_message(folder)


# The writer and the reader --------------------------------------------------------------------------


def reached(n: int) -> list[Position]:
    """Every position of the winner's turn that the n x n strategy reaches, in the frames play meets."""
    winner, _ = built(n)
    strategy = Strategy(n, {}, winner, sorted(records(n)), bytes(records(n)[k] for k in sorted(records(n))))
    out, seen, stack = [], set(), [Position.empty(n)]
    while stack:
        position = stack.pop()
        if position.winner() is not None or position in seen:
            continue
        seen.add(position)
        if position.turn == winner:
            out.append(position)
            move = strategy.move_for(position)
            assert move is not None
            stack.append(after(position, move))
        else:
            red, blue = legal_masks(position)
            stack.extend(after(position, p) for p in Grid.points(red if position.turn == RED else blue))
    return out


def after_key(position: Position, move: int) -> int:
    return canonical_key(position.place(move, position.turn))


@pytest.mark.parametrize("n", [3, 4])
def test_move_for_agrees_with_the_writer_on_every_symmetric_image(tmp_path: Path, n: int) -> None:
    winner, _ = built(n)
    positions = reached(n)[:: 1 if n == 3 else 7]
    given = {}
    keys = set()
    for position in positions:
        if canonical_key(position) in keys:
            continue  # one frame of each position (the writer refuses two that disagree)
        keys.add(canonical_key(position))
        red, blue = legal_masks(position)
        given[position] = Grid.get(n).points(red if winner == RED else blue)[-1]
    folder = tmp_path / "given"
    write_strategy(folder, n, winner, given)
    strategy = Strategy.load(n, folder)
    keeping = [s for s in Grid.get(n).symmetries if not s.swaps_edges]
    for position, move in given.items():
        for s in keeping:
            image = position.transform(s)
            answer = strategy.move_for(image)
            assert answer is not None
            # The stored placement, mapped back, is the image of the given one up to the symmetries
            # that fix the position: the positions after them are the same up to symmetry.
            assert after_key(image, answer) == after_key(image, s.image[move])
            assert is_legal(image, answer, winner)
        assert strategy.move_for(position.with_turn(other(winner))) is None


def test_canonical_keys_are_the_tables_keys() -> None:
    """Every key a strategy stores is a record of the committed tables, with Red to move."""
    for position in reached(3) + reached(4)[::50]:
        tier = tables_for(position.grid.n).tiers[(position.red | position.blue).bit_count()]
        assert tier.value(canonical_key(position)) is not None
        assert canonical_key(position) >> (2 * position.grid.size) == 0


def test_the_writer_is_deterministic(tmp_path: Path) -> None:
    winner, recs = built(3)
    shuffled = dict(sorted(recs.items(), key=lambda item: (item[0] * 7919) % 1009))
    assert strategy_files(3, winner, recs) == strategy_files(3, winner, shuffled)
    # By positions or by keys, one entry or several images of it: the same bytes.
    start = Position.empty(3)
    g = start.grid
    one = strategy_files(3, RED, {start: g.point("a2")})
    assert one == strategy_files(3, RED, {start: g.point("c2")})  # the mirror image of a2
    assert one == strategy_files(3, RED, {canonical_key(start): g.point("a2")})
    corners = Position.parse("R../.../..B r")
    turned = corners.transform(g.symmetries[2])  # the half turn: B../.../..R r
    assert strategy_files(3, RED, {corners: g.point("b3")}) == strategy_files(3, RED, {turned: g.point("b1")})
    assert len(canonical_records(3, RED, {corners: g.point("b3"), turned: g.point("b1")})) == 1
    with pytest.raises(NakedDiagonalError, match="two different placements"):
        canonical_records(3, RED, {corners: g.point("b3"), turned: g.point("b3")})
    with pytest.raises(NakedDiagonalError, match="with Red to move"):
        canonical_records(3, RED, {start.with_turn("b"): 0})


def test_the_verifier_imports_no_search_but_the_bounded_one_and_no_tables() -> None:
    code = ("import sys, pipeline.naked_diagonal.check_strategy\n"
            "print(' '.join(sorted(sys.modules)))")
    loaded = set(subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True,
                                text=True, env={"PYTHONPATH": str(ROOT)}).stdout.split())
    assert "pipeline.naked_diagonal.check_strategy" in loaded
    engine = {"areas", "bans", "cache", "candidate_repair", "construct", "culprit", "game", "grid", "keys",
              "legality", "notation", "perfect", "position", "rules", "strategy", "witness"}
    ours = {m for m in loaded if m.startswith(("unitile_py.naked_diagonal.", "pipeline."))}
    pipeline = {"pipeline", "pipeline.errors", "pipeline.naked_diagonal",
                "pipeline.naked_diagonal.check_strategy"}
    assert ours <= {f"unitile_py.naked_diagonal.{m}" for m in engine} | pipeline, ours
    assert not {m for m in loaded if m.split(".")[0] in ("numpy", "numba", "dask", "zarr")}


@pytest.mark.parametrize("n, winner", [(5, RED), (6, "b"), (7, RED)])
def test_wide_keys_round_trip(tmp_path: Path, n: int, winner: str) -> None:
    """Boards whose keys pass 64 bits (6x6: 72, 7x7: 98): positions of seeded random games, each with a
    legal placement, written and read back on every image that keeps the players."""
    rng = random.Random(n)
    given: dict[Position, int] = {}
    keys: set[int] = set()
    for _ in range(3):
        position = Position.empty(n)
        while position.winner() is None and len(given) < 40:
            red, blue = legal_masks(position)
            points = Grid.points(red if position.turn == RED else blue)
            if position.turn == winner and canonical_key(position) not in keys:
                keys.add(canonical_key(position))
                given[position] = points[rng.randrange(len(points))]
            position = after(position, points[rng.randrange(len(points))])
    folder = tmp_path / f"{n}"
    write_strategy(folder, n, winner, given)
    strategy = Strategy.load(n, folder)
    assert len(strategy) == len(given) and strategy.winner == winner
    data = (folder / DATA_FILE).read_bytes()
    assert data[16] == -(-2 * n * n // 8)  # bytes per key: 7, 9, 13
    if n >= 6:
        assert max(strategy.keys) >= 1 << 64 and data[17] > 8  # keys and deltas wider than a u64
    keeping = [s for s in Grid.get(n).symmetries if not s.swaps_edges]
    for position, move in given.items():
        for s in keeping:
            image = position.transform(s)
            answer = strategy.move_for(image)
            assert answer is not None and after_key(image, answer) == after_key(image, s.image[move])


def test_a_tables_folder_is_not_a_strategy() -> None:
    message = damaged_message(ROOT / "tables" / "naked-diagonal" / "3x3")
    assert "is not format 1 of a Naked Diagonal strategy" in message


# The committed 5x5 proof ------------------------------------------------------------------------------


@cache
def committed_5x5() -> tuple[Strategy, dict[int, int]]:
    strategy = Strategy.load(5, ROOT / "tables" / "naked-diagonal")
    return strategy, dict(zip(strategy.keys, strategy.moves, strict=True))


def test_the_committed_5x5_proof_is_accepted() -> None:
    # The result of issue 33: Red wins 5x5. About a minute of CPU: the verifier replays every line.
    strategy, _ = committed_5x5()
    manifest = strategy.manifest
    assert strategy.winner == RED and manifest["empty_board"] == "win"
    assert len(strategy) == manifest["positions"]
    report = check_strategy(strategy)
    assert report.winner_turns == len(strategy) == len(report.used)
    assert report.loser_turns > 100_000
    wins = sorted(name for name, kind in manifest["first_placements"].items() if kind == "win")
    assert len(manifest["first_placements"]) == 25 and len(wins) == 13
    start = Position.empty(5)
    assert Grid.get(5).name(strategy.move_for(start) or -1) in wins


def changed_5x5(position: Position, move: int) -> str:
    """The verifier's rejection of the committed 5x5 strategy with the placement of ``position`` changed
    to ``move`` (in memory: the 4x4 tests write and read changed files)."""
    strategy, recs = committed_5x5()
    ((key, stored),) = canonical_records(5, RED, {position: move}).items()
    assert key in recs and recs[key] != stored
    moves = bytearray(strategy.moves)
    moves[bisect_left(strategy.keys, key)] = stored
    with pytest.raises(Rejected) as info:
        check_strategy(Strategy(5, strategy.manifest, RED, strategy.keys, bytes(moves)))
    message = str(info.value)
    assert "\n" not in message and "rejected" in message
    return message


def test_the_5x5_proof_with_a_losing_first_move_is_rejected() -> None:
    start = Position.empty(5)
    losing = Grid.get(5).point("c4")
    assert committed_5x5()[0].manifest["first_placements"]["c4"] == "loss"
    message = changed_5x5(start, losing)
    positions, _ = line_and_position(message, 5)
    assert positions[1] == after(start, losing)


def test_the_5x5_proof_with_a_changed_later_move_is_rejected() -> None:
    # Three placements in: Red's stored move replaced by the first other legal placement that is not an
    # image of it. The lines below it are then not covered (or lost), and the verifier says where.
    strategy, _ = committed_5x5()
    position = after(Position.empty(5), strategy.move_for(Position.empty(5)) or -1)
    position = after(position, Grid.points(legal_masks(position)[1])[0])
    stored = strategy.move_for(position)
    assert stored is not None
    image = canonical(after(position, stored))[0]
    other_move = next(p for p in Grid.points(legal_masks(position)[0])
                      if canonical(after(position, p))[0] != image)
    message = changed_5x5(position, other_move)
    positions, _ = line_and_position(message, 5)
    assert any(canonical(p)[0] == canonical(position)[0] and p.turn == position.turn for p in positions)
