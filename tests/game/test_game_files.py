"""``review`` and ``record`` of a file of many games, both games: a three-game ``match --records`` file
reviewed and normalised game by game, ``--game N``, a bad game in the middle in one line with its
number while the others still come out, and a file of one game as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.game.unitile.test_match import run_cli

#: Each game's command prefix and the seeded match whose records make the file (three games).
MATCHES = {
    "unitile": ([], ["--red", "2", "--blue", "3", "--games", "3", "--seed", "22"]),
    "nd": (["nd"], ["--size", "4x4", "--red", "2", "--blue", "3", "--games", "3", "--seed", "22"]),
}
#: A second game that breaks the rules on its first turn, for each game.
BAD = {"unitile": "1. a1 *", "nd": '[Board "4x4"]\n1. b2 a1 2. a3 *'}


def match_file(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The records of the seeded match of ``game``, written by ``match --records``."""
    prefix, args = MATCHES[game]
    path = tmp_path / f"{game}.txt"
    status, _, err = run_cli([*prefix, "match", *args, "--records", str(path)], capsys)
    assert (status, err) == (0, "")
    return path


def games_of(path: Path) -> list[str]:
    """The games of a match file, split by hand (a blank line between games)."""
    return path.read_text().strip().split("\n\n")


def cli(game: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    return run_cli([*MATCHES[game][0], *argv], capsys)


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_review_of_a_three_game_file(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = match_file(game, tmp_path, capsys)
    records = games_of(path)
    assert len(records) == 3
    status, out, err = cli(game, ["review", str(path), "--json"], capsys)
    assert (status, err) == (0, "")
    lines = [json.loads(line) for line in out.splitlines()]
    assert sorted({line["game"] for line in lines}) == [1, 2, 3]  # every line names its game
    for number, record in enumerate(records, 1):
        one = tmp_path / f"one{number}.txt"
        one.write_text(record + "\n")
        status, alone, err = cli(game, ["review", str(one), "--json"], capsys)
        assert (status, err) == (0, "")
        # each game reviewed as its record alone is, its number added; its summary last
        assert [{"game": number, **json.loads(x)} for x in alone.splitlines()] == [
            line for line in lines if line["game"] == number
        ]
        assert "game" not in json.loads(alone.splitlines()[0])  # a file of one game: no number
    status, second, err = cli(game, ["review", str(path), "--json", "--game", "2"], capsys)
    assert (status, err) == (0, "")
    assert [json.loads(x) for x in second.splitlines()] == [line for line in lines if line["game"] == 2]
    # the text form: a heading line a game, then its table, summary and accuracy
    status, text, err = cli(game, ["review", str(path)], capsys)
    assert (status, err) == (0, "")
    headings = [x for x in text.splitlines() if x.startswith("game ")]
    assert headings == ["game 1 (line 1)", f"game 2 (line {len(records[0].splitlines()) + 2})",
                        f"game 3 (line {len(records[0].splitlines()) + len(records[1].splitlines()) + 3})"]
    assert text.count("\naccuracy (result, distance): ") == 3
    status, text2, err = cli(game, ["review", str(path), "--game", "2"], capsys)
    assert text2.splitlines()[0] == headings[1] and text2.strip() in text


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_a_bad_game_in_the_middle_is_one_line(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = match_file(game, tmp_path, capsys)
    records = games_of(path)
    status, good, _ = cli(game, ["review", str(path), "--json"], capsys)
    bad = tmp_path / "bad.txt"
    bad.write_text("\n\n".join([records[0], BAD[game], records[2]]) + "\n")
    for command in ("review", "record"):
        status, out, err = cli(game, [command, str(bad), "--json"] if command == "review" else
                               [command, str(bad)], capsys)  # fmt: skip
        assert status == 2
        assert len(err.splitlines()) == 1 and err.startswith(f"error: {bad}: game 2: "), err
        if command == "review":  # the others still reviewed, as in the good file
            kept = [json.loads(x) for x in good.splitlines() if json.loads(x)["game"] != 2]
            assert [json.loads(x) for x in out.splitlines()] == kept
        else:
            assert out.count("[Round ") == 2
    status, out, err = cli(game, ["review", str(bad), "--game", "2"], capsys)
    assert status == 2 and out == "" and err.startswith(f"error: {bad}: game 2: ")
    status, out, err = cli(game, ["review", str(bad), "--game", "3"], capsys)
    assert (status, err) == (0, "") and out.startswith("game 3 (line ")


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_record_of_a_three_game_file(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = match_file(game, tmp_path, capsys)
    records = games_of(path)
    status, out, err = cli(game, ["record", str(path)], capsys)
    assert (status, err) == (0, "")
    blocks = out.split("\n\n")
    assert len(blocks) == 3
    for number, (record, block) in enumerate(zip(records, blocks, strict=True), 1):
        one = tmp_path / "one.txt"
        one.write_text(record)
        expected = (0, block.rstrip("\n") + "\n", "")
        assert cli(game, ["record", str(one)], capsys) == expected  # as the record alone, as before
        assert cli(game, ["record", str(path), "--game", str(number)], capsys) == expected
    status, out, err = cli(game, ["record", str(path), "--game", "4"], capsys)
    assert (status, out) == (2, "") and err == f"error: {path}: no game 4: the file holds 3 games\n"
