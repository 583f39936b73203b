"""What the site's Python does, in one run: every module of unitile_py imported, and both games'
requests answered through ``unitile_py.webapi`` as the worker sends them (each game's tables, level 6
on the solved sizes, the search levels, hints, bans explained, reviews, records, puzzles, refusals and
a bug's "internal error" line).

``site/trim_stdlib.py`` runs it inside Pyodide under node to find the standard library modules the
site needs (``sys.modules`` afterwards), and ``tests/test_trimmed_stdlib.py`` runs it again from the
trimmed library, so that a module missing there fails the tests, not a player. It runs under CPython
too (``python site/exercise.py``). It needs unitile_py and ``tables/`` side by side in ``home``.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import sys
from typing import Any

#: An import statement of a module's source: ``from a.b import c`` or ``import a.b as c, d``.
IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\w[\w.]*)[ \t]+import\b|import[ \t]+([\w., \t]+?)[ \t]*(?:#.*)?$)", re.M
)


def modules(home: str) -> list[str]:
    """Every module of the package ``unitile_py`` under ``home`` (sources or .pyc), by dotted name."""
    found = []
    for folder, dirs, files in os.walk(os.path.join(home, "unitile_py")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        package = os.path.relpath(folder, home).replace(os.sep, ".")
        for name in sorted(files):
            stem, ext = os.path.splitext(name)
            if ext in (".py", ".pyc") and stem != "__main__":
                found.append(package if stem == "__init__" else f"{package}.{stem}")
    return sorted(set(found))


#: The requests answered and refused so far (``run`` reports them).
COUNTS = {"answered": 0, "refused": 0}
REFUSALS: list[str] = []


def imported_outside(home: str) -> list[str]:
    """The modules outside unitile_py that its sources under ``home`` import anywhere (inside functions
    too, on paths no request may take), by name; none for a package shipped as .pyc."""
    names: set[str] = set()
    for folder, dirs, files in os.walk(os.path.join(home, "unitile_py")):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for file in files:
            if file.endswith(".py"):
                with open(os.path.join(folder, file), encoding="utf-8") as source:
                    for one, many in IMPORT.findall(source.read()):
                        parts = [one] if one else [m.split()[0] for m in many.split(",") if m.strip()]
                        names.update(parts)
    return sorted(n for n in names if n.split(".")[0] != "unitile_py")


def call(op: str, **args: Any) -> Any:
    """One request answered in slices as the worker does (``webapi.start``); its result, or the
    refusal's line for a request meant to be refused (``error`` in the reply)."""
    from unitile_py import webapi

    task = webapi.start(json.dumps({"op": op, "args": args}), webapi.DEADLINE)
    while (reply := task.step(webapi.SLICE)) is None:
        pass
    answer = json.loads(reply)
    if not answer["ok"]:
        if answer["error"].startswith("internal error"):
            raise RuntimeError(f"{op}: {answer['error']}")
        COUNTS["refused"] += 1
        REFUSALS.append(f"{op}: {answer['error']}")
        return {"error": answer["error"]}
    COUNTS["answered"] += 1
    return answer["result"]


def refused(op: str, **args: Any) -> str:
    """A request that must be refused with one line (bad input), not answered."""
    reply = call(op, **args)
    if not isinstance(reply, dict) or "error" not in reply:
        raise RuntimeError(f"{op} {args}: answered, expected a refusal")
    return str(reply["error"])


def unitile(home: str) -> None:
    """Unitile's requests, with its tables loaded as the worker loads them."""
    call("ut_load_tables", directory=f"{home}/tables", check_records=False)
    game: dict[str, Any] = {"start": None, "moves": []}
    for ply, level in enumerate((1, 2, 3, 4, 6, 5)):
        state = call("ut_state", game=game, analysis=True)
        move = call("ut_computer_move", game=game, level=level, seed=ply)
        game = call("ut_play", game=game, move=move)
    state = call("ut_state", game=game)
    call("ut_hint", game=game)
    banned = [n for n in ("a1", "c3", "e5", "b2", "d4") if n not in state["legal"]]
    call("ut_explain", game=game, move=banned[0])
    call("ut_undo", game=game, humans=["r"])
    review = call("ut_review", game=game)
    record = "1. " + " ".join(p["move"] for p in review["plies"][:2])
    call("ut_records", text=record + "\n\n" + record)
    call("ut_load", text=record)
    call("ut_salvage", game={"start": None, "moves": ["c4", "zz9", "c4"]})
    puzzle = call("ut_puzzle", index=0)
    first = call("ut_state", game={"start": puzzle["position"], "moves": []})["legal"][0]
    call("ut_puzzle_try", index=0, move=first)
    refused("ut_play", game=game, move="zz9")
    refused("ut_load", text="1. garbage")


def naked_diagonal() -> None:
    """Naked Diagonal's requests on a solved size (4x4: tables), the stored proof (5x5) and 9x9."""
    for size, levels in ((4, (6, 1)), (5, (6, 2)), (9, (1, 2, 3))):
        game: dict[str, Any] = {"size": size, "start": None, "moves": []}
        for ply, level in enumerate(levels * 2):
            call("nd_state", game=game, analysis=size < 6)
            move = call("nd_computer_move", game=game, level=level, seed=ply)
            game = call("nd_play", game=game, move=move)
        call("nd_hint", game=game)
        for move in ("a1", "b2", "c3", "a4", "d1"):
            call("nd_explain", game=game, move=move)
        if size == 4:
            review = call("nd_review", game=game)
            record = "1. " + " ".join(p["move"] for p in review["plies"][:2])
            call("nd_records", text=f'[Size "{size}x{size}"]\n{record}')
            call("nd_load", text=f'[Size "{size}x{size}"]\n{record}')
    call("nd_salvage", game={"size": 5, "start": None, "moves": ["c3", "c3"]})
    call("nd_puzzle", size=4, index=0)
    call("nd_puzzle_try", size=4, index=0, move="a1")
    refused("nd_play", game={"size": 5, "start": None, "moves": []}, move="z9")
    refused("nd_state", game={"size": 99, "start": None, "moves": []})


def run(home: str) -> dict[str, int]:
    """Import every module of unitile_py under ``home`` and run both games' requests; how many of
    each. Raises on the first module that does not import or request that fails."""
    if home not in sys.path:
        sys.path.insert(0, home)
    names = modules(home)
    for name in names + imported_outside(home):
        importlib.import_module(name)
    webapi = importlib.import_module("unitile_py.webapi")
    for game in json.loads(webapi.handle(json.dumps({"op": "games"})))["result"]:
        for module in game.get("preload", []):
            importlib.import_module(module)
    call("preload")
    unitile(home)
    naked_diagonal()
    bug = json.loads(webapi.handle('{"op": 5}'))
    if bug["ok"]:
        raise RuntimeError("a request whose op is not text was answered")
    return {"modules": len(names), **COUNTS}


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1] if len(sys.argv) > 1 else os.getcwd())))
