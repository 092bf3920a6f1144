"""Sessions read back from the graph, for builders that must rebuild a session the current
input does not hold (``add_messages`` rewrote a later session, and a derived node that also
came from this one was deleted as stale)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

from graphmem.ingest.models import SessionIn, Turn
from graphmem.store import GraphStore


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
