"""The play page fits every screen (issue 15, point 3): the whole board, the score line and the game
buttons are in view without scrolling, nothing overflows sideways, in light and dark. Screenshots of
each go to test-artifacts/layout-*.png (they are looked at, not compared)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Site
from .test_polish import fresh

VIEWPORTS = {
    "desktop-1920x1080": (1920, 1080),
    "laptop-1366x768": (1366, 768),
    "tablet-768x1024": (768, 1024),
    "tablet-1024x768": (1024, 768),
    "phone-390x844": (390, 844),
    "phone-844x390": (844, 390),
}


def in_view(site: Site, selector: str, width: int, height: int) -> dict[str, Any]:
    box = site.page.locator(selector).bounding_box()
    assert box is not None, selector
    inside = box["x"] >= 0 and box["y"] >= 0
    inside = inside and box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5
    assert inside, f"{selector} at {box} is not inside {width}x{height}"
    return box


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_play_page_fits(site: Site, name: str, scheme: str) -> None:
    width, height = VIEWPORTS[name]
    site.page.set_viewport_size({"width": width, "height": height})
    site.page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    fresh(site)
    for _ in range(3):
        site.play(site.legal()[0])
    board = in_view(site, "#board", width, height)
    assert board["width"] >= min(300, width - 40, height - 90), board
    for selector in ["#scoreline", "#btn-new", "#btn-undo", "#btn-hint", "#btn-record", "#review"]:
        in_view(site, selector, width, height)
    assert site.js("document.documentElement.scrollWidth") <= width
    if name == "phone-844x390":  # side by side: the buttons right of the board
        assert site.page.locator("#btn-new").bounding_box()["x"] > board["x"] + board["width"]
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
