"""The JSONL message format, and the message dicts of ``Memory.add_messages``.

Both go through :func:`message_turn`, so a message is validated the same way whether it
comes from a file or from the Python API.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from graphmem.errors import InputError
from graphmem.ingest.models import ConversationIn, Dataset, SessionIn, Turn
from graphmem.ingest.validate import Rec, type_name


def load_jsonl(records: Iterable[tuple[str, Any]], src: str) -> Dataset:
    """``records``: ``(record name, parsed message)``, read as they come (a file's lines)."""
    # conversation -> session -> [(record, message)]; dicts keep first-appearance order
    grouped: dict[str, dict[str, list[tuple[Rec, dict[str, Any]]]]] = {}
    for record, raw in records:
        rec = Rec(src, record)
        msg = rec.obj(raw)
        cid = rec.label(msg, "conversation")
        session = rec.id_value(msg, "session")
        grouped.setdefault(cid, {}).setdefault(session, []).append((rec, msg))
    if not grouped:
        raise InputError("the file holds no messages", path=src)
    conversations = [_conversation(cid, sessions) for cid, sessions in grouped.items()]
    return Dataset(conversations=conversations, qa={c.conversation_id: [] for c in conversations})


def _conversation(cid: str, grouped: dict[str, list[tuple[Rec, dict[str, Any]]]]) -> ConversationIn:
    speakers: list[str] = []
    sessions: list[SessionIn] = []
    first_use: dict[str, str] = {}  # turn id -> its record: citations name a turn by its id
    for k, (name, messages) in enumerate(grouped.items()):
        turns = _turns(messages, name, first_use)
        for turn in turns:
            if turn.speaker not in speakers:
                speakers.append(turn.speaker)
        started = min((t.timestamp for t in turns if t.timestamp is not None), default=None)
        turns = [t if t.timestamp else t.model_copy(update={"timestamp": started}) for t in turns]
        sessions.append(SessionIn(index=k, source_id=name, started_at=started, turns=turns))
    meta = {"format": "jsonl"}
    return ConversationIn(conversation_id=cid, speakers=speakers, sessions=sessions, meta=meta)


def _turns(
    messages: Sequence[tuple[Rec, dict[str, Any]]], session: str, first_use: dict[str, str]
) -> list[Turn]:
    """Validated turns of one session; ``first_use`` holds the ids of the conversation's
    turns so far (id -> record), which these must not repeat."""
    turns: list[Turn] = []
    for n, (rec, msg) in enumerate(messages):
        turn = message_turn(msg, n, session, rec)
        if turn.source_id in first_use:
            where = first_use[turn.source_id]
            raise rec.error(f"duplicate id {turn.source_id!r}, first used on {where}", "id")
        first_use[turn.source_id] = rec.record
        turns.append(turn)
    return turns


def message_turn(
    msg: dict[str, Any], n: int, session: str, rec: Rec, default_ts: datetime | None = None
) -> Turn:
    """One message as a turn. ``timestamp`` may be a string or (from the API) a datetime."""
    stamp = msg.get("timestamp")
    if isinstance(stamp, datetime):
        timestamp: datetime | None = stamp.replace(tzinfo=None)
    else:
        timestamp = rec.stamp(msg, "timestamp")
    return Turn(
        source_id=rec.id_value(msg, "id") if msg.get("id") is not None else f"{session}:{n}",
        speaker=rec.speaker(msg, "speaker"),
        text=rec.text(msg, "text"),
        timestamp=timestamp or default_ts,
        caption=rec.opt_str(msg, "caption"),
        index=n,
    )


def api_session(
    conversation_id: object,
    session: object,
    messages: object,
    started_at: object,
    index: int,
) -> ConversationIn:
    """The arguments of ``Memory.add_messages`` validated like a JSONL file's messages."""
    top = Rec(None, "add_messages")
    args = {"conversation_id": conversation_id, "session": session}
    cid = top.label(args, "conversation_id")
    name = top.id_value(args, "session")
    if started_at is not None and not isinstance(started_at, datetime):
        raise top.error(f"expected a datetime, got {type_name(started_at)}", "started_at")
    start = started_at.replace(tzinfo=None) if started_at else None
    if isinstance(messages, str | bytes | dict) or not isinstance(messages, Sequence):
        raise top.error(f"expected a list of messages, got {type_name(messages)}", "messages")
    if not messages:
        raise top.error("no messages given", "messages")
    records = [(Rec(None, f"message {i}"), m) for i, m in enumerate(messages)]
    turns = _turns([(rec, rec.obj(m)) for rec, m in records], name, {})
    turns = [t.model_copy(update={"timestamp": t.timestamp or start}) for t in turns]
    speakers = sorted({t.speaker for t in turns})
    return ConversationIn(
        conversation_id=cid,
        speakers=speakers,
        sessions=[SessionIn(index=index, source_id=name, started_at=start, turns=turns)],
        meta={"format": "api"},
    )
