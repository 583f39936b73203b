"""The position editor ("Set up", site/web/js/setup.js) of both games in chromium: a legal position set
up by tapping cells and played from, each kind of illegal set-up refused with the service's one line and
no start (Unitile's counts, both colours united, a game already won; Naked Diagonal's naked diagonal,
NDE area, a game already won), the address round trip, Analyse, the keyboard (arrows, Enter and Space,
Escape, the visible focus, the cells' labels) and the layouts of phones and desktops, light and dark.
Screenshots go to test-artifacts/setup-*.png."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from unitile_py.naked_diagonal.position import Position as NDPosition
from unitile_py.naked_diagonal.webapi import Api as NDApi
from unitile_py.unitile.webapi import Api as UnitileApi

from .conftest import Site, held_site, in_view, screen, wait_until

#: Unitile's usual start and, from it, a5 and b5 swapped, Blue to move (legal: Blue may slide c4 ...).
UNITILE_START = "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r"
UNITILE_SET = "RBBRB/RBRBR/BR.BR/BRBRB/RBRBR b"
#: Red united, Blue not (a5 is cut off): the game is over, Red has won.
UNITILE_WON = "BRRRR/RRRRR/RRR.B/BBBBB/BBBBB b"
#: Both colours united: no game reaches it.
UNITILE_BOTH = "RRRRR/RRRRR/RR.BB/BBBBB/BBBBB b"
#: What Unitile's count line says a position has.
HAS = "a position has 12 of each colour and one empty cell"
#: Naked Diagonal, 4x4: one stone of each colour, Blue to move.
ND_SET = ".R../..../..B./.... b"
ND_NAKED = "R.../.R../..../.... r"
ND_NDE = "R.B./B.R./.RR./B..B r"
ND_WON = ".R../.R../.R../.R.. b"
#: Two red stones and no blue one: legal, but no game from the empty board reaches it.
UNREACHED = "R.R./..../..../.... b"


def open_game(site: Site, game: str, **values: Any) -> None:
    """A play page with no game kept and the given settings (two humans, no pace, by default)."""
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    settings: dict[str, Any] = {"r": "human", "b": "human", "pace": "0", "marking": True, "confirm": False}
    if game == "nd":
        settings["size"] = "4"
    else:
        settings["analysis"] = False
    settings.update(values)
    site.js(f"localStorage.setItem('{game}.settings.v1', {json.dumps(json.dumps(settings))})")
    site.open("nd.html" if game == "nd" else "")


def problem(site: Site) -> str:
    return str(site.page.locator("#setup-problem").inner_text())


def enter_setup(site: Site) -> None:
    site.page.locator("#btn-setup").click()
    assert site.page.locator("#setup").is_visible() and site.page.locator("#btn-new").is_hidden()
    wait_until(lambda: site.idle() and problem(site), "the first check of the set-up")


def cells(site: Site) -> str:
    """The set-up board as a position's rows, read from the cells' labels (what a screen reader hears)."""
    spots = site.page.locator('#board [role="gridcell"]')
    labels = spots.evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    n = int(len(labels) ** 0.5)
    marks = ["R" if ", red " in label else "B" if ", blue " in label else "." for label in labels]
    return "/".join("".join(marks[r * n:(r + 1) * n]) for r in range(n))


def names(n: int) -> list[str]:
    return [f"{'abcdefghijklm'[c]}{r}" for r in range(n, 0, -1) for c in range(n)]


def set_up(site: Site, position: str) -> None:
    """Tap every cell until the board holds ``position``'s rows (each tap: red, blue, empty, red ...),
    choose its side to move, and wait for the service's verdict on it."""
    rows, side = position.split()
    target = rows.replace("/", "")
    cycle = "RB."
    now_cells = cells(site).replace("/", "")
    for name, now, want in zip(names(int(len(target) ** 0.5)), now_cells, target, strict=True):
        for _ in range((cycle.index(want) - cycle.index(now)) % 3):
            site.cell(name).click()
    assert cells(site) == rows
    site.page.locator(f"#setup-turn-{side}").check()
    wait_until(lambda: site.idle() and site.page.locator("#setup-turn-" + side).is_checked(), "the check")


def assert_refused(site: Site, position: str, line: str) -> None:
    """``position`` gets ``line`` and cannot be started: Play and Analyse stay disabled, the game stays."""
    before = site.state()
    set_up(site, position)
    wait_until(lambda: problem(site) == line, f"the line {line!r} (now {problem(site)!r})")
    assert site.page.locator("#setup-problem").get_attribute("role") == "status"
    assert site.page.locator("#setup-problem").get_attribute("data-kind") == "error"
    assert site.page.locator("#setup-play").is_disabled()
    assert site.page.locator("#setup-analyse").is_disabled()
    site.page.locator("#setup-play").dispatch_event("click")
    site.wait_idle()
    assert site.page.locator("#setup").is_visible() and site.state() == before


def play_from_here(site: Site) -> None:
    wait_until(lambda: site.page.locator("#setup-play").is_enabled(), "Play from here to be enabled")
    site.page.locator("#setup-play").click()
    wait_until(lambda: site.page.locator("#setup").is_hidden() and site.idle(), "the game from the set-up")


def hash_params(site: Site) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(str(site.js("location.hash")).lstrip("#")).items()}


def test_unitile_set_up_a_legal_position_and_play_it(site: Site) -> None:
    open_game(site, "unitile")
    enter_setup(site)
    assert cells(site) == UNITILE_START.split()[0]  # the position shown
    assert problem(site) == "A legal position, Red to move."
    set_up(site, UNITILE_SET)
    assert site.page.locator("#count-r").inner_text() == "12"
    play_from_here(site)
    st = site.state()
    assert st["position"] == UNITILE_SET and st["turn"] == "b" and st["ply"] == 0
    assert site.js("document.getElementById('announce').textContent") == "New game. Blue to move."
    assert hash_params(site) == {"p": UNITILE_SET}
    legal = st["legal"]  # the value rule's, from the tables
    assert legal and set(legal) <= {"c4", "b3", "d3", "c2"}
    site.play(legal[0])
    assert site.state()["moves"] == [legal[0]]
    # The address round trip: a reload, then the link alone in a page with nothing kept.
    link = str(site.js("location.hash"))
    site.page.reload()
    site.wait_ready()
    assert site.js("location.hash") == link and site.state()["moves"] == [legal[0]]
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    site.open(link)
    assert site.js("location.hash") == link and site.state()["plies"] == 1
    site.shot("setup-unitile-played")


def test_unitile_illegal_set_ups_get_one_line_and_no_start(site: Site) -> None:
    open_game(site, "unitile")
    enter_setup(site)
    site.cell("c3").click()  # the empty cell becomes a red tile
    wait_until(lambda: site.idle() and "13 red" in problem(site), "the count line")
    assert problem(site) == f"13 red tiles and no empty cell: {HAS}."
    assert site.page.locator("#setup-play").is_disabled()
    # The board draws the 25th tile (a game's board has 24).
    assert site.page.locator("#board .tile:not([hidden])").count() == 25
    assert site.tile("c3").get_attribute("data-colour") == "r"
    site.shot("setup-unitile-counts")
    assert_refused(
        site, "RRBRB/RBRBR/BR.BR/BRBRB/RBRBR r",
        f"13 red tiles and 11 blue tiles: {HAS}.",
    )
    # Three counts wrong: a list, not "... and ... and ...".
    three = f"11 red tiles, 11 blue tiles and 3 empty cells: {HAS}."
    assert_refused(site, "..BRB/RBRBR/BR.BR/BRBRB/RBRBR r", three)
    assert_refused(site, UNITILE_BOTH, "Red and blue are both united; no game reaches that.")
    assert UnitileApi().state({"start": UNITILE_WON, "moves": []})["winner"] == "r"
    assert_refused(site, UNITILE_WON, "Red has already won in this position: a game cannot start there.")
    # A legal one again: Play comes back.
    set_up(site, UNITILE_SET)
    wait_until(lambda: site.page.locator("#setup-play").is_enabled(), "Play to be enabled again")


def analyse(site: Site, position: str) -> None:
    """Set ``position`` up and press Analyse: the editor closes on the analysis, Blue played by a person."""
    set_up(site, position)
    wait_until(lambda: site.page.locator("#setup-analyse").is_enabled(), "Analyse to be enabled")
    site.page.locator("#setup-analyse").click()
    wait_until(lambda: site.page.locator("#setup").is_hidden() and site.idle(), "the analysis")
    assert site.page.locator("#player-b").input_value() == "human"


def test_unitile_analyse_a_set_up_position(site: Site) -> None:
    open_game(site, "unitile", b="3")
    enter_setup(site)
    analyse(site, UNITILE_SET)
    assert site.page.locator("#opt-analysis").is_checked()
    st = site.state()
    assert st["position"] == UNITILE_SET and set(st["analysis"]) == set(st["legal"])
    badges = site.page.locator("#board .badge.win, #board .badge.loss")
    assert badges.count() == len(st["legal"])


def test_naked_diagonal_analyse_a_set_up_position(site: Site) -> None:
    open_game(site, "nd", b="3")
    switch = site.page.locator("#opt-analysis")
    assert switch.is_enabled() and not switch.is_checked()
    enter_setup(site)
    analyse(site, ND_SET)
    assert switch.is_checked()
    st = site.state()
    expected = NDApi().analysis_of(NDPosition.parse(ND_SET))
    assert st["position"] == ND_SET and expected and st["analysis"] == expected
    assert set(expected) == set(st["legal"])
    for name, a in expected.items():
        word = "W" if a["result"] == "win" else "L"
        badge = site.page.locator(f'#board .pt[data-point="{name}"] .badge')
        assert badge.inner_text() == f"{word}{a['placements']}"
        verb = "wins" if a["result"] == "win" else "loses"
        label = site.cell(name).get_attribute("aria-label")
        assert f"{verb} in {a['placements']} placements with perfect play" in label
    site.shot("setup-nd-analysis")
    # The switch turns the badges off; on 5x5, which has no tables, it cannot be turned on.
    site.set_option("opt-analysis", False)
    badges = site.page.locator("#board .badge.win, #board .badge.loss")
    wait_until(lambda: badges.count() == 0, "no badges")
    site.set_option("opt-analysis", True)
    wait_until(lambda: badges.count() == len(expected), "the badges again")
    open_game(site, "nd", size="5", analysis=True)
    assert site.page.locator("#opt-analysis").is_disabled() and "analysis" not in site.state()
    assert site.page.locator("#board .badge.win, #board .badge.loss").count() == 0


def test_naked_diagonal_analysis_of_a_start_the_tables_do_not_hold_says_so(site: Site) -> None:
    open_game(site, "nd", analysis=True)
    site.open("nd.html#n=4&p=" + UNREACHED.replace(" ", "%20"))
    wait_until(lambda: "the tables do not hold it" in site.message(), "the note")
    assert site.state()["analysis"] is None
    assert site.page.locator("#board .badge.win, #board .badge.loss").count() == 0


def test_naked_diagonal_set_up_on_another_size_and_play_it(site: Site) -> None:
    open_game(site, "nd", size="5")
    enter_setup(site)
    assert cells(site) == "...../...../...../...../....."
    site.page.locator("#size").select_option("4")  # a blank board of the new size, still editing
    wait_until(lambda: cells(site) == "..../..../..../....", "the 4x4 set-up board")
    set_up(site, ND_SET)
    assert site.page.locator("#count-b").inner_text() == "1"
    play_from_here(site)
    st = site.state()
    assert st["size"] == 4 and st["position"] == ND_SET and st["turn"] == "b"
    assert hash_params(site) == {"n": "4", "p": ND_SET}
    assert st["legal"] == NDApi().state({"size": 4, "start": ND_SET, "moves": []})["legal"]
    site.play(st["legal"][0])
    link = str(site.js("location.hash"))
    site.page.reload()
    site.wait_ready()
    assert site.js("location.hash") == link and site.state()["plies"] == 1
    site.shot("setup-nd-played")


def test_naked_diagonal_illegal_set_ups_get_one_line_and_no_start(site: Site) -> None:
    open_game(site, "nd")
    enter_setup(site)
    assert_refused(site, ND_NAKED, "a4 and b3 form a naked diagonal of Red.")
    site.shot("setup-nd-naked")
    assert_refused(site, ND_NDE, "The start position leaves the NDE area b4 b3: no placement is legal in it.")
    assert_refused(site, ND_WON, "Red has already won in this position: a game cannot start there.")
    site.page.locator("#setup-blank").click()
    empty = "..../..../..../...."
    wait_until(lambda: cells(site) == empty and site.page.locator("#setup-play").is_enabled(), "empty")


@pytest.mark.parametrize("size", [6, 9, 13])
def test_naked_diagonal_refusals_read_cleanly_on_every_board_size(site: Site, size: int) -> None:
    """A long position's text is cut short when quoted ('...'...): the line never shows it."""
    open_game(site, "nd", size=str(size))
    enter_setup(site)
    site.cell("e5").click()
    site.cell("f6").click()
    line = "f6 and e5 form a naked diagonal of Red."
    wait_until(lambda: site.idle() and problem(site) == line, f"the line {line!r} (now {problem(site)!r})")


def test_keyboard_set_up_and_cancel(site: Site) -> None:
    open_game(site, "unitile")
    site.page.locator("#btn-setup").focus()
    site.page.keyboard.press("Enter")
    wait_until(lambda: site.page.locator("#setup").is_visible() and site.idle(), "the editor")
    focused = "document.activeElement.dataset.cell"
    assert site.js(focused) == "c3"
    site.page.keyboard.press("ArrowUp")
    assert site.js(focused) == "c4" and site.js("document.activeElement.matches(':focus-visible')")
    assert site.cell("c4").get_attribute("aria-label") == "c4, red tile"
    site.page.keyboard.press("Enter")
    assert site.cell("c4").get_attribute("aria-label") == "c4, blue tile"
    site.page.keyboard.press(" ")
    assert site.cell("c4").get_attribute("aria-label") == "c4, empty cell"
    wait_until(lambda: site.idle() and "2 empty cells" in problem(site), "the count line")
    assert site.js("document.getElementById('announce').textContent") == "c4: empty cell."
    # The game's letter keys do nothing while editing; Escape goes back to the game as it was.
    site.page.keyboard.press("n")
    assert site.page.locator("#dlg-new").is_hidden()
    site.page.keyboard.press("Escape")
    wait_until(lambda: site.page.locator("#setup").is_hidden() and site.idle(), "the game again")
    assert site.state()["position"] == UNITILE_START and site.js("location.hash") == ""
    assert site.cell("c4").get_attribute("aria-label").startswith("c4, red tile")
    assert site.js("document.activeElement.id") == "btn-setup"
    # Naked Diagonal: the same keys on its points.
    open_game(site, "nd")
    site.page.locator("#btn-setup").click()
    wait_until(lambda: site.idle() and problem(site), "the editor")
    start = str(site.js(focused))
    site.page.keyboard.press("ArrowRight")
    moved = str(site.js(focused))
    assert moved != start and site.js("document.activeElement.matches(':focus-visible')")
    site.page.keyboard.press("Enter")
    assert site.cell(moved).get_attribute("aria-label") == f"{moved}, red stone"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_disabled_play_from_here_looks_disabled(site: Site, scheme: str) -> None:
    """Play from here is the editor's main button: disabled (an illegal set-up), it looks as the other
    disabled buttons do, in both themes (in dark mode it kept its light face)."""
    screen(site, "laptop-1366x768", scheme)
    open_game(site, "nd")
    enter_setup(site)
    assert_refused(site, ND_NAKED, "a4 and b3 form a naked diagonal of Red.")
    look = "b => { const s = getComputedStyle(b); return [s.backgroundColor, s.color, s.opacity]; }"

    def looks() -> list[Any]:
        return [site.page.locator(f"#setup-{b}").evaluate(look) for b in ("play", "analyse")]

    wait_until(lambda: looks()[0] == looks()[1], f"the disabled buttons to look alike (now {looks()})")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", ["phone-390x844", "phone-844x390", "laptop-1366x768", "desktop-1920x1080"])
def test_layouts(site: Site, name: str, scheme: str) -> None:
    """The editor whole on the screen, beside the board on a phone held sideways, light and dark."""
    for game in ("unitile", "nd"):
        width, height = screen(site, name, scheme)
        open_game(site, game)
        enter_setup(site)
        site.shot(f"setup-{game}-{name}-{scheme}")
        for selector in ["#board", "#setup-problem", "#setup-turn-r", "#setup-play", "#setup-cancel"]:
            in_view(site, selector, width, height)
        assert site.js("document.documentElement.scrollWidth") <= width
        if name == "phone-844x390":
            board = site.page.locator("#board").bounding_box()
            assert site.page.locator("#setup-play").bounding_box()["x"] > board["x"] + board["width"]


def test_set_up_waits_for_python(browser: Any, site_dir: Path) -> None:
    with held_site(browser, site_dir) as (s, gate):
        s.open(wait=False)
        wait_until(lambda: s.page.locator("#btn-setup").count() == 1, "the page")
        assert s.page.locator("#btn-setup").is_disabled() and s.page.locator("#setup").is_hidden()
        gate.set()
        s.wait_ready()
        assert s.page.locator("#btn-setup").is_enabled()
        enter_setup(s)
        assert problem(s) == "A legal position, Red to move."
