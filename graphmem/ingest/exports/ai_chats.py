"""What the ChatGPT and Claude.ai exports share: both apps call their file
``conversations.json`` (alone, or in a zip or folder), both hold a list of conversations (or
one conversation object), and both importers name speakers, ids, captions and records the
same way. Kept here so that neither importer imports the other."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

from graphmem.errors import InputError
from graphmem.ingest.exports.base import Context, Importer, Message, json_items
from graphmem.ingest.exports.bundle import Bundle
from graphmem.ingest.source import Source

EXPORT_FILE = "conversations.json"
# The names the designs' user-assistant rules know (``Settings.assistant_speakers``).
USER, ASSISTANT = "User", "Assistant"
# Both apps call their file conversations.json: the first of these keys in the head tells
# which app wrote it (a key inside a message's text is escaped, so never matches).
_APP_KEY = re.compile(rb'"(mapping|chat_messages)"\s*:')
# Each app by the key its conversations hold their messages under: its label and --format.
_APPS = {"mapping": ("ChatGPT", "chatgpt"), "chat_messages": ("Claude.ai", "claude")}

# Speaker, text, caption and time of a message kept.
Kept = tuple[str, str, str | None, datetime | None]
ReadMessage = Callable[[Any, str, str, Context], Kept | None]
ReadConversation = Callable[[dict[str, Any], int, "ShortIds", str, Context], Iterator[Message]]


def importer(
    name: str, label: str, own: str, mark: re.Pattern[bytes], accepted: str, read: ReadConversation
) -> Importer:
    """The importer of one of the two apps: it claims an export whose conversations use
    ``own`` (``mapping``, ``chat_messages``) as their first such key with ``mark`` in the
    head, and reads each conversation with ``read``."""

    def claims(bundle: Bundle) -> bool:
        found = app_key(bundle)
        return found is not None and found[0] == own and bool(mark.search(found[1]))

    def messages(bundle: Bundle, ctx: Context) -> Iterator[Message]:
        return read_export(bundle, ctx, accepted, own, read)

    return Importer(name, label, claims, messages)


def export_member(bundle: Bundle) -> str | None:
    """The member holding the conversations: the file itself, or the shallowest
    ``conversations.json`` of a zip or folder."""
    if bundle.single:
        return bundle.members[0]
    found = sorted(bundle.named(EXPORT_FILE), key=lambda m: (len(PurePosixPath(m).parts), m))
    return found[0] if found else None


def app_key(bundle: Bundle) -> tuple[str, bytes] | None:
    """The first of ``mapping``/``chat_messages`` used as a key at the start of the export's
    conversations (with the head it was found in); None when neither or not JSON."""
    member = export_member(bundle)
    if member is None:
        return None
    head = bundle.head(member)
    if head[:1] not in (b"[", b"{"):
        return None
    found = _APP_KEY.search(head)
    return (found.group(1).decode(), head) if found else None


def conversations(source: Source, where: str, accepted: str) -> Iterator[Any]:
    """The conversations of a top-level list, one at a time, or the one of an object."""
    first = source.first_char()
    if first == "[":
        yield from json_items(source, "item")
    elif first == "{":
        yield from json_items(source, "")
    else:
        raise InputError(f"not a JSON list of conversations: expected {accepted}", path=where)


def read_export(
    bundle: Bundle, ctx: Context, accepted: str, own: str, conversation: ReadConversation
) -> Iterator[Message]:
    """The messages of every conversation of the export, read by ``conversation`` (given
    each one's object, its position from 1, the file's ids and where it is); one of the
    other app is refused."""
    member = export_member(bundle)
    if member is None:
        raise InputError(f"holds no {EXPORT_FILE}: expected {accepted}", path=bundle.name)
    where = bundle.where(member)
    ids = ShortIds()
    with bundle.open(member) as source:
        for n, conv in enumerate(conversations(source, where, accepted), 1):
            if not isinstance(conv, dict):
                raise InputError(
                    "a conversation is not a JSON object", path=where, record=f"conversation {n}"
                )
            refuse_the_other_app(conv, n, where, own)
            yield from conversation(conv, n, ids, where, ctx)


def refuse_the_other_app(conv: dict[str, Any], n: int, where: str, own: str) -> None:
    """Refuse a conversation of the other app (its messages' key, not ``own``), naming the
    ``--format`` that reads it: the two files have one name, and a user may pick wrong."""
    (other,) = (key for key in _APPS if key != own)
    if own not in conv and other in conv:
        raise InputError(
            f"a {_APPS[other][0]} conversation, not a {_APPS[own][0]} one",
            path=where,
            record=named(n, conv.get("title")),
            field=own,
            hint=f"pass --format {_APPS[other][1]}",
        )


def messages_of(
    cid: str,
    title: object,
    n: int,
    messages: list[Any],
    read: ReadMessage,
    where: str,
    ctx: Context,
) -> Iterator[Message]:
    """Conversation ``n``'s messages that ``read`` keeps, each named by its position from 1
    (left-out ones counted), under ``cid`` and the title when it has one."""
    label = title if isinstance(title, str) and title.strip() else None
    for k, message in enumerate(messages, 1):
        at = f"conversation {n} message {k}"
        kept = read(message, at, where, ctx)
        if kept is not None:
            speaker, text, caption, stamp = kept
            yield Message(cid, speaker, text, stamp, at, title=label, note=caption)


class ShortIds:
    """Conversation ids of one file: the first 8 characters, the full id for a later
    conversation whose 8 characters an earlier one took."""

    def __init__(self) -> None:
        self._taken: dict[str, str] = {}

    def of(self, full: str) -> str:
        short = full[:8]
        owner = self._taken.setdefault(short, full)
        return short if owner == full else full


def shared(names: list[str]) -> str | None:
    """The caption naming what a message shared, each name once, in order."""
    unique = list(dict.fromkeys(n for n in names if n))
    return "shared: " + ", ".join(unique) if unique else None


def named(n: int, title: object) -> str:
    """A conversation as an error names it: its position and, when it has one, its title."""
    return f"conversation {n}" + (f" ({title!r})" if isinstance(title, str) and title else "")
