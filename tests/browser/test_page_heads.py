"""Each page of site/web starts with its head as data (a comment ``<!-- page KEY=VALUE ... -->``), which
site/build.py writes out as the page's head: every page has one, and a wrong one stops the build in
one line."""

from __future__ import annotations

import pytest

from .conftest import ROOT, build_module

HEAD = (
    '<!-- page game=nd body=page-x scripts="js/page.js js/nd-rules.js" title="Rules · Naked Diagonal"\n'
    "  description=\"Mark Steere's game <b>\" -->\n<!-- frame:header -->\n"
)


def test_every_page_has_its_head_as_data() -> None:
    for page in sorted((ROOT / "site" / "web").glob("*.html")):
        text = build_module.page_head(page.name, page.read_text())
        assert text.startswith('<!doctype html>\n<html lang="en"'), page.name
        assert "<title>" in text and '<meta name="description"' in text, page.name


def test_the_head_written_out() -> None:
    assert build_module.page_head("x.html", HEAD) == (
        '<!doctype html>\n<html lang="en" data-game="nd">\n<head>\n<!-- frame:head -->\n'
        '  <meta name="description" content="Mark Steere\'s game &lt;b&gt;">\n'
        "  <title>Rules · Naked Diagonal</title>\n"
        '  <script type="module" src="js/page.js"></script>\n'
        '  <script type="module" src="js/nd-rules.js"></script>\n'
        '</head>\n<body class="page-x">\n<!-- frame:header -->\n'
    )
    assert build_module.page_head("x.html", "<!doctype html>\n") == "<!doctype html>\n"


@pytest.mark.parametrize(("text", "error"), [
    (HEAD.replace("game=nd", "game=nd title=again"), "once each, at 'title=\"Rules"),
    (HEAD.replace("game=nd", "colour=red"), "once each, at 'colour=red"),
    (HEAD.replace("game=nd", 'game="nd'), "once each"),
    (HEAD.replace("description=", "summary="), "once each, at 'summary="),
    (HEAD.replace("\n  description=\"Mark Steere's game <b>\"", ""), "has no description"),
    (HEAD.replace(' scripts="js/page.js js/nd-rules.js"', ""), "has no scripts"),
])
def test_a_wrong_head_is_one_line(text: str, error: str) -> None:
    with pytest.raises(build_module.BuildError, match=error):
        build_module.page_head("x.html", text)
