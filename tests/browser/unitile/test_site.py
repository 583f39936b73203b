"""The game page in chromium: boot, input, confirm flow, undo, new game, record, URL, keyboard, offline."""

from __future__ import annotations

import re
import shutil
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT, Site, build_module, make_context, serve_module, wait_until

#: Red to move; c2 slides up into the bubble and joins the last red tile to the rest: red wins at once.
RED_WINS_IN_ONE = "RRBRR/RRRRR/RB.BR/BBRBB/BBBBB r"


def two_humans(site: Site) -> None:
    site.set_player("r", "human")
    site.set_player("b", "human")


def test_boot_draws_the_start(site: Site, server: Any) -> None:
    response = site.page.goto(server.url)
    assert response is not None and response.ok
    csp = response.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "'wasm-unsafe-eval'" in csp and "'unsafe-eval'" not in csp
    site.wait_ready()
    two_humans(site)
    tiles = site.page.locator("#board .tile")
    assert tiles.count() == 24
    colours = site.js(
        "[...document.querySelectorAll('#board .tile')].map(t => t.dataset.colour).sort().join('')"
    )
    assert colours == "b" * 12 + "r" * 12
    st = site.state()
    assert st["cells"][12] == "." and st["turn"] == "r" and st["ply"] == 0
    assert st["groups"] == {"r": 10, "b": 10}
    assert site.page.locator("#count-r").inner_text() == "10"
    assert site.page.locator("#count-b").inner_text() == "10"
    assert "Red" in site.page.locator("#turn").inner_text()
    # The build carries the lookup tables whenever the repository has them.
    assert st["tables"] == (ROOT / "tables" / "5x5" / "manifest.json").exists()
    legal = site.legal()
    assert legal and set(legal) <= {"c4", "b3", "d3", "c2"}
    # Marking is on by default: exactly the legal tiles carry the green dot.
    marked = site.js("[...document.querySelectorAll('#board .tile.marked')].map(t => t.dataset.cell).sort()")
    assert marked == sorted(legal)
    assert site.page.locator("#btn-undo").is_disabled()
    assert site.cell(legal[0]).get_attribute("aria-label").startswith(f"{legal[0]}, ")
    site.shot("01-start")
    site.set_option("opt-marking", False)
    assert site.page.locator("#board .tile.marked").count() == 0


def test_slide_moves_the_tile_and_rings_it(site: Site) -> None:
    site.open()
    two_humans(site)
    move = site.legal()[0]
    colour = site.tile(move).get_attribute("data-colour")
    site.play(move)
    st = site.state()
    assert st["turn"] == "b" and st["last"] == {"from": move, "to": "c3"} and st["bubble"] == move
    # The same element now sits on c3, drawn with the white ring of the last slide.
    moved = site.tile("c3")
    assert moved.get_attribute("data-colour") == colour
    assert "last" in (moved.get_attribute("class") or "")
    assert site.page.locator("#board .tile.last").count() == 1
    assert f"slides {move}" in site.page.locator("#announce").inner_text()
    assert site.page.locator("#moves .mv").all_inner_texts() == [move]
    site.shot("02-after-first-slide")


def test_confirm_flow(site: Site) -> None:
    site.open()
    two_humans(site)
    site.set_option("opt-confirm", True)
    first, second = site.legal()[:2]
    ghost = site.page.locator("#board .ghost")

    site.click(first)
    assert "selected" in site.tile(first).get_attribute("class")
    assert ghost.is_visible() and ghost.get_attribute("data-colour") == site.tile(first).get_attribute(
        "data-colour"
    )
    # The ghost sits on the bubble (c3: row 2, column 2).
    place = "(e => [e.style.getPropertyValue('--r'), e.style.getPropertyValue('--c')])"
    assert site.js(place + "(document.querySelector('#board .ghost'))") == ["2", "2"]
    assert site.ply() == 0
    site.shot("03-confirm-chosen")

    site.click(second)  # another legal tile: chosen instead
    assert "selected" not in site.tile(first).get_attribute("class")
    assert "selected" in site.tile(second).get_attribute("class")
    assert site.ply() == 0

    site.click(second)  # a second tap slides it
    site.wait_ply(1)
    assert site.state()["last"]["from"] == second
    assert site.page.locator("#board .tile.selected").count() == 0 and not ghost.is_visible()

    choice = site.legal()[0]
    site.click(choice)
    site.page.locator("#options-title").click()  # a tap anywhere else cancels
    assert site.page.locator("#board .tile.selected").count() == 0 and not ghost.is_visible()

    site.click(choice)
    site.page.locator("#btn-undo").click()  # Undo only cancels the choice
    assert site.page.locator("#board .tile.selected").count() == 0
    site.wait_idle()
    assert site.ply() == 1

    site.click(choice)
    site.page.locator("#btn-confirm").click()  # the Confirm button slides it
    site.wait_ply(2)
    assert site.state()["last"]["from"] == choice


def test_undo_in_a_two_player_game(site: Site) -> None:
    site.open()
    two_humans(site)
    undo = site.page.locator("#btn-undo")
    assert undo.is_disabled()
    site.play(site.legal()[0])
    second = site.legal()[0]
    site.play(second)
    assert undo.is_enabled()
    undo.click()
    site.wait_ply(1)  # one move back: Blue's
    assert site.state()["turn"] == "b"
    undo.click()
    site.wait_ply(0)
    assert undo.is_disabled()
    site.page.keyboard.press("u")  # nothing to take back: no change
    site.wait_idle()
    assert site.ply() == 0


def test_new_game_asks_before_discarding(site: Site) -> None:
    site.open()
    two_humans(site)
    site.play(site.legal()[0])
    dialog = site.page.locator("#dlg-new")
    site.page.locator("#btn-new").click()
    assert dialog.is_visible()
    site.shot("04-new-game-dialog")
    site.page.locator("#dlg-new-cancel").click()
    assert not dialog.is_visible()
    site.wait_idle()
    assert site.ply() == 1
    site.page.locator("#btn-new").click()
    site.page.locator("#dlg-new-ok").click()
    site.wait_ply(0)
    assert site.state()["moves"] == []


def test_record_copy_load_and_a_bad_record(site: Site) -> None:
    site.open()
    two_humans(site)
    site.play(site.legal()[0])
    site.play(site.legal()[-1])
    moves = site.state()["moves"]
    site.page.locator("#btn-record").click()
    text = site.page.locator("#record-text").input_value()
    assert text == f"1. {moves[0]} {moves[1]} *\n"
    site.page.locator("#btn-copy").click()
    wait_until(lambda: site.page.locator("#copy-status").inner_text() == "Copied", "the copy to finish")
    assert site.js("navigator.clipboard.readText()") == text
    site.shot("05-record")

    # A bad record: a clear message, and the game is kept.
    site.page.locator("#record-load").fill("1. c4 a1 *")
    site.page.locator("#btn-load").click()
    error = site.page.locator("#load-error")
    wait_until(lambda: error.inner_text() != "", "the error message")
    assert error.inner_text().startswith("Ply 2, a1: ")
    site.page.locator("#btn-record-close").click()
    assert site.state()["moves"] == moves

    # Start afresh, then load the copied record back.
    site.new_game()
    site.load_record(text)
    site.wait_ply(2)
    assert site.state()["moves"] == moves
    assert not site.page.locator("#dlg-record").is_visible()


def test_finished_game_is_announced_and_can_be_stepped_through(site: Site) -> None:
    site.open()
    two_humans(site)
    site.load_record(f'[Position "{RED_WINS_IN_ONE}"]\n*')
    site.wait_ply(0)
    assert site.state()["legal"] == ["c2"] or "c2" in site.legal()
    site.play("c2")
    st = site.state()
    assert st["over"] and st["winner"] == "r" and st["result"] == "1-0"
    assert site.page.locator("#turn").inner_text() == "Red wins"
    assert "Red wins" in site.page.locator("#message").inner_text()
    assert site.page.locator("#board .tile.uniting").count() == 12
    assert site.page.locator("#board .tile.dim").count() == 12
    assert site.page.locator("#board .tile.legal").count() == 0
    assert st["record"].endswith("1. c2 1-0\n") and st["record"].startswith('[Position "')
    site.shot("06-red-wins")
    site.page.keyboard.press("ArrowLeft")
    site.wait_ply(0)
    assert site.page.locator("#review-text").inner_text() == "Ply 0 / 1"
    assert site.page.locator("#board .tile.uniting").count() == 0
    site.page.keyboard.press("ArrowRight")
    site.wait_ply(1)
    assert site.page.locator("#board .tile.uniting").count() == 12
    # The finished game as a link: a fresh page opens on the end position.
    link = site.js("location.href")
    assert "m=c2" in link and "p=" in link
    site.page.goto(site.base + "about.html")
    site.page.goto(link)
    site.wait_ready()
    assert site.state()["winner"] == "r" and site.ply() == 1


def test_keyboard_play(site: Site) -> None:
    site.open()
    two_humans(site)
    bubble_side = {"ArrowUp": "c4", "ArrowLeft": "b3", "ArrowRight": "d3", "ArrowDown": "c2"}
    key = next(k for k, cell in bubble_side.items() if cell in site.legal())
    site.page.keyboard.press(key)
    site.wait_ply(1)
    assert site.state()["last"]["from"] == bubble_side[key]
    site.set_option("opt-confirm", True)
    site.page.locator("#board").focus()
    bubble = site.state()["bubble"]
    col, rank = "abcde".index(bubble[0]), int(bubble[1])
    sides = {
        "ArrowUp": f"{bubble[0]}{rank + 1}",
        "ArrowDown": f"{bubble[0]}{rank - 1}",
        "ArrowLeft": f"{'abcde'[col - 1] if col > 0 else '?'}{rank}",
        "ArrowRight": f"{'abcde'[col + 1] if col < 4 else '?'}{rank}",
    }
    key = next(k for k, cell in sides.items() if cell in site.legal())
    site.page.keyboard.press(key)
    assert "selected" in site.tile(sides[key]).get_attribute("class")
    assert site.ply() == 1
    site.page.keyboard.press("Enter")
    site.wait_ply(2)
    site.page.keyboard.press("u")
    site.wait_ply(1)
    # Focus is visible on a legal tile reached with Tab.
    site.page.keyboard.press("Tab")
    assert site.js("document.activeElement.matches('.spot.legal:focus-visible')")


def test_game_lives_in_the_url(site: Site) -> None:
    site.open()
    two_humans(site)
    first = site.legal()[0]
    site.play(first)
    second = site.legal()[0]
    site.play(second)
    assert site.js("location.hash") == f"#m={first}.{second}"
    site.page.reload()
    site.wait_ready()
    assert site.state()["moves"] == [first, second]
    site.page.go_back()
    site.wait_ply(1)
    assert site.state()["moves"] == [first]
    # A link that goes on from the game, with a broken slide: the playable part, and why not the rest.
    site.page.goto(site.base + f"#m={first.upper()}.zz")
    wait_until(lambda: "zz, is not a cell" in site.message(), "the error")
    assert site.state()["moves"] == [first] and site.js("location.hash") == f"#m={first}"


@pytest.mark.parametrize("path", ["", "nd.html"])
def test_back_steps_through_every_move_to_the_start(site: Site, path: str) -> None:
    """Each move is an entry of the browser's history: Back after two moves shows one, then none."""
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    site.open(path)
    two_humans(site)
    for _ in range(2):
        site.play(site.legal()[0])
    site.page.go_back()
    site.wait_ply(1)
    site.page.go_back()
    wait_until(lambda: site.state()["plies"] == 0 and site.idle(), "the start, after the second Back")
    site.page.go_forward()
    wait_until(lambda: site.state()["plies"] == 1 and site.idle(), "one move again, after Forward")


def test_rules_and_about_pages(site: Site) -> None:
    site.page.goto(site.base + "rules.html")
    text = site.page.locator("main").inner_text()
    assert "Mark Steere" in text and "bubble" in text and "united" in text
    link = site.page.locator('a[href$="Unitile_rules.pdf"]')
    assert link.count() >= 1 and "marksteeregames.com" in link.first.get_attribute("href")
    site.shot("07-rules")
    site.page.goto(site.base + "about.html")
    assert "Level 6" in site.page.locator("main").inner_text()
    site.page.locator('nav.pages a[href="./"]').click()
    site.wait_ready()


def test_phone_layout(browser: Any, server: Any) -> None:
    s = make_context(
        browser, server.url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        s.open()
        box = s.page.locator("#board").bounding_box()
        assert box is not None and 300 <= box["width"] <= 390 and box["x"] >= 0
        assert s.js("document.documentElement.scrollWidth") <= 390
        s.shot("08-phone")
        s.set_player("r", "human")
        s.set_player("b", "human")
        s.cell(s.legal()[0]).tap()
        s.wait_ply(1)
        assert s.errors == [] and s.foreign == []
    finally:
        s.context.close()



def test_offline_second_visit_then_an_update(browser: Any, site_dir: Path, tmp_path: Path) -> None:
    """First visit online; second visit with the server stopped; then a new release is deployed on
    the same address and the page offers it."""
    served = tmp_path / "site"
    shutil.copytree(site_dir, served)
    server = serve_module.SiteServer(served).start()
    s = make_context(browser, server.url, service_workers="allow")
    try:
        s.open()
        old = s.js("document.body.dataset.version")
        wait_until(s.offline_ready, "the service worker to cache the site")
        server.stop()
        with pytest.raises(OSError):  # nothing answers on the port any more
            urllib.request.urlopen(server.url, timeout=5)
        s.page.reload()
        s.wait_ready()
        assert s.js("navigator.serviceWorker.controller !== null")
        s.set_player("r", "human")
        s.set_player("b", "human")
        s.play(s.legal()[0])
        s.page.goto(server.url + "rules.html")
        assert "Mark Steere" in s.page.locator("main").inner_text()
        s.page.goto(server.url)
        s.wait_ready()
        assert s.page.locator("#update").is_hidden()

        new = build_module.build(served, salt="a new release").version
        assert new != old
        server = serve_module.SiteServer(served, port=server.port).start()
        s.js("window.unitileRegistration.update()")
        wait_until(lambda: s.js("document.body.dataset.update") == "available", "the update prompt")
        assert re.search("new version", s.page.locator("#update").inner_text())
        assert s.js("document.body.dataset.version") == old  # nothing changes until the reader agrees
        s.shot("09-update-available")
        s.page.locator("#update-reload").click()
        wait_until(lambda: s.js("document.body && document.body.dataset.version") == new, "the new version")
        s.wait_ready()
        assert s.errors == [] and s.foreign == []
    finally:
        server.stop()
        s.context.close()
