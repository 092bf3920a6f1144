"""A space's conversations as graphmem JSONL (``graphmem export``), every field kept: turn
ids, speakers, texts, timestamps, captions, a session's date as its source wrote it
(``session_date``) and a conversation's title. Ingesting the file into a fresh space
builds the same graph (``stats --digest``; docs/privacy.md).

A turn's position in its session is part of the graph (an empty message of the input, or
a forgotten turn, leaves a gap): a gap is written as an empty message, which a load leaves
out and counts, so the turns after it keep their positions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from graphmem.graph.store import GraphStore
from graphmem.ingest.models import SessionIn
from graphmem.ingest.stored import stored_sessions
from graphmem.ingest.writer import session_date_text


def export_space(store: GraphStore, space: str) -> Iterator[dict[str, Any]]:
    """The messages of ``space``, conversation by conversation in the order they were
    first stored, session by session, turn by turn."""
    for row in store.read("core.export_conversations", space=space):
        title = row["title"]
        for session in stored_sessions(store, space, row["sessions"]):
            for message in _session_messages(row["conversation"], session):
                if title:
                    message["title"], title = title, None
                yield message


def _session_messages(conversation: str, session: SessionIn) -> Iterator[dict[str, Any]]:
    derived = session_date_text(session.model_copy(update={"source_date": None}))
    said = session.source_date if session.source_date != derived else None
    position = 0
    for turn in session.turns:
        base = {"conversation": conversation, "session": session.source_id}
        for _ in range(position, turn.index):  # a gap: an empty message, left out on load
            yield {**base, "speaker": turn.speaker, "text": ""}
        message: dict[str, Any] = {
            **base,
            "id": turn.source_id,
            "speaker": turn.speaker,
            "text": turn.text,
        }
        if turn.timestamp is not None:
            message["timestamp"] = turn.timestamp.isoformat()
        if turn.caption is not None:
            message["caption"] = turn.caption
        if said is not None:
            message["session_date"], said = said, None
        position = turn.index + 1
        yield message


def write_jsonl(path: Path, messages: Iterator[dict[str, Any]]) -> int:
    """Write ``messages`` one per line to ``path``, replacing it whole (a reader never
    sees half a file), readable by its owner only (0600: it holds what users said). The
    lines written."""
    partial = path.with_name(path.name + ".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)  # a partial left by a killed run keeps its old mode otherwise
    lines = 0
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        for message in messages:
            handle.write(json.dumps(message, ensure_ascii=False) + "\n")
            lines += 1
    os.replace(partial, path)
    return lines
