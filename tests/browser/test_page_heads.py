"""Each page of site/web starts with its head as data (``<!-- page KEY: VALUE -->`` lines), which
site/build.py writes out as the page's head: every page has one, and a wrong one stops the build in
one line."""

from __future__ import annotations

import pytest

from .conftest import ROOT, build_module

HEAD = (
    "<!-- page game: nd -->\n<!-- page title: Rules · Naked Diagonal -->\n"
    "<!-- page description: Mark Steere's \"game\" <b> -->\n<!-- page script: js/page.js -->\n"
    "<!-- page script: js/nd-rules.js -->\n<!-- page body: page-x -->\n<!-- frame:header -->\n"
)


def test_every_page_has_its_head_as_data() -> None:
    for page in sorted((ROOT / "site" / "web").glob("*.html")):
        text = build_module.page_head(page.name, page.read_text())
        assert text.startswith('<!doctype html>\n<html lang="en"'), page.name
        assert "<title>" in text and '<meta name="description"' in text, page.name


def test_the_head_written_out() -> None:
    assert build_module.page_head("x.html", HEAD) == (
        '<!doctype html>\n<html lang="en" data-game="nd">\n<head>\n<!-- frame:head -->\n'
        '  <meta name="description" content="Mark Steere\'s &quot;game&quot; &lt;b&gt;">\n'
        "  <title>Rules · Naked Diagonal</title>\n"
        '  <script type="module" src="js/page.js"></script>\n'
        '  <script type="module" src="js/nd-rules.js"></script>\n'
        '</head>\n<body class="page-x">\n<!-- frame:header -->\n'
    )
    assert build_module.page_head("x.html", "<!doctype html>\n") == "<!doctype html>\n"


@pytest.mark.parametrize(("text", "error"), [
    (HEAD.replace("<!-- page body", "<!-- page title: again -->\n<!-- page body"), "unknown or repeated key"),
    (HEAD.replace("page game: nd", "page colour: red"), "unknown or repeated key"),
    (HEAD.replace("<!-- page description: Mark Steere's \"game\" <b> -->\n", ""), "name no description"),
    (HEAD.replace("<!-- page script: js/page.js -->\n<!-- page script: js/nd-rules.js -->\n", ""),
     "name no script"),
])
def test_a_wrong_head_is_one_line(text: str, error: str) -> None:
    with pytest.raises(build_module.BuildError, match=error):
        build_module.page_head("x.html", text)
