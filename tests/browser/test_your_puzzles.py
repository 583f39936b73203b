"""Your puzzles (issue 52, the page half) in chromium: a game finished on the play page adds its mistakes
(the review's, as ``puzzles --from`` gives them) to "Your puzzles" on the game's Puzzles page, kept in
localStorage; one is solved after a reload offline (Blue to move: a mistake may be either side's), one
removed, then all; a game reviewed again adds nothing. Unitile's Your puzzles are judged from its tables
too (a puzzle stored by hand, Blue to move), and malformed stored puzzles are ignored. The record dialog
offers the games of a pasted or opened file of several records and opens the one chosen."""

from __future__ import annotations

import json
from typing import Any

from unitile_py.mistake_puzzles import mistakes
from unitile_py.naked_diagonal.webapi import API as ND_API
from unitile_py.puzzles import load

from .conftest import Site, in_view, make_context, wait_until
from .test_puzzles_page import best, results, wrong

#: Game 2 of ``nd match --size 4x4 --red 2 --blue 3 --games 2 --seed 22 --records``: Blue's a2 (ply 2) and
#: Red's c2 (ply 3) throw a win away. Loaded without its last placement, which the test makes.
ND_GAME = ["a3", "a2", "c2", "c1", "c3", "a1", "d2", "d1", "b3", "b1"]
ND_RECORD = '[Board "4x4"]\n[Red "level 2"]\n[Blue "level 3"]\n1. a3 a2 2. c2 c1 3. c3 a1 4. d2 d1 5. b3 *'
#: Two games as match --records writes them, then one that does not load.
ND_FILE = (
    '[Game "Naked Diagonal"]\n[Board "4x4"]\n'
    '[Red "level 2 seed 1390236330"]\n[Blue "level 3 seed 1743526212"]\n'
    "1. b2 b3 2. d3 d4 3. a2 b4 4. a3 a4 5. a1 c4 0-1\n\n"
    '[Game "Naked Diagonal"]\n[Board "4x4"]\n'
    '[Red "level 2 seed 656225324"]\n[Blue "level 3 seed 353481195"]\n'
    "1. a3 a2 2. c2 c1 3. c3 a1 4. d2 d1 5. b3 b1 0-1\n\n"
    '[Board "4x4"]\n1. b2 b2 *\n'
)


def expected_nd() -> list[dict[str, Any]]:
    """The mistakes of ND_GAME as the command line makes them puzzles (unitile_py/mistake_puzzles.py)."""
    game = {"size": 4, "start": None, "moves": ND_GAME}

    def analyse(position: str) -> dict[str, Any]:
        found = ND_API.analysis_of(ND_API.replay({"size": 4, "start": position, "moves": []}).position)
        return {"moves": {m: {"outcome": a["result"]} for m, a in (found or {}).items()}}

    return mistakes(ND_API.review(game), 1, analyse)


def mine(s: Site, store: str) -> dict[str, Any]:
    return json.loads(s.js(f"localStorage.getItem('{store}.my-puzzles.v1')") or "null")


def listed(s: Site) -> list[str]:
    return list(
        s.page.locator("#mine-list button.mine-open").evaluate_all("bs => bs.map(b => b.dataset.mine)")
    )


def solve_mine(s: Site, game: str, mover: str, unit: str, how: str = "after 1 wrong try") -> None:
    """The puzzle open, one of Your puzzles: a wrong try refused, then the fastest win from the tables
    each turn of ``mover``'s, level 6 answering, until solved (``how``, in the page's words)."""
    st = s.state()
    bad = wrong(results(game, st["position"]))
    assert bad is not None
    s.click(bad[0])
    s.wait_idle()
    wait_until(lambda: f"{bad[0]} is not it: it loses in {bad[1]} {unit}." in s.message(), "the refusal")
    assert s.state()["moves"] == []
    while not s.state()["over"]:
        st = s.state()
        assert st["turn"] == mover
        count = len(st["moves"])
        s.click(best(results(game, st["position"])))
        s.wait_idle()
        wait_until(lambda n=count: len(s.state()["moves"]) > n and s.idle(), "the move played")
    assert s.state()["winner"] == mover
    assert s.message().startswith(f"Solved, {how}!"), s.message()


def test_a_finished_games_mistakes_solved_offline_then_removed(browser: Any, server: Any) -> None:
    s = make_context(browser, server.url, service_workers="allow")
    try:
        s.open("nd.html")
        s.set_player("r", "human")
        s.set_player("b", "human")
        s.load_record(ND_RECORD)
        wait_until(lambda: s.state()["moves"] == ND_GAME[:-1] and s.idle(), "the record loaded")
        s.play(ND_GAME[-1])
        wait_until(lambda: "2 mistakes added to Your puzzles." in s.message(), "the mistakes kept")
        want = expected_nd()
        assert [(p["mover"], p["ply"]) for p in want] == [("blue", 2), ("red", 3)]
        kept = mine(s, "nd")["puzzles"]
        fields = ("position", "ply", "played", "distance")
        assert [(*(p[f] for f in fields), p["mover"], p["size"]) for p in kept] == [
            (*(p[f] for f in fields), p["mover"][0], 4) for p in want]  # fmt: skip
        # The game reviewed again (a reload of the finished game) adds nothing.
        s.page.reload()
        s.wait_ready()
        wait_until(lambda: "Mistakes: Red 1, Blue 1." in s.message(), "the review again")
        assert len(mine(s, "nd")["puzzles"]) == 2 and "added" not in s.message()
        # The Puzzles page lists them; offline, after a reload, the first (Blue to move) is solved.
        s.open("nd-puzzles.html")
        ids = listed(s)
        assert ids == [p["id"] for p in kept]
        assert s.page.locator("#mine-status").inner_text() == "2 puzzles from your games, 0 solved."
        wait_until(s.offline_ready, "the service worker to cache the site")
        s.context.set_offline(True)
        s.page.reload()
        s.wait_ready()
        s.page.locator(f'#mine-list button[data-mine="{ids[0]}"]').click()
        wait_until(lambda: s.js("location.hash") == f"#mine={ids[0]}" and s.idle(), "your puzzle 1")
        assert s.state()["position"] == want[0]["position"] and s.state()["turn"] == "b"
        assert (
            s.page.locator("h1").inner_text() == f"Blue to move and win in {want[0]['distance']} placements"
        )
        assert (
            s.page.locator("#puzzle-meta").inner_text().startswith("Your puzzle 1 of 2 · ply 2 of a game of")
        )
        # Show solution lists every winning placement (the command line's solutions).
        s.page.locator("#btn-solution").click()
        wait_until(lambda: s.message().startswith("Solution: "), "the solution")
        assert f"(any of {', '.join(want[0]['solutions'])} wins)" in s.message()
        s.page.locator("#btn-restart").click()
        s.wait_idle()
        solve_mine(s, "nd", "b", "placements", "with the solution shown")  # Start again keeps that
        assert (
            s.page.locator(f'#mine-list button[data-mine="{ids[0]}"]').get_attribute("data-solved")
            == "shown"
        )
        assert mine(s, "nd")["puzzles"][0]["solved"] == "shown"
        s.shot("your-puzzles-nd-solved")
        # Next goes to Your puzzle 2 (Red to move); then it is removed, and the shipped puzzles come back.
        s.page.locator("#btn-next").click()
        wait_until(lambda: s.js("location.hash") == f"#mine={ids[1]}" and s.idle(), "your puzzle 2")
        assert s.state()["turn"] == "r"
        s.page.locator(f'#mine-list button[data-remove="{ids[1]}"]').click()
        wait_until(lambda: listed(s) == [ids[0]] and s.idle(), "puzzle 2 removed")
        assert s.js("location.hash") == f"#mine={ids[0]}"
        assert s.js("document.activeElement.dataset.remove") == ids[0]  # the focus stays in the list
        s.page.locator("#btn-mine-clear").click()
        assert s.page.locator("#dlg-mine-clear").is_visible()
        s.page.locator("#dlg-mine-clear-ok").click()
        wait_until(lambda: listed(s) == [] and s.idle(), "all removed")
        assert s.page.locator("#mine-status").inner_text().startswith("None yet")
        assert s.js("window.unitile.puzzle.index") is not None and s.js("location.hash").startswith(
            "#n=4&p="
        )
        assert mine(s, "nd")["puzzles"] == [] and len(mine(s, "nd")["games"]) == 1
        assert s.errors == [] and s.foreign == []
    finally:
        s.context.close()


def swapped(position: str) -> str:
    """A Unitile position's colour swap with the other side to move (the same slides, the same result)."""
    cells, turn = position.split()
    return f"{cells.translate(str.maketrans('RB', 'BR'))} {'b' if turn == 'r' else 'r'}"


def test_unitile_your_puzzle_blue_to_move_and_malformed_ones_ignored(site: Site) -> None:
    p = next(q for q in load("unitile", "5x5").puzzles if q.distance == 5)
    puzzle = {"id": "abc-7", "size": 5, "position": swapped(p.position), "mover": "b", "played": "a1",
              "distance": p.distance, "ply": 7, "added": 1_700_000_000_000}  # fmt: skip
    broken = [
        {**puzzle, "id": "x-1", "mover": "g"},
        {**puzzle, "id": "x-2", "distance": -1},
        "junk",
        {**puzzle},
    ]
    stored = {"from": "both", "puzzles": [*broken, puzzle], "games": ["k1", 7]}
    site.js(f"localStorage.setItem('unitile.my-puzzles.v1', {json.dumps(json.dumps(stored))})")
    site.open("puzzles.html#mine=abc-7")
    wait_until(
        lambda: site.state() and site.state()["position"] == puzzle["position"] and site.idle(), "the puzzle"
    )
    assert listed(site) == ["abc-7"]  # the malformed ones and the repeated id are dropped
    assert site.page.locator("#mine-from").input_value() == "both"
    assert site.page.locator("h1").inner_text() == "Blue to move and win in 5 plies"
    solve_mine(site, "unitile", "b", "plies")
    site.page.locator("#mine-from").select_option("human")
    assert mine(site, "unitile")["from"] == "human"
    # Not JSON at all: no puzzles, no error.
    site.js("localStorage.setItem('unitile.my-puzzles.v1', '{not json')")
    site.open("puzzles.html")
    assert listed(site) == [] and site.page.locator("#btn-mine-clear").is_disabled()


def test_the_record_dialog_offers_the_games_of_a_file(site: Site) -> None:
    site.open("nd.html")
    site.set_player("r", "human")
    site.set_player("b", "human")
    site.load_record(ND_FILE)
    title = site.page.locator("#record-games-title")
    wait_until(lambda: title.is_visible(), "the games offered")
    assert title.inner_text() == "This file holds 3 games: choose the one to open."
    assert site.js("document.activeElement.id") == "record-games-title"
    items = site.page.locator("#record-games-list li")
    assert items.count() == 3
    assert (
        "Red: level 2 seed 656225324" in items.nth(1).inner_text()
        and "10 moves, Blue won" in items.nth(1).inner_text()
    )
    assert items.nth(2).locator("button").count() == 0 and "it does not load" in items.nth(2).inner_text()
    in_view(site, "#record-games-list li:nth-child(2) button", 1200, 900)
    site.page.locator('#record-games-list button[data-game="2"]').click()
    wait_until(lambda: not site.page.locator("#dlg-record").is_visible(), "the dialog to close")
    wait_until(lambda: site.state()["moves"] == ND_GAME and site.idle(), "game 2 opened")
    # A file opened from disk: the same choice (here a phone's width, nothing wider than the screen).
    site.page.set_viewport_size({"width": 360, "height": 740})
    site.page.locator("#btn-record").click()
    site.page.locator("#record-file").set_input_files(
        files=[{"name": "games.txt", "mimeType": "text/plain", "buffer": ND_FILE.encode()}]
    )
    wait_until(lambda: title.is_visible(), "the games of the file offered")
    assert site.js("document.documentElement.scrollWidth") <= 360
    in_view(site, '#record-games-list button[data-game="1"]', 360, 740)
    site.shot("your-puzzles-record-games-phone")
    site.page.locator('#record-games-list button[data-game="1"]').click()
    wait_until(lambda: site.state()["moves"][:2] == ["b2", "b3"] and site.idle(), "game 1 opened")
    # One game: loaded at once, as before.
    site.load_record(ND_RECORD)
    wait_until(lambda: site.state()["moves"] == ND_GAME[:-1] and site.idle(), "the one game loaded")
