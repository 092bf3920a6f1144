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
from typing import Any

from graphmem.errors import InputError
from graphmem.ingest.exports.ai_chats import (
    ASSISTANT,
    USER,
    Kept,
    ShortIds,
    importer,
    messages_of,
    named,
    shared,
)
from graphmem.ingest.exports.base import Context, Message

ACCEPTED = (
    "ChatGPT's conversations.json (a list of conversations with a 'mapping'), "
    "or the export zip holding it"
)
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
_CREATE_KEY = re.compile(rb'"create_time"\s*:')


def _conversation(
    conv: dict[str, Any], n: int, ids: ShortIds, where: str, ctx: Context
) -> Iterator[Message]:
    title = conv.get("title")
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
    yield from messages_of(ids.of(full.strip()), title, n, branch, _message, where, ctx)


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


def _message(message: Any, at: str, where: str, ctx: Context) -> Kept | None:
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


IMPORTER = importer("chatgpt", "ChatGPT export", "mapping", _CREATE_KEY, ACCEPTED, _conversation)
