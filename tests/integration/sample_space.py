"""The sample conversation ingested with every builder of the package, for the tests of the
user-facing entry points (cookbook, Browser guide, notebooks, MCP)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from graphmem.builders.registry import builder_names
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.registry import registry

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample_conversation.jsonl"


def package_builders() -> list[str]:
    """Every builder shipped in graphmem (plug-ins registered by other tests left out)."""
    return [
        name
        for name in builder_names()
        if getattr(registry()[name].builder, "__module__", "").startswith("graphmem.")
    ]


@contextmanager
def sample_space(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    prefix: str = "users",
    configs: DesignConfigs | None = None,
) -> Iterator[str]:
    """A fresh space holding the sample conversation built by every builder; deleted after."""
    space = f"{prefix}-{uuid.uuid4().hex[:10]}"
    memory = Memory(settings, store=store, embedder=embedder, configs=configs)
    try:
        memory.ingest(SAMPLE, space, builders=package_builders())
        yield space
    finally:
        memory.forget(space, missing_ok=True)


def labels_in(store: GraphStore, space: str) -> set[str]:
    return {row["label"] for row in store.read("analyst.label_counts", space=space)}
