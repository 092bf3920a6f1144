"""What every framework adapter hands back: graphmem's cited items as (text, metadata), and
the turns of one stored session. No framework is imported here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator

from graphmem.ingest.models import Turn
from graphmem.ingest.stored import stored_sessions
from graphmem.ingest.writer import content_id
from graphmem.memory import Memory
from graphmem.serving.limits import BuilderChoice, check_budget, check_strategy
from graphmem.types import QueryResult

# An adapter's strategy and budget, checked when it is made as every surface checks them
# (graphmem.serving.limits): an InputError, not pydantic's own.
Strategy = Annotated[str, AfterValidator(check_strategy)]
Budget = Annotated[int, AfterValidator(check_budget)]


@dataclass(frozen=True)
class CitedItem:
    """One item of a packed context: a turn, or a memory derived from turns."""

    text: str
    metadata: dict[str, Any]


def cited_items(found: QueryResult, space: str) -> list[CitedItem]:
    """The items of ``found`` in the order the strategy ranked them. ``turns`` in the
    metadata are the citations: the turn ids a memory comes from (a turn: its own id)."""
    out = []
    for rank, item in enumerate(found.context.items):
        passage = item.passage
        metadata: dict[str, Any] = {
            "space": space,
            "kind": item.kind,
            "turns": [t.turn_id for t in item.turns],
            # a turn's id in the space (<conversation>/<source_id>), its parts apart
            "turn_id": passage.turn_id if passage else None,
            "conversation": passage.conversation if passage else None,
            "source_id": passage.source_id if passage else None,
            "date": passage.date_text if passage else None,
            "strategy": item.strategy,
            "query_strategy": found.result.strategy,
            "rank": rank,
            "tokens": item.tokens,
        }
        out.append(CitedItem(item.text, metadata))
    return out


def session_turns(memory: Memory, space: str, conversation: str, session: str) -> list[Turn]:
    """The stored turns of one session, in order; none when it is not stored."""
    # The session node's id as the writer derives it (graphmem/ingest/writer.py session_id)
    found = stored_sessions(memory.store, space, [content_id(conversation, "session", session)])
    return sorted(found[0].turns, key=lambda t: t.index) if found else []


def turn_message(turn: Turn) -> dict[str, Any]:
    """A stored turn as ``Memory.add_messages`` takes it back (a session is rewritten whole)."""
    return {
        "speaker": turn.speaker,
        "text": turn.text,
        "id": turn.source_id,
        "timestamp": turn.timestamp,
        "caption": turn.caption,
    }


def now() -> datetime:
    """A new message's time: naive local time, as the ingest stores stamps."""
    return datetime.now().replace(microsecond=0)


def append_to_session(
    memory: Memory,
    space: str,
    conversation: str,
    session: str,
    messages: Sequence[dict[str, Any]],
    builders: BuilderChoice,
) -> None:
    """Append ``messages`` (``Memory.add_messages`` rows; a missing ``timestamp`` is now) to
    a session: the stored turns and these are written back as the whole session, validated
    before anything is written."""
    if not messages:
        return
    at = now()
    rows = [turn_message(t) for t in session_turns(memory, space, conversation, session)]
    rows.extend({**row, "timestamp": row.get("timestamp") or at} for row in messages)
    # The session's date is its first turn's: the rendered context dates its excerpts by it
    started = rows[0]["timestamp"]
    memory.add_messages(space, conversation, session, rows, started, builders)
