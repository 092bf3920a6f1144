"""LangChain: graphmem as a retriever and as a chat message history
(``pip install 'graphmem[langchain]'``, langchain-core 1.x).

``GraphmemRetriever`` returns ``Memory.query``'s cited items as ``Document``s, in rank
order, within the token budget; each document's metadata holds the turn ids it cites
(``turns``), its ``kind`` (``passage`` for a turn, else the memory's label) and the
``strategy`` that found it. ``GraphmemChatHistory`` keeps one session of a conversation:
``add_messages`` writes through ``Memory.add_messages`` (the session so far, rewritten in one
transaction, then the builders), ``messages`` reads the stored turns back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from graphmem.errors import UnknownIdError
from graphmem.integrations.items import (
    Budget,
    Strategy,
    append_to_session,
    cited_items,
    session_turns,
)
from graphmem.memory import Memory
from graphmem.serving.limits import (
    DEFAULT_BUDGET,
    DEFAULT_BUILDERS,
    DEFAULT_STRATEGY,
    BuilderChoice,
    parse_builders,
)


class GraphmemRetriever(BaseRetriever):
    """Documents for a question from one space: ``GraphmemRetriever(memory=m, space="alice")``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    memory: Memory
    space: str
    strategy: Strategy = DEFAULT_STRATEGY
    budget: Budget = DEFAULT_BUDGET

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        found = self.memory.query(query, self.space, self.strategy, self.budget)
        return [
            Document(page_content=item.text, metadata=item.metadata)
            for item in cited_items(found, self.space)
        ]


class GraphmemChatHistory(BaseChatMessageHistory):
    """One session of a conversation in a space, stored as graphmem turns.

    Human messages are said by ``user`` and AI messages by ``assistant`` (a message's
    ``name``, when set, is its speaker instead); each turn keeps the message's ``id`` if it
    has one and the time it was added. ``builders`` run after every write (default: all;
    ``"none"`` or ``[]`` stores the turns only, as ``graphmem ingest --builders none``)."""

    def __init__(
        self,
        memory: Memory,
        space: str,
        conversation: str,
        session: str,
        *,
        user: str = "user",
        assistant: str = "assistant",
        builders: BuilderChoice = DEFAULT_BUILDERS,
    ) -> None:
        self.memory = memory
        self.space = space
        self.conversation = conversation
        self.session = session
        self.user = user
        self.assistant = assistant
        self.builders = parse_builders(builders)

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        turns = session_turns(self.memory, self.space, self.conversation, self.session)
        out: list[BaseMessage] = []
        for turn in turns:
            kind = AIMessage if turn.speaker == self.assistant else HumanMessage
            name = None if turn.speaker in (self.user, self.assistant) else turn.speaker
            # The turn id a retriever's metadata cites it by (<conversation>/<source id>).
            turn_id = f"{self.conversation}/{turn.source_id}"
            out.append(kind(content=turn.text, id=turn_id, name=name))
        return out

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        """Append ``messages`` to the session (the session is rewritten whole)."""
        rows = [self._row(message) for message in messages]
        append_to_session(
            self.memory, self.space, self.conversation, self.session, rows, self.builders
        )

    def _row(self, message: BaseMessage) -> dict[str, Any]:
        speaker = message.name or (self.assistant if message.type == "ai" else self.user)
        row: dict[str, Any] = {"speaker": speaker, "text": message.text}
        if message.id:
            row["id"] = message.id
        return row

    def clear(self) -> None:
        """Forget this session (``Memory.forget(space, session=, conversation=)``): what it
        fed is built again without it. A session not stored yet has nothing to clear."""
        try:
            self.memory.forget(self.space, session=self.session, conversation=self.conversation)
        except UnknownIdError:
            return
