"""What every retriever returns: ranked ``Hit``s citing ``PassageRef`` turns, in a
``RetrievalResult``. Plain data, so the packer and the retrievers share it without
importing each other (``graphmem.plugin.retriever`` re-exports it)."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from graphmem.ingest.render import render_turn


class PassageRef(BaseModel):
    """One source turn, as stored on its ``Passage`` node."""

    model_config = ConfigDict(frozen=True)

    id: str
    source_id: str
    speaker: str
    text: str
    caption: str | None = None
    ts: datetime | None = None
    date_text: str | None = None
    session_index: int = 0
    turn_index: int = 0
    tokens: int | None = None
    # The conversation the turn belongs to: a space may hold several, each numbering its
    # sessions and turns from the start, so a source id alone names a turn only within it.
    conversation: str = ""
    # What the reader is told about the turn besides what was said (valid time: "(until
    # 30 May 2023, then [D5:3])", graphmem/validity/retrieval.py).
    note: str | None = None

    @field_validator("ts", mode="before")
    @classmethod
    def _native_ts(cls, value: Any) -> Any:
        # The driver returns Neo4j temporal types; callers compare datetimes.
        return value.to_native() if hasattr(value, "to_native") else value

    @functools.cached_property
    def line(self) -> str:
        """The turn as the reader sees it (``graphmem.ingest.render.render_turn``), made once per
        ref: a query's packing prices the same few hundred turns a dozen times, and the
        token counter finds a kept string by its kept hash."""
        said = render_turn(self.speaker, self.text, caption=self.caption, source_id=self.source_id)
        return f"{said} {self.note}" if self.note else said

    @property
    def turn_id(self) -> str:
        """The turn's id in its space: ``<conversation>/<source id>``, unique however many
        conversations the space holds, and the same after any re-ingest of the turn."""
        return f"{self.conversation}/{self.source_id}" if self.conversation else self.source_id

    @property
    def order(self) -> tuple[str, int, int]:
        """Where the turn sits: by conversation, then in conversation order."""
        return (self.conversation, self.session_index, self.turn_index)

    @functools.cached_property
    def qualified_line(self) -> str:
        """``line`` cited by ``turn_id``: how a context that holds turns of several
        conversations shows it."""
        said = render_turn(self.speaker, self.text, caption=self.caption, source_id=self.turn_id)
        return f"{said} {self.note}" if self.note else said

    @classmethod
    def from_row(cls, row: dict[str, Any] | PassageRef) -> PassageRef:
        """From a ``p {@passage}`` map (``cypher/fragments/passage.fragment``); a snapshot
        that converted its rows once hands the (frozen) refs themselves."""
        if isinstance(row, PassageRef):
            return row
        return cls.model_validate({k: row[k] for k in cls.model_fields if k in row})


class Hit(BaseModel):
    """A ranked memory. ``text`` is what the reader sees for a derived node (a fact, a
    frame summary); for a passage hit it is empty and the passage itself is shown."""

    node_id: str
    label: str
    score: float
    strategy: str
    path: list[str] = Field(default_factory=list)
    text: str = ""
    passages: list[PassageRef] = Field(default_factory=list)
    # The reader sees only ``text``: the passages are what the item stands in for (PREMem's
    # fragments). They count as citations and evidence but are neither shown nor charged.
    cite_only: bool = False
    # A later memory replaced this one (graphmem/validity/retrieval.py): the context shows
    # it after the current ones, marked with its interval.
    superseded: bool = False


class RetrievalResult(BaseModel):
    query: str
    strategy: str
    hits: list[Hit]
    timings_ms: dict[str, float] = Field(default_factory=dict)
    # What the strategy wants the user to know about this answer as a whole (the
    # cross-design strategy: which designs voted, which the space lacks); ``--explain``.
    notes: list[str] = Field(default_factory=list)

    def ranked_source_ids(self) -> list[str]:
        """Source turn ids in hit order, each once: the list recall@k is measured on."""
        seen: dict[str, None] = {}
        for hit in self.hits:
            for passage in hit.passages:
                seen.setdefault(passage.source_id, None)
        return list(seen)
