"""The review's shared verdicts (unitile_py.review): each verdict from hand-made results, the best moves,
the summary and the text table."""

from __future__ import annotations

import pytest

from unitile_py.review import (
    BEST,
    GOOD,
    INACCURACY,
    MISTAKE,
    best_of,
    format_review,
    ply_row,
    rank,
    review_of,
    summary,
    verdict,
)


@pytest.mark.parametrize(
    ("before", "after", "best", "expected"),
    [
        (("win", 5), ("loss", 4), False, MISTAKE),  # the win thrown away
        (("win", 5), ("loss", 10), False, MISTAKE),
        (("win", 5), ("win", 5), True, BEST),
        (("loss", 6), ("loss", 6), True, BEST),  # the longest loss is perfect play too
        (("win", 5), ("win", 7), False, INACCURACY),  # a win kept, two plies slower
        (("loss", 6), ("loss", 2), False, INACCURACY),  # a loss hastened
        (("loss", 6), ("loss", 6), False, GOOD),  # as long a loss as the best, yet not listed best
        (("loss", 6), ("loss", 8), False, GOOD),
        (("win", 5), ("win", 3), False, GOOD),
        (("loss", 6), ("win", 3), False, GOOD),  # the opponent's results were wrong: nothing to blame
    ],
)
def test_each_verdict(before: tuple[str, int], after: tuple[str, int], best: bool, expected: str) -> None:
    assert verdict(before, after, best) == expected


def test_a_mistake_is_a_mistake_even_when_called_best() -> None:
    # mistake exactly when the mover had a win and the move loses it, whatever else is said of it
    assert verdict(("win", 1), ("loss", 2), True) == MISTAKE


def test_best_of_is_the_fastest_win_else_the_longest_loss() -> None:
    assert best_of({"a": ("loss", 3), "b": ("loss", 7), "c": ("loss", 7)}) == ["b", "c"]
    assert best_of({"a": ("loss", 3), "b": ("win", 9), "c": ("win", 4)}) == ["c"]
    assert best_of({}) == []
    assert rank(("win", 1)) > rank(("win", 2)) > rank(("loss", 9)) > rank(("loss", 1))


def test_rows_summary_and_table() -> None:
    rows = [
        ply_row(1, "c4", "r", "X r", ("win", 9), ("win", 9), ["c4", "b3"]),
        ply_row(2, "d4", "b", "X b", ("loss", 8), ("loss", 6), ["b3"]),
        ply_row(3, "e5", "r", "X r", ("win", 5), ("loss", 4), ["a1"]),
        ply_row(4, "a1", "b", "X b", ("win", 3), ("loss", 2), ["b1"]),
        ply_row(5, "b1", "r", "X r", ("win", 1), ("win", 3), ["c1"]),
    ]
    assert [r["verdict"] for r in rows] == [BEST, INACCURACY, MISTAKE, MISTAKE, INACCURACY]
    assert rows[0] == {
        "ply": 1,
        "move": "c4",
        "mover": "red",
        "position": "X r",
        "before": {"outcome": "win", "distance": 9},
        "after": {"outcome": "win", "distance": 9},
        "best": ["b3", "c4"],
        "verdict": "best",
    }
    counts = summary(rows)
    assert counts == {"red": {"mistakes": 1, "inaccuracies": 1}, "blue": {"mistakes": 1, "inaccuracies": 1}}
    text = format_review(review_of(rows), "plies").splitlines()
    assert len(text) == 1 + 5 + 3
    assert text[2].split() == ["2", "blue", "d4", "loss", "8", "loss", "6", "inaccuracy", "b3"]
    # no list of the best moves after a best move
    assert text[1].split() == ["1", "red", "c4", "win", "9", "win", "9", "best"]
    assert text[-2] == "red: 1 mistake, 1 inaccuracy; blue: 1 mistake, 1 inaccuracy"
    # red kept the result in 2 of its 3 plies (the mistake lost it), the distance in 1 of those 2
    assert text[-1] == ("accuracy (result, distance): red 66.7% (2/3), 50.0% (1/2); "
                        "blue 50.0% (1/2), 0.0% (0/1)")


def test_a_game_without_moves() -> None:
    review = review_of([])
    assert review == {
        "plies": [],
        "summary": {
            side: {"mistakes": 0, "inaccuracies": 0, "accuracy": {
                "moves": 0, "kept_result": 0, "kept_distance": 0, "result": None, "distance": None}}
            for side in ("red", "blue")
        },
    }
    assert format_review(review, "placements").splitlines()[0] == "no moves to review"
