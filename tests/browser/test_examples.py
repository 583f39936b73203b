"""Issue 34, item 4: every record and every position a page of the built site shows is checked by
unitile_py, as docs/notation.md's examples are (pytest runs them as doctests). Each page is opened in
chromium and read as drawn: the <code> snippets (records, headers, moves, results), every
placeholder (the record dialog's example: GAMES[...]["example"] of site/build.py), Naked Diagonal's
diagrams (data-position), the NDE areas page's drawings and Unitile's rules diagrams (the start, then
each diagram one slide on, its dots the legal slides). A record goes through the page's own service,
as the Record dialog's Load does; the "…" of an example ends it (the game goes on). A snippet of a
kind the test does not know fails it, so a new one is checked too. The refusals the about page
quotes are the service's words."""

from __future__ import annotations

import re
from typing import Any

import pytest

from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.rules import naked_diagonals
from unitile_py.naked_diagonal.webapi import Api as NDApi
from unitile_py.unitile.board import Board
from unitile_py.unitile.notation import parse_position
from unitile_py.unitile.position import Position
from unitile_py.unitile.webapi import Api as UnitileApi

from .conftest import ROOT, Site, build_module, wait_until

TABLES = ROOT / "tables" / "5x5"
needs_tables = pytest.mark.skipif(not (TABLES / "manifest.json").exists(), reason="tables/5x5 is missing")
#: What a page shows, as drawn.
READ_PAGE = """() => ({
  game: document.documentElement.dataset.game || null,
  text: document.body.innerText,
  codes: [...document.querySelectorAll('code')].map(c => c.textContent),
  placeholders: [...document.querySelectorAll('[placeholder]')].map(e => e.getAttribute('placeholder')),
  positions: [...document.querySelectorAll('[data-position]')].map(e => e.dataset.position),
  minis: [...document.querySelectorAll('.mini')].map(m => [...m.querySelectorAll(':scope > span')]
    .map(s => s.className)),
})"""
RESULT = re.compile(r"1-0|0-1|\*")
MOVE = re.compile(r"[a-z]\d{1,2}")
RECORD = re.compile(r"\[|\d+\.")
FILE = re.compile(r"[\w.-]+(/[\w.-]+)+")
#: A record's first move in running text ("1. c4", "1... e5").
RECORD_IN_TEXT = re.compile(r"(?<![\w.])1\.(\.\.)?\s+[a-z]\d")


def unitile_api() -> UnitileApi:
    api = UnitileApi()
    api.load_tables(directory=str(TABLES))
    return api


def record_of(example: str) -> str:
    """An example as a whole record: "…" (and a move number before it) means the game goes on."""
    text = example.replace("…", " ").strip()
    text = re.sub(r"\s*\d+\.(\.\.)?$", "", text)
    return text if RESULT.search(text.split()[-1] if text.split() else "") else f"{text}\n*"


def check_record(api: Any, example: str) -> None:
    """Load the example as the Record dialog would; a game that the service cannot load fails."""
    text = record_of(example)
    try:
        api.load(text)
    except Exception as exc:
        raise AssertionError(f"{example!r} (as {text!r}): {exc}") from None


def check_snippet(api: Any, snippet: str) -> str:
    """Check one <code> or placeholder text; its kind."""
    snippet = snippet.strip()
    if RESULT.fullmatch(snippet):
        return "result"
    if MOVE.fullmatch(snippet):
        check_record(api, f"1. {snippet} *")  # a first move: legal at the start
        return "move"
    if RECORD.match(snippet):
        check_record(api, snippet)
        return "record"
    if FILE.fullmatch(snippet):
        return "file"
    raise AssertionError(f"a snippet this test does not know how to check: {snippet!r}")


def unitile_diagrams(api: UnitileApi, minis: list[list[str]]) -> None:
    """Unitile's diagrams: the start, then each one legal slide on (the ringed tile is the one that
    slid, into the last diagram's bubble), the dots, where drawn, on exactly the legal slides."""
    board = Board.get(5, 5)
    position = Position.start(board)
    for i, cells in enumerate(minis):
        where = f"diagram {i + 1}"
        assert len(cells) == board.cells, f"{where}: {len(cells)} cells"
        classes = [c.split() for c in cells]
        rows = "/".join(
            "".join("B" if "b" in c else "R" if "r" in c else "." for c in classes[r * 5 : r * 5 + 5])
            for r in range(5)
        )
        ringed = [board.name(k) for k, c in enumerate(classes) if "ring" in c]
        if i == 0:
            assert not ringed, f"{where} is the start: no slide to ring"
        else:
            slid = board.name(rows.replace("/", "").index("."))  # the tile left the new bubble
            api.play({"start": str(position), "moves": []}, slid)  # a legal slide, or an error
            assert ringed == [board.name(position.bubble)], f"{where}: the ring is on {ringed}"
            position = position.play(board.cell(slid))
        shown = parse_position(f"{rows} {position.turn}")
        assert shown == position, f"{where} shows {shown}, not {position}"
        dotted = sorted(board.name(k) for k, c in enumerate(classes) if "can" in c)
        legal = sorted(api.state({"start": str(position), "moves": []})["legal"])
        assert not dotted or dotted == legal, f"{where}: dots on {dotted}, the legal slides are {legal}"


@needs_tables
def test_every_record_and_position_on_every_page_is_legal(site: Site, site_dir: Any) -> None:
    apis = {"unitile": unitile_api(), "nd": NDApi()}
    pages = sorted(p.name for p in site_dir.glob("*.html"))
    assert {"index.html", "rules.html", "nd.html", "nd-rules.html", "about.html", "nd-areas.html"} <= {*pages}
    checked: dict[str, int] = {}
    for name in pages:
        site.page.goto(site.base + name)
        if site.page.locator('#board[role="grid"]').count():
            site.wait_ready()  # a play page: let it boot (no request cut off)
        seen = site.page.evaluate(READ_PAGE)
        game = seen["game"]
        snippets = [*seen["codes"], *seen["placeholders"]]
        if game is None:  # a page of both games (about.html): no game's records on it
            assert not [s for s in snippets if RECORD.match(s.strip())], (name, snippets)
            assert not seen["positions"] and not seen["minis"], name
            continue
        api = apis[game]
        kinds = [check_snippet(api, s) for s in snippets]
        # Every record in the running text is one of the snippets checked.
        in_text = len(RECORD_IN_TEXT.findall(seen["text"]))
        in_codes = sum(len(RECORD_IN_TEXT.findall(c)) for c in seen["codes"])
        assert in_text == in_codes, f"{name}: a record outside <code>, not checked"
        for position in seen["positions"]:
            assert game == "nd", (name, position)
            n = len(position.split("/"))
            api.state({"size": n, "start": position, "moves": []})  # a position the page can play from
            # ... and one that play can reach: Red places first, so Red has as many stones as Blue
            # with Red to move, one more with Blue to move.
            stones, turn = position.split()
            red, blue = stones.count("R"), stones.count("B")
            assert red - blue == (0 if turn == "r" else 1), f"{name}: {position} cannot arise in play"
        if seen["minis"]:
            assert game == "unitile", name
            unitile_diagrams(api, seen["minis"])
        if site.page.locator("#record-load").count():  # the record dialog's example is the build's
            assert build_module.GAMES[game]["example"] in seen["placeholders"], name
        shown = len(seen["positions"]) + len(seen["minis"])
        checked[name] = kinds.count("record") + kinds.count("move") + shown
    # What is on the pages now (a page that loses its examples fails here, and this is updated).
    assert checked == {"index.html": 1, "rules.html": 4, "puzzles.html": 0, "nd.html": 1, "nd-rules.html": 6,
                       "nd-puzzles.html": 0, "nd-areas.html": 0}  # fmt: skip


def test_every_area_drawing_on_the_nde_areas_page_is_valid(site: Site) -> None:
    """The NDE areas page draws configurations, not positions: a window of a board, o an empty point of
    the area, . nothing that matters (it may hold a stone), # beyond the edge. Each, as the page loads
    it, is valid by unitile_py (docs/naked-diagonal-areas.md): no naked diagonal among its stones that
    a stone on a "." point could not clothe; k points of area; only the legend's marks."""
    site.page.goto(site.base + "nd-areas.html")
    wait_until(lambda: site.page.evaluate("document.querySelectorAll('#minimal-areas svg').length > 0"),
               "the NDE areas page's drawings")
    data = site.page.evaluate("fetch('tables/naked-diagonal/areas.json').then(r => r.json())")
    entries = [*data["exhaustive"]["entries"], *data["survey"]["areas"]]
    assert len(entries) > 1000
    for entry in entries:
        rows = entry["drawing"].split("/")
        assert set("".join(rows)) <= set(data["legend"]) and len({len(r) for r in rows}) == 1, entry
        assert "".join(rows).count("o") == entry["k"], entry
        grid = Grid.get(max(len(rows), len(rows[0])))
        marks = [(r * grid.n + c, ch) for r, row in enumerate(rows) for c, ch in enumerate(row)]
        red, blue, anything = (sum(1 << i for i, ch in marks if ch == mark) for mark in "RB.")
        for p, q, _ in naked_diagonals(grid, red, blue):
            shared = next(shared for qbit, shared in grid.diag_bits[p] if qbit == 1 << q)
            assert shared & anything, f"{entry['drawing']}: {grid.name(p)} and {grid.name(q)} are naked"


@needs_tables
def test_the_refusals_the_about_page_quotes_are_the_services_words(site: Site) -> None:
    site.page.goto(site.base + "about.html")
    text = " ".join(site.page.locator("main").inner_text().split())
    quoted = re.findall(r"“([a-e]\d [^”]+)”", text)
    assert len(quoted) == 2, quoted
    api = unitile_api()
    after_c4 = api.play(api.new_game(), "c4")
    assert quoted == [api.explain(after_c4, "c3")["text"], api.explain(api.new_game(), "a1")["text"]]
