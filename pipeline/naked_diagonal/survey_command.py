"""``python -m pipeline nd-survey``: the NDE areas that placements leave in games of the computer players,
board size by board size (:func:`pipeline.naked_diagonal.survey.run_survey`); each finished task kept, so
that a stopped survey resumes, or merges what finished (``--kept-only``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pipeline.executor import InProcessExecutor, engine
from unitile_py.errors import NakedDiagonalError

from .command_io import progress_log, write_json


def run(args: argparse.Namespace) -> int:
    """Check the options, plan the tasks, run them (or merge the kept ones), write ``--out`` and print a
    summary."""
    from .survey import PLAYERS, SurveyTask, part_name, run_survey

    for n in args.sizes:
        if not 5 <= n <= 13:
            raise NakedDiagonalError(f"--sizes {n}: the survey takes boards 5x5 to 13x13")
    for player in args.players:
        if player not in PLAYERS:
            raise NakedDiagonalError(f"--players {player}: expected {' or '.join(PLAYERS)}")
    _positive("games", args.games)
    _positive("tasks", args.tasks)
    # Round by round (every size and player with one seed, then the next seed), so that a survey
    # stopped early has every board size.
    tasks = [SurveyTask(n, player, args.seed + i, max(1, round(args.games * (5 / n) ** 4)))
             for i in range(args.tasks) for n in args.sizes for player in args.players]
    out = Path(args.out)
    parts = Path(args.parts) if args.parts else out.with_name(out.stem + "-parts")
    if args.kept_only:
        kept = [t for t in tasks if (parts / part_name(t)).is_file()]
        if not kept:
            raise NakedDiagonalError(f"{parts}: no kept results of these tasks")
        result = run_survey(InProcessExecutor(), kept, log=progress_log(args), parts=parts)
        result["planned_tasks"] = len(tasks)
    else:
        with engine(args) as executor:
            result = run_survey(executor, tasks, log=progress_log(args), parts=parts)
    result["command"] = "python -m pipeline nd-survey " + " ".join(sys.argv[2:])
    write_json(args.out, result)
    print(json.dumps({"per_board": result["per_board"], "configurations": len(result["areas"]),
                      "seconds": result["seconds"]}, indent=1))
    return 0


def _positive(name: str, value: int) -> None:
    if value < 1:
        raise NakedDiagonalError(f"--{name} {value}: must be at least 1")
