"""The survey of NDE areas in games (pipeline/naked_diagonal/survey.py): deterministic, in agreement with
the atlas, resumable from its kept parts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.executor import InProcessExecutor
from pipeline.naked_diagonal import atlas, survey
from tests.pipeline.naked_diagonal.solving import DyingExecutor, Interrupt
from unitile_py.errors import NakedDiagonalError


def test_a_small_survey_is_deterministic_and_agrees_with_the_atlas() -> None:
    task = survey.SurveyTask(5, "random", 3, 6)
    first, second = survey.survey_task(task), survey.survey_task(task)
    assert first["counts"] == second["counts"] and first["stats"] == second["stats"]
    assert first["stats"]["positions"] > 50 and first["stats"]["parts"] > 0
    for text in first["counts"]:
        if text.count("o") <= atlas.MAX_K:
            verdict = atlas.classify(text)
            assert verdict["valid"] and verdict["nde"], text
    merged = survey.merge([first, survey.survey_task(survey.SurveyTask(5, "greedy", 3, 4))])
    assert sum(e["count"] for e in merged["areas"]) + sum(merged["large"].values()) == (
        merged["per_board"]["5x5"]["parts"])


def test_a_stopped_survey_resumes_from_its_kept_parts(tmp_path: Path) -> None:
    tasks = [survey.SurveyTask(5, "random", seed, 3) for seed in (1, 2, 3)]
    whole = survey.run_survey(InProcessExecutor(), tasks, log=lambda msg: None)
    parts = tmp_path / "parts"
    with pytest.raises(Interrupt):
        survey.run_survey(DyingExecutor(2), tasks, log=lambda msg: None, parts=parts)
    assert sorted(p.name for p in parts.iterdir()) == sorted(survey.part_name(t) for t in tasks[:2])
    said: list[str] = []
    resumed = survey.run_survey(DyingExecutor(1), tasks, log=said.append, parts=parts)
    assert "2 of 3 tasks kept" in said[0]
    def counted(result: dict[str, Any]) -> dict[str, Any]:
        return {b: {k: v for k, v in row.items() if k not in ("cpu_seconds", "max_rss_mib")}
                for b, row in result["per_board"].items()}

    assert resumed["areas"] == whole["areas"] and counted(resumed) == counted(whole)
    (parts / survey.part_name(tasks[0])).write_text("{not json")
    with pytest.raises(NakedDiagonalError, match="not a result of this survey task"):
        survey.run_survey(InProcessExecutor(), tasks, log=lambda msg: None, parts=parts)
    assert (parts / survey.part_name(tasks[0])).read_text() == "{not json"
