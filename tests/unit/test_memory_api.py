"""The Python API's shape: typed results, one LLM client per Memory reaching retrieval, and
a spaCy pipeline per Memory (a context variable, not a process global). No server: a
``Memory`` does no I/O until a call needs it, and these need none."""

from __future__ import annotations

import contextvars
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import spacy
from pydantic import BaseModel

import graphmem
from graphmem.config import Settings
from graphmem.designs.amory.retriever import AmoryRetriever
from graphmem.ingest.writer import IngestReport
from graphmem.llm import Message, StructuredLLM
from graphmem.memory import Memory
from graphmem.nlp.spacy_loader import AUTO, current_model, get_nlp
from graphmem.plugin.builder import BuildReport
from graphmem.plugin.retriever import Hit, PassageRef, RetrievalResult
from graphmem.retrieval.packer import pack
from graphmem.types import AskResult, IngestResult, QueryResult

T = TypeVar("T", bound=BaseModel)


class Silent(StructuredLLM):
    """Never called: these tests only follow where the client goes."""

    def __init__(self) -> None:
        super().__init__(concurrency=1)

    @property
    def model_name(self) -> str:
        return "silent"

    def generate(self, messages: Sequence[Message], schema: type[T]) -> T:
        raise AssertionError("no LLM call expected")


def test_the_package_exports_memory_and_its_result_types() -> None:
    assert graphmem.Memory is Memory
    assert (graphmem.IngestResult, graphmem.QueryResult, graphmem.AskResult) == (
        IngestResult,
        QueryResult,
        AskResult,
    )


def test_results_are_typed_and_serialise_as_the_servers_return_them() -> None:
    built = BuildReport("seem", sessions=2, counts={"frames": 3})
    done = IngestResult(report=IngestReport(conversations=1, passages_written=4), builds=[built])
    data = done.as_dict()
    assert data["passages_written"] == 4 and data["builders"] == [built.as_dict()]

    ref = PassageRef(id="p1", source_id="D1:1", speaker="Ana", text="We moved to Lisbon.")
    hit = Hit(node_id="p1", label="Passage", score=1.0, strategy="fulltext", passages=[ref])
    result = RetrievalResult(query="Where?", strategy="fulltext", hits=[hit])
    asked = AskResult(
        result=result, context=pack([hit], 100, lambda t: len(t.split())), answer="Lisbon"
    )
    assert isinstance(asked, QueryResult)
    assert asked.as_dict()["answer"] == "Lisbon"
    assert asked.as_dict()["citations"] == ["D1:1"]


def test_the_memorys_llm_reaches_retrieval(tmp_path: Path) -> None:
    llm = Silent()
    memory = Memory(Settings(), llm=llm)
    ctx = memory.retrieval_context("api-space")
    assert ctx.llm is llm
    # It used to build a client of its own.
    assert AmoryRetriever(ctx, ctx.configs.get("amory")).llm is llm


def test_two_memories_analyse_with_their_own_spacy_pipeline(tmp_path: Path) -> None:
    # One English pipeline is installed: the second is spaCy's blank English one, saved to a
    # directory (GRAPHMEM_SPACY_MODEL may name a path), which has no named entities.
    blank = tmp_path / "blank-en"
    spacy.blank("en").to_disk(blank)
    full = Memory(Settings())
    bare = Memory(Settings(spacy_model=str(blank)))
    text = "Caroline moved to Lisbon in May 2023."

    def entities() -> int:
        return len(get_nlp()(text).ents)

    with full.nlp_context():
        assert entities() > 0
        with bare.nlp_context():
            assert entities() == 0
            with ThreadPoolExecutor(2) as pool:  # a thread that copies the context
                assert pool.submit(contextvars.copy_context().run, entities).result() == 0
        assert entities() > 0
    assert current_model() == AUTO
