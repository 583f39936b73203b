"""Record numbers of unitile_py.unitile.canonical checked by brute force over whole symmetry classes."""

from __future__ import annotations

import itertools
import random

import pytest

from pipeline.unitile.frames import frame_index, frame_tables
from unitile_py.unitile import Board
from unitile_py.unitile.canonical import Frame, orbit_rep


def images(frame: Frame, red: int) -> list[int]:
    """Every image of a set of red cells under the frame's group."""
    tiles = frame.board.full & ~(1 << frame.cell)
    out = []
    for perm, flip in zip(frame.perms, frame.flips, strict=True):
        img = sum(1 << perm[c] for c in range(frame.board.cells) if red >> c & 1)
        out.append(tiles & ~img if flip else img)
    return out


def key(frame: Frame, red: int) -> tuple[int, ...]:
    return tuple(frame.patterns(red))


@pytest.mark.parametrize("size", ["3x3", "3x5"])
def test_record_numbers_are_dense_and_follow_the_canonical_key(size: str) -> None:
    board = Board.parse(size)
    for cell in sorted({orbit_rep(board, c)[0] for c in range(board.cells)}):
        for swap in (False, True):
            frame = Frame.of(board, cell, swap)
            tiles = [c for c in range(board.cells) if c != cell]
            numbers: dict[tuple[int, ...], int] = {}
            for combo in itertools.combinations(tiles, board.red_count):
                red = sum(1 << c for c in combo)
                index, e = frame.index(frame.patterns(red))
                canonical = min(key(frame, img) for img in images(frame, red))
                assert key(frame, images(frame, red)[e]) == canonical
                assert numbers.setdefault(canonical, index) == index
            ordered = [numbers[k] for k in sorted(numbers)]
            assert ordered == list(range(frame.count))


def test_5x5_symmetric_images_share_their_record() -> None:
    board = Board.get(5, 5)
    rng = random.Random(55)
    for cell in (0, 1, 2, 6, 7, 12):
        for swap in (False, True):
            frame = Frame.of(board, cell, swap)
            tiles = [c for c in range(board.cells) if c != cell]
            for _ in range(150):
                red = sum(1 << c for c in rng.sample(tiles, board.red_count))
                index, e = frame.index(frame.patterns(red))
                assert 0 <= index < frame.count
                found = {frame.index(frame.patterns(img))[0] for img in images(frame, red)}
                assert found == {index}
                assert key(frame, images(frame, red)[e]) == min(key(frame, i) for i in images(frame, red))


def test_5x5_class_counts() -> None:
    board = Board.get(5, 5)
    counts = {(c, s): Frame.of(board, c, s).count for c in (0, 1, 2, 6, 7, 12) for s in (False, True)}
    assert counts[(1, False)] == board.colourings  # no symmetry fixes b5
    assert counts[(1, True)] == board.colourings // 2
    assert counts[(12, False)] == 339106 and counts[(12, True)] == 169817


def test_the_pipelines_numba_numbers_agree() -> None:
    """pipeline.unitile.frames.frame_index (the encoder's and the checking decoder's) gives the reader's
    record
    number and element, and says which colourings are canonical."""
    board = Board.get(5, 5)
    ft = frame_tables(board)
    rng = random.Random(7)
    for f, cell in enumerate(ft.reps.tolist()):
        frame = Frame.of(board, cell, sum(board.row_col(cell)) % 2 == 0)
        tiles = [c for c in range(board.cells) if c != cell]
        for _ in range(300):
            red = sum(1 << c for c in rng.sample(tiles, board.red_count))
            index, e, canonical = frame_index(red, f, ft)
            assert (index, e) == frame.index(frame.patterns(red))
            assert canonical == (key(frame, red) == min(key(frame, i) for i in images(frame, red)))
