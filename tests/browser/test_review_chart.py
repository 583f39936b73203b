"""The review of a game in both play pages (site/web/js/review-chart.js) in chromium: a finished game
with a known mistake, chosen here with the games' own Python services (the move list, chart points,
banner and table are checked against the service's review), one point a ply with the mistake shaped
apart, the marks in the move list, the mistakes in the end banner, the table a screen reader reads, a
click on a point and the keyboard (arrows, Home, End, Enter) showing a ply, one review request a game,
the note on a Naked Diagonal size without tables, and the chart on a phone and a desktop, light and
dark (no overflow, the theme's colours, text contrast). Screenshots go to test-artifacts/review-*.png."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from unitile_py.naked_diagonal.webapi import Api as NDApi
from unitile_py.unitile.webapi import Api as UnitileApi

from .conftest import ROOT, Site, screen, wait_until

needs_tables = pytest.mark.skipif(
    not (ROOT / "tables" / "5x5" / "manifest.json").exists(), reason="tables/5x5 is not in the repository"
)
#: The words of a result's distance in each game's review.
UNIT = {"unitile": "plies", "nd": "placements"}
COLOUR = {"red": "Red", "blue": "Blue"}


def short_game(api: Any, empty: dict[str, Any]) -> dict[str, Any]:
    """A finished game with one known mistake, from the service's own review: Blue's second ply throws
    its win away (the losing move that ends the game soonest), every other ply wins as fast as it can
    or, where it cannot win, loses as fast as it can. Returns the game and the service's review."""
    game = dict(empty)
    while not (st := api.state(game))["over"]:
        tried = [api.review({**game, "moves": [*game["moves"], m]})["plies"][-1] for m in st["legal"]]
        pool = [t for t in tried if t["verdict"] == "mistake"] if len(game["moves"]) == 1 else []
        pool = pool or [t for t in tried if t["after"]["outcome"] == "win"] or tried
        game = {**game, "moves": [*game["moves"], min(pool, key=lambda t: t["after"]["distance"])["move"]]}
    return {"game": game, "review": api.review(game)}


@cache
def finished(name: str) -> dict[str, Any]:
    """Each game's short finished game, its link and its review."""
    if name == "unitile":
        api = UnitileApi()
        api.load_tables()
        out = short_game(api, {"start": None, "moves": []})
        out["link"] = "#m=" + ".".join(out["game"]["moves"])
    else:
        out = short_game(NDApi(), {"size": 4, "start": None, "moves": []})
        out["link"] = "nd.html#n=4&m=" + ".".join(out["game"]["moves"])
    return out


def open_game(site: Site, game: str, link: str) -> None:
    """A play page with two human players opened on ``link``, settled (its review answered)."""
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    settings: dict[str, Any] = {"r": "human", "b": "human", "pace": "0", "marking": True, "confirm": False}
    settings.update({"size": "4"} if game == "nd" else {"analysis": False})
    site.js(f"localStorage.setItem('{game}.settings.v1', {json.dumps(json.dumps(settings))})")
    site.open(link)


def open_finished(site: Site, game: str) -> dict[str, Any]:
    data = finished(game)
    open_game(site, game, data["link"])
    st = site.state()
    assert st["over"] and st["moves"] == data["game"]["moves"], st
    wait_until(lambda: site.page.locator(".rc-chart .rc-pt").count() > 0, "the review chart")
    return data


def review_ops(site: Site) -> list[str]:
    return [c["op"] for c in site.js("window.unitile.calls") if c["op"].endswith("review")]


def turn(site: Site) -> str:
    return str(site.page.locator("#turn").inner_text())


def slider(site: Site) -> Any:
    return site.page.locator("#review-card [role='slider']")


@needs_tables
@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_a_finished_games_review_chart_marks_and_banner(site: Site, game: str) -> None:
    data = open_finished(site, game)
    rows = data["review"]["plies"]
    n = len(rows)
    summary = data["review"]["summary"]
    mistakes = [r["ply"] for r in rows if r["verdict"] == "mistake"]
    assert mistakes == [2] and rows[1]["mover"] == "blue"  # the game was built so
    card = site.page.locator("#review-card")
    assert card.is_visible() and card.get_attribute("aria-busy") == "false"
    # One point a ply, each with the service's verdict; the mistake a diamond, a best move a disc.
    points = site.page.locator(".rc-chart .rc-pt")
    assert points.count() == n
    verdicts = points.evaluate_all("ps => ps.map(p => [Number(p.dataset.ply), p.dataset.verdict, p.tagName])")
    assert [(k, v) for k, v, _ in verdicts] == [(r["ply"], r["verdict"]) for r in rows]
    shapes = {v: tag for _, v, tag in verdicts}
    assert shapes["mistake"] == "polygon" and shapes["best"] == "circle"
    # Blue's mistake lost Blue's win: after ply 2 Red wins, so its point is above the middle line.
    mid = float(site.page.locator(".rc-chart .rc-mid").get_attribute("y1") or "0")
    diamond = site.page.locator(".rc-chart .rc-pt[data-ply='2']")
    assert "rc-r" in (diamond.get_attribute("class") or "")
    ys = [float(xy.split(",")[1]) for xy in (diamond.get_attribute("points") or "").split()]
    assert (max(ys) + min(ys)) / 2 < mid
    # The move list marks it, in its name too; a best move has no mark.
    mv = site.page.locator("#moves button.mv[data-ply='2']")
    assert mv.inner_text().replace("\n", "") == f"{rows[1]['move']}?"
    assert mv.get_attribute("aria-label") == f"ply 2, Blue {rows[1]['move']}, mistake"
    best = next(r["ply"] for r in rows if r["verdict"] == "best")
    assert site.page.locator(f"#moves button.mv[data-ply='{best}']").inner_text() == rows[best - 1]["move"]
    inaccurate = [r["ply"] for r in rows if r["verdict"] == "inaccuracy"]
    for k in inaccurate:
        label = site.page.locator(f"#moves button.mv[data-ply='{k}']").get_attribute("aria-label")
        assert label.endswith(", inaccuracy"), label
    # The banner counts each side's mistakes; the panel counts the inaccuracies too.
    red, blue = summary["red"]["mistakes"], summary["blue"]["mistakes"]
    # Both sides are players here, so Blue's mistake becomes one of Your puzzles.
    kept = " 1 mistake added to Your puzzles."
    assert site.message().endswith(f" Mistakes: Red {red}, Blue {blue}.{kept}"), site.message()
    text = site.page.locator("#review-summary").inner_text()
    assert text.startswith(f"Red: {red} mistake") and f"\nBlue: {blue} mistake" in text
    # Each side's accuracy, the service's shares as it sends them (JavaScript prints 100.0 as 100).
    pct = {
        side: ["–" if x is None else f"{x:g}%" for x in (a["result"], a["distance"])]
        for side, a in ((side, summary[side]["accuracy"]) for side in ("red", "blue"))
    }
    assert site.page.locator("#review-accuracy").inner_text().splitlines() == [
        f"Red accuracy: {pct['red'][0]} result, {pct['red'][1]} distance;",
        f"Blue accuracy: {pct['blue'][0]} result, {pct['blue'][1]} distance",
    ]
    # The table a screen reader reads: one row a ply, the service's results in words.
    table = site.page.locator("#review-table")
    heads = table.locator("thead th").all_inner_texts()
    assert heads == ["Ply", "Move", "Mover", "Before", "After", "Verdict"]
    assert table.locator("tbody tr").count() == n
    row = table.locator("tbody tr").nth(1).locator("th, td").all_inner_texts()
    unit = UNIT[game]
    before, after = rows[1]["before"], rows[1]["after"]
    assert row == ["2", rows[1]["move"], "Blue", f"{before['outcome']} in {before['distance']} {unit}",
                   f"{after['outcome']} in {after['distance']} {unit}", "mistake"]  # fmt: skip
    site.shot(f"review-{game}-finished")
    assert review_ops(site) == [f"{'nd_' if game == 'nd' else 'ut_'}review"]


@needs_tables
@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_a_click_and_the_keys_show_a_ply(site: Site, game: str) -> None:
    data = open_finished(site, game)
    n = len(data["review"]["plies"])
    # A click on a point shows its ply, as the review bar's buttons do.
    site.page.locator(".rc-chart .rc-pt[data-ply='3']").click()
    wait_until(lambda: turn(site) == f"Ply 3 of {n}" and site.idle(), "ply 3 shown")
    assert site.state()["ply"] == 3 and site.ply() == 3
    assert site.page.locator("#moves button.mv[data-ply='3']").get_attribute("aria-current") == "step"
    assert site.message().startswith(f"Looking back at ply 3 of {n}.")
    # The ring follows the ply shown.
    ring_x = float(site.page.locator(".rc-chart .rc-ring").get_attribute("cx") or "-1")
    point = site.page.locator(".rc-chart .rc-pt[data-ply='3']")
    point_x = point.evaluate("p => p.getAttribute('cx') ?? p.getAttribute('points').split(',')[0]")
    assert ring_x == pytest.approx(float(point_x))
    # The keys: the arrows move the selection only (the board stays), Enter shows the selected ply.
    # The click gave the chart the focus; away and back by the keyboard, it shows.
    chart = slider(site)
    assert chart.evaluate("e => e === document.activeElement")
    site.page.keyboard.press("Shift+Tab")
    site.page.keyboard.press("Tab")
    assert chart.evaluate("e => e.matches(':focus-visible')")
    assert chart.evaluate("e => getComputedStyle(e).outlineStyle") != "none"
    assert chart.get_attribute("aria-valuenow") == "3"
    site.page.keyboard.press("ArrowLeft")
    site.page.keyboard.press("ArrowLeft")
    assert chart.get_attribute("aria-valuenow") == "1"
    assert chart.get_attribute("aria-valuetext").startswith(f"Ply 1 of {n}: Red ")
    assert site.page.locator(".rc-chart .rc-sel").evaluate("e => getComputedStyle(e).visibility") == "visible"
    assert site.state()["ply"] == 3 and turn(site) == f"Ply 3 of {n}"
    site.page.keyboard.press("End")
    assert chart.get_attribute("aria-valuenow") == str(n)
    site.page.keyboard.press("Home")
    assert chart.get_attribute("aria-valuenow") == "0"
    assert chart.get_attribute("aria-valuetext").startswith("The start: ")
    site.page.keyboard.press("ArrowRight")
    site.page.keyboard.press("ArrowUp")
    site.page.keyboard.press("Enter")
    wait_until(lambda: turn(site) == f"Ply 2 of {n}" and site.idle(), "ply 2 shown by Enter")
    assert chart.evaluate("e => e === document.activeElement")
    site.page.keyboard.press("End")
    site.page.keyboard.press("Enter")
    wait_until(lambda: site.state()["ply"] == n and site.idle(), "the end shown again")
    assert site.page.locator("#review-card").is_visible()  # the game is over: the chart stays
    # Every look came from the one review asked for when the game opened.
    assert review_ops(site) == [f"{'nd_' if game == 'nd' else 'ut_'}review"]


@needs_tables
@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_a_tap_on_the_chart_on_a_phone_shows_the_board_it_changes(site: Site, game: str) -> None:
    """On a phone the chart is a screen below the board: the ply a tap shows is on a board in view."""
    screen(site, "phone-390x844", "light")
    open_finished(site, game)
    site.page.locator(".rc-chart").evaluate("c => c.scrollIntoView({block: 'start'})")
    board = site.page.locator("#board")
    assert board.evaluate("b => b.getBoundingClientRect().bottom") < 0  # the board is off the screen
    site.page.locator(".rc-chart .rc-pt[data-ply='2']").click()
    wait_until(lambda: site.state()["ply"] == 2 and site.idle(), "ply 2 shown")
    seen = "b => { const r = b.getBoundingClientRect(); return r.top >= -1 && r.bottom <= innerHeight + 1; }"
    wait_until(lambda: board.evaluate(seen), "the board in view")


@needs_tables
def test_looking_back_in_an_unfinished_game_shows_its_review(site: Site) -> None:
    moves = finished("unitile")["game"]["moves"][:4]
    open_game(site, "unitile", "#m=" + ".".join(moves))
    assert not site.state()["over"]
    assert site.page.locator("#review-card").is_hidden()  # live play: no chart
    assert review_ops(site) == []
    site.page.locator("#btn-prev").click()
    wait_until(lambda: site.page.locator(".rc-chart .rc-pt").count() == 4 and site.idle(), "the chart")
    assert turn(site) == "Ply 3 of 4"
    site.page.locator("#btn-live").click()
    wait_until(lambda: site.page.locator("#review-card").is_hidden() and site.idle(), "the game again")
    assert review_ops(site) == ["ut_review"]


#: Every text the review card's summary and its aria-busy take, in order (a MutationObserver).
WATCH = """() => {
  window.seen = [];
  const card = document.getElementById("review-card");
  const note = () => {
    const text = document.getElementById("review-summary")?.textContent ?? "";
    const entry = `${card.hidden ? "hidden" : "shown"} ${card.getAttribute("aria-busy")} ${text}`;
    if (window.seen.at(-1) !== entry) window.seen.push(entry);
  };
  const all = { subtree: true, childList: true, characterData: true, attributes: true };
  new MutationObserver(note).observe(card, all);
}"""


@needs_tables
def test_the_last_move_brings_reviewing_then_the_review(site: Site) -> None:
    """The review is asked for when the game ends, once: the card says "Reviewing…" (busy) until it
    comes, then the counts replace the line."""
    data = finished("nd")
    moves = data["game"]["moves"]
    open_game(site, "nd", "nd.html#n=4&m=" + ".".join(moves[:-1]))
    assert site.page.locator("#review-card").is_hidden()
    site.js(WATCH)
    site.play(moves[-1])
    wait_until(lambda: site.page.locator(".rc-chart .rc-pt").count() == len(moves), "the chart")
    seen = site.js("window.seen")
    red = data["review"]["summary"]["red"]["mistakes"]
    assert seen[0] == "shown true Reviewing…", seen
    assert seen[-1].startswith(f"shown false Red: {red} mistake"), seen
    assert all(s.startswith("shown") for s in seen), seen
    assert review_ops(site) == ["nd_review"]


def test_a_naked_diagonal_size_without_tables_gets_one_line(site: Site) -> None:
    open_game(site, "nd", "nd.html#n=9&m=e5.d4")
    site.page.locator("#btn-prev").click()
    wait_until(lambda: turn(site) == "Ply 1 of 2" and site.idle(), "ply 1 shown")
    card = site.page.locator("#review-card")
    assert card.is_visible()
    assert site.page.locator("#review-summary").inner_text() == (
        "No review on 9×9: it needs the tables of perfect play, which cover 3×3 and 4×4 only."
    )
    assert site.page.locator("#review-card [role='slider']").is_hidden()
    assert site.page.locator("dialog[open]").count() == 0
    assert site.page.locator("#message").get_attribute("data-kind") == "note"
    assert review_ops(site) == []


def contrast(a: list[float], b: list[float]) -> float:
    """WCAG's contrast ratio of two sRGB colours (0-255)."""

    def lum(c: list[float]) -> float:
        ch = [x / 255 for x in c[:3]]
        r, g, bl = (x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in ch)
        return 0.2126 * r + 0.7152 * g + 0.0722 * bl

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


#: The chart's colours as drawn, and the theme's (a probe element coloured with the custom property).
COLOURS = """() => {
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const probe = (name) => {
    const p = document.createElement("span");
    p.style.color = `var(${name})`;
    document.getElementById("review-card").append(p);
    const out = rgb(getComputedStyle(p).color);
    p.remove();
    return out;
  };
  const paint = (sel, what) => rgb(getComputedStyle(document.querySelector(sel))[what]);
  return {
    red: paint(".rc-chart .rc-pt.rc-r.rc-best", "fill"),
    blue: paint(".rc-chart .rc-pt.rc-b.rc-inaccuracy", "stroke"),
    redLabel: paint(".rc-chart text.rc-r", "fill"), blueLabel: paint(".rc-chart text.rc-b", "fill"),
    card: rgb(getComputedStyle(document.getElementById("review-card")).backgroundColor),
    legend: rgb(getComputedStyle(document.querySelector(".rc-legend")).color),
    themeRed: probe("--red-text"), themeBlue: probe("--blue-text"),
  };
}"""


@needs_tables
@pytest.mark.parametrize(("game", "name", "scheme"), [
    ("nd", "phone-390x844", "dark"), ("unitile", "phone-390x844", "light"),
    ("unitile", "desktop-1920x1080", "dark"), ("nd", "laptop-1366x768", "light"),
])
def test_the_chart_fits_and_takes_the_themes_colours(site: Site, game: str, name: str, scheme: str) -> None:
    screen(site, name, scheme)
    if name.startswith("phone"):
        site.page.set_viewport_size({"width": 360, "height": 740})  # the narrowest phone served
    width = site.page.viewport_size["width"]
    data = open_finished(site, game)
    site.page.locator("#review-card").scroll_into_view_if_needed()
    chart = site.page.locator(".rc-chart")
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert site.js("document.documentElement.scrollWidth") <= width
    assert site.page.locator(".rc-chart .rc-pt").count() == len(data["review"]["plies"])
    c = site.page.evaluate(COLOURS)
    assert c["red"] == c["themeRed"] and c["redLabel"] == c["themeRed"]
    assert c["blue"] == c["themeBlue"] and c["blueLabel"] == c["themeBlue"]
    dark = scheme == "dark"
    assert (sum(c["card"]) < 300) == dark, c["card"]  # the card follows the scheme, and so do the points
    assert c["themeRed"] == ([255, 138, 142] if dark else [179, 36, 43])
    for text in ("redLabel", "blueLabel", "legend"):
        assert contrast(c[text], c["card"]) >= 4.5, (text, c)
    site.shot(f"review-{game}-{width}-{scheme}")


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


@needs_tables
@pytest.mark.skipif(not AXE.exists(), reason="axe-core (Lighthouse's, npm ci) is not installed")
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_axe_finds_nothing_wrong_with_the_review(site: Site, game: str, scheme: str) -> None:
    """axe-core, the engine of Lighthouse's accessibility audits, on the page with the review shown
    (WCAG 2 A and AA rules): names, roles and values of the slider and the move list, the table, and
    the contrast of every text."""
    site.page.emulate_media(color_scheme=scheme, reduced_motion="reduce")  # no transitions under way
    open_finished(site, game)
    site.page.locator("#btn-prev").click()
    wait_until(lambda: site.state()["ply"] == site.state()["plies"] - 1 and site.idle(), "a ply looked at")
    site.js(AXE.read_text(encoding="utf-8"))  # evaluated by the browser's debugger: no CSP applies
    found = site.page.evaluate(
        """async () => {
          const r = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } });
          return r.violations.map((v) => [v.id, v.nodes.map((n) => n.target.join(" "))]);
        }"""
    )
    assert found == []
