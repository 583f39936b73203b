"""The Naked Diagonal commands (pipeline/naked_diagonal/cli.py): bad input is one line, ``nd-survey
--kept-only`` merges the finished tasks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.executor import InProcessExecutor
from pipeline.naked_diagonal import cli as nd_cli
from pipeline.naked_diagonal import survey


@pytest.mark.parametrize("argv, words", [
    (["nd-atlas", "--k", "0", "--in-process"], "--k 0"),
    (["nd-survey", "--sizes", "4", "--in-process"], "--sizes 4"),
    (["nd-survey", "--players", "nobody", "--in-process"], "--players nobody"),
    (["nd-areas", "--atlas", "/nonexistent/a.json"], "no such file"),
    # The alpha-beta table's one-word keys hold 5x5 at most: a larger board would share entries.
    (["nd-prove", "--board", "6x6", "--search", "alphabeta", "--in-process"], "use --search dfpn"),
])
def test_commands_refuse_bad_input_in_one_line(argv: list[str], words: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert nd_cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err


def test_nd_survey_kept_only_merges_the_finished_tasks(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    parts, out = tmp_path / "parts", tmp_path / "survey.json"
    argv = ["nd-survey", "--sizes", "5", "--players", "random", "--games", "3", "--tasks", "2",
            "--parts", str(parts), "--out", str(out), "--quiet"]
    assert nd_cli.main([*argv, "--kept-only"]) == 2 and "no kept results" in capsys.readouterr().err
    task = survey.SurveyTask(5, "random", 1, 3)
    survey.run_survey(InProcessExecutor(), [task], log=lambda msg: None, parts=parts)
    assert nd_cli.main([*argv, "--kept-only"]) == 0
    result = json.loads(out.read_text())
    assert result["planned_tasks"] == 2 and len(result["tasks"]) == 1
    assert result["per_board"]["5x5"]["games"] == 3


@pytest.mark.parametrize("argv, words", [
    (["nd-prove", "--split", "-1"], "--split"),
    (["nd-prove", "--split", "0"], "at least 1"),
    (["nd-prove", "--board", "0x0"], "1x1 to 7x7"),
    (["nd-prove", "--board", "27x27"], "1x1 to 7x7"),
    (["nd-prove", "--board", "\u0663x\u0663"], "expected NxN"),  # Arabic-Indic digits
    (["nd-prove", "--budget", "-5"], "--budget"),
    (["nd-build", "--part-size", "-5"], "--part-size"),
    (["nd-build", "--max-tier", "-1"], "--max-tier"),
    (["nd-build", "--board", "6x6"], "1x1 to 5x5"),
])
def test_arguments_are_checked_before_any_work(argv: list[str], words: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Every bad argument stops the command in one line, exit status 2, before anything runs."""
    argv = [*argv, "--in-process", "--quiet", "--store", str(tmp_path / "store.zarr")]
    with pytest.raises(SystemExit) as stop:
        nd_cli.main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err and "Traceback" not in err
    assert not (tmp_path / "store.zarr").exists()


_ATLAS = {"k_max": 1, "per_k": {}, "entries": []}
_SURVEY = {"areas": [], "per_board": {}, "large": {}}


@pytest.mark.parametrize("atlas, survey, words", [
    (b"{not json", _SURVEY, "not nd-atlas's JSON results"),
    (b"\xff\xfe\x00", _SURVEY, "not nd-atlas's JSON results"),
    (b"[" * 100_000, _SURVEY, "not nd-atlas's JSON results"),
    ([1, 2], _SURVEY, "not nd-atlas's results"),
    ({"k_max": 1}, _SURVEY, "expected an object with k_max, per_k, entries"),
    (_ATLAS, {"areas": 3, "per_board": {}, "large": {}}, "not nd-atlas and nd-survey results"),
    (_ATLAS, {"areas": [{"drawing": "oo"}], "per_board": {}, "large": {}}, "missing 'k'"),
    ({"k_max": "x", "per_k": {}, "entries": []}, _SURVEY, "ValueError"),
    (_ATLAS, {"areas": [], "per_board": {"big": {}}, "large": {}}, "not nd-atlas and nd-survey results"),
    ({"k_max": 1, "per_k": {}, "entries": [{"minimal": True}]}, _SURVEY, "missing 'k'"),
])
def test_nd_areas_refuses_bad_input_files_in_one_line(atlas: object, survey: object, words: str,
                                                      tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Malformed JSON, bytes that are not UTF-8, nesting too deep, wrong shapes: one line, exit 2, and
    no file written."""
    paths = []
    for name, data in (("atlas.json", atlas), ("survey.json", survey)):
        path = tmp_path / name
        path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
        paths.append(str(path))
    out = tmp_path / "areas.json"
    assert nd_cli.main(["nd-areas", "--atlas", paths[0], "--survey", paths[1], "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and words in err, err
    assert not out.exists()


def test_nd_prove_checks_its_out_path_before_searching(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """An --out that cannot be written is refused before the search starts (nothing is proved)."""
    for out, words in ((Path("/proc/i35-results.json"), "cannot write there"),
                       (tmp_path / "no" / "r.json", "no such directory"), (tmp_path, "is a directory")):
        argv = ["nd-prove", "--board", "3x3", "--in-process", "--no-store", "--out", str(out)]
        assert nd_cli.main(argv) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1 and words in captured.err, captured.err
    assert list(tmp_path.iterdir()) == []


def test_nd_areas_refuses_to_overwrite_its_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    atlas, survey_file = tmp_path / "atlas.json", tmp_path / "survey.json"
    atlas.write_text(json.dumps(_ATLAS))
    survey_file.write_text(json.dumps(_SURVEY))
    for out in (atlas, survey_file):
        argv = ["nd-areas", "--atlas", str(atlas), "--survey", str(survey_file), "--out", str(out)]
        assert nd_cli.main(argv) == 2 and "write elsewhere" in capsys.readouterr().err
    assert json.loads(atlas.read_text()) == _ATLAS and json.loads(survey_file.read_text()) == _SURVEY
