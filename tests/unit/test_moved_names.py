"""Names users imported before the package root was split and the plug-in kit gathered
(issue 58) keep working for one release, with a DeprecationWarning naming the new place,
and are the same objects."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [
        ("graphmem.store", "graphmem.graph.store", "GraphStore"),
        ("graphmem.mcp_server", "graphmem.mcp.server", "build_server"),
        # the plug-in kit (graphmem/plugin/): what plug-ins imported from the designs' folder,
        # the builders' and the retrieval's bases
        ("graphmem.designs.base", "graphmem.plugin.design", "Design"),
        ("graphmem.designs.base", "graphmem.plugin.design", "DesignSettings"),
        ("graphmem.designs.base", "graphmem.plugin.design", "Preset"),
        ("graphmem.designs.style", "graphmem.plugin.style", "NodeStyle"),
        ("graphmem.designs.registry", "graphmem.plugin.registry", "register"),
        ("graphmem.designs.configure", "graphmem.plugin.configure", "DesignConfigs"),
        ("graphmem.builders.base", "graphmem.plugin.builder", "Builder"),
        ("graphmem.builders.base", "graphmem.plugin.builder", "BuildContext"),
        ("graphmem.builders.base", "graphmem.plugin.builder", "SessionBatch"),
        ("graphmem.retrieval.base", "graphmem.plugin.retriever", "Retriever"),
        ("graphmem.retrieval.base", "graphmem.plugin.retriever", "RetrievalContext"),
        ("graphmem.retrieval.base", "graphmem.plugin.retriever", "Hit"),
        ("graphmem.retrieval.types", "graphmem.plugin.hits", "PassageRef"),
        ("graphmem.retrieval.types", "graphmem.plugin.hits", "RetrievalResult"),
        ("graphmem.retrieval.snapshot", "graphmem.plugin.snapshot", "SnapshotRetriever"),
        ("graphmem.captions", "graphmem.plugin.captions", "short_caption"),
        # the package root's other modules, each in its layer's package
        ("graphmem.cookbook", "graphmem.graph.cookbook", "recipes"),
        ("graphmem.hashing", "graphmem.process.hashing", "file_sha256"),
        ("graphmem.turns", "graphmem.ingest.render", "render_turn"),
        ("graphmem.limits", "graphmem.serving.limits", "DEFAULT_BUDGET"),
        # modules renamed to say what they do
        ("graphmem.nlp.claims", "graphmem.nlp.speech_acts", "speech_act"),
        ("graphmem.validity.claim", "graphmem.validity.claim_reader", "claims"),
        ("graphmem.embed.jar", "graphmem.embed.onnx_jar_embedder", "OnnxModelEmbedder"),
        ("graphmem.embed.onnx", "graphmem.embed.minilm_onnx", "OnnxEncoder"),
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


def test_the_package_root_holds_the_api_and_moved_names_only() -> None:
    """The root shows the layers: the public API's modules, and for one release the shims of
    names that moved (a module ``__getattr__`` and nothing else)."""
    root = Path(importlib.import_module("graphmem").__file__ or "").parent
    api = {"__init__", "memory", "types", "config", "errors"}
    for file in sorted(root.glob("*.py")):
        if file.stem in api:
            continue
        code = [line for line in file.read_text().split('"""')[-1].splitlines() if line.strip()]
        assert code == [
            "from graphmem.process.moved import forward",
            "__getattr__ = forward(__name__, " + code[-1].split("forward(__name__, ")[-1],
        ], file.name
