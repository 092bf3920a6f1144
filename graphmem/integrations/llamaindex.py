"""LlamaIndex: graphmem as a retriever and as a memory block
(``pip install 'graphmem[llamaindex]'``, llama-index-core 0.14).

``GraphmemRetriever`` returns ``Memory.query``'s cited items as ``NodeWithScore``s in rank
order, within the token budget (graphmem fuses several rankings, so there is no comparable
score: ``score`` is None); each ``TextNode``'s metadata holds the turn ids it cites
(``turns``), its ``kind`` and the ``strategy`` that found it. ``GraphmemMemoryBlock`` is a
long-term block for ``llama_index.core.memory.Memory``: it answers with the rendered context
for the latest message and stores the messages the short-term memory flushes to it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import BaseMemoryBlock
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from pydantic import field_validator

from graphmem.errors import UnknownIdError
from graphmem.integrations.items import Budget, Strategy, append_to_session, cited_items
from graphmem.memory import Memory
from graphmem.serving.limits import (
    DEFAULT_BUDGET,
    DEFAULT_BUILDERS,
    DEFAULT_STRATEGY,
    BuilderChoice,
    check_budget,
    check_strategy,
    parse_builders,
)


class GraphmemRetriever(BaseRetriever):
    """Nodes for a question from one space: ``GraphmemRetriever(memory, "alice")``."""

    def __init__(
        self,
        memory: Memory,
        space: str,
        strategy: str = DEFAULT_STRATEGY,
        budget: int = DEFAULT_BUDGET,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.memory = memory
        self.space = space
        # Checked when made, as every surface checks them (graphmem.serving.limits): an InputError.
        self.strategy = check_strategy(strategy)
        self.budget = check_budget(budget)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        found = self.memory.query(query_bundle.query_str, self.space, self.strategy, self.budget)
        return [
            NodeWithScore(node=TextNode(text=item.text, metadata=item.metadata), score=None)
            for item in cited_items(found, self.space)
        ]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return await asyncio.to_thread(self._retrieve, query_bundle)


class GraphmemMemoryBlock(BaseMemoryBlock[str]):
    """Long-term memory of one space. ``aget`` queries with the text of the latest message
    and returns the cited context (empty without messages); ``aput`` appends the messages
    to session ``session`` of ``conversation`` (user messages said by ``user``, the rest by
    their role) and runs ``builders`` (default all)."""

    memory: Memory
    space: str
    conversation: str
    session: str
    name: str = "graphmem"
    strategy: Strategy = DEFAULT_STRATEGY
    budget: Budget = DEFAULT_BUDGET
    user: str = "user"
    builders: list[str] | str = DEFAULT_BUILDERS  # "all", "none", a comma string or a list

    @field_validator("builders")
    @classmethod
    def _check_builders(cls, value: BuilderChoice) -> list[str]:
        return parse_builders(value)

    async def _aget(self, messages: list[ChatMessage] | None = None, **kwargs: Any) -> str:
        question = next((m.content for m in reversed(messages or []) if m.content), None)
        if not question:
            return ""
        found = await asyncio.to_thread(
            self.memory.query, question, self.space, self.strategy, self.budget
        )
        return found.context.render()

    def reset(self) -> None:
        """Forget this block's session (``Memory.forget(space, session=, conversation=)``);
        LlamaIndex's ``Memory.reset`` clears its own store only, so call this too. A
        session not stored yet has nothing to forget."""
        try:
            self.memory.forget(self.space, session=self.session, conversation=self.conversation)
        except UnknownIdError:
            return

    async def areset(self) -> None:
        await asyncio.to_thread(self.reset)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        rows = [
            {
                "speaker": self.user if m.role == MessageRole.USER else m.role.value,
                "text": m.content,
            }
            for m in messages
            if m.content  # tool calls without text hold nothing to remember
        ]
        await asyncio.to_thread(
            append_to_session,
            self.memory,
            self.space,
            self.conversation,
            self.session,
            rows,
            self.builders,
        )
