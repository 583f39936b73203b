"""Stages lend each other nothing: no stage module of either game's pipeline imports another stage module
(module-level and function-level imports, from the source with ``ast``:
:func:`tests.test_imports.import_graph`).
What stages share lives in the framework (:mod:`pipeline.stages`) or in the game's store and helper
modules.

A stage module is a module of ``pipeline/unitile`` or ``pipeline/naked_diagonal`` whose name ends in
``_stage`` or ``_stages``, or that defines a stage: a class deriving from a ``Stage`` (the protocol
itself, a ``Protocol`` class, is not one), or one with a ``run(self, ctx)`` method."""

from __future__ import annotations

import ast

from tests.test_imports import import_graph, module_files

#: The packages of the games' pipelines.
GAME_PIPELINES = ("pipeline.unitile", "pipeline.naked_diagonal")


def base_name(node: ast.expr) -> str:
    """The last name of a base class: ``Stage`` for ``Stage``, ``stages.Stage`` and ``Stage[Context]``."""
    if isinstance(node, ast.Subscript):
        return base_name(node.value)
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def is_stage(cls: ast.ClassDef) -> bool:
    """Whether a class is a stage: derived from a ``Stage`` and not a protocol, or with ``run(self, ctx)``."""
    bases = {base_name(b) for b in cls.bases}
    if "Protocol" in bases:
        return False
    runs = [f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "run"]
    takes_ctx = any(len(f.args.args) > 1 and f.args.args[1].arg == "ctx" for f in runs)
    return "Stage" in bases or takes_ctx


def defines_stage(tree: ast.Module) -> bool:
    """Whether a module defines a stage class at its top level."""
    return any(isinstance(node, ast.ClassDef) and is_stage(node) for node in tree.body)


def stage_modules(sources: dict[str, str]) -> set[str]:
    """The stage modules among ``sources`` (dotted name -> source text) of the games' pipelines."""
    out = set()
    for module, text in sources.items():
        if not module.startswith(tuple(f"{p}." for p in GAME_PIPELINES)):
            continue
        if module.rpartition(".")[2].endswith(("_stage", "_stages")) or defines_stage(ast.parse(text)):
            out.add(module)
    return out


def lending(graph: dict[str, set[str]], stages: set[str]) -> list[str]:
    """Each import of a stage module by another, as ``importer -> imported``."""
    return sorted(f"{m} -> {t}" for m in stages for t in graph.get(m, set()) & stages)


def test_the_detector_finds_stages_by_name_and_by_class() -> None:
    sources = {
        "pipeline.unitile.graph_stage": "X = 1\n",
        "pipeline.unitile.plain": "class Stage(stages.Stage[Context], Protocol):\n    pass\n",
        "pipeline.naked_diagonal.odd": "@dataclass\nclass Odd(Stage[Context]):\n    pass\n",
        "pipeline.naked_diagonal.ducks": "class Duck:\n    def run(self, ctx):\n        pass\n",
        "pipeline.naked_diagonal.tasks": "class Task:\n    def run(self, part):\n        pass\n",
        "pipeline.stages": "class Free(Stage):\n    pass\n",
    }
    found = stage_modules(sources)
    nd = "pipeline.naked_diagonal"
    assert found == {"pipeline.unitile.graph_stage", f"{nd}.odd", f"{nd}.ducks"}
    graph = {f"{nd}.odd": {f"{nd}.ducks", f"{nd}.tasks"}}
    assert lending(graph, found) == [f"{nd}.odd -> {nd}.ducks"]


def test_no_stage_module_imports_another() -> None:
    sources = {module: path.read_text() for module, path in module_files().items()}
    stages = stage_modules(sources)
    # The detector sees both games' stages (so that the check below is not empty).
    assert {"pipeline.unitile.solve_stage", "pipeline.unitile.class_stages",
            "pipeline.naked_diagonal.tier_stage", "pipeline.naked_diagonal.table_stages"} <= stages, stages
    assert lending(import_graph(), stages) == []
