"""The map of NDE areas, measured: time and memory per k (the atlas) and per board size (the survey).

    .venv/bin/python bench/nd_atlas.py atlas --k 5 --workers 2        # nd-atlas, wall time and peak memory
    .venv/bin/python bench/nd_atlas.py survey --games 3000 --tasks 2   # nd-survey, the same
    .venv/bin/python bench/nd_atlas.py report build/nd-atlas.json build/nd-survey.json

``atlas`` and ``survey`` run ``python -m pipeline nd-atlas`` / ``nd-survey`` (their options after the
name are passed on) and print the wall time, the CPU time of the process tree, the peak resident memory
of the client and of the largest dask worker (sampled every 0.2 s from /proc) and the load average.
``report`` prints, from the commands' results, the CPU seconds and the largest task's peak memory per
k and per board size, the positions per CPU second, and what ten million positions would cost.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from nd_solve import run_sampled  # noqa: E402

PY = sys.executable


def run(command: list[str]) -> int:
    """Run a pipeline command with the memory sampler; print the measurements."""
    cmd = [PY, "-m", "pipeline.naked_diagonal", *command, "--quiet"]
    load0 = os.getloadavg()
    t0 = time.perf_counter()
    status, _, peak = run_sampled(cmd)
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({
        "command": " ".join(cmd[2:]),
        "status": status,
        "wall_seconds": round(time.perf_counter() - t0, 1),
        "cpu_seconds_process_tree": round(cpu.ru_utime + cpu.ru_stime, 1),
        "peak_rss_mib": {k: round(v, 1) for k, v in peak.items()},
        "load_average_before": load0,
        "load_average_after": os.getloadavg(),
    }, indent=1))
    return status


def report(atlas_path: str, survey_path: str) -> int:
    """Per k and per board size, from the commands' results."""
    atlas = json.loads(Path(atlas_path).read_text())
    for k, row in atlas["per_k"].items():
        print(json.dumps({"k": int(k), "shapes": row["shapes"], "patterns": row["patterns"],
                          "cpu_seconds": row["cpu_seconds"], "max_task_rss_mib": row["max_rss_mib"]}))
    survey = json.loads(Path(survey_path).read_text())
    total_cpu = total_positions = 0.0
    for board, row in survey["per_board"].items():
        total_cpu += row["cpu_seconds"]
        total_positions += row.get("positions", 0)
        print(json.dumps({"board": board, "games": row.get("games", 0), "positions": row.get("positions", 0),
                          "cpu_seconds": row["cpu_seconds"], "max_task_rss_mib": row["max_rss_mib"],
                          "positions_per_cpu_second":
                              round(row.get("positions", 0) / max(row["cpu_seconds"], 1e-9))}))
    rate = total_positions / max(total_cpu, 1e-9)
    print(json.dumps({"positions": int(total_positions), "cpu_seconds": round(total_cpu, 1),
                      "positions_per_cpu_second": round(rate),
                      "cpu_hours_for_10_million_at_this_mix": round(1e7 / rate / 3600, 2)}))
    return 0


def main() -> int:
    """Entry point."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    for name in ("atlas", "survey"):
        sub.add_parser(name, help=f"run nd-{name} (its options follow)")
    r = sub.add_parser("report")
    r.add_argument("atlas")
    r.add_argument("survey")
    args, rest = p.parse_known_args()
    if args.command == "report":
        if rest:
            p.error(f"unrecognized arguments: {' '.join(rest)}")
        return report(args.atlas, args.survey)
    return run([f"nd-{args.command}", *rest])


if __name__ == "__main__":
    sys.exit(main())
