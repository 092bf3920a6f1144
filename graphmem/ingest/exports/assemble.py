"""Messages of an export into a ``Dataset``: conversations in the order they first
appear, sessions split where the export has none, every message validated as a JSONL
message is (``graphmem.ingest.jsonl``), so an export and a JSONL file of the same messages
load the same.

Sessions: chat apps have none, so a session is a run of messages with no pause longer than
``session_gap_minutes`` (default 240: a break of an afternoon ends a sitting; a setting,
``GRAPHMEM_IMPORT_SESSION_GAP_MINUTES``). An undated message stays in the session of the
message before it. A session is named by the date of its first dated message
(``2024-03-02``; the day's second ``2024-03-02.2``), ``undated`` when it has none: names that
stay the same when a later export of the chat holds more messages, so a second import only
adds (and rewrites the last session when it grew).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

from graphmem.errors import InputError
from graphmem.ingest.exports.base import Context, Message
from graphmem.ingest.jsonl import as_dataset, jsonl_conversations
from graphmem.ingest.models import Dataset
from graphmem.ingest.validate import Skips


def to_dataset(messages: Iterable[Message], ctx: Context, fmt: str, strict: bool) -> Dataset:
    """The dataset of ``messages`` (InputError naming the record of a bad one)."""
    grouped: dict[str, list[Message]] = {}
    titles: dict[str, str] = {}
    for message in messages:
        grouped.setdefault(message.conversation, []).append(message)
        if message.title and message.conversation not in titles:
            titles[message.conversation] = message.title
    if not grouped:
        raise InputError(
            f"holds no conversation messages{_left_said(ctx)}",
            path=ctx.src,
            hint="check that this is the export of a chat with messages in it",
        )
    gap = timedelta(minutes=ctx.options.session_gap_minutes)
    skips = Skips(strict)
    conversations = []
    for cid in list(grouped):  # each conversation's messages let go once it is built
        rows = _records(cid, grouped.pop(cid), gap)
        for conversation in jsonl_conversations(rows, skips, ctx.src):
            meta = _meta(fmt, titles.get(conversation.conversation_id))
            conversations.append(conversation.model_copy(update={"meta": meta}))
    dataset = as_dataset(conversations, ctx.src, skips)
    left = dict(sorted(ctx.left.items()))
    skipped = dataset.skipped.model_copy(update={"left_out": left, "notes": list(ctx.notes)})
    return dataset.model_copy(update={"skipped": skipped})


def _meta(fmt: str, title: str | None) -> dict[str, Any]:
    return {"format": fmt} | ({"title": title} if title else {})


def _left_said(ctx: Context) -> str:
    if not ctx.left:
        return ""
    return " (left out: " + ", ".join(f"{n} {kind}" for kind, n in sorted(ctx.left.items())) + ")"


def _records(cid: str, messages: list[Message], gap: timedelta) -> Iterator[tuple[str, Any]]:
    named = all(m.session is not None for m in messages)
    sessions = _by_name(messages) if named else _by_gap(messages, gap)
    for session, members in sessions:
        for m in members:
            row: dict[str, Any] = {
                "conversation": cid,
                "session": session,
                "speaker": m.speaker,
                "text": f"{m.text.rstrip()} [{m.note}]" if m.note else m.text,
                "timestamp": m.timestamp,
            }
            if m.id is not None:
                row["id"] = m.id
            if m.caption is not None:
                row["caption"] = m.caption
            yield m.record, row


def _by_name(messages: list[Message]) -> list[tuple[str, list[Message]]]:
    found: dict[str, list[Message]] = {}
    for m in messages:
        found.setdefault(str(m.session), []).append(m)
    return list(found.items())


def _by_gap(messages: list[Message], gap: timedelta) -> list[tuple[str, list[Message]]]:
    runs: list[list[Message]] = []
    last: datetime | None = None
    for m in messages:
        if not runs or (m.timestamp and last and m.timestamp - last > gap):
            runs.append([])
        runs[-1].append(m)
        last = m.timestamp or last
    return _named(runs)


def _named(runs: list[list[Message]]) -> list[tuple[str, list[Message]]]:
    """Each run by the date of its first dated message, numbered within that date."""
    seen: dict[str, int] = {}
    out = []
    for run in runs:
        first = next((m.timestamp for m in run if m.timestamp), None)
        day = first.date().isoformat() if first else "undated"
        seen[day] = seen.get(day, 0) + 1
        out.append((day if seen[day] == 1 else f"{day}.{seen[day]}", run))
    return out
