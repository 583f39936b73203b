"""Files of many records (unitile_py.record_files): where one game ends and the next begins, and every
record that is one game stays one game, whole."""

from __future__ import annotations

import json

import pytest

from unitile_py.errors import GameError
from unitile_py.record_files import pick, split_games

#: Three games as ``match --records`` writes them: headers, moves, a blank line between games.
MATCH = '[Red "a"]\n[Round "1"]\n1. c4 b4 1-0\n\n[Red "b"]\n[Round "2"]\n1. b3 *\n\n[Red "c"]\n1. d3 0-1\n'


def test_games_of_a_match_file() -> None:
    games = split_games(MATCH)
    assert [(g.number, g.line) for g in games] == [(1, 1), (2, 5), (3, 9)]
    assert games[1].text == '[Red "b"]\n[Round "2"]\n1. b3 *'


@pytest.mark.parametrize(
    "text",
    [
        '[Board "3x3"]\n\n1. b1 c1\n\n2. c2 b2 3. b3 1-0\n',  # blank lines inside one record
        "1. c4 b4 1-0",  # no headers
        '\ufeff[Board "3x3"]\n*',
        "",  # empty: the game's reader says so, as before
        '[Board "3x3"]\n1. b1\n[Event "x"]\n*',  # a header after the moves, no blank line: still its error
        "1. c4 1-0\n1. b3 *",  # moves after the result, no blank line: the result is not the last token
    ],
)
def test_a_file_of_one_game_is_the_whole_text(text: str) -> None:
    assert [(g.number, g.line, g.text) for g in split_games(text)] == [(1, 1, text)]


def test_games_without_headers_and_with_carriage_returns() -> None:
    games = split_games("1. c4 1-0\r\n\r\n1. b3 0-1\r\n\r\n\r\n*")
    assert [(g.line, g.text) for g in games] == [(1, "1. c4 1-0"), (3, "1. b3 0-1"), (6, "*")]


def test_an_unfinished_game_followed_by_headers_is_two_games() -> None:
    games = split_games('1. c4 b4\n\n[Red "x"]\n1. b3 *')
    assert [g.text for g in games] == ["1. c4 b4", '[Red "x"]\n1. b3 *']


def test_pick() -> None:
    games = split_games(MATCH)
    assert pick(games, None) == games and pick(games, 3) == [games[2]]
    for number, says in ((4, "no game 4: the file holds 3 games"), (0, "no game 0")):
        with pytest.raises(GameError, match=says):
            pick(games, number)
    with pytest.raises(GameError, match=r"^no game 2: the file holds 1 game$"):
        pick(split_games("*"), 2)


def test_the_records_request_offers_each_game_of_a_file_to_the_page() -> None:
    """Both services' ``records`` (the record dialog's choice of game): each game with its headers, its
    moves counted by the game's own ``load``, its result, and the reason a bad one does not load."""
    from unitile_py import webapi

    reply = json.loads(webapi.handle(json.dumps({"op": "ut_records", "args": {"text": MATCH}})))
    games = reply["result"]
    assert [(g["number"], g["line"], g["headers"]["Red"], g["result"]) for g in games] == [
        (1, 1, "a", "1-0"), (2, 5, "b", "*"), (3, 9, "c", "0-1")]  # fmt: skip
    assert games[1]["text"] == '[Red "b"]\n[Round "2"]\n1. b3 *'
    assert [g["moves"] for g in games] == [None, 1, None]  # c4 b4 does not unite red; 1. d3 is no slide
    assert games[0]["error"] and games[1]["error"] is None
    nd = "1. b2 *\n\n" + '[Board "4x4"]\n1. a1 b1 *'
    reply = json.loads(webapi.handle(json.dumps({"op": "nd_records", "args": {"text": nd}})))
    assert [(g["moves"], g["error"]) for g in reply["result"]] == [(1, None), (2, None)]
    one = json.loads(webapi.handle(json.dumps({"op": "nd_records", "args": {"text": "1. b2 *"}})))
    assert len(one["result"]) == 1
    bad = json.loads(webapi.handle(json.dumps({"op": "ut_records", "args": {"text": 3}})))
    assert bad == {"ok": False, "error": "records: expected the text of a file of records"}
