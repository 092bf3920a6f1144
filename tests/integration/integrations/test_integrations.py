"""The framework adapters against the real libraries and the real Neo4j: LangChain's
retriever and chat history, LlamaIndex's retriever and memory block, over a tiny
conversation (tests/integration/helpers.py)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.errors import InputError
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration
QUESTION = "Where is Ana's sister moving?"  # D1:3: "My sister is moving to Toronto ..."


def _forget(store: GraphStore, space: str) -> None:
    while store.write("core.delete_space_batch", space=space, batch=5000)[0]["deleted"]:
        pass


@pytest.fixture(scope="module")
def memory(settings: Settings, store: GraphStore) -> Iterator[Memory]:
    yield Memory(settings, store=store)  # the store fixture closes the driver


@pytest.fixture(scope="module")
def tiny_space(memory: Memory, store: GraphStore) -> Iterator[str]:
    """One session of the tiny conversation, with SEEM's memories built over it."""
    space = f"test-integrations-{uuid.uuid4().hex[:8]}"
    conv = tiny_conversation("conv-int", sessions=1)
    memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders=["seem"])
    yield space
    _forget(store, space)


@pytest.fixture
def fresh_space(store: GraphStore) -> Iterator[str]:
    space = f"test-integrations-{uuid.uuid4().hex[:8]}"
    yield space
    _forget(store, space)


def _check_cited(texts: list[str], metas: list[dict[str, Any]], space: str) -> None:
    """The items of one query as a framework carries them: turn ids, kind, strategy."""
    assert texts and len(texts) == len(metas)
    pairs = zip(texts, metas, strict=True)
    # turn ids: <conversation>/<source id>, unique however many conversations a space holds
    assert any(
        any(t.endswith("/D1:3") for t in meta["turns"]) and "Toronto" in text
        for text, meta in pairs
    )
    for meta in metas:
        assert meta["space"] == space and meta["turns"] and meta["strategy"]
        assert meta["kind"] == "passage" or meta["source_id"] is None
        if meta["kind"] == "passage":
            assert meta["turn_id"] == f"{meta['conversation']}/{meta['source_id']}"
            assert meta["turns"] == [meta["turn_id"]]
    assert [m["rank"] for m in metas] == list(range(len(metas)))
    assert sum(int(m["tokens"]) for m in metas) <= 300


def test_langchain_retriever_returns_cited_documents(memory: Memory, tiny_space: str) -> None:
    from langchain_core.documents import Document

    from graphmem.integrations.langchain import GraphmemRetriever

    retriever = GraphmemRetriever(memory=memory, space=tiny_space, budget=300)
    docs = retriever.invoke(QUESTION)
    assert all(isinstance(d, Document) for d in docs)
    _check_cited([d.page_content for d in docs], [d.metadata for d in docs], tiny_space)
    assert [d.page_content for d in asyncio.run(retriever.ainvoke(QUESTION))] == [
        d.page_content for d in docs
    ]


def test_llamaindex_retriever_returns_cited_nodes(memory: Memory, tiny_space: str) -> None:
    from llama_index.core.schema import NodeWithScore

    from graphmem.integrations.llamaindex import GraphmemRetriever

    retriever = GraphmemRetriever(memory, tiny_space, budget=300)
    nodes = retriever.retrieve(QUESTION)
    assert all(isinstance(n, NodeWithScore) for n in nodes)
    _check_cited(
        [n.node.get_content() for n in nodes], [n.node.metadata for n in nodes], tiny_space
    )
    assert len(asyncio.run(retriever.aretrieve(QUESTION))) == len(nodes)


def test_langchain_chat_history_writes_through_add_messages(
    memory: Memory, fresh_space: str
) -> None:
    from langchain_core.messages import AIMessage, HumanMessage

    from graphmem.integrations.langchain import GraphmemChatHistory, GraphmemRetriever

    history = GraphmemChatHistory(memory, fresh_space, "chat-1", "s1", builders=[])
    assert history.messages == []
    history.add_messages([HumanMessage("My sister is moving to Toronto for a robotics job.")])
    history.add_messages([AIMessage("Exciting! When does she leave?"), HumanMessage("In May.")])
    back = history.messages
    assert [(m.type, m.text) for m in back] == [
        ("human", "My sister is moving to Toronto for a robotics job."),
        ("ai", "Exciting! When does she leave?"),
        ("human", "In May."),
    ]
    assert len({m.id for m in back}) == 3  # each turn's id: what the retriever cites
    with pytest.raises(InputError, match="text"):  # validated before anything is written
        history.add_messages([HumanMessage("   ")])
    assert len(history.messages) == 3
    docs = GraphmemRetriever(memory=memory, space=fresh_space).invoke("Which city, Toronto?")
    cited = [d for d in docs if back[0].id in d.metadata["turns"]]
    assert cited and "Toronto" in cited[0].page_content
    history.clear()  # the session is forgotten, as if never stored
    assert history.messages == []
    with pytest.raises(InputError, match="holds no memories"):  # as before the first write
        GraphmemRetriever(memory=memory, space=fresh_space).invoke("Which city, Toronto?")
    history.clear()  # nothing stored: nothing to clear


def test_llamaindex_memory_block_puts_and_gets(memory: Memory, fresh_space: str) -> None:
    from llama_index.core.base.llms.types import ChatMessage, MessageRole

    from graphmem.integrations.llamaindex import GraphmemMemoryBlock

    block = GraphmemMemoryBlock(
        memory=memory, space=fresh_space, conversation="chat-2", session="s1", builders=[]
    )
    said = [
        ChatMessage(role=MessageRole.USER, content="I adopted a grey kitten named Pixel."),
        ChatMessage(role=MessageRole.ASSISTANT, content="Pixel is a lovely name!"),
    ]
    asyncio.run(block.aput(said))
    asyncio.run(block.aput([ChatMessage(role=MessageRole.USER, content="She likes tuna.")]))
    asked = [ChatMessage(role=MessageRole.USER, content="What is my kitten called?")]
    context = asyncio.run(block.aget(asked))
    assert "Pixel" in context and "[s1:0] user:" in context and "date unknown" not in context
    assert "assistant: Pixel is a lovely name!" in context
    assert asyncio.run(block.aget([])) == ""
    asyncio.run(block.areset())  # the session is forgotten, as if never stored
    with pytest.raises(InputError, match="holds no memories"):  # as before the first put
        asyncio.run(block.aget(asked))
    block.reset()  # nothing stored: nothing to forget
