"""The import graph of the production code, from the source with ``ast``: no cycles in pipeline or
unitile_py (module-level and function-level imports, absolute and relative, ``TYPE_CHECKING`` ones
too); neither game's subpackages (``unitile``, ``naked_diagonal``, in unitile_py and in pipeline) import
the other's, and the shared modules import no game's (the dispatchers find the games in the registry);
and no production module
(unitile_py, pipeline, site/*.py, their doctests included) imports ``tests``."""

from __future__ import annotations

import ast
import doctest
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from unitile_py import registry

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("unitile_py", "pipeline")
#: The subpackage of each game, in each package.
GAMES = tuple(g.package for g in registry.games())
Graph = dict[str, set[str]]


def module_files() -> dict[str, Path]:
    """Every module of the packages by dotted name (``pkg/__init__.py`` is ``pkg``)."""
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def imported_names(tree: ast.AST, module: str, is_package: bool) -> Iterator[str]:
    """The absolute names every import statement anywhere in ``tree`` refers to: ``import a.b`` gives
    ``a.b``; ``from a import b, c`` gives ``a.b`` and ``a.c`` (submodules or not) and ``a``; relative
    imports are resolved against ``module``."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def resolve(name: str, known: set[str]) -> str | None:
    """The known module a name refers to: the longest known prefix of it."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


@cache
def import_graph() -> Graph:
    """Module -> the modules of the packages it imports (anywhere in its code)."""
    files = module_files()
    known = set(files)
    graph: Graph = {}
    for module, path in files.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        targets = {resolve(n, known) for n in imported_names(tree, module, path.name == "__init__.py")}
        graph[module] = {t for t in targets if t is not None and t != module}
    return graph


def cycles(graph: Graph) -> list[tuple[list[str], list[str]]]:
    """For each strongly connected component with more than one module (Tarjan's algorithm,
    iterative): one cycle through it as a path ``a -> ... -> a``, and all its modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return [(cycle_in(graph, set(c)), c) for c in components]


def cycle_in(graph: Graph, component: set[str]) -> list[str]:
    """A cycle through the first member of a strongly connected component (breadth-first, shortest)."""
    start = min(component)
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"{sorted(component)} is not strongly connected")


def cycles_through(package: str) -> list[str]:
    """The import cycles that pass through a module of ``package``, as text."""
    return [
        f"{' -> '.join(cycle)} (all of {', '.join(members)} import each other in a circle)"
        for cycle, members in cycles(import_graph())
        if any(m.split(".")[0] == package for m in members)
    ]


def test_the_graph_sees_relative_lazy_and_package_imports() -> None:
    """The parser itself: a function-level relative import, ``from . import x`` and a package import."""
    source = "def f():\n    from .store import Store\n    from . import cg\nimport unitile_py\n"
    names = set(imported_names(ast.parse(source), "pipeline.unitile.build", is_package=False))
    known = set(module_files())
    want = {"pipeline.unitile.store", "pipeline.unitile.cg", "unitile_py"}
    assert {resolve(n, known) for n in names} >= want
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert cycles(graph) == [(["a", "b", "c", "a"], ["a", "b", "c"])]


def test_pipeline_has_no_import_cycle() -> None:
    assert import_graph()["pipeline.cli"], "the graph found no imports at all"
    assert cycles_through("pipeline") == []


def test_unitile_py_has_no_import_cycle() -> None:
    assert cycles_through("unitile_py") == []


def reachable(module: str) -> set[str]:
    """The modules of the packages that ``module`` imports, directly or through others."""
    graph = import_graph()
    seen: set[str] = set()
    todo = [module]
    while todo:
        for child in graph[todo.pop()] - seen:
            seen.add(child)
            todo.append(child)
    return seen


def test_the_match_runner_and_the_web_services_load_no_command_line_or_terminal() -> None:
    """``playing`` (the protocols and the match runner) imports neither argparse nor the terminal, so
    the worker's services, which take ``Player`` from it, load neither the terminal nor the commands."""
    path = module_files()["unitile_py.playing"]
    names = set(imported_names(ast.parse(path.read_text()), "unitile_py.playing", is_package=False))
    assert "argparse" not in {n.split(".")[0] for n in names}
    for module in ("unitile_py.playing", "unitile_py.unitile.webapi", "unitile_py.naked_diagonal.webapi"):
        assert not reachable(module) & {"unitile_py.terminal", "unitile_py.match_command"}, module


def game_of(module: str) -> str | None:
    """The game whose subpackage holds ``module`` (``pipeline.unitile.cg``: ``unitile``), or None for a
    shared module."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in GAMES else None


def test_the_game_of_a_module() -> None:
    assert game_of("pipeline.unitile.cg") == game_of("unitile_py.unitile") == "unitile"
    assert game_of("unitile_py.naked_diagonal.areas") == "naked_diagonal"
    assert game_of("unitile_py.coords") is game_of("pipeline.executor") is game_of("unitile_py") is None


def test_neither_game_imports_the_other() -> None:
    """No module of one game's subpackages (in unitile_py or pipeline) imports a module of the other's."""
    graph = import_graph()
    assert any(game_of(m) == g for m in graph for g in GAMES), "the graph found no game modules"
    offenders = [
        f"{module} imports {target}"
        for module, targets in sorted(graph.items())
        for target in sorted(targets)
        if None is not game_of(module) != game_of(target) is not None
    ]
    assert offenders == []


def test_shared_modules_import_no_game() -> None:
    """The plumbing at the top of unitile_py and pipeline serves every game without knowing one: the
    command lines and the worker's entry point route to the modules the registry names."""
    offenders = [
        f"{module} imports {target}"
        for module, targets in sorted(import_graph().items())
        if game_of(module) is None and not module.endswith("__main__")
        for target in sorted(targets)
        if game_of(target) is not None
    ]
    assert offenders == []


def test_the_registry_names_modules_of_each_game_s_own_subpackage() -> None:
    """Every module a game's spec names exists, and is its own (or shared plumbing), never another
    game's."""
    files = module_files()
    for game in registry.games():
        named = [game.service, game.cli, *game.preload, *([game.pipeline] if game.pipeline else [])]
        for module in named:
            assert module in files, f"{game.key}: {module} is not a module"
            assert game_of(module) in (game.package, None), f"{game.key}: {module} is another game's"
        assert game_of(game.service) == game_of(game.cli) == game.package


def production_sources() -> dict[str, Path]:
    """Every production module (the packages, and site/*.py as top-level modules) by name."""
    return {**module_files(), **{p.stem: p for p in sorted((ROOT / "site").glob("*.py"))}}


def doctest_sources(tree: ast.AST) -> Iterator[str]:
    """The code of every doctest example in the docstrings of a module."""
    parser = doctest.DocTestParser()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(node, clean=False)
            if text:
                yield "\n".join(ex.source for ex in parser.get_examples(text))


def test_no_production_module_imports_tests() -> None:
    offenders = []
    for name, path in production_sources().items():
        tree = ast.parse(path.read_text(), filename=str(path))
        trees = [tree, *(ast.parse(src) for src in doctest_sources(tree))]
        for t in trees:
            for imported in imported_names(t, name, is_package=path.name == "__init__.py"):
                if imported.split(".")[0] == "tests":
                    offenders.append(f"{name} imports {imported}")
    assert sorted(set(offenders)) == []


def test_the_legality_engine_is_a_module_of_its_own() -> None:
    """``naked_diagonal.legality`` holds the engine alone: the bans and their words, the culprit search
    and the witness repairs are modules of their own, which it imports, and it stays small."""
    path = module_files()["unitile_py.naked_diagonal.legality"]
    assert len(path.read_text().splitlines()) <= 450
    parts = {f"unitile_py.naked_diagonal.{m}" for m in ("bans", "culprit", "candidate_repair")}
    assert parts <= import_graph()["unitile_py.naked_diagonal.legality"]
