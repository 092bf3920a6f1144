"""No module of graphmem imports itself back: every import statement counts, at the top,
inside a function or under ``TYPE_CHECKING`` (a type-level cycle is still a cycle of
dependencies, and a lazy import only hides one)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "graphmem"


def _modules() -> dict[str, Path]:
    found = {}
    for file in PACKAGE.rglob("*.py"):
        parts = file.relative_to(PACKAGE.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = file
    return found


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The module an imported name lives in: itself, or the longest module prefix."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, file: Path, modules: dict[str, Path]) -> set[str]:
    package = module if file.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            # ``from a import b``: the submodule a.b when there is one, else a itself
            names = [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            owner = _owner(name, modules)
            if owner is not None and owner != module:
                out.add(owner)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {m: _imports(m, f, modules) for m, f in modules.items()}


def test_graphmem_has_no_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 100 and sum(map(len, graph.values())) > 500  # the walk sees the code
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as cycle:
        raise AssertionError(f"import cycle: {' -> '.join(cycle.args[1])}") from None


def test_the_walk_finds_a_cycle_hidden_in_a_function() -> None:
    graph = import_graph()
    # base building the jar models' embedder inside a function, as it once did
    graph["graphmem.embed.base"].add("graphmem.embed.onnx_jar_embedder")
    try:
        TopologicalSorter(graph).prepare()
    except CycleError:
        return
    raise AssertionError("the cycle base -> onnx_jar_embedder -> base was not found")
