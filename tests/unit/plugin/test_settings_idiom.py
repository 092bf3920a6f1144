"""One settings idiom (issue 58): every builder and retriever keeps the settings its design's
factory was given as ``self.settings``; ``Retriever.retrieve`` times ``_retrieve``."""

from __future__ import annotations

from graphmem.builders.registry import build_builders, builder_names
from graphmem.config import Settings
from graphmem.memory import Memory
from graphmem.plugin import BuildContext, NoSettings, RetrievalResult, Retriever
from graphmem.plugin.registry import strategy_owner
from graphmem.retrieval.registry import build_retriever, strategy_names
from graphmem.semantic import SemanticRetriever
from graphmem.validity.retrieval import ValidTimeRetriever


def _memory() -> Memory:
    return Memory(Settings())  # constructing retrievers and builders does no I/O


def test_every_strategy_keeps_its_designs_settings() -> None:
    ctx = _memory().retrieval_context("idiom-space")
    for name in strategy_names():
        owner, _ = strategy_owner(name)
        made = build_retriever(name, ctx, valid_time=False)
        assert made.settings is ctx.configs.get(owner.name), name
        if isinstance(made, SemanticRetriever):  # and the semantic layer's, for HippoRAG 2
            assert made.semantic is ctx.configs.get("semantic"), name


def test_the_valid_time_wrapper_has_its_strategys_settings() -> None:
    ctx = _memory().retrieval_context("idiom-space")
    wrapped = build_retriever("seem", ctx)
    assert isinstance(wrapped, ValidTimeRetriever)
    assert wrapped.settings is wrapped.inner.settings is ctx.configs.get("seem")


def test_every_builder_keeps_its_designs_settings() -> None:
    memory = _memory()
    ctx = BuildContext(memory.store, memory.embedder, memory.settings, "idiom-space")
    for builder in build_builders(builder_names(), ctx):
        assert builder.settings is ctx.configs.get(builder.name), builder.name


class _Parts(Retriever[NoSettings]):
    name = "parts"

    def _retrieve(self, query: str, budget: int) -> RetrievalResult:
        return RetrievalResult(query=query, strategy=self.name, hits=[], timings_ms={"a": 1.0})


def test_retrieve_adds_the_total_after_the_retrievers_own_timings() -> None:
    retriever = _Parts(_memory().retrieval_context("idiom-space"), NoSettings())
    result = retriever.retrieve("anything", 100)
    assert list(result.timings_ms) == ["a", "total"]
    assert result.timings_ms["a"] == 1.0 and result.timings_ms["total"] >= 0.0
