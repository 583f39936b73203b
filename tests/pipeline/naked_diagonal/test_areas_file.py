"""The published areas file (pipeline/naked_diagonal/areas_file.py): deterministic and checked against
the exhaustive kernels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.executor import InProcessExecutor
from pipeline.naked_diagonal import atlas, survey
from unitile_py.errors import NakedDiagonalError


def test_the_areas_file_is_deterministic_and_checked(tmp_path: Path) -> None:
    from pipeline.naked_diagonal.areas_file import publish

    result = atlas.run_atlas(InProcessExecutor(), 4, log=lambda msg: None)
    found = survey.merge([survey.survey_task(survey.SurveyTask(5, "random", 5, 4))])
    one, two = tmp_path / "a.json", tmp_path / "b.json"
    summary = publish(result, found, str(one))
    publish(result, found, str(two))
    assert one.read_bytes() == two.read_bytes()
    data = json.loads(one.read_text())
    assert data["format"] == 1 and data["survey"]["positions"] == summary["survey_positions"] > 0
    per_k = data["survey"]["per_k"]
    assert sum(row["parts"] for row in per_k.values()) == sum(e["count"] for e in found["areas"])
    assert sum(row["configurations"] for row in per_k.values()) == data["survey"]["configurations"] == len(
        found["areas"])
    odd = [e["drawing"] for e in data["exhaustive"]["entries"] if not e["culprit_bad"]]
    assert odd == ["BBRR/BooR/RooB/RRBB"]
    small = [e for e in found["areas"] if e["k"] <= atlas.MAX_K]
    assert small, "the survey found no small NDE area to check"
    small[0]["banned"] = "RB" if small[0]["banned"] != "RB" else ""
    with pytest.raises(NakedDiagonalError, match="disagree with the exhaustive kernels"):
        publish(result, found, str(tmp_path / "c.json"))
