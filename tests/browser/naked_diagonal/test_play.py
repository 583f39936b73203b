"""Naked Diagonal's page in chromium (issue 16), point by point: the page and its credit, whole games
human against the computer on 5x5 and 9x9, the marking, a ban of each kind drawn on the board (the
naked diagonal, the NDE area outlined, the BAD area), skipped turns, Confirm moves, undo, hint,
records, the address, the kept game, reload, keyboard play, screen-reader labels, the board size,
computer against computer with pause, the game switch, the rules page's diagrams (checked against
the engine) and offline play of both games. Screenshots go to test-artifacts/nd-*.png."""

from __future__ import annotations

import json
import re
import shutil
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from unitile_py.naked_diagonal.webapi import Api

from ..conftest import (
    TIMEOUT,
    VIEWPORTS,
    Site,
    assert_play_page_fits,
    held_site,
    in_view,
    make_context,
    pause_and_finish,
    screen,
    serve_module,
    wait_until,
)

#: Red to move on 5x5: d1 would leave c2 d2 e2, an NDE area that is not BAD (as on the rules page).
NDE_START = "RR..R/...../.BBBR/.B.../..R.B r"
#: Blue to move on 5x5: c5 would leave d5 d4 d3, a BAD area (Red is banned from it).
BAD_START = "....R/..R.B/..B.B/..RR./..... b"
#: Red to move on 3x3; b1 joins north and south at once.
RED_WINS_IN_ONE = ".R./.R./... r"


def nd_settings(site: Site, **values: Any) -> None:
    """Store Naked Diagonal's settings before its page starts (two humans on 5x5 by default)."""
    full = {"r": "human", "b": "human", "size": "5", "pace": "0", "marking": True, "confirm": False}
    full.update(values)
    site.js(f"localStorage.setItem('nd.settings.v1', {json.dumps(json.dumps(full))})")


def nd(site: Site, fragment: str = "", query: str = "", idle: bool = True, **values: Any) -> None:
    """Open Naked Diagonal's page with no game kept, the given settings and address."""
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    nd_settings(site, **values)
    site.open(f"nd.html{query}{fragment}", idle=idle)


def point(site: Site, name: str) -> Any:
    """The drawn point (its stone, dot and classes: marked, last, chosen, hint, chain, ban-point)."""
    return site.page.locator(f'#board .pt[data-point="{name}"]')


def board(site: Site, attribute: str) -> str | None:
    return site.page.locator("#board").get_attribute(attribute)


def count(site: Site, selector: str) -> int:
    return int(site.page.locator(selector).count())


def tap_banned(site: Site, name: str) -> str:
    """Tap a point where the side to move may not place; the ban's kind once it is drawn."""
    site.cell(name).click()
    return str(wait_until(lambda: board(site, "data-ban"), f"the ban on {name} to be drawn"))


def wait_human_or_end(site: Site, colour: str) -> dict[str, Any]:
    def ready() -> dict[str, Any] | None:
        st = site.state()
        if site.idle() and st and (st["over"] or st["turn"] == colour):
            return st
        return None

    return dict(wait_until(ready, f"{colour} to move or the end", timeout=120))


def play_against(site: Site, human: str, choose: Any) -> dict[str, Any]:
    """Play the ``human`` colour against the computer, ``choose(state)`` giving each placement,
    until the end; checks every placement is one the page marked."""
    while True:
        st = wait_human_or_end(site, human)
        if st["over"]:
            return st
        move = choose(st)
        assert move in st["legal"] and "marked" in (point(site, move).get_attribute("class") or "")
        ply = site.ply()
        site.click(move)
        wait_until(lambda: site.ply() > ply, f"{move} to be placed")  # noqa: B023 (read at once)


def check_end(site: Site, st: dict[str, Any], human: str) -> None:
    """The end as drawn: banner, chain, move list and record."""
    winner = st["winner"]
    assert winner in ("r", "b") and st["chain"], st
    chain = set(st["chain"])
    lit = site.js("[...document.querySelectorAll('#board .pt.chain')].map(p => p.dataset.point)")
    assert set(lit) == chain
    assert all(st["points"][_index(st, p)] == winner for p in chain)
    edges = "north and south" if winner == "r" else "west and east"
    text = site.message()
    assert text.startswith("You win" if winner == human else "You lost") and edges in text
    assert f"({st['plies']} plies)" in text
    assert site.page.locator("#message").get_attribute("data-kind") == f"win-{winner}"
    assert site.page.locator("#turn").inner_text() == f"{'Red' if winner == 'r' else 'Blue'} wins"
    assert site.page.locator("#moves li.result").inner_text() == ("1-0" if winner == "r" else "0-1")
    assert count(site, "#board .pt.marked") == 0  # no dots once the game is over
    assert st["record"].startswith('[Game "Naked Diagonal"]') and st["record"].rstrip().endswith(st["result"])


def _index(st: dict[str, Any], name: str) -> int:
    """The reading-order index of a point name (a9 first on 9x9)."""
    n = st["size"]
    return (n - int(name[1:])) * n + ord(name[0]) - ord("a")


# ----- the page ---------------------------------------------------------------------------------


def test_the_page_opens_on_the_empty_board_with_every_point_marked(site: Site) -> None:
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    site.open("nd.html")  # the defaults: 9x9, Red a human, Blue level 3
    st = site.state()
    assert (st["size"], st["ply"], st["turn"], len(st["legal"])) == (9, 0, "r", 81)
    assert site.page.locator("#size").input_value() == "9"
    assert site.page.locator("#player-b").input_value() == "3"
    assert count(site, "#board .pt") == 81 and count(site, "#board .pt.marked") == 81
    edges = site.js("[...document.querySelectorAll('#board .edge')].map(e => e.className + e.dataset.colour)")
    assert sorted(edges) == ["edge edge-eb", "edge edge-nr", "edge edge-sr", "edge edge-wb"]
    assert site.page.title() == "Naked Diagonal"
    footer = site.page.locator("footer")
    assert "Naked Diagonal is a game by Mark Steere" in footer.inner_text()
    assert footer.locator('a[href="https://www.marksteeregames.com/"]').count() == 1
    assert site.page.locator('header .game[data-game="nd"]').get_attribute("aria-current") == "true"
    levels = site.js("[...document.querySelectorAll('#player-r option')].map(o => o.value)")
    assert levels == ["human", "1", "2", "3", "4", "5", "6"]
    assert site.page.locator('#player-r option[value="6"]').is_disabled()  # perfect play: 3x3, 4x4, 5x5 only
    sizes = site.js("[...document.querySelectorAll('#size option')].map(o => o.value)")
    assert sizes == [str(n) for n in range(3, 14)]
    label = board(site, "aria-label")
    assert label is not None and "Red owns north and south, Blue west and east" in label
    assert site.cell("e5").get_attribute("aria-label") == "e5, empty, Red may place"
    site.shot("nd-01-start")


def test_marking_off_hides_the_dots_but_not_the_bans(site: Site) -> None:
    nd(site, "#n=5&m=c3.a1", marking=False)
    legal = len(site.legal())
    assert count(site, "#board .pt.marked") == 0 and count(site, "#board .spot.legal") == legal == 19
    site.set_option("opt-marking", True)
    assert count(site, "#board .pt.marked") == legal
    site.set_option("opt-marking", False)
    assert tap_banned(site, "d4") == "naked"


def test_the_settings_and_the_empty_board_show_before_python_is_ready(browser: Any, site_dir: Path) -> None:
    """The worker's first request waits until the test lets it go: meanwhile the page is up."""
    with held_site(browser, site_dir) as (s, gate):
        s.page.goto(s.base + "about.html")
        nd_settings(s, size="7", b="2")
        s.page.goto(s.base + "nd.html", wait_until="domcontentloaded")
        wait_until(lambda: s.page.locator("#size").input_value() == "7", "the saved size")
        assert s.page.locator("#player-b").input_value() == "2"
        assert count(s, "#board .pt") == 49 and count(s, "#board .pt.marked") == 0
        assert s.page.locator("#loading-text").inner_text() == "Loading the game…"
        for key in ["u", "h", "n", "r", "ArrowUp", "Enter"]:
            s.page.keyboard.press(key)
        for button in ["#btn-new", "#btn-undo", "#btn-hint", "#btn-record"]:
            assert s.page.locator(button).is_disabled()
        s.shot("nd-09-loading")
        gate.set()
        s.wait_ready()
        assert s.state()["size"] == 7 and s.state()["moves"] == []
        assert count(s, "#board .pt.marked") == 49
        assert s.errors == [] and s.foreign == []


# ----- whole games ------------------------------------------------------------------------------


def test_a_whole_5x5_game_against_level_1_played_with_the_hints(site: Site) -> None:
    """Red, a human, places on the hint each turn (level 6's choice: 5x5 has a stored proof that Red
    wins), and beats level 1."""
    nd(site, query="?seed=3", b="1")
    api = Api()
    hints = 0

    def by_hint(st: dict[str, Any]) -> str:
        nonlocal hints
        site.page.locator("#btn-hint").click()
        wait_until(lambda: count(site, "#board .pt.hint") == 1 and site.idle(), "the hint")
        hinted = site.js("document.querySelector('#board .pt.hint').dataset.point")
        game = {"size": 5, "start": None, "moves": st["moves"]}
        assert hinted == api.hint(game)  # the page shows what the service chose
        assert site.message() == f"Hint: {hinted} (the stored proof)."
        hints += 1
        return str(hinted)

    st = play_against(site, "r", by_hint)
    assert hints >= 3 and st["winner"] == "r"
    check_end(site, st, "r")
    site.shot("nd-02-5x5-won")


def test_a_whole_9x9_game_against_level_2(site: Site) -> None:
    """Blue, a human, places on its first marked point each turn against level 2 (seeded)."""
    nd(site, query="?seed=11", r="2", b="human", size="9", idle=False)
    st = play_against(site, "b", lambda st: st["legal"][0])
    assert st["size"] == 9 and st["plies"] >= 17
    check_end(site, st, "b")
    # Every move is in the list, numbered in pairs as in the record.
    assert count(site, "#moves button.mv") == st["plies"]
    assert site.page.locator("#moves li").first.inner_text().startswith(st["moves"][0])
    site.shot("nd-03-9x9-end")
    # Looking back after the end, then the winning chain again at the end.
    site.page.keyboard.press("Home")
    wait_until(lambda: site.ply() == 0 and site.idle(), "the start")
    assert count(site, "#board .pt.chain") == 0 and count(site, "#board .pt[data-colour='r']") == 0
    site.page.keyboard.press("End")
    wait_until(lambda: site.ply() == st["plies"] and site.idle(), "the end again")
    assert count(site, "#board .pt.chain") == len(st["chain"])


def test_level_6_plays_perfectly_on_4x4_and_gives_the_hint(site: Site) -> None:
    """On 4x4, which has tables, Red follows the hints (level 6's choice) against level 6 and loses:
    perfect play wins for Blue in 16 placements. On 6x6 level 6 is not offered and Blue plays level 5."""
    nd(site, query="?seed=4", b="6", size="4")
    option = site.page.locator('#player-b option[value="6"]')
    assert option.inner_text() == "Level 6 · Perfect play" and not option.is_disabled()
    note = "Level 6 plays perfectly on 3×3, 4×4 and 5×5 (by proof) only."
    assert site.page.locator("#level-note").inner_text() == note

    def by_hint(st: dict[str, Any]) -> str:
        site.page.locator("#btn-hint").click()
        wait_until(lambda: count(site, "#board .pt.hint") == 1 and site.idle(), "the hint")
        return str(site.js("document.querySelector('#board .pt.hint').dataset.point"))

    st = play_against(site, "r", by_hint)
    assert (st["winner"], st["plies"]) == ("b", 16)
    check_end(site, st, "r")
    site.page.locator("#size").select_option("6")
    wait_until(lambda: site.state()["size"] == 6 and site.idle(), "the 6x6 board")  # the game was over
    assert site.page.locator("#player-b").input_value() == "5" and option.is_disabled()
    # The sizes written as everywhere on the page (3×3, not 3x3).
    assert site.message() == ("Level 6 plays perfectly on 3×3, 4×4 and 5×5 only: Blue plays level 5 on "
                              "this board.")


def test_level_6_says_when_it_leaves_the_stored_proof_on_5x5(site: Site) -> None:
    """On 5x5 level 6 follows a stored proof that Red wins; Red's opening a1 is off its lines, where
    Blue's level 6 plays level 5's choice and the page says so, as it promises. The hint there says the
    same, not that the proof wins for the opponent (it does not hold the position)."""
    nd(site, query="?seed=3", b="6", size="5")
    assert "play level 5 and say so" in site.message()
    site.click("a1")
    wait_until(lambda: site.ply() == 2 and site.idle(), "level 6's reply")
    blue = site.state()["moves"][1]
    said = f"Blue (level 6) placed {blue} (not in the stored proof: level 5's choice)."
    wait_until(lambda: site.message() == said, f"the line {said!r} (now {site.message()!r})")
    site.set_player("b", "human")
    site.page.locator("#btn-undo").click()
    wait_until(lambda: site.ply() == 1 and site.idle(), "Blue's placement taken back")
    site.page.locator("#btn-hint").click()
    wait_until(lambda: site.message().startswith("Hint: ") and site.idle(), "the hint")
    hinted = site.page.locator("#board .pt.hint").get_attribute("data-point")
    assert site.message() == f"Hint: {hinted} (not in the stored proof: level 5's choice)."


def test_a_finished_game_on_a_3x3_board(site: Site) -> None:
    nd(site, f"#n=3&p={RED_WINS_IN_ONE.replace(' ', '%20')}")
    site.play("b1")
    st = site.state()
    assert st["winner"] == "r" and set(st["chain"]) == {"b3", "b2", "b1"}
    assert site.message() == "Red wins in 1 ply: a red chain joins the north and south edges."
    assert site.page.locator("#announce").inner_text().startswith("Red places b1. Red wins")
    label = site.cell("b2").get_attribute("aria-label")
    assert label == "b2, red stone, in the chain that joins north and south"
    site.click("a1")
    wait_until(lambda: "game is over" in site.message(), "the note that the game is over")


# ----- bans ----------------------------------------------------------------------------------------


def test_a_naked_diagonal_is_drawn_on_the_board(site: Site) -> None:
    nd(site, "#n=5&m=c3.a1")
    assert tap_banned(site, "d4") == "naked"
    text = "Red on d4 would form a naked diagonal with c3: neither c4 nor d3 holds a red stone."
    assert site.message() == text and site.page.locator("#announce").inner_text() == text
    assert site.page.locator("#message").get_attribute("data-kind") == "refused"
    assert "ban-point" in (point(site, "d4").get_attribute("class") or "")
    assert point(site, "d4").get_attribute("data-ghost") == "r"
    assert count(site, "#board svg.ban line.diagonal") == 1 and count(site, "#board svg.ban .partner") == 1
    assert count(site, "#board svg.ban rect.shared") == 2
    assert site.state()["ply"] == 2  # nothing was placed
    site.shot("nd-04-ban-naked")
    site.page.keyboard.press("Escape")
    wait_until(lambda: board(site, "data-ban") is None, "the ban to be hidden")
    assert count(site, "#board svg.ban *") == 0 and site.message() == ""
    # The next tap hides it too, and a legal tap places.
    tap_banned(site, "b4")
    site.play("c4")
    assert board(site, "data-ban") is None and site.state()["moves"] == ["c3", "a1", "c4"]


def test_an_nde_area_is_outlined(site: Site) -> None:
    nd(site, f"#n=5&p={NDE_START.replace(' ', '%20')}")
    assert tap_banned(site, "d1") == "nde"
    assert site.message().startswith("Red on d1 would leave c2 d2 e2 as an NDE area")
    assert "banned and disconnected" not in site.message()
    assert count(site, "#board svg.ban rect.area") + count(site, "#board svg.ban rect.culprit") == 3
    assert count(site, "#board svg.ban path.outline") == 1
    tag = site.page.locator("#board .ban-tag")
    assert tag.is_visible() and tag.inner_text() == "NDE" and tag.get_attribute("data-kind") == "nde"
    site.shot("nd-05-ban-nde")


def test_a_bad_area_is_outlined_and_named(site: Site) -> None:
    nd(site, f"#n=5&p={BAD_START.replace(' ', '%20')}")
    assert tap_banned(site, "c5") == "bad"
    text = site.message()
    assert text.startswith("Blue on c5 would leave d5 d4 d3 banned and disconnected (BAD)")
    assert "Red could place nowhere in it" in text
    tag = site.page.locator("#board .ban-tag")
    assert tag.inner_text() == "BAD" and tag.get_attribute("data-kind") == "bad"
    assert count(site, "#board svg.ban path.outline") == 1
    site.shot("nd-06-ban-bad")
    # A tap on a stone shakes it and says why, without a drawing.
    site.cell("e5").click()
    wait_until(lambda: site.message() == "e5 already holds a red stone.", "the occupied point's line")
    assert board(site, "data-ban") is None


def test_every_refused_point_gets_the_services_reason(site: Site) -> None:
    """On a position of a seeded game, each empty point that is not marked says why (the service's
    own sentence), and each marked point is one the service allows."""
    nd(site, "#n=5&m=e5.e2.c5.a3.a4.e1.b1.c3")
    st = site.state()
    api = Api()
    game = {"size": 5, "start": None, "moves": st["moves"]}
    empty = [f"{c}{r}" for c in "abcde" for r in "12345" if st["points"][_index(st, f"{c}{r}")] == "."]
    refused = [name for name in empty if name not in st["legal"]]
    assert refused
    for name in refused:
        want = api.explain(game, name)
        assert want is not None
        site.cell(name).click()
        wait_until(lambda: site.message() == want["text"], f"the reason for {name}")  # noqa: B023
        kind = board(site, "data-ban")
        assert kind == ("bad" if want.get("bad") else want["kind"])
    for name in st["legal"]:
        assert api.explain(game, name) is None


# ----- skipped turns -------------------------------------------------------------------------------


def test_a_skip_never_happens_and_a_written_one_is_refused(site: Site) -> None:
    """The rules skip a player without a legal placement; the engine's fact 5 (docs/naked-diagonal.md)
    shows that never happens: every position the page can reach gives both players one. So a link or
    a record with a skip in it is refused at the skip, with one line."""
    nd(site, "#n=5&m=c3.skip.a1")
    assert site.state()["moves"] == ["c3"]
    line = "Move 2 of the link, skip, is a skip, but Blue can place, so it and the 1 after it were not "
    line += "played."
    assert site.message() == line
    site.load_record('[Game "Naked Diagonal"]\n[Board "5x5"]\n1. c3 skip *')
    error = site.page.locator("#load-error")
    wait_until(lambda: error.inner_text(), "the record's error")
    assert "skip, but Blue can place" in error.inner_text() and "\n" not in error.inner_text()
    site.page.locator("#btn-record-close").click()


# ----- the controls -----------------------------------------------------------------------------


def test_confirm_moves_undo_and_new_game(site: Site) -> None:
    nd(site, confirm=True)
    assert site.page.locator("#btn-confirm").is_visible()
    site.click("c3")
    wait_until(lambda: "chosen" in (point(site, "c3").get_attribute("class") or ""), "c3 to be chosen")
    assert point(site, "c3").get_attribute("data-ghost") == "r" and site.ply() == 0
    site.click("b2")  # another marked point: that one instead
    wait_until(lambda: "chosen" in (point(site, "b2").get_attribute("class") or ""), "b2 to be chosen")
    assert count(site, "#board .pt.chosen") == 1
    site.page.locator("#btn-confirm").click()
    site.wait_ply(1)
    assert site.state()["moves"] == ["b2"] and "last" in (point(site, "b2").get_attribute("class") or "")
    assert site.cell("b2").get_attribute("aria-label") == "b2, red stone, placed last"
    site.click("d4")
    site.click("d4")  # a second tap places
    site.wait_ply(2)
    site.page.locator("#btn-undo").click()
    site.wait_ply(1)  # two humans: one placement back
    assert site.state()["moves"] == ["b2"]
    site.page.locator("#btn-new").click()
    assert site.page.locator("#dlg-new").is_visible()
    site.page.locator("#dlg-new-cancel").click()
    assert site.state()["moves"] == ["b2"]
    site.new_game()
    assert site.state()["moves"] == [] and site.js("location.hash") == "#n=5"


def test_undo_against_the_computer_takes_back_its_reply(site: Site) -> None:
    nd(site, query="?seed=5", b="2")
    site.click("c3")
    wait_until(lambda: site.ply() == 2 and site.idle(), "the computer's reply")
    site.click(site.legal()[0])
    wait_until(lambda: site.ply() == 4 and site.idle(), "the second reply")
    site.page.locator("#btn-undo").click()
    wait_until(lambda: site.ply() == 2 and site.idle(), "undo")
    assert site.state()["moves"][0] == "c3" and site.state()["turn"] == "r"


def test_the_record_copies_and_loads(site: Site) -> None:
    nd(site, "#n=5&m=c3.a1.c4")
    site.page.locator("#btn-record").click()
    record = site.page.locator("#record-text").input_value()
    assert record == '[Game "Naked Diagonal"]\n[Board "5x5"]\n1. c3 a1 2. c4 *\n'
    site.page.locator("#btn-copy").click()
    wait_until(lambda: site.js("navigator.clipboard.readText()") == record, "the copied record")
    site.page.locator("#btn-record-close").click()
    site.load_record('[Game "Naked Diagonal"]\n[Board "7x7"]\n1. d4 c3 2. d5 *')
    wait_until(lambda: site.state()["size"] == 7 and site.idle(), "the loaded 7x7 game")
    assert site.state()["moves"] == ["d4", "c3", "d5"] and site.page.locator("#size").input_value() == "7"
    assert count(site, "#board .pt") == 49 and site.js("location.hash") == "#n=7&m=d4.c3.d5"
    site.load_record('[Game "Naked Diagonal"]\n[Board "5x5"]\n1. c3 a1 2. d4 *')
    error = site.page.locator("#load-error")
    wait_until(lambda: error.inner_text(), "the record's error")
    assert error.inner_text().startswith("Ply 3, d4: ") and "naked diagonal" in error.inner_text()
    assert site.state()["size"] == 7  # the game in play is untouched


def test_the_game_lives_in_the_address_and_survives_a_reload(site: Site) -> None:
    nd(site)
    site.play("c3", "a1", "c4")
    assert site.js("location.hash") == "#n=5&m=c3.a1.c4"
    site.page.reload()
    site.wait_ready()
    assert site.state()["moves"] == ["c3", "a1", "c4"] and site.state()["size"] == 5
    # The back button steps back through the page's own entries.
    site.page.go_back()
    wait_until(lambda: site.state()["moves"] == ["c3", "a1"] and site.idle(), "the game before c4")
    site.page.go_forward()
    wait_until(lambda: site.state()["moves"] == ["c3", "a1", "c4"] and site.idle(), "c4 again")
    # The rules page and back, and a new tab without the address: the kept game.
    site.page.locator('nav.pages a[href="nd-rules.html"]').click()
    site.page.locator('nav.pages a[href="nd.html"]').click()
    site.wait_ready()
    assert site.state()["moves"] == ["c3", "a1", "c4"]
    other = site.context.new_page()
    try:
        other.goto(site.base + "nd.html")
        wait_until(lambda: other.evaluate("document.body.dataset.ready") == "1", "the second tab")
        assert other.evaluate("window.unitile.state.moves") == ["c3", "a1", "c4"]
    finally:
        other.close()
    # Unitile keeps its own game beside it.
    site.open("")
    assert site.state()["moves"] == [] and "cells" in site.state()


@pytest.mark.parametrize(
    ("fragment", "moves", "problem"),
    [
        ("#n=5&m=c3.c3", ["c3"], "Move 2 of the link, c3, is taken already, so it was not played."),
        ("#n=5&m=c3.a1.d4.e5", ["c3", "a1"], "Move 3 of the link, d4,"),
        ("#n=99&m=c3", [], "The board size of the link is refused: a 99x99 board is not offered here"),
        ("#n=5&p=garbage&m=c3", [], "The start position of the link is refused"),
        (  # issue 35: n was ignored and the 3x3 position played
            "#n=5&p=.../.R./...%20b&m=a1",
            [],
            "The start position of the link is refused: the board size 5 is not the start position's 3x3;",
        ),
        ("#garbage", [], None),
    ],
)
def test_a_damaged_link_plays_what_it_can(
    site: Site, fragment: str, moves: list[str], problem: str | None
) -> None:
    nd(site, fragment)
    assert site.state()["moves"] == moves
    if problem:
        assert site.message().startswith(problem), site.message()
        assert site.page.locator("#message").get_attribute("data-kind") == "error"
    assert "\n" not in site.message()
    assert site.js("location.hash").startswith("#n=")


def test_a_new_board_size_starts_a_new_game_after_asking(site: Site) -> None:
    nd(site)
    site.play("c3")
    site.page.locator("#size").select_option("7")
    assert site.page.locator("#dlg-new").is_visible()
    assert site.page.locator("#dlg-new-title").inner_text() == "Start a new 7×7 game?"
    site.page.locator("#dlg-new-cancel").click()
    wait_until(lambda: site.page.locator("#size").input_value() == "5", "the size back at 5")
    assert site.state()["moves"] == ["c3"]
    site.page.locator("#size").select_option("13")
    site.page.locator("#dlg-new-ok").click()
    wait_until(lambda: site.state()["size"] == 13 and site.idle(), "the 13x13 board")
    assert count(site, "#board .pt") == 169 and count(site, "#board .pt.marked") == 169
    assert site.js("location.hash") == "#n=13"
    site.shot("nd-07-13x13")


def test_keyboard_play(site: Site) -> None:
    nd(site, "#n=5&m=c3.a1")
    site.page.locator("body").click(position={"x": 5, "y": 5})
    for key in ["ArrowUp"]:  # the ring starts on the middle point, c3
        site.page.keyboard.press(key)
    focused = "document.activeElement.dataset.cell"
    assert site.js(focused) == "c4"
    site.page.keyboard.press("ArrowRight")
    assert site.js(focused) == "d4"
    site.page.keyboard.press("Enter")  # d4 is banned: the reason is drawn
    wait_until(lambda: board(site, "data-ban") == "naked", "the ban drawn by Enter")
    site.page.keyboard.press("Escape")
    wait_until(lambda: board(site, "data-ban") is None, "the ban hidden by Escape")
    site.page.keyboard.press("ArrowLeft")
    site.page.keyboard.press(" ")
    site.wait_ply(3)
    assert site.state()["moves"][-1] == "c4"
    site.page.keyboard.press("u")
    site.wait_ply(2)
    site.page.keyboard.press("PageUp")
    wait_until(lambda: site.ply() == 1 and site.idle(), "ply 1 looked at")
    assert site.page.locator("#btn-live").is_visible()
    site.page.keyboard.press("End")
    wait_until(lambda: site.ply() == 2 and site.idle(), "back to the game")
    site.page.keyboard.press("r")
    assert site.page.locator("#dlg-record").is_visible()
    site.page.keyboard.press("Escape")
    assert not site.page.locator("#dlg-record").is_visible()


def test_computer_against_computer_with_pace_and_pause(site: Site) -> None:
    nd(site, query="?seed=2", r="1", b="2", pace="600", idle=False)
    _, st = pause_and_finish(site, "#board .pt.marked")
    assert st["chain"]
    winner = "Red" if st["winner"] == "r" else "Blue"
    assert site.message().startswith(f"{winner} wins in {st['plies']} plies")


# ----- the site ---------------------------------------------------------------------------------


def test_the_game_switch_is_on_every_page_and_remembered(site: Site) -> None:
    for page in ["", "rules.html", "nd.html", "nd-rules.html", "about.html"]:
        site.page.goto(site.base + page)
        games = site.page.locator("header nav.games a.game")
        assert games.count() == 2
        assert games.nth(0).get_attribute("href") == "./" and games.nth(1).get_attribute("href") == "nd.html"
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    site.open("")
    site.page.locator('header a.game[data-game="nd"]').click()
    site.wait_ready()
    assert "/nd.html" in site.page.url and site.state()["size"] == 9
    # about.html's Play and Rules now lead to Naked Diagonal's pages.
    site.page.goto(site.base + "about.html")
    assert site.page.locator("nav.pages a", has_text="Play").get_attribute("href") == "nd.html"
    assert site.page.locator("nav.pages a", has_text="Rules").get_attribute("href") == "nd-rules.html"
    assert site.page.locator("nav.pages a", has_text="Puzzles").get_attribute("href") == "nd-puzzles.html"
    assert "Naked Diagonal are games by Mark Steere" in site.page.locator("footer").inner_text()
    # Entering the site at its address (a new tab, the installed app's start) opens it too.
    tab = site.context.new_page()
    try:
        tab.goto(site.base)
        wait_until(lambda: "/nd.html" in tab.url, "the site's root to open Naked Diagonal")
        wait_until(lambda: tab.evaluate("document.body.dataset.ready") == "1", "the page")
        tab.locator('header a.game[data-game="unitile"]').click()
        wait_until(lambda: tab.evaluate("document.body && document.body.dataset.ready") == "1", "Unitile")
        assert urlsplit(tab.url).path == "/"
    finally:
        tab.close()
    tab = site.context.new_page()
    try:
        tab.goto(site.base)
        wait_until(lambda: tab.evaluate("document.body && document.body.dataset.ready") == "1", "Unitile")
        assert urlsplit(tab.url).path == "/"  # Unitile was chosen last
    finally:
        tab.close()


def test_the_rules_page_draws_its_diagrams_as_the_engine_explains_them(site: Site) -> None:
    site.page.goto(site.base + "nd-rules.html")
    main = site.page.locator("main").inner_text()
    assert "Mark Steere" in main and "marksteeregames.com" in site.page.content()
    assert "Naked Diagonal is a game by Mark Steere" in site.page.locator("footer").inner_text()
    diagrams = site.js(
        """[...document.querySelectorAll('.nd-diagram .board')].map(b => ({
             position: b.dataset.position, ban: JSON.parse(b.dataset.why), drawn: b.dataset.ban,
             role: b.getAttribute('role'), label: b.getAttribute('aria-label'),
             stones: b.querySelectorAll('.pt[data-colour="r"], .pt[data-colour="b"]').length,
             overlay: b.querySelectorAll('svg.ban *').length }))"""
    )
    assert [d["drawn"] for d in diagrams] == ["naked", "clothed", "nde", "bad"]
    api = Api()
    for d in diagrams:
        position = d["position"]
        assert d["role"] == "img" and d["label"] and d["overlay"] > 0
        assert d["stones"] == sum(c in "RB" for c in position.split()[0])
        ban = dict(d["ban"])
        game = {"size": len(position.split("/")), "start": position, "moves": []}
        if ban["kind"] == "clothed":
            # The diagonal from the partner to the point is clothed by the stone on "clothing".
            st = api.state(game)
            held = {st["points"][_index(st, ban[key])] for key in ("move", "clothing", "partner")}
            assert held == {ban["colour"]}
            assert ban["clothing"] in ban["shared"]
            continue
        want = api.explain(game, ban["move"])
        assert want is not None
        assert {k: v for k, v in want.items() if k != "text"} == ban
    site.shot("nd-08-rules")



@pytest.mark.parametrize("first", ["", "nd.html"])
def test_after_either_game_once_both_play_offline(
    browser: Any, site_dir: Path, tmp_path: Path, first: str
) -> None:
    served = tmp_path / "site"
    shutil.copytree(site_dir, served)
    server = serve_module.SiteServer(served).start()
    s = make_context(browser, server.url, service_workers="allow")
    try:
        s.open(first, idle=False)
        wait_until(s.offline_ready, "the service worker to cache the site", timeout=TIMEOUT * 2)
        server.stop()
        with pytest.raises(OSError):
            urllib.request.urlopen(server.url, timeout=5)
        s.js("localStorage.clear()")  # two humans; a 5x5 board (no game of the first visit kept)
        s.js("localStorage.setItem('nd.settings.v1', JSON.stringify({r: 'human', b: 'human', size: '5'}))")
        s.js("localStorage.setItem('unitile.settings.v1', JSON.stringify({r: 'human', b: 'human'}))")
        for page in ["nd.html", "", "nd.html"]:
            s.page.goto(server.url + page)
            s.wait_ready()
            assert s.js("navigator.serviceWorker.controller !== null")
            s.play(s.legal()[0])
        assert s.state()["size"] == 5 and len(s.state()["moves"]) == 2  # the game kept offline too
        for page in ["nd-rules.html", "rules.html", "about.html"]:
            s.page.goto(server.url + page)
            assert "Mark Steere" in s.page.locator("footer").inner_text()
        s.page.goto(server.url + "nd-rules.html")
        assert s.page.locator(".nd-diagram .board .pt").count() == 16 + 16 + 25 + 25
        assert s.errors == [] and s.foreign == []
    finally:
        s.context.close()
        server.stop()


# ----- layouts ----------------------------------------------------------------------------------

#: The screens of conftest.VIEWPORTS but the landscape tablet.
ND_VIEWPORTS = [name for name in VIEWPORTS if name != "tablet-1024x768"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", ND_VIEWPORTS)
def test_the_page_fits_with_a_ban_and_at_the_end(site: Site, name: str, scheme: str) -> None:
    width, height = screen(site, name, scheme)
    nd(site, f"#n=5&p={BAD_START.replace(' ', '%20')}")
    tap_banned(site, "c5")
    assert_play_page_fits(site, name, ["#message"])
    site.shot(f"nd-layout-{name}-{scheme}-bad")
    if name in ("desktop-1920x1080", "phone-390x844"):
        nd(site, "#n=9&m=" + ".".join(_NINE), size="9")
        assert site.state()["over"]
        in_view(site, "#board", width, height)
        in_view(site, "#scoreline", width, height)
        site.shot(f"nd-layout-{name}-{scheme}-end")
        site.page.goto(site.base + "nd-rules.html")
        assert site.js("document.documentElement.scrollWidth") <= width
        site.shot(f"nd-layout-{name}-{scheme}-rules")


def _finished_nine() -> list[str]:
    """A seeded random 9x9 game played to its end by the service (for the end screenshots)."""
    import random

    api = Api()
    rng = random.Random(4)
    game: dict[str, Any] = {"size": 9, "start": None, "moves": []}
    while not (st := api.state(game))["over"]:
        game = api.play(game, rng.choice(st["legal"]))
    return list(game["moves"])


_NINE = _finished_nine()


def test_moves_and_labels_speak_to_a_screen_reader(site: Site) -> None:
    nd(site, "#n=5&m=c3.a1")
    labels = site.js("[...document.querySelectorAll('#moves .mv')].map(b => b.getAttribute('aria-label'))")
    assert labels == ["ply 1, Red c3", "ply 2, Blue a1"]
    assert site.cell("a1").get_attribute("aria-label") == "a1, blue stone, placed last"
    assert site.cell("d4").get_attribute("aria-label") == "d4, empty"  # banned for Red: not "may place"
    assert site.page.locator("#board").get_attribute("role") == "grid"
    assert site.page.locator("#message").get_attribute("role") == "status"
    site.play("c4")
    assert re.match(r"Red places c4\. Blue to move\.", site.page.locator("#announce").inner_text())
