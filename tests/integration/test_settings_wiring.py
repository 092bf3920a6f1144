"""Issue 10: GRAPHMEM_SPACY_MODEL reaches the NLP helpers the builders use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graphmem.config import Settings
from graphmem.designs.configure import DesignConfigs
from graphmem.embed import Embedder
from graphmem.errors import ConfigError, ModelLoadError
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.nlp.spacy_loader import AUTO, get_nlp, resolve_model_name, use_model
from graphmem.store import GraphStore
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
def _default_model_afterwards() -> Iterator[None]:
    yield
    use_model(AUTO)


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
    Memory(named, store=store, embedder=embedder)._ready()
    assert get_nlp().meta["name"] in installed


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
    _, reports = _memory(settings, store, embedder, item_tokens=50).ingest_dataset(
        Dataset(conversations=[more], qa={}), space, ["premem"]
    )
    assert reports[0].sessions == 1
