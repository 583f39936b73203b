"""Issue 15, the polish of the play page, point by point: the game kept across pages, tabs and
relaunches; damaged links; loading; keys whatever has focus; accessibility; what happened, in words;
looking back during a game; dark mode; the shared frame."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, Site, held_site, wait_until

#: Red to move; c2 (a blue tile) slides up and unites Blue: Red's own slide loses at once.
BLUE_UNITED_BY_RED = "BBRBB/BBBBB/BR.RB/RRBRR/RRRRR r"
#: Red to move; c2 slides up and unites Red.
RED_WINS_IN_ONE = "RRBRR/RRRRR/RB.BR/BBRBB/BBBBB r"
HAS_TABLES = (ROOT / "tables" / "5x5" / "manifest.json").exists()
needs_tables = pytest.mark.skipif(not HAS_TABLES, reason="tables/5x5 is not in the repository yet")


def settings(site: Site, **values: Any) -> None:
    """Store settings before the page starts (no computer moves under a half-changed line-up)."""
    full = {"r": "human", "b": "human", "pace": "0", "marking": True, "confirm": False, "analysis": False}
    full.update(values)
    site.js(f"localStorage.setItem('unitile.settings.v1', {json.dumps(json.dumps(full))})")


def fresh(site: Site, path: str = "", **values: Any) -> None:
    """Open ``path`` with no game kept and the given settings (two humans by default)."""
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    settings(site, **values)
    site.open(path)


def load_position(site: Site, position: str) -> None:
    site.load_record(f'[Position "{position}"]\n*')
    site.wait_ply(0)
    wait_until(lambda: site.state()["position"] == position, "the loaded position")


# ----- 1. the game is kept ------------------------------------------------------------------------


def test_the_game_survives_rules_logo_a_new_tab_and_a_relaunch(site: Site) -> None:
    fresh(site)
    site.play(site.legal()[0])
    site.play(site.legal()[0])
    moves = site.state()["moves"]
    site.page.locator('nav.pages a[href="rules.html"]').click()
    site.page.locator('nav.pages a[href="./"]').click()
    site.wait_ready()
    assert site.state()["moves"] == moves and site.js("location.hash") == f"#m={'.'.join(moves)}"
    site.page.locator('a.game[data-game="unitile"]').click()
    site.wait_ready()
    assert site.state()["moves"] == moves
    # A new tab, and the installed app (its start_url is ./): the same game, the same settings.
    site.set_player("b", "1")
    other = Site(site.context, site.context.new_page(), site.base)
    try:
        other.open(idle=False)
        assert other.state()["moves"] == moves
        assert other.page.locator("#player-b").input_value() == "1"
    finally:
        other.page.close()
    site.set_player("b", "human")
    # Only New game (after its question) discards it.
    site.new_game()
    site.page.goto(site.base + "rules.html")
    site.page.goto(site.base)
    site.wait_ready()
    assert site.state()["moves"] == []


def test_another_tab_follows_the_game(site: Site) -> None:
    fresh(site)
    other = Site(site.context, site.context.new_page(), site.base)
    try:
        other.open()
        site.play(site.legal()[0])
        moves = site.state()["moves"]
        wait_until(lambda: other.state()["moves"] == moves and other.idle(), "the other tab to follow")
        assert other.js("location.hash") == f"#m={moves[0]}"
        assert "another tab" in other.message()
    finally:
        other.page.close()


def test_a_link_to_another_game_asks_before_replacing_an_unfinished_one(site: Site) -> None:
    fresh(site)
    first = site.legal()[0]
    site.play(first)
    site.play(site.legal()[0])
    mine = site.state()["moves"]
    other = next(m for m in ["c4", "b3", "d3", "c2"] if m != first)
    site.page.goto(site.base + "about.html")
    site.page.goto(site.base + f"#m={other}")
    dialog = site.page.locator("#dlg-link")
    wait_until(dialog.is_visible, "the question")
    assert "2 plies" in site.page.locator("#dlg-link-text").inner_text()
    site.shot("15-link-question")
    site.page.locator("#dlg-link-keep").click()
    site.wait_ready()
    assert site.state()["moves"] == mine and site.js("location.hash") == f"#m={'.'.join(mine)}"
    site.page.goto(site.base + "about.html")
    site.page.goto(site.base + f"#m={other}")
    wait_until(dialog.is_visible, "the question")
    site.page.locator("#dlg-link-open").click()
    site.wait_ready()
    assert site.state()["moves"] in ([other], [])  # [] when the value rule refuses `other`
    # A link that goes on from the kept game opens without a question.
    game = site.state()["moves"]
    site.play(site.legal()[0])
    longer = site.state()["moves"]
    kept = json.dumps({"start": None, "moves": game})
    site.js(f"localStorage.setItem('unitile.game.v1', {json.dumps(kept)})")
    site.page.goto(site.base + "about.html")
    site.page.goto(site.base + f"#m={'.'.join(longer)}")
    site.wait_ready()
    assert site.state()["moves"] == longer and not dialog.is_visible()


# ----- 2. damaged links ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("link", "moves", "words", "canonical"),
    [
        ("#m=c4.c4", ["c4"], "Slide 2 of the link, c4, is the empty cell, so it was not played.", "#m=c4"),
        ("#m=zz9", [], "Slide 1 of the link, zz9, is not a cell of the board, so it was not played.", ""),
        ("#p=garbage&m=c4", [], "The start position of the link is not valid", ""),
        ("#garbage", [], "The link's “#garbage” holds no game, so a new game starts.", ""),
        ("#m=C4", ["c4"], "", "#m=c4"),
        ("#m=c4&zoom=2", ["c4"], "The link's “zoom=2” is not understood, so it was ignored.", "#m=c4"),
        (
            "#m=c4.c4&x=1",
            ["c4"],
            "Slide 2 of the link, c4, is the empty cell, so it was not played; the link's “x=1” is not "
            "understood, so it was ignored.",
            "#m=c4",
        ),
    ],
)
def test_a_damaged_link_plays_what_it_can_and_says_why(
    site: Site, link: str, moves: list[str], words: str, canonical: str
) -> None:
    fresh(site, link)
    assert site.page.locator("#board .tile").count() == 24
    assert "Loading" not in site.page.locator("#turn").inner_text()
    if moves and moves[0] not in site.js("window.unitile.state.moves"):
        pytest.skip(f"the value rule refuses {moves[0]} at the start here")
    assert site.state()["moves"] == moves
    message = site.message()
    assert (message.startswith(words) if words else message == "") and "\n" not in message, message
    assert site.js("location.hash") == canonical
    site.play(site.legal()[0])  # and the board plays on


#: In the page: how far the first row the Moves list shows is cut off at its top edge (px), whether the
#: row of the ply shown is wholly in view, and how far the list is scrolled.
MOVES_VIEW = """() => {
  const list = document.getElementById("moves");
  const box = list.getBoundingClientRect();
  const top = box.top + list.clientTop;
  const rows = [...list.children].map((li) => li.getBoundingClientRect());
  const first = rows.find((r) => r.bottom > top + 0.5);
  const latest = list.querySelector("li:last-child .mv:last-child");
  const shown = list.querySelector('[aria-current="step"]') || latest;
  const r = shown.getBoundingClientRect();
  const whole = r.top >= top - 1 && r.bottom <= top + list.clientHeight + 1;
  const scrolls = list.scrollHeight > list.clientHeight;
  return { cut: top - first.top, whole, scrollTop: list.scrollTop, scrolls };
}"""


def test_the_move_list_shows_whole_rows_and_returns_to_its_top(site: Site) -> None:
    """A long game (Naked Diagonal, 9x9, 40 seeded random placements): the Moves list never cuts the row
    under its heading, shows the ply looked at, and looking back at the start scrolls it to the top."""
    import random

    from unitile_py.naked_diagonal.webapi import Api as NDApi

    api, rng = NDApi(), random.Random(5)
    game: dict[str, Any] = {"size": 9, "start": None, "moves": []}
    while len(game["moves"]) < 40 and not (st := api.state(game))["over"]:
        game = api.play(game, rng.choice(st["legal"]))
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    values = {"r": "human", "b": "human", "size": "9", "pace": "0", "marking": True, "confirm": False}
    site.js(f"localStorage.setItem('nd.settings.v1', {json.dumps(json.dumps(values))})")
    site.open("nd.html#n=9&m=" + ".".join(game["moves"]))
    plies = len(game["moves"])
    view = site.page.evaluate(MOVES_VIEW)
    assert view["scrolls"] and view["scrollTop"] > 0 and view["whole"], view
    assert view["cut"] <= 1, f"the first row shown is cut by {view['cut']:.1f} px: {view}"
    site.page.locator("#moves").screenshot(path=str(ROOT / "test-artifacts" / "moves-long-game.png"))
    for ply in (plies // 2, 7, 3, 1):
        site.page.locator(f"#moves button.mv[data-ply='{ply}']").click()
        wait_until(lambda p=ply: site.state()["ply"] == p and site.idle(), f"ply {ply}")
        view = site.page.evaluate(MOVES_VIEW)
        assert view["whole"] and view["cut"] <= 1, (ply, view)
    site.page.locator("#btn-first").click()
    wait_until(lambda: site.state()["ply"] == 0 and site.idle(), "the start")
    assert site.page.evaluate(MOVES_VIEW)["scrollTop"] == 0


@pytest.mark.parametrize(("path", "unit"), [("", "plies"), ("nd.html", "placements")])
def test_the_analysis_option_says_what_its_badges_mean(site: Site, path: str, unit: str) -> None:
    """The badges of the analysis (W9, L30) are explained where the option is turned on."""
    fresh(site, path)
    words = site.page.locator("label:has(#opt-analysis)").inner_text()
    assert re.search(rf"W(\d+) wins in \1 {unit}, L(\d+) loses in \2\b", words), words


def test_an_18k_character_link_plays_its_legal_beginning(site: Site) -> None:
    link = "#m=" + ".".join(["c4", "d4", "d3", "c3"] * 1500)
    assert len(link) > 17_000
    fresh(site, link)
    st = site.state()
    message = site.message()
    pattern = r"Slide \d+ of the link, \w+, .*, so it and the \d+ after it were not played\."
    assert re.fullmatch(pattern, message), message
    canonical = "#m=" + ".".join(st["moves"]) if st["moves"] else ""
    assert st["plies"] < 6000 and site.js("location.hash") == canonical
    assert site.page.locator("#board .tile").count() == 24


# ----- 3. layouts are in test_layout.py; 4. while loading --------------------------------------


def test_controls_before_python_is_ready(browser: Any, site_dir: Path) -> None:
    """The worker's first request waits until the test lets it go: meanwhile the page is up."""
    with held_site(browser, site_dir) as (s, gate):
        s.page.goto(s.base + "about.html")
        settings(s, b="human", pace="1500", marking=False)
        s.page.goto(s.base, wait_until="domcontentloaded")
        # The saved settings show at once; the buttons that need Python wait; nothing throws.
        wait_until(lambda: s.page.locator("#player-b").input_value() == "human", "the saved settings")
        assert s.page.locator("#pace").input_value() == "1500"
        assert not s.page.locator("#opt-marking").is_checked()
        assert s.page.locator("#loading-text").inner_text() == "Loading the game…"
        assert s.page.locator("#turn").inner_text() == "Loading the game…"
        s.page.locator("#opt-marking").click()
        s.page.locator("#opt-confirm").click()
        for key in ["u", "h", "n", "r", "ArrowUp", "Enter"]:
            s.page.keyboard.press(key)
        for button in ["#btn-new", "#btn-undo", "#btn-hint", "#btn-record"]:
            assert s.page.locator(button).is_disabled()
        assert s.js("document.body.dataset.ready") is None
        s.shot("16-loading")
        gate.set()
        s.wait_ready()
        assert s.page.locator("#opt-marking").is_checked() and s.page.locator("#opt-confirm").is_checked()
        assert s.page.locator("#board .tile.marked").count() == len(s.legal())
        assert s.errors == [] and s.foreign == []


# ----- 5. keys and accessibility ------------------------------------------------------------------


def bubble_side(site: Site) -> tuple[str, str]:
    """A key and the legal tile it slides."""
    bubble = site.state()["bubble"]
    col, rank = "abcde".index(bubble[0]), int(bubble[1])
    sides = {
        "ArrowUp": f"{bubble[0]}{rank + 1}" if rank < 5 else None,
        "ArrowDown": f"{bubble[0]}{rank - 1}" if rank > 1 else None,
        "ArrowLeft": f"{'abcde'[col - 1]}{rank}" if col > 0 else None,
        "ArrowRight": f"{'abcde'[col + 1]}{rank}" if col < 4 else None,
    }
    return next((k, cell) for k, cell in sides.items() if cell in site.legal())


@needs_tables
def test_keys_work_whatever_control_has_focus(site: Site) -> None:
    fresh(site, "?seed=2")
    blue = site.page.locator("#player-b")
    # A level chosen with the mouse: the arrows then slide a tile, they do not change the level.
    blue.dispatch_event("pointerdown")
    blue.focus()
    blue.select_option("1")
    site.wait_idle()
    assert not site.js("document.activeElement.matches('select')")
    key, cell = bubble_side(site)
    site.page.keyboard.press(key)
    wait_until(lambda: site.ply() == 2 and site.idle(), "the slide and the computer's reply")
    assert site.state()["moves"][0] == cell and blue.input_value() == "1"
    site.set_player("b", "human")
    # With a select focused from the keyboard, the letters are the page's, not its type-ahead.
    site.page.locator("#pace").focus()
    site.page.keyboard.press("h")  # a hint, not the first option starting with h
    wait_until(lambda: site.page.locator("#board .tile.hint").count() == 1, "the hint")
    assert site.page.locator("#pace").input_value() == "0"
    blue.focus()
    site.page.keyboard.press("u")  # two players now: one ply back
    site.wait_ply(1)
    assert blue.input_value() == "human"
    site.page.keyboard.press("r")
    assert site.page.locator("#dlg-record").is_visible() and blue.input_value() == "human"
    site.page.keyboard.press("Escape")
    site.page.locator("#opt-marking").focus()
    key, cell = bubble_side(site)
    site.page.keyboard.press(key)
    site.wait_ply(2)
    site.page.locator("#btn-record").focus()
    site.page.keyboard.press("n")
    assert site.page.locator("#dlg-new").is_visible()
    site.page.locator("#dlg-new-cancel").click()
    site.wait_idle()
    assert site.ply() == 2


def test_grid_tab_order_focus_ring_and_heading(site: Site) -> None:
    fresh(site)
    site.play(site.legal()[0])
    assert site.page.get_by_role("heading", level=1).count() == 1
    grid = site.page.get_by_role("grid")
    assert grid.count() == 1
    tree = grid.aria_snapshot()
    names = re.findall(r'gridcell "([a-e][1-5])\b', tree)
    assert names == [f"{f}{r}" for r in "54321" for f in "abcde"], tree
    assert tree.count("- row") == 5
    # Tab goes through the tiles that may slide, in reading order (a5 ... e1).
    legal = site.legal()
    order = [f"{f}{r}" for r in "54321" for f in "abcde"]
    site.page.locator("#board").focus()
    seen = []
    for _ in legal:
        site.page.keyboard.press("Tab")
        seen.append(site.js("document.activeElement.dataset.cell"))
    assert seen == sorted(legal, key=order.index)
    # The focus ring is not the white ring of the last slide.
    ring = site.js("getComputedStyle(document.activeElement, '::after').outlineColor")
    last = site.page.locator("#board .tile.last .face")
    last_ring = last.evaluate("e => getComputedStyle(e).boxShadow")
    assert ring == "rgb(255, 79, 216)" and "255, 255, 255" in last_ring and ring not in last_ring
    site.shot("17-focus-ring")
    # Enter on the focused tile slides it.
    focused = seen[-1]
    site.page.keyboard.press("Enter")
    site.wait_ply(2)
    assert site.state()["last"]["from"] == focused


# ----- 6. say what happened ---------------------------------------------------------------------


@needs_tables
def test_end_banner_speaks_to_the_player(site: Site) -> None:
    fresh(site, "?seed=3", b="1")
    load_position(site, BLUE_UNITED_BY_RED)
    site.play("c2")
    assert site.state()["winner"] == "b"
    # and the review's count of mistakes: Red had a win and threw it away
    assert site.message() == (
        "You lost: your slide united Blue (1 ply). Mistakes: Red 1, Blue 0. 1 mistake added to Your puzzles."
    )
    site.shot("18-you-lost")
    fresh(site)
    load_position(site, RED_WINS_IN_ONE)
    site.play("c2")
    assert site.message() == "Red wins in 1 ply: Red's own slide united the red tiles. No mistakes."
    assert "Red wins in 1 ply" in site.page.locator("#announce").inner_text()


@needs_tables
def test_a_tap_on_a_tile_that_may_not_slide_says_why(site: Site) -> None:
    fresh(site, marking=False)
    site.click("a1")
    wait_until(lambda: site.message() == "a1 is not next to the empty cell.", "the reason")
    assert site.ply() == 0
    first = site.legal()[0]
    site.play(first)
    site.click("c3")  # the tile that just slid, back: T would not go down
    wait_until(lambda: site.message() == "c3 would not lower the sum of the two values.", "the reason")
    assert "refused" in (site.tile("c3").get_attribute("class") or "") or site.ply() == 1
    site.shot("19-refused")
    site.click(first)  # the empty cell
    wait_until(lambda: site.message() == f"{first} is the empty cell.", "the reason")


def test_counts_are_plies_and_mark_steere_is_credited(site: Site) -> None:
    fresh(site)
    site.play(site.legal()[0])
    record = site.state()["record"]
    site.new_game()
    site.load_record(record)
    site.wait_ply(1)
    assert site.message() == "Record loaded: 1 ply."
    assert site.page.locator("#review-text").inner_text() == "1 ply"
    foot = site.page.locator("footer")
    assert "Mark Steere" in foot.inner_text()
    assert "marksteeregames.com" in foot.locator("a").get_attribute("href")


# ----- 7. looking back during a game --------------------------------------------------------------


def test_look_back_during_a_game_and_return(site: Site) -> None:
    fresh(site)
    for _ in range(3):
        site.play(site.legal()[0])
    moves = site.state()["moves"]
    site.page.locator('#moves button.mv[data-ply="1"]').click()
    site.wait_ply(1)
    assert site.state()["plies"] == 3 and site.page.locator("#turn").inner_text() == "Ply 1 of 3"
    assert site.page.locator("#board .tile.marked").count() == 0
    assert site.page.locator("#board .spot.legal").count() == 0
    assert site.page.locator("#btn-undo").is_disabled()
    site.shot("20-looking-back")
    site.click(site.state()["bubble"])  # no slide while looking back
    wait_until(lambda: "looking back" in site.message(), "the note")
    site.page.keyboard.press("ArrowRight")
    site.wait_ply(2)
    site.page.keyboard.press("PageUp")
    site.wait_ply(1)
    site.page.keyboard.press("Home")
    site.wait_ply(0)
    site.page.locator("#btn-live").click()
    site.wait_ply(3)
    assert site.state()["moves"] == moves and site.page.locator("#btn-live").is_hidden()
    assert "to move" in site.page.locator("#turn").inner_text()
    site.page.keyboard.press("PageUp")
    site.wait_ply(2)
    site.page.keyboard.press("End")
    site.wait_ply(3)
    site.play(site.legal()[0])  # and the game goes on
    assert site.state()["moves"][:3] == moves


@needs_tables
def test_the_computer_waits_while_the_player_looks_back(site: Site) -> None:
    fresh(site, "?seed=5", b="1")
    site.click(site.legal()[0])
    wait_until(lambda: site.ply() == 2 and site.idle(), "the computer's reply")
    site.page.keyboard.press("PageUp")
    site.wait_ply(1)
    site.page.keyboard.press("Home")
    site.wait_ply(0)
    assert site.state()["plies"] == 2
    site.page.keyboard.press("End")
    site.wait_ply(2)
    assert site.state()["turn"] == "r"


# ----- 8. dark mode -------------------------------------------------------------------------------


def background(site: Site) -> str:
    return str(site.js("getComputedStyle(document.body).backgroundColor"))


def test_dark_mode_follows_the_system_and_the_toggle(site: Site) -> None:
    site.page.emulate_media(color_scheme="dark")
    fresh(site)
    dark = background(site)
    assert dark == "rgb(17, 21, 30)"
    assert site.js("getComputedStyle(document.getElementById('board')).touchAction") == "manipulation"
    toggle = site.page.locator("#theme-toggle")
    assert toggle.inner_text().strip() == "Auto"
    assert "automatic (now dark)" in toggle.get_attribute("aria-label")
    toggle.click()  # Light
    assert site.js("document.documentElement.dataset.theme") == "light"
    assert background(site) == "rgb(244, 242, 237)"
    site.page.goto(site.base + "rules.html")  # the choice holds on every page, from the first paint
    assert background(site) == "rgb(244, 242, 237)"
    site.page.locator("#theme-toggle").click()  # Dark, even with a light system
    site.page.emulate_media(color_scheme="light")
    assert background(site) == dark
    site.page.locator("#theme-toggle").click()  # Auto: the system's again
    assert background(site) == "rgb(244, 242, 237)"
    site.page.emulate_media(color_scheme="no-preference")


# ----- 9. one frame for every page --------------------------------------------------------------


def test_every_page_shares_one_frame_and_no_global_state(site: Site) -> None:
    headers = {}
    # about.html belongs to both games: its switch shows the one opened last.
    pages = {"": "unitile", "rules.html": "unitile", "puzzles.html": "unitile", "nd.html": "nd",
             "nd-rules.html": "nd", "nd-puzzles.html": "nd", "about.html": "nd"}  # fmt: skip
    for page, game in pages.items():
        site.page.goto(site.base + page)
        header = site.page.locator("header.top")
        current = header.locator('[aria-current="page"]')
        assert current.count() == 1 and current.get_attribute("href") == (page or "./")
        chosen = header.locator('.game[aria-current="true"]')
        assert chosen.count() == 1 and chosen.get_attribute("data-game") == game
        html = re.sub(r' aria-current="(page|true)"', "", header.evaluate("e => e.outerHTML"))
        links = r'href="(nd\.html|nd-rules\.html|rules\.html|nd-puzzles\.html|puzzles\.html|\./)"'
        headers[page] = re.sub(links, 'href=""', html)
        assert "Mark Steere" in site.page.locator("footer").inner_text()
        assert "frame:" not in site.page.content()
    assert len(set(headers.values())) == 1
    site.open()
    names = site.js("Object.keys(window).filter(k => !(k in Object.getPrototypeOf(window)))")
    assert "S" not in names and "unitile" in names


def test_a_later_visit_starts_from_the_interpreter_snapshot(site: Site) -> None:
    """Warm loads restore the snapshot kept by the first one (a heap that grew past the module's
    initial memory used to make every restore fail, silently, back to a cold start)."""
    site.open()
    version = site.js("document.body.dataset.version")
    kept = f"""(async () => {{
      const hit = await (await caches.open('pyodide-snapshot-{version}')).match('js/snapshot');
      return hit !== undefined;
    }})()"""
    wait_until(lambda: site.js(kept), "the snapshot to be stored")
    site.page.reload()
    site.wait_ready()
    assert site.js("window.unitile.timings.worker.restored") is True
