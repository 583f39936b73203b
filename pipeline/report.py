"""The stage table of a store (``python -m pipeline report``, ``bench/stages.py``): each stage's wall and
CPU seconds, its bound and the ratio (:mod:`pipeline.unitile.bounds`), the peak memory of the client and of
the largest worker, and the load average before and after, from the stage records
(:func:`pipeline.stages.run_stages`). Stages recorded before the records carried these show a dash."""

from __future__ import annotations

from typing import Any


def _num(v: Any, width: int, digits: int) -> str:
    """``v`` right-aligned in ``width`` with ``digits`` decimals (a large ratio without), or a dash."""
    if not isinstance(v, int | float):
        return f"{'-':>{width}}"
    return f"{v:>{width}.{digits if abs(v) < 1000 else 0}f}"


def _number(v: Any) -> float | None:
    """``v`` when it is a number, else None (a record edited or written by another version).

    >>> _number(1.5), _number("slow"), _number(True)
    (1.5, None, None)
    """
    return v if isinstance(v, int | float) and not isinstance(v, bool) else None


def _object(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def stage_rows(stages: dict[str, Any]) -> list[dict[str, Any]]:
    """One plain row per stage record, in build order; a field that is not a number is None (a dash)."""
    rows = []
    for name, rec in stages.items():
        rec = _object(rec)
        usage = _object(rec.get("usage"))
        bound = _object(rec.get("bound"))
        load = usage.get("load_average")
        before, after = (load if isinstance(load, list) and len(load) == 2 else [None, None])
        before, after = _number(before), _number(after)
        by = bound.get("by")
        rows.append({
            "stage": name,
            "seconds": _number(rec.get("seconds")),
            "cpu_seconds": _number(usage.get("cpu_seconds")),
            "bound_seconds": _number(bound.get("seconds")),
            "bound_by": by if isinstance(by, str) else None,
            "ratio": _number(bound.get("ratio")),
            "client_peak_gib": _number(usage.get("client_peak_gib")),
            "worker_peak_gib": _number(usage.get("worker_peak_gib")),
            "load_before": before if after is not None else None,
            "load_after": after if before is not None else None,
        })  # fmt: skip
    return rows


def format_stages(stages: dict[str, Any]) -> list[str]:
    """The stage table as text lines, with a total row."""
    rows = stage_rows(stages)
    head = (
        f"{'stage':<14}{'s':>8}{'CPU s':>8}{'bound s':>9}{'ratio':>8}  {'bound by':<18}"
        f"{'client GiB':>10}{'worker GiB':>11}  load"
    )
    lines = [head]
    for r in rows:
        lines.append(
            f"{r['stage']:<14}{_num(r['seconds'], 8, 1)}{_num(r['cpu_seconds'], 8, 1)}"
            f"{_num(r['bound_seconds'], 9, 2)}{_num(r['ratio'], 8, 1)}  {r['bound_by'] or '-':<18}"
            f"{_num(r['client_peak_gib'], 10, 2)}{_num(r['worker_peak_gib'], 11, 2)}  "
            + (f"{r['load_before']:.1f}-{r['load_after']:.1f}" if r["load_before"] is not None else "-")
        )
    total = sum(r["seconds"] or 0 for r in rows)
    cpu = sum(r["cpu_seconds"] or 0 for r in rows)
    bound = sum(r["bound_seconds"] or 0 for r in rows)
    peaks = [max((r[k] or 0) for r in rows) if rows else 0 for k in ("client_peak_gib", "worker_peak_gib")]
    lines.append(
        f"{'total':<14}{_num(total, 8, 1)}{_num(cpu, 8, 1)}{_num(bound, 9, 2)}"
        f"{_num(total / bound if bound else None, 8, 1)}  {'':<18}"
        f"{_num(peaks[0], 10, 2)}{_num(peaks[1], 11, 2)}"
    )
    lines.extend(phase_lines(stages))
    return lines


def phase_lines(stages: dict[str, Any]) -> list[str]:
    """A line per stage whose record splits its time into phases (the solve's ``phase_seconds``).

    >>> phase_lines({"solve": {"phase_seconds": {"starting_parts": 1.62, "cg": 11.33},
    ...                        "iterations": 152, "seconds_per_iteration": 0.0561}})
    ['solve: starting parts 1.6 s, cg 11.3 s (152 iterations of 56.1 ms)']
    """
    out = []
    for name, rec in stages.items():
        rec = _object(rec)
        phases = rec.get("phase_seconds")
        if not isinstance(phases, dict) or not phases:
            continue
        per = rec.get("seconds_per_iteration")
        parts = []
        for phase, seconds in phases.items():
            value = _number(seconds)
            text = f"{str(phase).replace('_', ' ')} " + (f"{value:.1f} s" if value is not None else "-")
            if phase == "cg" and isinstance(per, int | float):
                text += f" ({rec.get('iterations')} iterations of {per * 1000:.1f} ms)"
            parts.append(text)
        out.append(f"{name}: " + ", ".join(parts))
    return out
