"""``python -m pipeline nd-atlas``: every NDE configuration of up to K empty points
(:func:`pipeline.naked_diagonal.atlas.run_atlas`), the results written as JSON and summed up on standard
output (docs/naked-diagonal-areas.md)."""

from __future__ import annotations

import argparse
import json

from pipeline.executor import engine
from unitile_py.errors import NakedDiagonalError

from .command_io import progress_log, write_json


def run(args: argparse.Namespace) -> int:
    """Check ``--k``, run the atlas, write ``--out`` and print the counts per size of area."""
    from .atlas import MAX_K, run_atlas

    if not 1 <= args.k <= MAX_K:
        raise NakedDiagonalError(f"--k {args.k}: expected 1 to {MAX_K}")
    with engine(args) as executor:
        result = run_atlas(executor, args.k, log=progress_log(args))
    write_json(args.out, result)
    summary = {"k_max": result["k_max"], "per_k": result["per_k"], "seconds": result["seconds"]}
    print(json.dumps(summary, indent=1))
    return 0
