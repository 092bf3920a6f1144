"""Names users imported before the package root was split (issue 58) keep working for one
release, with a DeprecationWarning naming the new place, and are the same objects."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [
        ("graphmem.store", "graphmem.graph.store", "GraphStore"),
        ("graphmem.mcp_server", "graphmem.mcp.server", "build_server"),
    ],
)
def test_an_old_name_warns_and_gives_the_moved_object(old: str, new: str, name: str) -> None:
    module = importlib.import_module(old)
    with pytest.warns(DeprecationWarning, match=f"{old}.{name} moved to {new}.{name}"):
        found = getattr(module, name)
    assert found is getattr(importlib.import_module(new), name)


def test_an_unknown_name_of_a_moved_module_is_an_attribute_error() -> None:
    module = importlib.import_module("graphmem.store")
    with pytest.raises(AttributeError), pytest.warns(DeprecationWarning):
        module.NoSuchThing  # noqa: B018
