"""Telegram Desktop's JSON export ("Export chat history" or "Export Telegram data", format
"Machine-readable JSON"): ``result.json``, alone, or in the export's folder or a zip of it
(the ``chats/chat_001/...`` media folders beside it are not read).

Two shapes: one chat (``{"name", "type", "id", "messages": [...]}``) and the whole account
(``{"about", "personal_information", ..., "chats": {"list": [chat, ...]}, "left_chats":
{"list": [...]}}``). Each chat is one conversation; the chats the user left are imported too
(their history is the user's as much as any other).

Kept: messages of ``type`` "message" (an absent type is taken as one), with their words.
``text`` is a string or a list of strings and entity objects (bold, link, mention, code...):
the pieces are joined as they are, with nothing between them, because Telegram writes the
spaces as plain strings of their own (chat-miner's synthetic sample, which has none, reads
"Link:https://telegram.org/"). A poll is kept as its question and answers: they are its
author's words. Media with a caption keep the caption's words and note the media in
``caption`` ("shared: a photo", "shared: report.pdf"); ``forwarded_from`` is noted there too
("forwarded from Bob"), so that another's words are not taken for the forwarder's own.
Edits: the export holds the final text only, which is what is kept.

Left out and counted: "service messages" (joins, pins, calls, title changes: every type
other than "message"), "media-only messages" (a photo, sticker, voice message, location or
contact with no words), "empty messages" (neither words nor media).

Times: ``date_unixtime`` when present, else ``date``. ``date`` is the wall-clock time of the
machine that made the export, in that machine's zone at export time, not the writer's;
``date_unixtime`` is the instant, shown in the user's zone (``--timezone``) like every other
app's instants. Older exports have ``date`` only: it is kept as written.

Speakers: ``from`` (the name as the exporting user saw it); a deleted account (``from``
null) is its ``from_id`` ("user123"), and a name with no letter or digit (an emoji alone)
gets its ``from_id`` after it, so that it still names someone.

Conversation ids: the chat's name ("Saved Messages" for saved messages, which the export
leaves unnamed; "chat <id>" for an unnamed one), with " (<id>)" appended to each chat whose
name another chat of the same import has (two contacts called Alex; deleted accounts).

Reading: the document is parsed as a stream of ijson events, one message object built at a
time, so a chat of any size is never one value in memory. The chat's ``name``, ``type`` and
``id`` may stand anywhere in it (Telegram writes them before ``messages``; a file rewritten
with sorted keys has ``id``, ``messages``, ``name``, ``type``), so a chat's messages are
kept as compact records until its end, and all of them until the end of the import, where
the names that collide are known; the assembly holds every message anyway.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

import ijson

from graphmem.errors import InputError
from graphmem.ingest.exports.base import (
    Context,
    Importer,
    Message,
    by_name,
    has_key,
    json_objects,
)
from graphmem.ingest.exports.bundle import Bundle
from graphmem.ingest.source import Source

NAME = "telegram"
RESULT = "result.json"
ACCEPTED = (
    "a Telegram Desktop JSON export (result.json): one chat "
    '{"name", "type", "id", "messages": [...]} or all chats {"chats": {"list": [...]}}'
)
# Where a chat is in the document (ijson prefixes), and how a record names its kind.
LEVELS = {"": "", "chats.list.item": "chat", "left_chats.list.item": "left chat"}
MESSAGE_LISTS = {("messages" if lv == "" else f"{lv}.messages"): lv for lv in LEVELS}
MESSAGE_ITEMS = {f"{p}.item": lv for p, lv in MESSAGE_LISTS.items()}
CHAT_LISTS = ("chats.list", "left_chats.list")
CHAT_KEYS = ("name", "type", "id")
SAVED_TYPE = "saved_messages"
SAVED_NAME = "Saved Messages"
UNNAMED = "Telegram chat"  # a chat file with neither name nor id (a hand-made one)
MESSAGE_TYPE = "message"
SCALARS = ("string", "number", "boolean", "null")
# How a media message is told: its ``media_type``, else the field it has.
MEDIA_TYPES = {
    "sticker": "a sticker",
    "voice_message": "a voice message",
    "video_message": "a video message",
    "video_file": "a video",
    "animation": "a GIF",
    "audio_file": "an audio file",
}
MEDIA_FIELDS = {
    "photo": "a photo",
    "location_information": "a location",
    "contact_information": "a contact",
    "game_title": "a game",
    "invoice_information": "an invoice",
}
NOT_INCLUDED = "(File not included"  # what the export writes for a file it did not save
# The start of a Telegram document: a chat's messages carry these keys, a whole export these.
MESSAGE_MARKS = ("date_unixtime", "from_id", "text_entities")
EXPORT_MARKS = ("personal_information", "left_chats", "frequent_contacts")


@dataclass
class _Chat:
    """One chat as read: where it is, its name, type and id, and its kept messages (with
    ``conversation`` blank until the import's names are known)."""

    member: str
    label: str  # "chat 3", "left chat 0", "" for the chat that is the whole file
    meta: dict[str, Any] = field(default_factory=dict)
    listed: bool = False  # it has a "messages" list
    seen: int = 0  # items of that list so far, left-out ones included
    messages: list[Message] = field(default_factory=list)

    def record(self, index: int) -> str:
        return f"{self.label} message {index}".strip()


def looks_like(head: bytes) -> bool:
    """A Telegram JSON document: messages with Telegram's keys, or a whole export."""
    if b'"guild"' in head:  # DiscordChatExporter's, whose messages carry other keys
        return False
    chat = has_key(head, "messages") and any(has_key(head, k) for k in MESSAGE_MARKS)
    chats = has_key(head, "chats", "list", "messages") and b'"type"' in head
    return chat or chats or any(has_key(head, k) for k in EXPORT_MARKS)


def _claims(bundle: Bundle) -> bool:
    if bundle.single:
        return looks_like(bundle.head(bundle.members[0]))
    return any(looks_like(bundle.head(m)) for m in bundle.named(RESULT))


def _members(bundle: Bundle) -> list[str]:
    """The Telegram documents of the bundle: its result.json files (any .json file that
    is Telegram's when there is none), but not one inside another's folder, where the
    export keeps the files shared in its chats."""
    if bundle.single:
        return bundle.members
    found = [m for m in bundle.named(RESULT) if looks_like(bundle.head(m))]
    found = found or [m for m in bundle.ending(".json") if looks_like(bundle.head(m))]
    if not found:
        raise InputError(f"holds no {RESULT} of a Telegram export", path=bundle.name)
    folders = [PurePosixPath(m).parent for m in found]
    return [m for m in found if not any(PurePosixPath(m).parent > f for f in folders)]


def _read(bundle: Bundle, ctx: Context) -> Iterator[Message]:
    chats: list[_Chat] = []
    for member in _members(bundle):
        with bundle.open(member) as source:
            chats.extend(_chats(source, bundle, member, ctx))
    if not any(c.listed for c in chats):
        raise InputError(f"no chat found: expected {ACCEPTED}", path=bundle.name, field="messages")
    # Telegram writes a chat in time order; two files of one chat are merged in it.
    yield from by_name((_chat_name(c), _tell(c), _title(c), c.messages) for c in chats)


def _title(chat: _Chat) -> str | None:
    name = _chat_name(chat)
    return name if chat.meta.get("name") or name == SAVED_NAME else None


def _chat_name(chat: _Chat) -> str:
    name = chat.meta.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    if chat.meta.get("type") == SAVED_TYPE:
        return SAVED_NAME
    if chat.meta.get("id") is not None:
        return f"chat {_id(chat.meta['id'])}"
    return chat.label or UNNAMED


def _id(value: object) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _tell(chat: _Chat) -> str:
    """What tells a chat from another of the same name: its id, else where it is."""
    if chat.meta.get("id") is not None:
        return _id(chat.meta["id"])
    return f"{chat.member} {chat.label}".strip()


def _innermost(chats: dict[str, _Chat]) -> str | None:
    labels = [c.label for c in chats.values() if c.label]
    return labels[-1] if labels else None


def _chats(source: Source, bundle: Bundle, member: str, ctx: Context) -> Iterator[_Chat]:
    """The chats of one document, each with its messages, read event by event."""
    where = bundle.where(member)
    prefix = "" if bundle.single else f"{member} "
    open_chats: dict[str, _Chat] = {}
    counts = dict.fromkeys(LEVELS, 0)
    record: str | None = None

    def a_message(path: str) -> bool:
        return MESSAGE_ITEMS.get(path, "-") in open_chats

    try:
        for path, event, value in json_objects(
            source, a_message, lambda path: _not_a_list(path, open_chats, where)
        ):
            if event == "object":
                _keep(open_chats[MESSAGE_ITEMS[path]], value, ctx, where, prefix)
                record = None
            elif path == "" and event == "start_array":
                raise InputError(f"not a Telegram export: expected {ACCEPTED}", path=where)
            elif path in LEVELS and event == "start_map":
                label = f"{LEVELS[path]} {counts[path]}" if path else ""
                counts[path] += 1
                open_chats[path] = _Chat(member, label)
            elif path in LEVELS and event == "end_map":
                chat = open_chats.pop(path)
                if chat.listed:
                    yield chat
            elif a_message(path):
                chat = open_chats[MESSAGE_ITEMS[path]]
                record = chat.record(chat.seen)
                if event != "start_map":
                    raise InputError("a message is not an object", path=where, record=record)
            else:
                _structure(path, event, value, open_chats, where)
    except ijson.JSONError as exc:
        record = record or _innermost(open_chats)
        raise InputError(f"broken JSON ({exc})", path=where, record=record) from None


def _not_a_list(path: str, chats: dict[str, _Chat], where: str) -> InputError | None:
    """The error for a "messages" or chats "list" that is not a list (None elsewhere)."""
    if MESSAGE_LISTS.get(path, "-") in chats:
        label = chats[MESSAGE_LISTS[path]].label
        return InputError("is not a list", path=where, record=label or None, field="messages")
    if path in CHAT_LISTS:
        return InputError("is not a list", path=where, field=path)
    return None


def _structure(path: str, event: str, value: Any, chats: dict[str, _Chat], where: str) -> None:
    """A chat's name, type and id as they pass, and whether it has a "messages" list (one
    that is not a list ``_not_a_list`` has refused)."""
    parent, _, key = path.rpartition(".")
    if MESSAGE_LISTS.get(path, "-") in chats:
        chats[MESSAGE_LISTS[path]].listed = True
    elif parent in LEVELS and parent in chats and key in CHAT_KEYS and event in SCALARS:
        chats[parent].meta[key] = value
    elif path in LEVELS and event in SCALARS:
        raise InputError("a chat is not an object", path=where, field=path.rsplit(".", 1)[0])


def _keep(chat: _Chat, raw: dict[str, Any], ctx: Context, where: str, prefix: str) -> None:
    """One message of the chat: kept, or counted as left out."""
    record = chat.record(chat.seen)
    chat.seen += 1
    kind = raw.get("type", MESSAGE_TYPE)
    if not isinstance(kind, str):
        raise InputError("is not a string", path=where, record=record, field="type")
    if kind != MESSAGE_TYPE:
        ctx.leave("service messages")
        return
    text = _text(raw, where, record)
    media = _media(raw)
    if not text.strip():
        ctx.leave("media-only messages" if media else "empty messages")
        return
    forwarded = raw.get("forwarded_from")
    notes = [f"forwarded from {forwarded}" if isinstance(forwarded, str) and forwarded else ""]
    notes.append(f"shared: {media}" if media else "")
    chat.messages.append(
        Message(
            conversation="",
            speaker=_speaker(raw, where, record),
            text=text,
            timestamp=_when(raw, ctx, where, record),
            record=prefix + record,
            note="; ".join(n for n in notes if n) or None,
        )
    )


def _when(raw: dict[str, Any], ctx: Context, where: str, record: str) -> datetime:
    for key in ("date_unixtime", "date"):
        if raw.get(key) is not None:
            return ctx.stamp(raw[key], where, record, key)
    raise InputError(
        "a message has no time: expected date_unixtime (epoch seconds) or date (ISO-8601)",
        path=where,
        record=record,
        field="date",
    )


def _speaker(raw: dict[str, Any], where: str, record: str) -> str:
    name, handle = raw.get("from"), raw.get("from_id")
    if name is not None and not isinstance(name, str):
        raise InputError("is not a string", path=where, record=record, field="from")
    handle = _id(handle) if handle is not None else None
    name = (name or "").strip()
    if name and handle and not any(ch.isalnum() for ch in name):
        return f"{name} ({handle})"
    if name or handle:
        return name or str(handle)
    raise InputError("a message names no sender", path=where, record=record, field="from")


def _text(raw: dict[str, Any], where: str, record: str) -> str:
    """The words: ``text`` (a string, or strings and entities), else ``text_entities``;
    a poll's question and answers after them."""
    key = "text" if "text" in raw or "text_entities" not in raw else "text_entities"
    value = raw.get(key, "")
    if isinstance(value, list):
        parts = [p.get("text") if isinstance(p, dict) else p for p in value]
        if not all(isinstance(p, str) for p in parts):
            raise InputError(
                "holds a piece that is neither text nor an entity with text",
                path=where,
                record=record,
                field=key,
            )
        value = "".join(str(p) for p in parts)
    if not isinstance(value, str):
        raise InputError("is not text or a list of entities", path=where, record=record, field=key)
    return "\n".join(p for p in (value, _poll(raw.get("poll"))) if p.strip())


def _poll(poll: object) -> str:
    if not isinstance(poll, dict) or not isinstance(poll.get("question"), str):
        return ""
    given = poll.get("answers")
    answers = [
        a["text"]
        for a in (given if isinstance(given, list) else [])
        if isinstance(a, dict) and isinstance(a.get("text"), str)
    ]
    return f"Poll: {poll['question']}" + (f" ({', '.join(answers)})" if answers else "")


def _media(raw: dict[str, Any]) -> str:
    """What the message shares ("a photo", "report.pdf"), "" when nothing."""
    kind = raw.get("media_type")
    if isinstance(kind, str) and kind in MEDIA_TYPES:
        return MEDIA_TYPES[kind]
    for key, said in MEDIA_FIELDS.items():
        if raw.get(key):
            return said
    if raw.get("file") or raw.get("file_name"):
        name = raw.get("file_name") or raw.get("file")
        if isinstance(name, str) and name and not name.startswith(NOT_INCLUDED):
            return PurePosixPath(name).name
        return "a file"
    return ""


IMPORTER = Importer(NAME, "Telegram export", _claims, _read)
