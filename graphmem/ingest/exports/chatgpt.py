"""ChatGPT's data export (Settings > Data controls > Export data): ``conversations.json``
alone, or the zip (or its unpacked folder) that holds it beside ``chat.html`` and
``user.json``. A single conversation object of the same shape (what the web app's
conversation endpoint returns, and some tools save) is read too.

Kept: the user's and the assistant's visible messages of the branch on screen, one
graphmem conversation per ChatGPT conversation, with its title. Speakers are ``User`` and
``Assistant``: the names the designs' user-assistant rules know (``Settings.
assistant_speakers``; the app is the conversation's ``format``).

Decisions:

- The branch on screen: from ``current_node`` up the ``parent`` links to the root, then
  read from the root down. Answers regenerated and questions edited leave the older
  versions on other branches; those are left out and counted ("messages of other
  branches"), whatever their kind.
- Left out and counted: ``system`` messages ("system messages"); ``tool`` messages (browser
  results, code output) and the assistant's calls to a tool (``recipient`` other than
  ``all``), both "tool messages"; messages hidden from the conversation
  (``metadata.is_visually_hidden_from_conversation``: custom instructions, memory context)
  "hidden messages"; the model's reasoning (``thoughts``, ``reasoning_recap``) "reasoning
  messages"; any other content type of a user or assistant message (custom instructions,
  ``user_editable_context``, not marked hidden) "non-text messages"; messages of another
  author role "messages of other authors".
- Text: ``text`` and ``multimodal_text`` keep their string parts, joined by a blank line;
  ``code`` keeps its ``text``. Images, audio and files among the parts or in
  ``metadata.attachments`` are named in the caption ("shared: report.pdf, an image"); an
  upload listed in both is named once. A message of media only is left out and counted
  ("media-only messages"); one with neither words nor media is the empty turn the
  validation skips.
- Times: a message's ``create_time`` (epoch seconds) in the user's zone. A message without
  one is undated (it joins the session of the message before it): the conversation's
  ``create_time`` would put it at the start, out of order, and could split a session.
- Ids: the first 8 characters of ``conversation_id`` (``id`` when absent). The export is
  read as a stream, so when a later conversation shares its first 8 characters with an
  earlier one, the later one takes its full id.
- A conversation without a ``mapping`` (or with an empty one, or none but the root on its
  branch) has no messages: left out and counted ("empty conversations"); real exports hold
  such entries. A ``current_node`` that is missing or not in the mapping, a parent link to
  no node, or parent links in a cycle refuse the file, naming the conversation (position
  from 1 and title) and the field; so does a Claude.ai conversation given as ChatGPT's (its
  hint: ``--format claude``).
- Records: ``conversation 3 message 5`` (positions from 1; messages counted along the branch).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

from graphmem.errors import InputError
from graphmem.ingest.exports.base import Context, Importer, Message, json_items
from graphmem.ingest.exports.bundle import Bundle
from graphmem.ingest.source import Source

EXPORT_FILE = "conversations.json"
ACCEPTED = (
    "ChatGPT's conversations.json (a list of conversations with a 'mapping'), "
    "or the export zip holding it"
)
USER, ASSISTANT = "User", "Assistant"
_SPEAKERS = {"user": USER, "assistant": ASSISTANT}
_AUTHOR_LEFT = {"system": "system messages", "tool": "tool messages"}
_TEXT_TYPES = frozenset({"text", "multimodal_text"})
_REASONING_TYPES = frozenset({"thoughts", "reasoning_recap"})
# What a non-string part of a message is, by its content_type; anything else "a file".
_MEDIA = {
    "image_asset_pointer": "an image",
    "audio_asset_pointer": "an audio clip",
    "real_time_user_audio_video_asset_pointer": "an audio clip",
    "video_container_asset_pointer": "a video",
}
# Both apps call their file conversations.json: the first of these keys in the head tells
# which app wrote it (a key inside a message's text is escaped, so never matches).
_APP_KEY = re.compile(rb'"(mapping|chat_messages)"\s*:')
_CREATE_KEY = re.compile(rb'"create_time"\s*:')


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


def _claims(bundle: Bundle) -> bool:
    found = app_key(bundle)
    return found is not None and found[0] == "mapping" and bool(_CREATE_KEY.search(found[1]))


def _read(bundle: Bundle, ctx: Context) -> Iterator[Message]:
    member = export_member(bundle)
    if member is None:
        raise InputError(f"holds no {EXPORT_FILE}: expected {ACCEPTED}", path=bundle.name)
    where = bundle.where(member)
    ids = ShortIds()
    with bundle.open(member) as source:
        for n, conv in enumerate(conversations(source, where, ACCEPTED), 1):
            yield from _conversation(conv, n, ids, where, ctx)


def _conversation(conv: Any, n: int, ids: ShortIds, where: str, ctx: Context) -> Iterator[Message]:
    record = f"conversation {n}"
    if not isinstance(conv, dict):
        raise InputError("a conversation is not a JSON object", path=where, record=record)
    title = conv.get("title")
    if "mapping" not in conv and "chat_messages" in conv:
        raise InputError(
            "a Claude.ai conversation, not a ChatGPT one",
            path=where,
            record=named(n, title),
            field="mapping",
            hint="pass --format claude",
        )
    full = conv.get("conversation_id") or conv.get("id")
    if not isinstance(full, str) or not full.strip():
        raise InputError(
            "no conversation_id or id string",
            path=where,
            record=named(n, title),
            field="conversation_id",
        )
    mapping = conv.get("mapping")
    if not mapping:
        ctx.leave("empty conversations")
        return
    if not isinstance(mapping, dict):
        raise InputError("not an object", path=where, record=named(n, title), field="mapping")
    branch = _branch(mapping, conv.get("current_node"), named(n, title), where)
    held = sum(1 for node in mapping.values() if isinstance(node, dict) and node.get("message"))
    if held > len(branch):
        ctx.leave("messages of other branches", held - len(branch))
    if not branch:
        ctx.leave("empty conversations")
        return
    cid = ids.of(full.strip())
    label = title if isinstance(title, str) and title.strip() else None
    for k, message in enumerate(branch, 1):
        at = f"{record} message {k}"
        kept = _message(message, at, where, ctx)
        if kept is not None:
            speaker, text, caption, stamp = kept
            yield Message(cid, speaker, text, stamp, at, title=label, note=caption)


def _branch(mapping: dict[str, Any], current: object, record: str, where: str) -> list[Any]:
    """The messages from the root down to ``current``: the branch on screen."""
    if not isinstance(current, str) or current not in mapping:
        said = "missing" if current is None else f"{current!r}, a node the mapping lacks"
        raise InputError(
            f"the current node is {said}", path=where, record=record, field="current_node"
        )
    found: list[Any] = []
    seen: set[str] = set()
    node_id: object = current
    while node_id is not None:
        if not isinstance(node_id, str) or node_id not in mapping:
            raise InputError(
                f"a parent link names {node_id!r}, a node the mapping lacks",
                path=where,
                record=record,
                field="parent",
            )
        if node_id in seen:
            raise InputError(
                f"the parent links form a cycle at node {node_id!r}",
                path=where,
                record=record,
                field="mapping",
            )
        seen.add(node_id)
        node = mapping[node_id]
        if not isinstance(node, dict):
            raise InputError(
                f"node {node_id!r} is not an object", path=where, record=record, field="mapping"
            )
        if node.get("message"):
            found.append(node["message"])
        node_id = node.get("parent")
    return found[::-1]


def _message(
    message: Any, at: str, where: str, ctx: Context
) -> tuple[str, str, str | None, datetime | None] | None:
    """Speaker, text, caption and time of a message kept; None (counted) for one left out."""
    if not isinstance(message, dict):
        raise InputError("a message is not a JSON object", path=where, record=at)
    author = message.get("author")
    # As strings: a value of another JSON type is then just an unknown one.
    role = str(author.get("role")) if isinstance(author, dict) else ""
    content = message.get("content")
    if not isinstance(content, dict):
        raise InputError("not an object", path=where, record=at, field="content")
    kind = str(content.get("content_type"))
    found = message.get("metadata")
    metadata: dict[str, Any] = found if isinstance(found, dict) else {}
    left = _left_as(role, message.get("recipient", "all"), kind, metadata)
    if left:
        ctx.leave(left)
        return None
    text, media = _words(content, kind, metadata, at, where)
    if not text.strip() and media:
        ctx.leave("media-only messages")
        return None
    raw = message.get("create_time")
    stamp = None if raw is None else ctx.stamp(raw, where, at, "create_time")
    return _SPEAKERS[role], text, shared(media), stamp


def _left_as(role: str, recipient: object, kind: str, metadata: dict[str, Any]) -> str:
    """Why a message is left out ("" when it is kept), in the order a reader would ask."""
    if role not in _SPEAKERS:
        return _AUTHOR_LEFT.get(role, "messages of other authors")
    if metadata.get("is_visually_hidden_from_conversation"):
        return "hidden messages"
    if recipient not in ("all", None):  # the assistant calling a tool (browser, python)
        return "tool messages"
    if kind in _REASONING_TYPES:
        return "reasoning messages"
    if kind not in _TEXT_TYPES and kind != "code":
        return "non-text messages"
    return ""


def _words(
    content: dict[str, Any], kind: str, metadata: dict[str, Any], at: str, where: str
) -> tuple[str, list[str]]:
    """The text of a message and the names of what it shared."""
    attachments = metadata.get("attachments")
    files = [a for a in attachments if isinstance(a, dict)] if isinstance(attachments, list) else []
    media = [str(a.get("name") or "a file") for a in files]
    if kind == "code":
        text = content.get("text")
        if not isinstance(text, str):
            raise InputError("not a string", path=where, record=at, field="content.text")
        return text, media
    parts = content.get("parts", [])
    if not isinstance(parts, list):
        raise InputError("not a list", path=where, record=at, field="content.parts")
    uploaded = {str(a.get("id")) for a in files} | {str(a.get("file_id")) for a in files}
    words = [p for p in parts if isinstance(p, str) and p.strip()]
    for part in parts:
        if isinstance(part, dict) and _pointer_id(part) not in uploaded:
            media.append(_MEDIA.get(str(part.get("content_type")), "a file"))
    return "\n\n".join(words), media


def _pointer_id(part: dict[str, Any]) -> str:
    """The file id an asset pointer names (``file-service://file-abc`` -> ``file-abc``),
    which ``metadata.attachments`` lists for an upload it names."""
    return str(part.get("asset_pointer", "")).rpartition("://")[2]


IMPORTER = Importer("chatgpt", "ChatGPT export", _claims, _read)
