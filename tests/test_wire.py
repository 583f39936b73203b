"""The wire is typed once on each side: unitile_py/wire.py's TypedDicts and site/web/js/wire.js's JSDoc
typedefs name the same fields, so a field added on one side and not the other fails here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_type_hints

import pytest

from unitile_py import wire

ROOT = Path(__file__).resolve().parents[1]
#: ``@typedef {{a: ..., b?: ...}} Name``: an object type written inline.
INLINE = re.compile(r"@typedef \{\{(.*?)\}\} (\w+)")


def js_fields() -> dict[str, set[str]]:
    """Each inline object typedef of wire.js: its field names (``?`` dropped)."""
    text = (ROOT / "site" / "web" / "js" / "wire.js").read_text()
    out = {}
    for body, name in INLINE.findall(text):
        depth, field, fields = 0, "", set()
        for ch in body + ",":
            if ch in "{[(<":
                depth += 1
            elif ch in "}])>":
                depth -= 1
            if ch == "," and depth == 0:
                fields.add(field.split(":")[0].strip().rstrip("?"))
                field = ""
            else:
                field += ch
        out[name] = fields
    return out


@pytest.mark.parametrize("name", ["Request", "Answered", "Refused", "GameEntry", "PlainGame", "Played"])
def test_both_sides_name_the_same_fields(name: str) -> None:
    assert js_fields()[name] == set(get_type_hints(getattr(wire, name))), name


def test_the_reader_sees_the_fields() -> None:
    assert js_fields()["Ready"] == {"type", "games", "timings", "version"}
