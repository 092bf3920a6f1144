"""The layers below the designs reach them through the plug-in kit (``graphmem.plugin``),
never by importing ``graphmem.designs``; the built-in designs import the kit by its public
names. Every import statement counts (at the top, inside a function, under
``TYPE_CHECKING``), read from the source as tests/unit/test_import_cycles.py reads it."""

from __future__ import annotations

import importlib

import pytest

import graphmem.plugin as kit
from tests.unit.test_import_cycles import import_graph

DESIGNS = "graphmem.designs"
# Modules outside graphmem/designs/ allowed to import it, each with why.
ALLOWED = {
    # The kit's discovery of the built-in designs: it imports the package for its folder
    # (``__path__``) to list the sub-packages in it; a design's code loads by name only,
    # when the registry (or ``graphmem --help``, for a package's COMMANDS) asks for it.
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


def _is_designs(module: str) -> bool:
    return module == DESIGNS or module.startswith(f"{DESIGNS}.")


def _importers_of_the_designs(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    return {
        module: {found for found in imported if _is_designs(found)}
        for module, imported in graph.items()
        if not _is_designs(module) and any(_is_designs(found) for found in imported)
    }


def test_no_layer_below_the_designs_imports_them() -> None:
    graph = import_graph()
    assert len(graph) > 100  # the walk sees the code
    found = _importers_of_the_designs(graph)
    unexpected = {module: sorted(names) for module, names in found.items() if module not in ALLOWED}
    assert not unexpected, f"import graphmem.designs through graphmem.plugin: {unexpected}"
    # An exception that no longer imports the designs is dropped from the list.
    assert sorted(found) == sorted(ALLOWED)


def test_the_walk_finds_an_import_of_the_designs_hidden_in_a_function() -> None:
    graph = import_graph()
    graph["graphmem.graph.stats"].add("graphmem.designs.seem.design")
    assert "graphmem.graph.stats" in _importers_of_the_designs(graph)


def test_the_built_in_designs_import_the_kit_by_its_public_names() -> None:
    graph = import_graph()
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
    graph = import_graph()
    users = {m: sorted(set(SHIMS) & imported) for m, imported in graph.items()}
    assert not {m: names for m, names in users.items() if names}


def test_every_public_name_of_the_kit_loads_from_its_home() -> None:
    assert sorted(kit.__all__) == sorted(kit._HOME)
    for name in kit.__all__:
        home = importlib.import_module(f"graphmem.plugin.{kit._HOME[name]}")
        assert getattr(kit, name) is getattr(home, name), name
    with pytest.raises(AttributeError):
        kit.NoSuchThing  # noqa: B018
