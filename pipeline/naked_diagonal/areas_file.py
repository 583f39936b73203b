"""``tables/naked-diagonal/areas.json``: the atlas and the survey of NDE areas as one published file.

:func:`publish` joins the results of ``nd-atlas`` and ``nd-survey`` (docs/naked-diagonal-areas.md),
checks every surveyed configuration small enough for the exhaustive kernels against them (each must be
a valid NDE configuration; its BAD verdict, culprit and irreducibility come from
:func:`.atlas.classify`), and writes the file sorted, without timings, so that the same inputs give the
same bytes. The site page ``site/web/nd-areas.html`` draws it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from unitile_py.errors import NakedDiagonalError

from .atlas import MAX_K, classify

#: Surveyed configurations listed in the file, the most frequent first (all are counted in ``survey.per_k``).
SURVEY_LISTED = 3000
#: The file's format number.
FORMAT = 1
#: Minimal configurations are listed up to this many points (larger k: counts only; k = 6 alone has
#: 19,190). Configurations whose culprits are not BAD are listed for every k.
LISTED_K = 5

LEGEND = {
    "o": "a point of the area (empty)",
    "R": "a red stone",
    "B": "a blue stone",
    ".": "no stone (an empty point of another region, or a point that holds nothing)",
    "#": "beyond the board edge",
}


def publish(atlas: dict[str, Any], survey: dict[str, Any], out: str) -> dict[str, Any]:
    """Write the file; return a summary (the counts the docs quote)."""
    k_max = int(atlas["k_max"])
    surveyed = []
    mismatches = []
    for e in survey["areas"]:
        entry = {"drawing": e["drawing"], "k": e["k"], "banned": e["banned"], "count": e["count"],
                 "boards": dict(sorted(e["boards"].items(), key=lambda kv: int(kv[0].split("x")[0]))),
                 "players": dict(sorted(e["players"].items()))}
        if e["k"] <= min(k_max, MAX_K):
            verdict = classify(e["drawing"])
            if not verdict["valid"] or not verdict["nde"] or verdict["banned"] != e["banned"]:
                mismatches.append(e["drawing"])
            entry["irreducible"] = verdict.get("irreducible")
            entry["culprit_bad"] = verdict.get("culprit_bad")
        surveyed.append(entry)
    if mismatches:
        raise NakedDiagonalError(f"{len(mismatches)} surveyed configurations disagree with the "
                                 f"exhaustive kernels, first {mismatches[0]}")
    surveyed_per_k: dict[int, dict[str, int]] = {}
    for entry in surveyed:
        row = surveyed_per_k.setdefault(entry["k"], {"configurations": 0, "parts": 0})
        row["configurations"] += 1
        row["parts"] += entry["count"]
    # The configurations survey["areas"] lists are sorted by count; the rare ones are counted only.
    listed = [e for i, e in enumerate(surveyed) if i < SURVEY_LISTED or e.get("culprit_bad") is False]
    per_board = {b: {k: v for k, v in row.items() if k not in ("cpu_seconds", "max_rss_mib", "tasks")}
                 for b, row in sorted(survey["per_board"].items(), key=lambda kv: int(kv[0].split("x")[0]))}
    positions = sum(row.get("positions", 0) for row in per_board.values())
    exhaustive_entries = [
        {k: e[k] for k in ("drawing", "k", "stones", "banned", "minimal", "irreducible", "culprit_bad",
                           "patterns")}
        for e in atlas["entries"]
        if (e["minimal"] and e["k"] <= LISTED_K) or not e["culprit_bad"]
    ]
    per_k = {k: {name: v for name, v in row.items() if name not in ("cpu_seconds", "max_rss_mib")}
             for k, row in atlas["per_k"].items()}
    data = {
        "game": "naked-diagonal",
        "format": FORMAT,
        "credit": "Naked Diagonal is a game by Mark Steere; the rules' reading: docs/naked-diagonal.md",
        "legend": LEGEND,
        "listed": f"exhaustive entries: the minimal configurations of up to {LISTED_K} points and every "
                  "configuration whose culprit is not BAD",
        "exhaustive": {"k_max": k_max, "per_k": per_k, "entries": exhaustive_entries},
        "survey": {
            "command": survey.get("command", ""),
            "positions": positions,
            "per_board": per_board,
            "large": survey["large"],
            "configurations": len(surveyed),
            "per_k": {str(k): surveyed_per_k[k] for k in sorted(surveyed_per_k)},
            "listed": f"the {SURVEY_LISTED:,} most frequent configurations and every one whose culprit is "
                      "not BAD",
            "areas": listed,
        },
    }
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(json.dumps(data, indent=None, separators=(",", ":"), sort_keys=False) + "\n")
    checked = sum(1 for e in surveyed if "irreducible" in e)
    return {
        "out": out,
        "bytes": Path(out).stat().st_size,
        "exhaustive_entries": len(exhaustive_entries),
        "survey_positions": positions,
        "survey_configurations": len(surveyed),
        "survey_listed": len(listed),
        "survey_checked_against_the_atlas": checked,
        "survey_not_bad": sum(1 for e in surveyed if not e["banned"]),
        "survey_culprit_not_bad": sum(1 for e in surveyed if e.get("culprit_bad") is False),
    }
