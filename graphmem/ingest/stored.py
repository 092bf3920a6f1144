"""Sessions read back from the graph, for builders that must rebuild a session the current
input does not hold (``add_messages`` rewrote a later session, and a derived node that also
came from this one was deleted as stale); and the check that a session added on its own
reuses no turn id of its conversation's stored sessions."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from graphmem.errors import InputError
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, SessionIn, Turn


def _naive(value: Any) -> datetime | None:
    if value is None:
        return None
    native = value.to_native() if hasattr(value, "to_native") else value
    return native.replace(tzinfo=None) if isinstance(native, datetime) else None


def stored_sessions(store: GraphStore, space: str, session_ids: Collection[str]) -> list[SessionIn]:
    rows = store.read("core.session_turns", space=space, session_ids=list(session_ids))
    return [
        SessionIn(
            index=row["index"],
            source_id=row["source_id"],
            started_at=_naive(row["started_at"]),
            source_date=row["date_text"],
            turns=[
                Turn(
                    source_id=t["source_id"],
                    speaker=t["speaker"],
                    text=t["text"],
                    caption=t["caption"],
                    timestamp=_naive(t["ts"]),
                    index=t["turn_index"],
                )
                for t in row["turns"]
            ],
        )
        for row in rows
    ]


def check_turn_ids(store: GraphStore, space: str, conversation_id: str, session: SessionIn) -> None:
    """A turn id names one turn of a conversation (citations and evidence refer to it), as
    within a file: InputError when another stored session of the conversation uses one of
    ``session``'s."""
    rows = store.read(
        "core.turn_ids_elsewhere",
        space=space,
        conversation_id=conversation_id,
        source_id=session.source_id,
        ids=[t.source_id for t in session.turns],
    )
    if rows:
        turn, other = rows[0]["turn"], rows[0]["session"]
        at = next(t.index for t in session.turns if t.source_id == turn)
        raise InputError(
            f"duplicate id {turn!r}, already used in session {other!r} of conversation "
            f"{conversation_id!r}",
            record=f"message {at}",
            field="id",
        )


def place_sessions(store: GraphStore, space: str, conv: ConversationIn) -> ConversationIn:
    """``conv`` with each session at its place in the stored conversation: a stored session
    (the same source id) keeps its index, a new one comes after the stored ones, in input
    order. A file's sessions are numbered from 0 however many the space holds already, so
    a second file of a conversation would otherwise sort among the first's. Returned in
    index order, the order the writer chains them in. A fresh space keeps the file's
    numbering, so every evaluation space is numbered as before."""
    rows = store.read(
        "core.conversation_sessions", space=space, conversation_id=conv.conversation_id
    )
    if not rows:
        return conv
    stored = {row["source_id"]: int(row["index"]) for row in rows}
    following = max(stored.values()) + 1
    placed = []
    for session in conv.sessions:
        index = stored.get(session.source_id)
        if index is None:
            index, following = following, following + 1
        placed.append(session.model_copy(update={"index": index}))
    placed.sort(key=lambda s: s.index)
    return conv.model_copy(update={"sessions": placed})


def unbuilt_conversations(store: GraphStore, space: str, builder: str) -> list[ConversationIn]:
    """The conversations of ``space`` with a session ``builder`` has not completed, each
    without sessions: the builder reads them back from the graph (``Memory._pending``). An
    ingest that rewrote one conversation's session may have released what another's fed (a
    memory both said, the other written earlier in the same input or before it), which
    must then be built again."""
    rows = store.read("core.unbuilt_conversations", space=space, builder=builder)
    return [
        ConversationIn(
            conversation_id=row["conversation"],
            speakers=list(row["speakers"]),
            sessions=[],
            meta={"format": "stored"},
        )
        for row in rows
    ]
