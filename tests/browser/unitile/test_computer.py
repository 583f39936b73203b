"""The computer levels in chromium: a game won by clicking, undo against the computer, the hint,
computer against computer with pause, analysis and the thinking indicator. They need tables/5x5."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from ..conftest import ROOT, Site, make_context, pause_and_finish, serve_module, wait_until

pytestmark = pytest.mark.skipif(
    not (ROOT / "tables" / "5x5" / "manifest.json").exists(), reason="tables/5x5 is not in the repository yet"
)


def setup(site: Site, red: str, blue: str, pace: str = "0", seed: int = 7) -> None:
    """Open the page with a fixed seed and the given players (pace in milliseconds, 0 = instant).

    The settings go into localStorage before the page starts, so no computer moves under a
    half-changed line-up."""
    settings = {"r": red, "b": blue, "pace": pace, "marking": True, "confirm": False, "analysis": False}
    site.js(f"localStorage.setItem('unitile.settings.v1', {json.dumps(json.dumps(settings))})")
    site.open(f"?seed={seed}", idle=red == "human" or blue == "human")
    assert site.js("window.unitile.info.players"), "the build must have its computer players"
    assert site.page.locator("#player-r").input_value() == red
    assert site.page.locator("#player-b").input_value() == blue


def wait_turn_or_end(site: Site, colour: str) -> dict:
    """Wait until the human ``colour`` is to move in the latest position, or the game is over."""

    def ready() -> dict | None:
        st = site.state()
        if site.idle() and st and (st["over"] or st["turn"] == colour):
            return st
        return None

    return wait_until(ready, f"{colour} to move or the end")


def play_the_hints(site: Site, colour: str) -> dict:
    """Play ``colour``'s every slide by the hint until the game ends; the last state."""
    for _ in range(200):
        st = wait_turn_or_end(site, colour)
        if st["over"]:
            return st
        site.page.locator("#btn-hint").click()
        hinted = site.page.locator("#board .tile.hint")
        wait_until(lambda h=hinted: h.count() == 1, "the hint")
        ply = site.ply()
        site.click(hinted.get_attribute("data-cell"))
        wait_until(lambda p=ply: site.ply() > p, "the slide")
    raise AssertionError("no end after 200 slides")


def test_win_against_level_1_by_clicking_the_hints(site: Site) -> None:
    setup(site, red="1", blue="human")
    st = play_the_hints(site, "b")
    assert st["over"] and st["winner"] == "b" and st["result"] == "0-1"
    assert site.page.locator("#turn").inner_text() == "Blue wins"
    assert site.page.locator("#board .tile.uniting").count() == 12
    site.shot("10-blue-beats-level-1")


def test_level_6_as_red_loses_to_the_hints_and_claims_no_more_than_perfect_play(site: Site) -> None:
    """The start is lost for Red: level 6 keeps the best result there is, which is a loss. Its name and
    the About page say perfect play, not unbeatable, and that it cannot win a lost start."""
    setup(site, red="6", blue="human")
    label = site.page.locator('#player-r option[value="6"]').inner_text()
    assert label == "Level 6 · Perfect play", label
    assert play_the_hints(site, "b")["winner"] == "b"
    site.page.goto(site.base + "about.html")
    about = site.page.locator("main").inner_text()
    assert "unbeatable" not in about.lower()
    assert "cannot win a lost start" in about, about


def test_undo_against_the_computer_takes_back_the_reply_too(site: Site) -> None:
    setup(site, red="1", blue="human")
    undo = site.page.locator("#btn-undo")
    wait_turn_or_end(site, "b")
    assert site.ply() == 1 and undo.is_disabled()  # only the computer has moved
    site.click(site.legal()[0])
    wait_until(lambda: site.ply() == 3 and site.idle(), "the computer's reply")
    moves = site.state()["moves"]
    assert undo.is_enabled()
    undo.click()
    wait_turn_or_end(site, "b")
    assert site.state()["moves"] == moves[:1]
    assert undo.is_disabled()


def test_hint_is_level_6s_move(site: Site) -> None:
    setup(site, red="human", blue="human")
    site.play(site.legal()[0])
    site.page.keyboard.press("h")
    hinted = site.page.locator("#board .tile.hint")
    wait_until(lambda: hinted.count() == 1, "the hint")
    hint = hinted.get_attribute("data-cell")
    assert "hint" in site.cell(hint).get_attribute("aria-label")
    site.shot("11-hint")
    site.set_player("b", "6")
    site.wait_ply(2)
    assert site.state()["last"]["from"] == hint


def test_computer_against_computer_with_pause(site: Site) -> None:
    setup(site, red="2", blue="6", pace="150")
    _, st = pause_and_finish(site, "#board .tile.marked")
    assert st["winner"] == "b"  # level 6 holds the winning side
    site.shot("12-computer-vs-computer")


def test_analysis_marks_every_legal_slide(site: Site) -> None:
    setup(site, red="human", blue="human")
    assert site.page.locator("#board .badge.win, #board .badge.loss").count() == 0  # off by default
    site.set_option("opt-analysis", True)
    wait_until(lambda: site.state().get("analysis"), "the analysis")
    analysis = site.state()["analysis"]
    assert set(analysis) == set(site.legal())
    for move, result in analysis.items():
        badge = site.tile(move).locator(".badge")
        assert badge.inner_text() == f"{'W' if result['result'] == 'win' else 'L'}{result['plies']}"
    # With perfect play Blue wins: every first move of Red loses.
    assert {a["result"] for a in analysis.values()} == {"loss"}
    site.shot("13-analysis")


def test_page_stays_responsive_while_level_5_thinks(site: Site) -> None:
    setup(site, red="human", blue="5", pace="0")
    site.click(site.legal()[0])
    wait_until(lambda: site.js("document.body.dataset.thinking") == "true", "the thinking indicator")
    assert "thinking" in site.page.locator("#turn").inner_text()
    site.shot("14-thinking")
    site.page.locator("#btn-record").click()  # the page answers at once while the worker searches
    assert site.page.locator("#dlg-record").is_visible()
    site.page.locator("#btn-record-close").click()
    wait_turn_or_end(site, "r")
    assert site.ply() == 2


def test_a_damaged_table_file_is_reported(browser: Any, site_dir: Path, tmp_path: Path) -> None:
    served = tmp_path / "site"
    shutil.copytree(site_dir, served)
    victim = next(p for p in sorted((served / "tables" / "5x5").iterdir()) if p.suffix == ".bin")
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim.write_bytes(bytes(data))
    server = serve_module.SiteServer(served).start()
    s = make_context(browser, server.url)
    try:
        s.page.goto(server.url)
        wait_until(lambda: s.js("document.body.dataset.ready") == "failed", "the boot to fail")
        text = s.page.locator("#loading-text").inner_text()
        assert victim.name in text and "altered" in text and "\n" not in text
        assert s.foreign == []
    finally:
        server.stop()
        s.context.close()
