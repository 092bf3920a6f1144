"""Cosine thresholds on MiniLM's scale, mapped to the embedder in use (embed/scale.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.embed.base import Embedder, Kind, Vectors, normalise
from graphmem.embed.factory import build_embedder
from graphmem.embed.scale import (
    PINNED,
    REFERENCE,
    REFERENCE_NAME,
    Scale,
    Stat,
    configured_name,
    cosine_fields,
    map_value,
    measure,
    on_scale,
    scale_of,
)
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.registry import registry

E5 = "intfloat/e5-small-v2:int8"


class _Named(Embedder):
    """No model: only a name (pinned ones never embed) or seeded random vectors."""

    dim = 8

    def __init__(self, name: str) -> None:
        self.name = name
        self.calls = 0

    def embed(self, texts: Sequence[str], kind: Kind = "passage") -> Vectors:
        self.calls += 1
        rng = np.random.default_rng(len(texts) + len(kind))
        return normalise(rng.normal(size=(len(texts), self.dim)) + 1.0)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


@pytest.mark.parametrize(
    ("embedder", "precision"),
    [
        ("minilm", "float32"),
        ("minilm", "int8"),
        ("e5-small-v2", "int8"),
        ("e5-small-v2", "float32"),
        ("bge-small-en-v1.5", "int8"),
        ("bge-small-en-v1.5", "float32"),
    ],
)
def test_pinned_scales_are_what_the_models_measure(embedder: str, precision: str) -> None:
    model = build_embedder(Settings(embedder=embedder, embedding_precision=precision))  # type: ignore[arg-type]
    pinned = PINNED[model.name]
    found = measure(model)
    for pair in ("symmetric", "passage", "query"):
        assert found.of(pair).mu == pytest.approx(pinned.of(pair).mu, abs=2e-3), pair
        assert found.of(pair).rel == pytest.approx(pinned.of(pair).rel, abs=2e-3), pair


def test_minilm_reads_every_design_setting_unchanged() -> None:
    configs = DesignConfigs()
    view = configs.on_embedder(_Named(REFERENCE_NAME))
    for name in registry():
        assert view.get(name) == configs.get(name), name
    assert scale_of(_Named(REFERENCE_NAME)) is REFERENCE


def test_the_map_matches_the_unrelated_and_the_related_anchor() -> None:
    e5 = PINNED[E5]
    ref, own = REFERENCE.symmetric, e5.symmetric
    assert map_value(ref.mu, "symmetric", e5) == pytest.approx(own.mu, abs=1e-4)
    assert map_value(ref.rel, "symmetric", e5) == pytest.approx(own.rel, abs=1e-4)
    halfway = (ref.mu + ref.rel) / 2
    assert map_value(halfway, "symmetric", e5) == pytest.approx((own.mu + own.rel) / 2, abs=1e-4)
    # A distance maps through 1 - map(1 - d), on the passage scale.
    assert map_value(0.7, "distance-passage", e5) == pytest.approx(
        1 - map_value(0.3, "passage", e5), abs=1e-4
    )
    # Under e5 every unrelated pair sits near 0.83: MiniLM's 0.8 is far above that.
    assert 0.94 < map_value(0.8, "symmetric", e5) < 0.95
    wide = Scale(Stat(0.5, 0.9), Stat(0.5, 0.9), Stat(0.5, 0.9))
    assert map_value(0.95, "symmetric", wide) == 1.0  # clipped to the cosine's range


def test_contexts_read_mapped_thresholds_and_the_given_values_stay() -> None:
    configs = DesignConfigs(overrides={"semantic": {"synonym_threshold": 0.9}})
    view = configs.on_embedder(_Named(E5))
    mapped = view.get("semantic")
    assert mapped.synonym_threshold == map_value(0.9, "symmetric", PINNED[E5])
    assert mapped.synonym_top_k == configs.get("semantic").synonym_top_k
    assert configs.get("semantic").synonym_threshold == 0.9  # recorded, shown as given
    assert view.on_embedder(_Named(E5)) is view


def test_an_unknown_embedder_is_measured_once_at_first_use() -> None:
    other = _Named("test/unknown-scale")
    view = DesignConfigs().on_embedder(other)
    assert other.calls == 0  # binding does no work
    view.get("graphmem")  # declares no threshold: still nothing embedded
    assert other.calls == 0
    view.get("semantic")
    assert other.calls == 9  # three unrelated sets, three pairs of related sets
    DesignConfigs().on_embedder(other).get("anchormem")
    assert other.calls == 9


def test_declared_thresholds_are_known_kinds() -> None:
    from pydantic import Field

    from graphmem.plugin.design import DesignSettings

    class Bad(DesignSettings):
        t: float = Field(default=0.5, json_schema_extra={"cosine": "angle"})

    with pytest.raises(ValueError, match="unknown cosine kind"):
        cosine_fields(Bad)
    declared = {name: cosine_fields(d.settings) for name, d in registry().items()}
    assert declared["semantic"]["synonym_threshold"] == "symmetric"
    assert declared["cast"] == {"delta_tau": "distance-passage"}
    assert on_scale(DesignConfigs().get("cast"), PINNED[E5]).delta_tau < 0.7


@pytest.mark.parametrize(
    ("embedder", "precision"),
    [
        ("minilm", "float32"),
        ("minilm", "bfloat16"),
        ("minilm", "int8"),
        ("e5-small-v2", "auto"),
        ("e5-small-v2", "float32"),
        ("bge-small-en-v1.5", "auto"),
        ("bge-small-en-v1.5", "float32"),
    ],
)
def test_the_configured_embedders_name_is_known_without_loading_it(
    embedder: str, precision: str
) -> None:
    settings = Settings(embedder=embedder, embedding_precision=precision)  # type: ignore[arg-type]
    assert configured_name(settings) in PINNED
    assert configured_name(Settings(embedder="openai")) is None
