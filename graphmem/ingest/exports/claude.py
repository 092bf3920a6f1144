"""Claude.ai's data export (Settings > Privacy > Export data): ``conversations.json``
alone, or the zip (or its unpacked folder) that holds it beside ``users.json`` and
``projects.json``. A single conversation object of the same shape is read too.

Kept: the messages of the human and the assistant, in the order of ``chat_messages``, one
graphmem conversation per Claude conversation, titled by its ``name``. Speakers are
``User`` and ``Assistant``: the names the designs' user-assistant rules know
(``Settings.assistant_speakers``; the app is the conversation's ``format``).

Decisions:

- Text: the ``text`` blocks of ``content``, joined by a blank line, when the message has a
  ``content`` list; its ``text`` field otherwise. (Not ``text`` first: in the exports it
  runs the model's thinking into the answer and puts "This block is not supported on your
  current device yet." where a tool was used.) When ``text`` is what is left, those
  placeholders are taken out of it.
- Left out and counted: ``tool_use`` and ``tool_result`` blocks ("tool blocks"), the
  model's ``thinking`` blocks ("reasoning blocks"), blocks of another type ("non-text
  blocks"), each block counted; the message keeps its other blocks. A message of tools only
  (or, read from ``text``, of placeholders only) has no words: it is also counted, once, as
  one of the "tool messages".
- Attachments (``attachments``, text files whose ``extracted_content`` Claude read) and
  ``files`` (images and documents), and ``image``/``file`` blocks, are named in the caption
  ("shared: utils.py"), each name once; the extracted content is not kept: it is the
  document, not the conversation. A message of media only is left out and counted
  ("media-only messages").
- Times: ``created_at`` (ISO-8601 with ``Z``) in the user's zone; a message without one is
  undated (it joins the session of the message before it).
- Ids: the first 8 characters of the conversation's ``uuid``; a later conversation sharing
  them with an earlier one takes its full uuid (the file is read as a stream).
- A conversation with no messages is left out and counted ("empty conversations"). A
  sender other than ``human``/``assistant``, a missing ``uuid`` or a ``chat_messages``
  that is not a list refuses the file, naming the conversation (position from 1, and its
  name) and the field.
- Records: ``conversation 2 message 4`` (positions from 1).
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
    "Claude.ai's conversations.json (a list of conversations with 'chat_messages'), "
    "or the export zip holding it"
)
_SPEAKERS = {"human": USER, "assistant": ASSISTANT}
_BLOCK_LEFT = {
    "tool_use": "tool blocks",
    "tool_result": "tool blocks",
    "thinking": "reasoning blocks",
    "redacted_thinking": "reasoning blocks",
}
_MEDIA_BLOCKS = {"image": "an image", "file": "a file", "document": "a file"}
# What the export writes into ``text`` where a block (a tool call, an artifact) was.
_PLACEHOLDER = re.compile(
    r"\n*```\n*This block is not supported on your current device yet\.\n*```\n*"
)
_UUID_KEY = re.compile(rb'"uuid"\s*:')


def _conversation(
    conv: dict[str, Any], n: int, ids: ShortIds, where: str, ctx: Context
) -> Iterator[Message]:
    title = conv.get("name")
    uuid = conv.get("uuid")
    if not isinstance(uuid, str) or not uuid.strip():
        raise InputError("no uuid string", path=where, record=named(n, title), field="uuid")
    messages = conv.get("chat_messages")
    if not isinstance(messages, list):
        raise InputError("not a list", path=where, record=named(n, title), field="chat_messages")
    if not messages:
        ctx.leave("empty conversations")
        return
    yield from messages_of(ids.of(uuid.strip()), title, n, messages, _message, where, ctx)


def _message(message: Any, at: str, where: str, ctx: Context) -> Kept | None:
    """Speaker, text, caption and time of a message kept; None (counted) for one left out."""
    if not isinstance(message, dict):
        raise InputError("a message is not a JSON object", path=where, record=at)
    sender = message.get("sender")
    if not isinstance(sender, str) or sender not in _SPEAKERS:
        raise InputError(
            f"unknown sender {sender!r}: expected 'human' or 'assistant'",
            path=where,
            record=at,
            field="sender",
        )
    text, media, tools = _words(message, at, where, ctx)
    if not text.strip():
        if media:
            ctx.leave("media-only messages")
            return None
        if tools:
            ctx.leave("tool messages")
            return None
    raw = message.get("created_at")
    stamp = None if raw is None else ctx.stamp(raw, where, at, "created_at")
    return _SPEAKERS[sender], text, shared(media), stamp


def _words(
    message: dict[str, Any], at: str, where: str, ctx: Context
) -> tuple[str, list[str], bool]:
    """The text of a message, the names of what it shared, and whether it used a tool."""
    media = _attached(message, "attachments", at, where) + _attached(message, "files", at, where)
    content = message.get("content")
    if content is not None and not isinstance(content, list):
        raise InputError("not a list", path=where, record=at, field="content")
    blocks = [b for b in content or [] if isinstance(b, dict)]
    words: list[str] = []
    tools = False
    for block in blocks:
        kind = str(block.get("type"))  # another JSON type: an unknown block
        if kind == "text":
            if isinstance(block.get("text"), str) and block["text"].strip():
                words.append(block["text"])
        elif kind in _MEDIA_BLOCKS:
            media.append(str(block.get("file_name") or _MEDIA_BLOCKS[kind]))
        else:
            ctx.leave(_BLOCK_LEFT.get(kind, "non-text blocks"))
            tools = tools or kind in ("tool_use", "tool_result")
    if blocks:
        return "\n\n".join(words), media, tools
    text = message.get("text", "")
    if not isinstance(text, str):
        raise InputError("not a string", path=where, record=at, field="text")
    cleaned = _PLACEHOLDER.sub("\n\n", text)
    return cleaned.strip("\n") if cleaned != text else text, media, cleaned != text


def _attached(message: dict[str, Any], key: str, at: str, where: str) -> list[str]:
    value = message.get(key) or []
    if not isinstance(value, list):
        raise InputError("not a list", path=where, record=at, field=key)
    return [str(a.get("file_name") or "a file") for a in value if isinstance(a, dict)]


IMPORTER = importer(
    "claude", "Claude.ai export", "chat_messages", _UUID_KEY, ACCEPTED, _conversation
)
