"""The layers below the designs reach them through the plug-in kit (``graphmem.plugin``),
never by importing ``graphmem.designs``; the built-in designs import the kit by its public
names, and of graphmem outside their own package nothing but the kit and the public API of
``graphmem.semantic``, ``graphmem.nlp`` and ``graphmem.llm``; MCP and HTTP reach nothing of
the CLI. Every import statement counts (at the top, inside a function, under
``TYPE_CHECKING``), read from the source as tests/unit/test_import_cycles.py reads it."""

from __future__ import annotations

import ast
import functools
import importlib
from pathlib import Path

import pytest

import graphmem.plugin as kit
from tests.paths import ROOT
from tests.unit.test_import_cycles import import_graph

DESIGNS = "graphmem.designs"
# Modules outside graphmem/designs/ allowed to import it, each with why.
ALLOWED = {
    # The kit's discovery of the built-in designs: it imports the package for its folder
    # (``__path__``) to list the sub-packages in it; a design's code loads by name only,
    # when the registry (or ``graphmem --help``, for the records' commands) reads a record.
    "graphmem.plugin.commands": "lists the built-in design packages",
}
# Old paths that forward to the kit with a DeprecationWarning for one release
# (tests/unit/test_moved_names.py): graphmem itself never imports them.
SHIMS = (
    "graphmem.designs.base",
    "graphmem.designs.configure",
    "graphmem.designs.registry",
    "graphmem.designs.style",
    "graphmem.builders.base",
    "graphmem.retrieval.base",
    "graphmem.retrieval.snapshot",
    "graphmem.retrieval.types",
    "graphmem.captions",
)


# All a design imports of graphmem outside its own package (issue 58): the kit, and the
# layers below it that designs build on, each by its package's public names.
DESIGN_IMPORTS = ("graphmem.plugin", "graphmem.semantic", "graphmem.nlp", "graphmem.llm")
# The example plug-ins under tests/, which the contract suite runs like the built-in ones.
EXAMPLES = ("example_design", "example_vector_design")
TESTS = ROOT / "tests"
# The serving surfaces: running them must not load the CLI's commands.
SURFACES = ("graphmem.mcp", "graphmem.http", "graphmem.serving")


@functools.cache
def _walk() -> dict[str, frozenset[str]]:
    return {module: frozenset(found) for module, found in import_graph().items()}


def _graph() -> dict[str, set[str]]:
    """The import graph, read once for the module's tests (each gets its own copy to edit)."""
    return {module: set(found) for module, found in _walk().items()}


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(f"{package}.")


def _is_designs(module: str) -> bool:
    return module == DESIGNS or module.startswith(f"{DESIGNS}.")


def _importers_of_the_designs(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    return {
        module: {found for found in imported if _is_designs(found)}
        for module, imported in graph.items()
        if not _is_designs(module) and any(_is_designs(found) for found in imported)
    }


def test_no_layer_below_the_designs_imports_them() -> None:
    graph = _graph()
    assert len(graph) > 100  # the walk sees the code
    found = _importers_of_the_designs(graph)
    unexpected = {module: sorted(names) for module, names in found.items() if module not in ALLOWED}
    assert not unexpected, f"import graphmem.designs through graphmem.plugin: {unexpected}"
    # An exception that no longer imports the designs is dropped from the list.
    assert sorted(found) == sorted(ALLOWED)


def test_the_walk_finds_an_import_of_the_designs_hidden_in_a_function() -> None:
    graph = _graph()
    graph["graphmem.graph.stats"].add("graphmem.designs.seem.design")
    assert "graphmem.graph.stats" in _importers_of_the_designs(graph)


def test_the_built_in_designs_import_the_kit_by_its_public_names() -> None:
    graph = _graph()
    deeper = {
        module: sorted(found for found in imported if found.startswith("graphmem.plugin."))
        for module, imported in graph.items()
        if module.startswith(f"{DESIGNS}.") and module not in SHIMS
    }
    assert any(
        "graphmem.plugin" in imported for m, imported in graph.items() if m.startswith(DESIGNS)
    )
    assert not {module: names for module, names in deeper.items() if names}


def test_graphmem_imports_no_old_path() -> None:
    graph = _graph()
    users = {m: sorted(set(SHIMS) & imported) for m, imported in graph.items()}
    assert not {m: names for m, names in users.items() if names}


def test_every_public_name_of_the_kit_loads_from_its_home() -> None:
    assert sorted(kit.__all__) == sorted([*kit._HOME, *kit._BELOW])
    assert not set(kit._HOME) & set(kit._BELOW)
    for name in kit.__all__:
        home = importlib.import_module(kit._module_of(name) or "")
        assert getattr(kit, name) is getattr(home, name), name
    with pytest.raises(AttributeError):
        kit.NoSuchThing  # noqa: B018


def _built_in_designs(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        m.split(".")[2] for m in graph if m.startswith(f"{DESIGNS}.") and m.endswith(".design")
    )


def _outside_imports(graph: dict[str, set[str]], design: str) -> set[str]:
    """The graphmem modules that the design's package imports, outside the package."""
    own = f"{DESIGNS}.{design}"
    return {
        found
        for module, imported in graph.items()
        if _within(module, own)
        for found in imported
        if _within(found, "graphmem") and not _within(found, own)
    }


def test_the_walk_sees_every_built_in_design() -> None:
    assert _built_in_designs(_graph()) == ["amory", "anchormem", "cast", "premem", "seem"]


@pytest.mark.parametrize("design", ["amory", "anchormem", "cast", "premem", "seem"])
def test_a_built_in_design_imports_the_kit_and_three_layers_only(design: str) -> None:
    found = _outside_imports(_graph(), design)
    assert "graphmem.plugin" in found
    # A submodule (``graphmem.nlp.speech_acts``) or another layer (``graphmem.graph.store``) is
    # re-exported by the kit or its package's ``__init__`` instead.
    assert len(found) <= len(DESIGN_IMPORTS) and found <= set(DESIGN_IMPORTS), sorted(found)


def test_the_count_sees_a_submodule_and_another_layer() -> None:
    graph = _graph()
    graph["graphmem.designs.seem.frames"] |= {"graphmem.nlp.speech_acts", "graphmem.graph.store"}
    found = _outside_imports(graph, "seem")
    assert {"graphmem.nlp.speech_acts", "graphmem.graph.store"} <= found - set(DESIGN_IMPORTS)


def _graphmem_imports(file: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return {name for name in found if _within(name, "graphmem")}


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_example_plug_ins_import_what_a_design_may(example: str) -> None:
    files = sorted((TESTS / example).rglob("*.py"))
    assert files
    found = set().union(*map(_graphmem_imports, files))
    assert "graphmem.plugin" in found and found <= set(DESIGN_IMPORTS), sorted(found)


def _reached(graph: dict[str, set[str]], package: str) -> set[str]:
    todo = [module for module in graph if _within(module, package)]
    seen: set[str] = set()
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, ()))
    return seen


@pytest.mark.parametrize("surface", SURFACES)
def test_mcp_and_http_reach_nothing_of_the_cli(surface: str) -> None:
    graph = _graph()
    reached = _reached(graph, surface)
    assert any(_within(module, surface) for module in reached)
    # What MCP prints (a query's context, a history) is graphmem/serving/render.py's.
    assert not sorted(m for m in reached if _within(m, "graphmem.cli"))


def test_the_reach_follows_imports_through_other_modules() -> None:
    graph = _graph()
    graph["graphmem.serving.render"].add("graphmem.cli.plain")
    assert "graphmem.cli.plain" in _reached(graph, "graphmem.mcp")
