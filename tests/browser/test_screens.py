"""Issue 34, defects 6 to 8, through the pages: nothing pans sideways on a phone (the NDE areas page's
tables), no level name cut in its menu, the board's coordinates clear of its frame and readable
(WCAG AA contrast, both themes, both games; Unitile's rules diagrams have them too), the score's
unit shown on a phone, the record dialog's buttons on a phone held sideways, 13x13 points large
enough to tap, and "?" for the keyboard help."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import VIEWPORTS, Site, in_view, screen, wait_until
from .naked_diagonal.test_play import nd
from .test_play_page import fresh

PAGES = ["", "rules.html", "puzzles.html", "nd.html", "nd-rules.html", "nd-puzzles.html", "nd-areas.html",
         "about.html"]  # fmt: skip
#: WCAG 2.x AA for text under 18.66 px bold / 24 px regular.
AA = 4.5
#: The smallest tap target WCAG 2.2 accepts (2.5.8, Target Size (Minimum)), in CSS pixels.
TARGET = 24


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG relative luminance of an sRGB colour with channels 0-255."""

    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """WCAG contrast ratio of two opaque colours (1 to 21)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def parse_rgb(css: str) -> tuple[tuple[float, float, float], float]:
    """A computed ``rgb()``/``rgba()`` colour: its channels and its alpha."""
    numbers = [float(x) for x in re.findall(r"[\d.]+", css)]
    assert css.startswith("rgb") and len(numbers) in (3, 4), css
    return (numbers[0], numbers[1], numbers[2]), numbers[3] if len(numbers) == 4 else 1.0


#: The text colour of each element, and the first opaque background colour under the middle of its
#: text (what is drawn there: the board's coordinates belong to the board's element but lie beside it).
COLOURS = """els => els.map(e => {
  const range = document.createRange();
  range.selectNodeContents(e);
  const box = range.getBoundingClientRect();
  e.scrollIntoView({block: 'center'});
  const at = range.getBoundingClientRect();
  let bg = getComputedStyle(document.documentElement).backgroundColor;
  for (const n of document.elementsFromPoint(at.x + at.width / 2, at.y + at.height / 2)) {
    const c = getComputedStyle(n).backgroundColor;
    if (!/rgba\\(.*, 0\\)$/.test(c)) { bg = c; break; }
  }
  const s = getComputedStyle(e);
  return {text: e.textContent, color: s.color, bg, size: s.fontSize, opacity: s.opacity, width: box.width};
})"""


def assert_readable(site: Site, selector: str) -> int:
    """Every element of ``selector`` has AA contrast against what is behind it; how many there are."""
    found = site.page.locator(selector).evaluate_all(COLOURS)
    assert found, selector
    for item in found:
        fg, alpha = parse_rgb(item["color"])
        bg, bg_alpha = parse_rgb(item["bg"])
        assert alpha == 1 and bg_alpha == 1 and float(item["opacity"]) == 1, item
        assert item["width"] > 0, item
        ratio = contrast(fg, bg)
        assert ratio >= AA, f"{selector} {item['text']!r}: {ratio:.2f}:1 ({item})"
    return len(found)


# ----- 6. layout ----------------------------------------------------------------------------------


def wait_areas(site: Site) -> None:
    wait_until(lambda: site.page.locator("#survey").is_visible(), "the NDE areas to be drawn")


@pytest.mark.parametrize("page", PAGES)
def test_no_page_pans_sideways_on_a_phone(site: Site, page: str) -> None:
    width, _ = screen(site, "phone-390x844", "light")
    site.page.goto(site.base + page)
    if page == "nd-areas.html":
        wait_areas(site)
    elif page in ("", "nd.html", "puzzles.html", "nd-puzzles.html"):
        site.wait_ready()
    assert site.js("document.scrollingElement.scrollWidth") <= site.js("innerWidth") == width


def test_every_page_describes_itself_and_its_diagrams_are_pictures(site: Site) -> None:
    """What Lighthouse's SEO and accessibility audits asked of the pages (issue 34's acceptance): a
    description for search results on every page; the rules diagrams pictures, with no grid rows or
    cells to read or focus inside them."""
    for page in PAGES:
        site.page.goto(site.base + page)
        description = site.page.locator('meta[name="description"]')
        assert description.count() == 1 and len(description.get_attribute("content") or "") > 50, page
    site.page.goto(site.base + "nd-rules.html")
    wait_until(lambda: site.page.locator(".nd-diagram .spot").count() > 0, "the diagrams")
    assert site.page.locator(".nd-diagram [role=row]:not([aria-hidden=true] *)").count() == 0
    assert site.page.locator(".nd-diagram [tabindex]").count() == 0


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_areas_tables_fit_and_keep_their_headers(site: Site, name: str) -> None:
    width, _ = screen(site, name, "light")
    site.page.goto(site.base + "nd-areas.html")
    wait_areas(site)
    assert site.js("document.scrollingElement.scrollWidth") <= width
    for table in ["#exhaustive-table", "#survey-table"]:
        box = site.page.locator(table).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (table, box)
        # Every number is shown with its column's header, in a table or, on a narrow screen, beside it.
        cells = site.page.locator(f"{table} tbody td").evaluate_all(
            "tds => tds.map(td => [td.dataset.label, getComputedStyle(td, '::before').content,"
            " td.closest('table').querySelector('thead th:nth-child(' + (td.cellIndex + 1) + ')')"
            ".textContent, getComputedStyle(td.closest('table').querySelector('thead')).position])"
        )
        assert cells
        for label, before, header, head_position in cells:
            assert label == header
            # (its alternative text "" keeps screen readers, which have the header row, from saying it twice)
            assert before == f'"{header}" / ""' or head_position != "absolute", (label, before)
    site.shot(f"34-areas-{name}")


LEVEL_SELECTS = ["#player-r", "#player-b", "#pace", "#size"]

#: For each select, the options whose text, measured in the select's font, is wider than the select's
#: box between its paddings (a select's scrollWidth does not count the text that runs into its right
#: padding, where the arrow is drawn).
CLIPPED = """s => {
  const style = getComputedStyle(s), pen = document.createElement('canvas').getContext('2d');
  pen.font = style.font;
  const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [...s.options].map(o => [s.id, o.text, pen.measureText(o.text).width, room])
    .filter(([, , width, room]) => width > room); }"""


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_no_menu_cuts_its_words(site: Site, name: str) -> None:
    screen(site, name, "light")
    for page in ["", "nd.html"]:
        fresh(site, page)
        for selector in LEVEL_SELECTS:
            select = site.page.locator(selector)
            if not select.count():
                continue
            # The select draws its own arrow inside its right padding: its text's room is its content box.
            assert select.evaluate("s => getComputedStyle(s).appearance") == "none"
            assert select.evaluate(CLIPPED) == []
        labels = site.page.locator(".panel label, .panel .field-note").evaluate_all(
            "ls => ls.filter(l => l.scrollWidth > l.clientWidth).map(l => l.textContent)"
        )
        assert labels == []
    site.page.locator("#player-b").select_option("5")
    site.wait_idle()
    site.shot(f"34-levels-{name}")


def frame_gaps(site: Site) -> dict[str, float]:
    """How far the rank labels end left of the board's frame, and the file labels start below it."""
    return dict(
        site.js(
            """(() => {
      const board = document.querySelector('#board').getBoundingClientRect();
      const boxes = sel => [...document.querySelectorAll(sel)].map(s => {
        const r = document.createRange(); r.selectNodeContents(s); return r.getBoundingClientRect(); });
      const ranks = boxes('#board .coords-ranks span'), files = boxes('#board .coords-files span');
      const page = document.scrollingElement.scrollHeight - scrollY;  // the labels may be scrolled to
      return {ranks: Math.min(...ranks.map(b => board.left - b.right)),
              files: Math.min(...files.map(b => b.top - board.bottom)),
              inside: Math.min(...ranks.map(b => b.left), ...files.map(b => page - b.bottom))};
    })()"""
        )
    )


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_coordinates_stand_clear_of_the_frame(site: Site, name: str) -> None:
    screen(site, name, "light")
    for size in ["13", "9"]:
        nd(site, size=size)
        gaps = frame_gaps(site)
        assert gaps["ranks"] >= 3 and gaps["files"] >= 3, (size, gaps)
        assert gaps["inside"] >= 0, (size, gaps)
    fresh(site)
    gaps = frame_gaps(site)
    assert gaps["ranks"] >= 3 and gaps["files"] >= 3, gaps


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_score_keeps_its_unit(site: Site, name: str) -> None:
    screen(site, name, "light")
    for page, unit in [("", "groups?"), ("nd.html", "stones?")]:
        if page:
            nd(site, size="9")
        else:
            fresh(site)
        site.play(site.legal()[0])
        for colour in "rb":
            chip = site.page.locator(f".chip-{colour}")
            unit_el = site.page.locator(f"#count-{colour}-unit")
            assert unit_el.is_visible() and re.fullmatch(unit, unit_el.inner_text()), (page, colour)
            assert re.fullmatch(rf"(Red|Blue)\s+\d+\s+{unit}", chip.inner_text().strip()), chip.inner_text()
            in_view(site, f"#count-{colour}-unit", *VIEWPORTS[name])
            # The chip is not cut by the score line, nor the unit by the chip.
            assert chip.evaluate("c => c.scrollWidth <= c.clientWidth + 0.5")
        line = site.page.locator("#scoreline")
        assert line.evaluate("l => l.scrollWidth <= l.clientWidth + 0.5")


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_record_dialog_fits_the_screen(site: Site, name: str) -> None:
    width, height = screen(site, name, "light")
    for page in ["", "nd.html"]:
        fresh(site, page)
        site.page.locator("#btn-record").click()
        for selector in ["#dlg-record", "#record-text", "#record-load", "#btn-copy", "#btn-load",
                         "#btn-record-close"]:  # fmt: skip
            in_view(site, selector, width, height)
        site.shot(f"34-record-{name}")
        site.page.locator("#btn-record-close").click()
        assert not site.page.locator("#dlg-record").is_visible()


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_every_point_is_large_enough_to_tap(site: Site, name: str) -> None:
    screen(site, name, "light")
    for size in ["13", "12", "9"]:
        nd(site, size=size)
        boxes = site.page.locator("#board .spot").evaluate_all(
            "ss => ss.map(s => { const b = s.getBoundingClientRect(); return [b.width, b.height]; })"
        )
        assert len(boxes) == int(size) ** 2
        smallest = min(min(w, h) for w, h in boxes)
        assert smallest >= TARGET, f"{size}x{size} on {name}: {smallest:.1f} px"
        # Each point takes its taps: the centre of a corner point's target is that point.
        hit = site.page.locator('#board .spot[data-cell="a1"]').bounding_box()
        middle = f"{hit['x'] + hit['width'] / 2}, {hit['y'] + hit['height'] / 2}"
        assert site.js(f"document.elementFromPoint({middle}).dataset.cell") == "a1"
    site.shot(f"34-13x13-{name}")


# ----- 7. contrast and the rules diagrams' coordinates ---------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_coordinates_are_readable(site: Site, scheme: str) -> None:
    screen(site, "laptop-1366x768", scheme)
    fresh(site)
    assert assert_readable(site, "#board .coords span") == 10
    nd(site, size="13")
    assert assert_readable(site, "#board .coords span") == 26
    site.page.goto(site.base + "nd-rules.html")
    assert assert_readable(site, ".nd-diagram .coords span") >= 10
    site.page.goto(site.base + "rules.html")
    assert assert_readable(site, ".mini-board .coords span") >= 10


def test_unitiles_rules_diagrams_have_coordinates(site: Site) -> None:
    site.page.goto(site.base + "rules.html")
    diagrams = site.page.locator(".figure figure")
    assert diagrams.count() >= 2
    for i in range(diagrams.count()):
        figure = diagrams.nth(i)
        assert figure.locator(".coords-files span").all_inner_texts() == list("abcde")
        assert figure.locator(".coords-ranks span").all_inner_texts() == list("54321")
        # c4 is named in the text: the label c is over the third column, 4 beside the second row.
        grid = figure.locator(".mini span")
        c4 = grid.nth(1 * 5 + 2).bounding_box()
        file_c = figure.locator(".coords-files span").nth(2).bounding_box()
        rank_4 = figure.locator(".coords-ranks span").nth(1).bounding_box()
        assert abs((file_c["x"] + file_c["width"] / 2) - (c4["x"] + c4["width"] / 2)) < 2
        assert abs((rank_4["y"] + rank_4["height"] / 2) - (c4["y"] + c4["height"] / 2)) < 2
    site.shot("34-rules-coordinates")


# ----- 8. "?" for the keys ------------------------------------------------------------------------


def keys_help(site: Site) -> Any:
    return site.page.locator("#dlg-keys")


@pytest.mark.parametrize("page", ["", "nd.html"])
def test_question_mark_opens_the_keyboard_help(site: Site, page: str) -> None:
    width, height = screen(site, "phone-390x844", "light")
    if page:
        nd(site)
    else:
        fresh(site)
    help_ = keys_help(site)
    assert not help_.is_visible()
    site.page.locator("#pace").focus()  # whatever has focus
    site.page.keyboard.press("?")
    wait_until(help_.is_visible, "the keyboard help")
    in_view(site, "#dlg-keys", width, height)
    # A modal dialog with a name: screen readers say it opens, and the focus is in it.
    assert help_.evaluate("d => d.matches(':modal')")
    assert site.js("document.activeElement.closest('#dlg-keys') !== null")
    labelled = help_.get_attribute("aria-labelledby")
    assert labelled and site.page.locator(f"#{labelled}").inner_text() == "Keyboard"
    text = help_.inner_text()
    assert re.search(r"\?\s*(.|\n)*keyboard help", text), text  # "?" is in its own list
    assert "undo, hint, new game, record" in text
    site.shot(f"34-keys-{page or 'unitile'}")
    site.page.keyboard.press("Escape")
    wait_until(help_.is_hidden, "the help to close")
    # The key is listed on the page too, and its button opens the same help.
    site.page.locator("#btn-keys").click()
    wait_until(help_.is_visible, "the keyboard help from its button")
    site.page.locator("#dlg-keys-close").click()
    wait_until(help_.is_hidden, "the help to close")
    assert site.js("document.activeElement.id") == "btn-keys"
    site.play(site.legal()[0])  # and the keys are the game's again
