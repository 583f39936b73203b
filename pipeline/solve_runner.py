"""The solve stage's driver: load the class graph, resume from a checkpoint, solve, store r and T.

Checkpoints alternate between two slots (``solve/a_*`` and ``solve/b_*``); the group's attributes name
the valid slot only after its arrays are written, so a kill during a checkpoint leaves the previous
one usable. A checkpoint belongs to one graph (its stage stamp) and is ignored for any other.
"""

from __future__ import annotations

import math
import os
import resource
from typing import Any

import numba
import numpy as np
import zarr

from .executor import progress
from .solver import SolverState, check_bipartite, solve
from .stages import Context
from .store import CLASS_SHARD, Store

UNIT = 2.0**-53


def load_checkpoint(store: Store, graph: str, n: int) -> SolverState | None:
    """The saved solver state for this graph, if any."""
    try:
        group = zarr.open_group(store.path, path="solve", mode="r")
    except (FileNotFoundError, zarr.errors.GroupNotFoundError):
        return None
    meta = group.attrs.get("checkpoint")
    if not meta or meta.get("graph") != graph:
        return None
    slot = meta["slot"]
    x, s, p = (store.read(f"solve/{slot}_{v}") for v in "xsp")
    if x.shape != (n,):
        return None
    return SolverState(
        x, s, p, float(meta["rz"]), int(meta["iteration"]), int(meta["restarts"]), [float(meta["last"])]
    )


def save_checkpoint(store: Store, state: SolverState, graph: str) -> None:
    """Write the state into the slot not in use, then point the attributes at it."""
    group = zarr.open_group(store.path, path="solve", mode="a")
    meta = group.attrs.get("checkpoint") or {}
    slot = "b" if meta.get("slot") == "a" else "a"
    m = state.x.shape[0]
    for v, arr in (("x", state.x), ("s", state.s), ("p", state.p)):
        store.create(f"solve/{slot}_{v}", (m,), (min(m, CLASS_SHARD),), np.float64, compress=False)[...] = arr
    group.attrs["checkpoint"] = {
        "slot": slot,
        "graph": graph,
        "rz": state.rz,
        "iteration": state.iteration,
        "restarts": state.restarts,
        "last": state.history[-1] if state.history else math.inf,
    }


def run_solve(ctx: Context, tol: float, checkpoint_seconds: float) -> dict[str, Any]:
    """Solve for r on classes and store ``values/r`` and ``values/T_class``; return the record."""
    store = ctx.store
    graph = str(store.require("graph")["finished"])
    nbr = store.read("graph/nbr")
    info = store.read("graph/info")
    swap = store.read("graph/swap")
    n = info.shape[0]
    split = int(store.require("classes")["split"])
    check_bipartite(nbr, split)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    state = load_checkpoint(store, graph, split)
    resumed = state is not None
    if state is None:
        state = SolverState.start(split)
    else:
        ctx.log(f"solve: resuming at iteration {state.iteration}")
    digits = -math.log10(tol)
    with progress(round(digits * 10), "solve", ctx.show_progress, unit="0.1 digit") as bar:

        def on_iteration(st: SolverState, smax: float) -> None:
            done = min(digits, max(0.0, -math.log10(smax))) if smax > 0 else digits
            step = round(done * 10) - bar.n
            if step > 0:
                bar.set_postfix_str(f"iteration {st.iteration}, residual {smax:.1e}", refresh=False)
                bar.update(step)

        result = solve(
            nbr,
            info,
            split,
            state,
            tol=tol,
            on_iteration=on_iteration,
            checkpoint=lambda st: save_checkpoint(store, st, graph),
            checkpoint_seconds=checkpoint_seconds,
        )
    r = result.x
    t_class = r + r[swap]
    for name, arr in (("values/r", r), ("values/T_class", t_class)):
        store.create(name, (n,), (min(n, CLASS_SHARD),), np.float64, compress=False)[...] = arr
    # The checkpoints are of no use once r is stored.
    solve_group = zarr.open_group(store.path, path="solve", mode="a")
    for key in list(solve_group.array_keys()):
        del solve_group[key]
    solve_group.attrs["checkpoint"] = {}
    rel_t = result.rel_bound * (1.0 + UNIT) + UNIT
    t_max = float(t_class.max())
    bound = rel_t * t_max * (1.0 + 4.0 * UNIT)
    return {
        "iterations": result.iterations,
        "restarts": result.restarts,
        "residual": result.residual,
        "sigma": result.sigma,
        "relative_bound_r": result.rel_bound,
        "relative_bound_T": rel_t,
        "bound_T": bound,
        "r_max": float(r.max()),
        "T_max": t_max,
        "T_min": float(t_class.min()),
        "solve_seconds": result.seconds,
        "solve_cpu_seconds": result.cpu_seconds,
        "peak_rss_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
        "load_average": os.getloadavg()[0],
        "seconds_per_iteration": result.seconds_per_iteration,
        "resumed": resumed,
        "solved_classes": split,
        "threads": numba.get_num_threads(),
        "cores": os.cpu_count(),
    }
