"""The ledger of decided opening lines: one small checksummed JSON file per line that ``nd-prove`` has
decided, kept in the repository so that a proof spread over sessions and machines (whose build folders
do not survive) continues where it stopped (docs/naked-diagonal-solve.md, "The ledger").

A file ``<task>.json`` (the task's name of :func:`.proof_store.task_name`) in the ledger folder, by
default ``tables/naked-diagonal/progress/<N>x<N>/`` (not shipped by the site)::

    {"format": 1, "board": "6x6", "line": ["c3"], "wins": false, "nodes": ..., "cpu_seconds": ...,
     "seconds": ..., "proof": [...], "search": {...}, "sha256": "..."}

``wins`` is the result for the side to move after the line; ``proof`` a line of play where the winner
plays its proven moves; ``search`` the df-pn settings that decided it. ``sha256`` is the SHA-256 of the
file's other fields as compact JSON with sorted keys, so a file changed by hand or cut short is noticed:
it is reported in one line, its line is searched again and its entry written anew. A file is written
to a temporary name and renamed, never left half written under its own name.

An entry records a search's verdict, not a proof a verifier can replay: the proof of a board is its
winner's strategy (docs/naked-diagonal-tables.md, "Strategy files"), built and checked once the board is
decided. What a reader can check it checks: besides the checksum (which a forger can compute again), the
line and its ``proof`` are replayed by the rules of :mod:`unitile_py.naked_diagonal` (which share nothing
with the search) and must be legal and end in a win of the side ``wins`` names (:func:`replay_problem`),
so an entry whose verdict was flipped and signed again is refused unless its proof line is forged too.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unitile_py.errors import GameError
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.position import Position

from .proof_store import task_name

#: The ledger format.
FORMAT = 1
#: Fields an entry must have besides ``sha256``, with their types.
FIELDS: dict[str, type | tuple[type, ...]] = {
    "format": int, "board": str, "line": list, "wins": bool, "nodes": int, "cpu_seconds": (int, float),
    "seconds": (int, float), "proof": list, "search": dict,
}
#: The repository's root (the ledger lives in its tables folder).
ROOT = Path(__file__).resolve().parents[2]


def default_ledger(n: int) -> Path:
    """``tables/naked-diagonal/progress/<n>x<n>`` of this checkout."""
    return ROOT / "tables" / "naked-diagonal" / "progress" / f"{n}x{n}"


def digest(body: dict[str, Any]) -> str:
    """The SHA-256 of an entry's fields (without ``sha256``) as compact JSON with sorted keys."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def entry_of(n: int, result: dict[str, Any], search: dict[str, Any]) -> dict[str, Any]:
    """The ledger entry of a decided task's result (``prove_task``'s dictionary)."""
    body = {
        "format": FORMAT, "board": f"{n}x{n}", "line": list(result["line"]), "wins": bool(result["wins"]),
        "nodes": int(result["nodes"]), "cpu_seconds": float(result["cpu_seconds"]),
        "seconds": float(result["seconds"]), "proof": list(result.get("proof", [])), "search": search,
    }
    return {**body, "sha256": digest(body)}


def write_entry(folder: Path, n: int, result: dict[str, Any], search: dict[str, Any]) -> Path:
    """Write a decided task's entry as ``<task>.json`` in ``folder`` (made when missing): to a temporary
    name first, then renamed."""
    if result.get("wins") is None:
        raise ValueError("only a decided task goes into the ledger")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{task_name(list(result['line']))}.json"
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(entry_of(n, result, search), indent=1) + "\n", encoding="utf-8")
    os.replace(partial, path)
    return path


def check_entry(data: Any, n: int, name: str) -> str | None:
    """Why ``data`` (a parsed file named ``<name>.json``) is not a sound entry of the n x n ledger, or
    None when it is."""
    if not isinstance(data, dict):
        return "not a JSON object"
    for field, kind in FIELDS.items():
        if not isinstance(data.get(field), kind) or (kind is int and isinstance(data.get(field), bool)):
            return f"field {field!r} is missing or of the wrong type"
    if data["format"] != FORMAT:
        return f"format {data['format']} (this program reads {FORMAT})"
    if data["board"] != f"{n}x{n}":
        return f"board {data['board']}, not {n}x{n}"
    if not all(isinstance(p, str) for p in data["line"]) or task_name(data["line"]) != name:
        return f"its line {data['line']} does not match its name {name!r}"
    body = {k: v for k, v in data.items() if k != "sha256"}
    if set(body) != set(FIELDS) or data.get("sha256") != digest(body):
        return "its sha256 does not match its fields (changed or cut short)"
    return None


def replay_problem(data: dict[str, Any], n: int) -> str | None:
    """Why a sound entry's ``line`` and ``proof``, replayed from the empty n x n board by the game's
    rules, do not show its verdict (an illegal placement, a game not ended, or won by the other side),
    or None when they do."""
    game = Game(Position.empty(n))
    try:
        for k, name in enumerate([*data["line"], *data["proof"]]):
            if k == len(data["line"]):
                mover = game.position.turn
            game.push(game.grid.point(name, "point"))
    except (GameError, ValueError) as exc:
        return f"its line and proof do not replay ({exc})"
    if len(data["proof"]) == 0 or game.winner() is None:
        return "its proof does not end the game"
    if (game.winner() == mover) != data["wins"]:
        return f"its proof ends in a win of the side it says loses (wins {data['wins']})"
    return None


def read_ledger(folder: Path, n: int, warn: Callable[[str], None]) -> dict[str, dict[str, Any]]:
    """The sound entries of ``folder`` by task name (empty when the folder does not exist); each file that
    cannot be read or fails :func:`check_entry` is reported by ``warn`` in one line and skipped."""
    out: dict[str, dict[str, Any]] = {}
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.json")):
        name = path.name[: -len(".json")]
        try:
            if not path.is_file():
                raise OSError("not a regular file")
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            warn(f"warning: ledger {path}: unreadable ({exc}); its line is searched again")
            continue
        why = check_entry(data, n, name)
        why = why if why is not None else replay_problem(data, n)
        if why is not None:
            warn(f"warning: ledger {path}: {why}; its line is searched again")
            continue
        out[name] = data
    return out


def commit_entry(path: Path, message: str, warn: Callable[[str], None]) -> bool:
    """``git add`` and ``git commit`` this one file (nothing else that is staged) in the repository that
    holds it; a failure is reported by ``warn`` in one line (the file stays, uncommitted)."""
    where = path.parent
    try:
        for cmd in (["git", "add", "--", path.name], ["git", "commit", "-q", "-m", message, "--", path.name]):
            done = subprocess.run(cmd, cwd=where, capture_output=True, text=True, timeout=120, check=False)
            if done.returncode != 0:
                detail = (done.stderr or done.stdout).strip().splitlines()
                raise OSError(detail[-1] if detail else f"exit status {done.returncode}")
    except (OSError, subprocess.SubprocessError) as exc:
        warn(f"warning: ledger {path}: not committed ({exc})")
        return False
    return True
