"""``python -m pipeline report`` on stage records edited by hand or damaged: dashes, never a traceback."""

from __future__ import annotations

from pipeline.report import format_stages


def test_report_shows_a_dash_for_every_field_that_is_not_a_number() -> None:
    stages = {
        "classes": {"seconds": "slow", "usage": {"cpu_seconds": [1], "load_average": ["a", 2.0]},
                    "bound": {"seconds": None, "ratio": True, "by": 3}},
        "graph": {"seconds": 2.0, "usage": "x", "bound": []},
        "solve": {"seconds": 1.0, "phase_seconds": {"cg": "long", "starting_parts": 0.5},
                  "seconds_per_iteration": "fast"},
        "positions": "not a record",
    }
    lines = format_stages(stages)
    assert lines[1].split()[:2] == ["classes", "-"] and lines[1].rstrip().endswith("-")
    assert lines[2].split()[:2] == ["graph", "2.0"]
    assert lines[4].split()[:2] == ["positions", "-"]
    assert lines[5].split()[:2] == ["total", "3.0"]
    assert lines[6] == "solve: cg -, starting parts 0.5 s"
