"""Issue 10: GRAPHMEM_SPACY_MODEL reaches the NLP helpers the builders use."""

from __future__ import annotations

from pathlib import Path

import pytest
import spacy

from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.errors import ConfigError, ModelLoadError
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.nlp.spacy_loader import AUTO, current_model, get_nlp, resolve_model_name
from graphmem.plugin.configure import DesignConfigs
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration


def test_spacy_model_setting_is_used_by_builders(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    bad = settings.model_copy(update={"spacy_model": "no_such_spacy_pipeline"})
    memory = Memory(bad, store=store, embedder=embedder)
    conv = tiny_conversation(sessions=1)
    with pytest.raises(ModelLoadError, match="no_such_spacy_pipeline"):
        memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, ["seem"])


def test_named_spacy_model_is_loaded(
    settings: Settings, store: GraphStore, embedder: Embedder
) -> None:
    installed = resolve_model_name(AUTO)
    named = settings.model_copy(update={"spacy_model": installed})
    with Memory(named, store=store, embedder=embedder).nlp_context():
        assert get_nlp().meta["name"] in installed
    assert current_model() == AUTO  # nothing left behind for the rest of the process


def test_two_memories_with_different_spacy_models_coexist(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str, tmp_path: Path
) -> None:
    """One English pipeline is installed, so the second is a real configuration of it: the
    same package without its NER, saved to a directory (``GRAPHMEM_SPACY_MODEL`` may name
    one). The semantic layer's entities come from NER, so what each space holds shows which
    pipeline built it; the first Memory ingests again after the second."""
    without_ner = tmp_path / "no-ner"
    spacy.load(resolve_model_name(AUTO), exclude=["ner"]).to_disk(without_ner)
    full = Memory(settings, store=store, embedder=embedder)
    bare = Memory(
        settings.model_copy(update={"spacy_model": str(without_ner)}),
        store=store,
        embedder=embedder,
    )
    data = Dataset(conversations=[tiny_conversation(sessions=2)], qa={})
    counts: dict[str, str] = {}
    for name, memory in (("full", full), ("bare", bare), ("again", full)):
        memory.ingest_dataset(data, f"{space}-{name}", ["semantic"])
        # The whole graph's digest: since times and numbers are no entities with either
        # pipeline, the two may hold as many nodes, but not the same ones.
        counts[name] = space_digest(store, f"{space}-{name}").sha256
        memory.forget(f"{space}-{name}")
    assert counts["full"] == counts["again"]
    assert counts["bare"] != counts["full"], counts
    with full.nlp_context():
        assert get_nlp().has_pipe("ner")
        with bare.nlp_context():
            assert not get_nlp().has_pipe("ner")
        assert get_nlp().has_pipe("ner")


def _memory(settings: Settings, store: GraphStore, embedder: Embedder, **over: object) -> Memory:
    configs = DesignConfigs(overrides={"premem": over}, file_data={})
    return Memory(settings, store=store, embedder=embedder, configs=configs)


def test_a_space_is_not_extended_with_other_build_settings(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """`--preset paper` on a space built with the defaults must not mix two builds: the
    refusal names the setting and comes before anything of the new input is written."""
    first = tiny_conversation(sessions=1)
    _memory(settings, store, embedder).ingest_dataset(
        Dataset(conversations=[first], qa={}), space, ["premem"]
    )
    before = store.read("core.space_counts", space=space)
    more = tiny_conversation(sessions=2)
    with pytest.raises(ConfigError, match=r"premem with other settings \(theta: 0\.6 -> 0\.9\)"):
        _memory(settings, store, embedder, theta=0.9).ingest_dataset(
            Dataset(conversations=[more], qa={}), space, ["premem"]
        )
    assert store.read("core.space_counts", space=space) == before
    # A retrieval-only setting is free to change; the same build settings extend the space.
    reports = (
        _memory(settings, store, embedder, item_tokens=50)
        .ingest_dataset(Dataset(conversations=[more], qa={}), space, ["premem"])
        .builds
    )
    assert reports[0].sessions == 1
