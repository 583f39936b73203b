"""The play page fits every screen (issue 15, point 3): the whole board, the score line and the game
buttons are in view without scrolling, nothing overflows sideways, in light and dark. Screenshots of
each go to test-artifacts/layout-*.png (they are looked at, not compared)."""

from __future__ import annotations

import pytest

from .conftest import VIEWPORTS, Site, assert_play_page_fits, in_view, screen
from .test_play_page import fresh


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_play_page_fits(site: Site, name: str, scheme: str) -> None:
    width, height = screen(site, name, scheme)
    fresh(site)
    for _ in range(3):
        site.play(site.legal()[0])
    assert_play_page_fits(site, name, ["#review"])
    site.shot(f"layout-{name}-{scheme}")
    if name in ("laptop-1366x768", "phone-390x844"):  # a dialog over the page
        site.page.locator("#btn-record").click()
        in_view(site, "#dlg-record", width, height)
        site.shot(f"layout-{name}-{scheme}-record")
        site.page.locator("#btn-record-close").click()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", ["desktop-1920x1080", "phone-390x844"])
def test_the_rules_page_reads_well(site: Site, name: str, scheme: str) -> None:
    width, height = VIEWPORTS[name]
    site.page.set_viewport_size({"width": width, "height": height})
    site.page.emulate_media(color_scheme=scheme)
    site.page.goto(site.base + "rules.html")
    assert site.js("document.documentElement.scrollWidth") <= width
    in_view(site, "h1", width, height)
    site.shot(f"layout-rules-{name}-{scheme}")
