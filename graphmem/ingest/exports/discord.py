"""DiscordChatExporter's JSON (Tyrrrz/DiscordChatExporter, ``--format Json``): one file per
channel (``{"guild", "channel", "dateRange", "exportedAt", "messages": [...],
"messageCount"}``), alone, or several in a folder or a zip (the ``*_Files`` media folders
the exporter writes beside them are not read). Each file is one conversation.

Kept: messages of ``type`` "Default" and "Reply" (an absent type is taken as "Default"),
with their ``content``. Attachments and stickers of a message with words are noted in
``caption`` ("shared: report.pdf, a sticker"); embeds are not: they are the previews of
links the words already hold, or the bots' cards.

Left out and counted: "system messages" (every other type: joins, pins, thread creations,
calls, recipients added, boosts), "bot messages" (``author.isBot``: bots and webhooks; what
a bot posts is a feed, a notice or a command's answer, not what the people said, and it
would make the bot a character of everyone's memory), "media-only messages" (attachments,
stickers or embeds with no words), "empty messages" (nothing at all). A system message by
a bot counts as a system message.

Times: ``timestamp`` is an instant with its offset ("2021-03-02T09:15:02.123+01:00"), shown
in the user's zone (``--timezone``); edits keep the message's first time (``timestampEdited``
is when it changed, not when it was said).

Speakers: ``author.nickname`` (the server nickname or display name the exporter resolved),
else ``author.name`` (the user name), else ``author.id``.

Conversation ids: the channel's name (a direct message channel is named after the other
person), with " (<channel id>)" appended to each channel whose name another channel of the
same import has (two servers' "general"). The title: "<server> / #<channel>", the channel's
name alone for direct messages.

Reading: each file is parsed as a stream of ijson events, one message object built at a
time; ``guild`` and ``channel`` may stand anywhere in it (the exporter writes them first),
so a file's messages are kept as compact records until its end, and all files' until the
import's colliding names are known (the assembly holds every message anyway).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
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

NAME = "discord"
ACCEPTED = 'a DiscordChatExporter JSON file: {"guild": {...}, "channel": {...}, "messages": [...]}'
KEPT_TYPES = frozenset({"Default", "Reply"})
DEFAULT_TYPE = "Default"
# Direct messages: the exporter names their guild "Direct Messages"; the title skips it.
DIRECT_TYPES = frozenset({"DirectTextChat", "DirectGroupTextChat"})
MEDIA_FOLDER = "_Files"  # the exporter's media folder beside each file: "<file>_Files"
OBJECTS = ("guild", "channel", "messages.item")
HEAD_KEYS = ("guild", "channel", "messages")


@dataclass
class _Channel:
    """One file as read: its guild and channel objects and its kept messages (with
    ``conversation`` blank until the import's names are known)."""

    member: str
    guild: dict[str, Any] = field(default_factory=dict)
    channel: dict[str, Any] = field(default_factory=dict)
    listed: bool = False
    seen: int = 0
    messages: list[Message] = field(default_factory=list)


def looks_like(head: bytes) -> bool:
    return has_key(head, *HEAD_KEYS)


def _claims(bundle: Bundle) -> bool:
    if bundle.single:
        return looks_like(bundle.head(bundle.members[0]))
    return any(looks_like(bundle.head(m)) for m in _candidates(bundle))


def _candidates(bundle: Bundle) -> list[str]:
    return [
        m
        for m in bundle.ending(".json")
        if not any(part.endswith(MEDIA_FOLDER) for part in PurePosixPath(m).parts[:-1])
    ]


def _members(bundle: Bundle) -> list[str]:
    if bundle.single:
        return bundle.members
    found = [m for m in _candidates(bundle) if looks_like(bundle.head(m))]
    if not found:
        raise InputError(f"holds no file of {ACCEPTED}", path=bundle.name)
    return found


def _read(bundle: Bundle, ctx: Context) -> Iterator[Message]:
    channels = []
    for member in _members(bundle):
        with bundle.open(member) as source:
            channels.append(_channel(source, bundle, member, ctx))
    # The exporter writes a channel in time order; two files of one channel merge.
    yield from by_name((_name(c), _id(c), _title(c), c.messages) for c in channels)


def _name(channel: _Channel) -> str:
    name = channel.channel.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    if channel.channel.get("id"):
        return f"channel {_id(channel)}"
    return PurePosixPath(channel.member).stem


def _id(channel: _Channel) -> str:
    return str(channel.channel.get("id") or channel.member)


def _title(channel: _Channel) -> str:
    name = _name(channel)
    guild = channel.guild.get("name")
    if channel.channel.get("type") in DIRECT_TYPES or not isinstance(guild, str) or not guild:
        return name
    return f"{guild} / #{name}"


def _channel(source: Source, bundle: Bundle, member: str, ctx: Context) -> _Channel:
    """One file's guild, channel and messages, read event by event."""
    where = bundle.where(member)
    found = _Channel(member)
    record: str | None = None

    def not_a_list(path: str) -> InputError | None:
        return InputError("is not a list", path=where, field=path) if path == "messages" else None

    try:
        for path, event, value in json_objects(source, OBJECTS.__contains__, not_a_list):
            if event == "object":
                _built(found, path, value, ctx, bundle, where)
                record = None
            elif path == "" and event not in ("start_map", "end_map", "map_key"):
                raise InputError(f"not a DiscordChatExporter file: expected {ACCEPTED}", path=where)
            elif path in OBJECTS:
                record = f"message {found.seen}" if path == "messages.item" else None
                if event != "start_map":
                    what = "a message" if record else path
                    raise InputError(
                        f"{what} is not an object",
                        path=where,
                        record=record,
                        field=None if record else path,
                    )
            elif path == "messages":
                found.listed = True
    except ijson.JSONError as exc:
        raise InputError(f"broken JSON ({exc})", path=where, record=record) from None
    if not found.listed:
        raise InputError(f"has no messages: expected {ACCEPTED}", path=where, field="messages")
    return found


def _built(
    found: _Channel, path: str, value: Any, ctx: Context, bundle: Bundle, where: str
) -> None:
    if path == "guild":
        found.guild = value
    elif path == "channel":
        found.channel = value
    else:
        record = f"message {found.seen}"
        found.seen += 1
        prefix = "" if bundle.single else f"{found.member} "
        kept = _message(value, ctx, where, record)
        if kept is not None:
            found.messages.append(dataclasses.replace(kept, record=prefix + record))


def _message(raw: dict[str, Any], ctx: Context, where: str, record: str) -> Message | None:
    """One message, or None when it is left out (and counted)."""
    kind = raw.get("type", DEFAULT_TYPE)
    if not isinstance(kind, str):
        raise InputError("is not a string", path=where, record=record, field="type")
    author = raw.get("author")
    if not isinstance(author, dict):
        raise InputError("is not an object", path=where, record=record, field="author")
    if kind not in KEPT_TYPES:
        ctx.leave("system messages")
        return None
    if author.get("isBot") is True:
        ctx.leave("bot messages")
        return None
    text = raw.get("content", "")
    if not isinstance(text, str):
        raise InputError("is not a string", path=where, record=record, field="content")
    shared = _shared(raw, where, record)
    if not text.strip():
        ctx.leave("media-only messages" if shared or raw.get("embeds") else "empty messages")
        return None
    if raw.get("timestamp") is None:
        raise InputError("a message has no time", path=where, record=record, field="timestamp")
    return Message(
        conversation="",
        speaker=_speaker(author, where, record),
        text=text,
        timestamp=ctx.stamp(raw["timestamp"], where, record, "timestamp"),
        record=record,
        note=f"shared: {', '.join(shared)}" if shared else None,
    )


def _speaker(author: dict[str, Any], where: str, record: str) -> str:
    for key in ("nickname", "name", "id"):
        value = author.get(key)
        if isinstance(value, str) and any(ch.isalnum() for ch in value):
            return value.strip()
    raise InputError("names nobody", path=where, record=record, field="author")


def _shared(raw: dict[str, Any], where: str, record: str) -> list[str]:
    """The names of the attachments, and a sticker's, that the message carries."""
    names = []
    for key, fallback in (("attachments", "a file"), ("stickers", "a sticker")):
        items = raw.get(key) or []
        if not isinstance(items, list):
            raise InputError("is not a list", path=where, record=record, field=key)
        for item in items:
            name = item.get("fileName") if key == "attachments" and isinstance(item, dict) else None
            sticker = item.get("name") if key == "stickers" and isinstance(item, dict) else None
            names.append(name or (f"a sticker ({sticker})" if sticker else fallback))
    return names


IMPORTER = Importer(NAME, "Discord export (DiscordChatExporter)", _claims, _read)
