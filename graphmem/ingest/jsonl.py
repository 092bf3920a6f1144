"""The JSONL message format, and the message dicts of ``Memory.add_messages``.

Both go through :func:`message_turn`, so a message is validated the same way whether it
comes from a file or from the Python API. A file's empty messages, and messages whose ``id``
repeats an earlier one of the conversation with the same content, are skipped and counted
unless the load is strict (``Skips``); the API refuses them (its caller sent them now).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any

from graphmem.errors import InputError
from graphmem.ingest.exports.stamps import Clock, read_epochs
from graphmem.ingest.models import ConversationIn, Dataset, SessionIn, Turn
from graphmem.ingest.validate import Rec, Skips, same_content, type_name


def load_jsonl(records: Iterable[tuple[str, Any]], src: str, strict: bool = False) -> Dataset:
    """``records``: ``(record name, parsed message)``, read as they come (a file's lines);
    ``strict``: an empty message or a repeated id is refused, not skipped."""
    skips = Skips(strict)
    grouped = _grouped(records, src)
    if not grouped:
        raise InputError("the file holds no messages", path=src)
    return as_dataset(list(jsonl_conversations(grouped, skips)), src, skips)


def _grouped(
    records: Iterable[tuple[str, Any]], src: str
) -> dict[str, dict[str, list[tuple[Rec, dict[str, Any]]]]]:
    """conversation -> session -> [(record, message)]; dicts keep first-appearance order."""
    grouped: dict[str, dict[str, list[tuple[Rec, dict[str, Any]]]]] = {}
    for record, raw in records:
        rec = Rec(src, record)
        msg = rec.obj(raw)
        cid = rec.label(msg, "conversation")
        session = rec.id_value(msg, "session")
        grouped.setdefault(cid, {}).setdefault(session, []).append((rec, msg))
    return grouped


def jsonl_conversations(
    records: Iterable[tuple[str, Any]] | dict[str, dict[str, list[tuple[Rec, dict[str, Any]]]]],
    skips: Skips,
    src: str | None = None,
) -> Iterator[ConversationIn]:
    """The conversations of ``records`` (or of records already grouped), validated; one of
    empty messages only is nothing. An importer hands its conversations over one at a
    time, so no more than one conversation's records are held beside the turns."""
    grouped = records if isinstance(records, dict) else _grouped(records, src or "")
    for cid, sessions in grouped.items():
        conversation = _conversation(cid, sessions, skips)
        if conversation.sessions:
            yield conversation


def as_dataset(conversations: list[ConversationIn], src: str, skips: Skips) -> Dataset:
    if not conversations:
        raise InputError("the file holds no message with a visible text", path=src)
    return Dataset(
        conversations=conversations,
        qa={c.conversation_id: [] for c in conversations},
        skipped=skips.result(),
    )


def _conversation(
    cid: str, grouped: dict[str, list[tuple[Rec, dict[str, Any]]]], skips: Skips
) -> ConversationIn:
    skips.at(cid)
    speakers: list[str] = []
    sessions: list[SessionIn] = []
    first_use: dict[str, tuple[str, Turn]] = {}  # turn id -> its record and turn
    title: str | None = None
    for name, messages in grouped.items():
        turns = _turns(messages, name, first_use, skips)
        # Optional, as graphmem export writes them: the conversation's title, the
        # session's date as its source wrote it ("1:56 pm on 8 May, 2023").
        title = title or next((t for r, m in messages if (t := r.opt_str(m, "title"))), None)
        said = next((d for r, m in messages if (d := r.opt_str(m, "session_date"))), None)
        if not turns:
            continue  # every message of the session skipped
        for turn in turns:
            if turn.speaker not in speakers:
                speakers.append(turn.speaker)
        started = min((t.timestamp for t in turns if t.timestamp is not None), default=None)
        turns = [t if t.timestamp else t.model_copy(update={"timestamp": started}) for t in turns]
        sessions.append(
            SessionIn(
                index=len(sessions),
                source_id=name,
                started_at=started,
                turns=turns,
                source_date=said,
            )
        )
    meta = {"format": "jsonl", **({"title": title} if title else {})}
    return ConversationIn(conversation_id=cid, speakers=speakers, sessions=sessions, meta=meta)


def _turns(
    messages: Sequence[tuple[Rec, dict[str, Any]]],
    session: str,
    first_use: dict[str, tuple[str, Turn]],
    skips: Skips | None,
) -> list[Turn]:
    """Validated turns of one session; ``first_use`` holds the ids of the conversation's
    turns so far (id -> record and turn), which these must not repeat with other content.
    ``skips`` None: every empty message and repeated id is refused (the API)."""
    turns: list[Turn] = []
    for n, (rec, msg) in enumerate(messages):
        turn = message_turn(msg, n, session, rec, skips=skips)
        if turn is None:
            continue
        if turn.source_id in first_use:
            where, first = first_use[turn.source_id]
            said = f"duplicate id {turn.source_id!r}, first used on {where}"
            if skips is None or skips.strict:
                raise rec.error(said, "id")
            if not same_content(first, turn):
                raise rec.error(
                    said,
                    "id",
                    hint="its speaker or text differs from the first message of that id, so a "
                    "citation of it would name two turns (an identical repeat is skipped)",
                )
            skips.repeated_turn(rec.error(said, "id"))
            continue
        first_use[turn.source_id] = (rec.record, turn)
        turns.append(turn)
    return turns


def message_turn(
    msg: dict[str, Any],
    n: int,
    session: str,
    rec: Rec,
    default_ts: datetime | None = None,
    skips: Skips | None = None,
) -> Turn | None:
    """One message as a turn. ``timestamp`` may be a string or (from the API) a datetime.
    None when its text is empty and ``skips`` (a lenient load) counts it; with no ``skips``
    an empty text is refused. ``n`` is its position in the session, skipped ones counted:
    the default id ``<session>:<n>`` stays the file's."""
    stamp = msg.get("timestamp")
    if isinstance(stamp, datetime):
        timestamp: datetime | None = stamp.replace(tzinfo=None)
    else:
        timestamp = rec.stamp(msg, "timestamp")
    source_id = rec.id_value(msg, "id") if msg.get("id") is not None else f"{session}:{n}"
    speaker = rec.speaker(msg, "speaker")
    text = rec.text(msg, "text", skips)
    caption = rec.opt_str(msg, "caption")
    if text is None:
        return None
    return Turn(
        source_id=source_id,
        speaker=speaker,
        text=text,
        timestamp=timestamp or default_ts,
        caption=caption,
        index=n,
    )


def check_session_names(conversation: object, session: object) -> None:
    """A server's ``conversation`` and ``session`` fields, by the rule ``api_session`` reads
    them with, named as a request names them (no record: the field is the place)."""
    args = {"conversation": conversation, "session": session}
    request = Rec(None, "")
    request.label(args, "conversation")
    request.id_value(args, "session")


def api_session(
    conversation_id: object,
    session: object,
    messages: object,
    started_at: object,
    index: int,
    clock: Clock | None = None,
) -> ConversationIn:
    """The arguments of ``Memory.add_messages`` validated like a JSONL file's messages
    (``clock``: the zone an epoch timestamp is shown in; this machine's when None)."""
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
    read = read_epochs(
        ((f"message {i}", m) for i, m in enumerate(messages)), None, clock or Clock()
    )
    records = [(Rec(None, record), m) for record, m in read]
    turns = _turns([(rec, rec.obj(m)) for rec, m in records], name, {}, None)
    # Without started_at the session starts at its earliest dated turn, as a file's does.
    start = start or min((t.timestamp for t in turns if t.timestamp is not None), default=None)
    turns = [t.model_copy(update={"timestamp": t.timestamp or start}) for t in turns]
    speakers = sorted({t.speaker for t in turns})
    return ConversationIn(
        conversation_id=cid,
        speakers=speakers,
        sessions=[SessionIn(index=index, source_id=name, started_at=start, turns=turns)],
        meta={"format": "api"},
    )
