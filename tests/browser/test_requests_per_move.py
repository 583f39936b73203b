"""A move costs the page one request to the worker (issue 49): the "play" request's reply carries the new
game and the state to draw, on both games' pages, human against human."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Site


@pytest.mark.parametrize(("path", "prefix"), [("", "ut_"), ("nd.html", "nd_")])
def test_a_move_is_one_request(site: Site, path: str, prefix: str) -> None:
    site.open(path)
    site.set_player("b", "human")
    for _ in range(3):
        before = int(site.js("window.unitile.calls.length"))
        site.play(site.legal()[0])
        ops = site.js(f"window.unitile.calls.slice({before}).map((c) => c.op)")
        assert ops == [f"{prefix}play"], ops
