"""The Puzzles pages of both games in chromium (puzzles.html, nd-puzzles.html; issue 36): a puzzle opened by
its number, a wrong move refused with the reason from the tables (the position stays, the try counted), the
solution played and level 6's answer, every later move judged (one that throws the win away refused too)
until "Solved"; progress kept across a reload, malformed progress ignored; the keyboard; a reload
offline; a 360 px phone in dark and light. Each move the test makes is chosen here from the tables
(unitile_py), independently of the page. Screenshots go to test-artifacts/puzzles-*.png."""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from unitile_py.naked_diagonal.position import Position as NDPosition
from unitile_py.naked_diagonal.tables import tables_for
from unitile_py.puzzles import PuzzleSet, load
from unitile_py.unitile.notation import parse_position
from unitile_py.unitile.tables import Tables

from .conftest import Site, in_view, make_context, serve_module, wait_until

#: page, localStorage prefix, puzzle file (game, board), size in the address, unit of a move.
GAMES = {
    "unitile": ("puzzles.html", "unitile", ("unitile", "5x5"), None, "plies"),
    "nd": ("nd-puzzles.html", "nd", ("naked-diagonal", "4x4"), 4, "placements"),
}
#: Progress no version of the page wrote: each is ignored, the page opens on puzzle 1.
MALFORMED = (
    "not json",
    "[1, 2]",
    '{"size": "x", "at": {"5": -1, "4": "7"}, "solved": {"5": [1], "4": "x"}}',
    '{"grade": "impossible", "solved": {"4": {"x": "clean", "3": "sure"}, "5": {"2": 7}}}',
)
#: A puzzle with several moves of Red's to find (distance 7) for each game: its index in the file.
INDEX = {"unitile": 31, "nd": 27}


@cache
def unitile_tables() -> Tables:
    return Tables.load("5x5")


@cache
def puzzles(game: str) -> PuzzleSet:
    return load(*GAMES[game][2])


def results(game: str, position: str) -> dict[str, tuple[str, int]]:
    """Each legal move's result for the side to move with perfect play, from the tables."""
    if game == "nd":
        pos = NDPosition.parse(position)
        return {pos.grid.name(p): r for p, r in tables_for(pos.grid.n).moves(pos).items()}
    upos = parse_position(position)
    return {upos.board.name(c): r for c, r in unitile_tables().moves(upos).items()}


def best(found: dict[str, tuple[str, int]]) -> str:
    """The fastest winning move."""
    return min((d, m) for m, (k, d) in found.items() if k == "win")[1]


def wrong(found: dict[str, tuple[str, int]]) -> tuple[str, int] | None:
    """A legal move that loses (the first by name), with its distance, or None."""
    losing = sorted((m, d) for m, (k, d) in found.items() if k != "win")
    return losing[0] if losing else None


def address(game: str, number: int) -> str:
    page, _, _, size, _ = GAMES[game]
    return f"{page}#{f'n={size}&' if size else ''}p={number}"


def open_puzzle(site: Site, game: str, number: int, clear: bool = True) -> None:
    if clear:
        site.page.goto(site.base + "about.html")
        site.js("localStorage.clear()")
    site.open(address(game, number))
    wait_until(lambda: site.state() and shown_index(site) == number - 1, "the puzzle")


def shown_index(site: Site) -> Any:
    """The index (0 first) of the puzzle the page shows, or None before one is shown."""
    return site.js("window.unitile.puzzle && window.unitile.puzzle.index")


def message(site: Site) -> str:
    return site.message()


def moves(site: Site) -> list[str]:
    return list(site.state()["moves"])


def try_move(site: Site, move: str) -> None:
    """Tap ``move`` and wait for the page to settle (the worker's verdict, level 6's answer)."""
    site.click(move)
    site.wait_idle()


def refused(site: Site, move: str, distance: int, unit: str, first: bool) -> None:
    """``move`` is tapped and refused: the reason from the tables, the position kept, the try counted."""
    before = site.state()
    tries = site.js("window.unitile.tries")
    try_move(site, move)
    why = "is not it" if first else "throws the win away"
    line = f"{move} {why}: it loses in {distance} {unit}."
    wait_until(lambda: line in message(site), f"the refusal of {move}")
    assert site.page.locator("#message").get_attribute("data-kind") == "refused"
    assert site.state()["position"] == before["position"] and site.state()["moves"] == before["moves"]
    assert site.js("window.unitile.tries") == tries + 1
    assert f"{move} {why}" in site.js("document.getElementById('announce').textContent")


def solve(site: Site, game: str, unit: str) -> int:
    """Play the puzzle open to its end from the tables: the solution, level 6's answers, a refused move
    that throws the win away on the way; the number of Red's moves played."""
    played = 0
    later_refused = False
    while not site.state()["over"]:
        st = site.state()
        assert st["turn"] == "r"
        found = results(game, st["position"])
        bad = wrong(found)
        if bad and not later_refused:
            refused(site, bad[0], bad[1], unit, first=False)
            later_refused = True
        move = best(found)
        count = len(st["moves"])
        try_move(site, move)
        wait_until(lambda n=count: len(moves(site)) > n, f"{move} to be played")
        played += 1
        now = site.state()
        assert now["moves"][count] == move
        if not now["over"] and len(now["moves"]) > count + 1:
            answer = now["moves"][count + 1]
            said = message(site)
            assert f"Right: {move} wins in" in said and f"Level 6 answered {answer}." in said
            # level 6 plays perfectly: its move is among the best for Blue in the tables
            after = results(game, site.js("window.unitile.state.position"))  # Red to move again
            assert after and any(k == "win" for k, _ in after.values())
    assert later_refused
    return played


#: The mark of each way a puzzle was solved, and the words of the legend under the list.
MARKS = {
    "clean": ("✓", "at the first try"),
    "tries": ("↻", "after wrong tries"),
    "shown": ("◐", "with the solution shown"),
}


def assert_mark(site: Site, button: Any, how: str) -> None:
    """``button`` of the list carries ``how``'s mark, a text of its own (not a colour), at least as large
    as the puzzle's number, and the legend under the list says what it means."""
    mark = button.locator(".puzzle-mark")
    assert mark.inner_text() == MARKS[how][0]
    size = "e => parseFloat(getComputedStyle(e).fontSize)"
    assert mark.evaluate(size) >= button.evaluate(size) >= 14
    assert f"{MARKS[how][0]} {MARKS[how][1]}" in site.page.locator("#puzzle-legend").inner_text()


@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_a_puzzle_wrong_try_solution_level_6_and_solved(site: Site, game: str) -> None:
    page, store, _, size, unit = GAMES[game]
    index = INDEX[game]
    p = puzzles(game).get(index)
    open_puzzle(site, game, index + 1)
    grade = p.grade
    assert site.page.locator("h1").inner_text() == f"Red to move and win in {p.distance} {unit}"
    meta = site.page.locator("#puzzle-meta").inner_text()
    assert meta.startswith(f"Puzzle {index + 1} of {len(puzzles(game).puzzles)} · {grade}")
    assert site.state()["position"] == p.position and site.state()["moves"] == []
    # The board's cells are labelled and the header links here, crediting Mark Steere.
    assert site.page.locator('nav.pages a[aria-current="page"]').inner_text() == "Puzzles"
    assert "Mark Steere" in site.page.locator("footer").inner_text()
    assert "marksteeregames.com" in site.page.locator("footer a").get_attribute("href")
    first = results(game, p.position)
    bad = wrong(first)
    assert bad is not None and bad[0] != p.solution
    refused(site, bad[0], bad[1], unit, first=True)
    site.shot(f"puzzles-{game}-refused")
    # The solution, then level 6's answer, then the rest from the tables.
    try_move(site, p.solution)
    wait_until(lambda: moves(site)[:1] == [p.solution], "the solution to be played")
    if p.distance > 2:
        wait_until(lambda: len(moves(site)) >= 2, "level 6's answer")
        assert f"Level 6 answered {moves(site)[1]}." in message(site)
    played = 1 + solve(site, game, unit)
    assert 2 <= played <= (p.distance + 1) // 2
    st = site.state()
    assert st["over"] and st["winner"] == "r"
    assert message(site).startswith("Solved, after 2 wrong tries!")
    assert site.page.locator("h1").inner_text().startswith("Solved:")
    assert site.page.locator("#progress").inner_text().startswith("Solved 1 of 60")
    # Wrong tries are no help: the puzzle is marked solved after wrong tries, in words and by a mark of
    # its own shape (not only its colour), as large as the number beside it.
    assert site.page.locator("#puzzle-meta").inner_text().endswith(" · solved after wrong tries")
    button = site.page.locator(f'#puzzle-list button[data-index="{index}"]')
    assert button.get_attribute("data-solved") == "tries"
    assert button.get_attribute("aria-label").endswith(", solved after wrong tries")
    assert_mark(site, button, "tries")
    site.shot(f"puzzles-{game}-solved")
    # Next puzzle; then a reload without the number in the address opens it again, progress kept.
    site.page.locator("#btn-next").click()
    wait_until(lambda: shown_index(site) == index + 1 and site.idle(), "the next puzzle")
    assert site.state()["moves"] == [] and site.state()["position"] == puzzles(game).get(index + 1).position
    site.page.goto(site.base + page)
    site.wait_ready()
    wait_until(lambda: shown_index(site) == index + 1, "the kept one")
    assert site.page.locator("#progress").inner_text().startswith("Solved 1 of 60")
    stored = json.loads(site.js(f"localStorage.getItem('{store}.puzzles.v1')"))
    assert stored["solved"][str(size or 5)] == {str(index): "tries"}


OF_60 = "(the puzzles are 1 to 60)"
#: Links to the Puzzles pages: the board size's key is n=, as in the play pages' links (size=, of links
#: shared before, still works); a link to no puzzle, or with a key that means nothing, says so.
LINKS = [
    ("nd-puzzles.html#n=3&p=5", (3, 4), "#n=3&p=5", ""),
    ("nd-puzzles.html#size=3&p=5", (3, 4), "#n=3&p=5", ""),
    ("puzzles.html#p=999", (5, 0), "#p=1", f"There is no puzzle 999 {OF_60}, so puzzle 1 is shown."),
    ("nd-puzzles.html#n=4&p=0", (4, 0), "#n=4&p=1", f"There is no puzzle 0 {OF_60}, so puzzle 1 is shown."),
    ("nd-puzzles.html#n=7&p=2", (4, 1), "#n=4&p=2", "There are no 7×7 puzzles, so the 4×4 ones are shown."),
    ("puzzles.html#p=3&zoom=2", (5, 2), "#p=3", "The link's “zoom=2” is not understood, so it was ignored."),
]


@pytest.mark.parametrize(("link", "opens", "address", "words"), LINKS)
def test_a_puzzle_link_opens_its_puzzle_or_says_why_not(
    site: Site, link: str, opens: tuple[int, int], address: str, words: str
) -> None:
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    site.open(link)
    size, index = opens
    wait_until(lambda: shown_index(site) == index and site.idle(), f"puzzle {index + 1}")
    assert site.js("window.unitile.puzzle.position").count("/") == size - 1
    assert message(site) == words
    assert site.js("location.hash") == address
    if not words:
        return
    # The same link followed from another puzzle: a puzzle that does not exist leaves the one shown.
    site.page.locator("#btn-next").click()
    wait_until(lambda: shown_index(site) == index + 1 and site.idle(), "the next puzzle")
    if "so puzzle 1 is shown" in words:
        words, address = words.replace("puzzle 1 is", "puzzle 2 is"), address.replace("p=1", "p=2")
    site.js(f"location.hash = {json.dumps(link.split('#')[1])}")
    wait_until(lambda: message(site) == words and site.idle(), f"the line {words!r} (now {message(site)!r})")
    assert site.js("location.hash") == address


@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_show_solution_grade_filter_and_navigation(site: Site, game: str) -> None:
    _, _, _, _, unit = GAMES[game]
    ps = puzzles(game)
    open_puzzle(site, game, 1)
    assert site.page.locator("#btn-prev").is_disabled()
    site.page.locator("#btn-next").click()
    wait_until(lambda: shown_index(site) == 1 and site.idle(), "puzzle 2")
    site.page.locator("#btn-prev").click()
    wait_until(lambda: shown_index(site) == 0 and site.idle(), "puzzle 1")
    # The grade filter: the list and the puzzle follow it.
    site.page.locator("#grade").select_option("hard")
    hard = [p.index for p in ps.puzzles if p.grade == "hard"]
    wait_until(lambda: shown_index(site) == hard[0] and site.idle(), "the first hard one")
    buttons = site.page.locator("#puzzle-list button")
    listed = buttons.evaluate_all("bs => bs.map(b => Number(b.dataset.index))")
    assert listed == hard
    site.page.locator("#btn-random").click()
    wait_until(lambda: shown_index(site) != hard[0] and site.idle(), "a random one")
    assert site.js("window.unitile.puzzle.grade") == "hard"
    # Show solution: it is level 6's winning move, drawn as the hint; solving then counts as helped.
    index = shown_index(site)
    site.page.locator("#btn-solution").click()
    wait_until(lambda: message(site).startswith("Solution: "), "the solution")
    assert message(site) == f"Solution: {ps.get(index).solution}. Play it to go on."
    try_move(site, ps.get(index).solution)
    wait_until(lambda: len(moves(site)) >= 1, "the solution played")
    while not site.state()["over"]:
        count = len(moves(site))
        try_move(site, best(results(game, site.state()["position"])))
        wait_until(lambda n=count: len(moves(site)) > n, "the move")
    assert message(site).startswith("Solved, with the solution shown!")
    button = site.page.locator(f'#puzzle-list button[data-index="{index}"]')
    assert button.get_attribute("data-solved") == "shown"
    assert button.get_attribute("aria-label").endswith(", solved with the solution shown")
    assert_mark(site, button, "shown")
    assert unit in site.page.locator("#grade option[value=easy]").inner_text()


@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_malformed_progress_is_ignored(site: Site, game: str) -> None:
    page, store, _, _, _ = GAMES[game]
    for bad in MALFORMED:
        site.page.goto(site.base + "about.html")
        site.js(f"localStorage.setItem('{store}.puzzles.v1', {json.dumps(bad)})")
        site.open(page)
        wait_until(lambda: site.state() is not None, "a puzzle")
        assert shown_index(site) == 0
        assert site.page.locator("#progress").inner_text().startswith("Solved 0 of")
        assert site.page.locator("#grade").input_value() == "all"


def test_keyboard_play_and_the_size_choice(site: Site) -> None:
    # Unitile: an arrow slides the tile on that side of the empty cell (here one that loses: refused).
    index = INDEX["unitile"]
    p = puzzles("unitile").get(index)
    open_puzzle(site, "unitile", index + 1)
    found = results("unitile", p.position)
    bubble = site.state()["bubble"]
    arrows = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1), "ArrowRight": (0, 1)}
    col, row = "abcde".index(bubble[0]), 5 - int(bubble[1])
    for key, (dr, dc) in arrows.items():
        r, c = row + dr, col + dc
        name = f"{'abcde'[c]}{5 - r}" if 0 <= r < 5 and 0 <= c < 5 else None
        if name in found and found[name][0] != "win":
            site.page.keyboard.press(key)
            site.wait_idle()
            wait_until(lambda n=name: message(site).startswith(f"{n} is not it"), "the refusal by key")
            break
    else:
        pytest.fail("no losing slide beside the empty cell")
    # Tab reaches a slidable tile; Enter slides it (the solution here).
    site.cell(p.solution).focus()
    site.page.keyboard.press("Enter")
    wait_until(lambda: moves(site)[:1] == [p.solution] and site.idle(), "the solution by Enter")
    # Naked Diagonal: the size menu opens the 3x3 puzzles; arrows and Enter place a stone.
    site.open("nd-puzzles.html")
    site.page.locator("#size").select_option("3")
    wait_until(lambda: site.state() and site.state()["size"] == 3 and site.idle(), "a 3x3 puzzle")
    assert site.js("location.hash").startswith("#n=3&p=")
    nd3 = load("naked-diagonal", "3x3").get(shown_index(site))
    target = nd3.solution
    site.cell("b2").focus()
    col, row = "abc".index(target[0]), 3 - int(target[1])
    for _ in range(abs(row - 1)):
        site.page.keyboard.press("ArrowDown" if row > 1 else "ArrowUp")
    for _ in range(abs(col - 1)):
        site.page.keyboard.press("ArrowRight" if col > 1 else "ArrowLeft")
    assert site.js("document.activeElement.dataset.cell") == target
    site.page.keyboard.press("Enter")
    wait_until(lambda: moves(site)[:1] == [target] and site.idle(), "the placement by Enter")
    assert "Right:" in message(site) or message(site).startswith("Solved")
    # A link to a puzzle of the other size, followed in the same page: the menu follows it.
    site.js("location.hash = '#size=4&p=3'")
    wait_until(lambda: shown_index(site) == 2 and site.state()["size"] == 4 and site.idle(), "puzzle 3, 4x4")
    assert site.page.locator("#size").input_value() == "4"
    assert site.state()["position"] == puzzles("nd").get(2).position


@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_offline_reload_then_a_puzzle(browser: Any, server: Any, game: str) -> None:
    s = make_context(browser, server.url, service_workers="allow")
    _, _, _, _, unit = GAMES[game]
    try:
        index = 3
        p = puzzles(game).get(index)
        s.open(address(game, index + 1))
        wait_until(s.offline_ready, "the service worker to cache the site")
        s.context.set_offline(True)
        s.page.reload()
        s.wait_ready()
        assert s.js("navigator.serviceWorker.controller !== null")
        wait_until(lambda: shown_index(s) == index, "the puzzle")
        bad = wrong(results(game, p.position))
        assert bad is not None
        refused(s, bad[0], bad[1], unit, first=True)
        try_move(s, p.solution)
        wait_until(lambda: moves(s)[:1] == [p.solution], "the solution, offline")
        assert s.errors == [] and s.foreign == []
    finally:
        s.context.close()


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_a_phone_360_px_wide(browser: Any, server: Any, game: str, scheme: str) -> None:
    phone = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
    s = make_context(browser, server.url, color_scheme=scheme, **phone)
    try:
        s.open(address(game, 1))
        assert s.js("document.documentElement.scrollWidth") <= 360
        box = in_view(s, "#board", 360, 740)
        assert box["width"] >= 300
        in_view(s, "h1", 360, 740)
        background = s.js("getComputedStyle(document.body).backgroundColor")
        assert (background == "rgb(17, 21, 30)") == (scheme == "dark"), background
        p = puzzles(game).get(0)
        s.cell(p.solution).tap()
        wait_until(lambda: s.message().startswith("Solved"), "the one-move puzzle solved by a tap")
        assert s.js("document.documentElement.scrollWidth") <= 360
        s.shot(f"puzzles-{game}-phone-{scheme}")
        assert s.errors == [] and s.foreign == []
    finally:
        s.context.close()


def test_a_unitile_win_completed_by_level_6s_slide(site: Site) -> None:
    """A win in 2 plies: after the solution every slide of Blue's unites Red, so level 6's answer ends
    the puzzle; Start again keeps a wrong try, opening the puzzle anew does not."""
    p = next(q for q in puzzles("unitile").puzzles if q.distance == 2)
    open_puzzle(site, "unitile", p.index + 1)
    assert site.page.locator("h1").inner_text() == "Red to move and win in 2 plies"
    # Start again after a wrong try keeps the try: solving then is not clean.
    bad = wrong(results("unitile", p.position))
    assert bad is not None
    refused(site, bad[0], bad[1], "plies", first=True)
    site.page.locator("#btn-restart").click()
    site.wait_idle()
    assert site.js("window.unitile.tries") == 1 and site.state()["moves"] == []
    try_move(site, p.solution)
    wait_until(lambda: site.state()["over"] and site.idle(), "level 6's slide to end the game")
    st = site.state()
    assert st["winner"] == "r" and len(st["moves"]) == 2
    assert message(site) == "Solved, after 1 wrong try! Red has won."
    # Another puzzle, then this one again: a clean solve now marks it solved cleanly.
    site.page.locator("#btn-next").click()
    wait_until(lambda: shown_index(site) != p.index and site.idle(), "the next puzzle")
    site.page.locator(f'#puzzle-list button[data-index="{p.index}"]').click()
    wait_until(lambda: shown_index(site) == p.index and site.idle(), "the puzzle again")
    assert site.js("window.unitile.tries") == 0
    try_move(site, p.solution)
    wait_until(lambda: site.state()["over"] and site.idle(), "level 6's slide to end the game")
    st = site.state()
    assert st["winner"] == "r" and len(st["moves"]) == 2
    assert message(site) == "Solved, at the first try! Red has won."
    button = site.page.locator(f'#puzzle-list button[data-index="{p.index}"]')
    assert button.get_attribute("data-solved") == "clean"
    assert button.get_attribute("aria-label").endswith(", solved at the first try")
    assert_mark(site, button, "clean")


def test_a_missing_puzzle_file_is_one_line(browser: Any, site_dir: Path, tmp_path: Path) -> None:
    """A site copied without Unitile's puzzle file: the page says so in one line instead of a board."""
    served = tmp_path / "site"
    shutil.copytree(site_dir, served)
    (served / "tables" / "puzzles" / "unitile-5x5.json").unlink()
    (served / "tables" / "puzzles" / "unitile-5x5.json.gz").unlink()  # the worker would inflate it
    server = serve_module.SiteServer(served).start()
    s = make_context(browser, server.url)
    try:
        s.page.goto(server.url + "puzzles.html")
        wait_until(lambda: s.js("document.body.dataset.ready") == "failed", "the page to give up")
        text = s.page.locator("#loading-text").inner_text()
        assert text.startswith("The puzzles could not start: puzzles unitile 5x5: no puzzle file"), text
        assert "\n" not in text and s.page.locator("#loading").is_visible()
    finally:
        s.context.close()
        server.stop()
