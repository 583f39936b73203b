"""Issue 34, the defects seen in the browser, items 1 to 3 and 5, through the page, in both games: the
line under the board says what is current (a note of looking back goes once the player is back in the
game, a refusal once the player does something valid), a damaged link's explanation stays readable
through the computer's reply until the player acts, and the page's words are those of the rules page
and of what really happened. (Item 4, the records and positions the pages show: test_examples.py.)"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import ROOT, Site, wait_until

needs_tables = pytest.mark.skipif(
    not (ROOT / "tables" / "5x5" / "manifest.json").exists(), reason="tables/5x5 is not in the repository"
)
#: Each game's page, the key of its settings and the settings every test starts from (two humans).
PAGES = {
    "unitile": ("", "unitile.settings.v1", {"analysis": False}),
    "nd": ("nd.html", "nd.settings.v1", {"size": "5"}),
}
#: Red to move; c2 (a blue tile) slides up and unites Blue: Red's own slide makes Blue win.
BLUE_UNITED_BY_RED = "BBRBB/BBBBB/BR.RB/RRBRR/RRRRR r"


def open_game(site: Site, game: str, address: str = "", **values: Any) -> None:
    """Open ``game``'s page with no game kept, two humans (unless ``values`` say otherwise), no pace,
    Marking on, Confirm moves off, then ``address`` (a query and or a fragment)."""
    path, key, extra = PAGES[game]
    full = {"r": "human", "b": "human", "pace": "0", "marking": True, "confirm": False, **extra, **values}
    site.page.goto(site.base + "about.html")
    site.js("localStorage.clear()")
    site.js(f"localStorage.setItem({json.dumps(key)}, {json.dumps(json.dumps(full))})")
    site.open(path + address)


def kind(site: Site) -> str | None:
    return site.page.locator("#message").get_attribute("data-kind")


def buttons_top(site: Site) -> float:
    """Where the buttons under the board start, on the page (not on the screen: a click may scroll)."""
    return float(site.js("document.getElementById('btn-new').getBoundingClientRect().top + scrollY"))


def wait_message(site: Site, check: Any, what: str) -> str:
    return str(wait_until(lambda: (m := site.message()) and check(m) and m, what))


# ----- 1. looking back, then back to the game --------------------------------------------------------

#: Every way back to the game from a look at an earlier ply: a button, a key, the move list.
WAYS_BACK = {
    "Back to the game": lambda site: site.page.locator("#btn-live").click(),
    "»": lambda site: site.page.locator("#btn-last").click(),
    "›": lambda site: site.page.locator("#btn-next").click(),
    "End": lambda site: site.page.keyboard.press("End"),
    "Escape": lambda site: site.page.keyboard.press("Escape"),
    "the last move in the list": lambda site: site.page.locator("#moves button.mv").last.click(),
    "→": lambda site: site.page.keyboard.press("ArrowRight"),  # Unitile's arrows step while looking back
}


@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_the_looking_back_note_goes_whichever_way_the_player_returns(site: Site, game: str) -> None:
    open_game(site, game)
    for _ in range(3):
        site.play(site.legal()[0])
    top = buttons_top(site)
    assert site.message() == ""
    ways = {k: v for k, v in WAYS_BACK.items() if game == "unitile" or k != "→"}
    for way, back in ways.items():
        site.page.locator("#btn-prev").click()  # ‹
        site.wait_ply(2)
        assert site.message().startswith("Looking back at ply 2 of 3."), way
        site.click("a1")  # no move while looking back: the page says so
        wait_message(site, lambda m: m.startswith("You are looking back at ply 2: press End"), "the note")
        back(site)
        site.wait_ply(3)
        assert site.state()["plies"] == 3 and site.page.locator("#btn-live").is_hidden(), way
        assert site.message() == "", f"{way}: {site.message()!r} stayed"
        assert buttons_top(site) == top, f"{way}: the buttons moved"
    site.play(site.legal()[0])  # and the game goes on
    assert site.message() == ""


# ----- 2. a damaged link's explanation ----------------------------------------------------------------

LINKS = {
    "unitile": ("#m=c4.c4", ["c4"], "Slide 2 of the link, c4, is the empty cell, so it was not played."),
    "nd": ("#n=5&m=c3.c3", ["c3"], "Move 2 of the link, c3, is taken already, so it was not played."),
}


@needs_tables
@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_a_damaged_links_explanation_stays_until_the_player_acts(site: Site, game: str) -> None:
    link, moves, words = LINKS[game]
    open_game(site, game, f"?seed=7{link}", b="1")
    wait_until(lambda: site.ply() == 2 and site.idle(), "the computer's reply")
    assert site.state()["moves"][:1] == moves
    assert site.message() == words and kind(site) == "error"  # the reply did not erase it
    site.click(site.legal()[0])  # the player acts: the explanation has been read
    wait_until(lambda: site.ply() == 4 and site.idle(), "the computer's next reply")
    assert site.message() == ""


# ----- 3. an old refusal goes with the next valid action ----------------------------------------------

#: A start, a tap the rules refuse for Red there, and a tap refused whoever is to move (with its words).
NOT_NEXT = ("a1", "a1 is not next to the empty cell.")
REFUSALS = {
    "unitile": ("#m=c4.d4", NOT_NEXT, NOT_NEXT),
    "nd": ("#n=5&m=c3.a1", ("d4", "Red on d4 would form a naked diagonal"), ("c3", "c3 already holds")),
}


@needs_tables
@pytest.mark.parametrize("game", ["unitile", "nd"])
def test_a_valid_action_clears_an_old_refusal(site: Site, game: str) -> None:
    link, first, any_turn = REFUSALS[game]
    open_game(site, game, link, confirm=True)

    def refuse(name: str, words: str) -> None:
        site.click(name)
        wait_message(site, lambda m: m.startswith(words), f"the refusal of {name}")
        assert kind(site) == "refused"

    refuse(*first)
    legal = site.legal()[0]
    site.click(legal)  # chosen (Confirm moves): a valid action
    wait_until(lambda: site.page.locator("#btn-confirm").is_enabled(), "the choice")
    assert site.message() == "", site.message()

    refuse(*first)
    site.page.locator("#btn-hint").click()
    site.wait_idle()
    assert not site.message().startswith(first[1]) and kind(site) != "refused", site.message()

    refuse(*first)
    site.click(legal)
    site.click(legal)  # the second tap plays it
    site.wait_ply(3)
    assert site.message() == ""

    refuse(*any_turn)
    site.page.locator("#btn-undo").click()
    site.wait_ply(2)
    assert site.message() == ""


# ----- 5. words -----------------------------------------------------------------------------------------

#: Every board size the page does not offer gets the same message, whatever the engine allows.
OFFERED = "is not offered here (the boards are 3x3 to 13x13)"
NOT_A_CELL = "expected a file letter and a rank number, such as c4"


@needs_tables
def test_a_refused_slide_speaks_of_the_values_as_the_rules_page_does(site: Site) -> None:
    open_game(site, "unitile")
    site.play("c4")
    site.click("c3")  # straight back to the start: the sum of the values would not go down
    wait_message(site, lambda m: m == "c3 would not lower the sum of the two values.", "the refusal")
    site.page.goto(site.base + "rules.html")
    assert "the sum of the two values" in " ".join(site.page.locator("main").inner_text().split())


@pytest.mark.parametrize(
    ("game", "record", "error"),
    [
        ("unitile", "1. c4 c4 *", "Ply 2, c4: the empty cell, not a tile."),
        ("unitile", "1. c3 *", "Ply 1, c3: the empty cell, not a tile."),
        ("unitile", "1. c4 a1 *", "Ply 2, a1: not next to the bubble."),
        ("unitile", "1. c4 c3 *", "Ply 2, c3: neither unites a colour nor lowers the sum of the two values."),
        ("unitile", "1. garbage *", f"Ply 1: move 'garbage': {NOT_A_CELL}."),
        ("nd", "1. garbage *", f"Ply 1: move 'garbage': {NOT_A_CELL}."),
        ("nd", '[Board "20x20"]\n*', f"A 20x20 board {OFFERED}."),
        ("nd", '[Board "99x99"]\n*', f"A 99x99 board {OFFERED}."),
        ("nd", '[Board "2x2"]\n*', f"A 2x2 board {OFFERED}."),
    ],
)
def test_a_records_error_says_what_is_wrong_in_the_pages_terms(
    site: Site, game: str, record: str, error: str
) -> None:
    open_game(site, game)
    site.load_record(record)
    message = site.page.locator("#load-error")
    wait_until(lambda: message.inner_text(), "the record's error")
    assert message.inner_text() == error
    assert site.state()["plies"] == 0


RED_ERRED = " Mistakes: Red 1, Blue 0."
KEPT = " 1 mistake added to Your puzzles."  # a player's own mistakes become puzzles


@needs_tables
@pytest.mark.parametrize(
    ("players", "banner"),
    [
        # and the review's count: Red had a win, and its slide threw it away
        ({"r": "1", "b": "human"}, f"You win: Red's slide united Blue (1 ply).{RED_ERRED}"),
        ({"r": "human", "b": "1"}, f"You lost: Red's slide united Blue (1 ply).{RED_ERRED}{KEPT}"),
        (
            {"r": "human", "b": "human"},
            f"Blue wins in 1 ply: Red's slide united the blue tiles.{RED_ERRED}{KEPT}",
        ),
    ],
)
def test_a_pasted_finished_game_says_who_really_made_the_last_move(
    site: Site, players: dict[str, str], banner: str
) -> None:
    """Nobody on this page made the last slide of a pasted game: not "your slide", not "the computer's"."""
    open_game(site, "unitile", **players)
    site.load_record(f'[Position "{BLUE_UNITED_BY_RED}"]\n1. c2 0-1')
    wait_until(lambda: site.state()["over"] and site.idle(), "the loaded game")
    assert site.message() == banner
    site.page.keyboard.press("Home")  # looking back and forth does not change who made it
    site.wait_ply(0)
    site.page.keyboard.press("End")
    site.wait_ply(1)
    assert site.message() == banner
