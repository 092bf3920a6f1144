"""What a loaded input holds, before anything is written: ``graphmem ingest --dry-run``
prints it, so a user sees what a large export would add (and what is left out) first."""

from __future__ import annotations

from collections import Counter
from typing import Any

from graphmem.ingest.models import Dataset

TOP_SPEAKERS = 5


def summarize(dataset: Dataset) -> dict[str, Any]:
    """Counts, the time span, the most frequent speakers and what the load left out."""
    turns = [t for c in dataset.conversations for s in c.sessions for t in s.turns]
    stamps = [t.timestamp for t in turns if t.timestamp is not None]
    by_speaker = Counter(t.speaker for t in turns)
    return {
        "formats": sorted({str(c.meta.get("format", "")) for c in dataset.conversations}),
        "conversations": len(dataset.conversations),
        "sessions": sum(len(c.sessions) for c in dataset.conversations),
        "turns": len(turns),
        "undated_turns": len(turns) - len(stamps),
        "first": min(stamps).isoformat(sep=" ", timespec="seconds") if stamps else None,
        "last": max(stamps).isoformat(sep=" ", timespec="seconds") if stamps else None,
        "speakers": len(by_speaker),
        "top_speakers": [
            {"speaker": name, "turns": n} for name, n in by_speaker.most_common(TOP_SPEAKERS)
        ],
        "skipped": dataset.skipped.model_dump(exclude={"by_conversation"}),
    }
